// SPDX-License-Identifier: GPL-2.0
/*
 * test_writer.c - the perf.data writer, byte by byte.
 *
 * Every expected offset is computed here from the layout perf 6.1 reads
 * (design.rst 3), not asked of the writer.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "hwtrace/perf_data.h"

static char path[] = "/tmp/test_writer.XXXXXX";
static uint8_t *file;
static size_t file_len;

static void load(void)
{
	FILE *f = fopen(path, "rb");

	free(file);
	file = NULL;
	file_len = 0;
	if (!f)
		return;
	fseek(f, 0, SEEK_END);
	file_len = ftell(f);
	fseek(f, 0, SEEK_SET);
	file = malloc(file_len + 1);
	if (fread(file, 1, file_len, f) != file_len)
		file_len = 0;
	fclose(f);
}

static uint64_t u64at(size_t off)
{
	uint64_t v = 0;

	if (off + 8 <= file_len)
		memcpy(&v, file + off, 8);
	return v;
}

static uint32_t u32at(size_t off)
{
	uint32_t v = 0;

	if (off + 4 <= file_len)
		memcpy(&v, file + off, 4);
	return v;
}

static uint16_t u16at(size_t off)
{
	uint16_t v = 0;

	if (off + 2 <= file_len)
		memcpy(&v, file + off, 2);
	return v;
}

static bool zero_at(size_t off, size_t n)
{
	if (off + n > file_len)
		return false;
	for (size_t i = 0; i < n; i++)
		if (file[off + i])
			return false;
	return true;
}

static const uint64_t ids0[] = { 101, 102 }, ids1[] = { 103 };

static void add_attrs(struct hwt_writer *w)
{
	struct hwt_writer_attr a0 = { .ids = ids0, .nr_ids = 2, .name = "ev0/x=1/" };
	struct hwt_writer_attr a1 = { .ids = ids1, .nr_ids = 1 };

	a0.attr.type = 42;
	a0.attr.config = 0x1234;
	a0.attr.size = 64;		/* the writer sets PERF_ATTR_SIZE_VER7 */
	a1.attr.type = PERF_TYPE_SOFTWARE;
	a1.attr.config = PERF_COUNT_SW_DUMMY;
	CHECK_EQ(hwt_writer__add_attr(w, &a0), 0);
	CHECK_EQ(hwt_writer__add_attr(w, &a1), 0);
}

/* A perf_header_string "host": u32 64, then 64 bytes of NUL-padded text. */
static void check_string(size_t off, const char *s)
{
	CHECK_EQ(u32at(off), 64);
	CHECK(off + 4 + 64 <= file_len && !memcmp(file + off + 4, s, strlen(s)));
	CHECK(zero_at(off + 4 + strlen(s), 64 - strlen(s)));
}

#define BIG (3u << 20)		/* bigger than the writer's buffer */

