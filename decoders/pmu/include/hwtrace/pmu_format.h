/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmu_format.h - sysfs PMU descriptions and event-term encoding.
 *
 * Reads <sysfs>/bus/event_source/devices/<pmu>/{type,cpumask,format/<term>,events/<alias>}
 * and turns "pmu/term=value,.../" (or "pmu/alias/") into perf_event_attr
 * config, config1 and config2 (config3 terms, Linux 6.3+, are read; they can
 * be set when the build's linux/perf_event.h has config3).  A struct hwt_pmu
 * is opaque: made by hwt_pmu__new_sysfs() (or hwt_pmu__parse_event()), read
 * through the accessors, freed by hwt_pmu__delete().  What is wrong with sysfs files or an event
 * string is reported through a struct hwt_diag, as for every other input.
 */
#ifndef HWTRACE_PMU_FORMAT_H
#define HWTRACE_PMU_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "hwtrace/api.h"
#include "hwtrace/diag.h"

struct hwt_pmu;

/**
 * hwt_pmu__new_sysfs - read one PMU's sysfs description
 * @sysfs:	sysfs root ("/sys" or a fixture directory)
 * @name:	PMU name, e.g. "cxl_hmu_mem0.0.0"
 * @diag:	why it failed (unknown PMU, unreadable type); a format file that
 *		cannot be parsed only drops its term, with a warning here
 *
 * Returns the PMU, or NULL after one error was reported to @diag.
 */
HWT_API struct hwt_pmu *hwt_pmu__new_sysfs(const char *sysfs, const char *name,
					   struct hwt_diag *diag);

/**
 * hwt_pmu__delete - free @pmu (NULL is allowed)
 */
HWT_API void hwt_pmu__delete(struct hwt_pmu *pmu);

HWT_API const char *hwt_pmu__name(const struct hwt_pmu *pmu);
/* perf_event_attr.type of the PMU */
HWT_API uint32_t hwt_pmu__type(const struct hwt_pmu *pmu);
/* CPUs from the cpumask file ("0-3,8"); returns the count written to @cpus (up to @max) */
HWT_API int hwt_pmu__cpus(const struct hwt_pmu *pmu, int *cpus, int max);
/* the cpumask text ("" when the PMU has none: any CPU or per task) */
HWT_API const char *hwt_pmu__cpumask(const struct hwt_pmu *pmu);
/* true for PMUs that only count system-wide (cxl_pmu*): no sampling, no per-task */
HWT_API int hwt_pmu__counting_only(const struct hwt_pmu *pmu);
/* number of format terms; name of term @i, @spec gets its text, e.g. "config1:0-15" */
HWT_API int hwt_pmu__nterms(const struct hwt_pmu *pmu);
HWT_API const char *hwt_pmu__term(const struct hwt_pmu *pmu, int i, const char **spec);
/* number of event aliases; name of alias @i, @value gets its terms, e.g. "config=0x1e98" */
HWT_API int hwt_pmu__nevents(const struct hwt_pmu *pmu);
HWT_API const char *hwt_pmu__event(const struct hwt_pmu *pmu, int i, const char **value);
/* the .unit and .scale of alias @i, or NULL */
HWT_API const char *hwt_pmu__event_unit(const struct hwt_pmu *pmu, int i);
HWT_API const char *hwt_pmu__event_scale(const struct hwt_pmu *pmu, int i);

/**
 * hwt_pmu__term_value - the value format term @name has in @attr (the encoding undone)
 *
 * Returns 0 with *@v set, or -1 if the PMU has no such term.
 */
HWT_API int hwt_pmu__term_value(const struct hwt_pmu *pmu, const struct perf_event_attr *attr,
				const char *name, uint64_t *v);

/**
 * hwt_pmu__parse_event - encode an event string into @attr
 * @sysfs:	sysfs root
 * @event:	"pmu/term=value,term,.../", "pmu/alias/", "pmu/alias,term=v/", or
 *		a generic name such as "cpu-clock"
 * @attr:	filled: type, config, config1, config2, size
 * @pmu:	set to the opened PMU (the caller deletes it), may be NULL
 * @diag:	the reason on failure, naming the term and its bit range
 *
 * Returns 0, or -1 after one error was reported to @diag (unknown PMU,
 * unknown term, value too large).
 */
HWT_API int hwt_pmu__parse_event(const char *sysfs, const char *event, struct perf_event_attr *attr,
				 struct hwt_pmu **pmu, struct hwt_diag *diag);

/**
 * hwt_pmu__encode - encode the terms between the slashes of an event string
 * @pmu:	the PMU whose format/ and events/ are used
 * @terms:	"term=value,term,alias,..." (may be empty)
 * @attr:	config, config1, config2 (and sample_period/freq for the
 *		"period="/"freq=" terms) updated; type set to the PMU's
 * @diag:	the reason on failure, naming the term and its bit range
 *
 * Returns 0, or -1 after one error was reported to @diag.
 */
HWT_API int hwt_pmu__encode(const struct hwt_pmu *pmu, const char *terms,
			    struct perf_event_attr *attr, struct hwt_diag *diag);

#endif
