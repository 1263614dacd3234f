/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stat_event.h - one counted perf event opened through libperf: what `stat`
 * counts and `exporter` serves as hwtrace_pmu_event_total.
 */
#ifndef PERF_HWTRACE_STAT_EVENT_H
#define PERF_HWTRACE_STAT_EVENT_H

#include <stdbool.h>
#include <sys/types.h>

#include <linux/perf_event.h>
#include <perf/evsel.h>

struct hwt_pmu;

struct stat_event {
	const char *name;
	struct perf_event_attr attr;
	struct hwt_pmu *pmu;
	struct perf_evsel *evsel;	/* NULL: not supported here */
	int ncpu;			/* its counters, one per CPU (1 per task) */
	struct perf_counts_values last;	/* raw sums at the previous interval */
};

/*
 * Opens @ev through libperf: on its PMU's cpumask (else every online CPU of
 * @sysfs) when @system_wide, else on @child.  The errors perf stat shows as
 * <not supported> leave ev->evsel NULL and return 0; others are reported
 * under "perf hwtrace @cmd" and return -1.
 */
int stat_event__open(struct stat_event *ev, const char *cmd, const char *sysfs, bool system_wide,
		     pid_t child);

/* The event's counters summed over its CPUs: value, time enabled, time running. */
struct perf_counts_values stat_event__read(struct stat_event *ev);

#endif
