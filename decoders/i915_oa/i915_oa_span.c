// SPDX-License-Identifier: GPL-2.0
/*
 * i915_oa_span.c - the summed deltas of a run of reports, from its ends and
 * a count of wraps.
 *
 * A counter's delta between two reports is (cur - prev) mod 2^bits, i.e.
 * cur - prev, plus 2^bits when cur < prev (the counter wrapped).  Over
 * reports r0 .. rn the sum of the n deltas is then rn - r0 plus 2^bits
 * times the number of pairs that wrapped.  report --metrics sums a context's
 * deltas; for a run of reports that all go to one context it needs, per
 * pair, only whether each counter wrapped: one compare instead of a delta
 * widened to 64 bits and added.  With AVX2 the wraps of eight (then four)
 * counters are counted in a register over a block of reports that stays in
 * L1.
 */
#include <string.h>
#ifdef __x86_64__
#include <immintrin.h>
#endif

#include "core/le.h"
#include "i915_oa_internal.h"

/* counter @i of run @r in report @p, below 2^bits */
static uint64_t run_value(const struct hwt_i915_oa_run *r, const uint8_t *p, uint32_t i)
{
	if (r->bits == 64)
		return hwt_le64(p + r->off + 8 * i);
	return hwt_le32(p + r->off + 4 * i) | (r->bits == 40 ? (uint64_t)p[r->hi_off + i] << 32 : 0);
}

/* the wraps of counters [@i, count) of run @r over @npairs pairs, one by one */
static void count_wraps_run(const struct hwt_i915_oa_run *r, uint32_t i, const uint8_t *first,
			    size_t stride, uint32_t npairs, uint32_t *w)
{
	if (r->bits == 64)
		return;		/* a 64-bit delta is a plain difference: it never wraps */
	for (; i < r->count; i++) {
		uint64_t prev = run_value(r, first, i);
		uint32_t n = 0;

		for (uint32_t j = 1; j <= npairs; j++) {
			uint64_t cur = run_value(r, first + j * stride, i);

			n += cur < prev;
			prev = cur;
		}
		w[r->dst + i] += n;
	}
}

#if defined(__x86_64__) && defined(__GNUC__)
/* reports a block: 64 of 256 bytes are 16 KiB, in L1 while each run reads them */
#define BLOCK 64

/*
 * Eight counters of a run a step, over the block's pairs.  A low dword
 * borrows when cur < prev (unsigned: max(cur, prev) != cur); a 40-bit
 * counter wraps when its high bytes' difference less that borrow is
 * negative, a 32-bit one when its low dword borrows.
 */
