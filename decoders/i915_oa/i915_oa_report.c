// SPDX-License-Identifier: GPL-2.0
/*
 * i915_oa_report.c - decode one OA report: header fields and A/B/C counters.
 *
 * Header (32-bit formats): dword 0 report id (reason bits 19+, ctx-valid bit),
 * dword 1 timestamp, dword 2 context id, dword 3 GPU ticks (Gen8+).  64-bit
 * headers (MTL OAM): u64 id, u64 timestamp, ctx at dword 4, u64 ticks at 24.
 */
#include <stddef.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
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

void hwt_i915_oa__decode_report(const struct hwt_i915_oa_format *fmt, uint32_t gen,
				const uint8_t *p, struct hwt_i915_oa_values *v)
{
	hwt_i915_oa__decode_header(fmt, gen, p, v);
	read_counters(fmt, p, v);
	/* HSW: RenderBasic routes the GPU clock to C2 (IGT hsw_read_report_ticks) */
	if (gen < 800 && v->nc > 2)
		v->ticks = v->c[2];
}

/*
 * The deltas of runs of counters, straight from two reports' bytes: s[i] +=
 * (cur[i] - prev[i]) mod 2^bits.  A 40-bit delta is the low dwords'
 * difference with, above it, the high bytes' difference less the low
 * dwords' borrow.  The plan merges runs that follow each other in both the
 * report and the sums, and picks AVX2 (eight counters a step) when the CPU
 * has it; SSE2 (four) and plain C finish what is left.
 */
static inline __attribute__((always_inline)) void
add_run(const struct hwt_i915_oa_run *r, uint32_t i, const uint8_t *cur, const uint8_t *prev,
	uint64_t *s)
{
	const uint8_t *qc = cur + r->off, *qp = prev + r->off;
	const uint8_t *hc = cur + r->hi_off, *hp = prev + r->hi_off;
	uint32_t n = r->count;
#ifdef __SSE2__
	const __m128i zero = _mm_setzero_si128(), bias = _mm_set1_epi32((int)0x80000000u);
	const __m128i byte = _mm_set1_epi32(0xff);
	__m128i lc, lp, d, b, h, s0, s1;
#endif

	switch (r->bits) {
	case 64:
		for (; i < n; i++)
			s[i] += hwt_le64(qc + 8 * i) - hwt_le64(qp + 8 * i);
		break;
	case 40:
#ifdef __SSE2__
		for (; i + 4 <= n; i += 4) {
			lc = _mm_loadu_si128((const __m128i *)(qc + 4 * i));
			lp = _mm_loadu_si128((const __m128i *)(qp + 4 * i));
			d = _mm_sub_epi32(lc, lp);
			/* -1 where lc < lp (unsigned): the borrow from the high byte */
			b = _mm_cmpgt_epi32(_mm_xor_si128(lp, bias), _mm_xor_si128(lc, bias));
			h = _mm_sub_epi32(
				_mm_unpacklo_epi16(_mm_unpacklo_epi8(
					_mm_cvtsi32_si128((int)hwt_le32(hc + i)), zero), zero),
				_mm_unpacklo_epi16(_mm_unpacklo_epi8(
					_mm_cvtsi32_si128((int)hwt_le32(hp + i)), zero), zero));
			h = _mm_and_si128(_mm_add_epi32(h, b), byte);
			s0 = _mm_loadu_si128((const __m128i *)(s + i));
			s1 = _mm_loadu_si128((const __m128i *)(s + i + 2));
			_mm_storeu_si128((__m128i *)(s + i),
					 _mm_add_epi64(s0, _mm_unpacklo_epi32(d, h)));
			_mm_storeu_si128((__m128i *)(s + i + 2),
					 _mm_add_epi64(s1, _mm_unpackhi_epi32(d, h)));
		}
#endif
		for (; i < n; i++)
			s[i] += ((hwt_le32(qc + 4 * i) | (uint64_t)hc[i] << 32) -
				 (hwt_le32(qp + 4 * i) | (uint64_t)hp[i] << 32)) & ((1ull << 40) - 1);
		break;
	default:
#ifdef __SSE2__
		for (; i + 4 <= n; i += 4) {
			lc = _mm_loadu_si128((const __m128i *)(qc + 4 * i));
			lp = _mm_loadu_si128((const __m128i *)(qp + 4 * i));
			d = _mm_sub_epi32(lc, lp);
			s0 = _mm_loadu_si128((const __m128i *)(s + i));
			s1 = _mm_loadu_si128((const __m128i *)(s + i + 2));
			_mm_storeu_si128((__m128i *)(s + i), _mm_add_epi64(s0, _mm_unpacklo_epi32(d, zero)));
			_mm_storeu_si128((__m128i *)(s + i + 2),
					 _mm_add_epi64(s1, _mm_unpackhi_epi32(d, zero)));
		}
#endif
		for (; i < n; i++)
			s[i] += (uint32_t)(hwt_le32(qc + 4 * i) - hwt_le32(qp + 4 * i));
		break;
	}
}

