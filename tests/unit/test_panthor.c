// SPDX-License-Identifier: GPL-2.0
/*
 * test_panthor.c - the panthor decoder against samples laid out by hand.
 *
 * The helpers below write the uAPI structs byte by byte from
 * Documentation/panthor.rst (sample header 56 B, block header 24 B) with the
 * block-type numbers of each revision typed in here, not taken from the
 * decoder's layout table.
 */
#include <stdlib.h>

#include "check.h"
#include "panthor/panthor_internal.h"

/* uAPI block_type numbers, per revision (Documentation/panthor.rst) */
enum { V2_FW = 1, V2_CSG = 2, V2_CSHW = 3, V2_TILER = 4, V2_MEMSYS = 5, V2_SHADER = 6 };
enum { V6_FW = 1, V6_CSHW = 2, V6_TILER = 3, V6_MEMSYS = 4, V6_SHADER = 5 };

#define G610 0xa8670000u
#define G715 0xb0020000u

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* struct drm_panthor_perf_sample_header, 56 bytes */
static void put_sample_hdr(uint8_t *p, uint64_t start, uint64_t end, uint8_t set, uint32_t flags,
			   uint64_t user_data, uint64_t top, uint64_t cg, uint64_t sc)
{
	memset(p, 0, 56);
	put64(p + 0, start);
	put64(p + 8, end);
	p[16] = set;
	put32(p + 20, flags);
	put64(p + 24, user_data);
	put64(p + 32, top);
	put64(p + 40, cg);
	put64(p + 48, sc);
}

/* value of counter i in block (type, idx) of sample s */
static uint64_t val(uint32_t s, uint8_t type, uint8_t idx, uint32_t i)
{
	return 1000000ull * s + 10000ull * type + 100ull * idx + i;
}

/* struct drm_panthor_perf_block_header (24 bytes) + cpb u64, at @p; @bhs >= 24 */
static size_t put_block(uint8_t *p, uint32_t bhs, uint32_t cpb, uint32_t s, uint8_t type,
			uint8_t idx, uint8_t states, uint8_t clock, uint64_t em0, uint64_t em1)
{
	memset(p, 0, bhs);
	p[0] = type;
	p[1] = idx;
	p[2] = states;
	p[3] = clock;
	put64(p + 8, em0);
	put64(p + 16, em1);
	for (uint32_t i = 0; i < cpb; i++)
		put64(p + bhs + 8 * i, val(s, type, idx, i));
	return bhs + 8ull * cpb;
}

/* --- capture what the decoder emits ------------------------------------ */

#define MAXREC 64

struct cap_block {
	struct hwt_panthor_block_rec r;
	uint64_t values[128];
	char keys[128][32];
	uint64_t kv[128];
	uint64_t offset;
};

struct cap {
	struct cap_block b[MAXREC];
	int nb;
	struct hwt_panthor_sample_rec s[MAXREC];
	int ns;
	struct hwt_panthor_summary sum;
	int nsum;
	struct hwt_panthor_block_total tot[MAXREC];
	int ntot;
	struct hwt_panthor_counter cnt[MAXREC];
	char cnt_keys[MAXREC][32];
	int ncnt;
	struct hwt_panthor_aggregate agg[MAXREC];
	char agg_keys[MAXREC][32];
	int nagg;
	int errors, warnings;
	uint64_t last_err_off;
	char last_err[256], last_warn[256];
};

static void cap_record(void *ctx, const struct hwt_record *rec)
{
	struct cap *c = ctx;

	if (rec->type == &hwt_rt_panthor_block && c->nb < MAXREC) {
		struct cap_block *b = &c->b[c->nb++];
		const struct hwt_panthor_block_rec *r = rec->data;

		b->r = *r;
		b->offset = rec->offset;
		memcpy(b->values, r->values, r->nvalues * 8);
		for (uint32_t i = 0; i < r->ncounters; i++) {
			snprintf(b->keys[i], sizeof(b->keys[i]), "%s", r->counters[i].key);
			b->kv[i] = r->counters[i].val;
		}
	} else if (rec->type == &hwt_rt_panthor_sample && c->ns < MAXREC) {
		c->s[c->ns++] = *(const struct hwt_panthor_sample_rec *)rec->data;
	} else if (rec->type == &hwt_rt_panthor_summary) {
		c->sum = *(const struct hwt_panthor_summary *)rec->data;
		c->nsum++;
	} else if (rec->type == &hwt_rt_panthor_block_total && c->ntot < MAXREC) {
		c->tot[c->ntot++] = *(const struct hwt_panthor_block_total *)rec->data;
	} else if (rec->type == &hwt_rt_panthor_counter && c->ncnt < MAXREC) {
		const struct hwt_panthor_counter *t = rec->data;

		snprintf(c->cnt_keys[c->ncnt], 32, "%s", t->counter);
		c->cnt[c->ncnt++] = *t;
	} else if (rec->type == &hwt_rt_panthor_aggregate && c->nagg < MAXREC) {
		const struct hwt_panthor_aggregate *g = rec->data;

		snprintf(c->agg_keys[c->nagg], 32, "%s", g->counter);
		c->agg[c->nagg++] = *g;
	}
}

static void cap_report(void *ctx, const struct hwt_error *e)
{
	struct cap *c = ctx;

	if (e->severity == HWT_ERROR) {
		c->errors++;
		c->last_err_off = e->offset;
		snprintf(c->last_err, sizeof(c->last_err), "%s", e->msg);
	} else {
		c->warnings++;
		snprintf(c->last_warn, sizeof(c->last_warn), "%s", e->msg);
	}
}

struct run {
	uint64_t priv[HWT_PANTHOR_NPRIV_RAW];
	struct cap *cap;
	struct hwt_diag diag;
	bool no_summary, summary_only;	/* what the session would say */
};

static void run_init(struct run *r, uint32_t layout, uint32_t gpu, uint32_t cpb,
		     const uint32_t counts[6])
{
	memset(r, 0, sizeof(*r));
	r->cap = calloc(1, sizeof(*r->cap));
	r->diag.report = cap_report;
	r->diag.ctx = r->cap;
	r->priv[HWT_PANTHOR_PRIV_LAYOUT] = layout;
	r->priv[HWT_PANTHOR_PRIV_GPU_ID] = gpu;
	r->priv[HWT_PANTHOR_PRIV_CPB] = cpb;
	r->priv[HWT_PANTHOR_PRIV_SHS] = 56;
	r->priv[HWT_PANTHOR_PRIV_BHS] = 24;
	for (int k = 0; k < 6; k++)
		r->priv[HWT_PANTHOR_PRIV_BLOCKS + k] = counts[k];
}

