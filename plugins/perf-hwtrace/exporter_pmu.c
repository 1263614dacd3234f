// SPDX-License-Identifier: GPL-2.0
/*
 * exporter_pmu.c - -e events of `exporter`: encoded by the sysfs PMU code,
 * opened and read by stat_event.c as `stat -a` does, rendered as counters.
 *
 * Labels: pmu is the sysfs PMU's name ("cpu" for the generic hardware
 * events, "software" for the software ones), event what stands between its
 * slashes (or the generic name).  Values are scaled by enabled/running, as
 * perf stat scales a multiplexed count.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perf/core.h>

#include "commands.h"
#include "exporter_metrics.h"
#include "exporter_pmu.h"
#include "pmu/pmu_internal.h"

static int libperf_print(enum libperf_print_level level, const char *fmt, va_list ap)
{
	if (level > LIBPERF_WARN)
		return 0;
	fprintf(stderr, "perf hwtrace exporter: libperf: ");
	return vfprintf(stderr, fmt, ap);
}

/* pmu and event labels of @ev */
static void labels_of(struct exporter_pmu *p, int i)
{
	const struct stat_event *ev = &p->evs[i];
	const char *slash = strchr(ev->name, '/');
	const char *pmu;

	if (ev->pmu && slash) {
		size_t len = strlen(slash + 1);

		p->pmu[i] = strdup(hwt_pmu__name(ev->pmu));
		if (len && slash[len] == '/')
			len--;
		p->event[i] = strndup(slash + 1, len);
		return;
	}
	switch (ev->attr.type) {
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_HW_CACHE:
		pmu = "cpu";
		break;
	case PERF_TYPE_SOFTWARE:
		pmu = "software";
		break;
	default:
		pmu = ev->pmu ? hwt_pmu__name(ev->pmu) : "";
	}
	p->pmu[i] = strdup(pmu);
	p->event[i] = strdup(ev->name);
}

int exporter_pmu__parse(struct exporter_pmu *p, const char *sysfs, const char **names, int n)
{
	char err[512];

	memset(p, 0, sizeof(*p));
	for (int i = 0; i < n; i++) {
		struct stat_event *ev = &p->evs[i];

		ev->name = names[i];
		p->nev = i + 1;
		if (hwt_pmu__parse_event_err(sysfs, ev->name, &ev->attr, &ev->pmu, err,
					     sizeof(err)))
			return usage_error("exporter", "%s", err);
		pmu_warnings__print("exporter", ev->pmu);
		if (ev->attr.sample_period || ev->attr.freq)
			return usage_error("exporter", "%s: the exporter only counts; period=/freq= "
					   "are for sampling (record)", ev->name);
		labels_of(p, i);
		if (!p->pmu[i] || !p->event[i])
			return usage_error("exporter", "out of memory");
		/* two samples of one series would be invalid exposition */
		for (int j = 0; j < i; j++)
			if (!strcmp(p->pmu[j], p->pmu[i]) && !strcmp(p->event[j], p->event[i]))
				return usage_error("exporter", "-e %s: the same series as -e %s "
						   "(pmu=\"%s\", event=\"%s\")", ev->name,
						   p->evs[j].name, p->pmu[i], p->event[i]);
	}
	return 0;
}

int exporter_pmu__open(struct exporter_pmu *p, const char *sysfs)
{
	if (!p->nev)
		return 0;
	libperf_init(libperf_print);
	for (int i = 0; i < p->nev; i++) {
		if (stat_event__open(&p->evs[i], "exporter", sysfs, true, -1))
			return -1;
		if (!p->evs[i].evsel)
			fprintf(stderr, "perf hwtrace exporter: %s: not supported here, not served\n",
				p->evs[i].name);
		else
			perf_evsel__enable(p->evs[i].evsel);
	}
	return 0;
}

int exporter_pmu__render(struct exporter_pmu *p, struct membuf *b)
{
	int failed = 0;

	if (!p->nev)
		return 0;
	prom_buf__family(b, "hwtrace_pmu_event_total", "counter",
			 "Count of a perf PMU event (-e) over every CPU it counts on, "
			 "scaled by time enabled / time running.");
	for (int i = 0; i < p->nev; i++) {
		struct perf_counts_values v;

		if (!p->evs[i].evsel)
			continue;
		v = stat_event__read(&p->evs[i]);
		if (!v.ena) {	/* nothing read on any CPU */
			failed++;
			continue;
		}
		perf_counts_values__scale(&v, true, NULL);
		membuf__puts(b, "hwtrace_pmu_event_total{pmu=\"");
		prom_buf__label_value(b, p->pmu[i]);
		membuf__puts(b, "\",event=\"");
		prom_buf__label_value(b, p->event[i]);
		membuf__puts(b, "\"} ");
		prom_buf__u64(b, v.val);
		membuf__put(b, "\n", 1);
	}
	return failed;
}

void exporter_pmu__exit(struct exporter_pmu *p)
{
	for (int i = 0; i < p->nev; i++) {
		if (p->evs[i].evsel) {
			perf_evsel__disable(p->evs[i].evsel);
			perf_evsel__close(p->evs[i].evsel);
			perf_evsel__delete(p->evs[i].evsel);
		}
		hwt_pmu__delete(p->evs[i].pmu);
		free(p->pmu[i]);
		free(p->event[i]);
	}
	memset(p, 0, sizeof(*p));
}
