// SPDX-License-Identifier: GPL-2.0
/*
 * test_i915_oa_sums.c - report --metrics' per-context sums, taken by the
 * decoder straight from the reports' bytes (i915_oa_sums.c), against sums
 * this test works out from the values it wrote; the one-pass decode of a
 * report and its deltas against the usual decode and accumulator; a run's
 * sums from its ends and its wraps against each pair's deltas.
 *
 * The streams switch between three contexts at irregular steps, wrap every
 * 40-bit and 32-bit counter (half of them every few reports), and hold
 * zero-header reports and both kinds of lost record.  They are fed in
 * pieces whose bytes are freed after each call, as the session's mapped
 * windows are unmapped.  The layouts are IGT's (lib/i915/perf.c
 * accumulators), written out here rather than read from the decoder's
 * format table.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "i915_raw.h"
#include "i915_oa/i915_oa_internal.h"

#define NREP	3000
#define MAXC	(I915_OA_MAX_A + 2 * I915_OA_MAX_BC)

/* one run of counters as the test writes it */
struct lay_run {
	int first, count, bits, off, hi_off;
};

struct layout {
	const char *fmt;
	int ts_shift;			/* Gfx12.5: timestamps count in halves */
	int na;				/* A counters; then B0-7 at 192, C0-7 at 224 */
	struct lay_run a[8];
};

/* TGL/SKL: A0-31 40-bit (low dwords at 16, high bytes at 160), A32-35 at 144 */
static const struct layout tgl = { "A32u40_A4u32_B8_C8", 0, 36,
	{ { 0, 32, 40, 16, 160 }, { 32, 4, 32, 144, 0 } } };
/* DG2: 40-bit A4-23 and A28-31 between 32-bit runs; A36 and A37 in high-byte slots */
static const struct layout dg2 = { "A24u40_A14u32_B8_C8", 1, 38,
	{ { 0, 4, 32, 16, 0 }, { 4, 20, 40, 32, 164 }, { 24, 4, 32, 112, 0 },
	  { 28, 4, 40, 128, 188 }, { 32, 4, 32, 144, 0 }, { 36, 1, 32, 160, 0 },
	  { 37, 1, 32, 184, 0 } } };

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t next_rand(void)
{
	return xorshift64(&rng);
}

struct expect {
	uint32_t ctx[8];
	uint64_t dts[8], dticks[8], sum[8][MAXC];
	uint32_t n;
};

struct stream {
	uint8_t *buf;
	size_t n;
	uint32_t nrec;
	size_t ends[NREP * 2];		/* where each record ends */
};

static void put_rec_hdr(struct stream *s, uint32_t type, uint16_t size)
{
	s->n += i915_put_hdr(s->buf + s->n, type, size);
}

static void end_rec(struct stream *s)
{
	s->ends[s->nrec++] = s->n;
}

static uint64_t width_mask(int bits)
{
	return bits == 64 ? ~0ull : (1ull << bits) - 1;
}

static uint32_t expect_ctx(struct expect *e, uint32_t ctx)
{
	for (uint32_t i = 0; i < e->n; i++)
		if (e->ctx[i] == ctx)
			return i;
	e->ctx[e->n] = ctx;
	return e->n++;
}

