// SPDX-License-Identifier: GPL-2.0
/* field_fmt.c - field values as text, JSON and CSV; dump_fmt templates. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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

static inline void number(struct out *o, uint64_t v, enum field_style st)
{
	if (st == FS_JSON)
		out__json_u64(o, v);
	else
		out__u64(o, v);
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
		if (st == FS_JSON)
			out__putc(o, '"');
		out__puts(o, "0x");
		out__hex(o, v, 0);
		if (st == FS_JSON)
			out__putc(o, '"');
		return;
	default:
		break;
	}
	if (hwt_field__is_signed(f) && (int64_t)v < 0) {
		out__putc(o, '-');
		number(o, -v, st);
	} else if (f->type == HWT_FT_BOOL && st == FS_JSON) {
		out__puts(o, v ? "true" : "false");
	} else {
		number(o, v, st);
	}
}

/* JSON wraps a list in @open/@close; text and CSV do not. */
static inline void wrap(struct out *o, enum field_style st, char c)
{
	if (st == FS_JSON)
		out__putc(o, c);
}

static inline char list_sep(enum field_style st)
{
	return st == FS_CSV ? ';' : ',';
}

static void flags(struct out *o, const struct hwt_field *f, uint64_t v, enum field_style st)
{
	bool first = true;

	wrap(o, st, '[');
	for (; v; v &= v - 1) {
		unsigned bit = __builtin_ctzll(v);
		const char *name = bit < f->nnames ? f->names[bit] : NULL;

		if (!first)
			out__putc(o, list_sep(st));
		first = false;
		wrap(o, st, '"');
		if (name) {
			out__puts(o, name);
		} else {
			out__puts(o, "bit");
			out__u64(o, bit);
		}
		wrap(o, st, '"');
	}
	wrap(o, st, ']');
}

static void kv(struct out *o, const struct hwt_field *f, const void *data, enum field_style st)
{
	const struct hwt_kv *kvs = *(const struct hwt_kv *const *)((const char *)data + f->offset);
	uint32_t n = hwt_field__len(f, data);

	wrap(o, st, '{');
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			out__putc(o, list_sep(st));
		if (st == FS_JSON) {
			out__json_str(o, kvs[i].key);
			out__putc(o, ':');
		} else {
			out__puts(o, kvs[i].key);
			out__putc(o, '=');
		}
		number(o, kvs[i].val, st);
	}
	wrap(o, st, '}');
}

/* @v[0..n) or'ed together, four a step: a third of the instructions of one a step */
static inline uint64_t or_all(const uint64_t *v, uint32_t n)
{
	uint64_t any = 0;
	uint32_t i = 0;

#ifdef __SSE2__
	__m128i a = _mm_setzero_si128(), b = a;

	for (; i + 4 <= n; i += 4) {
		a = _mm_or_si128(a, _mm_loadu_si128((const __m128i *)(v + i)));
		b = _mm_or_si128(b, _mm_loadu_si128((const __m128i *)(v + i + 2)));
	}
	a = _mm_or_si128(a, b);
	any = (uint64_t)_mm_cvtsi128_si64(a) | (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(a, a));
#endif
	for (; i < n; i++)
		any |= v[i];
	return any;
}

/*
 * The elements of a decimal u64 array when they can be written as a plain
 * list (the common case, and the hot one: OA counters), else NULL.
 */
static const uint64_t *u64_array(const struct hwt_field *f, const void *data, uint32_t n,
				 enum field_style st)
{
	const char *p = (const char *)data + f->offset;
	const uint64_t *v;

	if (f->hint != HWT_FH_DEC || hwt_field__is_signed(f))
		return NULL;
	if (f->type == HWT_FT_U64_VEC)
		v = *(const uint64_t *const *)p;
	else if (f->type == HWT_FT_U64 && f->count > 1)
		v = (const uint64_t *)p;
	else
		return NULL;
	if (st != FS_JSON)
		return v;
	return or_all(v, n) < OUT_JSON_EXACT ? v : NULL;
}

