// SPDX-License-Identifier: GPL-2.0
/*
 * test_i915_oa.c - OA report layouts, the record walker, accumulation.
 *
 * Reports are laid out by hand here from the byte offsets in
 * Documentation/i915-oa.rst (IGT's format tables), not from the decoder's table.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "i915_raw.h"
#include "i915_oa/i915_perf_lib.h"
#include "i915_oa/i915_oa_internal.h"

static void put32(uint8_t *b, size_t off, uint32_t v)
{
	memcpy(b + off, &v, 4);
}

static void put64(uint8_t *b, size_t off, uint64_t v)
{
	memcpy(b + off, &v, 8);
}

static void decode(uint32_t id, uint32_t gen, const uint8_t *p, struct hwt_i915_oa_values *v)
{
	const struct hwt_i915_oa_format *f = hwt_i915_oa_format__find(id, gen);

	memset(v, 0, sizeof(*v));
	CHECK(f != NULL);
	if (f)
		hwt_i915_oa__decode_report(f, gen, p, v);
}

static void test_table(void)
{
	static const uint16_t sizes[15] = { 0, 64, 128, 128, 64, 256, 128, 64, 64, 128, 256, 256,
					    256, 192, 128 };
	/* enum drm_i915_oa_format as i915_drm.h spells it (Documentation/i915-oa.rst) */
	static const char *const enum_names[15] = {
		NULL, "I915_OA_FORMAT_A13", "I915_OA_FORMAT_A29", "I915_OA_FORMAT_A13_B8_C8",
		"I915_OA_FORMAT_B4_C8", "I915_OA_FORMAT_A45_B8_C8", "I915_OA_FORMAT_B4_C8_A16",
		"I915_OA_FORMAT_C4_B8", "I915_OA_FORMAT_A12", "I915_OA_FORMAT_A12_B8_C8",
		"I915_OA_FORMAT_A32u40_A4u32_B8_C8", "I915_OAR_FORMAT_A32u40_A4u32_B8_C8",
		"I915_OA_FORMAT_A24u40_A14u32_B8_C8", "I915_OAM_FORMAT_MPEC8u64_B8_C8",
		"I915_OAM_FORMAT_MPEC8u32_B8_C8",
	};

	for (uint32_t id = 1; id <= 14; id++) {
		const struct hwt_i915_oa_format *f = hwt_i915_oa_format__find(id, 1200);

		CHECK(f != NULL);
		if (f)
			CHECK_EQ(f->size, sizes[id]);
		CHECK_EQ(hwt_i915_oa_format__by_name(enum_names[id]), id);
	}
	CHECK_EQ(hwt_i915_oa_format__by_name("A32u40_A4u32_B8_C8"), 10);
	CHECK_EQ(hwt_i915_oa_format__by_name("I915_OA_FORMAT_A13"), 1);
	CHECK_EQ(hwt_i915_oa_format__by_name("I915_OAR_FORMAT_A32u40_A4u32_B8_C8"), 11);
	CHECK_EQ(hwt_i915_oa_format__by_name("I915_OAM_FORMAT_MPEC8u32_B8_C8"), 14);
	CHECK_EQ(hwt_i915_oa_format__by_name("A99"), 0);
	CHECK_EQ(hwt_i915_oa_format__by_name("15"), 0);
	CHECK_EQ(hwt_i915_oa__gen_for_devid(0x9a49), 1200);
	CHECK_EQ(hwt_i915_oa__gen_for_devid(0x56a0), 1255);
	CHECK_EQ(hwt_i915_oa__gen_for_devid(0x1912), 900);
	CHECK_EQ(hwt_i915_oa__gen_for_devid(0x0412), 750);
	/* --gen as decode and synth take it */
	CHECK_EQ(hwt_i915_oa__parse_gen("12.5"), 1250);
	CHECK_EQ(hwt_i915_oa__parse_gen("12.55"), 1255);
	CHECK_EQ(hwt_i915_oa__parse_gen("12"), 1200);
	CHECK_EQ(hwt_i915_oa__parse_gen("9"), 900);
	CHECK_EQ(hwt_i915_oa__parse_gen("1270"), 1270);
	CHECK_EQ(hwt_i915_oa__parse_gen("12.555"), 0);
	CHECK_EQ(hwt_i915_oa__parse_gen("twelve"), 0);
	CHECK_EQ(hwt_i915_oa__parse_gen(""), 0);
}

static void test_a32u40(void)
{
	uint8_t r[256] = { 0 };
	struct hwt_i915_oa_values v;

	put32(r, 0, (1u << 3) << 19 | 1u << 16);	/* context switch, ctx valid (Gen9+) */
	put32(r, 4, 0x12345678);
	put32(r, 8, 0x42);
	put32(r, 12, 0xdeadbeef);
	put32(r, 16, 0x11111111);			/* A0 low */
	r[160] = 0xab;					/* A0 bits 39:32 */
	put32(r, 16 + 4 * 31, 0x3131);			/* A31 low */
	r[191] = 0x01;
	put32(r, 144, 0x32323232);			/* A32 */
	put32(r, 156, 0x35);				/* A35 */
	put32(r, 192, 0xb0);
	put32(r, 220, 0xb7);
	put32(r, 224, 0xc0);
	put32(r, 252, 0xc7);
	decode(10, 1200, r, &v);
	CHECK_EQ(v.reason, 1u << 3);
	CHECK_EQ(v.ts, 0x12345678);
	CHECK_EQ(v.ctx, 0x42);
	CHECK(v.ctx_valid);
	CHECK_EQ(v.ticks, 0xdeadbeef);
	CHECK_EQ(v.na, 36);
	CHECK_EQ(v.nb, 8);
	CHECK_EQ(v.nc, 8);
	CHECK_EQ(v.a[0], 0xab11111111ull);
	CHECK_EQ(v.a[31], 0x0100003131ull);
	CHECK_EQ(v.a[32], 0x32323232);
	CHECK_EQ(v.a[35], 0x35);
	CHECK_EQ(v.b[0], 0xb0);
	CHECK_EQ(v.b[7], 0xb7);
	CHECK_EQ(v.c[0], 0xc0);
	CHECK_EQ(v.c[7], 0xc7);
	CHECK(!v.zero_hdr);
	/* the same bytes as OAR on DG2 */
	decode(11, 1255, r, &v);
	CHECK_EQ(v.a[0], 0xab11111111ull);
	CHECK_EQ(v.ts, 0x12345678 >> 1);
}

