/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmu_internal.h - PMU helpers for the perf-hwtrace tool and the tests (not installed).
 *
 * The tool links libhwtrace statically and uses these; libhwtrace.so does
 * not export them.  The *_err forms put the reason in a caller's buffer,
 * which is what the tool prints; the public forms in hwtrace/pmu_format.h
 * are thin wrappers that report it through a struct hwt_diag instead.
 */
#ifndef HWTRACE_PMU_INTERNAL_H
#define HWTRACE_PMU_INTERNAL_H

#include "hwtrace/pmu_format.h"

/* hwt_pmu__new_sysfs(), hwt_pmu__parse_event() and hwt_pmu__encode() with the reason in @err */
struct hwt_pmu *hwt_pmu__new_sysfs_err(const char *sysfs, const char *name, char *err,
				       size_t errlen);
int hwt_pmu__parse_event_err(const char *sysfs, const char *event, struct perf_event_attr *attr,
			     struct hwt_pmu **pmu, char *err, size_t errlen);
int hwt_pmu__encode_err(const struct hwt_pmu *pmu, const char *terms,
			struct perf_event_attr *attr, char *err, size_t errlen);

/*
 * What hwt_pmu__new_sysfs_err() dropped and why ("format/x: ...", one line
 * each, newline-terminated), or NULL: a bad format file costs only its term.
 */
const char *hwt_pmu__warnings(const struct hwt_pmu *pmu);

/*
 * The config words of the running kernel's perf_event_attr: 4 (config to
 * config3) when this build's linux/perf_event.h has config3 (Linux 6.3+),
 * else 3.  A config3 format term is kept either way; encoding a nonzero value
 * into it fails when the build cannot pass it on.
 */
int hwt_pmu__config_words(void);

/*
 * The perf-style event list @list ("a/x=1/,b/y=1/,cycles") split at the
 * commas outside slashes; returns the count, each event malloc'd in
 * (*@events)[i] (free each and the array), or -1 on ENOMEM.
 */
int hwt_event_list__split(const char *list, char ***events);

/*
 * The number in <sysfs>/bus/event_source/devices/<pmu>/<file> ("type",
 * "caps/ts_freq"): decimal, 0x hex or 0 octal, then at most a newline.
 * Returns 0, or -1 with *@v untouched (no file, junk, a sign, overflow).
 */
int hwt_pmu__sysfs_u64(const char *sysfs, const char *pmu, const char *file, uint64_t *v);

/* Names of the PMUs under <sysfs>/bus/event_source/devices, sorted; free with _list_free */
int hwt_pmu__list(const char *sysfs, char ***names);
void hwt_pmu__list_free(char **names, int n);

/*
 * The pure building blocks hwt_pmu__new_sysfs() uses (so encoding can be
 * tested without files).
 */
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