/* Decode @n bytes in one chunk (format: HWT_PANTHOR_RAW_*) and finish. */
static void run_decode(struct run *r, uint32_t format, const uint8_t *p, size_t n)
{
	struct hwt_aux_ctx ctx = {
		.auxtrace_type = HWT_AUXTRACE_PANTHOR, .priv = r->priv,
		.npriv = HWT_PANTHOR_NPRIV_RAW, .raw = true, .no_summary = r->no_summary,
		.summary_only = r->summary_only,
	};
	struct hwt_emit emit = { .record = cap_record, .ctx = r->cap, .diag = &r->diag };
	struct hwt_chunk c = { .data = p, .size = n, .file_offset = 0, .last = true,
			       .first = true };
	void *st;

	r->priv[HWT_PANTHOR_PRIV_RAW_FORMAT] = format;
	st = hwt_panthor_decoder.new(&ctx, &r->diag);
	CHECK(st != NULL);
	if (!st)
		return;
	CHECK_EQ(hwt_panthor_decoder.decode(st, &c, &emit), n);
	hwt_panthor_decoder.finish(st, &emit);
	hwt_panthor_decoder.free(st);
}

static void run_free(struct run *r)
{
	free(r->cap);
}

static const struct cap_block *find_block(const struct cap *c, uint64_t sample, const char *type,
					  uint32_t idx)
{
	for (int i = 0; i < c->nb; i++)
		if (c->b[i].r.sample == sample && c->b[i].r.block_idx == idx &&
		    !strcmp(hwt_panthor_kind_names[c->b[i].r.block_type], type))
			return &c->b[i];
	return NULL;
}

static uint64_t kv_get(const struct cap_block *b, const char *key, bool *found)
{
	for (uint32_t i = 0; i < b->r.ncounters; i++)
		if (!strcmp(b->keys[i], key)) {
			*found = true;
			return b->kv[i];
		}
	*found = false;
	return 0;
}

/* --- tests -------------------------------------------------------------- */

/* v6, 64 counters, G610: every header field and every block type. */
static void test_v6_every_field(void)
{
	static const uint32_t counts[6] = { 1, 0, 1, 1, 2, 2 };	/* fw csg cshw tiler memsys sc */
	const struct { uint8_t type, idx, states, clock; const char *name; } blk[] = {
		{ V6_FW, 0, 0x15, 0, "fw" }, { V6_CSHW, 0, 0x15, 0, "cshw" },
		{ V6_TILER, 0, 0x11, 1, "tiler" }, { V6_MEMSYS, 0, 0x15, 1, "memsys" },
		{ V6_MEMSYS, 1, 0x25, 1, "memsys" }, { V6_SHADER, 0, 0x05, 2, "shader" },
		{ V6_SHADER, 1, 0x15, 2, "shader" },
	};
	size_t ss = 56 + 7 * (24 + 64 * 8), pos = 56;
	uint8_t *buf = calloc(1, ss);
	uint64_t em0 = 0xf00000000000001full;	/* counters 0-4 and 60-63 */
	struct run r;
	bool found;

	put_sample_hdr(buf, 111, 222, 1, 0, 0xabcdef, 1000, 2000, 3000);
	for (size_t i = 0; i < sizeof(blk) / sizeof(blk[0]); i++)
		pos += put_block(buf + pos, 24, 64, 0, blk[i].type, blk[i].idx, blk[i].states,
				 blk[i].clock, em0, 0);
	CHECK_EQ(pos, ss);
	run_init(&r, 6, G610, 64, counts);
	r.priv[HWT_PANTHOR_PRIV_SAMPLE_SIZE] = ss;
	run_decode(&r, HWT_PANTHOR_RAW_SAMPLES, buf, ss);
	CHECK_EQ(r.cap->errors, 0);
	CHECK_EQ(r.cap->nb, 7);
	CHECK_EQ(r.cap->ns, 1);
	CHECK_EQ(r.cap->s[0].timestamp_start_ns, 111);
	CHECK_EQ(r.cap->s[0].timestamp_end_ns, 222);
	CHECK_EQ(r.cap->s[0].block_set, 1);
	CHECK_EQ(r.cap->s[0].user_data, 0xabcdef);
	CHECK_EQ(r.cap->s[0].toplevel_clock_cycles, 1000);
	CHECK_EQ(r.cap->s[0].coregroup_clock_cycles, 2000);
	CHECK_EQ(r.cap->s[0].shader_clock_cycles, 3000);
	CHECK_EQ(r.cap->s[0].blocks, 7);
	for (size_t i = 0; i < sizeof(blk) / sizeof(blk[0]); i++) {
		const struct cap_block *b = find_block(r.cap, 0, blk[i].name, blk[i].idx);

		CHECK(b != NULL);
		if (!b)
			continue;
		CHECK_EQ(b->r.timestamp_start_ns, 111);
		CHECK_EQ(b->r.timestamp_end_ns, 222);
		CHECK_EQ(b->r.user_data, 0xabcdef);
		CHECK_EQ(b->r.flags, 0);
		CHECK_EQ(b->r.block_states, blk[i].states);
		CHECK_EQ(b->r.clock, blk[i].clock);
		CHECK_EQ(b->r.cycles, blk[i].clock == 0 ? 1000 : blk[i].clock == 1 ? 2000 : 3000);
		CHECK_EQ(b->r.enable_mask[0], em0);
		CHECK_EQ(b->r.enable_mask[1], 0);
		CHECK_EQ(b->r.nvalues, 64);
		CHECK_EQ(b->values[0], val(0, blk[i].type, blk[i].idx, 0));
		CHECK_EQ(b->values[37], val(0, blk[i].type, blk[i].idx, 37));
		CHECK_EQ(b->values[63], val(0, blk[i].type, blk[i].idx, 63));
		CHECK_EQ(b->r.ncounters, 9);
		CHECK_STR(b->keys[0], "TIMESTAMP_LO");
		CHECK_STR(b->keys[1], "TIMESTAMP_HI");
		CHECK_STR(b->keys[2], "PRFCNT_EN");
		CHECK_STR(b->keys[3], "RESERVED");
		CHECK_EQ(b->kv[2], val(0, blk[i].type, blk[i].idx, 2));
		CHECK_EQ(b->offset, 56 + i * (24 + 512));
	}
	/* G710-family names (libGPUCounters Mali-G710.xml via the reference) */
	CHECK_EQ(kv_get(find_block(r.cap, 0, "cshw", 0), "GPU_ACTIVE", &found),
		 val(0, V6_CSHW, 0, 4));
	CHECK(found);
	CHECK_EQ(kv_get(find_block(r.cap, 0, "cshw", 0), "CSHWIF3_WAIT_BLOCKED", &found),
		 val(0, V6_CSHW, 0, 63));
	CHECK(found);
	CHECK_EQ(kv_get(find_block(r.cap, 0, "shader", 1), "FRAG_ACTIVE", &found),
		 val(0, V6_SHADER, 1, 4));
	CHECK(found);
	CHECK_EQ(kv_get(find_block(r.cap, 0, "shader", 1), "BEATS_WR_LSC_WB", &found),
		 val(0, V6_SHADER, 1, 63));
	CHECK(found);
	CHECK_EQ(kv_get(find_block(r.cap, 0, "tiler", 0), "TILER_ACTIVE", &found),
		 val(0, V6_TILER, 0, 4));
	CHECK(found);
	CHECK_EQ(kv_get(find_block(r.cap, 0, "memsys", 1), "MMU_REQUESTS", &found),
		 val(0, V6_MEMSYS, 1, 4));
	CHECK(found);
	/* memsys 60-63 have no name in the G710 table; FW has none at all */
	kv_get(find_block(r.cap, 0, "memsys", 1), "61", &found);
	CHECK(found);
	kv_get(find_block(r.cap, 0, "fw", 0), "4", &found);
	CHECK(found);
	/* disabled counters are not named */
	kv_get(find_block(r.cap, 0, "memsys", 1), "L2_RD_MSG_IN", &found);
	CHECK(!found);
	CHECK_EQ(r.diag.bytes.decoded, ss);
	CHECK_EQ(r.diag.bytes.skipped, 0);
	CHECK_EQ(r.cap->nsum, 1);
	CHECK_STR(r.cap->sum.gpu, "Mali-G610");
	free(buf);
	run_free(&r);
}

