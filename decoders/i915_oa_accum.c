// SPDX-License-Identifier: GPL-2.0
/*
 * i915_oa_accum.c - deltas between consecutive OA reports and per-context totals.
 *
 * As IGT's intel_perf_accumulate_reports(): 32-bit counters subtract modulo
 * 2^32, 40-bit ones modulo 2^40, 64-bit ones plainly; the timestamp delta is
 * taken modulo 2^32 and then shifted right on Gfx12.5.  The delta ending at a
 * report belongs to the context of the report before it, as IGT's reader
 * splits its timelines.  No delta crosses an OA_BUFFER_LOST.
 */
#include <stdlib.h>
#include <string.h>

#include "hwtrace/i915_oa.h"

static uint64_t wrap_sub(uint64_t a, uint64_t b, uint8_t bits)
{
	if (bits == 64)
		return b - a;
	return (b - a) & ((1ull << bits) - 1);
}

void hwt_i915_oa_accum__init(struct hwt_i915_oa_accum *acc, const struct hwt_i915_oa_format *fmt,
			     uint32_t gen)
{
	uint32_t na = 0, nb = 0, nc = 0;

	memset(acc, 0, sizeof(*acc));
	acc->gen = gen;
	acc->hdr64 = fmt->hdr64;
	acc->cur = -1;
	for (uint32_t s = 0; s < fmt->nsegs; s++) {
		const struct hwt_i915_oa_seg *seg = &fmt->segs[s];

		for (uint32_t i = 0; i < seg->count; i++) {
			if (seg->kind == 'a' && na < I915_OA_MAX_A)
				acc->bits_a[na++] = seg->bits;
			else if (seg->kind == 'b' && nb < I915_OA_MAX_BC)
				acc->bits_b[nb++] = seg->bits;
			else if (seg->kind == 'c' && nc < I915_OA_MAX_BC)
				acc->bits_c[nc++] = seg->bits;
		}
	}
}

void hwt_i915_oa_accum__exit(struct hwt_i915_oa_accum *acc)
{
	free(acc->ctxs);
	acc->ctxs = NULL;
	acc->nctxs = acc->cap = 0;
}

uint32_t hwt_i915_oa__ctx_key(uint32_t gen, const struct hwt_i915_oa_values *v)
{
	if (gen < 800)
		return I915_OA_INVALID_CTX;
	/* IGT's reader takes Gfx12+ ids as always valid */
	if (gen >= 1200 || v->ctx_valid)
		return v->ctx;
	return I915_OA_INVALID_CTX;
}

uint64_t hwt_i915_oa__ticks_to_ns(uint64_t ticks, uint64_t freq)
{
	if (!freq)
		return 0;
	return (uint64_t)((unsigned __int128)ticks * 1000000000u / freq);
}

static int32_t ctx_index(struct hwt_i915_oa_accum *acc, uint32_t ctx)
{
	if (acc->cur >= 0 && acc->ctxs[acc->cur].ctx == ctx)
		return acc->cur;
	for (uint32_t i = 0; i < acc->nctxs; i++)
		if (acc->ctxs[i].ctx == ctx)
			return (int32_t)i;
	if (acc->nctxs == HWT_I915_OA_MAX_CTXS) {
		acc->ctx_overflow++;
		return (int32_t)acc->nctxs - 1;
	}
	if (acc->nctxs == acc->cap) {
		uint32_t cap = acc->cap ? acc->cap * 2 : 8;
		struct hwt_i915_oa_ctx_total *n = realloc(acc->ctxs, cap * sizeof(*n));

		if (!n)
			return acc->nctxs ? (int32_t)acc->nctxs - 1 : -1;
		acc->ctxs = n;
		acc->cap = cap;
	}
	memset(&acc->ctxs[acc->nctxs], 0, sizeof(acc->ctxs[0]));
	acc->ctxs[acc->nctxs].ctx = ctx;
	return (int32_t)acc->nctxs++;
}

void hwt_i915_oa_accum__report(struct hwt_i915_oa_accum *acc, const struct hwt_i915_oa_values *v,
			       struct hwt_i915_oa_delta *d)
{
	const struct hwt_i915_oa_values *p = &acc->prev;
	int32_t ci;

	d->valid = false;
	if (v->zero_hdr)
		return;		/* never a baseline, never counted in a context */
	if (acc->have_prev) {
		d->valid = true;
		if (acc->hdr64)
			d->dts = v->raw_ts - p->raw_ts;
		else if (acc->gen >= 1250 && acc->gen < 1300)
			d->dts = (uint32_t)(v->raw_ts - p->raw_ts) >> 1;
		else
			d->dts = (uint32_t)(v->raw_ts - p->raw_ts);
		d->dticks = acc->hdr64 ? v->ticks - p->ticks : (uint32_t)(v->ticks - p->ticks);
		for (uint32_t i = 0; i < v->na && i < p->na; i++)
			d->da[i] = wrap_sub(p->a[i], v->a[i], acc->bits_a[i]);
		for (uint32_t i = 0; i < v->nb && i < p->nb; i++)
			d->db[i] = wrap_sub(p->b[i], v->b[i], acc->bits_b[i]);
		for (uint32_t i = 0; i < v->nc && i < p->nc; i++)
			d->dc[i] = wrap_sub(p->c[i], v->c[i], acc->bits_c[i]);
		if (acc->cur >= 0) {
			acc->ctxs[acc->cur].dts += d->dts;
			acc->ctxs[acc->cur].dticks += d->dticks;
		}
	}
	ci = ctx_index(acc, hwt_i915_oa__ctx_key(acc->gen, v));
	if (ci >= 0) {
		struct hwt_i915_oa_ctx_total *t = &acc->ctxs[ci];

		if (!t->reports)
			t->first_ts = v->ts;
		t->last_ts = v->ts;
		t->reports++;
	}
	acc->cur = ci;
	acc->prev = *v;
	acc->have_prev = true;
}

void hwt_i915_oa_accum__lost(struct hwt_i915_oa_accum *acc, bool buffer)
{
	int32_t ci = acc->cur >= 0 ? acc->cur : ctx_index(acc, I915_OA_INVALID_CTX);

	if (ci >= 0)
		acc->ctxs[ci].lost++;
	if (buffer)
		acc->have_prev = false;
}