static void test_a24u40(void)
{
	uint8_t r[256] = { 0 };
	struct hwt_i915_oa_values v;

	put32(r, 0, 1u << 19 | 1u << 16);
	put32(r, 4, 0x201);
	put32(r, 16, 0xa0);				/* A0, 32-bit */
	put32(r, 28, 0xa3);				/* A3 */
	put32(r, 32, 0x44444444);			/* A4 low */
	r[164] = 0x04;					/* A4 high */
	put32(r, 108, 0x23);				/* A23 low */
	r[183] = 0x23;
	put32(r, 112, 0x24);				/* A24, 32-bit */
	put32(r, 128, 0x28);				/* A28 low */
	r[188] = 0x28;
	put32(r, 140, 0x31);				/* A31 low */
	r[191] = 0x31;
	put32(r, 144, 0x32);
	put32(r, 156, 0x35);
	put32(r, 160, 0x36363636);			/* A36 in A0-A3's high-byte slots */
	put32(r, 184, 0x37373737);			/* A37 in A24-A27's */
	put32(r, 192, 0xb0);
	put32(r, 252, 0xc7);
	decode(12, 1255, r, &v);
	CHECK_EQ(v.na, 38);
	CHECK_EQ(v.ts, 0x100);				/* Gfx12.5: >> 1 */
	CHECK_EQ(v.reason, 1);
	CHECK_EQ(v.a[0], 0xa0);
	CHECK_EQ(v.a[3], 0xa3);
	CHECK_EQ(v.a[4], 0x0444444444ull);
	CHECK_EQ(v.a[23], 0x2300000023ull);
	CHECK_EQ(v.a[24], 0x24);
	CHECK_EQ(v.a[28], 0x2800000028ull);
	CHECK_EQ(v.a[31], 0x3100000031ull);
	CHECK_EQ(v.a[32], 0x32);
	CHECK_EQ(v.a[35], 0x35);
	CHECK_EQ(v.a[36], 0x36363636);
	CHECK_EQ(v.a[37], 0x37373737);
	CHECK_EQ(v.b[0], 0xb0);
	CHECK_EQ(v.c[7], 0xc7);
}

static void test_hsw(void)
{
	uint8_t r[256] = { 0 };
	struct hwt_i915_oa_values v;

	put32(r, 0, 0x1234);
	put32(r, 4, 77);
	put32(r, 12, 0xa0);				/* A0 at dword 3 */
	put32(r, 12 + 4 * 44, 0xa44);
	put32(r, 192, 0xb0);
	put32(r, 224 + 8, 0xc2c2);			/* C2: the clock on RenderBasic */
	decode(5, 750, r, &v);
	CHECK_EQ(v.na, 45);
	CHECK_EQ(v.a[0], 0xa0);
	CHECK_EQ(v.a[44], 0xa44);
	CHECK_EQ(v.b[0], 0xb0);
	CHECK_EQ(v.ticks, 0xc2c2);
	CHECK_EQ(v.reason, 1);
	CHECK(!v.ctx_valid);

	memset(r, 0, sizeof(r));
	put32(r, 0, 1);
	put32(r, 60, 0x12);				/* A13: A12 at 12 + 48 */
	decode(1, 750, r, &v);
	CHECK_EQ(v.na, 13);
	CHECK_EQ(v.a[12], 0x12);
	put32(r, 124, 0x28);				/* A29: A28 at 12 + 112 */
	decode(2, 750, r, &v);
	CHECK_EQ(v.na, 29);
	CHECK_EQ(v.a[28], 0x28);
	put32(r, 64, 0xb0);
	put32(r, 124, 0xc7);				/* A13_B8_C8: B at 64, C at 96 */
	decode(3, 750, r, &v);
	CHECK_EQ(v.b[0], 0xb0);
	CHECK_EQ(v.c[7], 0xc7);
	memset(r, 0, sizeof(r));
	put32(r, 28, 0xb3);
	put32(r, 32, 0xc0);				/* B4_C8: B at 16, C at 32 */
	decode(4, 750, r, &v);
	CHECK_EQ(v.nb, 4);
	CHECK_EQ(v.b[3], 0xb3);
	CHECK_EQ(v.c[0], 0xc0);
	put32(r, 60, 0x29);
	put32(r, 120, 0x44);				/* B4_C8_A16: A29..A44 at 60 */
	decode(6, 750, r, &v);
	CHECK_EQ(v.na, 16);
	CHECK_EQ(v.a[0], 0x29);
	CHECK_EQ(v.a[15], 0x44);
	CHECK_EQ(v.c[0], 0xc0);
	memset(r, 0, sizeof(r));
	put32(r, 16, 0xc0);
	put32(r, 32, 0x32);
	decode(7, 750, r, &v);				/* C4_B8 on HSW: B at 28 */
	CHECK_EQ(v.nc, 4);
	CHECK_EQ(v.c[0], 0xc0);
	CHECK_EQ(v.b[1], 0x32);
	decode(7, 900, r, &v);				/* Gen8+: B at 32 */
	CHECK_EQ(v.b[0], 0x32);
}