/* the counters of one report, in A, B, C order, and their widths */
static void gen(const struct layout *l, struct stream *s, struct expect *e)
{
	uint64_t v[MAXC], base[MAXC] = { 0 };
	int width[MAXC], nc = l->na + 16;
	uint32_t ts = 0xfff00000u, ticks = 0xffff0000u, base_ts = 0, base_ticks = 0;
	uint32_t ctx = 0x10, prev_ctx = 0;
	bool have_base = false, have_prev = false;

	memset(e, 0, sizeof(*e));
	s->buf = calloc(NREP * 2, 8 + 256);
	s->n = s->nrec = 0;
	for (int r = 0; r < 8 && l->a[r].count; r++)
		for (int k = 0; k < l->a[r].count; k++)
			width[l->a[r].first + k] = l->a[r].bits;
	for (int k = l->na; k < nc; k++)
		width[k] = 32;
	/* each counter starts just below its wrap */
	for (int k = 0; k < nc; k++)
		v[k] = width_mask(width[k]) - (next_rand() % 5000000);
	for (int i = 0; s->buf && i < NREP; i++) {
		uint8_t *p;
		uint32_t id = 1u << 19 | 1u << 16;
		bool zero = i % 211 == 100;

		if (next_rand() % 37 == 0)	/* switch to one of three contexts */
			ctx = 0x10 + 0x10 * (uint32_t)(next_rand() % 3);
		put_rec_hdr(s, I915_PERF_RECORD_SAMPLE, 8 + 256);
		p = s->buf + s->n;
		memset(p, 0, 256);
		if (!zero) {
			memcpy(p, &id, 4);
			memcpy(p + 4, &ts, 4);
			memcpy(p + 8, &ctx, 4);
			memcpy(p + 12, &ticks, 4);
			for (int r = 0; r < 8 && l->a[r].count; r++)
				for (int k = 0; k < l->a[r].count; k++) {
					uint64_t x = v[l->a[r].first + k];
					uint32_t lo = (uint32_t)x;

					memcpy(p + l->a[r].off + 4 * k, &lo, 4);
					if (l->a[r].bits == 40)
						p[l->a[r].hi_off + k] = (uint8_t)(x >> 32);
				}
			for (int k = 0; k < 16; k++) {
				uint32_t lo = (uint32_t)v[l->na + k];

				memcpy(p + 192 + 4 * k, &lo, 4);
			}
		}
		s->n += 256;
		end_rec(s);
		/* the delta ending here goes to the context of the report before */
		if (!zero && have_base && have_prev) {
			uint32_t c = expect_ctx(e, prev_ctx);

			e->dts[c] += (uint32_t)(ts - base_ts) >> l->ts_shift;
			e->dticks[c] += (uint32_t)(ticks - base_ticks);
			for (int k = 0; k < nc; k++)
				e->sum[c][k] += (v[k] - base[k]) & width_mask(width[k]);
		}
		/* Gfx12 ids are always valid: a zero header's is 0 */
		prev_ctx = zero ? 0 : ctx;
		have_prev = true;
		if (!zero) {
			memcpy(base, v, sizeof(v));
			base_ts = ts;
			base_ticks = ticks;
			have_base = true;
		}
		if (i % 293 == 150) {
			bool buffer = i % 2;

			put_rec_hdr(s, buffer ? I915_PERF_RECORD_OA_BUFFER_LOST :
					I915_PERF_RECORD_OA_REPORT_LOST, 8);
			end_rec(s);
			have_prev = false;
			if (buffer)
				have_base = false;
		}
		ts += 19200;
		ticks += 1000003 + (uint32_t)(next_rand() % 4096);
		/* odd counters step up to half their range: they wrap every few reports */
		for (int k = 0; k < nc; k++)
			v[k] = (v[k] + (k % 2 ? next_rand() & width_mask(width[k]) >> 1 :
					next_rand() % 3000000)) & width_mask(width[k]);
	}
}

struct got {
	struct expect e;
	uint64_t reports, other;
};

static void on_rec(void *ctx, const struct hwt_record *rec)
{
	struct got *g = ctx;
	const struct hwt_i915_oa_report *r = rec->data;
	uint32_t i = g->e.n;

	if (rec->type == &hwt_rt_i915_oa_report)
		g->reports++;
	if (rec->type != &hwt_rt_i915_oa_ctx_sums) {
		g->other++;
		return;
	}
	if (i == 8)
		return;
	g->e.ctx[i] = r->ctx;
	g->e.dts[i] = r->dts;
	g->e.dticks[i] = r->dticks;
	for (uint32_t k = 0; k < r->na && k < I915_OA_MAX_A; k++)
		g->e.sum[i][k] = r->da[k];
	for (uint32_t k = 0; k < 8 && k < r->nb; k++)
		g->e.sum[i][r->na + k] = r->db[k];
	for (uint32_t k = 0; k < 8 && k < r->nc; k++)
		g->e.sum[i][r->na + 8 + k] = r->dc[k];
	g->e.n++;
}

/* decode @s in pieces of about @piece records, each piece in bytes of its own */
static void run(const struct layout *l, const struct stream *s, uint32_t piece, bool no_summary,
		struct got *g, struct hwt_diag *d, uint64_t *records)
{
	struct hwt_opt opts[1] = { { "oa-format", l->fmt } };
	struct hwt_aux_ctx ctx = { .auxtrace_type = HWT_AUXTRACE_I915_OA, .opts = opts,
				   .nopts = 1, .raw = true, .summary_only = true,
				   .metrics = true, .metrics_groups_only = true,
				   .no_summary = no_summary };
	struct hwt_emit e = { .record = on_rec, .ctx = g, .diag = d, .records = records };
	const struct hwt_decoder_ops *ops = &hwt_i915_oa_decoder;
	uint64_t priv[HWT_I915_OA_NPRIV];
	size_t start = 0;
	void *st;

