// SPDX-License-Identifier: GPL-2.0
/*
 * sink_report.c - `report`: one block per AUX stream with its container
 * counters (chunks, bytes, PERF_RECORD_AUX flags, lost bytes), the number of
 * records decoded, and the decoder's summary records as tables, each table's
 * columns taken from its record type's field table (a type too wide for a
 * terminal's table, hwt_record_type.as_list, prints each row as a list of
 * fields).  --header adds perf's
 * header block before it (--header-only: only that); --stats prints only
 * the record counts, as perf report --stats does.
 */
#include <stdlib.h>
#include <string.h>

#include "hwtrace/device.h"
#include "header_print.h"
#include "sinks.h"
#include "stats_print.h"

/* A summary record, rendered to text at emit time (its data dies after). */
struct report_row {
	uint32_t stream;
	const struct hwt_record_type *type;
	char **cells;
};

static char *render(const struct hwt_field *f, const void *data)
{
	struct out tmp;
	char *s;

	/* a private buffer: out__flush is never reached for short cells */
	out__init(&tmp, -1);
	field_fmt__value(&tmp, f, data, FS_TEXT);
	s = malloc(tmp.len + 1);
	if (s) {
		memcpy(s, tmp.buf, tmp.len);
		s[tmp.len] = 0;
	}
	return s;
}

static void header_begin(struct report_sink *s, const struct hwt_reader *r)
{
	if (s->header_done)
		return;
	s->header_done = true;
	header_print_begin(s->o, r, s->path);
	if (hwt_reader__is_pipe(r))
		return;
	if (s->header == 2)	/* file mode: all of it is in the header */
		s->stop = 1;
}

/* pipe mode: the features a HEADER_FEATURE record just added, in perf's place */
static void header_features(struct report_sink *s, const struct hwt_reader *r)
{
	for (uint32_t f = 1; f < HWT_FEAT_LAST_PERF61; f++) {
		if (s->feats_shown[f / 64] >> (f % 64) & 1 || !hwt_reader__has_feature(r, f))
			continue;
		s->feats_shown[f / 64] |= 1ULL << (f % 64);
		header_print_feature(s->o, r, f);
	}
}


static void on_event(void *ctx, const struct hwt_reader *r, const struct hwt_event *ev)
{
	struct report_sink *s = ctx;

	if (s->header) {
		header_begin(s, r);
		if (ev->hdr->type == HWT_REC_HEADER_FEATURE)
			header_features(s, r);
	}
	if (s->stats && ev->hdr->type == PERF_RECORD_SAMPLE && ev->attr)
		stats_count_sample(&s->samples, &s->nsamples, r, ev->attr);
}

static void on_record(void *ctx, const struct hwt_record *rec)
{
	struct report_sink *s = ctx;
	struct report_row *row;

	if (s->header == 2 || s->stats)
		return;
	if (rec->type->kind != HWT_RK_SUMMARY)
		return;
	if (s->nrows == s->cap) {
		uint32_t cap = s->cap ? s->cap * 2 : 64;
		struct report_row *rows = realloc(s->rows, cap * sizeof(*rows));

		if (!rows)
			return;
		s->rows = rows;
		s->cap = cap;
	}
	row = &s->rows[s->nrows++];
	row->stream = rec->stream;
	row->type = rec->type;
	row->cells = calloc(rec->type->nfields, sizeof(char *));
	for (uint32_t i = 0; row->cells && i < rec->type->nfields; i++)
		row->cells[i] = render(&rec->type->fields[i], rec->data);
}

/* The rows of table @first's type, each as a list of fields (hwt_record_type.as_list). */
static void print_rows_as_lists(struct report_sink *s, uint32_t first, uint32_t stream,
				uint32_t nf)
{
	const struct hwt_record_type *t = s->rows[first].type;
	struct out *o = s->o;
	int nw = 0;

	for (uint32_t f = 0; f < nf; f++)
		if ((int)strlen(t->fields[f].name) > nw)
			nw = (int)strlen(t->fields[f].name);
	out__printf(o, "\n  %s:\n", t->name);
	for (uint32_t j = first, n = 0; j < s->nrows; j++) {
		if (s->rows[j].stream != stream || s->rows[j].type != t || !s->rows[j].cells)
			continue;
		if (n++)
			out__putc(o, '\n');
		for (uint32_t f = 0; f < nf; f++)
			out__printf(o, "    %-*s %s\n", nw, t->fields[f].name,
				    s->rows[j].cells[f] ? s->rows[j].cells[f] : "");
	}
}