static void test_gen8_small_and_bits(void)
{
	uint8_t r[128] = { 0 };
	struct hwt_i915_oa_values v;

	put32(r, 0, 1u << 25);		/* Gen8: ctx valid; Gen12: reason bit 6 */
	put32(r, 12, 0x77);
	put32(r, 56, 0x18);		/* A18 = 12 + 4 * 11 */
	put32(r, 64, 0xb0);
	put32(r, 96, 0xc0);
	decode(9, 800, r, &v);
	CHECK(v.ctx_valid);
	CHECK_EQ(v.reason, 0);
	CHECK_EQ(v.na, 12);
	CHECK_EQ(v.a[0], 0x77);
	CHECK_EQ(v.a[11], 0x18);
	CHECK_EQ(v.b[0], 0xb0);
	CHECK_EQ(v.c[0], 0xc0);
	decode(8, 1200, r, &v);
	CHECK(!v.ctx_valid);
	CHECK_EQ(v.reason, 1u << 6);
	decode(8, 1100, r, &v);		/* Gen11 masks reason with 0x3f */
	CHECK_EQ(v.reason, 0);
	CHECK(!v.ctx_valid);
}

static void test_mpec(void)
{
	uint8_t r[192] = { 0 };
	struct hwt_i915_oa_values v;

	put64(r, 0, 1u << 19 | 1u << 16);
	put64(r, 8, 0x1122334455ull);
	put32(r, 16, 0x99);
	put64(r, 24, 0x5555555555ull);
	put64(r, 32, 0x10000000001ull);		/* MPEC0 u64 */
	put64(r, 88, 7);				/* MPEC7 */
	put32(r, 96, 0xb0);
	put32(r, 156, 0xc7);
	decode(13, 1270, r, &v);
	CHECK_EQ(v.ts, 0x1122334455ull);
	CHECK_EQ(v.ctx, 0x99);
	CHECK(v.ctx_valid);
	CHECK_EQ(v.ticks, 0x5555555555ull);
	CHECK_EQ(v.na, 8);
	CHECK_EQ(v.a[0], 0x10000000001ull);
	CHECK_EQ(v.a[7], 7);
	CHECK_EQ(v.b[0], 0xb0);
	CHECK_EQ(v.c[7], 0xc7);
	memset(r + 32, 0, 160);
	put32(r, 32, 0x31);
	put32(r, 60, 0x37);
	put32(r, 64, 0xb0);
	put32(r, 124, 0xc7);
	decode(14, 1270, r, &v);
	CHECK_EQ(v.a[0], 0x31);
	CHECK_EQ(v.a[7], 0x37);
	CHECK_EQ(v.b[0], 0xb0);
	CHECK_EQ(v.c[7], 0xc7);
}

/* ---- decoder-level tests ---------------------------------------------------- */

struct got {
	uint32_t reports, lost[2], ctxs;
	uint64_t ts[16], dticks[16], da0[16], dts[16], time[16];
	bool has[16];
	struct hwt_i915_oa_context ctx[8];
};

static void on_rec(void *ctx, const struct hwt_record *rec)
{
	struct got *g = ctx;

	if (rec->type == &hwt_rt_i915_oa_report && g->reports < 16) {
		const struct hwt_i915_oa_report *r = rec->data;

		g->ts[g->reports] = r->ts;
		g->time[g->reports] = r->has_time ? r->time : UINT64_MAX;
		g->has[g->reports] = r->has_delta;
		g->dts[g->reports] = r->dts;
		g->dticks[g->reports] = r->dticks;
		g->da0[g->reports] = r->has_delta ? r->da[0] : 0;
		g->reports++;
	} else if (rec->type == &hwt_rt_i915_oa_lost) {
		g->lost[((const struct hwt_i915_oa_lost *)rec->data)->kind]++;
	} else if (rec->type == &hwt_rt_i915_oa_context && g->ctxs < 8) {
		g->ctx[g->ctxs++] = *(const struct hwt_i915_oa_context *)rec->data;
	}
}

static size_t hdr(uint8_t *b, uint32_t type, uint16_t size)
{
	put32(b, 0, type);
	memset(b + 4, 0, 2);
	memcpy(b + 6, &size, 2);
	return 8;
}

/* an A32u40 Gen12 SAMPLE record with the given header and A0 */
static size_t sample(uint8_t *b, uint32_t ts, uint32_t ctx, uint32_t ticks, uint64_t a0)
{
	hdr(b, 1, 8 + 256);
	memset(b + 8, 0, 256);
	put32(b + 8, 0, 1u << 19 | 1u << 16);
	put32(b + 8, 4, ts);
	put32(b + 8, 8, ctx);
	put32(b + 8, 12, ticks);
	put32(b + 8, 16, (uint32_t)a0);
	b[8 + 160] = (uint8_t)(a0 >> 32);
	return 8 + 256;
}

