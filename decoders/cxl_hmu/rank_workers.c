// SPDX-License-Identifier: GPL-2.0
/*
 * rank_workers.c - report's CXL HMU ranking on worker threads
 * (rank_workers.h says how the partitions add up).
 */
#include <stdlib.h>
#include <string.h>

#include "le.h"
#include "rank_workers.h"

#define HMU_RANK_PART_MUL	0xff51afd7ed558ccdULL	/* not the slot hash's multiplier */

/* Which partition counts @unit: a hash of it, scaled to @n. */
static inline uint32_t hmu_rank_part__of(uint64_t unit, uint32_t n)
{
	return (uint32_t)(((((unit + 1) * HMU_RANK_PART_MUL) >> 32) * n) >> 32);
}

/* Count partition @pt's entries of @b. */
static void hmu_rank_part__count(struct hmu_rank_workers *w, struct hmu_rank_part *pt,
				 const struct hmu_rank_batch *b)
{
	const uint64_t *raw = b->raw[pt->index];
	uint32_t m = b->n[pt->index];

	if (b->shift >= 64) {	/* width 64: every bit is count and the unit is 0 */
		for (uint32_t i = 0; i < m; i++)
			hmu_rank__add(&pt->rank, 0, hwt_le64((const uint8_t *)&raw[i]));
		return;
	}
	hmu_rank__add_packed(&pt->rank, (const uint8_t *)raw, m, b->shift);
}

static void *hmu_rank_part__main(void *arg)
{
	struct hmu_rank_part *pt = arg;
	struct hmu_rank_workers *w = pt->w;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (pt->tail == w->head && !w->done)
			pthread_cond_wait(&w->can_get, &w->lock);
		if (pt->tail == w->head)
			break;
		pthread_mutex_unlock(&w->lock);
		/* the producer writes no batch until every worker has counted it */
		hmu_rank_part__count(w, pt, &w->ring[pt->tail % HMU_RANK_RING]);
		pthread_mutex_lock(&w->lock);
		pt->tail++;
		pthread_cond_signal(&w->can_put);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static struct hmu_rank_batch *hmu_rank_workers__cur(struct hmu_rank_workers *w)
{
	return &w->ring[w->head % HMU_RANK_RING];
}

/* The oldest batch some worker has not counted (under the lock). */
static uint64_t hmu_rank_workers__tail(const struct hmu_rank_workers *w)
{
	uint64_t t = w->head;

	for (uint32_t k = 0; k < w->n; k++)
		if (w->part[k].running && w->part[k].tail < t)
			t = w->part[k].tail;
	return t;
}

/* Hand the batch being filled to the workers and wait until the next one is free. */
static void hmu_rank_workers__publish(struct hmu_rank_workers *w)
{
	struct hmu_rank_batch *b = hmu_rank_workers__cur(w);
	uint32_t any = 0;

	for (uint32_t k = 0; k < w->n; k++)
		any |= b->n[k];
	if (!any)
		return;
	for (uint32_t k = 0; k < w->n; k++)	/* a worker that did not start: count here */
		if (!w->part[k].running)
			hmu_rank_part__count(w, &w->part[k], b);
	pthread_mutex_lock(&w->lock);
	w->head++;
	pthread_cond_broadcast(&w->can_get);
	while (w->head - hmu_rank_workers__tail(w) >= HMU_RANK_RING)
		pthread_cond_wait(&w->can_put, &w->lock);
	pthread_mutex_unlock(&w->lock);
	b = hmu_rank_workers__cur(w);
	for (uint32_t k = 0; k < w->n; k++)
		b->n[k] = 0;
}

/* Stop the threads once they have counted what is published (or at once: @drop); join them. */
static void hmu_rank_workers__stop(struct hmu_rank_workers *w, bool drop)
{
	if (!w->ring)
		return;
	pthread_mutex_lock(&w->lock);
	w->done = true;
	if (drop)	/* each worker ends after the batch it is counting */
		for (uint32_t k = 0; k < w->n; k++)
			if (w->part[k].running && w->part[k].tail < w->head)
				w->part[k].tail = w->head - 1;
	pthread_cond_broadcast(&w->can_get);
	pthread_mutex_unlock(&w->lock);
	for (uint32_t k = 0; k < w->n; k++)
		if (w->part[k].running) {
			pthread_join(w->part[k].thread, NULL);
			w->part[k].running = false;
		}
}

bool hmu_rank_workers__init(struct hmu_rank_workers *w, uint64_t budget, uint64_t summary,
			    bool threads)
{
	uint64_t ring = sizeof(struct hmu_rank_batch) * HMU_RANK_RING;

	memset(w, 0, sizeof(*w));
	w->n = threads && budget >= HMU_RANK_THREAD_MIN ? HMU_RANK_WORKERS : 1;
	if (w->n > 1) {
		budget = (budget - ring) / w->n;
		summary = summary / w->n ? summary / w->n : 1;
	}
	for (uint32_t k = 0; k < w->n; k++)
		if (!hmu_rank__init(&w->part[k].rank, budget, summary))
			goto fail;
	if (w->n == 1)
		return true;
	w->ring = calloc(HMU_RANK_RING, sizeof(*w->ring));
	if (!w->ring)
		goto fail;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->can_get, NULL);
	pthread_cond_init(&w->can_put, NULL);
	for (uint32_t k = 0; k < w->n; k++) {
		struct hmu_rank_part *pt = &w->part[k];

		pt->w = w;
		pt->index = k;
		/* no thread: the producer counts this partition itself */
		pt->running = !pthread_create(&pt->thread, NULL, hmu_rank_part__main, pt);
	}
	return true;
fail:
	hmu_rank_workers__free(w);
	return false;
}

