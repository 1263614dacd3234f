// SPDX-License-Identifier: GPL-2.0
/*
 * test_record.c - pieces of `perf hwtrace record` (plugins/perf-hwtrace/
 * record_*.c): the ring drain on a user page, data ring and AUX area laid
 * out in memory as the kernel would, including the values a corrupt ring
 * could hold; the AUXTRACE_INFO words taken from format terms and caps/.
 * Expected counts and bytes are those the test itself put there.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "i915_oa/i915_oa_internal.h"
#include "hwtrace/panthor.h"
#include "hwtrace/perf_data.h"
#include "pmu/pmu_internal.h"
#include "../../plugins/perf-hwtrace/record_state.h"

#define DATA_SIZE	4096
#define AUX_SIZE	4096

struct fake {
	struct rec_ring r;
	struct rec_stats st;
	struct hwt_writer *w;
	char path[64];
};

static void fake_init(struct fake *f)
{
	int fd;

	memset(f, 0, sizeof(*f));
	f->r.fd = -1;		/* a re-enable ioctl fails quietly */
	f->r.up = calloc(1, sizeof(*f->r.up));
	f->r.data = calloc(1, DATA_SIZE);
	f->r.data_size = DATA_SIZE;
	f->r.aux = malloc(AUX_SIZE);
	f->r.aux_size = AUX_SIZE;
	for (int i = 0; i < AUX_SIZE; i++)
		f->r.aux[i] = (uint8_t)(i * 7 + 1);
	snprintf(f->path, sizeof(f->path), "/tmp/hwt-ring-XXXXXX");
	fd = mkstemp(f->path);
	CHECK(fd >= 0);
	close(fd);
	f->w = hwt_writer__new(f->path, false);
	CHECK(f->w != NULL);
}

static void fake_fini(struct fake *f)
{
	if (f->w)
		hwt_writer__delete(f->w);
	unlink(f->path);
	free(f->r.up);
	free(f->r.data);
	free(f->r.aux);
}

/* Append a record of @size bytes (type @type, u64 body words @body) at data_head. */
static void put_rec(struct fake *f, uint32_t type, uint16_t size, const uint64_t *body, int n)
{
	struct perf_event_header h = { .type = type, .size = size };
	uint64_t head = f->r.up->data_head;
	uint8_t rec[64] = { 0 };

	memcpy(rec, &h, sizeof(h));
	if (n)
		memcpy(rec + 8, body, n * 8);
	for (int i = 0; i < size; i++)
		f->r.data[(head + i) % DATA_SIZE] = rec[i];
	f->r.up->data_head = head + size;
}

static void put_aux(struct fake *f, uint64_t off, uint64_t size)
{
	const uint64_t body[3] = { off, size, 0 };

	put_rec(f, PERF_RECORD_AUX, 32, body, 3);
}

/* AUXTRACE payloads of @path, concatenated into @buf; returns their count. */
static int read_auxtrace(const char *path, uint8_t *buf, size_t max, size_t *len)
{
	struct hwt_diag d = { 0 };
	struct hwt_reader *rd = hwt_reader__new(path, &d);
	struct hwt_event ev;
	int n = 0;

	*len = 0;
	CHECK(rd != NULL);
	if (!rd)
		return -1;
	while (hwt_reader__next(rd, &ev) == 1) {
		const void *p;
		ssize_t got;

		if (ev.hdr->type != HWT_REC_AUXTRACE)
			continue;
		n++;
		while ((got = hwt_reader__payload(rd, &p)) > 0 && *len + got <= max) {
			memcpy(buf + *len, p, got);
			*len += got;
		}
	}
	hwt_reader__delete(rd);
	CHECK_EQ(d.errors, 0);
	return n;
}

