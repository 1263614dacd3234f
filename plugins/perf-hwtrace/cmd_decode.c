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

static void help(void)
{
	printf("usage: perf hwtrace decode --type TYPE [options] [-D|--json|--csv|--report|--null] FILE\n"
	       "types:");
	for (const struct hwt_device *const *d = hwt_devices; *d; d++) {
		printf(" %s", (*d)->name);
		if ((*d)->options && (*d)->options->key) {
			printf(" (");
			for (const struct hwt_dev_opt *k = (*d)->options; k->key; k++)
				printf("%s--%s", k == (*d)->options ? "" : " ", k->key);
			printf(")");
		}
		printf(";");
	}
	printf("\n  FILE '-' reads stdin.  --null: decode every record but print only the totals.\n");
}

int cmd_decode(int argc, char **argv)
{
	struct run_args a = { .mode = RUN_SCRIPT, .style = FS_TEXT };
	static const char *fields[64];
	struct cli c;
	int ret;

	cli__init(&c, "decode");
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *v;
		int r;

		if (!strcmp(arg, "-D") || !strcmp(arg, "--dump-raw-trace") ||
		    !strcmp(arg, "--dump-raw-traces")) {
			a.mode = RUN_DUMP;
		} else if (!strcmp(arg, "--report")) {
			a.mode = RUN_REPORT;
		} else if (!strcmp(arg, "--null")) {
			a.mode = RUN_COUNT;	/* decode every record, print only totals */
		} else if (!strcmp(arg, "--json")) {
			a.style = FS_JSON;
		} else if (!strcmp(arg, "--csv")) {
			a.style = FS_CSV;
		} else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			help();
			return 0;
		} else if ((v = cli__opt_value(argc, argv, &i, "--type"))) {
			a.raw_type = v;
		} else if ((v = cli__opt_value(argc, argv, &i, "-F"))) {
			a.nfields = split_list(strdup(v), fields, 64);
			a.fields = fields;
		} else if ((r = cli__decoder_opt(&c, argc, argv, &i)) != 0) {
			if (r < 0)
				return EXIT_USAGE;
		} else if (arg[0] == '-' && arg[1]) {
			return usage_error("decode", "unknown option '%s' (see --help)", arg);
		} else if (c.input) {
			return usage_error("decode", "one input file only ('%s' and '%s')",
					   c.input, arg);
		} else {
			c.input = arg;
		}
	}
	if (!a.raw_type)
		return usage_error("decode", "--type is required (see --help)");
	if (!hwt_decoder__find(a.raw_type))
		return usage_error("decode", "unknown --type '%s' (see --help)", a.raw_type);
	if (!c.input)
		return usage_error("decode", "no input file");
	ret = run(&c, &a);
	cli__fini(&c);
	return ret;
}
