// SPDX-License-Identifier: GPL-2.0
/* field_fmt.c - field values as text, JSON and CSV; dump_fmt templates. */
#include <stdlib.h>
#include <string.h>

#include "field_fmt.h"

int field_fmt__find(const struct hwt_record_type *t, const char *name)
{
	for (uint32_t i = 0; i < t->nfields; i++)
		if (!strcmp(t->fields[i].name, name))
			return i;
	return -1;
}

static const char *enum_name(const struct hwt_field *f, uint64_t v)
{
	return v < f->nnames && f->names[v] ? f->names[v] : NULL;
}

static void scalar(struct out *o, const struct hwt_field *f, uint64_t v, enum field_style st)
{
	const char *name;

	switch (f->hint) {
	case HWT_FH_ENUM:
		name = enum_name(f, v);
		if (name) {
			if (st == FS_JSON)
				out__json_str(o, name);
			else
				out__puts(o, name);
			return;
		}
		break;		/* unknown value: show the number */
	case HWT_FH_HEX:
		if (st != FS_JSON) {
			out__puts(o, "0x");
			out__hex(o, v, 0);
			return;
		}
		break;
	default:
		break;
	}
	if (f->type == HWT_FT_S64)
		out__s64(o, (int64_t)v);
	else if (f->type == HWT_FT_BOOL && st == FS_JSON)
		out__puts(o, v ? "true" : "false");
	else
		out__u64(o, v);
}

static void flags(struct out *o, const struct hwt_field *f, uint64_t v, enum field_style st)
{
	const char *sep = st == FS_JSON ? "," : st == FS_CSV ? ";" : ",";
	bool first = true;

	if (st == FS_JSON)
		out__putc(o, '[');
	for (unsigned bit = 0; bit < 64; bit++) {
		const char *name;

		if (!(v & (1ULL << bit)))
			continue;
		if (!first)
			out__puts(o, sep);
		first = false;
		name = bit < f->nnames ? f->names[bit] : NULL;
		if (st == FS_JSON) {
			if (name) {
				out__json_str(o, name);
			} else {
				out__puts(o, "\"bit");
				out__u64(o, bit);
				out__putc(o, '"');
			}
		} else if (name) {
			out__puts(o, name);
		} else {
			out__puts(o, "bit");
			out__u64(o, bit);
		}
	}
	if (st == FS_JSON)
		out__putc(o, ']');
}

static void kv(struct out *o, const struct hwt_field *f, const void *data, enum field_style st)
{
	const struct hwt_kv *kvs = *(const struct hwt_kv *const *)((const char *)data + f->offset);
	uint32_t n = hwt_field__len(f, data);

	if (st == FS_JSON)
		out__putc(o, '{');
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			out__putc(o, st == FS_CSV ? ';' : ',');
		if (st == FS_JSON) {
			out__json_str(o, kvs[i].key);
			out__putc(o, ':');
		} else {
			out__puts(o, kvs[i].key);
			out__putc(o, '=');
		}
		out__u64(o, kvs[i].val);
	}
	if (st == FS_JSON)
		out__putc(o, '}');
}

void field_fmt__value(struct out *o, const struct hwt_field *f, const void *data,
		      enum field_style st)
{
	if (!hwt_field__present(f, data)) {
		if (st == FS_JSON)
			out__puts(o, "null");
		return;
	}
	if (f->type == HWT_FT_STR) {
		const char *s = *(const char *const *)((const char *)data + f->offset);

		if (!s)
			s = "";
		if (st == FS_JSON)
			out__json_str(o, s);
		else if (st == FS_CSV)
			out__csv_str(o, s);
		else
			out__puts(o, s);
		return;
	}
	if (f->type == HWT_FT_KV) {
		kv(o, f, data, st);
		return;
	}
	if (f->hint == HWT_FH_FLAGS) {
		flags(o, f, hwt_field__u64(f, data, 0), st);
		return;
	}
	if (hwt_field__is_array(f)) {
		uint32_t n = hwt_field__len(f, data);

		if (st == FS_JSON)
			out__putc(o, '[');
		for (uint32_t i = 0; i < n; i++) {
			if (i)
				out__putc(o, st == FS_CSV ? ';' : ',');
			scalar(o, f, hwt_field__u64(f, data, i), st);
		}
		if (st == FS_JSON)
			out__putc(o, ']');
		return;
	}
	scalar(o, f, hwt_field__u64(f, data, 0), st);
}

static bool selected(const char *name, const char *const *only, unsigned nonly)
{
	if (!nonly)
		return true;
	for (unsigned i = 0; i < nonly; i++)
		if (!strcmp(only[i], name))
			return true;
	return false;
}

