/* SPDX-License-Identifier: GPL-2.0 */
/*
 * panthor.h - Arm Mali CSF performance-counter samples from the proposed
 * panthor perf uAPI (design.rst 4.2, Documentation/panthor.rst).
 *
 * The uAPI is not merged and moved between revisions, so everything that
 * differs (block-type numbering, perf_info, header offsets) lives in one
 * table row per revision; the walker, the ring reader and the decoder are
 * written once against that table (all internal: panthor_internal.h).  This
 * header holds what a program reading records needs: block kinds, uAPI
 * flags, the priv[] layout and the record structs.
 */
#ifndef HWTRACE_PANTHOR_H
#define HWTRACE_PANTHOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/decoder.h"
#include "hwtrace/device.h"
#include "hwtrace/diag.h"
#include "hwtrace/record.h"

/* Block kinds (ours): the same whatever number a uAPI revision gives them. */
enum hwt_panthor_kind {
	HWT_PANTHOR_FW,
	HWT_PANTHOR_CSG,
	HWT_PANTHOR_CSHW,
	HWT_PANTHOR_TILER,
	HWT_PANTHOR_MEMSYS,
	HWT_PANTHOR_SHADER,
	HWT_PANTHOR_NKINDS,
	HWT_PANTHOR_UNKNOWN = HWT_PANTHOR_NKINDS,	/* shown as "unknown" */
};

/* uAPI enums (same values in RFC v2 and v6). */
#define HWT_PANTHOR_FLAG_OVERFLOW	0x1u	/* sample flags */
#define HWT_PANTHOR_FLAG_ERROR		0x2u
#define HWT_PANTHOR_STATE_ON		0x01u	/* block_states bits */
#define HWT_PANTHOR_STATE_OFF		0x02u
#define HWT_PANTHOR_STATE_AVAILABLE	0x04u
#define HWT_PANTHOR_STATE_UNAVAILABLE	0x08u
#define HWT_PANTHOR_STATE_NORMAL	0x10u
#define HWT_PANTHOR_STATE_PROTECTED	0x20u
#define HWT_PANTHOR_CLOCK_TOPLEVEL	0
#define HWT_PANTHOR_CLOCK_COREGROUP	1
#define HWT_PANTHOR_CLOCK_SHADER	2
#define HWT_PANTHOR_NCLOCKS		3
#define HWT_PANTHOR_INFO_BLOCK_STATES	0x1u	/* perf_info flags */
#define HWT_PANTHOR_HDR_COUNTERS	4	/* counters 0-3 are block header words */

/* Limits that keep a hostile context from sizing allocations (ours). */
#define HWT_PANTHOR_MAX_CPB		1024
#define HWT_PANTHOR_MAX_HDR		4096
#define HWT_PANTHOR_MAX_BLOCKS		256	/* per kind */
#define HWT_PANTHOR_MAX_SAMPLE		(16u << 20)

/* priv[] words of AUXTRACE_INFO type 0x48570001 (design.rst 4.2). */
enum {
	HWT_PANTHOR_PRIV_PMU, HWT_PANTHOR_PRIV_LAYOUT, HWT_PANTHOR_PRIV_GPU_ID,
	HWT_PANTHOR_PRIV_CPB, HWT_PANTHOR_PRIV_SHS, HWT_PANTHOR_PRIV_BHS,
	HWT_PANTHOR_PRIV_SAMPLE_SIZE, HWT_PANTHOR_PRIV_FLAGS, HWT_PANTHOR_PRIV_CLOCKS,
	HWT_PANTHOR_PRIV_BLOCKS,	/* 9..14: fw, csg, cshw, tiler, memsys, shader */
	HWT_PANTHOR_PRIV_SHADER_PRESENT = HWT_PANTHOR_PRIV_BLOCKS + HWT_PANTHOR_NKINDS,
	HWT_PANTHOR_NPRIV,		/* 16: what perf.data carries */
	/* raw decode only (ours): how the file is laid out */
	HWT_PANTHOR_PRIV_RAW_FORMAT = HWT_PANTHOR_NPRIV,
	HWT_PANTHOR_PRIV_EXTRACT, HWT_PANTHOR_PRIV_INSERT, HWT_PANTHOR_PRIV_SLOTS,
	HWT_PANTHOR_NPRIV_RAW,
};