#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_AVX2_PATH 1

/*
 * One run of counters of a report, widened to u64 into @v and, with a
 * baseline @b, their deltas modulo 2^bits into @d: eight a step (the dwords
 * put in order 0 1 4 5 2 3 6 7 first, so that the unpacked u64s come out as
 * counters 0-3 then 4-7), then four, then one by one.
 */
__attribute__((target("avx2")))
static void run_with_deltas_avx2(const struct hwt_i915_oa_drun *r, const uint8_t *p,
				 const uint64_t *b, uint64_t *v, uint64_t *d)
{
	const uint8_t *q = p + r->off, *hi = p + r->hi_off;
	const uint64_t mask = r->bits == 40 ? (1ull << 40) - 1 : 0xffffffffull;
	const __m256i m = _mm256_set1_epi64x((long long)mask);
	const __m128i m4 = _mm_set1_epi64x((long long)mask);
	uint32_t i = 0, n = r->count;

	if (r->bits == 64) {
		for (; i < n; i++) {
			v[i] = hwt_le64(q + 8 * i);
			if (b)
				d[i] = v[i] - b[i];
		}
		return;
	}
	for (; i + 8 <= n; i += 8) {
		__m256i lo = _mm256_permute4x64_epi64(
			_mm256_loadu_si256((const __m256i *)(q + 4 * i)), 0xd8);
		__m256i h = _mm256_setzero_si256(), v0, v1;

		if (r->bits == 40)
			h = _mm256_permute4x64_epi64(_mm256_cvtepu8_epi32(
				_mm_loadl_epi64((const __m128i *)(hi + i))), 0xd8);
		v0 = _mm256_unpacklo_epi32(lo, h);
		v1 = _mm256_unpackhi_epi32(lo, h);
		_mm256_storeu_si256((__m256i *)(v + i), v0);
		_mm256_storeu_si256((__m256i *)(v + i + 4), v1);
		if (!b)
			continue;
		_mm256_storeu_si256((__m256i *)(d + i), _mm256_and_si256(_mm256_sub_epi64(v0,
				    _mm256_loadu_si256((const __m256i *)(b + i))), m));
		_mm256_storeu_si256((__m256i *)(d + i + 4), _mm256_and_si256(_mm256_sub_epi64(v1,
				    _mm256_loadu_si256((const __m256i *)(b + i + 4))), m));
	}
	for (; i + 4 <= n; i += 4) {
		__m128i lo = _mm_loadu_si128((const __m128i *)(q + 4 * i));
		__m128i h = _mm_setzero_si128(), v0, v1;

		if (r->bits == 40)
			h = _mm_cvtepu8_epi32(_mm_cvtsi32_si128((int)hwt_le32(hi + i)));
		v0 = _mm_unpacklo_epi32(lo, h);
		v1 = _mm_unpackhi_epi32(lo, h);
		_mm_storeu_si128((__m128i *)(v + i), v0);
		_mm_storeu_si128((__m128i *)(v + i + 2), v1);
		if (!b)
			continue;
		_mm_storeu_si128((__m128i *)(d + i), _mm_and_si128(_mm_sub_epi64(v0,
				 _mm_loadu_si128((const __m128i *)(b + i))), m4));
		_mm_storeu_si128((__m128i *)(d + i + 2), _mm_and_si128(_mm_sub_epi64(v1,
				 _mm_loadu_si128((const __m128i *)(b + i + 2))), m4));
	}
	for (; i < n; i++) {
		v[i] = hwt_le32(q + 4 * i) | (r->bits == 40 ? (uint64_t)hi[i] << 32 : 0);
		if (b)
			d[i] = (v[i] - b[i]) & mask;
	}
}

