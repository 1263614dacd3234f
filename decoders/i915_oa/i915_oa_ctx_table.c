// SPDX-License-Identifier: GPL-2.0
/*
 * i915_oa_ctx_table.c - per-context entries found by context id, kept in the
 * order the contexts came: the metrics computer's sums and the decoder's.
 */
#include <stdlib.h>
#include <string.h>

#include "i915_oa_internal.h"

static uint32_t key_at(const struct hwt_i915_oa_ctx_table *t, uint32_t i)
{
	uint32_t k;

	memcpy(&k, (const char *)t->v + (size_t)i * t->size, sizeof(k));
	return k;
}

void *hwt_i915_oa_ctx_table__get(struct hwt_i915_oa_ctx_table *t, uint32_t ctx)
{
	void *e;

	/* reports come in runs of one context */
	if (t->last >= 0 && key_at(t, (uint32_t)t->last) == ctx)
		return hwt_i915_oa_ctx_table__at(t, (uint32_t)t->last);
	for (uint32_t i = t->n; i-- > 0;)
		if (key_at(t, i) == ctx) {
			t->last = (int32_t)i;
			return hwt_i915_oa_ctx_table__at(t, i);
		}
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 16;
		void *p = cap <= HWT_I915_OA_MAX_CTXS ? realloc(t->v, cap * t->size) : NULL;

		if (!p)
			return NULL;
		t->v = p;
		t->cap = cap;
	}
	e = hwt_i915_oa_ctx_table__at(t, t->n);
	memset(e, 0, t->size);
	memcpy(e, &ctx, sizeof(ctx));
	t->last = (int32_t)t->n;
	t->n++;
	return e;
}

void hwt_i915_oa_ctx_table__exit(struct hwt_i915_oa_ctx_table *t)
{
	free(t->v);
	*t = (struct hwt_i915_oa_ctx_table){ .size = t->size, .last = -1 };
}