static int run(const uint8_t *buf, size_t n, const char *fmt, const char *freq, struct got *g,
	       struct hwt_diag *d)
{
	struct hwt_opt opts[2] = { { "oa-format", fmt }, { "ts-freq", freq } };
	struct hwt_aux_ctx ctx = { .auxtrace_type = HWT_AUXTRACE_I915_OA, .opts = opts,
				   .nopts = fmt ? 2 : 0, .raw = true };
	uint64_t priv[HWT_I915_OA_NPRIV];
	struct hwt_emit e = { .record = on_rec, .ctx = g, .diag = d };
	struct hwt_chunk c = { .data = buf, .size = n, .last = true, .first = true };
	const struct hwt_decoder_ops *ops = &hwt_i915_oa_decoder;
	void *st;
	size_t used;

	memset(g, 0, sizeof(*g));
	st = i915_raw_decoder(&ctx, priv, d);
	if (!st)
		return -1;
	used = ops->decode(st, &c, &e);
	ops->finish(st, &e);
	ops->free(st);
	return (int)used;
}

static void test_accumulate(void)
{
	uint8_t *b = calloc(1, 8192);
	size_t n = 0;
	struct got g;
	struct hwt_diag d = { 0 };

	/* ctx 1: two reports across 32-bit ts/ticks and 40-bit A0 wraps */
	n += sample(b + n, 0xfffffff0, 1, 0xffffff00, 0xfffffffff0ull);
	n += sample(b + n, 0x00000010, 1, 0x00000100, 0x10);
	/* ctx 2 starts: the delta ending here belongs to ctx 1 */
	n += sample(b + n, 0x00000030, 2, 0x00000300, 0x20);
	n += hdr(b + n, 2, 8);					/* REPORT_LOST: keep baseline */
	n += sample(b + n, 0x00000070, 2, 0x00000700, 0x30);
	n += hdr(b + n, 3, 8);					/* BUFFER_LOST: break */
	n += sample(b + n, 0x00001000, 2, 0x00001000, 0x40);
	memset(b + n, 0, 8 + 256);				/* zero-header report */
	hdr(b + n, 1, 8 + 256);
	n += 8 + 256;
	n += sample(b + n, 0x00001100, 2, 0x00001100, 0x50);

	CHECK_EQ(run(b, n, "A32u40_A4u32_B8_C8", "1000000000", &g, &d), n);
	CHECK_EQ(d.errors, 0);
	CHECK_EQ(d.warnings, 1);				/* the zero header */
	CHECK_EQ(d.bytes.decoded + d.bytes.skipped, n);
	CHECK_EQ(g.reports, 7);
	CHECK(!g.has[0]);
	CHECK(g.has[1]);
	CHECK_EQ(g.dts[1], 0x20);
	CHECK_EQ(g.dticks[1], 0x200);
	CHECK_EQ(g.da0[1], 0x20);				/* 2^40 wrap */
	CHECK_EQ(g.dticks[2], 0x200);
	CHECK(g.has[3]);					/* across REPORT_LOST */
	CHECK_EQ(g.dticks[3], 0x400);
	CHECK(!g.has[4]);					/* after BUFFER_LOST */
	CHECK(!g.has[5]);					/* zero header */
	CHECK(g.has[6]);					/* baseline is report 4 */
	CHECK_EQ(g.dticks[6], 0x100);
	CHECK_EQ(g.lost[0], 1);
	CHECK_EQ(g.lost[1], 1);
	CHECK_EQ(g.ctxs, 2);
	CHECK_EQ(g.ctx[0].ctx, 1);
	CHECK_EQ(g.ctx[0].reports, 2);
	CHECK_EQ(g.ctx[0].GpuCoreClocks, 0x400);		/* 0x200 + the switch delta */
	CHECK_EQ(g.ctx[0].GpuTime, 0x40);			/* 1 GHz: ticks == ns */
	CHECK_EQ(g.ctx[1].ctx, 2);
	CHECK_EQ(g.ctx[1].reports, 4);
	CHECK_EQ(g.ctx[1].lost, 2);
	CHECK_EQ(g.ctx[1].GpuCoreClocks, 0x400 + 0x100);
	CHECK_EQ(g.ctx[1].AvgGpuCoreFrequency, 1000000000ull * 0x500 / 0x140);
	free(b);
}

