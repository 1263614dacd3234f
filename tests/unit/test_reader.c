// SPDX-License-Identifier: GPL-2.0
/*
 * test_reader.c - the perf.data reader against images built here.
 *
 * The images are written by the small writer below, which follows the layout
 * facts of design.rst section 3 and knows what it wrote; the tests check that
 * the reader gives every value back and that every byte is accounted for.
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include "check.h"
#include "hwtrace/perf_data.h"
#include "perf_data/perf_data_internal.h"

/* ---- the writer ------------------------------------------------------------ */

struct img {
	uint8_t *b;
	size_t n, cap;
};

static void put(struct img *im, const void *p, size_t n)
{
	if (im->n + n > im->cap) {
		im->cap = (im->n + n) * 2 + 64;
		im->b = realloc(im->b, im->cap);
	}
	if (p)
		memcpy(im->b + im->n, p, n);
	else
		memset(im->b + im->n, 0, n);
	im->n += n;
}

static void u64(struct img *im, uint64_t v) { put(im, &v, 8); }
static void u32(struct img *im, uint32_t v) { put(im, &v, 4); }

static size_t rec_start(struct img *im, uint32_t type)
{
	size_t at = im->n;

	u32(im, type);
	u32(im, 0);
	return at;
}

static void rec_end(struct img *im, size_t at)
{
	uint16_t sz = (uint16_t)(im->n - at);

	memcpy(im->b + at + 6, &sz, 2);
}

/* perf_header_string: u32 len (padded to 8 here), NUL padded text */
static void hstr(struct img *im, const char *s)
{
	uint32_t len = (uint32_t)((strlen(s) + 1 + 7) & ~7u);
	size_t at = im->n;

	u32(im, len);
	put(im, NULL, len);
	memcpy(im->b + at + 4, s, strlen(s));
}

struct tattr {
	uint32_t type;
	uint64_t config, sample_type;
	bool sid_all;
	uint64_t ids[4];
	int nids;
};

static struct perf_event_attr make_attr(const struct tattr *t)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = t->type;
	a.size = PERF_ATTR_SIZE_VER7;
	a.config = t->config;
	a.sample_type = t->sample_type;
	a.sample_id_all = t->sid_all;
	return a;
}

struct tfeat {
	int bit;
	struct img body;
};

/* header | ids | gap | attrs | data | feature table | sections */
static void build_file(struct img *out, const struct tattr *a, int na, const struct img *data,
		       const struct tfeat *f, int nf, size_t gap)
{
	uint64_t ids_off[8], attrs_off, data_off, table_off, off, bits[4] = { 0 };

	put(out, "PERFILE2", 8);
	u64(out, 104);
	u64(out, 144);
	put(out, NULL, 104 - 24);
	for (int i = 0; i < na; i++) {
		ids_off[i] = out->n;
		put(out, a[i].ids, 8 * (size_t)a[i].nids);
	}
	put(out, NULL, gap);
	attrs_off = out->n;
	for (int i = 0; i < na; i++) {
		struct perf_event_attr pa = make_attr(&a[i]);

		put(out, &pa, sizeof(pa));
		u64(out, ids_off[i]);
		u64(out, 8 * (uint64_t)a[i].nids);
	}
	data_off = out->n;
	put(out, data->b, data->n);
	table_off = out->n;
	put(out, NULL, 16 * (size_t)nf);
	off = out->n;
	for (int i = 0; i < nf; i++) {	/* f[] is in bit order */
		memcpy(out->b + table_off + 16 * i, &off, 8);
		memcpy(out->b + table_off + 16 * i + 8, &f[i].body.n, 8);
		put(out, f[i].body.b, f[i].body.n);
		off += f[i].body.n;
		bits[f[i].bit / 64] |= 1ULL << (f[i].bit % 64);
	}
	memcpy(out->b + 24, &attrs_off, 8);
	off = 144 * (uint64_t)na;
	memcpy(out->b + 32, &off, 8);
	memcpy(out->b + 40, &data_off, 8);
	off = data->n;
	memcpy(out->b + 48, &off, 8);
	memcpy(out->b + 72, bits, 32);
}

/* Fields of a sample or trailer, written in the order sample_type says. */
struct tsid {
	uint64_t ip, addr, id, stream_id, period, time;
	uint32_t pid, tid, cpu;
};

