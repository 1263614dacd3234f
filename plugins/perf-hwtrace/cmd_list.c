// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_list.c - `perf hwtrace list [--sysfs DIR] [glob]`: PMUs, their event
 * aliases and format terms with bit ranges, from sysfs.
 */
#include <fnmatch.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "parse_options.h"
#include "pmu/pmu_internal.h"
#include "out.h"

static bool match(const char *glob, const char *pmu, const char *ev)
{
	char full[512];

	if (!glob)
		return true;
	if (!ev)
		return !fnmatch(glob, pmu, 0);
	snprintf(full, sizeof(full), "%s/%s/", pmu, ev);
	return !fnmatch(glob, ev, 0) || !fnmatch(glob, full, 0);
}

/* sysfs strings are escaped for the terminal: at most 4 bytes each per byte */
#define ESC_MAX 1024
#define ESC(buf, s) out__escape(buf, sizeof(buf), s)

static void list_pmu(struct out *o, struct hwt_pmu *pmu, const char *glob)
{
	const char *name = hwt_pmu__name(pmu);
	char ename[ESC_MAX], e1[ESC_MAX], e2[ESC_MAX];
	bool all = match(glob, name, NULL);
	bool generic = hwt_pmu__type(pmu) == PERF_TYPE_SOFTWARE ||
		       hwt_pmu__type(pmu) == PERF_TYPE_HARDWARE;
	int nev = 0;

	for (int i = 0; i < hwt_pmu__nevents(pmu); i++)
		nev += all || match(glob, name, hwt_pmu__event(pmu, i, NULL));
	for (int i = 0; generic && hwt_event__generic_at(i, NULL, NULL); i++) {
		uint32_t type;
		const char *ev = hwt_event__generic_at(i, &type, NULL);

		nev += type == hwt_pmu__type(pmu) && (all || match(glob, name, ev));
	}
	if (!all && !nev)
		return;
	ESC(ename, name);
	out__printf(o, "%s (type %u%s%s%s)\n", ename, hwt_pmu__type(pmu),
		    *hwt_pmu__cpumask(pmu) ? ", cpus " : "", ESC(e1, hwt_pmu__cpumask(pmu)),
		    hwt_pmu__counting_only(pmu) ? ", counting only, system-wide" : "");
	if (all && hwt_pmu__nterms(pmu)) {
		out__puts(o, "  terms:\n");
		for (int i = 0; i < hwt_pmu__nterms(pmu); i++) {
			const char *spec, *t = hwt_pmu__term(pmu, i, &spec);

			out__printf(o, "    %-28s %s\n", ESC(e1, t), ESC(e2, spec));
		}
	}
	if (nev)
		out__puts(o, "  events:\n");
	for (int i = 0; i < hwt_pmu__nevents(pmu); i++) {
		const char *val, *ev = hwt_pmu__event(pmu, i, &val);
		const char *unit = hwt_pmu__event_unit(pmu, i);
		const char *scale = hwt_pmu__event_scale(pmu, i);
		char full[512];

		if (!all && !match(glob, name, ev))
			continue;
		snprintf(full, sizeof(full), "%s/%s/", name, ev);
		out__printf(o, "    %-40s %s", ESC(e1, full), ESC(e2, val));
		if (unit)
			out__printf(o, "  unit=%s", ESC(e1, unit));
		if (scale)
			out__printf(o, "  scale=%s", ESC(e1, scale));
		out__putc(o, '\n');
	}
	for (int i = 0; generic && hwt_event__generic_at(i, NULL, NULL); i++) {
		uint32_t type;
		uint64_t cfg;
		const char *ev = hwt_event__generic_at(i, &type, &cfg);
		char full[512];

		if (type != hwt_pmu__type(pmu) || (!all && !match(glob, name, ev)))
			continue;
		snprintf(full, sizeof(full), "%s/%s/", name, ev);
		out__printf(o, "    %-40s config=%#llx (generic: %s)\n", ESC(e1, full),
			    (unsigned long long)cfg, ev);
	}
}

static const char *const list_usage[] = {
	"[--sysfs DIR] [GLOB]",
	NULL,
};

int cmd_list(int argc, char **argv)
{
	const char *sysfs = "/sys", *glob = NULL;
	const struct parse_opt opts[] = {
		OPT_STRING(0, "sysfs", &sysfs, "DIR", "sysfs root (default /sys)"),
		OPT_END(),
	};
	const struct parse_cmd cmd = { "list", list_usage, command__summary("list"), opts };
	char **names, err[512];
	struct out *o;
	int n, ret = 0;

	n = parse_options(argc, argv, &cmd, 0);
	if (n < 0)
		return parse_options__status(n);
	if (n > 1)
		return usage_error("list", "one glob only ('%s' and '%s')", argv[0], argv[1]);
	glob = n ? argv[0] : NULL;
	n = hwt_pmu__list(sysfs, &names);
	if (n < 0) {
		fprintf(stderr, "perf hwtrace list: no PMUs under %s/bus/event_source/devices\n",
			sysfs);
		return EXIT_INPUT_ERROR;
	}
	o = out__stdout();
	for (int i = 0; i < n; i++) {
		struct hwt_pmu *pmu = hwt_pmu__new_sysfs_err(sysfs, names[i], err, sizeof(err));

		if (!pmu) {
			out__flush(o);
			fprintf(stderr, "perf hwtrace list: %s\n", err);
			ret = EXIT_INPUT_ERROR;
			continue;
		}
		out__flush(o);
		pmu_warnings__print("list", pmu);
		list_pmu(o, pmu, glob);
		hwt_pmu__delete(pmu);
	}
	out__flush(o);
	hwt_pmu__list_free(names, n);
	return ret;
}
