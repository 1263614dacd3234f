/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cxl_hmu_opts.h - how CXL HMU option values are read, shared by the decoder
 * (cxl_hmu.c) and the checks the CLI runs before any input (options.c), so
 * the two can never disagree.
 */
#ifndef HWTRACE_CXL_HMU_OPTS_H
#define HWTRACE_CXL_HMU_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HMU_MAX_TOP		1000000
#define HMU_MAX_RANK_COUNTERS	(1ULL << 32)

/* Decimal or 0x hex option value no larger than @max. */
bool hmu_opt_u64(const char *s, uint64_t max, uint64_t *out);

#define HMU_RANK_MEMORY_WHAT	"a byte count (K, M, G, T suffixes) of at least 4K"

/* A byte count with an optional K, M, G or T suffix (powers of 1024), at least 4 KiB. */
bool hmu_opt_bytes(const char *s, uint64_t *out);

/*
 * Decimal or 0x hex, with an optional K/M/G/T (binary) suffix, of @n bytes
 * at @s; false on junk or overflow (the HDM decoder's numbers, cxl_hdm.c).
 */
bool hwt_cxl__parse_bytes(const char *s, size_t n, uint64_t *out);

#endif
