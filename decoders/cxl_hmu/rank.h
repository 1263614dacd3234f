/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rank.h - the CXL HMU unit ranking: total count per unit in bounded memory.
 *
 * Exact while the distinct units fit in the memory budget; past it, a
 * weighted Misra-Gries summary (the dual of Space-Saving) of at most
 * @summary counters, with batched purges: when the table is full, every
 * counter is lowered by a quantile of a sample of the counters and those
 * that reach 0 are dropped.  @error sums the amounts subtracted, so for
 * every unit
 *	kept total <= true total <= kept total + error
 * and a unit whose true total exceeds @error is always in the table.  The
 * ranking reports kept total + error: an overestimate by at most @error, as
 * Space-Saving's, with the same order as the kept totals.
 *
 * Past the budget most reports are insertions of a new unit, and in a table
 * that outgrows the CPU caches each costs a memory access: the default
 * summary is one a core's L2 holds, at the price of a larger bound (about
 * total mass divided by the counters) than a summary filling the budget.
 */
#ifndef HWTRACE_CXL_HMU_RANK_H
#define HWTRACE_CXL_HMU_RANK_H

#include <stdbool.h>
#include <stdint.h>

#define HMU_RANK_DEFAULT_MEMORY	(256ULL << 20)
/* past the budget: a table per worker that its core's 1 MiB L2 holds (768 KiB) */
#define HMU_RANK_DEFAULT_SUMMARY	32768ULL
#define HMU_RANK_MIN_MEMORY	4096ULL
#define HMU_RANK_HASH_MUL	0x9e3779b97f4a7c15ULL	/* Fibonacci hashing */

/* One counter: key is unit + 1 (never 0: unit < 2^63), 0 marks an empty slot. */
struct hmu_slot {
	uint64_t key;
	uint64_t total;
	uint64_t reports;
};

/**
 * struct hmu_rank - unit -> total count, open addressing with linear probing
 * @tab:	1 << @bits slots
 * @bits:	log2 of the table size
 * @max_bits:	largest table the budget allows
 * @summary_bits: table size once counters are dropped (at most @max_bits)
 * @used:	counters in use
 * @error:	sum of the purge amounts: the bound on every count's error
 * @purged:	whether any counter has been dropped (counts not exact)
 * @spare:	room for a purge's survivors (half the table + 1), once purging
 * @spare_bits:	@bits of the table @spare was sized for
 */
struct hmu_rank {
	struct hmu_slot *tab;
	uint32_t bits;
	uint32_t max_bits;
	uint32_t summary_bits;
	uint64_t used;
	uint64_t error;
	bool purged;
	struct hmu_slot *spare;
	uint32_t spare_bits;
};

/**
 * hmu_rank__init - an empty ranking whose memory stays within @budget bytes
 * @r:		the ranking
 * @budget:	bytes for exact counts
 * @summary:	counters kept once the budget is exceeded (bounded by @budget)
 *
 * Returns false when out of memory.
 */
bool hmu_rank__init(struct hmu_rank *r, uint64_t budget, uint64_t summary);

/* Make room for one more counter: grow the table, or purge it when at the budget. */
void hmu_rank__make_room(struct hmu_rank *r);

static inline uint64_t hmu_rank__slot(const struct hmu_rank *r, uint64_t unit)
{
	return ((unit + 1) * HMU_RANK_HASH_MUL) >> (64 - r->bits);
}

/* Add one report of @count for @unit; O(1) expected, amortised over purges. */
static inline void hmu_rank__add(struct hmu_rank *r, uint64_t unit, uint64_t count)
{
	uint64_t key = unit + 1, mask = (1ULL << r->bits) - 1;
	uint64_t j = (key * HMU_RANK_HASH_MUL) >> (64 - r->bits);
	struct hmu_slot *s;

	for (;;) {
		s = &r->tab[j];
		if (s->key == key) {
			s->total += count;
			if (s->total < count)
				s->total = UINT64_MAX;
			s->reports++;
			return;
		}
		if (!s->key)
			break;
		j = (j + 1) & mask;
	}
	if (r->used * 2 >= mask + 1) {	/* half full: misses probe 2.5 slots */
		hmu_rank__make_room(r);
		hmu_rank__add(r, unit, count);
		return;
	}
	s->key = key;
	s->total = count;
	s->reports = 1;
	r->used++;
}

/**
 * hmu_rank__add_packed - add @n hotlist entries (unit << @shift | count, LE)
 *
 * The same as hmu_rank__add() for each, with the slots fetched ahead.
 */
void hmu_rank__add_packed(struct hmu_rank *r, const uint8_t *p, uint32_t n, uint32_t shift);

/**
 * hmu_rank__top - the @n highest counters, highest first (ties: lower unit)
 * @r:		the ranking
 * @out:	room for @n slots
 * @n:		how many
 *
 * Returns how many were written (fewer when fewer units were seen).
 */
uint32_t hmu_rank__top(const struct hmu_rank *r, struct hmu_slot *out, uint32_t n);

void hmu_rank__free(struct hmu_rank *r);

#endif
