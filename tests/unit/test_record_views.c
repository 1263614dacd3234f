// SPDX-License-Identifier: GPL-2.0
/* test_record_views.c - typed views of record bodies (COMM, cpu maps, SAMPLE). */
#include <string.h>

#include "hwtrace/perf_data.h"
#include "perf_data/record_views_internal.h"
#include "check.h"

/* A COMM record laid out by hand: header, pid, tid, name padded to 8, trailer. */
static void test_comm(void)
{
	uint8_t rec[48] = { 0 };
	struct perf_event_header *h = (void *)rec;
	struct hwt_attr attr = { .sample_id_size = 16 };
	struct hwt_event ev = { .hdr = h };
	uint32_t pid = 0, tid = 0, v;
	const char *comm = NULL;
	size_t len = 0;

	h->type = PERF_RECORD_COMM;
	h->size = 16 + 16 + 16;		/* name area 16 bytes, 16-byte trailer */
	v = 4242;
	memcpy(rec + 8, &v, 4);
	v = 4243;
	memcpy(rec + 12, &v, 4);
	memcpy(rec + 16, "kworker/0:1", 11);
	memset(rec + 32, 'X', 16);	/* trailer bytes: never part of the name */
	CHECK(hwt_event__comm(&ev, &pid, &tid, &comm, &len));
	CHECK_EQ(pid, 4242);
	CHECK_EQ(tid, 4243);
	CHECK_EQ(len, 11);
	CHECK(!memcmp(comm, "kworker/0:1", 11));

	/* a name filling its area with no NUL stops at the trailer, not past it */
	memset(rec + 16, 'a', 16);
	attr.attr.sample_id_all = 1;
	ev.attr = &attr;
	CHECK(hwt_event__comm(&ev, &pid, &tid, &comm, &len));
	CHECK_EQ(len, 16);
	/* without sample_id_all the whole body may be name */
	attr.attr.sample_id_all = 0;
	CHECK(hwt_event__comm(&ev, &pid, &tid, &comm, &len));
	CHECK_EQ(len, 32);

	h->size = 12;			/* too short to hold pid and tid */
	CHECK(!hwt_event__comm(&ev, &pid, &tid, &comm, &len));
	h->size = 48;
	h->type = PERF_RECORD_EXIT;
	CHECK(!hwt_event__comm(&ev, &pid, &tid, &comm, &len));
}

/* perf_record_cpu_map_data in its three forms, laid out by hand (packed, LE) */
static void test_cpu_map_data(void)
{
	/* CPUS: nr 3: 0, 5, -1 (u16 0xffff is "any") */
	const uint8_t cpus[] = { 0, 0, 3, 0, 0, 0, 5, 0, 0xff, 0xff };
	/* MASK, long_size 4: words 0x11 and 0x1 -> cpus 0, 4, 32 */
	const uint8_t mask32[] = { 1, 0, 2, 0, 4, 0, 0x11, 0, 0, 0, 1, 0, 0, 0 };
	/* MASK, long_size 8: u32 pad, then one word with bits 1 and 63 */
	const uint8_t mask64[] = { 1, 0, 1, 0, 8, 0, 0, 0, 0, 0,
				   2, 0, 0, 0, 0, 0, 0, 0x80 };
	/* RANGE with any_cpu: -1, 2, 3, 4 */
	const uint8_t range[] = { 2, 0, 1, 0, 2, 0, 4, 0 };
	int32_t out[8];

	CHECK_EQ(hwt_cpu_map_data__cpus(cpus, sizeof(cpus), out, 8), 3);
	CHECK(out[0] == 0 && out[1] == 5 && out[2] == -1);
	CHECK_EQ(hwt_cpu_map_data__cpus(cpus, sizeof(cpus) - 2, out, 8), -1);
	CHECK_EQ(hwt_cpu_map_data__cpus(mask32, sizeof(mask32), out, 8), 3);
	CHECK(out[0] == 0 && out[1] == 4 && out[2] == 32);
	CHECK_EQ(hwt_cpu_map_data__cpus(mask64, sizeof(mask64), out, 8), 2);
	CHECK(out[0] == 1 && out[1] == 63);
	CHECK_EQ(hwt_cpu_map_data__cpus(range, sizeof(range), out, 8), 4);
	CHECK(out[0] == -1 && out[1] == 2 && out[3] == 4);
	/* counted past @max, only @max written */
	CHECK_EQ(hwt_cpu_map_data__cpus(range, sizeof(range), out, 1), 4);
	CHECK_EQ(hwt_cpu_map_data__cpus(range, 6, out, 8), -1);
}

