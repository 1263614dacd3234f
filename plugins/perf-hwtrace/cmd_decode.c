// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_decode.c - perf hwtrace decode --type T [decoder options]
 * [-D|--json|--csv|--report] FILE: a raw payload outside perf.data
 * (design.rst 4.4), the context given as options.
 */
#include <stdio.h>
#include <string.h>

#include "hwtrace/device.h"

#include "commands.h"
#include "run.h"

static const char *const decode_usage[] = {
	"--type TYPE [decoder options] [-D|--json|--csv|--report|--null] FILE",
	NULL,
};

int cmd_decode(int argc, char **argv)
{
	struct run_args a = { .mode = RUN_SCRIPT, .style = FS_TEXT };
	static struct cli_fields fields = { .cmd = "decode" };
	const struct hwt_device *dev;
	struct cli c;
	const struct parse_opt opts[] = {
		OPT_STRING(0, "type", &a.raw_type, "TYPE",
			   "what the file holds: a device name (cxl-hmu, panthor, i915-oa)"),
		OPT_STRING('i', "input", &c.input, "FILE", "the payload file ('-': stdin)"),
		OPT_SET_INT('D', "dump-raw-trace", &a.mode, "dump the decoded units", RUN_DUMP),
		OPT_SET_INT(0, "dump-raw-traces", &a.mode, "the same as --dump-raw-trace",
			    RUN_DUMP),
		OPT_SET_INT(0, "report", &a.mode, "a summary, as perf hwtrace report", RUN_REPORT),
		OPT_SET_INT(0, "null", &a.mode,
			    "decode every record but print only the totals", RUN_COUNT),
		OPT_SET_INT(0, "json", &a.style, "one JSON object per line", FS_JSON),
		OPT_SET_INT(0, "csv", &a.style, "CSV with a header row", FS_CSV),
		OPT_CALLBACK('F', "fields", &fields, "FIELDS",
			     "fields to show: f1,f2 | TYPE:f1,f2 | +f1 (the defaults and f1)",
			     cli__fields_opt),
		OPT_END(),
	};
	struct parse_cmd cmd = { "decode", decode_usage, command__summary("decode"), NULL };
	int ret;

	cli__init(&c, "decode");
	ret = cli__parse(&c, &cmd, opts, argc, argv, 0);
	if (ret < 0) {
		ret = ret == PARSE_OPT_DONE ? ret : EXIT_USAGE;
	} else if (ret > 1 || (ret == 1 && c.input)) {
		ret = usage_error("decode", "one input file only ('%s' and '%s')",
				  c.input ? c.input : argv[0], c.input ? argv[0] : argv[1]);
	} else {
		if (ret == 1)
			c.input = argv[0];
		dev = a.raw_type ? hwt_device__find(a.raw_type) : NULL;
		if (!a.raw_type)
			ret = usage_error("decode", "--type is required (see --help)");
		else if (!dev)
			ret = usage_error("decode", "unknown --type '%s' (see --help)", a.raw_type);
		else if (!c.input)
			ret = usage_error("decode", "no input file");
		else if (cli__fields_metrics(&fields, false, a.style))
			ret = EXIT_USAGE;
		else
			ret = cli__check_opts(&c, dev);
	}
	if (!ret) {
		cli__fields_apply(&fields, &a);
		ret = run(&c, &a);
	}
	cli__fini(&c);
	return ret == PARSE_OPT_DONE ? 0 : ret;
}
