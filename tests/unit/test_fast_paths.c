// SPDX-License-Identifier: GPL-2.0
/*
 * test_fast_paths.c - the speed-ups must not change a byte: decimal and JSON
 * string formatting against snprintf, i915 OA totals with and without the
 * per-report counters (summary_only), and raw files decoded through the
 * mapped window path against what the generator here wrote.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "i915_raw.h"
#include "i915_oa/i915_oa_internal.h"
#include "../../plugins/perf-hwtrace/out.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void)
{
	return xorshift64(&rng);
}

/* What the out object wrote to its file, NUL-terminated (caller frees). */
static char *slurp(struct out *o, FILE *f)
{
	long n;
	char *s;

	out__flush(o);
	n = ftell(f);
	s = calloc(1, n + 1);
	rewind(f);
	if (s && fread(s, 1, n, f) != (size_t)n)
		s[0] = 0;
	rewind(f);
	if (ftruncate(fileno(f), 0))
		s[0] = 0;
	return s;
}

static void test_u64(void)
{
	static struct out o;
	FILE *f = tmpfile();
	char *expect = malloc(1 << 22), *got;
	uint64_t list[80], p = 1;
	size_t n = 0;

	CHECK(f && expect);
	if (!f || !expect)
		return;
	out__init(&o, fileno(f));
	/* every length, both sides of every power of ten, the extremes */
	for (int i = 0; i < 20; i++, p *= 10) {
		uint64_t v[3] = { p - 1, p, p + 1 };

		for (int j = 0; j < 3; j++) {
			out__u64(&o, v[j]);
			out__putc(&o, ' ');
			n += sprintf(expect + n, "%llu ", (unsigned long long)v[j]);
		}
	}
	out__u64(&o, UINT64_MAX);
	out__u64(&o, 0);
	n += sprintf(expect + n, "%llu0", (unsigned long long)UINT64_MAX);
	/* lists of every length up to past the 64-number batch, sizes mixed so
	 * that pairs below 10^8 and single big ones alternate; enough to flush */
	for (int r = 0; r < 3000; r++) {
		uint32_t len = r % 80;

		for (uint32_t i = 0; i < len; i++) {
			list[i] = next_rand() >> (next_rand() % 64);
			n += sprintf(expect + n, "%s%llu", i ? ";" : "", (unsigned long long)list[i]);
		}
		out__u64_list(&o, list, len, ';');
		out__putc(&o, '\n');
		expect[n++] = '\n';
	}
	expect[n] = 0;
	CHECK(n > sizeof(o.buf));
	got = slurp(&o, f);
	CHECK(got && !strcmp(got, expect));
	free(got);
	free(expect);
	fclose(f);
}

/* out__hex against printf's %0*llx, every width, through several flushes. */
static void test_hex(void)
{
	size_t cap = 8 << 20, n = 0;
	char *expect = malloc(cap), *got;
	FILE *f = tmpfile();
	static struct out o;

	out__init(&o, fileno(f));
	for (int r = 0; r < 40000; r++) {
		uint64_t v = r < 64 ? (r < 32 ? 0 : UINT64_MAX >> (r - 32))
				    : next_rand() >> (next_rand() % 64);
		unsigned width = (unsigned)r % 18;	/* 16 and 17: clamped to 16 */

		out__hex(&o, v, width);
		out__putc(&o, ' ');
		n += sprintf(expect + n, "%0*llx ", width > 16 ? 16 : (int)width,
			     (unsigned long long)v);
	}
	expect[n] = 0;
	CHECK(n > sizeof(o.buf));
	got = slurp(&o, f);
	CHECK(got && !strcmp(got, expect));
	free(got);
	free(expect);
	fclose(f);
}

static void test_json_str(void)
{
	static struct out o;
	FILE *f = tmpfile();
	char *got;

	CHECK(f != NULL);
	if (!f)
		return;
	out__init(&o, fileno(f));
	out__json_str(&o, "plain_name");
	out__json_str(&o, "");
	out__json_str(&o, "q\"b\\c\x01\x1f");
	got = slurp(&o, f);
	CHECK_STR(got, "\"plain_name\"\"\"\"q\\\"b\\\\c\\u0001\\u001f\"");
	free(got);
	fclose(f);
}

/* ---- i915 OA: a Gen12 A32u40_A4u32_B8_C8 stream written here ------------------ */

#define NREP 20000
#define REC (8 + 256)

struct gen {
	uint8_t *buf;
	size_t n;
	uint64_t reports;
	uint64_t ticks[2];	/* per context (ids 7 and 9): sum of tick deltas ending
				 * at a report after one of that context */
};

/* Reports with wrapping 32-bit ticks and 40-bit A counters, a context switch
 * every 100 reports, a REPORT_LOST now and then. */
