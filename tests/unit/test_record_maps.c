// SPDX-License-Identifier: GPL-2.0
/*
 * test_record_maps.c - ID_INDEX, THREAD_MAP, CPU_MAP and FINISHED_INIT as
 * record writes them (plugins/perf-hwtrace/record_maps.c), byte by byte.
 *
 * The expected bytes are worked out here from perf 6.1's layouts
 * (tools/lib/perf/include/perf/event.h) and its choice of CPU map encoding
 * (util/synthetic-events.c, cpu_map_data__alloc()): a consecutive range
 * as a range; else a list when "any CPU" is in it or the list is smaller
 * than a mask of 32-bit words; else the mask.  record.bats compares the
 * range case with stock perf record's own records.
 */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "../../plugins/perf-hwtrace/record_state.h"

static char path[] = "/tmp/test_record_maps.XXXXXX";
static uint8_t file[1 << 20];
static size_t file_len;
static struct rec_event ev[2];

/* write with @fn into a pipe-mode file (records from byte 16) and load it */
static void write_with(int (*fn)(struct hwt_writer *w, int arg), int arg)
{
	struct hwt_writer *w = hwt_writer__new(path, true);
	FILE *f;

	file_len = 0;
	CHECK(w != NULL);
	if (!w)
		return;
	CHECK_EQ(fn(w, arg), 0);
	CHECK_EQ(hwt_writer__delete(w), 0);
	f = fopen(path, "rb");
	if (f) {
		file_len = fread(file, 1, sizeof(file), f);
		fclose(f);
	}
}

/* the @nth record of type @type (its header's offset), or 0 */
static size_t find(uint32_t type, int nth)
{
	for (size_t off = 16; off + 8 <= file_len;) {
		uint32_t t;
		uint16_t size;

		memcpy(&t, file + off, 4);
		memcpy(&size, file + off + 6, 2);
		if (size < 8)
			break;
		if (t == type && !nth--)
			return off;
		off += size;
	}
	return 0;
}

static int cpus_only(struct hwt_writer *w, int pid)
{
	return rec_maps__threads_cpus(w, ev, 2, pid);
}

/* ev[0] on @n CPUs @cpu, ev[1] on none; CPU_MAP's record must be @want */
static void check_cpu_map(const int *cpu, int n, const uint8_t *want, size_t len)
{
	size_t off;

	memset(ev, 0, sizeof(ev));
	for (int i = 0; i < n; i++)
		ev[0].cpus[i] = cpu[i];
	ev[0].nfd = n;
	write_with(cpus_only, -1);
	off = find(74, 0);
	CHECK(off != 0);
	CHECK(off + len <= file_len);
	if (off && off + len <= file_len)
		CHECK(!memcmp(file + off, want, len));
}

