// SPDX-License-Identifier: GPL-2.0
/*
 * i915_oa_report.c - decode one OA report: header fields and A/B/C counters.
 *
 * Header (32-bit formats): dword 0 report id (reason bits 19+, ctx-valid bit),
 * dword 1 timestamp, dword 2 context id, dword 3 GPU ticks (Gen8+).  64-bit
 * headers (MTL OAM): u64 id, u64 timestamp, ctx at dword 4, u64 ticks at 24.
 */
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "i915_oa_internal.h"
#include "le.h"

const char *const hwt_i915_oa_reason_names[7] = {
	"timer", "trigger1", "trigger2", "context-switch", "go-transition",
	"clock-ratio-change", "mmio-trigger",
};

/*
 * Copy one run of counters to @dst, widened to u64 (report bytes are
 * little-endian, as is every host the SSE2 path runs on).  SSE2 does four at a time:
 * interleaving the low dwords with zeros, or with the zero-extended high
 * bytes of 40-bit counters, gives the u64 values directly.
 */
static inline void read_seg(const struct hwt_i915_oa_seg *seg, const uint8_t *p, uint64_t *dst)
{
	const uint8_t *q = p + seg->off, *hi = p + seg->hi_off;
	uint32_t n = seg->count, i = 0;
#ifdef __SSE2__
	const __m128i zero = _mm_setzero_si128();
	__m128i lo, h;
#endif

	switch (seg->bits) {
	case 64:
		memcpy(dst, q, 8 * n);
		break;
	case 40:
#ifdef __SSE2__
		for (; i + 4 <= n; i += 4) {
			lo = _mm_loadu_si128((const __m128i *)(q + 4 * i));
			h = _mm_cvtsi32_si128((int)hwt_le32(hi + i));
			h = _mm_unpacklo_epi16(_mm_unpacklo_epi8(h, zero), zero);
			_mm_storeu_si128((__m128i *)(dst + i), _mm_unpacklo_epi32(lo, h));
			_mm_storeu_si128((__m128i *)(dst + i + 2), _mm_unpackhi_epi32(lo, h));
		}
#endif
		for (; i < n; i++)
			dst[i] = hwt_le32(q + 4 * i) | (uint64_t)hi[i] << 32;
		break;
	default:
#ifdef __SSE2__
		for (; i + 4 <= n; i += 4) {
			lo = _mm_loadu_si128((const __m128i *)(q + 4 * i));
			_mm_storeu_si128((__m128i *)(dst + i), _mm_unpacklo_epi32(lo, zero));
			_mm_storeu_si128((__m128i *)(dst + i + 2), _mm_unpackhi_epi32(lo, zero));
		}
#endif
		for (; i < n; i++)
			dst[i] = hwt_le32(q + 4 * i);
		break;
	}
}

/* A, B and C counters in index order; a run that would overflow its array is dropped. */
static void read_counters(const struct hwt_i915_oa_format *fmt, const uint8_t *p,
			  struct hwt_i915_oa_values *v)
{
	uint32_t na = 0, nb = 0, nc = 0;

	for (uint32_t s = 0; s < fmt->nsegs; s++) {
		const struct hwt_i915_oa_seg *seg = &fmt->segs[s];

		if (seg->kind == 'a') {
			if (na + seg->count > I915_OA_MAX_A)
				continue;
			read_seg(seg, p, v->a + na);
			na += seg->count;
		} else if (seg->kind == 'b') {
			if (nb + seg->count > I915_OA_MAX_BC)
				continue;
			read_seg(seg, p, v->b + nb);
			nb += seg->count;
		} else {
			if (nc + seg->count > I915_OA_MAX_BC)
				continue;
			read_seg(seg, p, v->c + nc);
			nc += seg->count;
		}
	}
	v->na = na;
	v->nb = nb;
	v->nc = nc;
}

void hwt_i915_oa__decode_header(const struct hwt_i915_oa_format *fmt, uint32_t gen,
				const uint8_t *p, struct hwt_i915_oa_values *v)
{
	v->na = v->nb = v->nc = 0;
	v->rpt_id = hwt_le32(p);
	if (fmt->hdr64) {
		v->raw_ts = hwt_le64(p + 8);
		v->ctx = hwt_le32(p + 16);
		v->ticks = hwt_le64(p + 24);
	} else {
		v->raw_ts = hwt_le32(p + 4);
		v->ctx = hwt_le32(p + 8);
		v->ticks = gen >= 800 ? hwt_le32(p + 12) : 0;
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

	/* the header is 16 or 32 bytes: OR its u64 words */
	v->zero_hdr = !(hwt_le64(p) | hwt_le64(p + 8) |
			(fmt->hdr64 ? hwt_le64(p + 16) | hwt_le64(p + 24) : 0));
}

void hwt_i915_oa__decode_report(const struct hwt_i915_oa_format *fmt, uint32_t gen,
				const uint8_t *p, struct hwt_i915_oa_values *v)
{
	hwt_i915_oa__decode_header(fmt, gen, p, v);
	read_counters(fmt, p, v);
	/* HSW: RenderBasic routes the GPU clock to C2 (IGT hsw_read_report_ticks) */
	if (gen < 800 && v->nc > 2)
		v->ticks = v->c[2];
}
