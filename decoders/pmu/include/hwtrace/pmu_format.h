/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmu_format.h - sysfs PMU descriptions and event-term encoding.
 *
 * Reads <sysfs>/bus/event_source/devices/<pmu>/{type,cpumask,format/<term>,events/<alias>}
 * and turns "pmu/term=value,.../" (or "pmu/alias/") into perf_event_attr
 * config, config1 and config2.
 */
#ifndef HWTRACE_PMU_FORMAT_H
#define HWTRACE_PMU_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct hwt_pmu;

/**
 * hwt_pmu__new_sysfs - read one PMU's sysfs description
 * @sysfs:	sysfs root ("/sys" or a fixture directory)
 * @name:	PMU name, e.g. "cxl_hmu_mem0.0.0"
 * @err:	reason on failure
 * @errlen:	size of @err
 */
struct hwt_pmu *hwt_pmu__new_sysfs(const char *sysfs, const char *name, char *err, size_t errlen);
void hwt_pmu__delete(struct hwt_pmu *pmu);
const char *hwt_pmu__name(const struct hwt_pmu *pmu);
uint32_t hwt_pmu__type(const struct hwt_pmu *pmu);
/*
 * The number in <sysfs>/bus/event_source/devices/<pmu>/<file> ("type",
 * "caps/ts_freq"): decimal, 0x hex or 0 octal, then at most a newline.
 * Returns 0, or -1 with *@v untouched (no file, junk, a sign, overflow).
 */
int hwt_pmu__sysfs_u64(const char *sysfs, const char *pmu, const char *file, uint64_t *v);
/* CPUs from the cpumask file ("0-3,8"); returns the count written to @cpus (up to @max) */
int hwt_pmu__cpus(const struct hwt_pmu *pmu, int *cpus, int max);

/**
 * hwt_event__parse - encode an event string into @attr
 * @sysfs:	sysfs root
 * @event:	"pmu/term=value,term,.../", "pmu/alias/", "pmu/alias,term=v/"
 * @attr:	filled: type, config, config1, config2, size
 * @pmu:	set to the opened PMU (caller closes), may be NULL
 * @err:	reason on failure, naming the term and its bit range
 * @errlen:	size of @err
 *
 * Returns 0, or -1 with @err set (unknown PMU, unknown term, value too large).
 */
int hwt_event__parse(const char *sysfs, const char *event, struct perf_event_attr *attr,
		     struct hwt_pmu **pmu, char *err, size_t errlen);

/*
 * Enumeration for `list`, and the pure building blocks hwt_pmu__new_sysfs() uses
 * (so encoding can be tested without files).
 */
/* Names of the PMUs under <sysfs>/bus/event_source/devices, sorted; free with _list_free */
int hwt_pmu__list(const char *sysfs, char ***names);
void hwt_pmu__list_free(char **names, int n);
int hwt_pmu__nterms(const struct hwt_pmu *pmu);
/* name of format term @i; @spec gets its text, e.g. "config1:0-15" */
const char *hwt_pmu__term(const struct hwt_pmu *pmu, int i, const char **spec);
int hwt_pmu__nevents(const struct hwt_pmu *pmu);
/* name of event alias @i; @value gets its terms, e.g. "config=0x1e9800000001" */
const char *hwt_pmu__event(const struct hwt_pmu *pmu, int i, const char **value);
/* the .unit and .scale of alias @i, or NULL */
const char *hwt_pmu__event_unit(const struct hwt_pmu *pmu, int i);
const char *hwt_pmu__event_scale(const struct hwt_pmu *pmu, int i);
/* the cpumask text ("" when the PMU has none: any CPU or per task) */
const char *hwt_pmu__cpumask(const struct hwt_pmu *pmu);
/* true for PMUs that only count system-wide (cxl_pmu*): no sampling, no per-task */
int hwt_pmu__counting_only(const struct hwt_pmu *pmu);

struct hwt_pmu *hwt_pmu__new(const char *name, uint32_t type);
/* add format term @name from its file text; -1 with @err on bad syntax */
int hwt_pmu__add_format(struct hwt_pmu *pmu, const char *name, const char *text, char *err,
			size_t errlen);
int hwt_pmu__add_event(struct hwt_pmu *pmu, const char *name, const char *text);
int hwt_pmu__set_event_info(struct hwt_pmu *pmu, const char *name, const char *unit,
			    const char *scale);
int hwt_pmu__set_cpumask(struct hwt_pmu *pmu, const char *text);
/* parse a cpu list "0-3,8" into @cpus; returns the count (up to @max) or -1 */
int hwt_cpulist__parse(const char *text, int *cpus, int max);
/* <sysfs>/devices/system/cpu/online (else /sys's, else sysconf) into @cpus; the count */
int hwt_cpulist__online(const char *sysfs, int *cpus, int max);

/**
 * hwt_event__encode - encode the terms between the slashes of an event string
 * @pmu:	the PMU whose format/ and events/ are used
 * @terms:	"term=value,term,alias,..." (may be empty)
 * @attr:	config, config1, config2 (and sample_period/freq for the
 *		"period="/"freq=" terms) updated; type set to the PMU's
 * @err:	reason on failure, naming the term and its bit range
 * @errlen:	size of @err
 */
int hwt_event__encode(const struct hwt_pmu *pmu, const char *terms,
		      struct perf_event_attr *attr, char *err, size_t errlen);
/* The value format term @name has in @attr (the encoding undone); 0, or -1 if no such term */
int hwt_pmu__term_value(const struct hwt_pmu *pmu, const struct perf_event_attr *attr,
			const char *name, uint64_t *v);

/**
 * hwt_event__generic - the generic event names perf knows without sysfs
 * @name:	"cpu-clock", "task-clock", "cycles", "instructions", ...
 * @type:	PERF_TYPE_SOFTWARE or PERF_TYPE_HARDWARE
 * @config:	the event's config
 * Returns 0, or -1 if @name is not one of them.
 */
int hwt_event__generic(const char *name, uint32_t *type, uint64_t *config);
/* name of generic event @i (NULL past the end) and its type/config */
const char *hwt_event__generic_at(int i, uint32_t *type, uint64_t *config);

#endif
