// SPDX-License-Identifier: GPL-2.0
/*
 * test_cxl_hmu.c - CXL HMU payload decoder and HDM math.
 *
 * Packets are built byte by byte here, and every expected unit, count, DPA and
 * HPA is written out by hand from the RFC (entry = unit << width | count,
 * DPA = unit << hotness_granual) and the CXL modulo-interleave definition.
 */
#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "cxl_hmu/cxl_hmu_internal.h"
#include "core/decoder_internal.h"

#define MAXREC	4096

struct cap {
	struct hwt_cxl_hmu_unit u[MAXREC];
	uint64_t uoff[MAXREC];
	size_t nu;
	struct hwt_cxl_hmu_packet p[MAXREC];
	uint64_t poff[MAXREC];
	size_t np;
	struct hwt_cxl_hmu_summary sum;
	int nsum;
	struct hwt_cxl_hmu_hot hot[64];
	size_t nhot;
	char pmu[64];
	uint64_t total_units;	/* counted even past MAXREC */
};

static struct cap cap, cap2;

static void cap_record(void *ctx, const struct hwt_record *rec)
{
	struct cap *c = ctx;

	if (rec->type == &hwt_rt_cxl_hmu_unit) {
		const struct hwt_cxl_hmu_unit *u = rec->data;

		c->total_units++;
		if (c->nu < MAXREC) {
			c->uoff[c->nu] = rec->offset;
			c->u[c->nu] = *u;
			c->u[c->nu++].pmu = NULL;	/* lives in the decoder state */
			snprintf(c->pmu, sizeof(c->pmu), "%s", u->pmu);
		}
	} else if (rec->type == &hwt_rt_cxl_hmu_packet) {
		if (c->np < MAXREC) {
			c->poff[c->np] = rec->offset;
			c->p[c->np++] = *(const struct hwt_cxl_hmu_packet *)rec->data;
		}
	} else if (rec->type == &hwt_rt_cxl_hmu_summary) {
		c->sum = *(const struct hwt_cxl_hmu_summary *)rec->data;
		c->nsum++;
	} else if (rec->type == &hwt_rt_cxl_hmu_hot) {
		if (c->nhot < 64)
			c->hot[c->nhot++] = *(const struct hwt_cxl_hmu_hot *)rec->data;
	}
}

struct errs {
	int n;
	struct hwt_error last;
	struct hwt_error first;
};

static struct errs errs;

static void err_report(void *ctx, const struct hwt_error *e)
{
	struct errs *x = ctx;

	if (!x->n++)
		x->first = *e;
	x->last = *e;
}

/* --- byte builders (independent of the decoder) --------------------------- */

struct buf {
	uint8_t b[1 << 16];
	size_t n;
};

static struct buf buf;

static void put64(struct buf *b, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		b->b[b->n++] = (uint8_t)(v >> (8 * i));
}

static void put_packet(struct buf *b, uint64_t units, uint64_t width, uint64_t hdr1,
		       const uint64_t *e, size_t n)
{
	put64(b, units | width << 16);
	put64(b, hdr1);
	for (size_t i = 0; i < n; i++)
		put64(b, e[i]);
}

/* --- decoder driving ------------------------------------------------------ */

static struct hwt_diag diag;
static struct hwt_attr attr;

static void reset(void)
{
	memset(&cap, 0, sizeof(cap));
	memset(&errs, 0, sizeof(errs));
	memset(&diag, 0, sizeof(diag));
	diag.report = err_report;
	diag.ctx = &errs;
	diag.file = "t.data";
	buf.n = 0;
}

static void *mk(uint32_t type, uint64_t config1, bool have_attr, const struct hwt_opt *opts,
		uint32_t nopts)
{
	struct hwt_aux_ctx ctx = {
		.auxtrace_type = type,
		.pmu_name = "cxl_hmu_mem0.0.0",
		.opts = opts,
		.nopts = nopts,
	};

	memset(&attr, 0, sizeof(attr));
	attr.attr.config1 = config1;
	if (have_attr)
		ctx.attr = &attr;
	return hwt_cxl_hmu_decoder.new(&ctx, &diag);
}

static unsigned int one_cpu(void)
{
	return 1;
}

static unsigned int two_cpus(void)
{
	return 2;
}

/* the threads of this process, from /proc/self/task */
static int nthreads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/*
 * nthreads() once it is @want, or after two seconds: a joined thread may
 * still be listed for a moment (its exit wakes the joiner before it is gone)
 */
static int nthreads_settled(int want)
{
	int n = nthreads();

	for (int i = 0; i < 2000 && n != want; i++) {
		usleep(1000);
		n = nthreads();
	}
	return n;
}

/*
 * report's ranking (summary_only, the default 256M budget) counts on two
 * worker threads, started with the decoder, unless the session says the
 * process has one CPU: then the decoding thread counts alone.
 */
