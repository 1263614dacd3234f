// SPDX-License-Identifier: GPL-2.0
/* run.c - connect input, session and the sink a command asked for. */
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "run.h"
#include "sinks.h"

static void count_record(void *ctx, const struct hwt_record *rec)
{
	uint64_t *n = ctx;

	*n += rec->type->kind == HWT_RK_DATA;
}

int run(struct cli *c, const struct run_args *a)
{
	uint64_t counted = 0;
	struct out *o = out__stdout();
	struct hwt_session_opts so = {
		.opts = c->opts,
		.nopts = c->nopts,
		.raw_type = a->raw_type,
		.no_summary = a->mode != RUN_REPORT,
		.summary_only = a->mode == RUN_REPORT,
	};
	struct script_sink ss;
	struct dump_sink ds;
	struct report_sink rs;
	struct hwt_sink sink;
	int ret;

	c->diag.file = c->input;
	switch (a->mode) {
	case RUN_SCRIPT:
		script_sink__init(&ss, o, a->style, a->fields, a->nfields, &sink);
		ss.only_type = a->fields_type;
		break;
	case RUN_DUMP:
		dump_sink__init(&ds, o, c->input, &c->diag.bytes, &sink);
		ds.file_order = a->file_order;
		break;
	case RUN_REPORT:
		report_sink__init(&rs, o, &c->diag.bytes, &sink);
		rs.stats = a->stats;
		rs.header = c->quiet ? 0 : a->header;	/* perf -q: no header either */
		rs.path = c->input;
		so.stop = &rs.stop;
		break;
	case RUN_COUNT:
		sink = (struct hwt_sink){ .record = count_record, .ctx = &counted };
		break;
	}
	cli__guard_sink(c, &sink);
	if (a->raw_type)
		ret = hwt_session__run_raw(c->input, &so, &sink, &c->diag);
	else
		ret = hwt_session__run(c->input, &so, &sink, &c->diag);
	out__flush(o);
	if (a->mode == RUN_REPORT)
		report_sink__fini(&rs);
	if (a->mode == RUN_SCRIPT)
		script_sink__fini(&ss);
	if (a->mode == RUN_COUNT)
		fprintf(stderr, "records: %llu\n", (unsigned long long)counted);
	/* totals go where they don't mix with data: stderr for script output */
	if (!c->quiet && !(a->mode == RUN_REPORT && a->header == 2))
		cli__print_totals(c, a->mode == RUN_SCRIPT || a->mode == RUN_COUNT ?
				  stderr : stdout);
	return cli__status(c, ret);
}