static void test_malformed(void)
{
	uint8_t *b = calloc(1, 8192);
	size_t n = 0;
	struct got g;
	struct hwt_diag d = { 0 };

	n += sample(b + n, 100, 1, 1000, 1);
	n += hdr(b + n, 1, 0);					/* size 0 */
	memcpy(b + n, "\xde\xad\xbe\xef", 4);			/* garbage up to 4-aligned */
	n += 4;
	n += sample(b + n, 200, 1, 2000, 2);
	n += hdr(b + n, 2, 13);					/* odd size REPORT_LOST */
	memset(b + n, 0, 5);
	n += 5;							/* next record follows at +13 */
	n += hdr(b + n, 1, 8 + 100);				/* SAMPLE smaller than report */
	n += 100;
	n += hdr(b + n, 77, 16);				/* unknown type: skipped */
	n += 8;
	n += sample(b + n, 300, 1, 3000, 3);
	n += hdr(b + n, 1, 8 + 256);				/* past the end */
	n += 40;

	run(b, n, "A32u40_A4u32_B8_C8", NULL, &g, &d);
	CHECK_EQ(g.reports, 3);
	CHECK_EQ(g.ts[2], 300);
	CHECK_EQ(g.lost[0], 1);
	/* size 0, the 13-byte REPORT_LOST, the short SAMPLE, the cut last record */
	CHECK_EQ(d.errors, 4);
	CHECK_EQ(d.bytes.decoded + d.bytes.skipped, n);
	CHECK(g.has[1]);
	CHECK_EQ(g.dticks[1], 1000);

	/* SAMPLE before any format, a truncated header, an empty input */
	memset(&d, 0, sizeof(d));
	run(b, 8 + 256, NULL, NULL, &g, &d);
	CHECK_EQ(g.reports, 0);
	CHECK_EQ(d.errors, 1);
	memset(&d, 0, sizeof(d));
	run(b, 5, "A13", NULL, &g, &d);
	CHECK_EQ(d.errors, 1);
	CHECK_EQ(d.bytes.skipped, 5);
	memset(&d, 0, sizeof(d));
	CHECK_EQ(run(b, 0, "A13", NULL, &g, &d), 0);
	CHECK_EQ(d.errors, 0);
	memset(&d, 0, sizeof(d));
	CHECK_EQ(run(b, 8, "NOPE", NULL, &g, &d), -1);
	CHECK_EQ(d.errors, 1);

	/* a topology, then an empty one: realloc(p, 0) used to free p twice */
	n = 0;
	n += hdr(b + n, IGT_PERF_RECORD_TOPOLOGY, 8 + 16);
	memset(b + n, 0, 16);	/* a header of no slice: a topology libi915_perf may take */
	n += 16;
	n += hdr(b + n, IGT_PERF_RECORD_TOPOLOGY, 8);
	n += sample(b + n, 100, 1, 1000, 1);
	memset(&d, 0, sizeof(d));
	run(b, n, "A32u40_A4u32_B8_C8", NULL, &g, &d);
	CHECK_EQ(g.reports, 1);
	CHECK_EQ(d.errors, 0);
	CHECK_EQ(d.warnings, 1);
	free(b);
}

static void test_chunked(void)
{
	uint8_t *b = calloc(1, 4096);
	size_t n = 0, used;
	struct hwt_diag d = { 0 };
	struct got g = { 0 };
	struct hwt_opt opts[1] = { { "oa-format", "A32u40_A4u32_B8_C8" } };
	struct hwt_aux_ctx ctx = { .opts = opts, .nopts = 1, .raw = true };
	struct hwt_emit e = { .record = on_rec, .ctx = &g, .diag = &d };
	uint64_t priv[HWT_I915_OA_NPRIV];
	const struct hwt_decoder_ops *ops = &hwt_i915_oa_decoder;
	void *st;

	n += sample(b + n, 1, 1, 1, 1);
	n += sample(b + n, 2, 1, 5, 2);
	ctx.npriv = (uint32_t)ops->ctx_from_opts(&ctx, priv, HWT_I915_OA_NPRIV, &d);
	ctx.priv = priv;
	st = ops->new(&ctx, &d);
	/* a chunk that ends inside the second record: only the first is consumed */
	used = ops->decode(st, &(struct hwt_chunk){ .data = b, .size = n - 10 }, &e);
	CHECK_EQ(used, 264);
	used = ops->decode(st, &(struct hwt_chunk){ .data = b + used, .size = n - used,
						    .file_offset = used, .last = true }, &e);
	CHECK_EQ(used, 264);
	CHECK_EQ(g.reports, 2);
	CHECK_EQ(g.dticks[1], 4);
	CHECK_EQ(d.errors, 0);
	CHECK_EQ(d.bytes.decoded, n);
	ops->free(st);
	free(b);
}

static size_t igt_version(uint8_t *b)
{
	hdr(b, 65536, 16);
	put32(b, 8, 1);
	put32(b, 12, 0);
	return 16;
}

static size_t igt_point(uint8_t *b, uint64_t cpu, uint64_t gpu)
{
	hdr(b, 65539, 24);
	put64(b, 8, cpu);
	put64(b, 16, gpu);
	return 24;
}

/* A decoder of IGT files (VERSION makes it one) with per-report CPU time. */
static void *igt_decoder(struct hwt_diag *d)
{
	static struct hwt_opt opts[2] = { { "oa-format", "A32u40_A4u32_B8_C8" },
					  { "ts-freq", "1000000000" } };
	struct hwt_aux_ctx ctx = { .opts = opts, .nopts = 2, .raw = true };
	static uint64_t priv[HWT_I915_OA_NPRIV];

	return i915_raw_decoder(&ctx, priv, d);
}

/* decode [@off, @end) of @b as one piece */
static size_t igt_piece(void *st, const uint8_t *b, size_t off, size_t end, bool last,
			const struct hwt_emit *e)
{
	return hwt_i915_oa_decoder.decode(st, &(struct hwt_chunk){ .data = b + off,
		.size = end - off, .file_offset = off, .last = last }, e);
}

/*
 * An IGT report after its piece's last correlation point is left for the
 * next piece, which starts at it: there it interpolates with the point
 * that follows, as i915-perf-reader (which reads every point first) does,
 * instead of extrapolating from the two before.  Once per point found,
 * never at a piece's start, never in a piece of 16 MiB or more.
 */