static void test_rank_threads(void)
{
	unsigned int (*cpus[3])(void) = { NULL, two_cpus, one_cpu };
	const int want[3] = { 3, 3, 1 };

	CHECK_EQ(nthreads_settled(1), 1);
	for (int i = 0; i < 3; i++) {
		struct hwt_aux_ctx ctx = { .auxtrace_type = 7, .pmu_name = "cxl_hmu_mem0.0.0",
					   .attr = &attr, .summary_only = true, .cpus = cpus[i] };
		void *st;

		memset(&attr, 0, sizeof(attr));
		attr.attr.config1 = 12ULL << 32;
		st = hwt_cxl_hmu_decoder.new(&ctx, &diag);
		CHECK(st != NULL);
		CHECK_EQ(nthreads(), want[i]);
		hwt_cxl_hmu_decoder.free(st);
		CHECK_EQ(nthreads_settled(1), 1);
	}
}

/*
 * Feed one AUXTRACE record like the session does: pieces of at most @piece
 * bytes, the unconsumed rest presented again, the window grown when nothing
 * was consumed.
 */
static void feed(void *st, struct cap *c, const uint8_t *data, size_t n, size_t piece,
		 uint64_t file_off)
{
	struct hwt_emit e = { .record = cap_record, .ctx = c, .diag = &diag };
	size_t pos = 0, extra = 0;
	bool first = true;

	for (;;) {
		size_t win = n - pos;
		struct hwt_chunk ch;
		size_t used;

		if (win > piece + extra)
			win = piece + extra;
		ch = (struct hwt_chunk){
			.data = data + pos, .size = win, .file_offset = file_off + pos,
			.last = pos + win == n, .first = first, .cpu = 3, .tid = -1,
			.time = 777,
		};
		used = hwt_cxl_hmu_decoder.decode(st, &ch, &e);
		CHECK(used <= win);
		if (ch.last) {
			CHECK_EQ(used, win);
			return;
		}
		extra = used ? 0 : extra + piece;
		pos += used;
		first = false;
	}
}

static void done(void *st, struct cap *c)
{
	struct hwt_emit e = { .record = cap_record, .ctx = c, .diag = &diag };

	hwt_cxl_hmu_decoder.finish(st, &e);
	hwt_cxl_hmu_decoder.free(st);
}

/* --- tests ---------------------------------------------------------------- */

/* The RFC documentation's dump: "Header 0: units: 29c counter_width 10", entries 283, 10364. */
static void test_rfc_example_width16(void)
{
	const uint64_t e[] = { 0x0000000000000283ULL, 0x0000000000010364ULL };
	void *st;

	reset();
	st = mk(7, 12ULL << 32 | 1024, true, NULL, 0);
	CHECK(st);
	put_packet(&buf, 2, 0x10, 0xdeadbeef, e, 2);
	feed(st, &cap, buf.b, buf.n, 1 << 20, 0x1000);
	CHECK_EQ(cap.np, 1);
	CHECK_EQ(cap.p[0].units, 2);
	CHECK_EQ(cap.p[0].counter_width, 16);
	CHECK_EQ(cap.p[0].hdr0, 0x100002);
	CHECK_EQ(cap.p[0].hdr1, 0xdeadbeef);
	CHECK_EQ(cap.p[0].cpu, 3);
	CHECK_EQ(cap.poff[0], 0x1000);
	CHECK_EQ(cap.nu, 2);
	CHECK_EQ(cap.u[0].unit, 0);
	CHECK_EQ(cap.u[0].count, 0x283);
	CHECK_EQ(cap.u[0].dpa, 0);
	CHECK_EQ(cap.u[1].unit, 1);
	CHECK_EQ(cap.u[1].count, 0x364);
	CHECK_EQ(cap.u[1].dpa, 0x1000);		/* 1 << 12 */
	CHECK_EQ(cap.u[1].raw, 0x10364);
	CHECK_EQ(cap.u[1].counter_width, 16);
	CHECK_EQ(cap.u[1].cpu, 3);
	CHECK_EQ(cap.u[1].time, 777);
	CHECK(!cap.u[1].has_hpa);
	CHECK_EQ(cap.uoff[0], 0x1010);
	CHECK_EQ(cap.uoff[1], 0x1018);
	CHECK_STR(cap.pmu, "cxl_hmu_mem0.0.0");
	CHECK_EQ(diag.bytes.decoded, 32);
	CHECK_EQ(diag.bytes.skipped, 0);
	CHECK_EQ(errs.n, 0);
	done(st, &cap);
	CHECK_EQ(cap.nsum, 1);
	CHECK_EQ(cap.sum.packets, 1);
	CHECK_EQ(cap.sum.units, 2);
	CHECK_EQ(cap.sum.counter_width, 16);
	CHECK_EQ(cap.sum.hotness_granual, 12);
}

