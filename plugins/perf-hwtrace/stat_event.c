// SPDX-License-Identifier: GPL-2.0
/*
 * stat_event.c - open and read one counted perf event through libperf, for
 * `stat` and `exporter`.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <perf/cpumap.h>
#include <perf/threadmap.h>

#include "pmu/pmu_internal.h"
#include "stat_event.h"

#define MAX_CPUS 4096

struct perf_counts_values stat_event__read(struct stat_event *ev)
{
	struct perf_counts_values sum = { { { 0 } } };

	for (int i = 0; i < ev->ncpu; i++) {
		struct perf_counts_values v = { { { 0 } } };

		if (perf_evsel__read(ev->evsel, i, 0, &v))
			continue;
		sum.val += v.val;
		sum.ena += v.ena;
		sum.run += v.run;
	}
	return sum;
}

int stat_event__open(struct stat_event *ev, const char *cmd, const char *sysfs, bool system_wide,
		     pid_t child)
{
	struct perf_cpu_map *cpus = NULL;
	struct perf_thread_map *threads = NULL;
	int err;

	ev->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	ev->attr.disabled = 1;
	if (system_wide) {
		static int ids[MAX_CPUS];
		/* hwt_cpulist__parse caps a CPU at 1 << 20: 7 digits and a comma each */
		static char list[MAX_CPUS * 8 + 1];
		int ncpu = ev->pmu && *hwt_pmu__cpumask(ev->pmu) ?
			   hwt_pmu__cpus(ev->pmu, ids, MAX_CPUS) :
			   hwt_cpulist__online(sysfs, ids, MAX_CPUS);
		size_t off = 0;

		if (ncpu <= 0) {
			fprintf(stderr, "perf hwtrace %s: %s: no CPUs to count on\n", cmd, ev->name);
			return -1;
		}
		for (int i = 0; i < ncpu && off < sizeof(list); i++)
			off += snprintf(list + off, sizeof(list) - off, "%s%d", i ? "," : "", ids[i]);
		cpus = perf_cpu_map__new(list);
		ev->ncpu = perf_cpu_map__nr(cpus);
	} else {
		ev->attr.inherit = 1;
		ev->attr.enable_on_exec = 1;
		threads = perf_thread_map__new_array(1, &child);
		ev->ncpu = 1;
	}
	ev->evsel = perf_evsel__new(&ev->attr);
	if (!ev->evsel || (system_wide ? !cpus : !threads)) {
		fprintf(stderr, "perf hwtrace %s: %s: out of memory\n", cmd, ev->name);
		err = -ENOMEM;
		goto out;
	}
	err = perf_evsel__open(ev->evsel, cpus, threads);
	if (err == -ENOENT || err == -EOPNOTSUPP || err == -EINVAL || err == -ENOSYS ||
	    err == -ENXIO || err == -ENODEV) {
		/* as perf stat: counted as <not supported>, the rest goes on */
		perf_evsel__delete(ev->evsel);
		ev->evsel = NULL;
		err = 0;
	} else if (err) {
		fprintf(stderr, "perf hwtrace %s: %s: perf_event_open: %s%s\n", cmd, ev->name,
			strerror(-err), err == -EACCES || err == -EPERM ?
			" (needs root or a lower /proc/sys/kernel/perf_event_paranoid)" : "");
	}
out:
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
	return err ? -1 : 0;
}
