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
	for (; v; v &= v - 1) {
		unsigned bit = __builtin_ctzll(v);
		const char *name;

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

/* The elements of a u64 array shown as plain decimals (the common case), or NULL. */
static const uint64_t *u64_array(const struct hwt_field *f, const void *data,
				 enum field_style st)
{
	const char *p = (const char *)data + f->offset;

	if (f->hint != HWT_FH_DEC && !(f->hint == HWT_FH_HEX && st == FS_JSON))
		return NULL;
	if (f->type == HWT_FT_U64_VEC)
		return *(const uint64_t *const *)p;
	if (f->type == HWT_FT_U64 && f->count > 1)
		return (const uint64_t *)p;
	return NULL;
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
		const uint64_t *v = u64_array(f, data, st);

		if (st == FS_JSON)
			out__putc(o, '[');
		if (v)
			out__u64_list(o, v, n, st == FS_CSV ? ';' : ',');
		for (uint32_t i = 0; !v && i < n; i++) {
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

/* A record type's JSON text around its values, escaped once: `{"type":"name"`, `,"field":` */
struct json_keys {
	const struct hwt_record_type *type;
	char *head;		/* head, then each key, back to back */
	size_t *end;		/* end offset of the head [0] and of each key [1 + i] */
};

static struct json_keys *jkeys;
static unsigned njkeys;

/* Built on first use per type; NULL (escape every time) if out of memory. */
static const struct json_keys *json_keys(const struct hwt_record_type *t)
{
	static const struct json_keys *last;
	struct json_keys *grown, *k;
	struct out *tmp;

	if (last && last->type == t)
		return last;
	for (unsigned i = 0; i < njkeys; i++)
		if (jkeys[i].type == t)
			return last = &jkeys[i];
	grown = realloc(jkeys, (njkeys + 1) * sizeof(*jkeys));
	if (!grown)
		return NULL;
	jkeys = grown;
	last = NULL;	/* jkeys may have moved */
	tmp = malloc(sizeof(*tmp));
	k = &jkeys[njkeys];
	k->type = t;
	k->end = malloc((t->nfields + 1) * sizeof(*k->end));
	if (!tmp || !k->end) {
		free(tmp);
		free(k->end);
		return NULL;
	}
	out__init(tmp, -1);	/* never flushed: names are short */
	out__puts(tmp, "{\"type\":");
	out__json_str(tmp, t->name);
	k->end[0] = tmp->len;
	for (uint32_t i = 0; i < t->nfields; i++) {
		out__putc(tmp, ',');
		out__json_str(tmp, t->fields[i].name);
		out__putc(tmp, ':');
		k->end[1 + i] = tmp->len;
	}
	k->head = malloc(tmp->len);
	if (k->head)
		memcpy(k->head, tmp->buf, tmp->len);
	free(tmp);
	if (!k->head) {
		free(k->end);
		return NULL;
	}
	njkeys++;
	return last = k;
}

/* field_fmt__value(FS_JSON) of a present field, plain numbers without the detours */
static void json_value(struct out *o, const struct hwt_field *f, const void *data)
{
	const char *p = (const char *)data + f->offset;
	const uint64_t *v;

	if (f->hint == HWT_FH_DEC || f->hint == HWT_FH_HEX) {
		if (f->type == HWT_FT_U64_VEC || (f->type == HWT_FT_U64 && f->count > 1)) {
			v = u64_array(f, data, FS_JSON);
			out__putc(o, '[');
			out__u64_list(o, v, hwt_field__len(f, data), ',');
			out__putc(o, ']');
			return;
		}
		if (f->count <= 1 && (f->type == HWT_FT_U64 || f->type == HWT_FT_U32)) {
			out__u64(o, f->type == HWT_FT_U64 ? *(const uint64_t *)p :
				 *(const uint32_t *)p);
			return;
		}
	}
	field_fmt__value(o, f, data, FS_JSON);
}

void field_fmt__json(struct out *o, const struct hwt_record *rec,
		     const char *const *only, unsigned nonly)
{
	const struct hwt_record_type *t = rec->type;
	const struct json_keys *k = json_keys(t);

	if (k) {
		out__write(o, k->head, k->end[0]);
	} else {
		out__puts(o, "{\"type\":");
		out__json_str(o, t->name);
	}
	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct hwt_field *f = &t->fields[i];

		if (!selected(f->name, only, nonly) || !hwt_field__present(f, rec->data))
			continue;
		if (k) {
			out__write(o, k->head + k->end[i], k->end[1 + i] - k->end[i]);
		} else {
			out__putc(o, ',');
			out__json_str(o, f->name);
			out__putc(o, ':');
		}
		json_value(o, f, rec->data);
	}
	out__write(o, "}\n", 2);
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

/* Element 0 of a field: a plain u64 is read directly (the dump hot path). */
static inline uint64_t dump_u64(const struct hwt_field *f, const void *data)
{
	if (f->type == HWT_FT_U64 && f->count <= 1)
		return *(const uint64_t *)((const char *)data + f->offset);
	return hwt_field__u64(f, data, 0);
}

bool field_fmt__dump(struct out *o, const struct hwt_record *rec)
{
	static unsigned last;	/* index, not pointer: compile() may move tmpls */
	struct tmpl *tp = NULL;

	if (!rec->type->dump_fmt)
		return false;
	if (last < ntmpls && tmpls[last].type == rec->type) {
		tp = &tmpls[last];
	} else {
		for (unsigned i = 0; i < ntmpls; i++)
			if (tmpls[i].type == rec->type) {
				tp = &tmpls[i];
				break;
			}
		if (!tp)
			tp = compile(rec->type);
		if (!tp)
			return false;
		last = tp - tmpls;
	}
	for (unsigned i = 0; i < tp->nsegs; i++) {
		const struct seg *sg = &tp->segs[i];

		if (sg->lit) {
			out__write(o, sg->lit, sg->len);
		} else if (sg->conv == 'x') {
			out__hex(o, dump_u64(sg->f, rec->data), sg->width);
		} else if (sg->conv == 'd') {
			out__u64(o, dump_u64(sg->f, rec->data));
		} else {
			field_fmt__value(o, sg->f, rec->data, FS_TEXT);
		}
	}
	out__putc(o, '\n');
	return true;
}