static void test_other_widths(void)
{
	const uint64_t w10[] = { 0xabffULL, 0x400ULL };		/* 0x2a<<10|0x3ff, 1<<10|0 */
	const uint64_t w32[] = { 0x00012345deadbeefULL };
	const uint64_t w64[] = { 0xffffULL };
	void *st;

	reset();
	st = mk(7, 21ULL << 32, true, NULL, 0);		/* hotness_granual 21: 2 MiB units */
	put_packet(&buf, 2, 10, 0xdeadbeef, w10, 2);
	put_packet(&buf, 1, 32, 0xdeadbeef, w32, 1);
	put_packet(&buf, 1, 64, 0xdeadbeef, w64, 1);
	feed(st, &cap, buf.b, buf.n, 1 << 20, 0);
	CHECK_EQ(cap.np, 3);
	CHECK_EQ(cap.nu, 4);
	CHECK_EQ(cap.u[0].unit, 0x2a);
	CHECK_EQ(cap.u[0].count, 0x3ff);
	CHECK_EQ(cap.u[0].dpa, 0x5400000);		/* 0x2a * 0x200000 */
	CHECK_EQ(cap.u[1].unit, 1);
	CHECK_EQ(cap.u[1].count, 0);
	CHECK_EQ(cap.u[1].dpa, 0x200000);
	CHECK_EQ(cap.u[2].unit, 0x12345);
	CHECK_EQ(cap.u[2].count, 0xdeadbeef);
	CHECK_EQ(cap.u[2].dpa, 0x2468a00000ULL);	/* 0x12345 * 0x200000 */
	CHECK_EQ(cap.u[2].counter_width, 32);
	CHECK_EQ(cap.u[3].unit, 0);
	CHECK_EQ(cap.u[3].count, 0xffff);
	CHECK_EQ(diag.bytes.decoded, buf.n);
	CHECK_EQ(errs.n, 0);
	done(st, &cap);
}

static void test_hdm_parse(void)
{
	struct hwt_cxl_hdm h;
	char err[200];

	CHECK_EQ(hwt_cxl_hdm__parse("base=4G,size=0xc0000000,ways=3,granularity=1K,pos=2", &h,
				    err, sizeof(err)), 0);
	CHECK_EQ(h.base, 0x100000000ULL);
	CHECK_EQ(h.size, 0xc0000000ULL);
	CHECK_EQ(h.ways, 3);
	CHECK_EQ(h.granularity, 1024);
	CHECK_EQ(h.pos, 2);
	CHECK_EQ(h.dpa_base, 0);
	/* 1 GiB is not a multiple of 3 * 1024 */
	CHECK_EQ(hwt_cxl_hdm__parse("base=4G,size=1G,ways=3,granularity=1024,pos=2", &h,
				    err, sizeof(err)), -1);
	CHECK(strstr(err, "size"));
	CHECK_EQ(hwt_cxl_hdm__parse("base=0,size=3G,ways=5,granularity=256", &h, err,
				    sizeof(err)), -1);
	CHECK(strstr(err, "ways"));
	CHECK_EQ(hwt_cxl_hdm__parse("base=0,size=1G,ways=2,granularity=300", &h, err,
				    sizeof(err)), -1);
	CHECK(strstr(err, "granularity"));
	CHECK_EQ(hwt_cxl_hdm__parse("base=0,size=1G,ways=2,granularity=32768", &h, err,
				    sizeof(err)), -1);
	CHECK(strstr(err, "granularity"));
	CHECK_EQ(hwt_cxl_hdm__parse("base=0,size=1G,ways=2,pos=2", &h, err, sizeof(err)), -1);
	CHECK(strstr(err, "pos"));
	CHECK_EQ(hwt_cxl_hdm__parse("base=0,size=1G,colour=2", &h, err, sizeof(err)), -1);
	CHECK(strstr(err, "colour"));
	CHECK_EQ(hwt_cxl_hdm__parse("base=0x,size=1G", &h, err, sizeof(err)), -1);
	CHECK(strstr(err, "base"));
	CHECK_EQ(hwt_cxl_hdm__parse("size=1G", &h, err, sizeof(err)), -1);
	CHECK(strstr(err, "base"));
	CHECK_EQ(hwt_cxl_hdm__parse("base=1,size=99999999999999999999", &h, err, sizeof(err)),
		 -1);
	CHECK_EQ(hwt_cxl_hdm__parse("base=0xffffffffffffff00,size=1K", &h, err, sizeof(err)), -1);
	CHECK_EQ(hwt_cxl_hdm__parse("", &h, err, sizeof(err)), -1);
	/* sysfs names and defaults (ways 1, pos 0) */
	CHECK_EQ(hwt_cxl_hdm__parse("start=0x1000000000,size=16M,dpa_base=256M", &h, err,
				    sizeof(err)), 0);
	CHECK_EQ(h.base, 0x1000000000ULL);
	CHECK_EQ(h.size, 16ULL << 20);
	CHECK_EQ(h.ways, 1);
	CHECK_EQ(h.pos, 0);
	CHECK_EQ(h.dpa_base, 0x10000000);
}

/*
 * CXL modulo interleave: the device's granule g (DPA offset / G) sits at HPA
 * granule g * ways + pos; the byte offset within a granule is kept.
 */