static void test_defer(void)
{
	size_t big = 16u << 20, n = 0, n1, r1, p3, used;
	uint8_t *b = calloc(1, big + 4096);
	struct hwt_diag d = { 0 };
	struct got g = { 0 };
	struct hwt_emit e = { .record = on_rec, .ctx = &g, .diag = &d };
	void *st;

	if (!b) {
		CHECK(b != NULL);
		return;
	}
	n += igt_version(b + n);
	n += igt_point(b + n, 1000, 0x100);
	n += igt_point(b + n, 2000, 0x200);
	r1 = n;
	n += sample(b + n, 0x300, 1, 1, 1);
	n += sample(b + n, 0x400, 1, 2, 2);
	n1 = n;
	p3 = n;
	n += igt_point(b + n, 4000, 0x600);
	n += sample(b + n, 0x700, 1, 3, 3);

	/* the first report is left; the next piece starts at it */
	st = igt_decoder(&d);
	used = igt_piece(st, b, 0, n1, false, &e);
	CHECK_EQ(used, r1);
	CHECK_EQ(g.reports, 0);
	used = igt_piece(st, b, r1, n, true, &e);
	CHECK_EQ(used, n - r1);
	CHECK_EQ(g.reports, 3);
	/* between (2000, 0x200) and (4000, 0x600): 2000 + 0x100 * 2000 / 0x400 */
	CHECK_EQ(g.time[0], 2500);
	CHECK_EQ(g.time[1], 3000);
	CHECK_EQ(g.time[2], 4500);	/* past the last: the last two extrapolate */
	CHECK_EQ(d.bytes.decoded, n);
	CHECK_EQ(d.errors, 0);
	hwt_i915_oa_decoder.free(st);

	/* no new point in the next piece: its second report is not left again */
	memset(&g, 0, sizeof(g));
	memset(&d, 0, sizeof(d));
	st = igt_decoder(&d);
	CHECK_EQ(igt_piece(st, b, 0, p3, false, &e), r1);
	CHECK_EQ(igt_piece(st, b, r1, p3, false, &e), p3 - r1);
	CHECK_EQ(g.reports, 2);
	/* a point found, then a report past it in the same piece: left */
	CHECK_EQ(igt_piece(st, b, p3, n, false, &e), n - 264 - p3);
	hwt_i915_oa_decoder.free(st);

	/* a piece of 16 MiB is taken whole, whatever its points */
	memset(&g, 0, sizeof(g));
	memset(&d, 0, sizeof(d));
	n = r1;
	while (n < big)
		n += sample(b + n, (uint32_t)(0x300 + n), 1, 1, 1);
	st = igt_decoder(&d);
	CHECK_EQ(igt_piece(st, b, 0, n, false, &e), n);
	CHECK_EQ(d.errors, 0);
	hwt_i915_oa_decoder.free(st);
	free(b);
}

/* what a walk handed over: each record's type, body size and offset, runs expanded */
struct walked {
	uint32_t n, runs, longest;
	uint32_t type[1000];
	uint64_t off[1000], size[1000];
};

static void walked_record(void *ctx, uint32_t type, const uint8_t *body, size_t n, uint64_t off)
{
	struct walked *w = ctx;

	if (w->n == 1000)
		return;
	w->type[w->n] = type;
	w->size[w->n] = n;
	w->off[w->n++] = off;
}

static void walked_run(void *ctx, uint32_t type, const uint8_t *body, size_t n, size_t stride,
		       size_t count, uint64_t off)
{
	struct walked *w = ctx;

	CHECK(count >= 2);
	CHECK_EQ(stride, n + 8);
	w->runs++;
	if (count > w->longest)
		w->longest = (uint32_t)count;
	for (size_t i = 0; i < count; i++)
		walked_record(ctx, type, body + i * stride, n, off + i * stride);
}

static bool walked_known(void *ctx, uint32_t type, size_t n)
{
	return type == I915_PERF_RECORD_SAMPLE;
}

/*
 * With a run callback or without, the walker hands over the records the
 * test wrote, at the offsets it wrote them, and counts the same bytes: runs
 * of one header (600 reports: 256, 256 and 88), a lost record between runs,
 * a report of another size, garbage and a record cut by the end of the piece.
 */
static void test_walk_runs(void)
{
	static struct walked plain, runs, want;
	uint8_t *b = calloc(700, 264);
	struct hwt_diag d1 = { 0 }, d2 = { 0 };
	size_t n = 0, used1, used2;

	CHECK(b != NULL);
	if (!b)
		return;
	/* each whole record as written: what both walks must hand over */
#define PUT(type_, size_) do { \
		walked_record(&want, type_, NULL, (size_) - 8, 4096 + n); \
		n += i915_put_hdr(b + n, type_, size_) + (size_) - 8; \
	} while (0)
	for (int i = 0; i < 600; i++)
		PUT(I915_PERF_RECORD_SAMPLE, 264);
	PUT(I915_PERF_RECORD_OA_REPORT_LOST, 8);
	for (int i = 0; i < 3; i++)
		PUT(I915_PERF_RECORD_SAMPLE, 264);
	PUT(I915_PERF_RECORD_SAMPLE, 200);
	memset(b + n, 0xee, 12);	/* garbage */
	n += 12;
	for (int i = 0; i < 2; i++)
		PUT(I915_PERF_RECORD_SAMPLE, 264);
