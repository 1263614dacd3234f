// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - perf-hwtrace: `perf hwtrace <command>` (perf execs perf-<cmd> from
 * PATH), or run directly as `perf-hwtrace <command>`.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "pmu/pmu_internal.h"
#include "out.h"

static const struct command commands[] = {
	{ "report", cmd_report, "summary per AUX stream; -D dumps records and decoded payloads" },
	{ "script", cmd_script, "one line (or JSON/CSV row) per decoded unit; -s runs a Python hook" },
	{ "decode", cmd_decode, "decode a raw payload file outside perf.data" },
	{ "synth", cmd_synth, "write a deterministic perf.data as the drivers would" },
	{ "inject", cmd_inject, "AUX payloads -> tracepoint-style samples stock perf reads" },
	{ "record", cmd_record, "record AUX data from a PMU into perf.data" },
	{ "top", cmd_top, "DRM client usage monitor (fdinfo)" },
	{ "list", cmd_list, "list sysfs PMUs, their events and format terms" },
	{ "stat", cmd_stat, "count sysfs PMU events system-wide" },
	{ "exporter", cmd_exporter, "serve DRM client usage and PMU counts to Prometheus" },
	{ "convert", cmd_convert, "decoded records and CPU samples as a Perfetto trace" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

void pmu_warnings__print(const char *cmd, const struct hwt_pmu *pmu)
{
	const char *w = pmu ? hwt_pmu__warnings(pmu) : NULL;

	while (w && *w) {
		const char *nl = strchr(w, '\n');
		int n = nl ? (int)(nl - w) : (int)strlen(w);

		fprintf(stderr, "perf hwtrace %s: warning: %.*s\n", cmd, n, w);
		w += n + (nl ? 1 : 0);
	}
}

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

const char *command__summary(const char *name)
{
	const struct command *c = find(name);

	return c ? c->summary : NULL;
}

static void usage(FILE *f)
{
	fprintf(f, " usage: perf hwtrace <command> [options]\n"
		   "    or: perf hwtrace help <command>\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'perf hwtrace <command> -h' lists a command's options; "
		   "see also perf-hwtrace-<command>(1).\n");
}

/* `help VERB` is `VERB --help`: the verb's own table prints it. */
static int help(const char *verb)
{
	const struct command *c = find(verb);
	char *argv[] = { (char *)verb, (char *)"--help", NULL };

	if (!c) {
		fprintf(stderr, "perf hwtrace: unknown command '%s'\n", verb);
		usage(stderr);
		return EXIT_USAGE;
	}
	return c->fn(2, argv);
}

/* Every way out, return or exit(), passes out__setup()'s check of stdout. */
int main(int argc, char **argv)
{
	const struct command *c;

	out__setup(NULL);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		if (argc > 2 && !strcmp(argv[1], "help"))
			return help(argv[2]);
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("perf-hwtrace " HWTRACE_VERSION "\n");
		return 0;
	}
	if (!strcmp(argv[1], "--list-cmds")) {	/* for shell completion, as perf --list-cmds */
		for (size_t i = 0; i < NCOMMANDS; i++)
			printf("%s ", commands[i].name);
		printf("help\n");
		return 0;
	}
	if (!strcmp(argv[1], "--list-opts")) {
		printf("--help --version --list-cmds --list-opts\n");
		return 0;
	}
	c = find(argv[1]);
	if (c) {
		out__setup(c->name);
		return c->fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "perf hwtrace: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