static void test_hpa_math(void)
{
	struct hwt_cxl_hdm h;
	char err[200];
	uint64_t hpa = 0;

	/* 1 way: HPA = base + DPA */
	CHECK_EQ(hwt_cxl_hdm__parse("base=0x100000000,size=1G", &h, err, sizeof(err)), 0);
	CHECK(hwt_cxl_hdm__dpa_to_hpa(&h, 0x12345, &hpa));
	CHECK_EQ(hpa, 0x100012345ULL);
	CHECK(!hwt_cxl_hdm__dpa_to_hpa(&h, 0x40000000, &hpa));	/* past 1 GiB */

	/* 2 ways, 256 B, pos 1: DPA 0x1234 = granule 0x12 + 0x34; (0x12*2+1)*0x100 = 0x2500 */
	CHECK_EQ(hwt_cxl_hdm__parse("base=0x200000000,size=2G,ways=2,granularity=256,pos=1", &h,
				    err, sizeof(err)), 0);
	CHECK(hwt_cxl_hdm__dpa_to_hpa(&h, 0x1234, &hpa));
	CHECK_EQ(hpa, 0x200002534ULL);
	CHECK(hwt_cxl_hdm__dpa_to_hpa(&h, 0x3fffffff, &hpa));	/* last byte of 1 GiB share */
	CHECK_EQ(hpa, 0x200000000ULL + 0x7fffffffULL);		/* (0x3fffff*2+1)*256+0xff */
	CHECK(!hwt_cxl_hdm__dpa_to_hpa(&h, 0x40000000, &hpa));

	/* 3 ways, 1 KiB, pos 2: DPA 0x5010 = granule 20 + 0x10; (20*3+2)*1024 = 0xf800 */
	CHECK_EQ(hwt_cxl_hdm__parse("base=0x1000000000,size=0xc0000000,ways=3,"
				    "granularity=1024,pos=2", &h, err, sizeof(err)), 0);
	CHECK(hwt_cxl_hdm__dpa_to_hpa(&h, 0x5010, &hpa));
	CHECK_EQ(hpa, 0x100000f810ULL);

	/* 8 ways, 4 KiB, pos 5: DPA 0x3000abc = granule 0x3000 + 0xabc; (0x3000*8+5)*0x1000 */
	CHECK_EQ(hwt_cxl_hdm__parse("base=0x4000000000,size=8G,ways=8,granularity=4096,pos=5",
				    &h, err, sizeof(err)), 0);
	CHECK(hwt_cxl_hdm__dpa_to_hpa(&h, 0x3000abc, &hpa));
	CHECK_EQ(hpa, 0x4018005abcULL);
	CHECK(!hwt_cxl_hdm__dpa_to_hpa(&h, 0x40000000, &hpa));	/* share is 1 GiB */

	/* dpa_base: DPA 0x10000100 is offset 0x100 of the decoder */
	CHECK_EQ(hwt_cxl_hdm__parse("base=0x100000000,size=1G,dpa_base=0x10000000", &h, err,
				    sizeof(err)), 0);
	CHECK(!hwt_cxl_hdm__dpa_to_hpa(&h, 0xfffffff, &hpa));
	CHECK(hwt_cxl_hdm__dpa_to_hpa(&h, 0x10000100, &hpa));
	CHECK_EQ(hpa, 0x100000100ULL);
}

static void test_decoder_hpa(void)
{
	const struct hwt_opt opts[] = {
		{ "hdm", "base=0x200000000,size=2M,ways=2,granularity=256,pos=1" },
		{ "granual", "8" },
	};
	/* units 0x12 and 0x1000, width 16 */
	const uint64_t e[] = { 0x12ULL << 16 | 7, 0x1000ULL << 16 | 9 };
	void *st;

	reset();
	st = mk(7, 12ULL << 32, true, opts, 2);		/* the option beats config1 */
	CHECK(st);
	put_packet(&buf, 2, 16, 0xdeadbeef, e, 2);
	feed(st, &cap, buf.b, buf.n, 1 << 20, 0);
	CHECK_EQ(cap.nu, 2);
	CHECK_EQ(cap.u[0].dpa, 0x1200);			/* 0x12 << 8 */
	CHECK(cap.u[0].has_hpa);
	CHECK_EQ(cap.u[0].hpa, 0x200002500ULL);		/* (0x12*2+1)*0x100 */
	CHECK_EQ(cap.u[1].dpa, 0x100000);		/* 1 MiB: past the 1 MiB share */
	CHECK(!cap.u[1].has_hpa);
	done(st, &cap);
	CHECK_EQ(cap.sum.hotness_granual, 8);
	CHECK_EQ(cap.nhot, 2);
	CHECK_EQ(cap.hot[0].unit, 0x1000);		/* count 9 beats 7 */
	CHECK(!cap.hot[0].has_hpa);
	CHECK_EQ(cap.hot[1].unit, 0x12);
	CHECK(cap.hot[1].has_hpa);
	CHECK_EQ(cap.hot[1].hpa, 0x200002500ULL);
}