bool hwt_i915_oa__decode_with_deltas(const struct hwt_i915_oa_plan *plan,
				     const struct hwt_i915_oa_format *fmt, uint32_t gen,
				     const uint8_t *p, const struct hwt_i915_oa_values *b,
				     struct hwt_i915_oa_values *v, struct hwt_i915_oa_delta *d)
{
	hwt_i915_oa__decode_header(fmt, gen, p, v);
	if (b && v->zero_hdr)
		b = NULL;
	/* the counters and deltas are runs of u64 at byte offsets of @v, @b and @d */
	for (uint32_t k = 0; k < plan->ndec; k++) {
		const struct hwt_i915_oa_drun *r = &plan->dec[k];

		run_with_deltas_avx2(r, p, b ? (const uint64_t *)((const char *)b + r->voff) : NULL,
				     (uint64_t *)((char *)v + r->voff),
				     (uint64_t *)((char *)d + r->doff));
	}
	v->na = plan->na;
	v->nb = plan->nb;
	v->nc = plan->nc;
	/* deltas of the counters both have: else the accumulator takes them */
	return b && b->na == v->na && b->nb == v->nb && b->nc == v->nc;
}
#else
bool hwt_i915_oa__decode_with_deltas(const struct hwt_i915_oa_plan *plan,
				     const struct hwt_i915_oa_format *fmt, uint32_t gen,
				     const uint8_t *p, const struct hwt_i915_oa_values *b,
				     struct hwt_i915_oa_values *v, struct hwt_i915_oa_delta *d)
{
	hwt_i915_oa__decode_report(fmt, gen, p, v);
	return false;
}
#endif

#ifdef HAVE_AVX2_PATH
/*
 * Eight counters a step.  AVX2 unpacks within 128-bit halves: the dwords are
 * first put in order 0 1 4 5 2 3 6 7, so that the unpacked u64s come out as
 * counters 0-3 then 4-7.
 */
__attribute__((target("avx2")))
static void add_deltas_avx2(const struct hwt_i915_oa_plan *plan, const uint8_t *cur,
			    const uint8_t *prev, uint64_t *sums)
{
	const __m256i ones = _mm256_set1_epi32(-1), byte = _mm256_set1_epi32(0xff);
	const __m256i zero = _mm256_setzero_si256();

	for (uint32_t k = 0; k < plan->nruns; k++) {
		/* a copy: the stores below cannot change it, so it stays in registers */
		const struct hwt_i915_oa_run r = plan->runs[k];
		const uint8_t *qc = cur + r.off, *qp = prev + r.off;
		const uint8_t *hc = cur + r.hi_off, *hp = prev + r.hi_off;
		uint64_t *s = sums + r.dst;
		uint32_t i = 0;

		if (r.bits == 40) {
			for (; i + 8 <= r.count; i += 8) {
				__m256i lc = _mm256_loadu_si256((const __m256i *)(qc + 4 * i));
				__m256i lp = _mm256_loadu_si256((const __m256i *)(qp + 4 * i));
				__m256i d = _mm256_permute4x64_epi64(_mm256_sub_epi32(lc, lp), 0xd8);
				/* -1 where lc >= lp: no borrow; its complement is the borrow */
				__m256i nb = _mm256_cmpeq_epi32(_mm256_max_epu32(lc, lp), lc);
				__m256i hc8 = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(hc + i)));
				__m256i hp8 = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(hp + i)));
				__m256i h = _mm256_add_epi32(_mm256_sub_epi32(hc8, hp8),
							     _mm256_xor_si256(nb, ones));

				h = _mm256_permute4x64_epi64(_mm256_and_si256(h, byte), 0xd8);
				_mm256_storeu_si256((__m256i *)(s + i),
					_mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(s + i)),
							 _mm256_unpacklo_epi32(d, h)));
				_mm256_storeu_si256((__m256i *)(s + i + 4),
					_mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(s + i + 4)),
							 _mm256_unpackhi_epi32(d, h)));
			}
		} else if (r.bits == 32) {
			for (; i + 8 <= r.count; i += 8) {
				__m256i lc = _mm256_loadu_si256((const __m256i *)(qc + 4 * i));
				__m256i lp = _mm256_loadu_si256((const __m256i *)(qp + 4 * i));
				__m256i d = _mm256_permute4x64_epi64(_mm256_sub_epi32(lc, lp), 0xd8);

				_mm256_storeu_si256((__m256i *)(s + i),
					_mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(s + i)),
							 _mm256_unpacklo_epi32(d, zero)));
				_mm256_storeu_si256((__m256i *)(s + i + 4),
					_mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(s + i + 4)),
							 _mm256_unpackhi_epi32(d, zero)));
			}
		}
		if (i < r.count)
			add_run(&r, i, cur, prev, s);
	}
}
#endif

