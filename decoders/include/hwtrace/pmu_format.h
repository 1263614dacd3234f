/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmu_format.h - sysfs PMU descriptions and event-term encoding.
 *
 * Reads <sysfs>/bus/event_source/devices/<pmu>/{type,cpumask,format/*,events/*}
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
 * hwt_pmu__open - read one PMU's sysfs description
 * @sysfs:	sysfs root ("/sys" or a fixture directory)
 * @name:	PMU name, e.g. "cxl_hmu_mem0.0.0"
 * @err:	reason on failure
 * @errlen:	size of @err
 */
struct hwt_pmu *hwt_pmu__open(const char *sysfs, const char *name, char *err, size_t errlen);
void hwt_pmu__close(struct hwt_pmu *pmu);
const char *hwt_pmu__name(const struct hwt_pmu *pmu);
uint32_t hwt_pmu__type(const struct hwt_pmu *pmu);
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

#endif
