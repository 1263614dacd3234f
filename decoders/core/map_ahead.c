// SPDX-License-Identifier: GPL-2.0
/*
 * map_ahead.c - a read-only mapping of a whole file whose pages a thread
 * maps ahead of the reader and unmaps behind it.
 *
 * Decoding a file through a mapping costs three things per window: mapping
 * its pages (page tables for every 4 KiB), reading them, and unmapping them.
 * On a 10 MB IGT file the mapping and unmapping take about as long as the
 * decode itself.  A thread of its own does both while the reader decodes
 * the window before, so the reader only reads.  The reader never waits for
 * the thread: a page not mapped yet is simply faulted in.  The thread maps
 * a step of 256 KiB at a time, so that it starts at once at the file's
 * start, and keeps ahead of the reader when it can.  Pages behind
 * the reader are unmapped, so a file of any size holds two windows or so
 * in memory.  That bound must not depend on the scheduler: on a busy
 * machine the thread may not run for milliseconds while the reader goes
 * through windows, faulting in each page.  So when the reader asks again
 * and the thread has not yet unmapped what the reader left behind the last
 * time, the reader unmaps it all itself; and the thread does not map pages
 * the reader has passed.  Without a thread (a file of one window, or none
 * could start) the reader maps and unmaps alike.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "map_ahead.h"

/* the thread maps this much at a time, so the reader can start at once */
#define STEP	(256u << 10)

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22	/* Linux 5.14 */
#endif

struct map_ahead {
	uint8_t *base;
	uint64_t size, ahead, page;
	pthread_t thread;
	bool have_thread, stop;
	bool hold;			/* map_ahead__hold() */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint64_t want, mapped;		/* pages in [mapped, want) are to be mapped */
	uint64_t drop, dropped;		/* pages in [dropped, drop) are to be unmapped */
};

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * MADV_POPULATE_READ, not a read of a byte of each page, though a read
 * fault maps 64 KiB at once (fault-around) at a third of the cost on Linux
 * 6.18: the reader may unmap a range while the thread maps it
 * (map_ahead__read()), and a read there is SIGSEGV where madvise() fails;
 * so is a read past the end of a file cut short (SIGBUS).
 */
static void populate(struct map_ahead *m, uint64_t from, uint64_t to)
{
	/* from a page's start (madvise() wants one); an old kernel without
	 * MADV_POPULATE_READ: the reader faults them in */
	from &= ~(m->page - 1);
	if (to > from)
		madvise(m->base + from, to - from, MADV_POPULATE_READ);
}

static void *ahead_main(void *arg)
{
	struct map_ahead *m = arg;

	pthread_mutex_lock(&m->mu);
	for (;;) {
		uint64_t a, b;

		while (!m->stop && (m->hold || (m->mapped >= m->want && m->dropped >= m->drop)))
			pthread_cond_wait(&m->cv, &m->mu);
		if (m->stop)
			break;
		if (m->dropped < m->drop) {
			a = m->dropped;
			b = m->drop;
			m->dropped = b;
			pthread_mutex_unlock(&m->mu);
			munmap(m->base + a, b - a);
		} else {
			/* a step at a time, from where the reader is at least */
			a = m->mapped > m->drop ? m->mapped : m->drop;
			b = min_u64(m->want, a + STEP);
			m->mapped = b;
			pthread_mutex_unlock(&m->mu);
			populate(m, a, b);
		}
		pthread_mutex_lock(&m->mu);
	}
	pthread_mutex_unlock(&m->mu);
	return NULL;
}

struct map_ahead *map_ahead__new(int fd, uint64_t size, uint64_t ahead)
{
	struct map_ahead *m = calloc(1, sizeof(*m));
	void *p;

	if (!m || !size || size != (size_t)size)
		goto fail;
	p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		goto fail;
	m->base = p;
	m->size = size;
	m->ahead = ahead;
	m->page = (uint64_t)sysconf(_SC_PAGESIZE);
	madvise(m->base, size, MADV_SEQUENTIAL);
	pthread_mutex_init(&m->mu, NULL);
	pthread_cond_init(&m->cv, NULL);
	/* one window's worth or less: the reader maps it at once, no thread */
	m->have_thread = size > ahead && !pthread_create(&m->thread, NULL, ahead_main, m);
	return m;
fail:
	free(m);
	return NULL;
}

const uint8_t *map_ahead__base(const struct map_ahead *m)
{
	return m->base;
}

void map_ahead__read(struct map_ahead *m, uint64_t pos, uint64_t end)
{
	uint64_t drop = pos & ~(m->page - 1), a = 0, b = 0;

	end = min_u64(end, m->size);
	if (!m->have_thread) {
		/* one window, or no thread could start: all here */
		if (drop > m->dropped) {
			munmap(m->base + m->dropped, drop - m->dropped);
			m->dropped = drop;
		}
		populate(m, m->mapped > drop ? m->mapped : drop, end);
		if (end > m->mapped)
			m->mapped = end;
		return;
	}
	pthread_mutex_lock(&m->mu);
	m->want = min_u64(end + m->ahead, m->size);
	if (m->dropped < m->drop) {
		/* the thread has not run since the last call: unmap all here */
		a = m->dropped;
		b = drop > m->drop ? drop : m->drop;
		m->dropped = m->drop = b;
	} else if (drop > m->drop) {
		m->drop = drop;
	}
	pthread_cond_signal(&m->cv);
	pthread_mutex_unlock(&m->mu);
	if (b > a)
		munmap(m->base + a, b - a);
}

void map_ahead__hold(struct map_ahead *m, bool hold)
{
	if (!m->have_thread)
		return;
	pthread_mutex_lock(&m->mu);
	m->hold = hold;
	pthread_cond_signal(&m->cv);
	pthread_mutex_unlock(&m->mu);
}

void map_ahead__delete(struct map_ahead *m)
{
	if (!m)
		return;
	if (m->have_thread) {
		pthread_mutex_lock(&m->mu);
		m->stop = true;
		pthread_cond_signal(&m->cv);
		pthread_mutex_unlock(&m->mu);
		pthread_join(m->thread, NULL);
	}
	if (m->dropped < m->size)
		munmap(m->base + m->dropped, m->size - m->dropped);
	pthread_cond_destroy(&m->cv);
	pthread_mutex_destroy(&m->mu);
	free(m);
}