/* RFC v2 numbering, CSG blocks, sample_size computed from the counts. */
static void test_rfc_v2_types(void)
{
	static const uint32_t counts[6] = { 1, 2, 1, 1, 1, 1 };
	const struct { uint8_t type, idx; const char *name; } blk[] = {
		{ V2_FW, 0, "fw" }, { V2_CSG, 0, "csg" }, { V2_CSG, 1, "csg" },
		{ V2_CSHW, 0, "cshw" }, { V2_TILER, 0, "tiler" }, { V2_MEMSYS, 0, "memsys" },
		{ V2_SHADER, 0, "shader" },
	};
	size_t ss = 56 + 7 * (24 + 64 * 8), pos = 56;
	uint8_t *buf = calloc(2, ss);
	struct run r;
	bool found;

	for (int s = 0; s < 2; s++) {
		pos = 56;
		put_sample_hdr(buf + s * ss, 0, 5000 + s, 0, 0, s, 0, 0, 0);
		for (size_t i = 0; i < 7; i++)
			pos += put_block(buf + s * ss + pos, 24, 64, s, blk[i].type, blk[i].idx,
					 0, 0, ~0ull, 0);
	}
	run_init(&r, 2, G610, 64, counts);
	run_decode(&r, HWT_PANTHOR_RAW_SAMPLES, buf, 2 * ss);
	CHECK_EQ(r.cap->errors, 0);
	CHECK_EQ(r.cap->nb, 14);
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < 7; i++) {
			const struct cap_block *b = find_block(r.cap, s, blk[i].name, blk[i].idx);

			CHECK(b != NULL);
			if (b)
				CHECK_EQ(b->values[10], val(s, blk[i].type, blk[i].idx, 10));
		}
	/* the same index names the same counter whatever the numbering */
	CHECK_EQ(kv_get(find_block(r.cap, 1, "cshw", 0), "GPU_ACTIVE", &found),
		 val(1, V2_CSHW, 0, 4));
	CHECK(found);
	CHECK_EQ(r.diag.bytes.decoded, 2 * ss);
	/* CSG blocks in a v6 context: the count is dropped with a warning */
	run_free(&r);
	run_init(&r, 6, G610, 64, counts);
	run_decode(&r, HWT_PANTHOR_RAW_SAMPLES, buf, ss);
	CHECK(r.cap->warnings >= 1);
	CHECK(r.cap->errors >= 1);	/* and type 2..6 now mean other things */
	free(buf);
	run_free(&r);
}

/* States and flags pass through; OVERFLOW, ERROR and OFF are warned. */
static void test_states_flags(void)
{
	static const uint32_t counts[6] = { 0, 0, 0, 0, 0, 2 };
	size_t ss = 56 + 2 * (24 + 64 * 8);
	uint8_t *buf = calloc(3, ss);
	struct run r;

	for (int s = 0; s < 3; s++) {
		uint8_t *p = buf + s * ss;
		uint32_t flags = s == 0 ? 1 : s == 1 ? 2 : 3;

		put_sample_hdr(p, 0, 1000 * (s + 1), 0, flags, 0, 0, 0, 0);
		put_block(p + 56, 24, 64, s, V6_SHADER, 0, s == 1 ? 0x08 : 0x35, 2, 1, 0);
		put_block(p + 56 + 536, 24, 64, s, V6_SHADER, 1, s == 2 ? 0x0a : 0x02, 2, 1, 0);
	}
	run_init(&r, 6, G610, 64, counts);
	run_decode(&r, HWT_PANTHOR_RAW_SAMPLES, buf, 3 * ss);
	CHECK_EQ(r.cap->errors, 0);
	CHECK_EQ(r.cap->nb, 6);
	CHECK_EQ(r.cap->b[0].r.flags, 1);
	CHECK_EQ(r.cap->b[2].r.flags, 2);
	CHECK_EQ(r.cap->b[4].r.flags, 3);
	CHECK_EQ(r.cap->b[0].r.block_states, 0x35);
	CHECK_EQ(r.cap->b[1].r.block_states, 0x02);
	CHECK_EQ(r.cap->b[2].r.block_states, 0x08);
	CHECK_EQ(r.cap->b[5].r.block_states, 0x0a);
	CHECK_EQ(r.cap->sum.overflow, 2);
	CHECK_EQ(r.cap->sum.error, 2);
	CHECK_EQ(r.cap->sum.off_blocks, 3);
	CHECK_EQ(r.cap->sum.unavailable_blocks, 1);
	/* 2 OVERFLOW + 2 ERROR + the first OFF + the first UNAVAILABLE */
	CHECK_EQ(r.cap->warnings, 2 + 2 + 1 + 1);
	free(buf);
	run_free(&r);
}