__attribute__((target("avx2")))
static uint32_t count_wraps_run_avx2(const struct hwt_i915_oa_run *r, const uint8_t *first,
				     size_t stride, uint32_t npairs, uint32_t *w)
{
	const __m256i ones = _mm256_set1_epi32(-1);
	uint32_t i = 0;

	for (; i + 8 <= r->count; i += 8) {
		const uint8_t *q = first + r->off + 4 * i, *h = first + r->hi_off + i;
		__m256i lp = _mm256_loadu_si256((const __m256i *)q), hp = _mm256_setzero_si256();
		__m256i n = _mm256_loadu_si256((const __m256i *)(w + r->dst + i));

		if (r->bits == 40) {
			hp = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)h));
			for (uint32_t j = 0; j < npairs; j++) {
				__m256i lc, hc, borrow;

				q += stride;
				h += stride;
				lc = _mm256_loadu_si256((const __m256i *)q);
				hc = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)h));
				borrow = _mm256_xor_si256(_mm256_cmpeq_epi32(_mm256_max_epu32(lc, lp),
									     lc), ones);
				/* -1 where hc - hp - borrow < 0: count it */
				n = _mm256_sub_epi32(n, _mm256_srai_epi32(
					_mm256_add_epi32(_mm256_sub_epi32(hc, hp), borrow), 31));
				lp = lc;
				hp = hc;
			}
		} else {
			for (uint32_t j = 0; j < npairs; j++) {
				__m256i lc;

				q += stride;
				lc = _mm256_loadu_si256((const __m256i *)q);
				/* cmpeq gives -1 where there is no borrow: count the rest */
				n = _mm256_sub_epi32(n, _mm256_xor_si256(
					_mm256_cmpeq_epi32(_mm256_max_epu32(lc, lp), lc), ones));
				lp = lc;
			}
		}
		_mm256_storeu_si256((__m256i *)(w + r->dst + i), n);
	}
	/* the same, four a step */
	for (; i + 4 <= r->count; i += 4) {
		const uint8_t *q = first + r->off + 4 * i, *h = first + r->hi_off + i;
		const __m128i ones4 = _mm_set1_epi32(-1);
		__m128i lp = _mm_loadu_si128((const __m128i *)q), hp = _mm_setzero_si128();
		__m128i n = _mm_loadu_si128((const __m128i *)(w + r->dst + i));

		if (r->bits == 40)
			hp = _mm_cvtepu8_epi32(_mm_cvtsi32_si128((int)hwt_le32(h)));
		for (uint32_t j = 0; j < npairs; j++) {
			__m128i lc, borrow;

			q += stride;
			h += stride;
			lc = _mm_loadu_si128((const __m128i *)q);
			borrow = _mm_xor_si128(_mm_cmpeq_epi32(_mm_max_epu32(lc, lp), lc), ones4);
			if (r->bits == 40) {
				__m128i hc = _mm_cvtepu8_epi32(_mm_cvtsi32_si128((int)hwt_le32(h)));

				borrow = _mm_srai_epi32(_mm_add_epi32(_mm_sub_epi32(hc, hp), borrow), 31);
				hp = hc;
			}
			n = _mm_sub_epi32(n, borrow);
			lp = lc;
		}
		_mm_storeu_si128((__m128i *)(w + r->dst + i), n);
	}
	return i;
}

__attribute__((target("avx2")))
static void count_wraps_avx2(const struct hwt_i915_oa_plan *plan, const uint8_t *first,
			     size_t stride, uint32_t npairs, uint32_t *w)
{
	for (uint32_t done = 0; done < npairs; done += BLOCK) {
		const uint8_t *b = first + done * stride;
		uint32_t n = npairs - done < BLOCK ? npairs - done : BLOCK;

		for (uint32_t k = 0; k < plan->nruns; k++) {
			const struct hwt_i915_oa_run *r = &plan->runs[k];
			uint32_t i = r->bits == 64 ? r->count : count_wraps_run_avx2(r, b, stride, n, w);

			count_wraps_run(r, i, b, stride, n, w);
		}
	}
}
#endif

void hwt_i915_oa__count_wraps(const struct hwt_i915_oa_plan *plan, const uint8_t *first,
			      size_t stride, uint32_t npairs, uint32_t *w)
{
#if defined(__x86_64__) && defined(__GNUC__)
	if (plan->avx2) {
		count_wraps_avx2(plan, first, stride, npairs, w);
		return;
	}
#endif
	for (uint32_t k = 0; k < plan->nruns; k++)
		count_wraps_run(&plan->runs[k], 0, first, stride, npairs, w);
}

void hwt_i915_oa__add_span(const struct hwt_i915_oa_plan *plan, const uint8_t *last,
			   const uint8_t *first, const uint32_t *w, uint64_t *sums)
{
	for (uint32_t k = 0; k < plan->nruns; k++) {
		const struct hwt_i915_oa_run *r = &plan->runs[k];
		uint64_t *s = sums + r->dst;

		for (uint32_t i = 0; i < r->count; i++) {
			uint64_t d = run_value(r, last, i) - run_value(r, first, i);

			s[i] += r->bits == 64 ? d : d + ((uint64_t)w[r->dst + i] << r->bits);
		}
	}
}
