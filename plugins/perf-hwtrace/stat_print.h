/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stat_print.h - perf stat's output formats for `perf hwtrace stat`.
 */
#ifndef HWTRACE_STAT_PRINT_H
#define HWTRACE_STAT_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* One event's aggregated count, as cmd_stat read it through libperf. */
struct stat_count {
	const char *name;	/* as the user spelled it, as perf shows it */
	const char *unit;	/* "msec" for the clocks, a sysfs .unit, or "" */
	double scale;		/* 1e-6 for the clocks, a sysfs .scale, or 1 */
	uint32_t type;		/* attr type/config: which derived column */
	uint64_t config;
	bool supported;		/* false: the open failed as perf's <not supported> */
	uint64_t val, ena, run;	/* summed over CPUs, val scaled by ena/run */
	int8_t scaled;		/* -1: never ran (<not counted>) */
};

struct stat_print {
	FILE *f;
	const char *sep;	/* -x SEP, or NULL for perf's columns */
	unsigned int unit_width;	/* widest unit, at least strlen("unit") */
	double walltime_ns;	/* elapsed time, or the interval's length */
	int intervals;		/* -I lines printed so far (header every 25) */
};

void stat_print__init(struct stat_print *sp, FILE *f, const char *sep,
		      const struct stat_count *c, int n);
void stat_print__header(const struct stat_print *sp, bool system_wide, char **argv);
void stat_print__counts(struct stat_print *sp, const struct stat_count *c, int n,
			uint64_t interval_ns);
void stat_print__footer(const struct stat_print *sp, const double *user_sys);

#endif