/* 128 counters (G715): enable_mask[1] bits, names above 64. */
static void test_128_counters(void)
{
	static const uint32_t counts[6] = { 0, 0, 1, 0, 0, 1 };
	size_t bs = 24 + 128 * 8, ss = 56 + 2 * bs;
	uint8_t *buf = calloc(1, ss);
	struct run r;
	bool found;

	put_sample_hdr(buf, 1, 2, 0, 0, 7, 0, 0, 0);
	put_block(buf + 56, 24, 128, 0, V6_CSHW, 0, 0, 0, 0x10, 0x1);
	put_block(buf + 56 + bs, 24, 128, 0, V6_SHADER, 0, 0, 2, 0, (1ull << 20) | (1ull << 63));
	run_init(&r, 6, G715, 128, counts);
	run_decode(&r, HWT_PANTHOR_RAW_SAMPLES, buf, ss);
	CHECK_EQ(r.cap->errors, 0);
	CHECK_EQ(r.cap->nb, 2);
	CHECK_EQ(r.cap->b[0].r.nvalues, 128);
	CHECK_EQ(r.cap->b[0].values[127], val(0, V6_CSHW, 0, 127));
	CHECK_EQ(r.cap->b[0].r.ncounters, 2);
	CHECK_EQ(kv_get(&r.cap->b[0], "GPU_ACTIVE", &found), val(0, V6_CSHW, 0, 4));
	CHECK(found);
	CHECK_EQ(kv_get(&r.cap->b[0], "64", &found), val(0, V6_CSHW, 0, 64));
	CHECK(found);
	CHECK_EQ(r.cap->b[1].r.ncounters, 2);
	CHECK_EQ(kv_get(&r.cap->b[1], "RT_RAYS_STARTED", &found), val(0, V6_SHADER, 0, 84));
	CHECK(found);
	CHECK_EQ(kv_get(&r.cap->b[1], "127", &found), val(0, V6_SHADER, 0, 127));
	CHECK(found);
	CHECK_STR(r.cap->sum.gpu, "Mali-G715");
	free(buf);
	run_free(&r);
}

/* Non-zero must-be-zero bytes are warned and the sample still decoded. */
static void test_padding(void)
{
	static const uint32_t counts[6] = { 0, 0, 1, 0, 0, 0 };
	size_t ss = 56 + 24 + 64 * 8;
	uint8_t *buf = calloc(1, ss);
	struct run r;

	put_sample_hdr(buf, 0, 1, 0, 0, 0, 0, 0, 0);
	buf[18] = 0x5a;				/* sample header pad[1] */
	put_block(buf + 56, 24, 64, 0, V6_CSHW, 0, 0, 0, ~0ull, 0);
	buf[56 + 7] = 0x01;			/* block header pad[3] */
	run_init(&r, 6, G610, 64, counts);
	run_decode(&r, HWT_PANTHOR_RAW_SAMPLES, buf, ss);
	CHECK_EQ(r.cap->errors, 0);
	CHECK_EQ(r.cap->warnings, 2);
	CHECK(strstr(r.cap->last_warn, "padding") != NULL);
	CHECK_EQ(r.cap->nb, 1);
	CHECK_EQ(r.diag.bytes.decoded, ss);
	free(buf);
	run_free(&r);
}

/* A block index beyond its count and unknown types: errors; the rest decodes. */
static void test_bad_blocks(void)
{
	static const uint32_t counts[6] = { 0, 0, 1, 0, 2, 0 };
	size_t bs = 24 + 64 * 8, ss = 56 + 3 * bs;
	uint8_t *buf = calloc(3, ss);
	struct run r;

	for (int s = 0; s < 3; s++) {
		uint8_t *p = buf + s * ss;

		put_sample_hdr(p, 0, 10 + s, 0, 0, 0, 0, 0, 0);
		put_block(p + 56, 24, 64, s, V6_CSHW, 0, 0, 0, ~0ull, 0);
		put_block(p + 56 + bs, 24, 64, s, V6_MEMSYS, 0, 0, 1, ~0ull, 0);
		put_block(p + 56 + 2 * bs, 24, 64, s, V6_MEMSYS, 1, 0, 1, ~0ull, 0);
	}
	buf[ss + 56 + 2 * bs + 1] = 2;		/* sample 1: memsys index 2 of 2 */
	buf[2 * ss + 56 + bs] = 0;		/* sample 2: METADATA (internal) */
	buf[2 * ss + 56 + 2 * bs] = 7;		/* sample 2: no such type */
	run_init(&r, 6, G610, 64, counts);
	run_decode(&r, HWT_PANTHOR_RAW_SAMPLES, buf, 3 * ss);
	CHECK_EQ(r.cap->errors, 3);
	CHECK_EQ(r.cap->last_err_off, 2 * ss + 56 + 2 * bs);
	CHECK(strstr(r.cap->last_err, "unknown block type 7") != NULL);
	CHECK_EQ(r.cap->nb, 3 + 2 + 1);
	CHECK(find_block(r.cap, 2, "cshw", 0) != NULL);
	CHECK(find_block(r.cap, 1, "memsys", 0) != NULL);
	CHECK_EQ(r.diag.bytes.skipped, 3 * bs);
	CHECK_EQ(r.diag.bytes.decoded + r.diag.bytes.skipped, 3 * ss);
	CHECK_EQ(r.cap->sum.bad_samples, 2);
	free(buf);
	run_free(&r);
}

/* A cut sample at the end: blocks that fit still decode, the error names the offset. */
static void test_truncated(void)
{
	static const uint32_t counts[6] = { 0, 0, 1, 1, 0, 0 };
	size_t bs = 24 + 64 * 8, ss = 56 + 2 * bs, n = ss + 56 + bs + 100;
	uint8_t *buf = calloc(2, ss);
	struct run r;

	for (int s = 0; s < 2; s++) {
		put_sample_hdr(buf + s * ss, 0, 10 + s, 0, 0, 0, 0, 0, 0);
		put_block(buf + s * ss + 56, 24, 64, s, V6_CSHW, 0, 0, 0, ~0ull, 0);
		put_block(buf + s * ss + 56 + bs, 24, 64, s, V6_TILER, 0, 0, 1, ~0ull, 0);
	}
	run_init(&r, 6, G610, 64, counts);
	run_decode(&r, HWT_PANTHOR_RAW_SAMPLES, buf, n);
	CHECK_EQ(r.cap->errors, 1);
	CHECK_EQ(r.cap->last_err_off, ss + 56 + bs);
	CHECK_EQ(r.cap->nb, 3);
	CHECK(find_block(r.cap, 1, "cshw", 0) != NULL);
	CHECK_EQ(r.diag.bytes.decoded, ss + 56 + bs);
	CHECK_EQ(r.diag.bytes.skipped, 100);
	/* even the header cut */
	run_free(&r);
	run_init(&r, 6, G610, 64, counts);
	run_decode(&r, HWT_PANTHOR_RAW_SAMPLES, buf, ss + 30);
	CHECK_EQ(r.cap->errors, 1);
	CHECK_EQ(r.cap->last_err_off, ss);
	CHECK_EQ(r.cap->nb, 2);
	CHECK_EQ(r.diag.bytes.skipped, 30);
	free(buf);
	run_free(&r);
}