static void gen_stream(struct gen *g, uint32_t nrep)
{
	uint32_t ticks = 0xfff00000u, prev_ticks = 0, ts = 0xffff0000u;
	uint64_t a = 0xffffff0000ull;
	int prev_ctx = -1;

	g->buf = calloc(nrep, REC + 8);
	g->n = 0;
	g->reports = 0;
	g->ticks[0] = g->ticks[1] = 0;
	for (uint32_t i = 0; g->buf && i < nrep; i++) {
		uint8_t *r = g->buf + g->n + 8;
		int ctx = (i / 100) & 1;
		uint32_t id = 1u << 19 | 1u << 16, c = ctx ? 9 : 7;

		g->n += i915_put_hdr(g->buf + g->n, I915_PERF_RECORD_SAMPLE, REC);
		memcpy(r, &id, 4);
		memcpy(r + 4, &ts, 4);
		memcpy(r + 8, &c, 4);
		memcpy(r + 12, &ticks, 4);
		for (int k = 0; k < 32; k++) {
			uint32_t lo = (uint32_t)(a + k);

			memcpy(r + 16 + 4 * k, &lo, 4);
			r[160 + k] = (uint8_t)((a + k) >> 32);
		}
		g->n += 256;
		if (prev_ctx >= 0)
			g->ticks[prev_ctx] += ticks - prev_ticks;	/* u32 wrap */
		prev_ctx = ctx;
		prev_ticks = ticks;
		g->reports++;
		ticks += 1000003 + (uint32_t)(next_rand() % 4096);
		ts += 19200;
		a += 123457;
		if (i % 997 == 500)
			g->n += i915_put_hdr(g->buf + g->n, I915_PERF_RECORD_OA_REPORT_LOST, 8);
	}
}

struct got {
	uint64_t reports, ticks_sum, ctx_ticks[2], ctx_reports[2];
	uint32_t nctx;
};

static void on_rec(void *ctx, const struct hwt_record *rec)
{
	struct got *g = ctx;

	if (rec->type == &hwt_rt_i915_oa_report) {
		const struct hwt_i915_oa_report *r = rec->data;

		g->reports++;
		g->ticks_sum += r->has_delta ? r->dticks : 0;
	} else if (rec->type == &hwt_rt_i915_oa_context && g->nctx < 2) {
		const struct hwt_i915_oa_context *c = rec->data;

		g->ctx_ticks[g->nctx] = c->GpuCoreClocks;
		g->ctx_reports[g->nctx++] = c->reports;
	}
}

static void run_ctx(const struct gen *s, const char *fmt, bool summary_only, bool no_summary,
		    struct got *g, struct hwt_diag *d)
{
	struct hwt_opt opts[1] = { { "oa-format", fmt } };
	struct hwt_aux_ctx ctx = { .auxtrace_type = HWT_AUXTRACE_I915_OA, .opts = opts,
				   .nopts = 1, .raw = true, .summary_only = summary_only,
				   .no_summary = no_summary };
	struct hwt_emit e = { .record = on_rec, .ctx = g, .diag = d };
	struct hwt_chunk c = { .data = s->buf, .size = s->n, .last = true, .first = true };
	const struct hwt_decoder_ops *ops = &hwt_i915_oa_decoder;
	uint64_t priv[HWT_I915_OA_NPRIV];
	void *st;

	memset(g, 0, sizeof(*g));
	st = i915_raw_decoder(&ctx, priv, d);
	CHECK(st != NULL);
	if (!st)
		return;
	CHECK_EQ(ops->decode(st, &c, &e), s->n);
	ops->finish(st, &e);
	ops->free(st);
}

static void run_mem(const struct gen *s, const char *fmt, bool summary_only, struct got *g,
		    struct hwt_diag *d)
{
	run_ctx(s, fmt, summary_only, false, g, d);
}

/* no_summary (script): the same records, no per-context totals kept or emitted */
static void test_no_summary(void)
{
	struct gen s;
	struct got g;
	struct hwt_diag d = { 0 };

	gen_stream(&s, 2000);
	CHECK(s.buf != NULL);
	if (!s.buf)
		return;
	run_ctx(&s, "A32u40_A4u32_B8_C8", false, true, &g, &d);
	CHECK_EQ(g.reports, s.reports);
	CHECK_EQ(g.ticks_sum, s.ticks[0] + s.ticks[1]);
	CHECK_EQ(g.nctx, 0);
	CHECK_EQ(d.errors, 0);
	CHECK_EQ(d.bytes.decoded, s.n);
	free(s.buf);
}

