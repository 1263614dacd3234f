// SPDX-License-Identifier: GPL-2.0
/*
 * sink_script.c - one line, JSON object or CSV row per decoded unit.
 *
 * CSV has one header row: "type" and the union of the fields of every
 * record type the input's streams can emit (their decoders' record_types),
 * written before the first row, so that csv readers and pandas load it as
 * one table.
 */
#include <stdlib.h>
#include <string.h>

#include "hwtrace/device.h"

#include "fmt_pool.h"
#include "sinks.h"

#define MAX_CSV_TYPES 64

/* Data record types of stream @st not yet in s->types. */
static void add_types(struct script_sink *s, const struct hwt_stream *st)
{
	const struct hwt_record_type *const *t = st->dev ? st->dev->record_types : NULL;

	for (; t && *t; t++) {
		unsigned i = 0;

		if ((*t)->kind != HWT_RK_DATA || (s->only_type && s->only_type != *t))
			continue;
		while (i < s->ntypes && s->types[i] != *t)
			i++;
		if (i == s->ntypes && s->ntypes < MAX_CSV_TYPES)
			s->types[s->ntypes++] = *t;
	}
}

static void on_stream(void *ctx, const struct hwt_stream *st)
{
	struct script_sink *s = ctx;

	if (!s->header_done)
		add_types(s, st);
}

static void csv_header(struct script_sink *s, const struct hwt_record_type *first)
{
	/* no stream said what it emits (should not happen): the first type's fields */
	if (!s->ntypes && first)
		s->types[s->ntypes++] = first;
	s->types[s->ntypes] = NULL;
	field_fmt__csv_header(s->o, &s->views, s->types);
	s->header_done = true;
}

static void on_record(void *ctx, const struct hwt_record *rec)
{
	struct script_sink *s = ctx;

	if (rec->type->kind != HWT_RK_DATA || (s->only_type && s->only_type != rec->type))
		return;
	if (!s->header_done && s->views.style == FS_CSV)
		csv_header(s, rec->type);
	s->records++;
	/* the views are set by now (run.c sets time styles after init) */
	if (!s->pool_tried) {
		s->pool_tried = true;
		s->pool = fmt_pool__new(s->o, &s->views);
	}
	if (s->pool && fmt_pool__add(s->pool, rec))
		return;
	field_fmt__record(s->o, &s->views, rec);
}

static void on_end(void *ctx, const struct hwt_stream *const *streams, uint32_t n,
		   const struct hwt_reader *r)
{
	struct script_sink *s = ctx;

	fmt_pool__drain(s->pool);
	/* no records: the header alone still says what the columns are */
	if (!s->header_done && s->views.style == FS_CSV && s->ntypes)
		csv_header(s, NULL);
}

void script_sink__init(struct script_sink *s, struct out *o, enum field_style style,
		       const char *const *only, unsigned nonly, struct hwt_sink *sink)
{
	memset(s, 0, sizeof(*s));
	s->o = o;
	field_views__init(&s->views, style, only, nonly);
	*sink = (struct hwt_sink){ .stream = on_stream, .record = on_record, .end = on_end,
				   .ctx = s };
}

void script_sink__fini(struct script_sink *s)
{
	fmt_pool__delete(s->pool);
	field_views__fini(&s->views);
}
