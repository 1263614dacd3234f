// SPDX-License-Identifier: GPL-2.0
/*
 * test_map_ahead.c - the mapping a thread maps ahead of the reader and
 * unmaps behind it (decoders/core/map_ahead.c).
 *
 * Files of a known byte pattern, smaller than the look-ahead (no thread),
 * of a few windows and of an odd size, are read in pieces that advance by
 * uneven steps and overlap as the session's do: every byte read must be
 * the file's.  The pages behind the reader must go (mincore() then fails
 * with ENOMEM), and nothing of the file may stay mapped after delete.
 * With the thread held (as one the scheduler does not run), the pages
 * before the last read's start must be gone as each read returns.  A
 * reader that runs ahead of the thread unmaps the pages the thread is
 * mapping: that must not fault (a thread that maps by reading does).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "core/map_ahead.h"

#define AHEAD (64u << 10)

static uint8_t pattern(uint64_t i)
{
	return (uint8_t)((i * 2654435761u) >> 13);
}

/* a temporary file of @size pattern bytes, open for reading, or -1 */
static int make_file(uint64_t size)
{
	char path[] = "/tmp/hwtrace-map-ahead-XXXXXX";
	uint8_t buf[4096];
	int fd = mkstemp(path);

	if (fd < 0)
		return -1;
	unlink(path);
	for (uint64_t off = 0; off < size;) {
		size_t n = size - off < sizeof(buf) ? size - off : sizeof(buf);

		for (size_t i = 0; i < n; i++)
			buf[i] = pattern(off + i);
		if (write(fd, buf, n) != (ssize_t)n) {
			close(fd);
			return -1;
		}
		off += n;
	}
	return fd;
}

/* whether the page at @p is mapped (mincore() fails with ENOMEM when not) */
static bool mapped(const uint8_t *p)
{
	unsigned char v;
	long page = sysconf(_SC_PAGESIZE);

	return mincore((void *)((uintptr_t)p & ~(uintptr_t)(page - 1)), 1, &v) == 0 ||
	       errno != ENOMEM;
}

/* a map_ahead of a new pattern file of @size bytes (its fd in *@fd), or NULL */
static struct map_ahead *map_file(uint64_t size, int *fd)
{
	struct map_ahead *m;

	*fd = make_file(size);
	CHECK(*fd >= 0);
	if (*fd < 0)
		return NULL;
	m = map_ahead__new(*fd, size, AHEAD);
	CHECK(m != NULL);
	if (!m)
		close(*fd);
	return m;
}

/*
 * whether the page holding file offset @off of @base (a file of @size
 * bytes) is still the file's: mapped, and holding its bytes.  A freed
 * range may be mapped again by anything else in the process (ASan's
 * allocator does, under load): that is no page of the file kept.
 */
static bool file_page(const uint8_t *base, uint64_t off, uint64_t size)
{
	off &= ~(uint64_t)(sysconf(_SC_PAGESIZE) - 1);
	if (!mapped(base + off))
		return false;
	for (uint64_t i = off; i < off + 64 && i < size; i++)
		if (base[i] != pattern(i))
			return false;
	return true;
}

/* delete @m: nothing of the file may stay mapped */
static void unmap_file(struct map_ahead *m, int fd, uint64_t size)
{
	const uint8_t *base = map_ahead__base(m);

	map_ahead__delete(m);
	CHECK(!file_page(base, 0, size));
	CHECK(!file_page(base, size - 1, size));
	close(fd);
}