static void string(struct out *o, const struct hwt_field *f, const void *data,
		   enum field_style st)
{
	const char *s = *(const char *const *)((const char *)data + f->offset);

	if (!s)
		s = "";
	if (st == FS_JSON)
		out__json_str(o, s);
	else if (st == FS_CSV)
		out__csv_str(o, s);
	else
		out__text_str(o, s);
}

/* field_fmt__value() of a present field */
static void value(struct out *o, const struct hwt_field *f, const void *data,
		  enum field_style st)
{
	const char *p = (const char *)data + f->offset;

	/* plain scalars first: most of what script prints */
	if (f->count <= 1 && f->hint == HWT_FH_DEC) {
		bool sign = f->flags & HWT_FF_SIGNED;

		switch (f->type) {
		case HWT_FT_U64:
			if (sign)
				break;
			number(o, *(const uint64_t *)p, st);
			return;
		case HWT_FT_U32:
			if (sign)
				out__s64(o, *(const int32_t *)p);
			else
				out__u64(o, *(const uint32_t *)p);
			return;
		case HWT_FT_U8:
			out__s64(o, sign ? *(const int8_t *)p : *(const uint8_t *)p);
			return;
		case HWT_FT_U16:
			out__s64(o, sign ? *(const int16_t *)p : *(const uint16_t *)p);
			return;
		default:
			break;
		}
	}
	if (f->type == HWT_FT_STR) {
		string(o, f, data, st);
	} else if (f->type == HWT_FT_KV) {
		kv(o, f, data, st);
	} else if (f->hint == HWT_FH_FLAGS) {
		flags(o, f, hwt_field__u64(f, data, 0), st);
	} else if (hwt_field__is_array(f)) {
		uint32_t n = hwt_field__len(f, data);
		const uint64_t *v = u64_array(f, data, n, st);

		wrap(o, st, '[');
		if (v)
			out__u64_list(o, v, n, list_sep(st));
		for (uint32_t i = 0; !v && i < n; i++) {
			if (i)
				out__putc(o, list_sep(st));
			scalar(o, f, hwt_field__u64(f, data, i), st);
		}
		wrap(o, st, ']');
	} else {
		scalar(o, f, hwt_field__u64(f, data, 0), st);
	}
}

void field_fmt__value(struct out *o, const struct hwt_field *f, const void *data,
		      enum field_style st)
{
	if (hwt_field__present(f, data))
		value(o, f, data, st);
	else if (st == FS_JSON)
		out__puts(o, "null");
}

/* ---- whole records ------------------------------------------------------- */

/* keys up to this long are copied as this many bytes: one move, no call */
#define KEY_MOVE 32

/*
 * One record type as a sink shows it: the text around the values, made
 * once (escaped JSON keys, " name=", CSV commas), back to back in @lit, and
 * per column the field or NULL (a CSV column this type lacks).
 */
struct field_view {
	const struct hwt_record_type *type;
	const struct hwt_field **f;
	bool *plain;		/* column i is a plain decimal u64, always present */
	unsigned n;
	int time_col;		/* the column of a U64 "time" field, or -1 */
	char *lit;
	size_t *end;		/* end of the head [0], of column i's key [1 + i] */
};

void field_views__init(struct field_views *v, enum field_style style,
		       const char *const *only, unsigned nonly)
{
	memset(v, 0, sizeof(*v));
	v->style = style;
	v->only = nonly ? only : NULL;
	v->nonly = nonly;
}

static void metric_view__free(struct metric_view *mv);

void field_views__fini(struct field_views *v)
{
	for (unsigned i = 0; i < v->nviews; i++) {
		free(v->views[i].f);
		free(v->views[i].plain);
		free(v->views[i].lit);
		free(v->views[i].end);
	}
	free(v->views);
	metric_view__free(v->mview);
	if (!v->cols_borrowed)
		free(v->cols);
	memset(v, 0, sizeof(*v));
}