/* A larger header than the layout knows is skipped past, never misread. */
static void test_larger_headers(void)
{
	static const uint32_t counts[6] = { 0, 0, 1, 0, 0, 1 };
	size_t bs = 40 + 64 * 8, ss = 72 + 2 * bs;
	uint8_t *buf = calloc(1, ss);
	struct run r;

	put_sample_hdr(buf, 3, 4, 0, 0, 99, 0, 0, 0);
	memset(buf + 56, 0xee, 16);		/* unknown trailing header fields */
	put_block(buf + 72, 40, 64, 0, V6_CSHW, 0, 0, 0, ~0ull, 0);
	memset(buf + 72 + 24, 0xee, 16);
	put_block(buf + 72 + bs, 40, 64, 0, V6_SHADER, 0, 0, 2, ~0ull, 0);
	run_init(&r, 6, G610, 64, counts);
	r.priv[HWT_PANTHOR_PRIV_SHS] = 72;
	r.priv[HWT_PANTHOR_PRIV_BHS] = 40;
	run_decode(&r, HWT_PANTHOR_RAW_SAMPLES, buf, ss);
	CHECK_EQ(r.cap->errors, 0);
	CHECK_EQ(r.cap->nb, 2);
	CHECK_EQ(r.cap->b[0].values[0], val(0, V6_CSHW, 0, 0));
	CHECK_EQ(r.cap->b[1].values[63], val(0, V6_SHADER, 0, 63));
	CHECK_EQ(r.cap->b[1].r.user_data, 99);
	free(buf);
	run_free(&r);
}

/* Ring BO with control words in front: wrapped ring order. */
static void test_ring_wrap(void)
{
	static const uint32_t counts[6] = { 0, 0, 1, 0, 0, 0 };
	size_t ss = 56 + 24 + 64 * 8, n = 16 + 4 * ss + 100;	/* 100: page padding */
	uint8_t *buf = calloc(1, n);
	struct run r;

	for (int slot = 0; slot < 4; slot++) {
		put_sample_hdr(buf + 16 + slot * ss, 0, 1000 + slot, 0, 0, 500 + slot, 0, 0, 0);
		put_block(buf + 16 + slot * ss + 56, 24, 64, slot, V6_CSHW, 0, 0, 0, ~0ull, 0);
	}
	put64(buf, 3);		/* extract_idx */
	put64(buf + 8, 1);	/* insert_idx */
	run_init(&r, 6, G610, 64, counts);
	run_decode(&r, HWT_PANTHOR_RAW_RING_CTRL, buf, n);
	CHECK_EQ(r.cap->errors, 0);
	CHECK_EQ(r.cap->nb, 2);
	CHECK_EQ(r.cap->b[0].r.sample, 0);
	CHECK_EQ(r.cap->b[0].r.user_data, 503);
	CHECK_EQ(r.cap->b[0].offset, 16 + 3 * ss + 56);
	CHECK_EQ(r.cap->b[1].r.user_data, 500);
	CHECK_EQ(r.cap->b[1].values[5], val(0, V6_CSHW, 0, 5));
	CHECK_EQ(r.diag.bytes.decoded, 16 + 2 * ss);
	CHECK_EQ(r.diag.bytes.skipped, 2 * ss + 100);
	/* going backwards in time across the wrap is an interval problem, not an error */
	CHECK_EQ(r.cap->warnings, 1);
	run_free(&r);

	/* the same ring with the indices as options; full ring (3 of 4) */
	run_init(&r, 6, G610, 64, counts);
	r.priv[HWT_PANTHOR_PRIV_EXTRACT] = 1;
	r.priv[HWT_PANTHOR_PRIV_INSERT] = 0;
	run_decode(&r, HWT_PANTHOR_RAW_RING, buf + 16, 4 * ss);
	CHECK_EQ(r.cap->nb, 3);
	CHECK_EQ(r.cap->b[0].r.user_data, 501);
	CHECK_EQ(r.cap->b[2].r.user_data, 503);
	CHECK(strstr(r.cap->last_warn, "full") != NULL);
	run_free(&r);

	/* empty ring */
	run_init(&r, 6, G610, 64, counts);
	put64(buf, 2);
	put64(buf + 8, 2);
	run_decode(&r, HWT_PANTHOR_RAW_RING_CTRL, buf, n);
	CHECK_EQ(r.cap->nb, 0);
	CHECK_EQ(r.cap->errors, 0);
	CHECK(strstr(r.cap->last_warn, "empty") != NULL);
	free(buf);
	run_free(&r);
}

/* insert - extract beyond the slot count, and insert behind extract. */
static void test_ring_impossible(void)
{
	static const uint32_t counts[6] = { 0, 0, 1, 0, 0, 0 };
	size_t ss = 56 + 24 + 64 * 8;
	uint8_t *buf = calloc(4, ss);
	struct hwt_panthor_ring plan;
	struct run r;

	for (int slot = 0; slot < 4; slot++) {
		put_sample_hdr(buf + slot * ss, 0, 1000 + slot, 0, 0, 700 + slot, 0, 0, 0);
		put_block(buf + slot * ss + 56, 24, 64, slot, V6_CSHW, 0, 0, 0, ~0ull, 0);
	}
	run_init(&r, 6, G610, 64, counts);
	r.priv[HWT_PANTHOR_PRIV_EXTRACT] = 2;
	r.priv[HWT_PANTHOR_PRIV_INSERT] = 13;	/* 11 outstanding in 4 slots */
	run_decode(&r, HWT_PANTHOR_RAW_RING, buf, 4 * ss);
	CHECK_EQ(r.cap->errors, 1);
	CHECK(strstr(r.cap->last_err, "exceeds") != NULL);
	CHECK_EQ(r.cap->nb, 4);		/* the newest 4: slots 1, 2, 3, 0 */
	CHECK_EQ(r.cap->b[0].r.user_data, 701);
	CHECK_EQ(r.cap->b[3].r.user_data, 700);
	run_free(&r);

	run_init(&r, 6, G610, 64, counts);
	r.priv[HWT_PANTHOR_PRIV_EXTRACT] = 9;
	r.priv[HWT_PANTHOR_PRIV_INSERT] = 5;
	run_decode(&r, HWT_PANTHOR_RAW_RING, buf, 4 * ss);
	CHECK_EQ(r.cap->errors, 1);
	CHECK(strstr(r.cap->last_err, "behind") != NULL);
	CHECK_EQ(r.cap->nb, 0);
	CHECK_EQ(r.diag.bytes.skipped, 4 * ss);
	run_free(&r);

	CHECK_EQ(hwt_panthor_ring__plan(6, 0, 1, &plan, 0, NULL), -1);
	CHECK_EQ(hwt_panthor_ring__plan(8, 6, 2, &plan, 0, NULL), 0);
	CHECK_EQ(plan.first, 6);
	CHECK_EQ(plan.count, 4);
	free(buf);
}