static void test_bad_hdr1(void)
{
	const uint64_t e[] = { 5ULL << 16 | 1 };
	void *st;

	reset();
	st = mk(7, 12ULL << 32, true, NULL, 0);
	put_packet(&buf, 1, 16, 0xcafef00d, e, 1);
	feed(st, &cap, buf.b, buf.n, 1 << 20, 0x200);
	CHECK_EQ(cap.nu, 1);
	CHECK_EQ(cap.u[0].unit, 5);
	CHECK_EQ(cap.p[0].hdr1, 0xcafef00d);
	CHECK_EQ(errs.n, 1);
	CHECK_EQ(diag.warnings, 1);
	CHECK_EQ(diag.errors, 0);
	CHECK_EQ(errs.last.offset, 0x208);
	CHECK(strstr(errs.last.msg, "cafef00d"));
	CHECK_EQ(diag.bytes.decoded, 24);
	done(st, &cap);
}

static void test_overclaim(void)
{
	const uint64_t e[] = { 1ULL << 16 | 1, 2ULL << 16 | 2 };
	void *st;

	reset();
	st = mk(7, 12ULL << 32, true, NULL, 0);
	put_packet(&buf, 2, 16, 0xdeadbeef, e, 2);	/* good: 32 bytes */
	put_packet(&buf, 5, 16, 0xdeadbeef, e, 2);	/* claims 5, has 2 */
	feed(st, &cap, buf.b, buf.n, 1 << 20, 0x100);
	CHECK_EQ(cap.nu, 2);
	CHECK_EQ(cap.np, 1);
	CHECK_EQ(diag.errors, 1);
	CHECK_EQ(errs.last.offset, 0x100 + 32);
	CHECK_STR(errs.last.rtype, "cxl_hmu packet");
	CHECK(strstr(errs.last.msg, "5 units"));
	CHECK(strstr(errs.last.msg, "only 2 entries"));
	CHECK_EQ(diag.bytes.decoded, 32);
	CHECK_EQ(diag.bytes.skipped, 32);
	done(st, &cap);
	CHECK_EQ(cap.sum.bad_packets, 1);

	/*
	 * In pieces: the first piece holds the good packet and the bad header;
	 * the bad packet's entries are never emitted.
	 */
	reset();
	st = mk(7, 12ULL << 32, true, NULL, 0);
	put_packet(&buf, 2, 16, 0xdeadbeef, e, 2);
	put_packet(&buf, 5, 16, 0xdeadbeef, e, 2);
	feed(st, &cap, buf.b, buf.n, 48, 0x100);
	CHECK_EQ(cap.nu, 2);
	CHECK_EQ(diag.errors, 1);
	CHECK_EQ(errs.last.offset, 0x100 + 32);
	CHECK_EQ(diag.bytes.decoded, 32);
	CHECK_EQ(diag.bytes.skipped, 32);
	done(st, &cap);
}

/* A record whose last piece never came: the next record (first) starts clean. */
static void test_first_resets(void)
{
	const uint64_t e[] = { 1ULL << 16 | 1, 2ULL << 16 | 2 };
	struct hwt_emit em = { .record = cap_record, .ctx = &cap, .diag = &diag };
	struct hwt_chunk c = { .first = true, .cpu = 0 };
	void *st;

	reset();
	st = mk(7, 12ULL << 32, true, NULL, 0);
	put_packet(&buf, 0, 16, 0xdeadbeef, NULL, 0);	/* lost framing, not last */
	c.data = buf.b;
	c.size = buf.n;
	CHECK_EQ(hwt_cxl_hmu_decoder.decode(st, &c, &em), 16);
	CHECK_EQ(diag.errors, 1);
	buf.n = 0;
	put_packet(&buf, 2, 16, 0xdeadbeef, e, 2);
	feed(st, &cap, buf.b, buf.n, 1 << 20, 0x100);
	CHECK_EQ(cap.nu, 2);

	/* a packet larger than its piece, then a new record */
	put_packet(&buf, 9, 16, 0xdeadbeef, e, 2);	/* 9 claimed: 7 never come */
	c.data = buf.b + 32;
	c.size = 32;
	c.file_offset = 0x200;
	CHECK_EQ(hwt_cxl_hmu_decoder.decode(st, &c, &em), 32);
	CHECK_EQ(cap.nu, 4);
	feed(st, &cap, buf.b, 32, 1 << 20, 0x300);
	CHECK_EQ(diag.errors, 2);
	CHECK_EQ(errs.last.offset, 0x200);
	CHECK_EQ(cap.nu, 6);
	CHECK_EQ(cap.u[4].unit, 1);
	CHECK_EQ(cap.uoff[4], 0x310);
	done(st, &cap);
}