/* IP | TID | CALLCHAIN | DATA_SRC: the chain and the field after it */
static void test_sample_callchain(void)
{
	uint64_t rec[1 + 2 + 1 + 3 + 1] = { 0 };
	struct perf_event_header *h = (void *)rec;
	struct hwt_attr attr = { 0 };
	struct hwt_event ev = { .hdr = h, .attr = &attr };
	struct hwt_sample_view sv;

	attr.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN |
				PERF_SAMPLE_DATA_SRC;
	h->type = PERF_RECORD_SAMPLE;
	h->misc = PERF_RECORD_MISC_USER;
	h->size = sizeof(rec);
	rec[1] = 0x401000;
	rec[2] = 7 | (uint64_t)8 << 32;
	rec[3] = 3;
	rec[4] = 0xfffffffffffffe00ULL;
	rec[5] = 0x401000;
	rec[6] = 0x402000;
	rec[7] = 0x1e05080021ULL;
	CHECK(hwt_event__sample(&ev, &sv));
	CHECK_EQ(sv.pid, 7);
	CHECK_EQ(sv.tid, 8);
	CHECK_EQ(sv.cpumode, PERF_RECORD_MISC_USER);
	CHECK(sv.has_callchain);
	CHECK_EQ(sv.callchain_nr, 3);
	CHECK_EQ(hwt_sample_view__callchain_ip(&sv, 2), 0x402000);
	CHECK(sv.parsed_all);
	CHECK_EQ(sv.data_src, 0x1e05080021ULL);
	/* a chain longer than the record: refused, never read past it */
	rec[3] = 100;
	CHECK(!hwt_event__sample(&ev, &sv));
	/* cut before data_src: the chain is there, the rest is not */
	rec[3] = 3;
	h->size = sizeof(rec) - 8;
	CHECK(hwt_event__sample(&ev, &sv));
	CHECK(!sv.parsed_all);
}

/* IP | BRANCH_STACK (HW_INDEX) | DATA_SRC: two entries, hw_idx and the field after them */
static void test_sample_branch_stack(void)
{
	uint64_t rec[1 + 1 + 2 + 2 * 3 + 1] = { 0 };
	struct perf_event_header *h = (void *)rec;
	struct hwt_attr attr = { 0 };
	struct hwt_event ev = { .hdr = h, .attr = &attr };
	struct hwt_sample_view sv;
	uint64_t from, to, flags;

	attr.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_DATA_SRC;
	attr.attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
	h->type = PERF_RECORD_SAMPLE;
	h->size = sizeof(rec);
	rec[1] = 0x401000;
	rec[2] = 2;			/* nr */
	rec[3] = 5;			/* hw_idx */
	rec[4] = 0x10;
	rec[5] = 0x20;
	rec[6] = 0x71;
	rec[7] = 0x30;
	rec[8] = 0x40;
	rec[9] = 0x62;
	rec[10] = 0xabc;
	CHECK(hwt_event__sample(&ev, &sv));
	CHECK(sv.has_branch);
	CHECK_EQ(sv.branch_nr, 2);
	CHECK_EQ(sv.branch_hw_idx, 5);
	hwt_sample_view__branch(&sv, 1, &from, &to, &flags);
	CHECK_EQ(from, 0x30);
	CHECK_EQ(to, 0x40);
	CHECK_EQ(flags, 0x62);
	CHECK(sv.parsed_all);
	CHECK_EQ(sv.data_src, 0xabc);
	/* without HW_INDEX the entries start right after nr */
	attr.attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	rec[3] = 0x10;
	rec[4] = 0x20;
	rec[5] = 0x71;
	CHECK(hwt_event__sample(&ev, &sv));
	hwt_sample_view__branch(&sv, 0, &from, &to, &flags);
	CHECK_EQ(from, 0x10);
	CHECK_EQ(flags, 0x71);
	/* more entries than the record holds: no branch stack, never read past it */
	rec[2] = 4;
	CHECK(hwt_event__sample(&ev, &sv));
	CHECK(!sv.has_branch);
	CHECK(!sv.parsed_all);
}

int main(void)
{
	RUN(test_comm);
	RUN(test_cpu_map_data);
	RUN(test_sample_callchain);
	RUN(test_sample_branch_stack);
	return check_done("record_views");
}