static void test_file_mode(void)
{
	struct hwt_writer *w = hwt_writer__new(path, false);
	struct perf_event_header round = { .type = HWT_REC_FINISHED_ROUND, .size = 8 };
	struct hwt_auxtrace at = { .offset = 0x1000, .reference = 77, .idx = 0, .tid = 5,
				   .cpu = 3 };
	const struct hwt_pmu_mapping maps[] = { { 42, "cxl_hmu_mem0.0.0" } };
	const uint32_t nrcpus[2] = { 8, 6 };
	uint8_t small[13];
	uint8_t *big = malloc(BIG);

	CHECK(w != NULL);
	if (!w || !big)
		return;
	for (size_t i = 0; i < sizeof(small); i++)
		small[i] = 0xa0 + i;
	for (size_t i = 0; i < BIG; i++)
		big[i] = (uint8_t)(i * 7 + 1);
	add_attrs(w);
	CHECK_EQ(hwt_writer__set_feature_string(w, HWT_FEAT_HOSTNAME, "host"), 0);
	CHECK_EQ(hwt_writer__set_feature(w, HWT_FEAT_NRCPUS, nrcpus, sizeof(nrcpus)), 0);
	CHECK_EQ(hwt_writer__set_pmu_mappings(w, maps, 1), 0);
	CHECK_EQ(hwt_writer__write(w, &round), 0);
	CHECK_EQ(hwt_writer__write_auxtrace(w, &at, small, sizeof(small)), 0);
	at.offset += 16;
	CHECK_EQ(hwt_writer__write_auxtrace(w, &at, big, BIG), 0);
	CHECK_EQ(hwt_writer__write(w, &round), 0);
	/* too late for attrs */
	CHECK_EQ(hwt_writer__add_attr(w, &(struct hwt_writer_attr){ 0 }), -1);
	CHECK_EQ(errno, EBUSY);
	CHECK_EQ(hwt_writer__delete(w), 0);
	load();

	/* header: ids arrays at 104 (16 + 8 bytes), attrs at 128 (2 x 144), data at 416 */
	CHECK(file_len > 104 && !memcmp(file, "PERFILE2", 8));
	CHECK_EQ(u64at(8), 104);
	CHECK_EQ(u64at(16), 144);
	CHECK_EQ(u64at(24), 128);
	CHECK_EQ(u64at(32), 288);
	CHECK_EQ(u64at(40), 416);
	CHECK_EQ(u64at(56), 0);			/* event_types */
	CHECK_EQ(u64at(64), 0);
	/* bits 3 HOSTNAME, 7 NRCPUS, 12 EVENT_DESC, 16 PMU_MAPPINGS, 18 AUXTRACE */
	CHECK_EQ(u64at(72), (1ULL << 3) | (1ULL << 7) | (1ULL << 12) | (1ULL << 16) | (1ULL << 18));
	CHECK_EQ(u64at(80) | u64at(88) | u64at(96), 0);
	CHECK_EQ(u64at(104), 101);
	CHECK_EQ(u64at(112), 102);
	CHECK_EQ(u64at(120), 103);

	/* attr section: attr (size 128) + {ids offset, ids size} */
	CHECK_EQ(u32at(128), 42);
	CHECK_EQ(u32at(132), 128);
	CHECK_EQ(u64at(128 + 8), 0x1234);
	CHECK_EQ(u64at(128 + 128), 104);
	CHECK_EQ(u64at(128 + 136), 16);
	CHECK_EQ(u32at(272), PERF_TYPE_SOFTWARE);
	CHECK_EQ(u32at(276), 128);
	CHECK_EQ(u64at(272 + 128), 120);
	CHECK_EQ(u64at(272 + 136), 8);

	/* data: round at 416, AUXTRACE at 424 (payload 472: 13 bytes + 3 zero) */
	CHECK_EQ(u32at(416), HWT_REC_FINISHED_ROUND);
	CHECK_EQ(u16at(422), 8);
	CHECK_EQ(u32at(424), HWT_REC_AUXTRACE);
	CHECK_EQ(u16at(430), 48);
	CHECK_EQ(u64at(432), 16);		/* size rounded up to 8 */
	CHECK_EQ(u64at(440), 0x1000);
	CHECK_EQ(u64at(448), 77);
	CHECK_EQ(u32at(456), 0);
	CHECK_EQ(u32at(460), 5);
	CHECK_EQ(u32at(464), 3);
	CHECK(file_len > 488 && !memcmp(file + 472, small, 13));
	CHECK(zero_at(485, 3));
	/* second AUXTRACE at 488, its 3 MiB payload at 536, then the round */
	size_t end = 536 + BIG;

	CHECK_EQ(u32at(488), HWT_REC_AUXTRACE);
	CHECK_EQ(u64at(496), BIG);
	CHECK_EQ(u64at(504), 0x1010);
	CHECK(file_len > end && !memcmp(file + 536, big, BIG));
	CHECK_EQ(u32at(end), HWT_REC_FINISHED_ROUND);
	end += 8;
	CHECK_EQ(u64at(48), end - 416);		/* data.size */

	/* feature table at data end, 5 entries; payloads follow in bit order */
	size_t tab = end, off = tab + 5 * 16;
	const uint64_t host_sz = 68, nr_sz = 8;
	const uint64_t ed_sz = 8 + (128 + 4 + 68 + 16) + (128 + 4 + 68 + 8);
	const uint64_t pm_sz = 4 + 4 + 68, ax_sz = 8 + 2 * 16;

	CHECK_EQ(u64at(tab + 0), off);
	CHECK_EQ(u64at(tab + 8), host_sz);
	CHECK_EQ(u64at(tab + 16), off + host_sz);
	CHECK_EQ(u64at(tab + 24), nr_sz);
	CHECK_EQ(u64at(tab + 32), off + host_sz + nr_sz);
	CHECK_EQ(u64at(tab + 40), ed_sz);
	CHECK_EQ(u64at(tab + 48), off + host_sz + nr_sz + ed_sz);
	CHECK_EQ(u64at(tab + 56), pm_sz);
	CHECK_EQ(u64at(tab + 64), off + host_sz + nr_sz + ed_sz + pm_sz);
	CHECK_EQ(u64at(tab + 72), ax_sz);
	CHECK_EQ(file_len, off + host_sz + nr_sz + ed_sz + pm_sz + ax_sz);

	check_string(off, "host");
	off += host_sz;
	CHECK_EQ(u32at(off), 8);
	CHECK_EQ(u32at(off + 4), 6);
	off += nr_sz;

	/* EVENT_DESC: nr, attr_size, then {attr, nr_ids, name, ids} per event */
	CHECK_EQ(u32at(off), 2);
	CHECK_EQ(u32at(off + 4), 128);
	CHECK_EQ(u32at(off + 8), 42);
	CHECK_EQ(u32at(off + 8 + 4), 128);
	CHECK_EQ(u32at(off + 8 + 128), 2);
	check_string(off + 8 + 132, "ev0/x=1/");
	CHECK_EQ(u64at(off + 8 + 200), 101);
	CHECK_EQ(u64at(off + 8 + 208), 102);
	size_t e1 = off + 8 + 216;

	CHECK_EQ(u32at(e1), PERF_TYPE_SOFTWARE);
	CHECK_EQ(u64at(e1 + 8), PERF_COUNT_SW_DUMMY);
	CHECK_EQ(u32at(e1 + 128), 1);
	check_string(e1 + 132, "");
	CHECK_EQ(u64at(e1 + 200), 103);
	off += ed_sz;

	/* PMU_MAPPINGS: nr, then {type, string} */
	CHECK_EQ(u32at(off), 1);
	CHECK_EQ(u32at(off + 4), 42);
	check_string(off + 8, "cxl_hmu_mem0.0.0");
	off += pm_sz;

	/* AUXTRACE index: total, then {file offset, 48} per AUXTRACE record */
	CHECK_EQ(u64at(off), 2);
	CHECK_EQ(u64at(off + 8), 424);
	CHECK_EQ(u64at(off + 16), 48);
	CHECK_EQ(u64at(off + 24), 488);
	CHECK_EQ(u64at(off + 32), 48);
	free(big);
}