static void test_zero_units_and_bad_width(void)
{
	const uint64_t e[] = { 1ULL << 16 | 1, 2ULL << 16 | 2 };
	void *st;
	size_t first_len;

	reset();
	st = mk(7, 12ULL << 32, true, NULL, 0);
	put_packet(&buf, 2, 16, 0xdeadbeef, e, 2);
	put_packet(&buf, 0, 16, 0xdeadbeef, NULL, 0);	/* zero units: framing lost */
	put_packet(&buf, 2, 16, 0xdeadbeef, e, 2);	/* not decodable any more */
	first_len = buf.n;
	feed(st, &cap, buf.b, first_len, 1 << 20, 0);
	CHECK_EQ(cap.nu, 2);
	CHECK_EQ(diag.errors, 1);
	CHECK_EQ(errs.last.offset, 32);
	CHECK(strstr(errs.last.msg, "0 units"));
	CHECK_EQ(diag.bytes.decoded, 32);
	CHECK_EQ(diag.bytes.skipped, 16 + 32);

	/* the next AUXTRACE record starts afresh */
	feed(st, &cap, buf.b, 32, 1 << 20, 0x1000);
	CHECK_EQ(cap.nu, 4);

	/* width 0 and width 65, in small pieces: the whole rest of the record is skipped */
	buf.n = 0;
	put_packet(&buf, 2, 0, 0xdeadbeef, e, 2);
	put_packet(&buf, 2, 16, 0xdeadbeef, e, 2);
	feed(st, &cap, buf.b, buf.n, 16, 0x2000);
	CHECK_EQ(cap.nu, 4);
	CHECK_EQ(diag.errors, 2);
	CHECK_EQ(errs.last.offset, 0x2000);
	buf.n = 0;
	put_packet(&buf, 1, 65, 0xdeadbeef, e, 1);
	feed(st, &cap, buf.b, buf.n, 1 << 20, 0x3000);
	CHECK_EQ(diag.errors, 3);
	CHECK(strstr(errs.last.msg, "counter width"));
	CHECK_EQ(diag.bytes.decoded, 64);
	CHECK_EQ(diag.bytes.skipped, 48 + 64 + 24);
	done(st, &cap);
	CHECK_EQ(cap.sum.bad_packets, 3);
	CHECK_EQ(cap.sum.packets, 2);
}

static void test_trailing(void)
{
	const uint64_t e[] = { 1ULL << 16 | 1 };
	void *st;

	reset();
	st = mk(7, 12ULL << 32, true, NULL, 0);
	put_packet(&buf, 1, 16, 0xdeadbeef, e, 1);
	buf.n += 4;					/* perf's padding, not a multiple of 8 */
	feed(st, &cap, buf.b, buf.n, 1 << 20, 0);
	CHECK_EQ(cap.nu, 1);
	CHECK_EQ(diag.warnings, 1);
	CHECK_EQ(diag.errors, 0);
	CHECK_EQ(errs.last.offset, 24);
	CHECK_EQ(diag.bytes.decoded, 24);
	CHECK_EQ(diag.bytes.skipped, 4);
	buf.n += 8;					/* 12 bytes: half a header */
	feed(st, &cap, buf.b, buf.n, 1 << 20, 0);
	CHECK_EQ(diag.errors, 1);
	CHECK_EQ(diag.bytes.skipped, 4 + 12);
	done(st, &cap);
}

/*
 * Same records, offsets and byte counts whatever the piece size, each checked
 * against the entry as written: packet k starts 16 * k header bytes plus the
 * entries before it after 0x40, entry i sits at 0x40 + 16 * (k + 1) + 8 * i.
 */
static void test_pieces(void)
{
	static const size_t pieces[] = { 1 << 20, 8, 16, 24, 40, 100, 1000 };
	static const uint32_t first[4] = { 0, 3, 203, 204 };	/* first entry of each packet */
	uint64_t e[300];
	void *st;
	size_t n;

	reset();
	for (int i = 0; i < 300; i++)
		e[i] = (uint64_t)(i * 7 + 1) << 12 | (uint64_t)(i & 0xfff);
	put_packet(&buf, 3, 12, 0xdeadbeef, e, 3);
	put_packet(&buf, 200, 12, 0xdeadbeef, e + 3, 200);
	put_packet(&buf, 1, 12, 0xdeadbeef, e + 203, 1);
	put_packet(&buf, 96, 12, 0xdeadbeef, e + 204, 96);
	n = buf.n;
	CHECK_EQ(n, 4 * 16 + 300 * 8);

	for (size_t k = 0; k < sizeof(pieces) / sizeof(pieces[0]); k++) {
		uint32_t bad = 0;

		memset(&cap2, 0, sizeof(cap2));
		memset(&diag.bytes, 0, sizeof(diag.bytes));
		st = mk(7, 12ULL << 32, true, NULL, 0);
		feed(st, &cap2, buf.b, n, pieces[k], 0x40);
		hwt_cxl_hmu_decoder.free(st);
		CHECK_EQ(cap2.nu, 300);
		CHECK_EQ(cap2.np, 4);
		CHECK_STR(cap2.pmu, "cxl_hmu_mem0.0.0");
		for (uint32_t i = 0; i < 300 && i < cap2.nu; i++) {
			const struct hwt_cxl_hmu_unit *u = &cap2.u[i];
			uint32_t pk = i < 3 ? 0 : i < 203 ? 1 : i < 204 ? 2 : 3;

			bad += u->unit != i * 7 + 1 || u->count != (i & 0xfff) ||
			       u->dpa != (uint64_t)(i * 7 + 1) << 12 || u->raw != e[i] ||
			       u->counter_width != 12 || u->cpu != 3 || u->time != 777 ||
			       u->has_hpa || cap2.uoff[i] != 0x40 + 16 * (pk + 1) + 8 * i;
		}
		CHECK_EQ(bad, 0);
		for (uint32_t p = 0; p < 4 && p < cap2.np; p++) {
			uint32_t units = (p == 3 ? 300 : first[p + 1]) - first[p];

			CHECK_EQ(cap2.poff[p], 0x40 + 16 * p + 8 * first[p]);
			CHECK_EQ(cap2.p[p].units, units);
			CHECK_EQ(cap2.p[p].hdr0, units | 12 << 16);
		}
		CHECK_EQ(diag.bytes.decoded, n);
		CHECK_EQ(diag.bytes.skipped, 0);
	}
	CHECK_EQ(errs.n, 0);
}