void field_fmt__json(struct out *o, const struct hwt_record *rec,
		     const char *const *only, unsigned nonly)
{
	const struct hwt_record_type *t = rec->type;

	out__puts(o, "{\"type\":");
	out__json_str(o, t->name);
	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct hwt_field *f = &t->fields[i];

		if (!selected(f->name, only, nonly) || !hwt_field__present(f, rec->data))
			continue;
		out__putc(o, ',');
		out__json_str(o, f->name);
		out__putc(o, ':');
		field_fmt__value(o, f, rec->data, FS_JSON);
	}
	out__puts(o, "}\n");
}

void field_fmt__text(struct out *o, const struct hwt_record *rec,
		     const char *const *only, unsigned nonly)
{
	const struct hwt_record_type *t = rec->type;

	out__puts(o, t->name);
	out__putc(o, ':');
	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct hwt_field *f = &t->fields[i];

		if (nonly ? !selected(f->name, only, nonly) : (f->flags & HWT_FF_NODUMP))
			continue;
		if (!hwt_field__present(f, rec->data))
			continue;
		out__putc(o, ' ');
		out__puts(o, f->name);
		out__putc(o, '=');
		field_fmt__value(o, f, rec->data, FS_TEXT);
	}
	out__putc(o, '\n');
}

/* ---- dump_fmt templates, compiled once per record type ------------------- */

struct seg {
	const char *lit;	/* literal text, or NULL for a field */
	size_t len;
	const struct hwt_field *f;
	char conv;		/* 'x' bare hex, 'd' decimal, 0 = as the hint says */
	unsigned width;
};

struct tmpl {
	const struct hwt_record_type *type;
	struct seg *segs;
	unsigned nsegs;
};

static struct tmpl *tmpls;
static unsigned ntmpls;

static struct tmpl *compile(const struct hwt_record_type *t)
{
	const char *s = t->dump_fmt;
	struct tmpl *tp, *grown;
	struct seg *segs = calloc(strlen(s) + 1, sizeof(*segs));
	unsigned n = 0;

	grown = realloc(tmpls, (ntmpls + 1) * sizeof(*tmpls));
	if (!segs || !grown) {
		free(segs);
		return NULL;
	}
	tmpls = grown;
	while (*s) {
		const char *open = strchr(s, '{');
		const char *close = open ? strchr(open, '}') : NULL;

		if (!open || !close) {
			segs[n++] = (struct seg){ .lit = s, .len = strlen(s) };
			break;
		}
		if (open > s)
			segs[n++] = (struct seg){ .lit = s, .len = open - s };
		{
			char name[64];
			size_t len = close - open - 1;
			char *colon;
			int idx;

			if (len >= sizeof(name))
				len = sizeof(name) - 1;
			memcpy(name, open + 1, len);
			name[len] = 0;
			colon = strchr(name, ':');
			segs[n] = (struct seg){ 0 };
			if (colon) {
				char *spec = colon + 1;

				*colon = 0;
				segs[n].width = strtoul(spec, &spec, 10);
				segs[n].conv = *spec;
			}
			idx = field_fmt__find(t, name);
			if (idx >= 0) {
				segs[n].f = &t->fields[idx];
				n++;
			} else {
				segs[n++] = (struct seg){ .lit = open, .len = close - open + 1 };
			}
		}
		s = close + 1;
	}
	tp = &tmpls[ntmpls++];
	tp->type = t;
	tp->segs = segs;
	tp->nsegs = n;
	return tp;
}

bool field_fmt__dump(struct out *o, const struct hwt_record *rec)
{
	struct tmpl *tp = NULL;

	if (!rec->type->dump_fmt)
		return false;
	for (unsigned i = 0; i < ntmpls; i++)
		if (tmpls[i].type == rec->type) {
			tp = &tmpls[i];
			break;
		}
	if (!tp)
		tp = compile(rec->type);
	if (!tp)
		return false;
	for (unsigned i = 0; i < tp->nsegs; i++) {
		const struct seg *sg = &tp->segs[i];

		if (sg->lit) {
			out__write(o, sg->lit, sg->len);
		} else if (sg->conv == 'x') {
			out__hex(o, hwt_field__u64(sg->f, rec->data, 0), sg->width);
		} else if (sg->conv == 'd') {
			out__u64(o, hwt_field__u64(sg->f, rec->data, 0));
		} else {
			field_fmt__value(o, sg->f, rec->data, FS_TEXT);
		}
	}
	out__putc(o, '\n');
	return true;
}
