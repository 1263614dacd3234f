// SPDX-License-Identifier: GPL-2.0
/*
 * i915_oa_accum.c - deltas between consecutive OA reports and per-context totals.
 *
 * As IGT's intel_perf_accumulate_reports(): 32-bit counters subtract modulo
 * 2^32, 40-bit ones modulo 2^40, 64-bit ones plainly; the timestamp delta is
 * taken modulo 2^32 and then shifted right on DG2 (hwt_i915_oa__ts_shift()).
 * The delta ending at a report belongs to the context of the report before
 * it, as IGT's reader splits its timelines.  No delta crosses an
 * OA_BUFFER_LOST.
 */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "i915_oa_internal.h"

static uint64_t width_mask(uint8_t bits)
{
	return bits >= 64 ? ~0ull : (1ull << bits) - 1;
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
				acc->mask_a[na++] = width_mask(seg->bits);
			else if (seg->kind == 'b' && nb < I915_OA_MAX_BC)
				acc->mask_b[nb++] = width_mask(seg->bits);
			else if (seg->kind == 'c' && nc < I915_OA_MAX_BC)
				acc->mask_c[nc++] = width_mask(seg->bits);
		}
	}
}

void hwt_i915_oa_accum__exit(struct hwt_i915_oa_accum *acc)
{
	free(acc->ctxs);
	acc->ctxs = NULL;
	acc->nctxs = acc->cap = 0;
}

uint64_t hwt_i915_oa__ticks_to_ns(uint64_t ticks, uint64_t freq)
{
	unsigned __int128 ns;

	if (!freq)
		return 0;
	/* a tiny frequency from a corrupt file must not wrap the result */
	ns = (unsigned __int128)ticks * 1000000000u / freq;
	return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
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

/* d[i] = (v[i] - p[i]) mod 2^width, for the counters both reports have */
static inline void sub_masked(uint64_t *restrict d, const uint64_t *v, const uint64_t *p,
			      const uint64_t *mask, uint32_t n)
{
	uint32_t i = 0;

#ifdef __SSE2__
	for (; i + 2 <= n; i += 2) {
		__m128i a = _mm_loadu_si128((const __m128i *)(v + i));
		__m128i b = _mm_loadu_si128((const __m128i *)(p + i));
		__m128i m = _mm_loadu_si128((const __m128i *)(mask + i));

		_mm_storeu_si128((__m128i *)(d + i), _mm_and_si128(_mm_sub_epi64(a, b), m));
	}
#endif
	for (; i < n; i++)
		d[i] = (v[i] - p[i]) & mask[i];
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static inline __attribute__((always_inline)) void
report(struct hwt_i915_oa_accum *acc, const struct hwt_i915_oa_values *v,
       struct hwt_i915_oa_delta *d, bool taken)
{
	const struct hwt_i915_oa_values *p = &acc->slot[acc->prev];
	struct hwt_i915_oa_values *next = hwt_i915_oa_accum__next(acc);
	uint32_t key;
	int32_t ci;

	d->valid = false;
	if (v->zero_hdr)
		return;		/* never a baseline, never counted in a context */
	if (acc->have_prev) {
		d->valid = true;
		d->dts = hwt_i915_oa_accum__dts(acc, v->raw_ts, p->raw_ts);
		d->dticks = hwt_i915_oa_accum__dticks(acc, v->ticks, p->ticks);
		if (!taken && (v->na | v->nb | v->nc)) {	/* none: only the header decoded */
			sub_masked(d->da, v->a, p->a, acc->mask_a, min_u32(v->na, p->na));
			sub_masked(d->db, v->b, p->b, acc->mask_b, min_u32(v->nb, p->nb));
			sub_masked(d->dc, v->c, p->c, acc->mask_c, min_u32(v->nc, p->nc));
		}
		if (acc->cur >= 0) {
			acc->ctxs[acc->cur].dts += d->dts;
			acc->ctxs[acc->cur].dticks += d->dticks;
		}
	}
	if (acc->no_ctxs)
		goto baseline;	/* nobody reads the per-context totals */
	key = hwt_i915_oa__ctx_key(acc->gen, v->ctx, v->ctx_valid);
	ci = acc->cur >= 0 && acc->ctxs[acc->cur].ctx == key ? acc->cur : ctx_index(acc, key);
	if (ci >= 0) {
		struct hwt_i915_oa_ctx_total *t = &acc->ctxs[ci];

		if (!t->reports)
			t->first_ts = v->ts;
		t->last_ts = v->ts;
		t->reports++;
	}
	acc->cur = ci;
baseline:
	/* the new baseline: swap buffers when @v was decoded in place */
	if (v != next)
		*next = *v;
	acc->prev ^= 1;
	acc->have_prev = true;
}

void hwt_i915_oa_accum__report(struct hwt_i915_oa_accum *acc, const struct hwt_i915_oa_values *v,
			       struct hwt_i915_oa_delta *d)
{
	report(acc, v, d, false);
}

void hwt_i915_oa_accum__report_taken(struct hwt_i915_oa_accum *acc,
				     const struct hwt_i915_oa_values *v, struct hwt_i915_oa_delta *d)
{
	report(acc, v, d, true);
}

void hwt_i915_oa_accum__lost(struct hwt_i915_oa_accum *acc, bool buffer)
{
	int32_t ci = acc->no_ctxs ? -1 : acc->cur >= 0 ? acc->cur : ctx_index(acc, I915_OA_INVALID_CTX);

	if (ci >= 0)
		acc->ctxs[ci].lost++;
	if (buffer)
		acc->have_prev = false;
}