#undef PUT
	n += i915_put_hdr(b + n, I915_PERF_RECORD_SAMPLE, 264) + 100;	/* cut */
	used1 = hwt_i915_stream__walk(b, n, 4096, false, &(struct hwt_i915_walk){
		.record = walked_record, .known = walked_known, .ctx = &plain }, &d1);
	used2 = hwt_i915_stream__walk(b, n, 4096, false, &(struct hwt_i915_walk){
		.record = walked_record, .run = walked_run, .known = walked_known,
		.ctx = &runs }, &d2);
	CHECK_EQ(used1, n - 108);
	CHECK_EQ(used2, used1);
	CHECK_EQ(want.n, 607);
	CHECK_EQ(plain.n, want.n);
	CHECK_EQ(runs.n, want.n);
	CHECK(!memcmp(plain.type, want.type, sizeof(want.type)));
	CHECK(!memcmp(plain.size, want.size, sizeof(want.size)));
	CHECK(!memcmp(plain.off, want.off, sizeof(want.off)));
	CHECK(!memcmp(runs.type, want.type, sizeof(want.type)));
	CHECK(!memcmp(runs.size, want.size, sizeof(want.size)));
	CHECK(!memcmp(runs.off, want.off, sizeof(want.off)));
	CHECK_EQ(runs.runs, 5);		/* 256, 256, 88, 3, 2 */
	CHECK_EQ(runs.longest, 256);
	CHECK_EQ(d2.bytes.decoded, d1.bytes.decoded);
	CHECK_EQ(d2.bytes.skipped, d1.bytes.skipped);
	CHECK_EQ(d2.errors, d1.errors);
	CHECK_EQ(d1.bytes.skipped, 12);
	free(b);
}

/* Corrupt inputs must not wrap: huge GpuTime saturates, extrapolation clamps at 0. */
static void test_overflow(void)
{
	struct hwt_igt_correlation steep[2] = {
		{ 1000000000, 0x110000000ull }, { 1000001000, 0x110000001ull },
	};
	struct hwt_igt_correlation back[2] = { { 1000, 0x200 }, { 2000, 0x100 } };
	uint64_t cpu = 1;

	CHECK_EQ(hwt_i915_oa__ticks_to_ns(19200000, 19200000), 1000000000);
	CHECK_EQ(hwt_i915_oa__ticks_to_ns(1ull << 40, 1), UINT64_MAX);
	CHECK_EQ(hwt_i915_oa__ticks_to_ns(UINT64_MAX, 1000000000), UINT64_MAX);
	/* 1000 ns per tick, 0x10000000 ticks before the first point: 1e9 - 2.7e11 < 0 */
	CHECK(hwt_igt__gpu_to_cpu(steep, 2, 0, 0xffffffff, 0, &cpu));
	CHECK_EQ(cpu, 0);
	/* points going backwards: 1000 + (0x300 - 0x200) * 1000 / (0x100 - 0x200) = 0 */
	cpu = 1;
	CHECK(hwt_igt__gpu_to_cpu(back, 2, 0x300, 0xffffffff, 0, &cpu));
	CHECK_EQ(cpu, 0);
	/* halfway along that line: 1000 + (0x180 - 0x200) * 1000 / -0x100 = 1500 */
	CHECK(hwt_igt__gpu_to_cpu(back, 2, 0x180, 0xffffffff, 0, &cpu));
	CHECK_EQ(cpu, 1500);
}

static void test_correlation(void)
{
	struct hwt_igt_correlation p[3] = {
		{ 1000, 0x100000000ull }, { 2000, 0x100000100ull }, { 4000, 0x100000200ull },
	};
	uint64_t cpu = 0;

	CHECK(hwt_igt__gpu_to_cpu(p, 3, 0x80, 0xffffffff, 0, &cpu));
	CHECK_EQ(cpu, 1500);
	CHECK(hwt_igt__gpu_to_cpu(p, 3, 0x180, 0xffffffff, 0, &cpu));
	CHECK_EQ(cpu, 3000);
	CHECK(hwt_igt__gpu_to_cpu(p, 3, 0x40, 0x7fffffff, 1, &cpu));	/* shifted */
	CHECK_EQ(cpu, 1500);
	CHECK(!hwt_igt__gpu_to_cpu(p, 1, 0x80, 0xffffffff, 0, &cpu));
}

/* Around the 64-bit fast path: truncation, a product past 2^64, a sum past it. */
static void test_correlation_wide(void)
{
	struct hwt_igt_correlation third[2] = { { 1000, 0 }, { 2000, 3 } };
	struct hwt_igt_correlation wide[2] = { { 0, 0 }, { 1ull << 40, 1ull << 20 } };
	struct hwt_igt_correlation top[2] = { { UINT64_MAX - 10, 0 }, { UINT64_MAX - 5, 100 } };
	uint64_t cpu = 0;

	/* 1000 + 1 * 1000 / 3, truncated */
	CHECK(hwt_igt__gpu_to_cpu(third, 2, 1, 0xffffffff, 0, &cpu));
	CHECK_EQ(cpu, 1333);
	/* 2^30 * 2^40 does not fit 64 bits: 2^70 / 2^20 = 2^50 all the same */
	CHECK(hwt_igt__gpu_to_cpu(wide, 2, 1ull << 30, 0xffffffff, 0, &cpu));
	CHECK_EQ(cpu, 1ull << 50);
	/* 2^64 - 11 + 300 * 5 / 100 = 2^64 + 4: clamped, not wrapped */
	CHECK(hwt_igt__gpu_to_cpu(top, 2, 300, 0xffffffff, 0, &cpu));
	CHECK_EQ(cpu, UINT64_MAX);
	/* 2^64 - 11 + 50 * 5 / 100 = 2^64 - 9 */
	CHECK(hwt_igt__gpu_to_cpu(top, 2, 50, 0xffffffff, 0, &cpu));
	CHECK_EQ(cpu, UINT64_MAX - 8);
}