/* A packet larger than the piece, cut short by the end of its record. */
static void test_big_packet_truncated(void)
{
	uint64_t e[40];
	void *st;

	reset();
	for (int i = 0; i < 40; i++)
		e[i] = (uint64_t)i << 16 | 1;
	put_packet(&buf, 50, 16, 0xdeadbeef, e, 40);
	buf.n += 4;
	st = mk(7, 12ULL << 32, true, NULL, 0);
	feed(st, &cap, buf.b, buf.n, 64, 0);
	CHECK_EQ(diag.errors, 1);
	CHECK_EQ(errs.last.offset, 0);
	CHECK(strstr(errs.last.msg, "50 units"));
	CHECK_EQ(diag.bytes.decoded + diag.bytes.skipped, buf.n);
	done(st, &cap);
	CHECK_EQ(cap.sum.bad_packets, 1);
}

static void test_top_n(void)
{
	/* unit 9: 30; unit 3: 15+5 = 20; unit 5: 10+10 = 20; unit 1: 1 */
	const uint64_t a[] = { 5ULL << 16 | 10, 3ULL << 16 | 15, 1ULL << 16 | 1 };
	const uint64_t b[] = { 9ULL << 16 | 30, 5ULL << 16 | 10, 3ULL << 16 | 5 };
	const struct hwt_opt top3[] = { { "top", "3" } };
	const struct hwt_opt top0[] = { { "top", "0" } };
	void *st;

	reset();
	st = mk(7, 12ULL << 32, true, top3, 1);
	put_packet(&buf, 3, 16, 0xdeadbeef, a, 3);
	put_packet(&buf, 3, 16, 0xdeadbeef, b, 3);
	feed(st, &cap, buf.b, buf.n, 1 << 20, 0);
	done(st, &cap);
	CHECK_EQ(cap.sum.units, 6);
	CHECK_EQ(cap.sum.packets, 2);
	CHECK_EQ(cap.sum.distinct_units, 4);
	CHECK_EQ(cap.nhot, 3);
	CHECK_EQ(cap.hot[0].rank, 1);
	CHECK_EQ(cap.hot[0].unit, 9);
	CHECK_EQ(cap.hot[0].total_count, 30);
	CHECK_EQ(cap.hot[0].reports, 1);
	CHECK_EQ(cap.hot[0].dpa, 0x9000);
	CHECK_EQ(cap.hot[1].unit, 3);			/* tie at 20: lower unit first */
	CHECK_EQ(cap.hot[1].total_count, 20);
	CHECK_EQ(cap.hot[1].reports, 2);
	CHECK_EQ(cap.hot[2].unit, 5);
	CHECK_EQ(cap.hot[2].rank, 3);

	reset();
	st = mk(7, 12ULL << 32, true, top0, 1);
	put_packet(&buf, 3, 16, 0xdeadbeef, a, 3);
	feed(st, &cap, buf.b, buf.n, 1 << 20, 0);
	done(st, &cap);
	CHECK_EQ(cap.nhot, 0);
	CHECK_EQ(cap.nsum, 1);
}

/* More distinct units than the old 2^20 cap: all counted exactly, none dropped. */
static void test_distinct_cap(void)
{
	static uint8_t big[16 + 65535 * 8];
	const uint32_t total = (1u << 20) + 5;
	uint32_t unit = 0;
	void *st;

	reset();
	st = mk(7, 12ULL << 32, true, NULL, 0);
	while (unit < total) {
		uint32_t k = total - unit < 65535 ? total - unit : 65535;
		size_t o = 0;

		for (int i = 0; i < 8; i++) {
			big[o + i] = (uint8_t)(((uint64_t)k | 16ULL << 16) >> (8 * i));
			big[o + 8 + i] = (uint8_t)(0xdeadbeefULL >> (8 * i));
		}
		o = 16;
		for (uint32_t j = 0; j < k; j++, unit++) {
			uint64_t ent = (uint64_t)unit << 16 | 1;

			for (int i = 0; i < 8; i++)
				big[o + 8 * j + i] = (uint8_t)(ent >> (8 * i));
		}
		feed(st, &cap, big, 16 + 8 * (size_t)k, 1 << 20, 0);
	}
	done(st, &cap);
	CHECK_EQ(cap.total_units, total);
	CHECK_EQ(cap.sum.distinct_units, total);
	CHECK(cap.sum.counts_exact);
	CHECK_EQ(cap.sum.max_overcount, 0);
	CHECK_EQ(diag.warnings, 0);
	CHECK_EQ(cap.nhot, 10);
	CHECK_EQ(cap.hot[0].unit, 0);			/* all counts 1: lowest ids first */
	CHECK_EQ(cap.hot[9].unit, 9);
}