	memset(g, 0, sizeof(*g));
	st = i915_raw_decoder(&ctx, priv, d);
	CHECK(st != NULL);
	if (!st)
		return;
	for (uint32_t r = 0; r < s->nrec; r += piece) {
		uint32_t last = r + piece < s->nrec ? r + piece : s->nrec;
		size_t end = s->ends[last - 1];
		uint8_t *copy = malloc(end - start);
		struct hwt_chunk c = { .data = copy, .size = end - start, .file_offset = start,
				       .first = r == 0, .last = last == s->nrec };

		CHECK(copy != NULL);
		if (!copy)
			break;
		memcpy(copy, s->buf + start, end - start);
		CHECK_EQ(ops->decode(st, &c, &e), end - start);
		memset(copy, 0xa5, end - start);	/* the baseline must not be read from here */
		free(copy);
		start = end;
	}
	ops->finish(st, &e);
	ops->free(st);
}

static void check_layout(const struct layout *l)
{
	static struct stream s;
	static struct expect want;
	static struct got g;
	const uint32_t pieces[] = { 1, 7, 1000, NREP * 2 };

	gen(l, &s, &want);
	CHECK(s.buf != NULL);
	if (!s.buf)
		return;
	CHECK_EQ(want.n, 4);	/* 0x10, 0x20, 0x30 and a zero header's 0 */
	/* without summary records, runs of one context are summed from their ends */
	for (size_t p = 0; p < 2 * sizeof(pieces) / sizeof(pieces[0]); p++) {
		struct hwt_diag d = { 0 };
		uint64_t records = 0;
		bool no_summary = p & 1;

		run(l, &s, pieces[p / 2], no_summary, &g, &d, &records);
		CHECK_EQ(records, NREP);	/* every report counted, none emitted */
		CHECK_EQ(g.reports, 0);
		CHECK_EQ(d.errors, 0);
		CHECK_EQ(d.bytes.decoded, s.n);
		CHECK_EQ(g.e.n, want.n);
		for (uint32_t c = 0; c < want.n && c < g.e.n; c++) {
			CHECK_EQ(g.e.ctx[c], want.ctx[c]);
			CHECK_EQ(g.e.dts[c], want.dts[c]);
			CHECK_EQ(g.e.dticks[c], want.dticks[c]);
			for (int k = 0; k < l->na + 16; k++)
				if (g.e.sum[c][k] != want.sum[c][k]) {
					fprintf(stderr, "%s piece %u%s ctx 0x%x counter %d\n", l->fmt,
						pieces[p / 2], no_summary ? " no_summary" : "",
						want.ctx[c], k);
					CHECK_EQ(g.e.sum[c][k], want.sum[c][k]);
					break;
				}
		}
	}
	free(s.buf);
}

static void test_sums_tgl(void)
{
	check_layout(&tgl);
}

static void test_sums_dg2(void)
{
	check_layout(&dg2);
}

/* two reports of random bytes */
static void random_pair(uint8_t *cur, uint8_t *prev)
{
	for (int i = 0; i < 256; i += 8) {
		uint64_t x = next_rand(), y = next_rand();

		memcpy(cur + i, &x, 8);
		memcpy(prev + i, &y, 8);
	}
}

/* layout @l's counter @k (A, then B0-7 at 192, C0-7 at 224) in report @p, and its width */
static uint64_t lay_value(const struct layout *l, const uint8_t *p, int k, int *bits)
{
	uint32_t lo;

	*bits = 32;
	if (k >= l->na) {
		memcpy(&lo, p + 192 + 4 * (k - l->na), 4);
		return lo;
	}
	for (int r = 0; r < 8 && l->a[r].count; r++) {
		const struct lay_run *lr = &l->a[r];

		if (k < lr->first || k >= lr->first + lr->count)
			continue;
		*bits = lr->bits;
		memcpy(&lo, p + lr->off + 4 * (k - lr->first), 4);
		return lo | (lr->bits == 40 ? (uint64_t)p[lr->hi_off + k - lr->first] << 32 : 0);
	}
	return 0;
}