static void read_all(uint64_t size)
{
	int fd;
	struct map_ahead *m = map_file(size, &fd);
	const uint8_t *base;
	uint64_t pos = 0, end = 0, bad = 0, step = 0;

	if (!m)
		return;
	base = map_ahead__base(m);
	while (pos < size) {
		end = end + AHEAD < size ? end + AHEAD : size;
		map_ahead__read(m, pos, end);
		for (uint64_t i = pos; i < end; i++)
			bad += base[i] != pattern(i);
		/* leave an uneven tail unread, as a decoder leaves a cut record */
		step = end == size ? end - pos : (end - pos) - (step * 7919 + 13) % 5000;
		pos += step;
	}
	CHECK_EQ(bad, 0);
	if (size > 3 * AHEAD) {
		/* the first page is behind the reader: the thread unmaps it */
		bool gone = false;

		for (int i = 0; i < 2000 && !gone; i++) {
			gone = !file_page(base, 0, size);
			if (!gone)
				nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
		}
		CHECK(gone);
	}
	unmap_file(m, fd, size);
}

/*
 * The thread never runs while the reader goes through @size bytes, a
 * window at a time: each map_ahead__read() must leave nothing mapped
 * before the start of the read before it, and the bytes must be the file's.
 */
static void read_held(uint64_t size)
{
	int fd;
	struct map_ahead *m = map_file(size, &fd);
	const uint8_t *base;
	uint64_t pos = 0, last = 0, bad = 0, kept = 0, reads = 0;
	long page = sysconf(_SC_PAGESIZE);

	if (!m)
		return;
	base = map_ahead__base(m);
	map_ahead__hold(m, true);
	while (pos < size) {
		uint64_t end = pos + AHEAD < size ? pos + AHEAD : size;

		map_ahead__read(m, pos, end);
		reads++;
		for (uint64_t off = 0; off + page <= (last & ~(uint64_t)(page - 1)); off += page)
			kept += file_page(base, off, size);
		for (uint64_t i = pos; i < end; i++)
			bad += base[i] != pattern(i);
		last = pos;
		pos = end - (end < size ? 1000 : 0);	/* a cut record read again */
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(kept, 0);
	CHECK(reads > 8);
	map_ahead__hold(m, false);
	unmap_file(m, fd, size);
}

static void test_held(void)
{
	read_held(12 * AHEAD + 4096 + 5);
}

static void test_small(void)
{
	int fd;
	struct map_ahead *m = map_file(AHEAD, &fd);
	const uint8_t *base;
	uint64_t bad = 0;

	read_all(100);
	read_all(AHEAD);
	/* one window, no thread: the reader unmaps what it has passed itself */
	if (!m)
		return;
	base = map_ahead__base(m);
	for (uint64_t pos = 0; pos < AHEAD; pos += AHEAD / 4) {
		map_ahead__read(m, pos, pos + AHEAD / 4);
		for (uint64_t i = pos; i < pos + AHEAD / 4; i++)
			bad += base[i] != pattern(i);
		CHECK(pos == 0 || !file_page(base, pos - 1, AHEAD));
	}
	CHECK_EQ(bad, 0);
	unmap_file(m, fd, AHEAD);
}

/*
 * The reader takes a byte a window, far faster than the thread maps one, so
 * it keeps unmapping what the thread is mapping (map_ahead__read() unmaps
 * itself when the thread lags).  A fault would end the test.
 */
static void test_lapped(void)
{
	uint64_t size = 256 * AHEAD, bad = 0;

	for (int round = 0; round < 20; round++) {
		int fd;
		struct map_ahead *m = map_file(size, &fd);
		const uint8_t *base;

		if (!m)
			return;
		base = map_ahead__base(m);
		for (uint64_t pos = 0; pos < size; pos += AHEAD) {
			map_ahead__read(m, pos, pos + AHEAD);
			bad += base[pos] != pattern(pos);
		}
		unmap_file(m, fd, size);
	}
	CHECK_EQ(bad, 0);
}

static void test_windows(void)
{
	read_all(5 * AHEAD);
	read_all(5 * AHEAD + 4096 * 3 + 17);
}

int main(void)
{
	RUN(test_small);
	RUN(test_windows);
	RUN(test_held);
	RUN(test_lapped);
	return check_done("map_ahead");
}