void field_views__init_like(struct field_views *v, const struct field_views *from)
{
	field_views__init(v, from->style, from->only, from->nonly);
	v->time = from->time;
	v->reltime = from->reltime;
	v->deltatime = from->deltatime;
	v->cols = from->cols;
	v->ncols = from->ncols;
	v->cols_borrowed = true;
}

static bool selected(const struct field_views *v, const struct hwt_field *f)
{
	if (!v->nonly)
		return v->style != FS_TEXT || !(f->flags & HWT_FF_NODUMP);
	for (unsigned i = 0; i < v->nonly; i++)
		if (!strcmp(v->only[i], f->name))
			return true;
	return false;
}

void field_fmt__csv_header(struct out *o, struct field_views *v,
			   const struct hwt_record_type *const *types)
{
	out__puts(o, "type");
	for (unsigned t = 0; types && types[t]; t++) {
		for (uint32_t i = 0; i < types[t]->nfields; i++) {
			const struct hwt_field *f = &types[t]->fields[i];
			const char **grown;
			unsigned c = 0;

			while (c < v->ncols && strcmp(v->cols[c], f->name))
				c++;
			if (c < v->ncols || !selected(v, f))
				continue;
			grown = realloc(v->cols, (v->ncols + 1) * sizeof(*grown));
			if (!grown)
				return;
			v->cols = grown;
			v->cols[v->ncols++] = f->name;
			out__putc(o, ',');
			out__csv_str(o, f->name);
		}
	}
	out__putc(o, '\n');
}

/* The columns of type @t: its selected fields, or for CSV the header's. */
static unsigned view_fields(const struct field_views *v, const struct hwt_record_type *t,
			    const struct hwt_field **f)
{
	unsigned n = 0;

	if (v->style == FS_CSV) {
		for (unsigned c = 0; c < v->ncols; c++) {
			int i = field_fmt__find(t, v->cols[c]);

			f[n++] = i >= 0 ? &t->fields[i] : NULL;
		}
		return n;
	}
	for (uint32_t i = 0; i < t->nfields; i++)
		if (selected(v, &t->fields[i]))
			f[n++] = &t->fields[i];
	return n;
}

/* The text before column @f's value in @style: `,"name":`, ` name=` or `,`. */
static void view_key(struct out *tmp, enum field_style style, const struct hwt_field *f)
{
	out__putc(tmp, style == FS_TEXT ? ' ' : ',');
	if (style == FS_JSON) {
		out__json_str(tmp, f->name);
		out__putc(tmp, ':');
	} else if (style == FS_TEXT) {
		out__puts(tmp, f->name);
		out__putc(tmp, '=');
	}
}

/* Built on first use per type; NULL if out of memory. */
static struct field_view *view_new(struct field_views *v, const struct hwt_record_type *t)
{
	struct field_view *grown, *w;
	struct out *tmp = malloc(sizeof(*tmp));
	unsigned cap = v->style == FS_CSV ? v->ncols : t->nfields;