/* AVX2 and SSE2/plain C give the same sums, each pair's worked out here */
static void test_add_deltas_paths(void)
{
	const struct hwt_i915_oa_format *f = hwt_i915_oa_format__find(12, 1255);
	struct hwt_i915_oa_plan plan;
	uint8_t cur[256], prev[256];
	uint64_t s_fast[MAXC], s_slow[MAXC], want[MAXC];

	CHECK(f != NULL);
	if (!f)
		return;
	hwt_i915_oa__plan(f, &plan);
	CHECK_EQ(plan.na, 38);
	CHECK_EQ(plan.nb, 8);
	CHECK_EQ(plan.nc, 8);
	memset(s_fast, 0, sizeof(s_fast));
	memset(s_slow, 0, sizeof(s_slow));
	memset(want, 0, sizeof(want));
	for (int t = 0; t < 2000; t++) {
		random_pair(cur, prev);
		for (int k = 0; k < dg2.na + 16; k++) {
			int bits;
			uint64_t vc = lay_value(&dg2, cur, k, &bits), vp = lay_value(&dg2, prev, k, &bits);

			want[k] += (vc - vp) & width_mask(bits);
		}
		hwt_i915_oa__add_deltas(&plan, cur, prev, s_fast);
		plan.avx2 = false;
		hwt_i915_oa__add_deltas(&plan, cur, prev, s_slow);
		hwt_i915_oa__plan(f, &plan);
	}
	for (int k = 0; k < 54; k++) {
		CHECK_EQ(s_fast[k], want[k]);
		CHECK_EQ(s_slow[k], want[k]);
	}
}

/*
 * A run's sums from its ends and its wraps (AVX2 and plain C), against each
 * pair's deltas worked out here, over runs of random reports 264 bytes
 * apart (as in records) long enough to cross the 64-report blocks.
 */
static void test_span_paths(void)
{
	const struct layout *ls[] = { &tgl, &dg2 };
	const uint32_t lens[] = { 1, 2, 63, 64, 65, 130, 200 };
	enum { STRIDE = 264, MAXP = 200 };
	uint8_t *buf = calloc(MAXP + 1, STRIDE);

	CHECK(buf != NULL);
	for (size_t n = 0; buf && n < sizeof(ls) / sizeof(ls[0]); n++) {
		const struct layout *l = ls[n];
		const struct hwt_i915_oa_format *f =
			hwt_i915_oa_format__find(hwt_i915_oa_format__by_name(l->fmt),
						 l->ts_shift ? 1255 : 1200);
		struct hwt_i915_oa_plan plan;

		CHECK(f != NULL);
		if (!f)
			continue;
		for (size_t t = 0; t < sizeof(lens) / sizeof(lens[0]); t++) {
			uint32_t np = lens[t];
			uint64_t want[MAXC] = { 0 }, s_fast[MAXC] = { 0 }, s_slow[MAXC] = { 0 };
			uint32_t w_fast[MAXC] = { 0 }, w_slow[MAXC] = { 0 };
			const uint8_t *first = buf + 8, *last = buf + 8 + np * STRIDE;

			/* np + 1 reports of random bytes (the record headers too) */
			for (size_t i = 0; i + 8 <= (size_t)(np + 1) * STRIDE; i += 8) {
				uint64_t x = next_rand();

				memcpy(buf + i, &x, 8);
			}
			for (uint32_t j = 0; j < np; j++)
				for (int k = 0; k < l->na + 16; k++) {
					int bits;
					uint64_t vc = lay_value(l, first + (j + 1) * STRIDE, k, &bits);
					uint64_t vp = lay_value(l, first + j * STRIDE, k, &bits);

					want[k] += (vc - vp) & width_mask(bits);
				}
			hwt_i915_oa__plan(f, &plan);
			hwt_i915_oa__count_wraps(&plan, first, STRIDE, np, w_fast);
			hwt_i915_oa__add_span(&plan, last, first, w_fast, s_fast);
			plan.avx2 = false;
			hwt_i915_oa__count_wraps(&plan, first, STRIDE, np, w_slow);
			hwt_i915_oa__add_span(&plan, last, first, w_slow, s_slow);
			for (int k = 0; k < l->na + 16; k++)
				if (s_fast[k] != want[k] || s_slow[k] != want[k]) {
					fprintf(stderr, "%s %u pairs counter %d\n", l->fmt, np, k);
					CHECK_EQ(s_fast[k], want[k]);
					CHECK_EQ(s_slow[k], want[k]);
					break;
				}
		}
	}
	free(buf);
}

/*
 * The one-pass decode (AVX2): on TGL and DG2 layouts, the values and deltas
 * worked out here from the bytes of random report pairs; on every other
 * Gen8+ layout, those of the usual decode and the accumulator's subtraction
 * (the path i915_metrics.bats holds to i915-perf-reader).
 */