static void test_cpu_map(void)
{
	/* 0-3: range (type 2): any_cpu 0, pad, start 0, end 3; 16 bytes */
	static const int r[] = { 3, 1, 2, 0, 2 };	/* unsorted, 2 twice */
	static const uint8_t rw[] = { 74, 0, 0, 0, 0, 0, 16, 0,
				      2, 0, 0, 0, 0, 0, 3, 0 };
	/* 0,2: list (8 bytes) < mask (10): type 0, nr 2, 0, 2 */
	static const int l[] = { 0, 2 };
	static const uint8_t lw[] = { 74, 0, 0, 0, 0, 0, 16, 0,
				      0, 0, 2, 0, 0, 0, 2, 0 };
	/* 0,2,5: list 10 bytes, mask 10: the mask (type 1, nr 1, 4, 0x25) */
	static const int m[] = { 0, 2, 5 };
	static const uint8_t mw[] = { 74, 0, 0, 0, 0, 0, 24, 0,
				      1, 0, 1, 0, 4, 0, 0x25, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	/* -1 (any CPU, a per-task map): a list whatever its size, 0xffff */
	static const int a[] = { -1 };
	static const uint8_t aw[] = { 74, 0, 0, 0, 0, 0, 16, 0,
				      0, 0, 1, 0, 0xff, 0xff, 0, 0 };
	/*
	 * 0, 2, .., 64: a mask of 3 words.  perf counts BITS_TO_U32(64) = 2
	 * words and writes CPU 64's bit past them; here it is in the third.
	 * 2 + 4 + 3 * 4 = 18 bytes of data, 24 with the padding: 32 in all.
	 */
	static int e[33];
	static const uint8_t ew[] = { 74, 0, 0, 0, 0, 0, 32, 0, 1, 0, 3, 0, 4, 0,
				      0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55,
				      1, 0, 0, 0, 0, 0, 0, 0, 0, 0 };

	for (int i = 0; i < 33; i++)
		e[i] = 2 * i;
	check_cpu_map(r, 5, rw, sizeof(rw));
	check_cpu_map(l, 2, lw, sizeof(lw));
	check_cpu_map(m, 3, mw, sizeof(mw));
	check_cpu_map(a, 1, aw, sizeof(aw));
	check_cpu_map(e, 33, ew, sizeof(ew));
}

static void test_thread_map(void)
{
	/* nr 1, {pid, comm[16] zero}: 40 bytes, before CPU_MAP */
	uint8_t want[40] = { 73, 0, 0, 0, 0, 0, 40, 0, 1 };
	size_t off;

	memset(ev, 0, sizeof(ev));
	ev[0].nfd = 1;
	for (int pid = -1; pid <= 4321; pid += 4322) {
		uint64_t p = pid > 0 ? (uint64_t)pid : (uint64_t)-1;

		memcpy(want + 16, &p, 8);
		write_with(cpus_only, pid);
		off = find(73, 0);
		CHECK(off != 0 && off < find(74, 0));
		CHECK(off + 40 <= file_len && !memcmp(file + off, want, 40));
	}
}

static int id_index(struct hwt_writer *w, int nev)
{
	return rec_maps__id_index(w, ev, nev);
}

/* entry @i of the ID_INDEX record at @off */
static void check_entry(size_t off, uint64_t i, uint64_t id, uint64_t idx, int64_t cpu,
			int64_t tid)
{
	uint64_t v[4];

	CHECK(off + 16 + 32 * (i + 1) <= file_len);
	if (off + 16 + 32 * (i + 1) > file_len)
		return;
	memcpy(v, file + off + 16 + 32 * i, sizeof(v));
	CHECK_EQ(v[0], id);
	CHECK_EQ(v[1], idx);
	CHECK_EQ(v[2], (uint64_t)cpu);
	CHECK_EQ(v[3], (uint64_t)tid);
}

static void test_id_index(void)
{
	size_t off, off2;
	uint64_t nr;
	uint16_t size;

	/* two events: the ring index runs on across them; tid -1 or the task's */
	memset(ev, 0, sizeof(ev));
	ev[0] = (struct rec_event){ .ids = { 11, 12 }, .cpus = { 0, 1 }, .nfd = 2, .pid = -1 };
	ev[1] = (struct rec_event){ .ids = { 21 }, .cpus = { 3 }, .nfd = 1, .pid = 77 };
	write_with(id_index, 2);
	off = find(69, 0);
	CHECK(off != 0);
	memcpy(&size, file + off + 6, 2);
	memcpy(&nr, file + off + 8, 8);
	CHECK_EQ(size, 16 + 3 * 32);
	CHECK_EQ(nr, 3);
	check_entry(off, 0, 11, 0, 0, -1);
	check_entry(off, 1, 12, 1, 1, -1);
	check_entry(off, 2, 21, 2, 3, 77);
	CHECK_EQ(find(69, 1), 0);

	/* 3000 ids: a record's size is 16 bits; 2047 entries, then the rest */
	memset(ev, 0, sizeof(ev));
	for (int i = 0; i < 3000; i++) {
		ev[0].ids[i] = 1000 + i;
		ev[0].cpus[i] = i;
	}
	ev[0].nfd = 3000;
	ev[0].pid = -1;
	write_with(id_index, 1);
	off = find(69, 0);
	off2 = find(69, 1);
	CHECK(off && off2 > off);
	memcpy(&nr, file + off + 8, 8);
	CHECK_EQ(nr, 2047);
	memcpy(&size, file + off + 6, 2);
	CHECK_EQ(size, 16 + 2047 * 32);
	memcpy(&nr, file + off2 + 8, 8);
	CHECK_EQ(nr, 3000 - 2047);
	check_entry(off, 2046, 1000 + 2046, 2046, 2046, -1);
	check_entry(off2, 0, 1000 + 2047, 2047, 2047, -1);
	check_entry(off2, 952, 1000 + 2999, 2999, 2999, -1);
	CHECK_EQ(find(69, 2), 0);
}

static int finished(struct hwt_writer *w, int unused)
{
	return rec_maps__finished_init(w);
}

static void test_finished_init(void)
{
	static const uint8_t want[] = { 82, 0, 0, 0, 0, 0, 8, 0 };
	size_t off;

	write_with(finished, 0);
	off = find(82, 0);
	CHECK(off != 0 && off + 8 == file_len);
	CHECK(off && !memcmp(file + off, want, 8));
}

int main(void)
{
	int fd = mkstemp(path);

	if (fd < 0)
		return 1;
	close(fd);
	RUN(test_cpu_map);
	RUN(test_thread_map);
	RUN(test_id_index);
	RUN(test_finished_init);
	unlink(path);
	return check_done("record_maps");
}
