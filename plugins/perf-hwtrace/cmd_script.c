// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_script.c - perf hwtrace script [-i F] [-F fields] [--json|--csv]
 * [filters] [--ns|--raw-time] [--reltime|--deltatime]
 * [-s HOOK.py] [decoder options] [-- HOOK ARGS]
 * -l | -g python [-i F]
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "commands.h"
#include "run.h"
#include "script_gen.h"
#include "script_python.h"

static const char *const script_usage[] = {
	"[-i FILE] [-F FIELDS] [--json|--csv|--null] [--metrics] [--time T] [-C CPUS] [--pid P] "
	"[--tid T] [--type TYPES] [--ns|--raw-time] [--reltime|--deltatime] [decoder options]",
	"-s HOOK.py [-i FILE] [--time T] [-C CPUS] [--pid P] [--tid T] [--type TYPES] "
	"[decoder options] [-- HOOK ARGS]",
	"-l",
	"-g python [-i FILE] [decoder options]",
	NULL,
};

/* The hook must be a file we can read: a usage error before any input. */
static int check_hook(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return usage_error("script", "-s %s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return usage_error("script", "-s %s: is a directory, not a Python hook", path);
	return 0;
}

int cmd_script(int argc, char **argv)
{
	struct run_args a = { .mode = RUN_SCRIPT, .style = FS_TEXT };
	static struct cli_fields fields = { .cmd = "script" };
	const char *hook = NULL, *gen = NULL;
	bool list = false;
	struct cli c;
	const struct parse_opt opts[] = {
		OPT_STRING('i', "input", &c.input, "FILE",
			   "perf.data to read ('-': stdin, pipe mode); default perf.data"),
		OPT_CALLBACK('F', "fields", &fields, "FIELDS",
			     "fields to show: f1,f2 | TYPE:f1,f2 | +f1 (the defaults and f1)",
			     cli__fields_opt),
		OPT_SET_INT(0, "json", &a.style, "one JSON object per line", FS_JSON),
		OPT_SET_INT(0, "csv", &a.style, "CSV with a header row", FS_CSV),
		OPT_BOOLEAN(0, "metrics", &a.metrics,
			    "add each record's metrics (metric set, derived metrics); -F takes "
			    "their names"),
		OPT_SET_INT(0, "null", &a.mode,
			    "decode every record but print only the totals (benchmarks)", RUN_COUNT),
		OPT_STRING('s', "script", &hook, "HOOK.py",
			   "run a perf-script Python hook; its arguments follow --"),
		OPT_BOOLEAN('l', "list", &list, "list the shipped hooks (scripts/*.py)"),
		OPT_STRING('g', "gen-script", &gen, "python",
			   "write perf-script.py: a hook per record type of the input"),
		RECORD_FILTER_OPTS(&a.filter),
		OPT_SET_INT(0, "ns", &a.time, "show times as secs.nsecs (default secs.usecs)",
			    TS_NSECS),
		OPT_SET_INT(0, "raw-time", &a.time, "show times as integer nanoseconds",
			    TS_RAW),
		OPT_BOOLEAN(0, "reltime", &a.reltime, "times since the first record shown"),
		OPT_BOOLEAN(0, "deltatime", &a.deltatime, "times since the previous record shown"),
		OPT_END(),
	};
	struct parse_cmd cmd = { "script", script_usage, command__summary("script"), NULL };
	int nargs, ret;

	a.filter.cmd = "script";
	cli__init(&c, "script");
	c.input = "perf.data";
	/* as perf script: the first non-option starts the hook's arguments */
	nargs = cli__parse(&c, &cmd, opts, argc, argv, PARSE_OPT_STOP_AT_NON_OPTION);
	if (nargs < 0)
		ret = nargs == PARSE_OPT_DONE ? nargs : EXIT_USAGE;
	else if ((list || gen) && (hook || fields.n || a.style != FS_TEXT ||
				   a.mode != RUN_SCRIPT || record_filter__active(&a.filter) ||
				   a.time != TS_USECS || a.reltime || a.deltatime || nargs > 0))
		ret = usage_error("script", "-l and -g take no other script options but -i "
				  "and decoder options");
	else if (list && gen)
		ret = usage_error("script", "-l and -g: give one");
	else if (gen && strcasecmp(gen, "python") && strcasecmp(gen, "py"))
		ret = usage_error("script", "-g %s: only python hooks are generated", gen);
	else if (nargs > 0 && !hook)
		ret = usage_error("script", "unexpected argument '%s' (hook arguments need -s; "
				  "see --help)", argv[0]);
	else if (hook && (fields.n || a.style != FS_TEXT || a.mode != RUN_SCRIPT || a.metrics))
		ret = usage_error("script", "-s runs a hook: -F, --json, --csv, --null and "
				  "--metrics do not apply");
	else if (hook && (a.time != TS_USECS || a.reltime || a.deltatime))
		ret = usage_error("script", "-s runs a hook: time formats do not apply (the "
				  "hook sees common_secs, common_nsecs)");
	else if (a.reltime && a.deltatime)
		ret = usage_error("script", "--reltime and --deltatime: give one");
	else if (!hook && cli__fields_metrics(&fields, a.metrics, a.style))
		ret = EXIT_USAGE;
	else if (a.filter.percent && !strcmp(c.input, "-"))
		ret = usage_error("script", "--time with percent reads the input twice: "
				  "not a pipe");
	else
		ret = cli__check_opts(&c, NULL);
	if (!ret && hook)
		ret = check_hook(hook);
	if (!ret && gen)
		ret = script_gen__check(&c);
	if (!ret && list) {
		ret = script_gen__list();
	} else if (!ret && gen) {
		ret = script_gen__python(&c);
	} else if (!ret && hook) {
		ret = script_python__main(&c, hook, nargs, argv, &a.filter);
	} else if (!ret) {
		cli__fields_apply(&fields, &a);
		ret = run(&c, &a);
	}
	cli__fini(&c);
	return ret == PARSE_OPT_DONE ? 0 : ret;
}