static void print_tables(struct report_sink *s, uint32_t stream)
{
	struct out *o = s->o;

	for (uint32_t i = 0; i < s->nrows; i++) {
		const struct hwt_record_type *t = s->rows[i].type;
		size_t width[64] = { 0 };
		uint32_t nf = t->nfields < 64 ? t->nfields : 64;
		bool seen = false;

		if (s->rows[i].stream != stream)
			continue;
		for (uint32_t j = 0; j < i; j++)
			if (s->rows[j].stream == stream && s->rows[j].type == t)
				seen = true;
		if (seen)
			continue;	/* table already printed */
		for (uint32_t f = 0; f < nf; f++)
			width[f] = strlen(t->fields[f].name);
		for (uint32_t j = i; j < s->nrows; j++) {
			if (s->rows[j].stream != stream || s->rows[j].type != t || !s->rows[j].cells)
				continue;
			for (uint32_t f = 0; f < nf; f++)
				if (s->rows[j].cells[f] && strlen(s->rows[j].cells[f]) > width[f])
					width[f] = strlen(s->rows[j].cells[f]);
		}
		if (t->as_list) {
			print_rows_as_lists(s, i, stream, nf);
			continue;
		}
		out__printf(o, "\n  %s:\n   ", t->name);
		for (uint32_t f = 0; f < nf; f++)
			out__printf(o, " %*s", (int)width[f], t->fields[f].name);
		out__putc(o, '\n');
		for (uint32_t j = i; j < s->nrows; j++) {
			if (s->rows[j].stream != stream || s->rows[j].type != t || !s->rows[j].cells)
				continue;
			out__puts(o, "   ");
			for (uint32_t f = 0; f < nf; f++)
				out__printf(o, " %*s", (int)width[f],
					    s->rows[j].cells[f] ? s->rows[j].cells[f] : "");
			out__putc(o, '\n');
		}
	}
}

static void on_end(void *ctx, const struct hwt_stream *const *streams, uint32_t n,
		   const struct hwt_reader *r)
{
	struct report_sink *s = ctx;
	struct out *o = s->o;

	if (s->header && r)
		header_begin(s, r);
	if (s->header == 2)
		return;
	if (s->stats) {
		if (r) {
			/* perf's lines; the byte totals follow them (run.c) */
			stats_print(o, hwt_reader__stats(r), NULL,
				    hwt_reader__has_feature(r, HWT_FEAT_AUXTRACE));
			stats_print_events(o, r, s->samples, s->nsamples);
		}
		return;
	}
	if (!n)
		out__puts(o, "no AUX streams (no PERF_RECORD_AUXTRACE_INFO) in the input\n");
	for (uint32_t i = 0; i < n; i++) {
		const struct hwt_stream *st = streams[i];
		const struct hwt_aux_ctx *c = &st->ctx;

		out__printf(o, "%sAUX stream %u: %s", i ? "\n" : "", st->idx,
			    st->dev ? st->dev->name : "no decoder");
		if (!c->raw) {
			out__printf(o, " (auxtrace type %#x", c->auxtrace_type);
			if (c->npriv)
				out__printf(o, ", PMU type %llu",
					    (unsigned long long)c->priv[HWT_AUXTRACE_PRIV_PMU]);
			if (c->pmu_name)
				out__printf(o, ", %s", c->pmu_name);
			out__putc(o, ')');
		}
		out__putc(o, '\n');
		out__printf(o, "  %-26s %llu\n", c->raw ? "input chunks:" : "AUXTRACE records:",
			    (unsigned long long)st->chunks);
		out__printf(o, "  %-26s %llu\n", "payload bytes:", (unsigned long long)st->bytes);
		if (!c->raw) {
			out__printf(o, "  %-26s %llu (%llu bytes)\n", "PERF_RECORD_AUX records:",
				    (unsigned long long)st->aux_records,
				    (unsigned long long)st->aux_bytes);
			out__printf(o, "  %-26s truncated %llu, partial %llu, collision %llu, "
				    "overwrite %llu\n", "AUX flags:",
				    (unsigned long long)st->aux_flags[0],
				    (unsigned long long)st->aux_flags[2],
				    (unsigned long long)st->aux_flags[3],
				    (unsigned long long)st->aux_flags[1]);
			out__printf(o, "  %-26s %llu\n", "AUX bytes lost (truncated):",
				    (unsigned long long)st->aux_lost_bytes);
		}
		out__printf(o, "  %-26s %llu\n", "records decoded:",
			    (unsigned long long)st->records);
		print_tables(s, st->idx);
	}
}

void report_sink__init(struct report_sink *s, struct out *o, struct hwt_bytes *bytes,
		       struct hwt_sink *sink)
{
	memset(s, 0, sizeof(*s));
	s->o = o;
	s->bytes = bytes;
	*sink = (struct hwt_sink){ .event = on_event, .record = on_record, .end = on_end,
				   .ctx = s };
}

void report_sink__fini(struct report_sink *s)
{
	for (uint32_t i = 0; i < s->nrows; i++) {
		for (uint32_t f = 0; s->rows[i].cells && f < s->rows[i].type->nfields; f++)
			free(s->rows[i].cells[f]);
		free(s->rows[i].cells);
	}
	free(s->rows);
	free(s->samples);
}
