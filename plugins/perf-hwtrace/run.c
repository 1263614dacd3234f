// SPDX-License-Identifier: GPL-2.0
/* run.c - connect input, session and the sink a command asked for. */
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "cpu_budget.h"
#include "run.h"
#include "sinks.h"

static void count_record(void *ctx, const struct hwt_record *rec)
{
	uint64_t *n = ctx;

	*n += rec->type->kind == HWT_RK_DATA;
}

/*
 * script --null without filters: the streams' own counts of data records,
 * which the session keeps as it passes them on (hwt_stream.records), are
 * what count_record() would add up; a call per record less, on inputs of
 * a hundred million small records
 */
static void count_end(void *ctx, const struct hwt_stream *const *streams, uint32_t n,
		      const struct hwt_reader *r)
{
	uint64_t *counted = ctx;

	for (uint32_t i = 0; i < n; i++)
		*counted += streams[i]->records;
}

/* The input's first and last data record times, for percent --time ranges. */
struct span {
	struct hwt_where at;
	uint64_t first, last;
	bool seen;
};

static void span_event(void *ctx, const struct hwt_reader *r, const struct hwt_event *ev)
{
	struct span *sp = ctx;

	record_filter__event(&sp->at, ev);
}

static void span_chunk(void *ctx, const struct hwt_stream *s, const struct hwt_chunk *c,
		       uint64_t total)
{
	struct span *sp = ctx;

	hwt_where__update(&sp->at, c);
}

static void span_record(void *ctx, const struct hwt_record *rec)
{
	struct span *sp = ctx;
	uint64_t t;
	int32_t cpu, pid;

	if (rec->type->kind != HWT_RK_DATA)
		return;
	record_filter__sample(&sp->at, rec, &t, &cpu, &pid);
	if (!sp->seen)
		sp->first = t;
	sp->seen = true;
	sp->last = t;
}

/*
 * A first pass over the input finds the span percent ranges are of (perf
 * takes it from its SAMPLE_TIME feature, which injected files lack).  Its
 * problems are reported by the second pass.
 */
int run__find_span(struct cli *c, struct record_filter *f, const struct hwt_session_opts *so,
		   const char *raw_type)
{
	struct span sp = { .at = { .cpu = -1, .tid = -1 } };
	struct hwt_sink sink = { .event = span_event, .chunk = span_chunk, .record = span_record,
				 .ctx = &sp };
	struct hwt_diag quiet = { .file = c->diag.file };
	int ret;

	if (raw_type)
		ret = hwt_session__run_raw(c->input, so, &sink, &quiet);
	else
		ret = hwt_session__run(c->input, so, &sink, &quiet);
	record_filter__span(f, sp.first, sp.last);
	return ret < 0 ? ret : 0;
}

/* report with filters: the selected records per type (summaries are of all). */
static void print_selected(struct out *o, const struct record_filter *f)
{
	out__printf(o, "\nrecords selected by the filters: %llu\n",
		    (unsigned long long)f->selected);
	for (unsigned i = 0; i < f->nseen; i++)
		out__printf(o, "  %-26s %llu\n", f->counts[i].type->name,
			    (unsigned long long)f->counts[i].n);
}

/*
 * script -F: the metrics it shows are the ones it names, all with "metrics";
 * the computer need not compute the others (field_fmt.c shows the same)
 */
static bool fields_name_metrics(const struct run_args *a)
{
	for (unsigned i = 0; i < a->nfields; i++)
		if (!strcmp(a->fields[i], "metrics"))
			return false;
	return a->mode == RUN_SCRIPT && a->nfields;
}

int run(struct cli *c, struct run_args *a)
{
	uint64_t counted = 0;
	struct out *o = out__stdout();
	struct hwt_session_opts so = {
		.opts = c->opts,
		.nopts = c->nopts,
		.raw_type = a->raw_type,
		/* report --metrics reads no summary records; the computer sees each record */
		.no_summary = a->mode != RUN_REPORT || a->metrics,
		.summary_only = a->mode == RUN_REPORT,
		.metrics = a->metrics,
		.metrics_groups_only = a->mode == RUN_REPORT,
		.cpus = cpu_budget__cpus,
		.metrics_only = fields_name_metrics(a) ? a->fields : NULL,
		.nmetrics_only = fields_name_metrics(a) ? a->nfields : 0,
	};
	struct script_sink ss;
	struct dump_sink ds;
	struct report_sink rs;
	struct metrics_sink ms;
	struct hwt_sink sink;
	bool filtered = record_filter__active(&a->filter);
	int ret;

	c->diag.file = c->input;
	switch (a->mode) {
	case RUN_SCRIPT:
		script_sink__init(&ss, o, a->style, a->fields, a->nfields, &sink);
		ss.only_type = a->fields_type;
		ss.views.time = a->time;
		ss.views.reltime = a->reltime;
		ss.views.deltatime = a->deltatime;
		break;
	case RUN_DUMP:
		dump_sink__init(&ds, o, c->input, &c->diag.bytes, &sink);
		ds.file_order = a->file_order;
		ds.quiet = c->quiet;
		break;
	case RUN_REPORT:
		if (a->metrics) {
			metrics_sink__init(&ms, o, a->style, &sink);
			break;
		}
		report_sink__init(&rs, o, &c->diag.bytes, &sink);
		rs.stats = a->stats;
		rs.header = c->quiet ? 0 : a->header;	/* perf -q: no header either */
		rs.path = c->input;
		so.stop = &rs.stop;
		break;
	case RUN_COUNT:
		if (filtered)
			sink = (struct hwt_sink){ .record = count_record, .ctx = &counted };
		else
			sink = (struct hwt_sink){ .end = count_end, .ctx = &counted };
		break;
	}
	if (filtered) {
		record_filter__wrap(&a->filter, &sink);
		/* the decoders' summaries are of every record: not shown */
		if (a->mode == RUN_REPORT)
			so.summary_only = false, so.no_summary = true;
	}
	cli__guard_sink(c, &sink);
	if (filtered && a->filter.percent && run__find_span(c, &a->filter, &so, a->raw_type) < 0)
		return cli__status(c, -1);
	if (a->raw_type)
		ret = hwt_session__run_raw(c->input, &so, &sink, &c->diag);
	else
		ret = hwt_session__run(c->input, &so, &sink, &c->diag);
	out__flush(o);
	if (a->mode == RUN_REPORT && filtered) {
		print_selected(o, &a->filter);
		out__flush(o);
	}
	if (a->mode == RUN_REPORT && !a->metrics)
		report_sink__fini(&rs);
	if (a->mode == RUN_REPORT && a->metrics && !ms.groups && !c->quiet)
		fprintf(stderr, "perf hwtrace report: --metrics: no stream of this input has "
			"metrics\n");
	if (a->mode == RUN_SCRIPT)
		script_sink__fini(&ss);
	if (a->mode == RUN_COUNT)
		fprintf(stderr, "records: %llu\n", (unsigned long long)counted);
	/* totals go where they don't mix with data: stderr for script output */
	if (!c->quiet && !(a->mode == RUN_REPORT && a->header == 2))
		cli__print_totals(c, a->mode == RUN_SCRIPT || a->mode == RUN_COUNT ||
				  (a->mode == RUN_REPORT && a->style == FS_JSON) ? stderr : stdout);
	return cli__status(c, ret);
}