static void test_decode_with_deltas_layouts(void)
{
	const struct layout *ls[] = { &tgl, &dg2 };
	static struct hwt_i915_oa_values vp, v;
	static struct hwt_i915_oa_delta d;
	struct hwt_i915_oa_plan plan;
	uint8_t cur[256], prev[256];

	if (!hwt_cpu__have_avx2())
		return;		/* the usual decode is all there is */
	for (size_t n = 0; n < sizeof(ls) / sizeof(ls[0]); n++) {
		const struct layout *l = ls[n];
		uint32_t gen = l->ts_shift ? 1255 : 1200;
		const struct hwt_i915_oa_format *f =
			hwt_i915_oa_format__find(hwt_i915_oa_format__by_name(l->fmt), gen);

		CHECK(f != NULL);
		if (!f)
			continue;
		hwt_i915_oa__plan(f, &plan);
		for (int t = 0; t < 500; t++) {
			random_pair(cur, prev);
			cur[0] = prev[0] = 1;	/* headers not all zero */
			hwt_i915_oa__decode_report(f, gen, prev, &vp);
			CHECK(hwt_i915_oa__decode_with_deltas(&plan, f, gen, cur, &vp, &v, &d));
			CHECK_EQ(v.na, l->na);
			CHECK_EQ(v.nb, 8);
			CHECK_EQ(v.nc, 8);
			for (int k = 0; k < l->na + 16; k++) {
				int bits;
				uint64_t want = lay_value(l, cur, k, &bits);
				uint64_t base = lay_value(l, prev, k, &bits);
				uint64_t got = k < l->na ? v.a[k] : k < l->na + 8 ? v.b[k - l->na] :
					       v.c[k - l->na - 8];
				uint64_t dgot = k < l->na ? d.da[k] : k < l->na + 8 ?
						d.db[k - l->na] : d.dc[k - l->na - 8];

				if (got != want || dgot != ((want - base) & width_mask(bits))) {
					fprintf(stderr, "%s counter %d\n", l->fmt, k);
					CHECK_EQ(got, want);
					CHECK_EQ(dgot, (want - base) & width_mask(bits));
					break;
				}
			}
		}
	}
}

static void test_decode_with_deltas(void)
{
	static struct hwt_i915_oa_accum acc;
	static struct hwt_i915_oa_values vp, vc, v2;
	static struct hwt_i915_oa_delta d1, d2;
	struct hwt_i915_oa_plan plan;
	uint8_t cur[256], prev[256];
	uint32_t formats = 0;

	if (!hwt_cpu__have_avx2())
		return;		/* the usual decode is all there is */
	for (const struct hwt_i915_oa_format *f = hwt_i915_oa_formats; f->id; f++) {
		uint32_t gen = f->min_gen < 800 ? 800 : f->min_gen;

		if (f->max_gen < 800)
			continue;
		formats++;
		hwt_i915_oa__plan(f, &plan);
		for (int t = 0; t < 200; t++) {
			random_pair(cur, prev);
			hwt_i915_oa_accum__init(&acc, f, gen);
			hwt_i915_oa__decode_report(f, gen, prev, &vp);
			hwt_i915_oa_accum__report(&acc, &vp, &d1);
			hwt_i915_oa__decode_report(f, gen, cur, &vc);
			hwt_i915_oa_accum__report(&acc, &vc, &d1);
			CHECK(d1.valid);
			CHECK(hwt_i915_oa__decode_with_deltas(&plan, f, gen, cur, &vp, &v2, &d2));
			CHECK(!memcmp(&vc, &v2, sizeof(vc)));
			CHECK(!memcmp(d1.da, d2.da, vc.na * 8));
			CHECK(!memcmp(d1.db, d2.db, vc.nb * 8));
			CHECK(!memcmp(d1.dc, d2.dc, vc.nc * 8));
			/* no baseline: values only */
			CHECK(!hwt_i915_oa__decode_with_deltas(&plan, f, gen, cur, NULL, &v2, &d2));
			CHECK(!memcmp(&vc, &v2, sizeof(vc)));
			hwt_i915_oa_accum__exit(&acc);
		}
	}
	CHECK(formats >= 8);
}

int main(void)
{
	RUN(test_sums_tgl);
	RUN(test_sums_dg2);
	RUN(test_add_deltas_paths);
	RUN(test_span_paths);
	RUN(test_decode_with_deltas_layouts);
	RUN(test_decode_with_deltas);
	return check_done("i915_oa_sums");
}
