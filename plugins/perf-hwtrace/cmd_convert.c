// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_convert.c - perf hwtrace convert --to-perfetto OUT [-i FILE]
 * [--raw-counters] [decoder options]: the decoded records and the CPU
 * samples of a perf.data as a Perfetto trace (perf data convert's habit).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "cli.h"
#include "cpu_budget.h"
#include "output_file.h"
#include "sink_perfetto.h"

static const char *const convert_usage[] = {
	"--to-perfetto OUT [-i FILE] [--raw-counters] [decoder options]",
	NULL,
};

/* The first pass, when a track needs a summary before the first record. */
static int first_pass(struct cli *c, struct perfetto_sink *ps, struct hwt_session_opts *so)
{
	volatile int stop = 0;
	struct hwt_session_opts fo = *so;
	struct hwt_diag quiet = { .file = c->input };	/* the second pass reports problems */
	struct hwt_sink sink;

	fo.no_summary = false;
	fo.summary_only = true;
	fo.stop = &stop;
	perfetto_sink__first_pass(ps, &sink, &stop);
	return hwt_session__run(c->input, &fo, &sink, &quiet) < 0 ? -1 : 0;
}

static int convert(struct cli *c, const char *path, bool raw, bool metrics)
{
	struct hwt_session_opts so = { .opts = c->opts, .nopts = c->nopts, .no_summary = true,
				       .metrics = metrics, .cpus = cpu_budget__cpus };
	struct hwt_outfile *f = hwt_outfile__new(path);
	struct perfetto_sink *ps;
	struct hwt_sink sink;
	struct out *o;
	uint64_t packets, tracks;
	int ret, sret;

	if (!f) {
		fprintf(stderr, "perf hwtrace convert: %s: %s\n", path, strerror(errno));
		return EXIT_INPUT_ERROR;
	}
	o = malloc(sizeof(*o));
	ps = o ? perfetto_sink__new(o, raw) : NULL;
	if (!ps) {
		fprintf(stderr, "perf hwtrace convert: out of memory\n");
		free(o);
		hwt_outfile__delete(f, false);
		return EXIT_INPUT_ERROR;
	}
	out__init(o, hwt_outfile__fd(f));
	c->diag.file = c->input;
	/* a pipe is read once: no first pass (see Documentation/perfetto.rst) */
	if (strcmp(c->input, "-") && first_pass(c, ps, &so) < 0) {
		sret = -1;
	} else {
		perfetto_sink__init(ps, &sink);
		cli__guard_sink(c, &sink);
		sret = hwt_session__run(c->input, &so, &sink, &c->diag);
	}
	out__flush(o);
	ret = cli__status(c, sret);
	if (perfetto_sink__dropped(ps)) {
		fprintf(stderr, "perf hwtrace convert: %llu records could not be placed on the "
			"timeline\n", (unsigned long long)perfetto_sink__dropped(ps));
		ret = EXIT_INPUT_ERROR;
	}
	if (perfetto_sink__values_left_out(ps))
		ret = EXIT_INPUT_ERROR;	/* said when it happened */
	if (o->error) {
		fprintf(stderr, "perf hwtrace convert: write error: %s: %s\n", path,
			strerror(o->error));
		ret = EXIT_INPUT_ERROR;
	}
	perfetto_sink__counts(ps, &packets, &tracks);
	/* an input that could not be read at all leaves no output behind */
	if (hwt_outfile__delete(f, !o->error && sret >= 0) < 0) {
		fprintf(stderr, "perf hwtrace convert: write error: %s: %s\n", path,
			strerror(errno));
		ret = EXIT_INPUT_ERROR;
	}
	if (!c->quiet)
		fprintf(stderr, "perfetto: %llu packets, %llu tracks written to %s\n",
			(unsigned long long)packets, (unsigned long long)tracks, path);
	perfetto_sink__delete(ps);
	free(o);
	if (!c->quiet)
		cli__print_totals(c, stderr);
	return ret;
}

int cmd_convert(int argc, char **argv)
{
	const char *to_perfetto = NULL;
	bool raw = false, metrics = false;
	struct cli c;
	const struct parse_opt opts[] = {
		OPT_STRING(0, "to-perfetto", &to_perfetto, "OUT",
			   "write a Perfetto protobuf trace to OUT ('-': standard output)"),
		OPT_STRING('i', "input", &c.input, "FILE",
			   "perf.data or payload file to read ('-': stdin); default perf.data"),
		OPT_BOOLEAN(0, "raw-counters", &raw,
			    "also a track per raw counter (i915 OA A/B/C deltas)"),
		OPT_BOOLEAN(0, "metrics", &metrics,
			    "also a track per metric (i915 metric set per context, panthor "
			    "derived metrics)"),
		OPT_END(),
	};
	struct parse_cmd cmd = { "convert", convert_usage, command__summary("convert"), NULL };
	int nargs, ret;

	cli__init(&c, "convert");
	c.input = "perf.data";
	nargs = cli__parse(&c, &cmd, opts, argc, argv, 0);
	if (nargs < 0)
		ret = nargs == PARSE_OPT_DONE ? nargs : EXIT_USAGE;
	else if (nargs > 0)
		ret = usage_error("convert", "unexpected argument '%s'", argv[0]);
	else if (!to_perfetto)
		ret = usage_error("convert", "say what to write: --to-perfetto OUT");
	else if (!*to_perfetto)
		ret = usage_error("convert", "--to-perfetto: an empty file name");
	else if (!strcmp(to_perfetto, "-") && !strcmp(c.input, "-"))
		ret = 0;	/* stdin to stdout: nothing to compare */
	else
		ret = output_file__not_input("convert", to_perfetto, c.input);
	if (!ret)
		ret = cli__check_opts(&c, NULL);
	if (!ret)
		ret = convert(&c, to_perfetto, raw, metrics);
	cli__fini(&c);
	return ret == PARSE_OPT_DONE ? 0 : ret;
}