	grown = realloc(v->views, (v->nviews + 1) * sizeof(*grown));
	if (!tmp || !grown) {
		free(tmp);
		return NULL;
	}
	v->views = grown;
	w = &v->views[v->nviews];
	memset(w, 0, sizeof(*w));
	w->type = t;
	w->f = calloc(cap + 1, sizeof(*w->f));
	w->end = calloc(cap + 1, sizeof(*w->end));
	w->plain = calloc(cap + 1, sizeof(*w->plain));
	if (!w->f || !w->end || !w->plain)
		goto fail;
	w->n = view_fields(v, t, w->f);
	w->time_col = -1;
	for (unsigned c = 0; c < w->n; c++) {
		const struct hwt_field *f = w->f[c];

		if (f && f->type == HWT_FT_U64 && !strcmp(f->name, "time"))
			w->time_col = (int)c;
		else if (f)
			w->plain[c] = f->type == HWT_FT_U64 && f->count <= 1 &&
				      f->hint == HWT_FH_DEC && !(f->flags & HWT_FF_OPTIONAL) &&
				      !hwt_field__is_signed(f);
	}
	out__init(tmp, -1);	/* never flushed: names are short */
	if (v->style == FS_JSON) {
		out__puts(tmp, "{\"type\":");
		out__json_str(tmp, t->name);
	} else if (v->style == FS_CSV) {
		out__csv_str(tmp, t->name);
	} else {
		out__puts(tmp, t->name);
		out__putc(tmp, ':');
	}
	w->end[0] = tmp->len;
	for (unsigned c = 0; c < w->n; c++) {
		if (w->f[c] || v->style == FS_CSV)
			view_key(tmp, v->style, w->f[c]);
		w->end[1 + c] = tmp->len;
	}
	/* slack, so that a key is copied with one fixed-size move */
	w->lit = calloc(1, tmp->len + KEY_MOVE);
	if (!w->lit)
		goto fail;
	memcpy(w->lit, tmp->buf, tmp->len);
	free(tmp);
	v->nviews++;
	return w;
fail:
	free(tmp);
	free(w->f);
	free(w->end);
	free(w->plain);
	return NULL;
}

static struct field_view *view_of(struct field_views *v, const struct hwt_record_type *t)
{
	if (v->last && v->last->type == t)
		return v->last;
	v->last = NULL;		/* views may move in view_new() */
	for (unsigned i = 0; i < v->nviews; i++)
		if (v->views[i].type == t)
			return v->last = &v->views[i];
	return v->last = view_new(v, t);
}

/*
 * A "time" as perf script prints it: secs.usecs (secs.nsecs with --ns),
 * relative to the first or the previous record shown with --reltime or
 * --deltatime (perf_sample__fprintf_start()).
 */
uint64_t time_base__next(struct time_base *b, bool rel, uint64_t t)
{
	uint64_t base;

	if (!b->seen) {
		b->first = b->prev = t;
		b->seen = true;
	}
	base = rel ? b->first : b->prev;
	b->prev = t;
	return base;
}

static void time_value(struct out *o, struct field_views *v, uint64_t t)
{
	uint64_t base = time_base__next(&v->times, v->reltime, t), shown = t, frac;

	if (v->reltime || v->deltatime)
		shown = t - base;
	if (v->time == TS_RAW || v->style == FS_JSON) {
		out__u64(o, shown);
		return;
	}
	out__u64(o, shown / 1000000000);
	out__putc(o, '.');
	frac = shown % 1000000000;
	if (v->time == TS_USECS)
		frac /= 1000;
	/* zero-padded to 6 or 9 digits */
	for (uint64_t d = v->time == TS_USECS ? 100000 : 100000000; d > 1 && frac < d; d /= 10)
		out__putc(o, '0');
	out__u64(o, frac);
}

bool field_views__time_of(struct field_views *v, const struct hwt_record *rec, uint64_t *t)
{
	const struct field_view *w = view_of(v, rec->type);
	const struct hwt_field *f;

	if (!w || w->time_col < 0)
		return false;
	f = w->f[w->time_col];
	if (!hwt_field__present(f, rec->data))
		return false;
	*t = hwt_field__u64(f, rec->data, 0);
	return true;
}

void field_views__set_time_base(struct field_views *v, uint64_t base)
{
	v->times.seen = true;
	if (v->reltime)
		v->times.first = base;
	else
		v->times.prev = base;
}

static bool metric_selected(const struct field_views *v, const char *name)
{
	if (!v->nonly)
		return true;
	for (unsigned i = 0; i < v->nonly; i++)
		if (!strcmp(v->only[i], name) || !strcmp(v->only[i], "metrics"))
			return true;
	return false;
}

