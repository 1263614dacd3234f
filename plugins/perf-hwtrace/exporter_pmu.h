/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exporter_pmu.h - the -e events of `perf hwtrace exporter`, counted
 * system-wide as `stat -a` counts them, served as hwtrace_pmu_event_total.
 */
#ifndef PERF_HWTRACE_EXPORTER_PMU_H
#define PERF_HWTRACE_EXPORTER_PMU_H

#include <stdint.h>

#include "stat_event.h"

struct membuf;

#define EXPORTER_MAX_EVENTS 64

struct exporter_pmu {
	struct stat_event evs[EXPORTER_MAX_EVENTS];
	char *pmu[EXPORTER_MAX_EVENTS], *event[EXPORTER_MAX_EVENTS];	/* the labels */
	int nev;
};

/* Encode @names through @sysfs; a usage error (exit status 2) for an unknown one. */
int exporter_pmu__parse(struct exporter_pmu *p, const char *sysfs, const char **names, int n);
/* Open and enable the counters; -1 after saying why. */
int exporter_pmu__open(struct exporter_pmu *p, const char *sysfs);
/* Append hwtrace_pmu_event_total; the number of events that could not be read. */
int exporter_pmu__render(struct exporter_pmu *p, struct membuf *b);
void exporter_pmu__exit(struct exporter_pmu *p);

#endif