void hmu_rank_workers__add_packed(struct hmu_rank_workers *w, const uint8_t *p, uint32_t n,
				  uint32_t shift)
{
	struct hmu_rank_batch *b;

	if (!w->ring) {
		if (shift < 64)
			hmu_rank__add_packed(&w->part[0].rank, p, n, shift);
		else	/* width 64: every bit is count and the unit is 0 */
			for (uint32_t i = 0; i < n; i++)
				hmu_rank__add(&w->part[0].rank, 0, hwt_le64(p + 8ULL * i));
		return;
	}
	b = hmu_rank_workers__cur(w);
	if (b->shift != shift) {	/* a batch holds entries of one width */
		hmu_rank_workers__publish(w);
		b = hmu_rank_workers__cur(w);
		b->shift = shift;
	}
	while (n) {
		uint32_t cnt[HMU_RANK_WORKERS], full = 0, i;

		/* the ring is only there with HMU_RANK_WORKERS partitions: constant loops */
		for (uint32_t k = 0; k < HMU_RANK_WORKERS; k++)
			cnt[k] = b->n[k];
		/*
		 * Each entry is stored at every partition's end and only its own
		 * partition's count advances: no branch on the partition (a coin
		 * flip) and no count in memory to wait for.  Every count stays
		 * below HMU_RANK_BATCH, so the stores stay in their batch.
		 */
		for (i = 0; i < n && !full; i++, p += 8) {
			/* width 64: every bit is count and the unit is 0 */
			uint64_t unit = shift >= 64 ? 0 : hwt_le64(p) >> shift, raw;
			uint32_t part = hmu_rank_part__of(unit, HMU_RANK_WORKERS);

			memcpy(&raw, p, 8);	/* as read: hmu_rank_part__count() */
			for (uint32_t k = 0; k < HMU_RANK_WORKERS; k++) {
				b->raw[k][cnt[k]] = raw;
				cnt[k] += part == k;
				full |= cnt[k] == HMU_RANK_BATCH;
			}
		}
		for (uint32_t k = 0; k < HMU_RANK_WORKERS; k++)
			b->n[k] = cnt[k];
		n -= i;
		if (full) {
			hmu_rank_workers__publish(w);
			b = hmu_rank_workers__cur(w);
			b->shift = shift;
		}
	}
}

void hmu_rank_workers__finish(struct hmu_rank_workers *w)
{
	if (!w->ring)
		return;
	hmu_rank_workers__publish(w);
	hmu_rank_workers__stop(w, false);
}

static int hmu_rank_workers__cmp(const void *a, const void *b)
{
	const struct hmu_slot *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

uint32_t hmu_rank_workers__top(const struct hmu_rank_workers *w, struct hmu_slot *out, uint32_t n)
{
	struct hmu_slot *all;
	uint32_t m = 0;

	if (!n)
		return 0;
	all = malloc(sizeof(*all) * n * w->n);
	if (!all)
		return 0;
	for (uint32_t k = 0; k < w->n; k++) {
		const struct hmu_rank *r = &w->part[k].rank;
		uint32_t got = hmu_rank__top(r, all + m, n);

		/* past the budget a kept total is low by at most its error: add it back */
		for (uint32_t i = m; i < m + got; i++)
			all[i].total = all[i].total + r->error < r->error ? UINT64_MAX :
				       all[i].total + r->error;
		m += got;
	}
	qsort(all, m, sizeof(*all), hmu_rank_workers__cmp);
	m = m < n ? m : n;
	memcpy(out, all, sizeof(*all) * m);
	free(all);
	return m;
}

uint64_t hmu_rank_workers__used(const struct hmu_rank_workers *w)
{
	uint64_t used = 0;

	for (uint32_t k = 0; k < w->n; k++)
		used += w->part[k].rank.used;
	return used;
}

bool hmu_rank_workers__purged(const struct hmu_rank_workers *w)
{
	for (uint32_t k = 0; k < w->n; k++)
		if (w->part[k].rank.purged)
			return true;
	return false;
}

uint64_t hmu_rank_workers__error(const struct hmu_rank_workers *w)
{
	uint64_t e = 0;

	for (uint32_t k = 0; k < w->n; k++)
		if (w->part[k].rank.error > e)
			e = w->part[k].rank.error;
	return e;
}

void hmu_rank_workers__free(struct hmu_rank_workers *w)
{
	if (w->ring) {
		hmu_rank_workers__stop(w, true);
		pthread_cond_destroy(&w->can_put);
		pthread_cond_destroy(&w->can_get);
		pthread_mutex_destroy(&w->lock);
	}
	free(w->ring);
	w->ring = NULL;
	for (uint32_t k = 0; k < w->n; k++) {
		hmu_rank__free(&w->part[k].rank);
	}
}