/* metric @i of @m at @p (OUT_NUM_ROOM bytes free); returns the end */
static char *put_metric(char *p, const struct hwt_metrics *m, uint32_t i, enum field_style st)
{
	double val = m->vals[i];

	if (m->uvals && m->defs[i].integer)
		return out__put_u64(p, m->uvals[i]);
	if (isnan(val) || isinf(val)) {
		const char *none = st == FS_JSON ? "null" : "-";
		size_t n = strlen(none);

		memcpy(p, none, n);
		return p + n;
	}
	return out__put_double(p, val == 0 ? 0.0 : val);	/* no "-0" */
}

void field_fmt__metric_value(struct out *o, const struct hwt_metrics *m, uint32_t i,
			     enum field_style st)
{
	out__set_end(o, put_metric(out__room(o, OUT_NUM_ROOM), m, i, st));
}

/*
 * The text before each shown metric of one metric set, made once as a
 * field_view's is: `,"metrics":{"GpuTime":` then `,"GpuBusy":` in JSON,
 * ` GpuTime=` in text.  A set is known by its names' pointers: metric names
 * live as long as the program (metrics.h), so the same pointers are the
 * same names.
 */
struct metric_view {
	const char **names;	/* every def's name, in order: what the view is for */
	uint32_t n;
	uint32_t *idx;		/* the shown metrics (-F), in order */
	uint32_t nidx;
	char *lit;
	size_t *end;		/* end of shown metric k's key; it starts at end[k - 1] (0) */
};

/* The text before metric @name's value; @first opens the JSON object. */
static void metric_key(struct out *o, enum field_style style, const char *name, bool first)
{
	if (style == FS_JSON) {
		out__puts(o, first ? ",\"metrics\":{" : ",");
		out__json_str(o, name);
		out__putc(o, ':');
	} else {
		out__putc(o, ' ');
		out__puts(o, name);
		out__putc(o, '=');
	}
}

static void metric_view__free(struct metric_view *mv)
{
	if (!mv)
		return;
	free(mv->names);
	free(mv->idx);
	free(mv->lit);
	free(mv->end);
	free(mv);
}

static bool metric_view__fits(const struct metric_view *mv, const struct hwt_metrics *m)
{
	if (!mv || mv->n != m->n)
		return false;
	for (uint32_t i = 0; i < m->n; i++)
		if (mv->names[i] != m->defs[i].name)
			return false;
	return true;
}

/* The view of @m's set; NULL if out of memory. */
static struct metric_view *metric_view__new(const struct field_views *v,
					    const struct hwt_metrics *m)
{
	struct metric_view *mv = calloc(1, sizeof(*mv));
	struct out *tmp = malloc(sizeof(*tmp));
	struct membuf lit = { 0 };
	size_t len;

	if (!mv || !tmp)
		goto fail;
	mv->n = m->n;
	mv->names = malloc((m->n + 1) * sizeof(*mv->names));
	mv->idx = malloc((m->n + 1) * sizeof(*mv->idx));
	mv->end = malloc((m->n + 1) * sizeof(*mv->end));
	if (!mv->names || !mv->idx || !mv->end)
		goto fail;
	out__init_mem(tmp, &lit);	/* a set may have thousands of names */
	for (uint32_t i = 0; i < m->n; i++) {
		const char *name = m->defs[i].name;

		mv->names[i] = name;
		if (!metric_selected(v, name))
			continue;
		metric_key(tmp, v->style, name, !mv->nidx);
		mv->idx[mv->nidx] = i;
		mv->end[mv->nidx++] = lit.len + tmp->len;
	}
	out__flush(tmp);
	/* slack, so that a key is copied with one fixed-size move */
	membuf__put(&lit, (const char[KEY_MOVE]){ 0 }, KEY_MOVE);
	if (tmp->error || lit.oom)
		goto fail;
	mv->lit = membuf__steal(&lit, &len);
	if (!mv->lit)
		goto fail;
	free(tmp);
	return mv;
fail:
	membuf__free(&lit);
	free(tmp);
	metric_view__free(mv);
	return NULL;
}