static uint64_t read_zero(const struct igt_perf *perf, const struct igt_metric_set *set,
			  uint64_t *deltas)
{
	return 0;
}

/* A set whose offsets would put a delta outside IGT's 64 slots is refused. */
static void test_set_sane(void)
{
	static struct igt_metric_set set;
	static struct igt_counter c = { .metric_set = &set, .symbol_name = "GpuTime",
					.read_uint64 = read_zero };
	/* time 0, clock 1, A 2-37, B 38-45, C 46-53: every slot within the 64 */
	const struct igt_metric_set good = { .counters = &c, .n_counters = 1,
		.gpu_time_offset = 0, .gpu_clock_offset = 1, .a_offset = 2, .b_offset = 38,
		.c_offset = 46 };

	set = good;
	CHECK(hwt_i915_perf__set_sane(&set));
	set.b_offset = 57;		/* B7 at slot 64 */
	CHECK(!hwt_i915_perf__set_sane(&set));
	set = good;
	set.a_offset = -1;
	CHECK(!hwt_i915_perf__set_sane(&set));
	set = good;
	set.gpu_clock_offset = 64;
	CHECK(!hwt_i915_perf__set_sane(&set));
	set = good;
	set.c_offset = 57;
	CHECK(!hwt_i915_perf__set_sane(&set));
}

/* a topology header (flags 0) and @data bytes of masks, all set, in @t; returns its size */
static size_t topo(uint8_t *t, uint16_t slices, uint16_t subslices, uint16_t eus,
		   uint16_t ss_off, uint16_t ss_stride, uint16_t eu_off, uint16_t eu_stride,
		   size_t data)
{
	const uint16_t h[8] = { 0, slices, subslices, eus, ss_off, ss_stride, eu_off, eu_stride };

	memcpy(t, h, sizeof(h));
	memset(t + 16, 0xff, data);
	return 16 + data;
}

/*
 * What libi915_perf may be given: the mask arrays it copies into (6 and 96
 * bytes, the limits i915_metrics.bats finds the real library to abort
 * past) and every bit it reads inside the record.
 */
static void test_topology_check(void)
{
	uint8_t t[16 + 512];
	char why[192];

	/* synth's and gen_igt.py's: 1 slice, 6 subslices of 16 EUs */
	CHECK(hwt_i915_oa__topology_check(t, topo(t, 1, 6, 16, 1, 1, 2, 2, 14), why, sizeof(why)));
	CHECK(!hwt_i915_oa__topology_check(t, 15, why, sizeof(why)));
	CHECK_STR(why, "15 bytes, less than its 16-byte header");
	/* subslice masks: 6 bytes fit, 7 do not */
	CHECK(hwt_i915_oa__topology_check(t, topo(t, 6, 6, 16, 1, 1, 7, 2, 79), why, sizeof(why)));
	CHECK(!hwt_i915_oa__topology_check(t, topo(t, 7, 6, 16, 1, 1, 8, 2, 92), why,
					   sizeof(why)));
	CHECK(strstr(why, "7 bytes of subslice masks and 84 of EU masks") != NULL);
	/* EU masks: 96 bytes fit, 98 do not */
	CHECK(hwt_i915_oa__topology_check(t, topo(t, 1, 48, 16, 1, 6, 7, 2, 103), why,
					  sizeof(why)));
	CHECK(!hwt_i915_oa__topology_check(t, topo(t, 1, 49, 16, 1, 6, 7, 2, 105), why,
					   sizeof(why)));
	CHECK(strstr(why, "98 of EU masks") != NULL);
	/* the last EU's bit is the data's last byte; a byte less and it is past */
	CHECK(hwt_i915_oa__topology_check(t, topo(t, 1, 6, 16, 1, 1, 2, 2, 14), why, sizeof(why)));
	CHECK(!hwt_i915_oa__topology_check(t, topo(t, 1, 6, 16, 1, 1, 2, 2, 13), why,
					   sizeof(why)));
	CHECK(strstr(why, "lie past its 13 bytes of data") != NULL);
	/* a subslice mask, the slice mask itself past the end */
	CHECK(!hwt_i915_oa__topology_check(t, topo(t, 1, 6, 16, 20, 1, 2, 2, 14), why,
					   sizeof(why)));
	CHECK(!hwt_i915_oa__topology_check(t, topo(t, 1, 0, 0, 0, 0, 0, 0, 0), why, sizeof(why)));
	/* no slice at all: nothing read, nothing copied */
	CHECK(hwt_i915_oa__topology_check(t, topo(t, 0, 0, 0, 0, 0, 0, 0, 0), why, sizeof(why)));
	/* offsets near 2^16: no wrap in the sums */
	CHECK(!hwt_i915_oa__topology_check(t, topo(t, 1, 6, 16, 65535, 1, 65535, 2, 14), why,
					   sizeof(why)));
}

int main(void)
{
	RUN(test_topology_check);
	RUN(test_table);
	RUN(test_a32u40);
	RUN(test_a24u40);
	RUN(test_hsw);
	RUN(test_gen8_small_and_bits);
	RUN(test_mpec);
	RUN(test_accumulate);
	RUN(test_malformed);
	RUN(test_chunked);
	RUN(test_defer);
	RUN(test_walk_runs);
	RUN(test_correlation);
	RUN(test_correlation_wide);
	RUN(test_set_sane);
	RUN(test_overflow);
	return check_done("i915_oa");
}