/* A well-formed drain: two AUX records in a row become one AUXTRACE record. */
static void test_good(void)
{
	static const uint64_t lost[2] = { 7, 3 };
	struct fake f;
	uint8_t got[AUX_SIZE];
	size_t len;

	fake_init(&f);
	put_aux(&f, 0, 64);
	put_aux(&f, 64, 32);
	put_rec(&f, PERF_RECORD_LOST, 24, lost, 2);
	CHECK_EQ(rec_ring__drain(&f.r, f.w, &f.st, NULL), 32 + 32 + 24);
	CHECK_EQ(f.st.records, 3);
	CHECK_EQ(f.st.aux_records, 2);
	CHECK_EQ(f.st.lost_events, 3);
	CHECK_EQ(f.st.auxtrace_records, 1);
	CHECK_EQ(f.st.aux_bytes, 96);
	CHECK_EQ(f.st.bad_records + f.st.aux_bad_records, 0);
	CHECK_EQ(f.r.up->data_tail, 88);
	CHECK_EQ(f.r.up->aux_tail, 96);
	CHECK_EQ(hwt_writer__delete(f.w), 0);
	f.w = NULL;
	CHECK_EQ(read_auxtrace(f.path, got, sizeof(got), &len), 1);
	CHECK_EQ(len, 96);
	CHECK(!memcmp(got, f.r.aux, 96));
	fake_fini(&f);
}

/*
 * data_head more than a ring ahead of data_tail (or behind it): the ring
 * cannot be walked, so nothing of it is taken; the next drain goes on.
 */
static void test_bad_data_head(void)
{
	static const uint64_t lost[2] = { 1, 1 };
	struct fake f;

	fake_init(&f);
	/* a ring full of 8-byte records a walk would take for real ones */
	for (int i = 0; i < DATA_SIZE / 8; i++)
		put_rec(&f, HWT_REC_FINISHED_ROUND, 8, NULL, 0);
	f.r.up->data_head = 3 * DATA_SIZE;
	CHECK_EQ(rec_ring__drain(&f.r, f.w, &f.st, NULL), 3 * DATA_SIZE);
	CHECK_EQ(f.st.records, 0);
	CHECK_EQ(f.st.bad_records, 1);
	CHECK_EQ(f.r.up->data_tail, 3 * DATA_SIZE);

	/* behind the tail: nothing taken, the tail stays */
	f.r.up->data_head = DATA_SIZE;
	CHECK_EQ(rec_ring__drain(&f.r, f.w, &f.st, NULL), 0);
	CHECK_EQ(f.st.records, 0);
	CHECK_EQ(f.st.bad_records, 2);
	CHECK_EQ(f.r.up->data_tail, 3 * DATA_SIZE);
	f.r.up->data_head = 3 * DATA_SIZE;

	/* a sane head again: its record is taken */
	put_rec(&f, PERF_RECORD_LOST, 24, lost, 2);
	CHECK_EQ(rec_ring__drain(&f.r, f.w, &f.st, NULL), 24);
	CHECK_EQ(f.st.records, 1);
	CHECK_EQ(f.st.lost_records, 1);
	fake_fini(&f);
}

/* A record whose size runs past data_head ends the read; sizes below 8 too. */
static void test_bad_record_size(void)
{
	struct fake f;

	fake_init(&f);
	put_rec(&f, HWT_REC_FINISHED_ROUND, 8, NULL, 0);
	put_rec(&f, HWT_REC_FINISHED_ROUND, 8, NULL, 0);
	f.r.data[8 + 7] = 0xf0;		/* second record: size 0xf008 */
	CHECK_EQ(rec_ring__drain(&f.r, f.w, &f.st, NULL), 16);
	CHECK_EQ(f.st.records, 1);
	CHECK_EQ(f.st.bad_records, 1);
	fake_fini(&f);
}

/*
 * PERF_RECORD_AUX ranges outside [taken, aux_tail + aux_size): too large,
 * far ahead, wrapping around 2^64, behind what was taken.  Each is counted
 * and skipped; aux_tail never moves past what the kernel could have
 * written; the good records around them are copied.
 */
