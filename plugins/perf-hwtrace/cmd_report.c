// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_report.c - perf hwtrace report -i F [-D|--dump-raw-trace|--dump-raw-traces]
 * [--stats] [decoder options]
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "run.h"

static void help(void)
{
	printf("usage: perf hwtrace report [-i FILE] [-D|--dump-raw-trace|--dump-raw-traces]\n"
	       "                           [--stats] [--no-decode] [decoder options]\n"
	       "  -i FILE     perf.data to read ('-' = stdin, pipe mode); default perf.data\n"
	       "  -D          dump every record as perf report -D does, with decoded payloads\n"
	       "  --stats     per-record-type counts, as perf report --stats\n"
	       "decoder options: --hdm base=..,size=..,ways=..,granularity=..,pos=.. (CXL HMU),\n"
	       "  --top N, --granual N; see perf-hwtrace(1)\n");
}

int cmd_report(int argc, char **argv)
{
	struct run_args a = { .mode = RUN_REPORT };
	struct cli c;
	int ret;

	cli__init(&c, "report");
	c.input = "perf.data";
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		int r;

		if (!strcmp(arg, "-D") || !strcmp(arg, "--dump-raw-trace") ||
		    !strcmp(arg, "--dump-raw-traces")) {
			a.mode = RUN_DUMP;
		} else if (!strcmp(arg, "--stats")) {
			a.stats = true;
		} else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			help();
			return 0;
		} else if ((r = cli__common_opt(&c, argc, argv, &i)) != 0) {
			if (r < 0)
				return EXIT_USAGE;
		} else {
			return usage_error("report", "unknown option '%s' (see --help)", arg);
		}
	}
	ret = run(&c, &a);
	cli__fini(&c);
	return ret;
}
