// SPDX-License-Identifier: GPL-2.0
/*
 * i915_oa_report.c - decode one OA report: header fields and A/B/C counters.
 *
 * Header (32-bit formats): dword 0 report id (reason bits 19+, ctx-valid bit),
 * dword 1 timestamp, dword 2 context id, dword 3 GPU ticks (Gen8+).  64-bit
 * headers (MTL OAM): u64 id, u64 timestamp, ctx at dword 4, u64 ticks at 24.
 */
#include <string.h>

#include "hwtrace/i915_oa.h"

const char *const hwt_i915_oa_reason_names[7] = {
	"timer", "trigger1", "trigger2", "context-switch", "go-transition",
	"clock-ratio-change", "mmio-trigger",
};

static inline uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t *counter_slot(struct hwt_i915_oa_values *v, char kind, uint32_t **n)
{
	switch (kind) {
	case 'a':
		*n = &v->na;
		return v->a;
	case 'b':
		*n = &v->nb;
		return v->b;
	default:
		*n = &v->nc;
		return v->c;
	}
}

void hwt_i915_oa__decode_report(const struct hwt_i915_oa_format *fmt, uint32_t gen,
				const uint8_t *p, struct hwt_i915_oa_values *v)
{
	uint32_t hdr_len = fmt->hdr64 ? 32 : 16;

	v->na = v->nb = v->nc = 0;
	v->rpt_id = rd32(p);
	if (fmt->hdr64) {
		v->raw_ts = rd64(p + 8);
		v->ctx = rd32(p + 16);
		v->ticks = rd64(p + 24);
	} else {
		v->raw_ts = rd32(p + 4);
		v->ctx = rd32(p + 8);
		v->ticks = gen >= 800 ? rd32(p + 12) : 0;
	}
	/* Gfx12.5 OA timestamps are shifted right by one (IGT, Mesa) */
	v->ts = !fmt->hdr64 && gen >= 1250 && gen < 1300 ? v->raw_ts >> 1 : v->raw_ts;

	if (gen < 800) {
		/* HSW has no reason bits; IGT labels its periodic reports "timer" */
		v->reason = I915_OA_REASON_TIMER;
		v->ctx_valid = false;
	} else {
		v->reason = (v->rpt_id >> 19) & (gen >= 1200 && gen < 1300 ? 0x7f : 0x3f);
		v->ctx_valid = v->rpt_id & (gen == 800 ? 1u << 25 : 1u << 16);
	}

	v->zero_hdr = true;
	for (uint32_t i = 0; i < hdr_len; i++)
		if (p[i]) {
			v->zero_hdr = false;
			break;
		}

	for (uint32_t s = 0; s < fmt->nsegs; s++) {
		const struct hwt_i915_oa_seg *seg = &fmt->segs[s];
		uint32_t *n;
		uint64_t *dst = counter_slot(v, seg->kind, &n);

		for (uint32_t i = 0; i < seg->count; i++) {
			uint64_t x;

			if (seg->bits == 64)
				x = rd64(p + seg->off + 8 * i);
			else
				x = rd32(p + seg->off + 4 * i);
			if (seg->bits == 40)
				x |= (uint64_t)p[seg->hi_off + i] << 32;
			dst[(*n)++] = x;
		}
	}
	/* HSW: RenderBasic routes the GPU clock to C2 (IGT hsw_read_report_ticks) */
	if (gen < 800 && v->nc > 2)
		v->ticks = v->c[2];
}