static void test_bad_aux_range(void)
{
	struct fake f;
	uint8_t got[2 * AUX_SIZE];
	size_t len;

	fake_init(&f);
	put_aux(&f, 0, 128);
	put_aux(&f, 128, 2 * AUX_SIZE);		/* larger than the area */
	put_aux(&f, 1ull << 62, 64);		/* far ahead */
	put_aux(&f, UINT64_MAX - 8, 64);	/* off + size wraps */
	put_aux(&f, 64, 64);			/* behind what was taken */
	put_aux(&f, 128, 64);			/* follows on */
	CHECK_EQ(rec_ring__drain(&f.r, f.w, &f.st, NULL), 6 * 32);
	CHECK_EQ(f.st.aux_records, 6);
	CHECK_EQ(f.st.aux_bad_records, 4);
	CHECK_EQ(f.st.aux_gap_bytes, 0);
	CHECK_EQ(f.st.aux_bytes, 192);
	CHECK_EQ(f.r.up->aux_tail, 192);

	/* the window moved with aux_tail: up to 192 + AUX_SIZE is fine, past is not */
	put_aux(&f, 192, AUX_SIZE);
	put_aux(&f, 192 + AUX_SIZE, 1);
	CHECK_EQ(rec_ring__drain(&f.r, f.w, &f.st, NULL), 2 * 32);
	CHECK_EQ(f.st.aux_bad_records, 5);
	CHECK_EQ(f.st.aux_bytes, 192 + AUX_SIZE);
	CHECK_EQ(f.r.up->aux_tail, 192 + AUX_SIZE);
	CHECK_EQ(hwt_writer__delete(f.w), 0);
	f.w = NULL;
	CHECK_EQ(read_auxtrace(f.path, got, sizeof(got), &len), 2);
	CHECK_EQ(len, 192 + AUX_SIZE);
	CHECK(!memcmp(got, f.r.aux, 192));
	/* the second AUXTRACE record starts at area offset 192 and wraps */
	CHECK(!memcmp(got + 192, f.r.aux + 192, AUX_SIZE - 192));
	CHECK(!memcmp(got + AUX_SIZE, f.r.aux, 192));
	fake_fini(&f);
}

/*
 * AUXTRACE_INFO words from a term split over two bit ranges (read back in
 * full, not from its first range only) and from caps/ files, where junk
 * leaves the default in place instead of a half-parsed number.
 */
static void test_auxinfo_words(void)
{
	static struct rec_event ev;
	char root[] = "/tmp/hwt-rec-XXXXXX", dir[512], cmd[600], err[256];
	uint64_t buf[2 + 32];
	const struct hwt_auxtrace_info *info = (const void *)buf;

	CHECK(mkdtemp(root) != NULL);
	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices/i915_oa0/caps", root);
	check_put_file(dir, "ts_freq", "-1\n");		/* a sign: not a number of Hz */
	check_put_file(dir, "metrics_set", "7x\n");	/* junk after a number */
	check_put_file(dir, "ctx_handle", "0x2a\n");

	memset(&ev, 0, sizeof(ev));
	ev.name = "i915_oa0/oa_exponent=0x35/";
	ev.aux = REC_AUX_DEVICE;
	ev.dev = hwt_device__by_pmu("i915_oa0");
	CHECK(ev.dev == &hwt_device_i915_oa);
	ev.pmu = hwt_pmu__new("i915_oa0", 42);
	CHECK_EQ(hwt_pmu__add_format(ev.pmu, "oa_exponent", "config:0-3,8-11", err,
				     sizeof(err)), 0);
	CHECK_EQ(hwt_pmu__encode_err(ev.pmu, "oa_exponent=0x35", &ev.attr, err, sizeof(err)), 0);
	CHECK_EQ(ev.attr.config, 0x305);	/* low nibble at bits 0-3, high at 8-11 */
	CHECK_EQ(rec_aux__info(root, &ev, buf, sizeof(buf) / 8, err, sizeof(err)),
		 8 + 8 + HWT_I915_OA_NPRIV_V2 * 8);	/* layout 2 */
	CHECK_EQ(info->type, HWT_AUXTRACE_I915_OA);
	CHECK_EQ(info->priv[HWT_I915_OA_PRIV_PMU], 42);
	CHECK_EQ(info->priv[HWT_I915_OA_PRIV_EXPONENT], 0x35);	/* both ranges of the term */
	CHECK_EQ(info->priv[HWT_I915_OA_PRIV_TS_FREQ], 19200000);	/* default, not 2^64 - 1 */
	CHECK_EQ(info->priv[HWT_I915_OA_PRIV_METRICS_SET], 0);	/* the default, not junk */
	CHECK_EQ(info->priv[HWT_I915_OA_PRIV_CTX], 0x2a);
	hwt_pmu__delete(ev.pmu);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK_EQ(system(cmd), 0);
}