/*
 * --slots larger than the dump: the missing slots are one error, not one per
 * slot (a loop as long as the slot count), and every byte is still counted.
 */
static void test_ring_slots_beyond_dump(void)
{
	static const uint32_t counts[6] = { 0, 0, 1, 0, 0, 0 };
	size_t ss = 56 + 24 + 64 * 8;
	uint8_t *buf = calloc(4, ss);
	struct run r;

	for (int slot = 0; slot < 4; slot++) {
		put_sample_hdr(buf + slot * ss, 0, 1000 + slot, 0, 0, 800 + slot, 0, 0, 0);
		put_block(buf + slot * ss + 56, 24, 64, slot, V6_CSHW, 0, 0, 0, ~0ull, 0);
	}
	/* 2^20 slots, all but one outstanding: slots 0-3 are in the dump */
	run_init(&r, 6, G610, 64, counts);
	r.priv[HWT_PANTHOR_PRIV_SLOTS] = 1u << 20;
	r.priv[HWT_PANTHOR_PRIV_EXTRACT] = 0;
	r.priv[HWT_PANTHOR_PRIV_INSERT] = (1u << 20) - 1;
	run_decode(&r, HWT_PANTHOR_RAW_RING, buf, 4 * ss);
	CHECK_EQ(r.cap->nb, 4);
	CHECK_EQ(r.cap->b[3].r.user_data, 803);
	CHECK_EQ(r.cap->errors, 1);
	CHECK(strstr(r.cap->last_err, "slots 4..1048574") != NULL);
	CHECK_EQ(r.cap->last_err_off, 4 * ss);
	CHECK_EQ(r.cap->sum.bad_samples, (1u << 20) - 1 - 4);
	CHECK_EQ(r.diag.bytes.decoded, 4 * ss);
	CHECK_EQ(r.diag.bytes.skipped, 0);
	run_free(&r);

	/* 8 slots, samples in slots 2-5: 2 and 3 decode, 4 and 5 are missing */
	run_init(&r, 6, G610, 64, counts);
	r.priv[HWT_PANTHOR_PRIV_SLOTS] = 8;
	r.priv[HWT_PANTHOR_PRIV_EXTRACT] = 2;
	r.priv[HWT_PANTHOR_PRIV_INSERT] = 6;
	run_decode(&r, HWT_PANTHOR_RAW_RING, buf, 4 * ss);
	CHECK_EQ(r.cap->nb, 2);
	CHECK_EQ(r.cap->b[0].r.user_data, 802);
	CHECK_EQ(r.cap->b[1].r.user_data, 803);
	CHECK_EQ(r.cap->errors, 1);
	CHECK_EQ(r.diag.bytes.decoded, 2 * ss);
	CHECK_EQ(r.diag.bytes.skipped, 2 * ss);		/* stale slots 0 and 1 */
	free(buf);
	run_free(&r);
}

/* Rates over the gap between timestamp_end_ns; per-cycle figures; aggregates. */
static void test_rates(void)
{
	static const uint32_t counts[6] = { 0, 0, 0, 0, 2, 2 };
	size_t bs = 24 + 64 * 8, ss = 56 + 4 * bs;
	uint8_t *buf = calloc(3, ss);
	struct run r;

	for (int s = 0; s < 3; s++) {
		uint8_t *p = buf + s * ss;

		/* ends 1 ms apart; shader clock 2,000,000 cycles per sample */
		put_sample_hdr(p, 0, 5000000 + 1000000ull * s, 0, 0, 0, 0, 0, 2000000);
		put_block(p + 56, 24, 64, s, V6_MEMSYS, 0, 0, 1, 1ull << 16, 0);
		put_block(p + 56 + bs, 24, 64, s, V6_MEMSYS, 1, 0, 1, 1ull << 16, 0);
		put_block(p + 56 + 2 * bs, 24, 64, s, V6_SHADER, 0, 0, 2, 1ull << 4, 0);
		put_block(p + 56 + 3 * bs, 24, 64, s, V6_SHADER, 1, s == 2 ? 2 : 0, 2, 1ull << 4, 0);
	}
	run_init(&r, 6, G610, 64, counts);
	run_decode(&r, HWT_PANTHOR_RAW_SAMPLES, buf, 3 * ss);
	CHECK_EQ(r.cap->errors, 0);
	CHECK_EQ(r.cap->sum.samples, 3);
	CHECK_EQ(r.cap->sum.span_ns, 2000000);
	CHECK_EQ(r.cap->ntot, 4);
	CHECK_EQ(r.cap->ncnt, 4);	/* one enabled counter per block */
	for (int t = 0; t < r.cap->ncnt; t++) {
		const struct hwt_panthor_block_total *tt = &r.cap->tot[t];
		const struct hwt_panthor_counter *cc = &r.cap->cnt[t];
		uint8_t type = tt->block_type == HWT_PANTHOR_SHADER ? V6_SHADER : V6_MEMSYS;
		uint32_t i = type == V6_SHADER ? 4 : 16;
		uint64_t all = 0, later = 0;

		for (int s = 0; s < 3; s++) {
			all += val(s, type, tt->block_idx, i);
			later += s ? val(s, type, tt->block_idx, i) : 0;
		}
		CHECK_EQ(tt->samples, 3);
		CHECK_EQ(tt->interval_ns, 2000000);
		CHECK_EQ(cc->block_type, tt->block_type);
		CHECK_EQ(cc->block_idx, tt->block_idx);
		CHECK_STR(r.cap->cnt_keys[t], type == V6_SHADER ? "FRAG_ACTIVE" : "L2_RD_MSG_IN");
		CHECK_EQ(cc->total, all);
		/* samples 1 and 2 cover 2 ms: per second = later * 500 */
		CHECK(cc->has_per_second);
		CHECK_EQ(cc->per_second, later * 500);
		if (type == V6_SHADER) {
			CHECK_EQ(tt->cycles, 6000000);
			CHECK(cc->has_per_mcycle);
			CHECK_EQ(cc->per_mcycle, (all * 1000000 + 3000000) / 6000000);
		} else {
			CHECK_EQ(tt->cycles, 0);
			CHECK(!cc->has_per_mcycle);
		}
	}
	CHECK_EQ(r.cap->nagg, 2);
	for (int g = 0; g < r.cap->nagg; g++) {
		const struct hwt_panthor_aggregate *a = &r.cap->agg[g];
		uint8_t type = a->block_type == HWT_PANTHOR_SHADER ? V6_SHADER : V6_MEMSYS;
		uint32_t i = type == V6_SHADER ? 4 : 16;
		uint64_t sum = 0;

		for (int s = 0; s < 3; s++)
			for (int idx = 0; idx < 2; idx++)
				sum += val(s, type, idx, i);
		CHECK_EQ(a->instances, 2);
		CHECK_EQ(a->sum, sum);
		if (type == V6_SHADER)
			CHECK_EQ(a->mean, (sum + 1) / 2);
		else
			CHECK(!a->has_mean);
	}
	run_free(&r);

	/* one sample: no interval, said in words, no division */
	run_init(&r, 6, G610, 64, counts);
	run_decode(&r, HWT_PANTHOR_RAW_SAMPLES, buf, ss);
	CHECK_EQ(r.cap->ntot, 4);
	CHECK(!r.cap->cnt[0].has_per_second);
	CHECK(strstr(r.cap->tot[0].note, "no interval") != NULL);
	CHECK(strstr(r.cap->sum.note, "no interval") != NULL);
	free(buf);
	run_free(&r);
}