/* record_metrics() without a view (no memory for one): each key made in place */
static void record_metrics_slow(struct out *o, const struct field_views *v,
				const struct hwt_metrics *m)
{
	bool any = false;

	for (uint32_t i = 0; i < m->n; i++) {
		if (!metric_selected(v, m->defs[i].name))
			continue;
		metric_key(o, v->style, m->defs[i].name, !any);
		field_fmt__metric_value(o, m, i, v->style);
		any = true;
	}
	if (any && v->style == FS_JSON)
		out__putc(o, '}');
}

/*
 * A record's metrics after its fields: a "metrics" object in JSON, name=value
 * pairs in text; -F keeps the named ones ("metrics" keeps all).  CSV rows
 * keep the header's columns: no metrics.
 */
static void record_metrics(struct out *o, struct field_views *v, const struct hwt_metrics *m)
{
	const struct metric_view *mv;
	size_t from = 0, need;
	char *p;

	if (v->style == FS_CSV)
		return;
	if (!metric_view__fits(v->mview, m)) {
		metric_view__free(v->mview);
		v->mview = metric_view__new(v, m);
		if (!v->mview) {
			record_metrics_slow(o, v, m);
			return;
		}
	}
	mv = v->mview;
	if (!mv->nidx)
		return;
	need = mv->end[mv->nidx - 1] + (size_t)mv->nidx * (OUT_NUM_ROOM + KEY_MOVE) + 1;
	if (need > sizeof(o->buf)) {
		/* thousands of metrics: a check for room each */
		for (uint32_t k = 0; k < mv->nidx; k++) {
			out__write(o, mv->lit + from, mv->end[k] - from);
			from = mv->end[k];
			field_fmt__metric_value(o, m, mv->idx[k], v->style);
		}
		p = out__room(o, 1);
	} else {
		/* one check for room, keys and values written in place */
		p = out__room(o, need);
		for (uint32_t k = 0; k < mv->nidx; k++) {
			size_t len = mv->end[k] - from;

			if (len <= KEY_MOVE)
				memcpy(p, mv->lit + from, KEY_MOVE);
			else
				memcpy(p, mv->lit + from, len);
			p += len;
			from = mv->end[k];
			p = put_metric(p, m, mv->idx[k], v->style);
		}
	}
	if (v->style == FS_JSON)
		*p++ = '}';
	out__set_end(o, p);
}

void field_fmt__record(struct out *o, struct field_views *v, const struct hwt_record *rec)
{
	const struct field_view *w = view_of(v, rec->type);

	if (!w) {
		/*
		 * out of memory for the type's view: the output stops as on a
		 * failed write, and the exit path says so (status 1), rather
		 * than go on with records missing
		 */
		out__fail(o, ENOMEM);
		return;
	}
	out__write(o, w->lit, w->end[0]);
	for (unsigned c = 0; c < w->n; c++) {
		const struct hwt_field *f = w->f[c];
		bool present;

		if (w->plain[c]) {
			/* the common column: key and number in place, one check for room */
			uint64_t x = *(const uint64_t *)((const char *)rec->data + f->offset);
			size_t len = w->end[1 + c] - w->end[c];

			if (len <= KEY_MOVE && (x <= OUT_JSON_EXACT || v->style != FS_JSON)) {
				char *p = out__room(o, KEY_MOVE + OUT_NUM_ROOM);

				memcpy(p, w->lit + w->end[c], KEY_MOVE);
				out__set_end(o, out__put_u64(p + len, x));
				continue;
			}
		}
		present = f && hwt_field__present(f, rec->data);

		/* absent: CSV keeps its empty cell, text and JSON leave the field out */
		if (present || v->style == FS_CSV)
			out__write(o, w->lit + w->end[c], w->end[1 + c] - w->end[c]);
		if (present && (int)c == w->time_col)
			time_value(o, v, hwt_field__u64(f, rec->data, 0));
		else if (present)
			value(o, f, rec->data, v->style);
	}
	if (rec->metrics)
		record_metrics(o, v, rec->metrics);
	if (v->style == FS_JSON)
		out__putc(o, '}');
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