static void test_summary_only(void)
{
	struct gen s;
	struct got full, sum;
	struct hwt_diag d1 = { 0 }, d2 = { 0 };

	gen_stream(&s, 2000);
	CHECK(s.buf != NULL);
	if (!s.buf)
		return;
	run_mem(&s, "A32u40_A4u32_B8_C8", false, &full, &d1);
	run_mem(&s, "A32u40_A4u32_B8_C8", true, &sum, &d2);
	CHECK_EQ(full.reports, s.reports);
	CHECK_EQ(sum.reports, s.reports);
	CHECK_EQ(full.ticks_sum, s.ticks[0] + s.ticks[1]);
	CHECK_EQ(sum.ticks_sum, full.ticks_sum);
	CHECK_EQ(full.nctx, 2);
	CHECK_EQ(sum.nctx, 2);
	CHECK_EQ(full.ctx_ticks[0], s.ticks[0]);
	CHECK_EQ(full.ctx_ticks[1], s.ticks[1]);
	CHECK_EQ(sum.ctx_ticks[0], s.ticks[0]);
	CHECK_EQ(sum.ctx_ticks[1], s.ticks[1]);
	CHECK_EQ(sum.ctx_reports[0] + sum.ctx_reports[1], s.reports);
	CHECK_EQ(d1.bytes.decoded, s.n);
	CHECK_EQ(d2.bytes.decoded, s.n);
	CHECK_EQ(d1.errors + d2.errors, 0);
	free(s.buf);
}

/* HSW keeps the GPU clock in C2 (byte 232 of A45_B8_C8): summaries need it too. */
static void test_summary_only_hsw(void)
{
	struct gen s = { .buf = calloc(50, REC) };
	struct got full, sum;
	struct hwt_diag d = { 0 };

	CHECK(s.buf != NULL);
	if (!s.buf)
		return;
	for (uint32_t i = 0; i < 50; i++) {
		uint32_t ticks = 0xffffff00u + 1000 * i, ts = 100 * i, id = 1;

		s.n += i915_put_hdr(s.buf + s.n, I915_PERF_RECORD_SAMPLE, REC);
		memcpy(s.buf + s.n, &id, 4);	/* a header that is not all zero */
		memcpy(s.buf + s.n + 4, &ts, 4);
		memcpy(s.buf + s.n + 232, &ticks, 4);
		s.n += 256;
	}
	run_mem(&s, "A45_B8_C8", false, &full, &d);
	run_mem(&s, "A45_B8_C8", true, &sum, &d);
	CHECK_EQ(full.nctx, 1);
	CHECK_EQ(sum.nctx, 1);
	CHECK_EQ(full.ctx_ticks[0], 49 * 1000);
	CHECK_EQ(sum.ctx_ticks[0], 49 * 1000);
	CHECK_EQ(d.errors, 0);
	free(s.buf);
}

/* A raw file larger than the session's 4 MiB window, records straddling it. */
static void test_raw_file(void)
{
	char path[] = "/tmp/hwtrace-fast-XXXXXX";
	struct hwt_opt opts[1] = { { "oa-format", "A32u40_A4u32_B8_C8" } };
	struct hwt_session_opts so = { .opts = opts, .nopts = 1, .raw_type = "i915-oa",
				       .no_summary = false };
	struct got g = { 0 };
	struct hwt_sink sink = { .record = on_rec, .ctx = &g };
	struct hwt_diag d = { 0 };
	struct gen s;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	gen_stream(&s, NREP);
	CHECK(s.n > (4u << 20) + 2 * REC);
	CHECK(s.buf && write(fd, s.buf, s.n) == (ssize_t)s.n);
	close(fd);
	CHECK_EQ(hwt_session__run_raw(path, &so, &sink, &d), 0);
	CHECK_EQ(g.reports, s.reports);
	CHECK_EQ(g.ticks_sum, s.ticks[0] + s.ticks[1]);
	CHECK_EQ(g.ctx_ticks[0], s.ticks[0]);
	CHECK_EQ(g.ctx_ticks[1], s.ticks[1]);
	CHECK_EQ(d.bytes.decoded, s.n);
	CHECK_EQ(d.bytes.skipped, 0);
	/* cut inside the last record: what came before is still decoded */
	CHECK(truncate(path, s.n - 100) == 0);
	memset(&g, 0, sizeof(g));
	memset(&d, 0, sizeof(d));
	CHECK_EQ(hwt_session__run_raw(path, &so, &sink, &d), 1);
	CHECK_EQ(g.reports, s.reports - 1);
	CHECK_EQ(d.bytes.decoded + d.bytes.skipped, s.n - 100);
	unlink(path);
	free(s.buf);
}

int main(void)
{
	RUN(test_u64);
	RUN(test_hex);
	RUN(test_json_str);
	RUN(test_summary_only);
	RUN(test_no_summary);
	RUN(test_summary_only_hsw);
	RUN(test_raw_file);
	return check_done("fast_paths");
}