/* The --info JSON and the context checks. */
static void test_info(void)
{
	uint64_t priv[HWT_PANTHOR_NPRIV_RAW] = { 0 };
	struct cap *c = calloc(1, sizeof(*c));
	struct hwt_diag d = { .report = cap_report, .ctx = c };
	struct hwt_panthor_info info;
	uint8_t raw[48];

	CHECK_EQ(hwt_panthor_info__parse_json(
		 "{\"counters_per_block\": 64, \"sample_header_size\": 56,\n"
		 " \"block_header_size\": 24, \"sample_size\": 5952, \"flags\": 1,\n"
		 " \"supported_clocks\": 0, \"fw_blocks\": 1, \"cshw_blocks\": 1,\n"
		 " \"tiler_blocks\": 1, \"memsys_blocks\": 4, \"shader_blocks\": 4,\n"
		 " \"gpu_id\": \"0xa867\", \"shader_present\": \"0x50005\", \"layout\": 6}",
		 priv, &d), 0);
	CHECK_EQ(c->errors, 0);
	CHECK_EQ(hwt_panthor_info__from_priv(&info, priv, HWT_PANTHOR_NPRIV, 0x100, &d), 0);
	/* Documentation/panthor.rst worked example: RK3588 with a FW block = 5952 B */
	CHECK_EQ(info.sample_size, 5952);
	CHECK_EQ(info.blocks[HWT_PANTHOR_MEMSYS], 4);
	CHECK_EQ(info.shader_present, 0x50005);
	CHECK_STR(hwt_panthor__gpu_name(info.gpu_id), "Mali-G610");
	priv[HWT_PANTHOR_PRIV_SAMPLE_SIZE] = 0;
	CHECK_EQ(hwt_panthor_info__from_priv(&info, priv, HWT_PANTHOR_NPRIV, 0x100, &d), 0);
	CHECK_EQ(info.sample_size, 5952);
	priv[HWT_PANTHOR_PRIV_SAMPLE_SIZE] = 5416;
	CHECK_EQ(hwt_panthor_info__from_priv(&info, priv, HWT_PANTHOR_NPRIV, 0x100, &d), -1);
	CHECK_EQ(c->errors, 1);
	CHECK_EQ(c->last_err_off, 0x100);	/* at the AUXTRACE_INFO, not the file's start */
	CHECK_EQ(hwt_panthor_info__parse_json("{\"counters_per_block\": 64,, }", priv, &d), -1);
	CHECK_EQ(c->errors, 2);
	CHECK_EQ(c->last_err_off, 26);
	CHECK_EQ(hwt_panthor_info__parse_json("{\"flags\": -1}", priv, &d), -1);
	CHECK_EQ(hwt_panthor_info__parse_json("{\"colour\": 1}", priv, &d), 0);
	CHECK_EQ(c->warnings, 1);
	/* numbers that do not fit are refused, not cut short or saturated */
	priv[HWT_PANTHOR_PRIV_SHADER_PRESENT] = 7;
	CHECK_EQ(hwt_panthor_info__parse_json(
		 "{\"shader_present\": \"0x00000000000000000000000000000000000005\"}", priv, &d),
		 -1);
	CHECK_EQ(hwt_panthor_info__parse_json("{\"shader_present\": 18446744073709551616}", priv,
					      &d), -1);
	CHECK_EQ(priv[HWT_PANTHOR_PRIV_SHADER_PRESENT], 7);
	CHECK_EQ(hwt_panthor_info__parse_json("{\"shader_present\": 18446744073709551615}", priv,
					      &d), 0);
	CHECK_EQ(priv[HWT_PANTHOR_PRIV_SHADER_PRESENT], UINT64_MAX);
	priv[HWT_PANTHOR_PRIV_CPB] = 100000;
	CHECK_EQ(hwt_panthor_info__from_priv(&info, priv, HWT_PANTHOR_NPRIV, 0x100, &d), -1);
	priv[HWT_PANTHOR_PRIV_CPB] = 64;
	priv[HWT_PANTHOR_PRIV_LAYOUT] = 3;
	CHECK_EQ(hwt_panthor_info__from_priv(&info, priv, HWT_PANTHOR_NPRIV, 0x100, &d), -1);

	/* binary perf_info: RFC v2 has csg_blocks at 24 and no sample_size (48 B) */
	memset(raw, 0, sizeof(raw));
	put32(raw + 0, 64);
	put32(raw + 4, 56);
	put32(raw + 8, 24);
	put32(raw + 20, 1);	/* fw */
	put32(raw + 24, 3);	/* csg */
	put32(raw + 40, 2);	/* shader */
	CHECK_EQ(hwt_panthor_layout__get(2)->info_size, 48);
	CHECK_EQ(hwt_panthor_info__from_bytes(&info, hwt_panthor_layout__get(2), raw, 48), 0);
	CHECK_EQ(info.blocks[HWT_PANTHOR_CSG], 3);
	CHECK_EQ(info.blocks[HWT_PANTHOR_SHADER], 2);
	/* v6: sample_size at 12, 44 B */
	memset(raw, 0, sizeof(raw));
	put32(raw + 0, 128);
	put32(raw + 12, 4242);
	put32(raw + 40, 5);	/* shader */
	CHECK_EQ(hwt_panthor_layout__get(6)->info_size, 44);
	CHECK_EQ(hwt_panthor_info__from_bytes(&info, hwt_panthor_layout__get(6), raw, 44), 0);
	CHECK_EQ(info.sample_size, 4242);
	CHECK_EQ(info.blocks[HWT_PANTHOR_SHADER], 5);
	CHECK_EQ(info.counters_per_block, 128);
	CHECK_EQ(hwt_panthor_info__from_bytes(&info, hwt_panthor_layout__get(6), raw, 40), -1);
	free(c);
}