static void test_pipe_mode(void)
{
	struct hwt_writer *w = hwt_writer__new(path, true);
	struct perf_event_header round = { .type = HWT_REC_FINISHED_ROUND, .size = 8 };
	struct hwt_auxtrace at = { .offset = 8, .tid = UINT32_MAX };
	const char td[13] = "tracing-data";	/* 12 chars + NUL */

	CHECK(w != NULL);
	if (!w)
		return;
	add_attrs(w);
	CHECK_EQ(hwt_writer__set_feature_string(w, HWT_FEAT_HOSTNAME, "host"), 0);
	CHECK_EQ(hwt_writer__set_tracing_data(w, td, sizeof(td)), 0);
	CHECK_EQ(hwt_writer__write(w, &round), 0);
	CHECK_EQ(hwt_writer__write_auxtrace(w, &at, "abcde", 5), 0);
	/* features can no longer be sent */
	CHECK_EQ(hwt_writer__set_feature_string(w, HWT_FEAT_ARCH, "x"), -1);
	CHECK_EQ(errno, EBUSY);
	CHECK_EQ(hwt_writer__delete(w), 0);
	load();

	CHECK(file_len > 16 && !memcmp(file, "PERFILE2", 8));
	CHECK_EQ(u64at(8), 16);
	/* HEADER_ATTR: header, attr, ids */
	CHECK_EQ(u32at(16), HWT_REC_HEADER_ATTR);
	CHECK_EQ(u16at(22), 8 + 128 + 16);
	CHECK_EQ(u32at(24), 42);
	CHECK_EQ(u32at(28), 128);
	CHECK_EQ(u64at(24 + 128), 101);
	CHECK_EQ(u64at(24 + 136), 102);
	CHECK_EQ(u32at(168), HWT_REC_HEADER_ATTR);
	CHECK_EQ(u16at(174), 8 + 128 + 8);
	CHECK_EQ(u64at(176 + 128), 103);
	/* HEADER_FEATURE HOSTNAME at 312: header, u64 feat, string, padded to 8 */
	CHECK_EQ(u32at(312), HWT_REC_HEADER_FEATURE);
	CHECK_EQ(u16at(318), 16 + 72);
	CHECK_EQ(u64at(320), HWT_FEAT_HOSTNAME);
	check_string(328, "host");
	CHECK(zero_at(396, 4));
	/* generated EVENT_DESC at 400: 432 bytes, padded to 432 */
	CHECK_EQ(u32at(400), HWT_REC_HEADER_FEATURE);
	CHECK_EQ(u16at(406), 16 + 432);
	CHECK_EQ(u64at(408), HWT_FEAT_EVENT_DESC);
	CHECK_EQ(u32at(416), 2);
	CHECK_EQ(u32at(420), 128);
	check_string(416 + 8 + 132, "ev0/x=1/");
	/* HEADER_TRACING_DATA at 848: {header, u32 size, u32 pad}, then data to 8 */
	CHECK_EQ(u32at(848), HWT_REC_HEADER_TRACING_DATA);
	CHECK_EQ(u16at(854), 16);
	CHECK_EQ(u32at(856), 16);
	CHECK_EQ(u32at(860), 0);
	CHECK(file_len > 880 && !memcmp(file + 864, td, 13));
	CHECK(zero_at(877, 3));
	/* the records; no AUXTRACE index in a pipe */
	CHECK_EQ(u32at(880), HWT_REC_FINISHED_ROUND);
	CHECK_EQ(u32at(888), HWT_REC_AUXTRACE);
	CHECK_EQ(u64at(896), 8);
	CHECK_EQ(u32at(924), UINT32_MAX);
	CHECK(file_len >= 941 && !memcmp(file + 936, "abcde", 5));
	CHECK(zero_at(941, 3));
	CHECK_EQ(file_len, 944);
}

