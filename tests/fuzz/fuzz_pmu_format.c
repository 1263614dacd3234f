// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_pmu_format.c - sysfs format-term parsing and event-string encoding.
 *
 * Input lines: "f NAME SPEC" adds a format term (SPEC as in format/NAME, e.g.
 * "config:0-7,32-35"), "e NAME VALUE" an events/ alias, "c LIST" a cpumask;
 * the last line is the event's term string, encoded against that PMU.
 */
#include <stdlib.h>
#include <string.h>

#include "pmu/pmu_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *save = NULL, *line, *last = "";
	struct hwt_pmu *pmu = hwt_pmu__new("fuzz_pmu", 42);
	struct perf_event_attr attr;
	char err[256];
	int cpus[64];

	if (!text || !pmu) {
		free(text);
		if (pmu)
			hwt_pmu__delete(pmu);
		return 0;
	}
	memcpy(text, data, size);
	text[size] = 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *name = line + 2, *val;

		last = line;
		if (strlen(line) < 2 || line[1] != ' ')
			continue;
		val = strchr(name, ' ');
		if (line[0] == 'c') {
			hwt_pmu__set_cpumask(pmu, name);
			hwt_cpulist__parse(name, cpus, 64);
			continue;
		}
		if (!val)
			continue;
		*val++ = 0;
		if (line[0] == 'f')
			hwt_pmu__add_format(pmu, name, val, err, sizeof(err));
		else if (line[0] == 'e')
			hwt_pmu__add_event(pmu, name, val);
	}
	memset(&attr, 0, sizeof(attr));
	hwt_pmu__encode_err(pmu, last, &attr, err, sizeof(err));
	hwt_pmu__delete(pmu);
	free(text);
	return 0;
}
