/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rank_workers.h - the CXL HMU ranking of report, split over worker threads.
 *
 * The units are hash-partitioned over HMU_RANK_WORKERS rankings (rank.h),
 * each fed by its own thread through a small ring of entry batches.  The
 * decoding thread routes each raw entry to its partition's half of the
 * batch (one pass over the entries, where it would otherwise copy them) and
 * each worker counts only its own half.  A
 * unit lives in one partition: its count there is that of a ranking alone,
 * so every count is within its partition's error and the global bound is
 * the largest of them.  Without threads (a small budget, or pthread_create
 * failing) the one partition is fed in the caller's thread.
 */
#ifndef HWTRACE_CXL_HMU_RANK_WORKERS_H
#define HWTRACE_CXL_HMU_RANK_WORKERS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "rank.h"

#define HMU_RANK_WORKERS	2
#define HMU_RANK_BATCH		32768	/* entries per partition and batch: 256 KiB */
#define HMU_RANK_RING		8	/* batches in flight: rides out a scheduler delay */
/* below this budget one ranking in the caller's thread (the ring would weigh) */
#define HMU_RANK_THREAD_MIN	(16ULL << 20)

struct hmu_rank_batch {
	uint64_t raw[HMU_RANK_WORKERS][HMU_RANK_BATCH];	/* each partition's entries as read (LE) */
	uint32_t n[HMU_RANK_WORKERS];
	uint32_t shift;			/* counter width; 64: unit 0, raw is the count */
};

/**
 * struct hmu_rank_part - one partition: its ranking and its thread
 * @rank:	the counts; touched only by @thread while it runs
 * @tail:	batches this worker has counted (under the lock)
 * @running:	@thread was started and is not joined
 */
struct hmu_rank_part {
	struct hmu_rank rank;
	uint64_t tail;
	bool running;
	pthread_t thread;
	struct hmu_rank_workers *w;
	uint32_t index;
};

/**
 * struct hmu_rank_workers - partitions fed from one ring of batches
 * @n:		partitions: 1 (no threads, no ring) or HMU_RANK_WORKERS
 * @ring:	each batch holds every worker's entries, routed by the producer;
 *		a batch is free again once every worker has counted its part
 * @head:	batches published (under @lock); the producer fills ring[head]
 * @done:	no more batches will come
 */
struct hmu_rank_workers {
	uint32_t n;
	struct hmu_rank_part part[HMU_RANK_WORKERS];
	struct hmu_rank_batch *ring;
	uint64_t head;
	bool done;
	pthread_mutex_t lock;
	pthread_cond_t can_get;		/* a batch was published, or done */
	pthread_cond_t can_put;		/* a worker counted a batch */
};

/**
 * hmu_rank_workers__init - rankings for report within @budget bytes in all
 * @w:		the partitions
 * @budget:	--rank-memory, rings included
 * @summary:	counters kept past the budget, in all
 * @threads:	partition over threads (report); else one ranking, counted by
 *		the caller (hmu_rank_workers__add_packed() or part[0].rank directly)
 *
 * The threads start here.  Returns false when out of memory.
 */
bool hmu_rank_workers__init(struct hmu_rank_workers *w, uint64_t budget, uint64_t summary,
			    bool threads);

/* Count @n packed entries (unit << @shift | count, LE; @shift 64: unit 0). */
void hmu_rank_workers__add_packed(struct hmu_rank_workers *w, const uint8_t *p, uint32_t n,
				  uint32_t shift);

/* Count what is queued and join the threads: the rankings are then the caller's. */
void hmu_rank_workers__finish(struct hmu_rank_workers *w);

/**
 * hmu_rank_workers__top - the @n highest reported totals over all partitions
 * @w:		finished partitions
 * @out:	room for @n slots; each total is its kept total plus its
 *		partition's error (the reported total)
 * @n:		how many
 *
 * Returns how many were written, highest first (ties: lower unit).
 */
uint32_t hmu_rank_workers__top(const struct hmu_rank_workers *w, struct hmu_slot *out, uint32_t n);

/* Counters in use, whether any was dropped, and the largest error of all. */
uint64_t hmu_rank_workers__used(const struct hmu_rank_workers *w);
bool hmu_rank_workers__purged(const struct hmu_rank_workers *w);
uint64_t hmu_rank_workers__error(const struct hmu_rank_workers *w);

/* Stop the threads (what is queued is dropped), join them and free everything. */
void hmu_rank_workers__free(struct hmu_rank_workers *w);

#endif
