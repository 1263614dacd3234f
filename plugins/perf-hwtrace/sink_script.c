// SPDX-License-Identifier: GPL-2.0
/* sink_script.c - one line, JSON object or CSV row per decoded unit. */
#include <string.h>

#include "sinks.h"

static bool selected(const struct script_sink *s, const struct hwt_record_type *t,
		     const char *name)
{
	if (!s->nonly || (s->only_type && t != s->only_type))
		return true;
	for (unsigned i = 0; i < s->nonly; i++)
		if (!strcmp(s->only[i], name))
			return true;
	return false;
}

static void csv_row(struct script_sink *s, const struct hwt_record *rec)
{
	const struct hwt_record_type *t = rec->type;

	if (s->csv_type != t) {
		out__puts(s->o, "type");
		for (uint32_t i = 0; i < t->nfields; i++) {
			if (!selected(s, t, t->fields[i].name))
				continue;
			out__putc(s->o, ',');
			out__puts(s->o, t->fields[i].name);
		}
		out__putc(s->o, '\n');
		s->csv_type = t;
	}
	out__puts(s->o, t->name);
	for (uint32_t i = 0; i < t->nfields; i++) {
		if (!selected(s, t, t->fields[i].name))
			continue;
		out__putc(s->o, ',');
		field_fmt__value(s->o, &t->fields[i], rec->data, FS_CSV);
	}
	out__putc(s->o, '\n');
}

static void on_record(void *ctx, const struct hwt_record *rec)
{
	struct script_sink *s = ctx;
	unsigned nonly;

	if (rec->type->kind != HWT_RK_DATA)
		return;
	s->records++;
	/* -F TYPE:fields: other types keep all their fields */
	nonly = s->only_type && rec->type != s->only_type ? 0 : s->nonly;
	switch (s->style) {
	case FS_JSON:
		field_fmt__json(s->o, rec, s->only, nonly);
		break;
	case FS_CSV:
		csv_row(s, rec);
		break;
	case FS_TEXT:
		field_fmt__text(s->o, rec, s->only, nonly);
		break;
	}
}

void script_sink__init(struct script_sink *s, struct out *o, enum field_style style,
		       struct hwt_sink *sink)
{
	memset(s, 0, sizeof(*s));
	s->o = o;
	s->style = style;
	memset(sink, 0, sizeof(*sink));
	sink->record = on_record;
	sink->ctx = s;
}
