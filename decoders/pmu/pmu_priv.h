/* SPDX-License-Identifier: GPL-2.0 */
/* pmu_priv.h - struct hwt_pmu, shared by pmu_format.c (encoding) and pmu_sysfs.c (files). */
#ifndef HWTRACE_PMU_PRIV_H
#define HWTRACE_PMU_PRIV_H

#include "hwtrace/pmu_format.h"

#define HWT_PMU_MAX_RANGES 16

struct hwt_pmu_term {
	char *name;
	char *spec;		/* the format file's text, trimmed */
	int field;		/* 0 config, 1 config1, 2 config2, 3 config3 */
	int nranges;
	unsigned char lo[HWT_PMU_MAX_RANGES], hi[HWT_PMU_MAX_RANGES];
	int width;		/* total bits */
};

struct hwt_pmu_event {
	char *name;
	char *value;
	char *unit;
	char *scale;
};

struct hwt_pmu {
	char *name;
	uint32_t type;
	char *cpumask;
	struct hwt_pmu_term *terms;
	int nterms;
	struct hwt_pmu_event *events;
	int nevents;
	char *warnings;		/* what was dropped while loading, one line each, or NULL */
};

/* Append one line to pmu->warnings (a term dropped, and why). */
void hwt_pmu__add_warning(struct hwt_pmu *pmu, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Format an error message into @err, if the caller gave room for one. */
void hwt_pmu__seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