/* HWT_PANTHOR_PRIV_RAW_FORMAT values */
#define HWT_PANTHOR_RAW_SAMPLES		0	/* samples back to back (the AUX payload) */
#define HWT_PANTHOR_RAW_RING_CTRL	1	/* 16-byte control words, then the ring BO */
#define HWT_PANTHOR_RAW_RING		2	/* ring BO only; indices given as options */

/* Record types (their field tables: hwt_record_type__find()). */

/* One block (record type "panthor_block", JSON shape of issue 3). */
struct hwt_panthor_block_rec {
	uint64_t sample;
	uint64_t timestamp_start_ns;
	uint64_t timestamp_end_ns;
	uint64_t interval_ns;		/* what its counters cover: hwt_panthor__interval() */
	uint64_t user_data;
	uint32_t flags;
	uint32_t block_type;		/* enum hwt_panthor_kind */
	uint32_t block_idx;
	uint32_t block_states;
	uint32_t clock;
	uint64_t cycles;
	uint64_t enable_mask[2];
	const uint64_t *values;
	uint32_t nvalues;
	const struct hwt_kv *counters;
	uint32_t ncounters;
	/* optional: the enabled counters the hardware counts in units of 1 << shift */
	const struct hwt_kv *scaled;	/* NAME = shift (libGPUCounters' "shift") */
	uint32_t nscaled;
	bool has_scaled;
};

/* One sample header (record type "panthor_sample", -D only). */
struct hwt_panthor_sample_rec {
	uint64_t sample;
	uint64_t timestamp_start_ns;
	uint64_t timestamp_end_ns;
	uint32_t block_set;
	uint32_t flags;
	uint64_t user_data;
	uint64_t toplevel_clock_cycles;
	uint64_t coregroup_clock_cycles;
	uint64_t shader_clock_cycles;
	uint32_t blocks;
};

/* Per stream (record type "panthor_summary", report). */
struct hwt_panthor_summary {
	uint32_t layout;
	uint32_t gpu_id;
	const char *gpu;
	uint32_t counters_per_block;
	uint32_t sample_size;
	uint64_t samples;
	uint64_t blocks;
	uint64_t bad_samples;
	uint64_t overflow;
	uint64_t error;
	uint64_t off_blocks;
	uint64_t unavailable_blocks;
	uint64_t span_ns;
	const char *note;
};

/* Per block instance (record type "panthor_block_total", report). */
struct hwt_panthor_block_total {
	uint32_t block_type;
	uint32_t block_idx;
	uint64_t samples;
	uint64_t interval_ns;
	uint64_t cycles;
	uint64_t off;
	uint64_t unavailable;
	const char *note;			/* "" or what is missing, in a few words */
};

/*
 * One counter of one block instance (record type "panthor_counter", report):
 * total over all samples; per_second over the samples that have an interval
 * (hwt_panthor__interval()); per_mcycle per 10^6 cycles of the block's clock.
 * Totals and rates carry libGPUCounters' shift scaling (@scaled).
 */
struct hwt_panthor_counter {
	uint32_t block_type;
	uint32_t block_idx;
	const char *counter;
	uint64_t total;
	uint64_t per_second;
	bool has_per_second;
	uint64_t per_mcycle;
	bool has_per_mcycle;
	uint32_t scaled;			/* the shift applied (0: raw) */
};

/*
 * One counter of all shader cores or all L2 slices together (record type
 * "panthor_aggregate", report): sum, mean over present cores, per second.
 */
struct hwt_panthor_aggregate {
	uint32_t block_type;
	const char *counter;
	uint32_t instances;
	uint64_t sum;
	uint64_t mean;
	bool has_mean;
	uint64_t per_second;
	bool has_per_second;
};

/**
 * hwt_panthor__interval - the time a sample's counters cover
 * @end_ns:	the sample's timestamp_end_ns
 * @prev_end_ns: the previous sample's timestamp_end_ns in the stream
 * @have_prev:	whether there was a previous sample
 *
 * A sample's counters count from the previous sample's dump to its own, so
 * its interval is end_ns - prev_end_ns; 0 (none) for the first sample and
 * when the end does not advance.  Every rate (report, metrics, scripts) is a
 * sum of values over the sum of these intervals.
 */
static inline uint64_t hwt_panthor__interval(uint64_t end_ns, uint64_t prev_end_ns, bool have_prev)
{
	return have_prev && end_ns > prev_end_ns ? end_ns - prev_end_ns : 0;
}

#endif
