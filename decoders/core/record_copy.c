// SPDX-License-Identifier: GPL-2.0
/*
 * record_copy.c - a record copied with everything it points to.
 *
 * One walk both measures and copies (a cursor that writes only what fits),
 * so that the size and the copy cannot disagree, and a copy that fits, the
 * common case, takes one walk.  The copy is laid
 * out as: the struct hwt_record, its struct hwt_metrics, the typed struct,
 * then what the fields and the metrics point to, each piece 8-byte aligned.
 */
#include <stdint.h>
#include <string.h>

#include "hwtrace/metrics.h"

#include "record_copy.h"

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static size_t ftype_size(enum hwt_ftype t)
{
	switch (t) {
	case HWT_FT_U8:
		return 1;
	case HWT_FT_U16:
		return 2;
	case HWT_FT_U32:
		return 4;
	case HWT_FT_BOOL:
		return sizeof(bool);
	case HWT_FT_STR:
		return sizeof(const char *);
	case HWT_FT_U64_VEC:
		return sizeof(const uint64_t *);
	case HWT_FT_KV:
		return sizeof(const struct hwt_kv *);
	case HWT_FT_U64:
	case HWT_FT_S64:
		break;
	}
	return 8;
}

static size_t max_size(size_t a, size_t b)
{
	return a > b ? a : b;
}

static bool is_pointer(const struct hwt_field *f)
{
	return f->type == HWT_FT_STR || f->type == HWT_FT_U64_VEC || f->type == HWT_FT_KV;
}

void record_shape__init(struct record_shape *s, const struct hwt_record_type *t)
{
	*s = (struct record_shape){ .type = t };
	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct hwt_field *f = &t->fields[i];
		size_t end = f->offset + ftype_size(f->type) * (f->count > 1 ? f->count : 1);

		if (f->type == HWT_FT_U64_VEC || f->type == HWT_FT_KV)
			end = max_size(end, f->count_offset + sizeof(uint32_t));
		if (f->flags & HWT_FF_OPTIONAL)
			end = max_size(end, f->present_offset + sizeof(bool));
		s->extent = max_size(s->extent, end);
		if (is_pointer(f)) {
			if (s->nptr < RECORD_SHAPE_PTRS)
				s->ptr[s->nptr] = (uint16_t)i;
			s->nptr++;
		}
	}
}

/* where the copy goes: @cap bytes at @mem; past them it only measures */
struct cursor {
	uint8_t *mem;
	size_t pos, cap;
};

/* @n bytes of @src at the cursor; returns where they are in the copy (NULL: past @cap) */
static inline void *put(struct cursor *c, const void *src, size_t n)
{
	void *at = c->mem && c->pos + n <= c->cap ? c->mem + c->pos : NULL;

	if (at && n)
		memcpy(at, src, n);
	c->pos += align8(n);
	return at;
}

static const char *put_str(struct cursor *c, const char *s)
{
	return s ? put(c, s, strlen(s) + 1) : NULL;
}

/* what field @f of the copied struct @data points to, copied, the pointer updated */
static void put_pointee(struct cursor *c, const struct hwt_field *f, uint8_t *data,
			const void *src_data)
{
	const void *p;
	void *q;
	uint32_t n;

	memcpy(&p, (const uint8_t *)src_data + f->offset, sizeof(p));
	if (!hwt_field__present(f, src_data))
		p = NULL;	/* unset: it may hold anything */
	if (!p) {
		if (data)
			memset(data + f->offset, 0, sizeof(p));
		return;
	}
	if (f->type == HWT_FT_STR) {
		q = (void *)put_str(c, p);
	} else {
		memcpy(&n, (const uint8_t *)src_data + f->count_offset, sizeof(n));
		if (f->type == HWT_FT_U64_VEC) {
			q = put(c, p, (size_t)n * sizeof(uint64_t));
		} else {
			struct hwt_kv *kv = put(c, p, (size_t)n * sizeof(*kv));

			for (uint32_t i = 0; i < n; i++) {
				const char *key = put_str(c, ((const struct hwt_kv *)p)[i].key);

				if (kv)
					kv[i].key = key;
			}
			q = kv;
		}
	}
	if (data)
		memcpy(data + f->offset, &q, sizeof(q));
}

size_t record_copy(void *mem, size_t cap, const struct record_shape *s,
		   const struct hwt_record *rec)
{
	struct cursor c = { .mem = mem, .cap = cap };
	struct hwt_record *r = put(&c, rec, sizeof(*rec));
	const struct hwt_metrics *m = rec->metrics;
	struct hwt_metrics *mc = m ? put(&c, m, sizeof(*m)) : NULL;
	uint8_t *data = put(&c, rec->data, s->extent);

	if (r) {
		r->data = data;
		r->metrics = mc;
	}
	if (m) {
		const double *vals = put(&c, m->vals, m->n * sizeof(double));
		const uint64_t *uvals = m->uvals ? put(&c, m->uvals, m->n * sizeof(uint64_t)) : NULL;

		if (mc) {
			mc->vals = vals;
			mc->uvals = uvals;
		}
	}
	if (s->nptr <= RECORD_SHAPE_PTRS) {
		for (uint32_t i = 0; i < s->nptr; i++)
			put_pointee(&c, &s->type->fields[s->ptr[i]], data, rec->data);
	} else {
		for (uint32_t i = 0; i < s->type->nfields; i++)
			if (is_pointer(&s->type->fields[i]))
				put_pointee(&c, &s->type->fields[i], data, rec->data);
	}
	return c.pos;
}
