// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_script.c - perf hwtrace script -i F [-F fields] [--json|--csv] [decoder options]
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "run.h"
#include "script_python.h"

static void help(void)
{
	printf("usage: perf hwtrace script [-i FILE] [-F f1,f2,..] [--json|--csv]\n"
	       "                           [-s HOOK.py [ARGS]] [decoder options]\n"
	       "  one line per decoded unit (hotlist entry, panthor block, OA report);\n"
	       "  --json: one JSON object per line; --csv: CSV with a header row per type\n"
	       "  --null: decode every record but print only the totals (benchmarks)\n");
}

int cmd_script(int argc, char **argv)
{
	struct run_args a = { .mode = RUN_SCRIPT, .style = FS_TEXT };
	static const char *fields[64];
	struct cli c;
	int ret;

	cli__init(&c, "script");
	c.input = "perf.data";
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *v;
		int r;

		if (!strcmp(arg, "--json")) {
			a.style = FS_JSON;
		} else if (!strcmp(arg, "--csv")) {
			a.style = FS_CSV;
		} else if (!strcmp(arg, "--null")) {
			a.mode = RUN_COUNT;
		} else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			help();
			return 0;
		} else if ((v = cli__opt_value(argc, argv, &i, "-F")) ||
			   (v = cli__opt_value(argc, argv, &i, "--fields"))) {
			a.nfields = split_list(strdup(v), fields, 64);
			a.fields = fields;
		} else if (!strcmp(arg, "-s") || !strncmp(arg, "--script", 8)) {
			return script_python__main(&c, argc, argv, i);
		} else if ((r = cli__common_opt(&c, argc, argv, &i)) != 0) {
			if (r < 0)
				return EXIT_USAGE;
		} else {
			return usage_error("script", "unknown option '%s' (see --help)", arg);
		}
	}
	ret = run(&c, &a);
	cli__fini(&c);
	return ret;
}