static void test_match(void)
{
	struct hwt_attr a = { .name = (char *)"cxl_hmu_mem1.0.0/hotness_granual=12/" };
	struct hwt_aux_ctx c = { .auxtrace_type = 7, .pmu_name = "cxl_hmu_mem0.0.0" };

	CHECK(hwt_cxl_hmu_decoder.match(&c));
	c.pmu_name = "vpa_dtl";				/* upstream's type 7 */
	CHECK(!hwt_cxl_hmu_decoder.match(&c));
	c.pmu_name = NULL;				/* no name at all (a cut file): */
	CHECK(hwt_cxl_hmu_decoder.match(&c));		/* assumed HMU, with a warning */
	{
		struct hwt_attr other = { .name = (char *)"vpa_dtl//" };

		c.attr = &other;			/* a name that is not ours */
		CHECK(!hwt_cxl_hmu_decoder.match(&c));
	}
	c.attr = &a;
	CHECK(hwt_cxl_hmu_decoder.match(&c));
	c.auxtrace_type = 6;				/* synth --auxtrace-type 6 */
	CHECK(hwt_cxl_hmu_decoder.match(&c));
	c.attr = NULL;
	c.pmu_name = "hisi_ptt0_2";
	CHECK(!hwt_cxl_hmu_decoder.match(&c));
	c.auxtrace_type = 8;
	c.pmu_name = "cxl_hmu_mem0.0.0";
	CHECK(!hwt_cxl_hmu_decoder.match(&c));
	CHECK(hwt_decoder__find("cxl-hmu") == &hwt_cxl_hmu_decoder);
	CHECK(hwt_record_type__find("cxl_hmu_unit") == &hwt_rt_cxl_hmu_unit);
}

static void test_options(void)
{
	const struct hwt_opt bad_hdm[] = { { "hdm", "base=0,size=1G,ways=7" } };
	const struct hwt_opt bad_gran[] = { { "granual", "64" } };
	const struct hwt_opt pmu[] = { { "pmu", "cxl_hmu_mem3.1.0" }, { "width", "10" } };
	const uint64_t e[] = { 0x2a3ffULL };		/* width 10: unit 0xa8, count 0x3ff */
	void *st;

	reset();
	CHECK(!mk(7, 0, true, bad_hdm, 1));
	CHECK_EQ(diag.errors, 1);
	CHECK(strstr(errs.last.msg, "ways"));
	CHECK(!mk(7, 0, true, bad_gran, 1));
	CHECK_EQ(diag.errors, 2);
	CHECK(!mk(7, 64ULL << 32, true, NULL, 0));	/* hotness_granual from attr too big */
	CHECK_EQ(diag.errors, 3);

	/* raw decode: no attr -> granual 12 with a note; --width overrides the header */
	reset();
	st = mk(7, 0, false, pmu, 2);
	CHECK(st);
	CHECK_EQ(diag.warnings, 1);
	put_packet(&buf, 1, 16, 0xdeadbeef, e, 1);
	feed(st, &cap, buf.b, buf.n, 1 << 20, 0);
	CHECK_EQ(diag.warnings, 2);			/* header width 16 != --width 10 */
	CHECK_EQ(cap.u[0].unit, 0xa8);
	CHECK_EQ(cap.u[0].count, 0x3ff);
	CHECK_EQ(cap.u[0].dpa, 0xa8000);
	CHECK_EQ(cap.p[0].counter_width, 16);		/* the dump shows the header as written */
	CHECK_STR(cap.pmu, "cxl_hmu_mem3.1.0");
	done(st, &cap);
	CHECK_EQ(cap.sum.hotness_granual, 12);
}

int main(void)
{
	RUN(test_rfc_example_width16);
	RUN(test_other_widths);
	RUN(test_hdm_parse);
	RUN(test_hpa_math);
	RUN(test_decoder_hpa);
	RUN(test_bad_hdr1);
	RUN(test_overclaim);
	RUN(test_first_resets);
	RUN(test_zero_units_and_bad_width);
	RUN(test_trailing);
	RUN(test_pieces);
	RUN(test_big_packet_truncated);
	RUN(test_top_n);
	RUN(test_distinct_cap);
	RUN(test_match);
	RUN(test_options);
	RUN(test_rank_threads);
	return check_done("cxl_hmu");
}