/* No records, no named events: a valid empty file with only what was set. */
static void test_empty_and_explicit(void)
{
	struct hwt_writer *w = hwt_writer__new(path, false);
	struct hwt_writer_attr a = { .ids = ids1, .nr_ids = 1, .name = "gen" };
	const uint8_t desc[8] = { 0 };

	CHECK(w != NULL);
	if (!w)
		return;
	CHECK_EQ(hwt_writer__add_attr(w, &a), 0);
	/* an EVENT_DESC given by the caller replaces the generated one */
	CHECK_EQ(hwt_writer__set_feature(w, HWT_FEAT_EVENT_DESC, desc, sizeof(desc)), 0);
	CHECK_EQ(hwt_writer__set_feature(w, HWT_FEAT_MAX, desc, 1), -1);
	CHECK_EQ(hwt_writer__delete(w), 0);
	load();
	CHECK_EQ(u64at(24), 112);		/* after the 8-byte ids array */
	CHECK_EQ(u64at(32), 144);
	CHECK_EQ(u64at(40), 256);
	CHECK_EQ(u64at(48), 0);
	CHECK_EQ(u64at(72), 1ULL << 12);
	CHECK_EQ(u64at(256), 256 + 16);
	CHECK_EQ(u64at(264), 8);
	CHECK(zero_at(272, 8));
	CHECK_EQ(file_len, 280);
}

static void test_errors(void)
{
	struct hwt_writer *w;
	struct perf_event_header bad = { .type = HWT_REC_FINISHED_ROUND, .size = 4 };

	errno = 0;
	CHECK(hwt_writer__new("/nonexistent-dir/x/perf.data", false) == NULL);
	CHECK_EQ(errno, ENOENT);
	w = hwt_writer__new(path, false);
	CHECK(w != NULL);
	if (!w)
		return;
	CHECK_EQ(hwt_writer__write(w, &bad), -1);
	CHECK_EQ(errno, EINVAL);
	CHECK_EQ(hwt_writer__delete(w), 0);
	/* a full disk is reported at close at the latest */
	w = hwt_writer__new("/dev/full", false);
	if (w) {
		struct perf_event_header round = { .type = HWT_REC_FINISHED_ROUND, .size = 8 };

		hwt_writer__write(w, &round);
		CHECK_EQ(hwt_writer__delete(w), -1);
		CHECK_EQ(errno, ENOSPC);
	}
}

int main(void)
{
	int fd = mkstemp(path);

	if (fd < 0) {
		perror("mkstemp");
		return 1;
	}
	close(fd);
	RUN(test_file_mode);
	RUN(test_pipe_mode);
	RUN(test_empty_and_explicit);
	RUN(test_errors);
	unlink(path);
	free(file);
	return check_done("writer");
}
