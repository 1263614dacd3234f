/* SPDX-License-Identifier: GPL-2.0 */
/*
 * panthor_priv.h - what the panthor decoder and its statistics share
 * (not installed; the public API is hwtrace/panthor.h).
 */
#ifndef HWTRACE_PANTHOR_PRIV_H
#define HWTRACE_PANTHOR_PRIV_H

#include "hwtrace/panthor.h"

/* Enable masks cover at most this many counters (two u64 words). */
#define PANTHOR_MASK_BITS	128

/* One block instance (kind, idx) over the whole stream. */
struct panthor_acc {
	uint64_t samples;
	uint64_t interval_ns;	/* sum of the intervals of samples that had one */
	uint64_t cycles;	/* header cycles of the block's clock */
	uint64_t off;		/* samples in which it was OFF */
	uint64_t unavailable;	/* ... UNAVAILABLE */
	uint64_t live;		/* samples in which it was neither */
	uint64_t en[2];		/* union of enable masks */
	uint64_t *tot;		/* counters_per_block totals, all samples */
	uint64_t *tot_iv;	/* ... samples that had an interval */
};

struct panthor_stats {
	uint32_t cpb;
	uint32_t nblocks[HWT_PANTHOR_NKINDS];
	struct panthor_acc *acc[HWT_PANTHOR_NKINDS];
	uint64_t interval_ns;
	uint64_t samples, blocks, bad_samples, overflow, error, off_blocks, unavailable_blocks;
	uint64_t first_end, last_end;
	bool have_end;
	bool nomem;
};

/* A decimal or 0x hex u64, nothing around it; -1 if not, or out of range. */
int panthor__parse_u64(const char *s, uint64_t *v);

int panthor_stats__init(struct panthor_stats *st, const struct hwt_panthor_info *info);
void panthor_stats__block(struct panthor_stats *st, const struct hwt_panthor_block *b,
			  const uint64_t *values, uint64_t cycles, uint64_t interval);
void panthor_stats__emit(struct panthor_stats *st, const struct hwt_panthor_info *info,
			 const char *const *const *names, const struct hwt_emit *emit);
void panthor_stats__free(struct panthor_stats *st);

#endif
