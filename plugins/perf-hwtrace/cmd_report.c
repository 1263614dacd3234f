// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_report.c - perf hwtrace report [-i FILE] [-D] [--stats] [--header[-only]]
 * [filters] [--metrics [--json]] [decoder options]; -q, -v and --stdio as perf report takes them.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "run.h"

static const char *const report_usage[] = {
	"[-i FILE] [-D [--file-order]] [--stats] [--header | --header-only] [-q] "
	"[--time T] [-C CPUS] [--pid P] [--tid T] [--type TYPES] [decoder options]",
	"--metrics [--json] [-i FILE] [decoder options]",
	NULL,
};

int cmd_report(int argc, char **argv)
{
	struct run_args a = { .mode = RUN_REPORT };
	struct cli c;
	bool verbose = false, stdio = false;
	const struct parse_opt opts[] = {
		OPT_STRING('i', "input", &c.input, "FILE",
			   "perf.data to read ('-': stdin, pipe mode); default perf.data"),
		OPT_SET_INT('D', "dump-raw-trace", &a.mode,
			    "dump every record as perf report -D does, with decoded payloads",
			    RUN_DUMP),
		OPT_SET_INT(0, "dump-raw-traces", &a.mode, "the same as --dump-raw-trace",
			    RUN_DUMP),
		OPT_BOOLEAN(0, "file-order", &a.file_order,
			    "-D: records as they are in the file, not sorted by time as perf sorts them"),
		OPT_BOOLEAN(0, "stats", &a.stats,
			    "only the per-record-type and per-event counts, as perf report --stats"),
		OPT_SET_INT(0, "header", &a.header,
			    "the header fields perf report --header prints, then the report", 1),
		OPT_SET_INT(0, "header-only", &a.header, "only the header fields", 2),
		OPT_BOOLEAN(0, "metrics", &a.metrics,
			    "only the devices' metrics, per context or run (metric sets, derived "
			    "metrics)"),
		OPT_SET_INT(0, "json", &a.style, "--metrics: one JSON object per line", FS_JSON),
		OPT_BOOLEAN('q', "quiet", &c.quiet,
			    "no warnings, no header, no byte totals (errors still shown)"),
		OPT_BOOLEAN('v', "verbose", &verbose, "accepted as perf takes it; no effect"),
		OPT_BOOLEAN(0, "stdio", &stdio, "accepted as perf takes it: output is always text"),
		RECORD_FILTER_OPTS(&a.filter),
		OPT_END(),
	};
	struct parse_cmd cmd = { "report", report_usage, command__summary("report"), NULL };
	int ret;

	a.filter.cmd = "report";
	cli__init(&c, "report");
	c.input = "perf.data";
	ret = cli__parse(&c, &cmd, opts, argc, argv, 0);
	if (ret == PARSE_OPT_ERROR)
		ret = EXIT_USAGE;
	else if (ret > 0)
		ret = usage_error("report", "unexpected argument '%s' (see --help)", argv[0]);
	else if (!ret && a.style == FS_JSON && !a.metrics)
		ret = usage_error("report", "--json is the form of --metrics: give both");
	else if (!ret && a.metrics && (a.mode == RUN_DUMP || a.stats || a.header))
		ret = usage_error("report", "--metrics: -D, --stats and --header do not apply");
	else if (!ret && a.metrics && record_filter__active(&a.filter))
		ret = usage_error("report", "--metrics are of every record: filters do not apply");
	else if (!ret && a.mode == RUN_DUMP && record_filter__active(&a.filter))
		ret = usage_error("report", "-D dumps every record: filters do not apply");
	else if (!ret && a.filter.percent && !strcmp(c.input, "-"))
		ret = usage_error("report", "--time with percent reads the input twice: "
				  "not a pipe");
	else if (!ret)
		ret = cli__check_opts(&c, NULL);
	if (!ret)
		ret = run(&c, &a);
	cli__fini(&c);
	return ret == PARSE_OPT_DONE ? 0 : ret;
}