void hwt_i915_oa__plan(const struct hwt_i915_oa_format *fmt, struct hwt_i915_oa_plan *plan)
{
	uint32_t n[3] = { 0, 0, 0 }, base[3];
	const uint32_t max[3] = { I915_OA_MAX_A, I915_OA_MAX_BC, I915_OA_MAX_BC };

	memset(plan, 0, sizeof(*plan));
	/* the runs read_counters() keeps: how many of each kind */
	for (uint32_t i = 0; i < fmt->nsegs; i++) {
		uint32_t k = fmt->segs[i].kind == 'a' ? 0 : fmt->segs[i].kind == 'b' ? 1 : 2;

		if (n[k] + fmt->segs[i].count <= max[k])
			n[k] += fmt->segs[i].count;
	}
	plan->na = n[0];
	plan->nb = n[1];
	plan->nc = n[2];
	base[0] = 0;
	base[1] = n[0];
	base[2] = n[0] + n[1];
	n[0] = n[1] = n[2] = 0;
	for (uint32_t i = 0; i < fmt->nsegs; i++) {
		const struct hwt_i915_oa_seg *seg = &fmt->segs[i];
		uint32_t k = seg->kind == 'a' ? 0 : seg->kind == 'b' ? 1 : 2;
		struct hwt_i915_oa_run *last = plan->nruns ? &plan->runs[plan->nruns - 1] : NULL;
		uint32_t dst = base[k] + n[k];

		if (n[k] + seg->count > max[k])
			continue;
		n[k] += seg->count;
		if (last && seg->bits == 32 && last->bits == 32 &&
		    last->off + 4u * last->count == seg->off && last->dst + last->count == dst) {
			last->count += seg->count;	/* e.g. B then C */
			continue;
		}
		plan->runs[plan->nruns++] = (struct hwt_i915_oa_run){
			.bits = seg->bits, .count = seg->count, .off = seg->off,
			.hi_off = seg->hi_off, .dst = (uint16_t)dst,
		};
	}
	/* the runs as decode_report() stores them, neighbours in both merged (B then C) */
	n[0] = n[1] = n[2] = 0;
	for (uint32_t i = 0; i < fmt->nsegs; i++) {
		const struct hwt_i915_oa_seg *seg = &fmt->segs[i];
		uint32_t k = seg->kind == 'a' ? 0 : seg->kind == 'b' ? 1 : 2;
		struct hwt_i915_oa_drun *last = plan->ndec ? &plan->dec[plan->ndec - 1] : NULL;
		size_t voff = k == 0 ? offsetof(struct hwt_i915_oa_values, a) :
			      k == 1 ? offsetof(struct hwt_i915_oa_values, b) :
			      offsetof(struct hwt_i915_oa_values, c);
		size_t doff = k == 0 ? offsetof(struct hwt_i915_oa_delta, da) :
			      k == 1 ? offsetof(struct hwt_i915_oa_delta, db) :
			      offsetof(struct hwt_i915_oa_delta, dc);

		if (n[k] + seg->count > max[k])
			continue;
		voff += 8 * n[k];
		doff += 8 * n[k];
		n[k] += seg->count;
		if (last && seg->bits == 32 && last->bits == 32 &&
		    last->off + 4u * last->count == seg->off &&
		    last->voff + 8u * last->count == voff && last->doff + 8u * last->count == doff) {
			last->count += seg->count;
			continue;
		}
		plan->dec[plan->ndec++] = (struct hwt_i915_oa_drun){
			.bits = seg->bits, .count = seg->count, .off = seg->off,
			.hi_off = seg->hi_off, .voff = (uint16_t)voff, .doff = (uint16_t)doff,
		};
	}
#ifdef HAVE_AVX2_PATH
	plan->avx2 = hwt_cpu__have_avx2();
#endif
}

void hwt_i915_oa__add_deltas(const struct hwt_i915_oa_plan *plan, const uint8_t *cur,
			     const uint8_t *prev, uint64_t *sums)
{
#ifdef HAVE_AVX2_PATH
	if (plan->avx2) {
		add_deltas_avx2(plan, cur, prev, sums);
		return;
	}
#endif
	for (uint32_t k = 0; k < plan->nruns; k++)
		add_run(&plan->runs[k], 0, cur, prev, sums + plan->runs[k].dst);
}