static void put_sample(struct img *im, uint64_t st, const struct tsid *s)
{
	if (st & PERF_SAMPLE_IDENTIFIER)
		u64(im, s->id);
	if (st & PERF_SAMPLE_IP)
		u64(im, s->ip);
	if (st & PERF_SAMPLE_TID)
		u64(im, s->pid | (uint64_t)s->tid << 32);
	if (st & PERF_SAMPLE_TIME)
		u64(im, s->time);
	if (st & PERF_SAMPLE_ADDR)
		u64(im, s->addr);
	if (st & PERF_SAMPLE_ID)
		u64(im, s->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		u64(im, s->stream_id);
	if (st & PERF_SAMPLE_CPU)
		u64(im, s->cpu);
	if (st & PERF_SAMPLE_PERIOD)
		u64(im, s->period);
}

static void put_trailer(struct img *im, uint64_t st, const struct tsid *s)
{
	if (st & PERF_SAMPLE_TID)
		u64(im, s->pid | (uint64_t)s->tid << 32);
	if (st & PERF_SAMPLE_TIME)
		u64(im, s->time);
	if (st & PERF_SAMPLE_ID)
		u64(im, s->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		u64(im, s->stream_id);
	if (st & PERF_SAMPLE_CPU)
		u64(im, s->cpu);
	if (st & PERF_SAMPLE_IDENTIFIER)
		u64(im, s->id);
}

static void put_comm(struct img *im, uint32_t pid, const char *comm, uint64_t st,
		     const struct tsid *s)
{
	size_t at = rec_start(im, PERF_RECORD_COMM);

	u32(im, pid);
	u32(im, pid);
	put(im, NULL, 16);
	memcpy(im->b + im->n - 16, comm, strlen(comm));
	if (s)
		put_trailer(im, st, s);
	rec_end(im, at);
}

static void put_auxtrace(struct img *im, uint64_t size, uint32_t cpu, const uint8_t *payload,
			 size_t have)
{
	size_t at = rec_start(im, HWT_REC_AUXTRACE);

	u64(im, size);
	u64(im, 0x1000);
	u64(im, 0x77);
	u32(im, 0);
	u32(im, 42);
	u32(im, cpu);
	u32(im, 0);
	rec_end(im, at);
	put(im, payload, have);
}

static uint8_t pattern(uint64_t i)
{
	return (uint8_t)(i * 7 + (i >> 9));
}

/* ---- running the reader ------------------------------------------------------ */

static char last_msg[512];
static uint64_t last_off;

static void report(void *ctx, const struct hwt_error *e)
{
	snprintf(last_msg, sizeof(last_msg), "%s: %s", e->rtype, e->msg);
	last_off = e->offset;
}

static int img_fd(const struct img *im, size_t len)
{
	char path[] = "/tmp/test_reader.XXXXXX";
	int fd = mkstemp(path);

	unlink(path);
	if (write(fd, im->b, len) != (ssize_t)len)
		abort();
	lseek(fd, 0, SEEK_SET);
	return fd;
}

/* A pipe a child fills with @len bytes of @im. */
static int img_pipe(const struct img *im, size_t len)
{
	int p[2];

	if (pipe(p))
		abort();
	if (!fork()) {
		close(p[0]);
		for (size_t done = 0; done < len;) {
			size_t chunk = len - done > 5000 ? 5000 : len - done;
			ssize_t n = write(p[1], im->b + done, chunk);

			if (n <= 0)
				_exit(1);
			done += (size_t)n;
		}
		_exit(0);
	}
	close(p[1]);
	return p[0];
}

struct run {
	struct hwt_diag d;
	struct hwt_reader *r;
	int fd;
};

static void run_open(struct run *x, const struct img *im, size_t len, bool pipe_in, size_t win)
{
	memset(x, 0, sizeof(*x));
	x->d.report = report;
	x->fd = pipe_in ? img_pipe(im, len) : img_fd(im, len);
	x->r = hwt_reader__new_fd_window(x->fd, "img", &x->d, win);
}

static void run_close(struct run *x)
{
	hwt_reader__delete(x->r);
	close(x->fd);
	while (wait(NULL) > 0)
		;
}

/* Read to the end; payloads are pulled and counted decoded when @pull. */
static int drain(struct run *x, bool pull)
{
	struct hwt_event ev;
	int ret;

	while ((ret = hwt_reader__next(x->r, &ev)) > 0) {
		const void *p;
		ssize_t n;

		if (!pull)
			continue;
		while ((n = hwt_reader__payload(x->r, &p)) > 0)
			x->d.bytes.decoded += (uint64_t)n;
	}
	return ret;
}

#define ST_ALL (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

/* ---- file mode ------------------------------------------------------------------ */

static void features(struct tfeat *f)
{
	memset(f, 0, 5 * sizeof(*f));
	f[0].bit = HWT_FEAT_HOSTNAME;
	hstr(&f[0].body, "host1");
	f[1].bit = HWT_FEAT_NRCPUS;
	u32(&f[1].body, 4);
	u32(&f[1].body, 2);
	f[2].bit = HWT_FEAT_CMDLINE;
	u32(&f[2].body, 3);
	hstr(&f[2].body, "perf");
	hstr(&f[2].body, "record");
	hstr(&f[2].body, "-a");
	f[3].bit = HWT_FEAT_EVENT_DESC;
	u32(&f[3].body, 2);
	u32(&f[3].body, 128);
	for (int i = 0; i < 2; i++) {
		struct perf_event_attr pa;

		memset(&pa, 0, sizeof(pa));
		put(&f[3].body, &pa, sizeof(pa));
		u32(&f[3].body, 1);
		hstr(&f[3].body, i ? "dummy:HG" : "cpu-clock");
		u64(&f[3].body, i ? 21 : 11);
	}
	f[4].bit = HWT_FEAT_PMU_MAPPINGS;
	u32(&f[4].body, 2);
	u32(&f[4].body, 1);
	hstr(&f[4].body, "software");
	u32(&f[4].body, 8);
	hstr(&f[4].body, "cxl_hmu_mem0.0.0");
}

static void free_features(struct tfeat *f)
{
	for (int i = 0; i < 5; i++)
		free(f[i].body.b);
}

/* Two attrs, sample_id_all, the five features, one of each interesting record. */
static void file_image(struct img *out, size_t *unknown_bytes, size_t *data_off)
{
	const struct tattr a[2] = {
		{ .type = 1, .config = 0, .sample_type = ST_ALL, .sid_all = true,
		  .ids = { 11, 12 }, .nids = 2 },
		{ .type = 1, .config = 9, .sample_type = ST_ALL, .sid_all = true,
		  .ids = { 21, 22 }, .nids = 2 },
	};
	const struct tsid c = { .pid = 5, .tid = 6, .time = 1000, .cpu = 1, .id = 22 };
	const struct tsid s = { .ip = 0xffffffff81000000ULL, .pid = 7, .tid = 8, .time = 2000,
				.cpu = 3, .id = 12, .period = 1 };
	struct img data = { 0 };
	struct tfeat f[5];
	size_t at;

	put_comm(&data, 5, "comm5", ST_ALL, &c);
	at = rec_start(&data, PERF_RECORD_SAMPLE);
	put_sample(&data, ST_ALL, &s);
	rec_end(&data, at);
	at = rec_start(&data, PERF_RECORD_AUX);	/* aux_offset, aux_size, flags */
	u64(&data, 0);
	u64(&data, 4096);
	u64(&data, PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL);
	put_trailer(&data, ST_ALL, &c);
	rec_end(&data, at);
	at = rec_start(&data, PERF_RECORD_LOST);
	u64(&data, 11);
	u64(&data, 5);
	put_trailer(&data, ST_ALL, &c);
	rec_end(&data, at);
	at = rec_start(&data, PERF_RECORD_LOST_SAMPLES);
	u64(&data, 7);
	put_trailer(&data, ST_ALL, &c);
	rec_end(&data, at);
	for (int i = 0; i < 2; i++) {	/* unknown type, sane size: skipped, warned once */
		at = rec_start(&data, 60);
		u64(&data, i);
		rec_end(&data, at);
	}
	*unknown_bytes = 32;
	at = rec_start(&data, HWT_REC_FINISHED_ROUND);
	rec_end(&data, at);
	features(f);
	build_file(out, a, 2, &data, f, 5, 24);
	*data_off = 104 + 4 * 8 + 24 + 2 * 144;
	free_features(f);
	free(data.b);
}

static void test_file_mode(void)
{
	struct img im = { 0 };
	size_t unknown, data_off;
	struct hwt_event ev;
	struct run x;
	const struct hwt_reader_stats *st;
	const struct hwt_attr *a;

	file_image(&im, &unknown, &data_off);
	run_open(&x, &im, im.n, false, 0);
	CHECK(x.r);
	if (!x.r)
		return;
	CHECK(!hwt_reader__is_pipe(x.r));
	CHECK_EQ(hwt_reader__nr_attrs(x.r), 2);
	a = hwt_reader__attr(x.r, 1);
	CHECK_EQ(a->attr.config, 9);
	CHECK_EQ(a->nr_ids, 2);
	CHECK_EQ(a->sample_id_size, 32);	/* TID, TIME, CPU, IDENTIFIER */
	CHECK_STR(hwt_reader__attr(x.r, 0)->name, "cpu-clock");
	CHECK_STR(a->name, "dummy:HG");
	CHECK(hwt_reader__attr_by_id(x.r, 22) == a);
	CHECK(hwt_reader__attr_by_id(x.r, 33) == NULL);
	CHECK_STR(hwt_reader__pmu_name(x.r, 8), "cxl_hmu_mem0.0.0");
	CHECK_STR(hwt_reader__pmu_name(x.r, 1), "software");
	CHECK(!hwt_reader__pmu_name(x.r, 2));
	CHECK_STR(hwt_reader__feature_string(x.r, HWT_FEAT_HOSTNAME), "host1");
	CHECK_STR(hwt_reader__feature_string(x.r, HWT_FEAT_CMDLINE), "perf record -a");
	CHECK_STR(hwt_reader__feature_string(x.r, HWT_FEAT_NRCPUS), "2/4");
	CHECK(hwt_reader__has_feature(x.r, HWT_FEAT_EVENT_DESC));
	CHECK(!hwt_reader__has_feature(x.r, HWT_FEAT_AUXTRACE));

	CHECK_EQ(hwt_reader__next(x.r, &ev), 1);
	CHECK_EQ(ev.hdr->type, PERF_RECORD_COMM);
	CHECK_EQ(ev.offset, data_off);
	CHECK(ev.attr == a);
	CHECK_EQ(ev.sid.valid & (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU),
		 PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU);
	CHECK_EQ(ev.sid.pid, 5);
	CHECK_EQ(ev.sid.tid, 6);
	CHECK_EQ(ev.sid.time, 1000);
	CHECK_EQ(ev.sid.cpu, 1);
	CHECK_EQ(ev.sid.id, 22);
	CHECK_EQ(hwt_reader__next(x.r, &ev), 1);
	CHECK_EQ(ev.hdr->type, PERF_RECORD_SAMPLE);
	CHECK(ev.attr == hwt_reader__attr(x.r, 0));
	CHECK_EQ(ev.sid.pid, 7);
	CHECK_EQ(ev.sid.tid, 8);
	CHECK_EQ(ev.sid.time, 2000);
	CHECK_EQ(ev.sid.cpu, 3);
	CHECK_EQ(ev.sid.id, 12);
	CHECK_EQ(ev.dump_offset, ev.offset);
	CHECK_EQ(drain(&x, true), 0);
	st = hwt_reader__stats(x.r);
	CHECK_EQ(st->nr[PERF_RECORD_COMM], 1);
	CHECK_EQ(st->nr[PERF_RECORD_SAMPLE], 1);
	CHECK_EQ(st->nr[PERF_RECORD_AUX], 1);
	CHECK_EQ(st->nr[60], 2);
	CHECK_EQ(st->nr[HWT_REC_FINISHED_ROUND], 1);
	CHECK_EQ(st->aux_flags[0], 1);
	CHECK_EQ(st->aux_flags[1], 0);
	CHECK_EQ(st->aux_flags[2], 1);
	CHECK_EQ(st->aux_lost_bytes, 4096);
	CHECK_EQ(st->lost_records, 12);
	CHECK_EQ(st->file_size, im.n);
	CHECK_EQ(x.d.errors, 0);
	CHECK_EQ(x.d.warnings, 1);	/* the unknown type, once */
	CHECK_EQ(x.d.bytes.skipped, unknown + 24);	/* + the gap before the attrs */
	CHECK_EQ(x.d.bytes.decoded + x.d.bytes.skipped, im.n);
	CHECK_EQ(x.d.bytes.lost, 0);
	run_close(&x);
	free(im.b);
}

/* Trailer and sample layouts for several sample_type sets, two attrs told apart by id. */
static void test_sample_id_variants(void)
{
	static const uint64_t sts[] = {
		PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU,
		PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
			PERF_SAMPLE_PERIOD,
		PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TIME,
		PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID,
		PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID,
	};

	for (size_t k = 0; k < sizeof(sts) / sizeof(sts[0]); k++) {
		uint64_t st = sts[k];
		const struct tattr a[2] = {
			{ .type = 1, .sample_type = st, .sid_all = true,
			  .ids = { 100 }, .nids = 1 },
			{ .type = 8, .sample_type = st, .sid_all = true,
			  .ids = { 200 }, .nids = 1 },
		};
		const struct tsid s = { .ip = 1, .addr = 2, .id = 200, .stream_id = 300,
					.period = 4, .time = 5000 + k, .pid = 9, .tid = 10,
					.cpu = 11 };
		struct img data = { 0 }, im = { 0 };
		struct hwt_event ev;
		struct run x;
		size_t at;

		put_comm(&data, 9, "x", st, &s);
		at = rec_start(&data, PERF_RECORD_SAMPLE);
		put_sample(&data, st, &s);
		rec_end(&data, at);
		build_file(&im, a, 2, &data, NULL, 0, 0);
		run_open(&x, &im, im.n, false, 0);
		for (int i = 0; i < 2; i++) {
			CHECK_EQ(hwt_reader__next(x.r, &ev), 1);
			CHECK(ev.attr == hwt_reader__attr(x.r, 1));
			CHECK_EQ(ev.sid.id, 200);
			CHECK_EQ(!!(ev.sid.valid & PERF_SAMPLE_TID), !!(st & PERF_SAMPLE_TID));
			if (st & PERF_SAMPLE_TID) {
				CHECK_EQ(ev.sid.pid, 9);
				CHECK_EQ(ev.sid.tid, 10);
			}
			if (st & PERF_SAMPLE_TIME)
				CHECK_EQ(ev.sid.time, 5000 + k);
			if (st & PERF_SAMPLE_STREAM_ID)
				CHECK_EQ(ev.sid.stream_id, 300);
			if (st & PERF_SAMPLE_CPU)
				CHECK_EQ(ev.sid.cpu, 11);
			CHECK_EQ(!!(ev.sid.valid & PERF_SAMPLE_CPU), !!(st & PERF_SAMPLE_CPU));
		}
		CHECK_EQ(hwt_reader__next(x.r, &ev), 0);
		CHECK_EQ(x.d.bytes.decoded + x.d.bytes.skipped, im.n);
		CHECK_EQ(x.d.errors + x.d.warnings, 0);
		run_close(&x);
		free(data.b);
		free(im.b);
	}
}

/* ---- pipe mode --------------------------------------------------------------- */

static void put_header_attr(struct img *im, const struct tattr *t)
{
	struct perf_event_attr pa = make_attr(t);
	size_t at = rec_start(im, HWT_REC_HEADER_ATTR);

	put(im, &pa, sizeof(pa));
	put(im, t->ids, 8 * (size_t)t->nids);
	rec_end(im, at);
}

static void put_header_feature(struct img *im, uint64_t feat, const struct img *body)
{
	size_t at = rec_start(im, HWT_REC_HEADER_FEATURE);

	u64(im, feat);
	put(im, body->b, body->n);
	rec_end(im, at);
}

static void pipe_image(struct img *im, size_t aux_size)
{
	const struct tattr a[2] = {
		{ .type = 1, .sample_type = ST_ALL, .sid_all = true, .ids = { 11 }, .nids = 1 },
		{ .type = 8, .sample_type = ST_ALL, .sid_all = true, .ids = { 21 }, .nids = 1 },
	};
	const struct tsid s = { .pid = 1, .tid = 2, .time = 3, .cpu = 0, .id = 21 };
	uint8_t *payload = malloc(aux_size);
	struct tfeat f[5];
	size_t at;

	put(im, "PERFILE2", 8);
	u64(im, 16);
	put_header_attr(im, &a[0]);
	put_header_attr(im, &a[1]);
	features(f);
	for (int i = 0; i < 5; i++)
		put_header_feature(im, (uint64_t)f[i].bit, &f[i].body);
	free_features(f);
	at = rec_start(im, HWT_REC_HEADER_TRACING_DATA);	/* 16 bytes, as perf 6.1 */
	u32(im, 24);
	u32(im, 0);
	rec_end(im, at);
	put(im, "tracing-data-0123456789!", 24);
	at = rec_start(im, HWT_REC_AUXTRACE_INFO);
	u32(im, 7);
	u32(im, 0);
	u64(im, 8);
	rec_end(im, at);
	for (size_t i = 0; i < aux_size; i++)
		payload[i] = pattern(i);
	put_auxtrace(im, aux_size, 1, payload, aux_size);
	free(payload);
	at = rec_start(im, PERF_RECORD_SAMPLE);
	put_sample(im, ST_ALL, &s);
	rec_end(im, at);
}

static void test_pipe_mode(void)
{
	struct img im = { 0 };
	struct hwt_event ev;
	struct run x;
	uint64_t pulled = 0, bad = 0, types = 0;
	const void *td;
	size_t tds = 0;
	int ret;

	pipe_image(&im, 3000);
	run_open(&x, &im, im.n, true, 0);
	CHECK(x.r && hwt_reader__is_pipe(x.r));
	if (!x.r)
		return;
	while ((ret = hwt_reader__next(x.r, &ev)) > 0) {
		const uint8_t *p;
		ssize_t n;

		types++;
		CHECK_EQ(ev.dump_offset, ev.offset - 16);
		if (ev.hdr->type == HWT_REC_HEADER_TRACING_DATA)
			CHECK_EQ(ev.payload_size, 24);	/* not pulled: kept by the reader */
		if (ev.hdr->type == HWT_REC_AUXTRACE) {
			const struct hwt_auxtrace *at = (const void *)ev.hdr;

			CHECK_EQ(ev.payload_size, 3000);
			CHECK_EQ(at->cpu, 1);
			while ((n = hwt_reader__payload(x.r, (const void **)&p)) > 0) {
				for (ssize_t i = 0; i < n; i++)
					bad += p[i] != pattern(pulled + (uint64_t)i);
				pulled += (uint64_t)n;
			}
			/* the record stays valid while its payload is pulled */
			CHECK_EQ(at->tid, 42);
			x.d.bytes.decoded += pulled;
		}
		if (ev.hdr->type == PERF_RECORD_SAMPLE) {
			CHECK(ev.attr == hwt_reader__attr(x.r, 1));
			CHECK_EQ(ev.sid.pid, 1);
		}
	}
	CHECK_EQ(ret, 0);
	CHECK_EQ(types, 2 + 5 + 1 + 1 + 1 + 1);
	CHECK_EQ(pulled, 3000);
	CHECK_EQ(bad, 0);
	CHECK_EQ(hwt_reader__nr_attrs(x.r), 2);
	CHECK_STR(hwt_reader__attr(x.r, 1)->name, "dummy:HG");
	CHECK_STR(hwt_reader__pmu_name(x.r, 8), "cxl_hmu_mem0.0.0");
	CHECK_STR(hwt_reader__feature_string(x.r, HWT_FEAT_CMDLINE), "perf record -a");
	td = hwt_reader__tracing_data(x.r, &tds);
	CHECK_EQ(tds, 24);
	CHECK(td && !memcmp(td, "tracing-data-0123456789!", 24));
	CHECK_EQ(hwt_reader__stats(x.r)->nr[HWT_REC_HEADER_FEATURE], 5);
	CHECK_EQ(hwt_reader__stats(x.r)->nr[HWT_REC_HEADER_ATTR], 2);
	CHECK_EQ(hwt_reader__stats(x.r)->file_size, im.n);
	CHECK_EQ(x.d.bytes.decoded, im.n);
	CHECK_EQ(x.d.bytes.skipped + x.d.bytes.lost + x.d.errors + x.d.warnings, 0);
	run_close(&x);

	/* payload not pulled: skipped; pipe cut inside the payload: lost */
	run_open(&x, &im, im.n, true, 0);
	CHECK_EQ(drain(&x, false), 0);
	CHECK_EQ(x.d.bytes.skipped, 3000);
	CHECK_EQ(x.d.bytes.decoded + x.d.bytes.skipped, im.n);
	run_close(&x);
	run_open(&x, &im, im.n - 56 - 1000, true, 0);
	CHECK_EQ(drain(&x, true), -1);
	CHECK_EQ(x.d.errors, 1);
	CHECK(strstr(last_msg, "PERF_RECORD_AUXTRACE: payload of 3000 bytes cut after 2000"));
	CHECK_EQ(x.d.bytes.lost, 1000);
	CHECK_EQ(x.d.bytes.decoded + x.d.bytes.skipped, im.n - 56 - 1000);
	run_close(&x);
	free(im.b);
}

/* ---- payload pieces through a small window, straddling records ---------------- */

static void test_window_straddle(void)
{
	const struct tattr a = { .type = 1, .sample_type = ST_ALL, .sid_all = true,
				 .ids = { 1 }, .nids = 1 };
	const uint64_t sizes[3] = { 200000, 150000, 100000 };
	struct img data = { 0 }, im = { 0 };
	uint8_t *payload = malloc(200000);
	uint64_t n_comm = 0, bad = 0, pieces = 0, skipped_expect = 0;
	struct hwt_event ev;
	struct run x;
	int ret, aux = 0;

	for (size_t i = 0; i < 200000; i++)
		payload[i] = pattern(i);
	for (uint32_t i = 0; i < 6000; i++) {
		const struct tsid s = { .pid = i, .tid = i, .time = i, .id = 1 };
		char comm[16];

		snprintf(comm, sizeof(comm), "c%u", i % 100000);
		put_comm(&data, i, comm, ST_ALL, &s);
		if (i % 2000 == 999)
			put_auxtrace(&data, sizes[i / 2000], 0, payload, sizes[i / 2000]);
	}
	build_file(&im, &a, 1, &data, NULL, 0, 0);
	run_open(&x, &im, im.n, false, HWT_WINDOW_MIN);
	while ((ret = hwt_reader__next(x.r, &ev)) > 0) {
		if (ev.hdr->type == PERF_RECORD_COMM) {
			uint32_t pid;

			memcpy(&pid, ev.hdr + 1, 4);
			bad += pid != n_comm || ev.sid.time != n_comm;
			n_comm++;
		} else if (ev.hdr->type == HWT_REC_AUXTRACE) {
			const uint8_t *p;
			uint64_t got = 0;
			ssize_t n;

			CHECK_EQ(ev.payload_size, sizes[aux]);
			/* first: all of it; second: one piece; third: none */
			while (aux < 2 && (n = hwt_reader__payload(x.r, (const void **)&p)) > 0) {
				CHECK(n <= (ssize_t)HWT_WINDOW_MIN);
				for (ssize_t i = 0; i < n; i++)
					bad += p[i] != pattern(got + (uint64_t)i);
				got += (uint64_t)n;
				pieces++;
				if (aux == 1)
					break;
			}
			x.d.bytes.decoded += got;
			skipped_expect += sizes[aux] - got;
			aux++;
		}
	}
	CHECK_EQ(ret, 0);
	CHECK_EQ(n_comm, 6000);
	CHECK_EQ(bad, 0);
	CHECK(pieces >= 4);
	CHECK_EQ(x.d.bytes.skipped, skipped_expect);
	CHECK_EQ(x.d.bytes.decoded + x.d.bytes.skipped, im.n);
	CHECK_EQ(x.d.errors + x.d.warnings, 0);
	run_close(&x);
	free(payload);
	free(data.b);
	free(im.b);
}

/* ---- COMPRESSED ---------------------------------------------------------------- */

static void put_compressed(struct img *im, const uint8_t *p, size_t n, bool v2)
{
	size_t bound = ZSTD_compressBound(n);
	uint8_t *z = malloc(bound);
	size_t zn = ZSTD_compress(z, bound, p, n, 3), at;

	at = rec_start(im, v2 ? HWT_REC_COMPRESSED2 : HWT_REC_COMPRESSED);
	if (v2)
		u64(im, zn);
	put(im, z, zn);
	if (v2)
		put(im, NULL, (8 - zn % 8) % 8);
	rec_end(im, at);
	free(z);
}

static bool is_one_of(uint64_t v, const uint64_t *set, int n)
{
	for (int i = 0; i < n; i++)
		if (set[i] == v)
			return true;
	return false;
}

static void test_compressed(void)
{
	const struct tattr a = { .type = 1, .sample_type = ST_ALL, .sid_all = true,
				 .ids = { 1 }, .nids = 1 };
	struct img inner = { 0 }, data = { 0 }, im = { 0 };
	uint8_t payload[1000];
	uint64_t ncomm = 0, bad = 0, got = 0, ncompressed = 0, offs[64], last_z = 0;
	struct hwt_event ev;
	struct run x;
	size_t at;
	int ret, nz = 0;

	for (int i = 0; i < 1000; i++)
		payload[i] = pattern((uint64_t)i);
	for (uint32_t i = 0; i < 300; i++) {
		const struct tsid s = { .pid = i, .time = i, .id = 1 };

		put_comm(&inner, i, "inner", ST_ALL, &s);
		if (i == 150)
			put_auxtrace(&inner, 1000, 2, payload, 1000);
	}
	at = rec_start(&data, PERF_RECORD_MMAP);	/* an uncompressed record first */
	put(&data, NULL, 32);
	rec_end(&data, at);
	/* cut at arbitrary places: records straddle COMPRESSED records */
	for (size_t off = 0; off < inner.n; off += 1500) {
		size_t n = inner.n - off < 1500 ? inner.n - off : 1500;

		offs[nz++] = 104 + 8 + 144 + data.n;	/* header, ids, attr */
		put_compressed(&data, inner.b + off, n, nz % 2 == 0);
	}
	at = rec_start(&data, HWT_REC_FINISHED_ROUND);
	rec_end(&data, at);
	build_file(&im, &a, 1, &data, NULL, 0, 0);
	run_open(&x, &im, im.n, false, 0);
	while ((ret = hwt_reader__next(x.r, &ev)) > 0) {
		uint32_t t = ev.hdr->type;

		if (t == HWT_REC_COMPRESSED || t == HWT_REC_COMPRESSED2) {
			CHECK(!ev.compressed);
			CHECK(is_one_of(ev.offset, offs, nz) && ev.offset > last_z);
			last_z = ev.offset;
			ncompressed++;
		} else if (t == PERF_RECORD_COMM) {
			uint32_t pid;

			CHECK(ev.compressed);
			/* offset: the COMPRESSED record the record ended in */
			CHECK(is_one_of(ev.offset, offs, nz) && ev.offset >= last_z);
			memcpy(&pid, ev.hdr + 1, 4);
			bad += pid != ncomm || ev.sid.time != ncomm;
			ncomm++;
		} else if (t == HWT_REC_AUXTRACE) {
			const uint8_t *p;
			ssize_t n;

			CHECK(ev.compressed);
			CHECK_EQ(ev.payload_size, 1000);
			while ((n = hwt_reader__payload(x.r, (const void **)&p)) > 0) {
				for (ssize_t i = 0; i < n; i++)
					bad += p[i] != pattern(got + (uint64_t)i);
				got += (uint64_t)n;
			}
		} else {
			CHECK(!ev.compressed);
		}
	}
	CHECK_EQ(ret, 0);
	CHECK_EQ(ncomm, 300);
	CHECK_EQ(got, 1000);
	CHECK_EQ(bad, 0);
	/* the one the AUXTRACE payload runs into is read while pulling, not returned */
	CHECK_EQ(ncompressed, (uint64_t)nz - 1);
	CHECK_EQ(hwt_reader__stats(x.r)->nr[HWT_REC_COMPRESSED] +
		 hwt_reader__stats(x.r)->nr[HWT_REC_COMPRESSED2], (uint64_t)nz);
	CHECK_EQ(hwt_reader__stats(x.r)->nr[PERF_RECORD_COMM], 300);
	/* inflated bytes are not file bytes: the file adds up without them */
	CHECK_EQ(x.d.bytes.decoded + x.d.bytes.skipped, im.n);
	CHECK_EQ(x.d.errors + x.d.warnings, 0);
	run_close(&x);
	free(inner.b);
	free(data.b);
	free(im.b);
}

/* ---- bad input ---------------------------------------------------------------- */

/* One attr, COMMs, an AUXTRACE with 4000 payload bytes, more COMMs, a HOSTNAME feature. */
static void small_image(struct img *im, struct img *data, size_t *aux_at)
{
	const struct tattr a = { .type = 1, .sample_type = ST_ALL, .sid_all = true,
				 .ids = { 1 }, .nids = 1 };
	uint8_t payload[4000];
	struct tfeat f = { .bit = HWT_FEAT_HOSTNAME };

	for (int i = 0; i < 4000; i++)
		payload[i] = pattern((uint64_t)i);
	for (uint32_t i = 0; i < 10; i++) {
		const struct tsid s = { .pid = i, .id = 1 };

		if (i == 5) {
			*aux_at = 256 + data->n;
			put_auxtrace(data, 4000, 0, payload, 4000);
		}
		put_comm(data, i, "cc", ST_ALL, &s);
	}
	hstr(&f.body, "h");
	build_file(im, &a, 1, data, &f, 1, 0);
	free(f.body.b);
}

static void test_cut_files(void)
{
	struct img im = { 0 }, data = { 0 };
	const uint64_t data_off = 256;
	size_t aux_at, cuts[5];
	uint64_t data_end;
	struct run x;

	small_image(&im, &data, &aux_at);
	data_end = data_off + data.n;
	cuts[0] = data_off + 64 + 3;		/* inside the second record */
	cuts[1] = data_off + 64 * 2 + 4;	/* inside a record header */
	cuts[2] = aux_at + 48 + 1000;		/* inside the AUXTRACE payload */
	cuts[3] = data_off + 64 * 3;		/* at a record boundary */
	cuts[4] = data_end;			/* the whole data section, no features */
	for (int i = 0; i < 5; i++) {
		run_open(&x, &im, cuts[i], false, 0);
		CHECK(x.r);
		if (!x.r)
			continue;
		CHECK_EQ(drain(&x, true), i == 4 ? 0 : -1);
		CHECK_EQ(x.d.bytes.decoded + x.d.bytes.skipped, cuts[i]);
		/* cut at the data end: the one-entry feature table is missing */
		CHECK_EQ(x.d.bytes.lost, i == 4 ? 16 : data_end - cuts[i]);
		CHECK_EQ(x.d.errors, 1);
		if (i == 2)
			CHECK(strstr(last_msg, "payload of 4000 bytes cut after 1000"));
		run_close(&x);
	}
	/* the header itself cut: no reader, an error */
	run_open(&x, &im, 50, false, 0);
	CHECK(!x.r);
	CHECK_EQ(x.d.errors, 1);
	run_close(&x);
	free(im.b);
	free(data.b);
}

static void patch_u16(struct img *im, size_t at, uint16_t v)
{
	memcpy(im->b + at, &v, 2);
}

static void test_bad_sizes(void)
{
	struct img im = { 0 }, data = { 0 };
	const uint64_t data_off = 256;
	uint64_t absurd = 1ULL << 40, data_end;
	size_t aux_at;
	struct hwt_event ev;
	struct run x;
	int ret;

	small_image(&im, &data, &aux_at);
	data_end = data_off + data.n;

	/* header.size < 8 in the third record: stop, the rest is skipped */
	patch_u16(&im, data_off + 2 * 64 + 6, 4);
	run_open(&x, &im, im.n, false, 0);
	CHECK_EQ(drain(&x, true), -1);
	CHECK_EQ(x.d.errors, 1);
	CHECK_EQ(last_off, data_off + 2 * 64);
	CHECK(strstr(last_msg, "PERF_RECORD_COMM: header.size 4 < 8"));
	CHECK_EQ(hwt_reader__stats(x.r)->nr[PERF_RECORD_COMM], 2);
	CHECK_EQ(x.d.bytes.decoded + x.d.bytes.skipped, im.n);
	CHECK_EQ(x.d.bytes.lost, 0);
	run_close(&x);

	/* the last record runs past the data section end */
	patch_u16(&im, data_off + 2 * 64 + 6, 64);
	patch_u16(&im, data_end - 64 + 6, 80);
	run_open(&x, &im, im.n, false, 0);
	CHECK_EQ(drain(&x, true), -1);
	CHECK_EQ(x.d.errors, 1);
	CHECK(strstr(last_msg, "runs past the data section end"));
	CHECK_EQ(hwt_reader__stats(x.r)->nr[PERF_RECORD_COMM], 9);
	CHECK_EQ(x.d.bytes.decoded + x.d.bytes.skipped, im.n);
	CHECK_STR(hwt_reader__feature_string(x.r, HWT_FEAT_HOSTNAME), "h");
	run_close(&x);
	patch_u16(&im, data_end - 64 + 6, 64);

	/* absurd AUXTRACE size: an error; the rest of the data section is its payload */
	memcpy(im.b + aux_at + 8, &absurd, 8);
	run_open(&x, &im, im.n, false, 0);
	while ((ret = hwt_reader__next(x.r, &ev)) > 0)
		if (ev.hdr->type == HWT_REC_AUXTRACE)
			CHECK_EQ(ev.payload_size, data_end - aux_at - 48);
	CHECK_EQ(ret, 0);
	CHECK_EQ(x.d.errors, 1);
	CHECK_EQ(last_off, aux_at);
	CHECK_EQ(hwt_reader__stats(x.r)->nr[PERF_RECORD_COMM], 5);
	CHECK_EQ(x.d.bytes.decoded + x.d.bytes.skipped, im.n);
	CHECK_EQ(x.d.bytes.lost, 0);
	run_close(&x);
	free(im.b);
	free(data.b);
}

/*
 * Sections pointing at one big range (each within the file) would be read once
 * per entry: ids and feature sections may add up to the file size at most.
 */
static void test_overlapping_sections(void)
{
	struct img im = { 0 };
	size_t unknown, data_off;
	uint64_t whole, table;
	const uint64_t zero = 0;
	struct run x;

	file_image(&im, &unknown, &data_off);
	whole = im.n & ~7ULL;
	memcpy(&table, im.b + 48, 8);		/* data.offset + data.size */
	table += data_off;
	/* attr 1 (entry at 104 + 32 + 24 + 144): its ids are the whole file */
	memcpy(im.b + 304 + 128, &zero, 8);
	memcpy(im.b + 304 + 136, &whole, 8);
	/* CMDLINE, the third feature entry, is the whole file too */
	memcpy(im.b + table + 2 * 16, &zero, 8);
	memcpy(im.b + table + 2 * 16 + 8, &whole, 8);
	run_open(&x, &im, im.n, false, 0);
	CHECK(x.r);
	if (!x.r)
		return;
	CHECK_EQ(x.d.errors, 2);
	CHECK(strstr(last_msg, "feature 11 section at 0 of"));
	CHECK(strstr(last_msg, "overlaps others"));
	CHECK_EQ(last_off, table + 2 * 16);
	CHECK_EQ(hwt_reader__attr(x.r, 0)->nr_ids, 2);
	CHECK_EQ(hwt_reader__attr(x.r, 1)->nr_ids, 0);
	CHECK(hwt_reader__attr_by_id(x.r, 12) == hwt_reader__attr(x.r, 0));
	CHECK(!hwt_reader__attr_by_id(x.r, 22));
	CHECK(!hwt_reader__has_feature(x.r, HWT_FEAT_CMDLINE));
	/* the sections before and after it are read */
	CHECK_STR(hwt_reader__feature_string(x.r, HWT_FEAT_HOSTNAME), "host1");
	CHECK_STR(hwt_reader__feature_string(x.r, HWT_FEAT_NRCPUS), "2/4");
	CHECK_STR(hwt_reader__attr(x.r, 0)->name, "cpu-clock");
	CHECK_STR(hwt_reader__pmu_name(x.r, 8), "cxl_hmu_mem0.0.0");
	CHECK_EQ(drain(&x, true), 0);
	CHECK_EQ(hwt_reader__stats(x.r)->nr[PERF_RECORD_SAMPLE], 1);
	CHECK_EQ(hwt_reader__stats(x.r)->nr[PERF_RECORD_COMM], 1);
	CHECK_EQ(x.d.errors, 2);
	CHECK_EQ(x.d.bytes.decoded + x.d.bytes.skipped, im.n);
	CHECK_EQ(x.d.bytes.lost, 0);
	run_close(&x);
	free(im.b);
}

static void test_pipe_absurd_and_junk(void)
{
	struct img im = { 0 }, data = { 0 };
	uint64_t absurd = 1ULL << 40;
	struct run x;
	size_t aux;

	pipe_image(&im, 3000);
	aux = im.n - 56 - 3000 - 48;	/* the AUXTRACE record: SAMPLE is 56 bytes */
	memcpy(im.b + aux + 8, &absurd, 8);
	run_open(&x, &im, im.n, true, 0);
	CHECK_EQ(drain(&x, true), -1);
	CHECK_EQ(x.d.errors, 1);
	CHECK_EQ(x.d.bytes.lost, absurd - 3056);
	CHECK_EQ(x.d.bytes.decoded + x.d.bytes.skipped, im.n);
	run_close(&x);

	memcpy(im.b, "PERFILE3", 8);
	run_open(&x, &im, im.n, true, 0);
	CHECK(!x.r);
	CHECK(strstr(last_msg, "not a perf.data"));
	run_close(&x);
	free(im.b);

	/* a file-mode perf.data on a pipe: refused with a reason */
	im = (struct img){ 0 };
	small_image(&im, &data, &aux);
	run_open(&x, &im, im.n, true, 0);
	CHECK(!x.r);
	CHECK(strstr(last_msg, "pipe"));
	run_close(&x);
	free(im.b);
	free(data.b);
}

int main(void)
{
	RUN(test_file_mode);
	RUN(test_sample_id_variants);
	RUN(test_pipe_mode);
	RUN(test_window_straddle);
	RUN(test_compressed);
	RUN(test_cut_files);
	RUN(test_bad_sizes);
	RUN(test_overlapping_sections);
	RUN(test_pipe_absurd_and_junk);
	return check_done("reader");
}