/* An MMAP (name at 40) or MMAP2 (name at 72) record naming @name, @size bytes. */
static void put_mmap(struct fake *f, uint32_t type, const char *name, uint16_t size)
{
	size_t at = type == PERF_RECORD_MMAP ? 40 : 72;
	struct perf_event_header h = { .type = type, .size = size };
	uint64_t head = f->r.up->data_head;
	uint8_t rec[256] = { 0 };

	memcpy(rec, &h, sizeof(h));
	memcpy(rec + at, name, strlen(name) < size - at ? strlen(name) : size - at);
	for (int i = 0; i < size; i++)
		f->r.data[(head + i) % DATA_SIZE] = rec[i];
	f->r.up->data_head = head + size;
}

/* The files MMAP/MMAP2 records name are collected for the build ids, once each. */
static void test_mmap_names(void)
{
	struct rec_dsos d = { 0 };
	struct fake f;

	fake_init(&f);
	put_mmap(&f, PERF_RECORD_MMAP2, "/usr/lib/libfoo.so", 72 + 24);
	put_mmap(&f, PERF_RECORD_MMAP2, "/usr/lib/libfoo.so", 72 + 24);
	put_mmap(&f, PERF_RECORD_MMAP, "/bin/bar", 40 + 16);
	put_mmap(&f, PERF_RECORD_MMAP2, "[vdso]", 72 + 8);		/* not a file */
	put_mmap(&f, PERF_RECORD_MMAP2, "/no/nul/in/16", 72 + 8);	/* cut: no NUL */
	CHECK_EQ(rec_ring__drain(&f.r, f.w, &f.st, &d), 96 * 2 + 56 + 80 * 2);
	CHECK_EQ(f.st.records, 5);
	CHECK_EQ(d.n, 2);
	CHECK(d.n == 2 && !strcmp(d.names[0], "/usr/lib/libfoo.so") &&
	      !strcmp(d.names[1], "/bin/bar"));
	fake_fini(&f);
	rec_dsos__free(&d);

	/* a long recording: many repeats stay a few names (compacted when full) */
	for (int i = 0; i < 100000; i++)
		CHECK_EQ(rec_dsos__add(&d, i % 3 ? (i % 3 == 1 ? "/a" : "/b") : "/c"), 0);
	CHECK(d.cap <= 256);
	/* unreadable files: no entry, no feature; the set ends sorted and unique */
	CHECK_EQ(rec_buildid__set(NULL, "/nonexistent", &d, false), 0);
	CHECK(d.n == 3 && !strcmp(d.names[0], "/a") && !strcmp(d.names[2], "/c"));
	rec_dsos__free(&d);
}

int main(void)
{
	RUN(test_good);
	RUN(test_bad_data_head);
	RUN(test_bad_record_size);
	RUN(test_bad_aux_range);
	RUN(test_auxinfo_words);
	RUN(test_mmap_names);
	return check_done("record");
}
