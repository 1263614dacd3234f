// SPDX-License-Identifier: GPL-2.0
/*
 * i915_oa_sums.c - per-context sums of every counter's deltas, straight from
 * the reports' bytes.
 *
 * report --metrics wants only each context's metrics, i.e. the equations run
 * once on the context's summed deltas.  Decoding every counter of every
 * report into a record, taking its deltas and summing them in the metrics
 * computer cost about three times what this does: subtract the baseline's
 * bytes from the report's and add, per counter, modulo its width.  The
 * attribution is the metrics computer's (i915_oa_metrics.c), so that both
 * give the same sums: a delta goes to the context of the report before it,
 * and none crosses a lost record.
 */
#include <string.h>

#include "i915_oa_internal.h"

void hwt_i915_oa_sums__init(struct hwt_i915_oa_sums *s)
{
	memset(s, 0, sizeof(*s));
	s->ctxs = (struct hwt_i915_oa_ctx_table){ .size = sizeof(struct hwt_i915_oa_ctx_sum),
						  .last = -1 };
}

void hwt_i915_oa_sums__exit(struct hwt_i915_oa_sums *s)
{
	hwt_i915_oa_ctx_table__exit(&s->ctxs);
}

void hwt_i915_oa_sums__report(struct hwt_i915_oa_sums *s, const uint8_t *body,
			      const struct hwt_i915_oa_values *v, const struct hwt_i915_oa_delta *d,
			      uint32_t key)
{
	/* d->valid: the accumulator had a baseline, the one s->base holds */
	if (d->valid && s->have_prev) {
		struct hwt_i915_oa_ctx_sum *c = hwt_i915_oa_ctx_table__get(&s->ctxs, s->prev_key);

		if (c) {
			c->dts += d->dts;
			c->dticks += d->dticks;
			hwt_i915_oa__add_deltas(s->plan, body, s->base, c->v);
		} else {
			s->dropped++;
		}
	}
	s->prev_key = key;
	s->have_prev = true;
	if (!v->zero_hdr)	/* as the accumulator: never a baseline */
		s->base = body;
}

void hwt_i915_oa_sums__piece_end(struct hwt_i915_oa_sums *s, const struct hwt_i915_oa_format *fmt)
{
	if (s->base && s->base != s->keep && fmt && fmt->size <= sizeof(s->keep)) {
		memcpy(s->keep, s->base, fmt->size);
		s->base = s->keep;
	}
}

/*
 * Reports a block: their headers are read, then their wraps counted, while
 * they are in L1.  A shorter run takes each pair's deltas instead: counting
 * wraps has a cost per run.
 */
#define SPAN_BLOCK 64
#define SPAN_MIN 4

size_t hwt_i915_oa_sums__span(struct hwt_i915_oa_sums *s, struct hwt_i915_oa_accum *acc,
			      const struct hwt_i915_oa_format *fmt, uint32_t gen,
			      const uint8_t *first, size_t stride, size_t count)
{
	struct hwt_i915_oa_values *b = &acc->slot[acc->prev], v;
	struct hwt_i915_oa_ctx_sum *c;
	uint32_t w[I915_OA_MAX_A + 2 * I915_OA_MAX_BC];
	uint32_t key = s->prev_key, last_key = key;
	uint64_t raw_ts = b->raw_ts, ticks = b->ticks, dts = 0, dticks = 0;
	size_t n = 0, counted = 0;
	bool more = true;

	/* @first must be the baseline of both, its own delta taken */
	if (!acc->no_ctxs || !acc->have_prev || !s->have_prev || s->base != first)
		return 0;
	if (count > UINT32_MAX)
		count = UINT32_MAX;	/* pairs are counted in 32 bits */
	while (more) {
		size_t end = n + SPAN_BLOCK;

		for (; n < end && n + 1 < count; n++) {
			const uint8_t *ahead = first + (n + 1 + SPAN_BLOCK) * stride;

			/*
			 * The next block's lines, while this one is read:
			 * the hardware prefetcher stops at each 4 KiB page.
			 * (A prefetch past the input's end never faults.)
			 */
			for (size_t l = 0; l < stride; l += 64)
				__builtin_prefetch(ahead + l);
			hwt_i915_oa__decode_header(fmt, gen, first + (n + 1) * stride, &v);
			if (v.zero_hdr) {
				more = false;	/* never a baseline: the caller takes it */
				break;
			}
			dts += hwt_i915_oa_accum__dts(acc, v.raw_ts, raw_ts);
			dticks += hwt_i915_oa_accum__dticks(acc, v.ticks, ticks);
			raw_ts = v.raw_ts;
			ticks = v.ticks;
			last_key = hwt_i915_oa__ctx_key(gen, v.ctx, v.ctx_valid);
			if (last_key != key) {
				n++;	/* its delta is @key's; the next one is not */
				more = false;
				break;
			}
		}
		if (n + 1 >= count)
			more = false;
		if (!counted && !more && n < SPAN_MIN)
			break;
		if (!counted)
			memset(w, 0, sizeof(w));
		hwt_i915_oa__count_wraps(s->plan, first + counted * stride, stride,
					 (uint32_t)(n - counted), w);
		counted = n;
	}
	if (!n)
		return 0;
	c = hwt_i915_oa_ctx_table__get(&s->ctxs, key);
	if (!c) {
		s->dropped += n;
	} else {
		c->dts += dts;
		c->dticks += dticks;
		if (counted)
			hwt_i915_oa__add_span(s->plan, first + n * stride, first, w, c->v);
		else
			for (size_t j = 0; j < n; j++)
				hwt_i915_oa__add_deltas(s->plan, first + (j + 1) * stride,
							first + j * stride, c->v);
	}
	/* as a report at a time would leave them: the last one is the baseline */
	s->base = first + n * stride;
	s->prev_key = last_key;
	hwt_i915_oa__decode_header(fmt, gen, s->base, b);
	return n;
}
