// SPDX-License-Identifier: GPL-2.0
/*
 * perf_data_source.c - a read window over a file or a pipe.
 *
 * The reader hands out pointers into this window instead of copying records.
 * Refills move only the unconsumed tail (at most one record) to the front,
 * keeping buf index == input offset mod 8 so that aligned records stay
 * aligned in memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf_data_internal.h"

int hwt_src__init(struct hwt_src *s, int fd, size_t cap)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->cap = cap;
	s->limit = UINT64_MAX;
	s->size = UINT64_MAX;
	s->mem = malloc(cap + 8);
	if (!s->mem)
		return -1;
	s->buf = (uint8_t *)(((uintptr_t)s->mem + 7) & ~(uintptr_t)7);
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && lseek(fd, 0, SEEK_CUR) >= 0) {
		s->seekable = true;
		s->size = (uint64_t)st.st_size;
		s->off = (uint64_t)lseek(fd, 0, SEEK_CUR);
	}
	s->pos = s->end = s->off & 7;
	return 0;
}

void hwt_src__exit(struct hwt_src *s)
{
	free(s->mem);
	s->mem = NULL;
	s->buf = NULL;
}

size_t hwt_src__fill(struct hwt_src *s, size_t n)
{
	size_t avail = hwt_src__avail(s);

	if (avail >= n || s->eof)
		return avail;
	if (n > s->cap - 8)
		n = s->cap - 8;
	if (s->pos + n > s->cap) {
		size_t to = s->off & 7;

		memmove(s->buf + to, s->buf + s->pos, avail);
		s->pos = to;
		s->end = to + avail;
	}
	while (avail < n && !s->eof) {
		uint64_t next = s->off + avail;
		size_t room = s->cap - s->end;
		ssize_t got;

		if (next >= s->limit) {
			s->eof = true;
			break;
		}
		if (room > s->limit - next)
			room = (size_t)(s->limit - next);
		got = read(s->fd, s->buf + s->end, room);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got < 0)
				s->err = errno;
			s->eof = true;
			break;
		}
		s->end += (size_t)got;
		avail += (size_t)got;
	}
	return avail;
}

int hwt_src__seek(struct hwt_src *s, uint64_t off)
{
	if (!s->seekable || off > INT64_MAX || lseek(s->fd, (off_t)off, SEEK_SET) < 0)
		return -1;
	s->off = off;
	s->pos = s->end = off & 7;
	s->eof = false;
	return 0;
}

uint64_t hwt_src__skip(struct hwt_src *s, uint64_t n)
{
	size_t avail = hwt_src__avail(s);
	uint64_t done;

	if (n <= avail) {
		hwt_src__consume(s, (size_t)n);
		return n;
	}
	hwt_src__consume(s, avail);
	done = avail;
	if (s->seekable && !s->eof) {
		uint64_t to = s->off + (n - done);

		if (to > s->limit)
			to = s->limit;
		if (to > s->size)
			to = s->size;
		if (to < s->off)
			to = s->off;
		done += to - s->off;
		if (hwt_src__seek(s, to) < 0)
			s->eof = true;
		return done;
	}
	while (done < n) {
		uint64_t want = n - done;

		avail = hwt_src__fill(s, want < s->cap / 2 ? (size_t)want : s->cap / 2);
		if (!avail)
			break;
		if (avail > want)
			avail = (size_t)want;
		hwt_src__consume(s, avail);
		done += avail;
	}
	return done;
}

/* Read exactly @n bytes at @off; false on error or end of file. */
bool hwt_pread_all(int fd, void *buf, size_t n, uint64_t off)
{
	uint8_t *p = buf;

	while (n) {
		ssize_t got = pread(fd, p, n, (off_t)off);

		if (got <= 0)
			return false;
		p += got;
		n -= (size_t)got;
		off += (uint64_t)got;
	}
	return true;
}