static void test_names(void)
{
	CHECK_STR(hwt_panthor__gpu_name(0xa8670000u), "Mali-G610");
	CHECK_STR(hwt_panthor__gpu_name(0xa867), "Mali-G610");
	CHECK_STR(hwt_panthor__gpu_name(0xa0020000u), "Mali-G710");
	CHECK(hwt_panthor__gpu_name(0x70000000u) == NULL);
	CHECK_STR(hwt_panthor__counter_name(0xa867, HWT_PANTHOR_CSHW, 32), "ITER_FRAG_ACTIVE");
	CHECK_STR(hwt_panthor__counter_name(0xa867, HWT_PANTHOR_MEMSYS, 16), "L2_RD_MSG_IN");
	CHECK_STR(hwt_panthor__counter_name(0xa0030000u, HWT_PANTHOR_MEMSYS, 47),
		  "L2_EXT_WRITE_BEATS");
	CHECK_STR(hwt_panthor__counter_name(0xb0030000u, HWT_PANTHOR_TILER, 12),
		  "PRIM_FACE_CULLED");
	CHECK_STR(hwt_panthor__counter_name(0xa867, HWT_PANTHOR_TILER, 12), "PRIM_CULLED");
	CHECK_STR(hwt_panthor__counter_name(0x12345678u, HWT_PANTHOR_FW, 1), "TIMESTAMP_HI");
	CHECK(hwt_panthor__counter_name(0xa867, HWT_PANTHOR_FW, 4) == NULL);
	CHECK(hwt_panthor__counter_name(0xa867, HWT_PANTHOR_SHADER, 100) == NULL);
}

/*
 * Counters are read in place from an aligned payload and copied from an
 * unaligned one: the same values either way.  summary_only leaves out the
 * key/value list (the values stay); no_summary leaves out report's rows.
 */
static void test_alignment_and_flags(void)
{
	static const uint32_t counts[6] = { 0, 0, 1, 1, 0, 1 };	/* cshw tiler sc */
	size_t ss = 56 + 3 * (24 + 64 * 8), pos = 56;
	uint8_t *buf = calloc(1, ss + 8);
	uint64_t em0 = 0xf00000000000001full;
	struct run r;

	put_sample_hdr(buf, 100, 200, 0, 0, 0, 1000, 1000, 1000);
	pos += put_block(buf + pos, 24, 64, 0, V6_CSHW, 0, 0x15, 0, ~0ull, 0);
	pos += put_block(buf + pos, 24, 64, 0, V6_TILER, 0, 0x15, 1, em0, 0);
	pos += put_block(buf + pos, 24, 64, 0, V6_SHADER, 0, 0x15, 2, ~0ull, 0);
	CHECK_EQ(pos, ss);
	for (int shift = 0; shift <= 1; shift++) {
		memmove(buf + shift, buf, ss);	/* shift 1: every counter unaligned */
		run_init(&r, 6, G610, 64, counts);
		r.priv[HWT_PANTHOR_PRIV_SAMPLE_SIZE] = ss;
		run_decode(&r, HWT_PANTHOR_RAW_SAMPLES, buf + shift, ss);
		CHECK_EQ(r.cap->errors, 0);
		CHECK_EQ(r.cap->nb, 3);
		for (int b = 0; b < r.cap->nb; b++) {
			const struct cap_block *cb = &r.cap->b[b];
			uint8_t type = cb->r.block_type == HWT_PANTHOR_CSHW ? V6_CSHW :
				       cb->r.block_type == HWT_PANTHOR_TILER ? V6_TILER : V6_SHADER;

			CHECK_EQ(cb->r.nvalues, 64);
			for (uint32_t i = 0; i < 64; i++)
				CHECK_EQ(cb->values[i], val(0, type, 0, i));
			CHECK_EQ(cb->r.ncounters, type == V6_TILER ? 9 : 64);
			CHECK_EQ(cb->kv[cb->r.ncounters - 1], val(0, type, 0, 63));
		}
		CHECK(r.cap->ncnt > 0);
		run_free(&r);
	}
	memmove(buf, buf + 1, ss);

	run_init(&r, 6, G610, 64, counts);
	r.priv[HWT_PANTHOR_PRIV_SAMPLE_SIZE] = ss;
	r.summary_only = true;
	run_decode(&r, HWT_PANTHOR_RAW_SAMPLES, buf, ss);
	CHECK_EQ(r.cap->nb, 3);
	CHECK_EQ(r.cap->b[0].r.ncounters, 0);
	CHECK_EQ(r.cap->b[0].values[63], val(0, V6_CSHW, 0, 63));
	CHECK_EQ(r.cap->nsum, 1);
	CHECK(r.cap->ncnt > 0);	/* report's rows are what summary_only is for */
	run_free(&r);

	run_init(&r, 6, G610, 64, counts);
	r.priv[HWT_PANTHOR_PRIV_SAMPLE_SIZE] = ss;
	r.no_summary = true;
	run_decode(&r, HWT_PANTHOR_RAW_SAMPLES, buf, ss);
	CHECK_EQ(r.cap->nb, 3);
	CHECK_EQ(r.cap->b[0].r.ncounters, 64);
	CHECK_EQ(r.cap->nsum, 1);
	CHECK_EQ(r.cap->sum.blocks, 3);
	CHECK_EQ(r.cap->ncnt, 0);
	CHECK_EQ(r.cap->ntot, 0);
	CHECK_EQ(r.cap->nagg, 0);
	run_free(&r);
	free(buf);
}

int main(void)
{
	RUN(test_v6_every_field);
	RUN(test_rfc_v2_types);
	RUN(test_states_flags);
	RUN(test_128_counters);
	RUN(test_padding);
	RUN(test_bad_blocks);
	RUN(test_truncated);
	RUN(test_larger_headers);
	RUN(test_ring_wrap);
	RUN(test_ring_impossible);
	RUN(test_ring_slots_beyond_dump);
	RUN(test_rates);
	RUN(test_info);
	RUN(test_names);
	RUN(test_alignment_and_flags);
	return check_done("panthor");
}
