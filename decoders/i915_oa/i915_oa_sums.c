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
