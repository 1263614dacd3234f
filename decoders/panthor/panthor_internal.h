/* SPDX-License-Identifier: GPL-2.0 */
/*
 * panthor_internal.h - panthor decoder internals: uAPI revision layouts, the
 * perf-info context, the sample walker, the ring reader, counter names,
 * statistics, record types and the device entry (not installed;
 * libhwtrace.so does not export them; the public part is hwtrace/panthor.h).
 */
#ifndef HWTRACE_PANTHOR_INTERNAL_H
#define HWTRACE_PANTHOR_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/decoder.h"
#include "hwtrace/device.h"
#include "hwtrace/diag.h"
#include "hwtrace/panthor.h"
#include "hwtrace/record.h"

/**
 * struct hwt_panthor_layout - one uAPI revision
 * @rev:	2 (RFC v2, Dec 2024) or 6 (v6, Dec 2025)
 * @name:	"RFC v2" / "v6"
 * @info_size:	sizeof(struct drm_panthor_perf_info)
 * @info_fields: names of its u32 fields in order (offset = 4 * index;
 *		"pad" for padding)
 * @ninfo_fields: their number
 * @has_sample_size: perf_info carries sample_size
 * @kind_of_type: uAPI block_type value -> enum hwt_panthor_kind
 *		(HWT_PANTHOR_UNKNOWN for values that are not a user block)
 * @type_of_kind: enum hwt_panthor_kind -> uAPI value, 0xff when absent
 * @sample_header_size, @block_header_size: the sizes this revision defines
 * @sh_*:	sample header field offsets; @sh_pad/@sh_pad_len must-be-zero bytes
 * @bh_*:	block header field offsets; @bh_pad/@bh_pad_len must-be-zero bytes
 */
struct hwt_panthor_layout {
	uint32_t rev;
	const char *name;
	uint32_t info_size;
	const char *const *info_fields;
	uint32_t ninfo_fields;
	bool has_sample_size;
	uint8_t kind_of_type[8];
	uint8_t type_of_kind[HWT_PANTHOR_NKINDS];
	uint32_t sample_header_size;
	uint32_t block_header_size;
	uint8_t sh_ts_start, sh_ts_end, sh_block_set, sh_pad, sh_pad_len, sh_flags;
	uint8_t sh_user_data, sh_cycles[HWT_PANTHOR_NCLOCKS];
	uint8_t bh_type, bh_idx, bh_states, bh_clock, bh_pad, bh_pad_len, bh_enable_mask;
};

/* The layout of revision @rev, or NULL. */
const struct hwt_panthor_layout *hwt_panthor_layout__get(uint32_t rev);

/**
 * struct hwt_panthor_info - the perf-info context a sample is read with
 * @layout:	uAPI revision
 * @gpu_id:	32-bit GPU_ID (drm_panthor_gpu_info.gpu_id)
 * @counters_per_block: u64 counters per block
 * @sample_header_size, @block_header_size: from perf_info
 * @sample_size: bytes per sample (computed from the counts when 0 was given)
 * @flags:	perf_info flags (HWT_PANTHOR_INFO_*)
 * @supported_clocks: bit i = clock i
 * @blocks:	block count per kind
 * @shader_present: shader core present mask
 */
struct hwt_panthor_info {
	const struct hwt_panthor_layout *layout;
	uint32_t gpu_id;
	uint32_t counters_per_block;
	uint32_t sample_header_size;
	uint32_t block_header_size;
	uint32_t sample_size;
	uint32_t flags;
	uint32_t supported_clocks;
	uint32_t blocks[HWT_PANTHOR_NKINDS];
	uint64_t shader_present;
};

/* panthor AUXTRACE_INFO priv[] from the lookup (struct hwt_device.auxinfo) */
int hwt_panthor__auxinfo(const struct hwt_auxinfo_lookup *lk, const char *pmu_name,
			 uint64_t *priv, uint32_t max, char *err, size_t errlen);

/**
 * hwt_panthor_info__from_priv - build and check a context from priv[] words
 * @info:	filled
 * @priv:	the words (design.rst 4.2)
 * @npriv:	how many
 * @off:	file offset of the AUXTRACE_INFO they came from
 * @diag:	problems are reported here (at @off, "panthor perf_info")
 *
 * Returns 0, or -1 when the context cannot be used (unknown layout, sizes out
 * of range, sample_size smaller than its blocks).
 */
int hwt_panthor_info__from_priv(struct hwt_panthor_info *info, const uint64_t *priv,
				uint32_t npriv, uint64_t off, struct hwt_diag *diag);

/**
 * hwt_panthor_info__check - validate @info and compute sample_size when 0
 *
 * Returns 0, or -1 with the reason reported to @diag at file offset @off
 * (of its AUXTRACE_INFO; 0 for an info file given to raw decode).
 */
int hwt_panthor_info__check(struct hwt_panthor_info *info, uint64_t off, struct hwt_diag *diag);

/**
 * hwt_panthor_info__from_bytes - read a binary drm_panthor_perf_info
 * @info:	filled (gpu_id and shader_present are left as they were)
 * @layout:	the revision the bytes follow
 * @p:		the struct as DEV_QUERY returned it (little endian)
 * @n:		its size; must be at least layout->info_size
 *
 * Returns 0 or -1 when @n is too small.  Does not validate; see _check().
 */
int hwt_panthor_info__from_bytes(struct hwt_panthor_info *info,
				 const struct hwt_panthor_layout *layout, const uint8_t *p, size_t n);

/**
 * hwt_panthor_info__parse_json - priv[] words from a flat JSON perf-info object
 * @json:	text such as {"counters_per_block": 64, "gpu_id": "0xa8670000", ...}
 *		(keys: the perf_info field names, gpu_id, shader_present, layout;
 *		values: numbers or strings holding decimal or 0x hex numbers)
 * @priv:	filled with HWT_PANTHOR_NPRIV words (keys not given stay as they were)
 * @diag:	syntax errors name the byte offset in @json
 *
 * Returns 0 or -1.
 */
int hwt_panthor_info__parse_json(const char *json, uint64_t *priv, struct hwt_diag *diag);

/**
 * struct hwt_panthor_sample - a decoded sample header
 * @index:	sample number in its stream (0, 1, ...)
 * @offset:	file offset of the sample
 * @timestamp_start_ns, @timestamp_end_ns, @block_set, @flags, @user_data: as in the uAPI
 * @cycles:	toplevel, coregroup and shader clock cycles
 * @pad:	the must-be-zero bytes after block_set, as read
 */
struct hwt_panthor_sample {
	uint64_t index;
	uint64_t offset;
	uint64_t timestamp_start_ns;
	uint64_t timestamp_end_ns;
	uint8_t block_set;
	uint32_t flags;
	uint64_t user_data;
	uint64_t cycles[HWT_PANTHOR_NCLOCKS];
	uint32_t pad;
};

/**
 * struct hwt_panthor_block - one decoded block
 * @offset:	file offset of its block header
 * @uapi_type:	block_type as written
 * @kind:	what that means in this layout (HWT_PANTHOR_UNKNOWN if nothing)
 * @idx, @states, @clock, @enable_mask: as in the uAPI
 * @pad:	the must-be-zero header bytes, as read
 * @counters:	counters_per_block little-endian u64 values (unaligned bytes)
 * @valid:	false when type or index is impossible (reported already)
 */
struct hwt_panthor_block {
	uint64_t offset;
	uint8_t uapi_type;
	uint8_t kind;
	uint8_t idx;
	uint8_t states;
	uint8_t clock;
	uint32_t pad;
	uint64_t enable_mask[2];
	const uint8_t *counters;
	bool valid;
};

/**
 * hwt_panthor_sample__walk - decode one sample
 * @info:	checked context
 * @p:		the bytes; @n of them (normally info->sample_size)
 * @s:		header out; s->index and s->offset must be set by the caller
 * @block:	called for every block that lies wholly inside @n, valid or not
 * @ctx:	passed to @block
 * @diag:	problems (offset = file offset); bytes are *not* counted here
 *
 * Sizes come from @info only: a larger header than the layout knows is
 * skipped past.  Returns the number of blocks found valid, or -1 when even
 * the sample header does not fit.
 */
int hwt_panthor_sample__walk(const struct hwt_panthor_info *info, const uint8_t *p, size_t n,
			     struct hwt_panthor_sample *s,
			     void (*block)(void *ctx, const struct hwt_panthor_sample *s,
					   const struct hwt_panthor_block *b),
			     void *ctx, struct hwt_diag *diag);

/**
 * struct hwt_panthor_ring - where the live samples of a ring dump are
 * @slots:	ring slots (a power of two)
 * @first:	slot of the oldest sample to read
 * @count:	number of samples to read, in ring order from @first
 * @empty:	insert == extract
 * @full:	no free slot left for the kernel
 */
struct hwt_panthor_ring {
	uint64_t slots;
	uint64_t first;
	uint64_t count;
	bool empty;
	bool full;
};

/**
 * hwt_panthor_ring__plan - turn control words into a read plan
 * @slots:	slots in the ring BO (must be a power of two)
 * @extract:	extract_idx (control offset 0)
 * @insert:	insert_idx (control offset 8)
 * @r:		filled
 * @off:	file offset of the control words, for reports
 * @diag:	empty/full are warned, impossible indices are errors
 *
 * Indices below @slots are read the kernel's way (modulo: at most slots - 1
 * outstanding); larger ones as free-running counters.  When insert - extract
 * exceeds the slots the newest @slots samples are planned and the rest
 * reported overwritten.  Returns 0, or -1 when nothing can be read.
 */
int hwt_panthor_ring__plan(uint64_t slots, uint64_t extract, uint64_t insert,
			   struct hwt_panthor_ring *r, uint64_t off, struct hwt_diag *diag);

/* Counter names (panthor_names.c). */

/**
 * hwt_panthor__gpu_name - "Mali-G610" etc. for a GPU_ID, or NULL
 *
 * Matched as libGPUCounters does, on (arch_major << 8) | product_major.
 * A 16-bit id (e.g. 0xa867, GPU_ID >> 16) is accepted too.
 */
const char *hwt_panthor__gpu_name(uint32_t gpu_id);

/**
 * hwt_panthor__counter_name - hardware name of counter @idx of a @kind block
 *
 * Indices 0-3 are the block header words (TIMESTAMP_LO, TIMESTAMP_HI,
 * PRFCNT_EN, RESERVED) on every GPU.  NULL when the GPU or index is unknown
 * (callers then print the index).
 */
const char *hwt_panthor__counter_name(uint32_t gpu_id, enum hwt_panthor_kind kind, uint32_t idx);

/**
 * hwt_panthor__counter_shift - libGPUCounters' shift of a counter, or 0
 *
 * The hardware counts such a counter in units of 1 << shift; report and
 * metrics multiply by it (raw values in records stay as read).
 */
uint32_t hwt_panthor__counter_shift(uint32_t gpu_id, enum hwt_panthor_kind kind, uint32_t idx);

/* A counter whose value is scaled (libGPUCounters' "shift" attribute). */
struct hwt_panthor_shift {
	uint8_t kind;
	uint8_t shift;
	uint16_t idx;
};

/* A per-GPU naming table (panthor_names_*.c). */
struct hwt_panthor_names {
	const char *gpu;			/* "Mali-G710" */
	const uint16_t *products;		/* (arch_major << 8) | product_major */
	uint32_t nproducts;
	uint32_t size;				/* counters per block it describes */
	const char *const *block[HWT_PANTHOR_NKINDS];	/* NULL: no public names */
	const struct hwt_panthor_shift *shifts;	/* scaled counters */
	uint32_t nshifts;
};

extern const struct hwt_panthor_names hwt_panthor_names_g710;
extern const struct hwt_panthor_names hwt_panthor_names_g715;

extern const char *const hwt_panthor_kind_names[HWT_PANTHOR_NKINDS + 1];
extern const struct hwt_record_type hwt_rt_panthor_block;
extern const struct hwt_record_type hwt_rt_panthor_sample;
extern const struct hwt_record_type hwt_rt_panthor_summary;
extern const struct hwt_record_type hwt_rt_panthor_block_total;
extern const struct hwt_record_type hwt_rt_panthor_aggregate;
extern const struct hwt_record_type hwt_rt_panthor_counter;
extern const struct hwt_metrics_ops hwt_panthor_metrics;
extern const struct hwt_decoder_ops hwt_panthor_decoder;
extern const struct hwt_dev_opt hwt_panthor_options[];
extern const struct hwt_synth hwt_panthor_synth;
extern const struct hwt_device hwt_device_panthor;

/* ---- statistics (panthor_stats.c) ---- */

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
	uint64_t *tot_noiv;	/* ... samples without an interval (the rates leave them out) */
};

/* report --sort keys */
enum panthor_sort {
	PANTHOR_SORT_BLOCK,	/* block order, counter index (default) */
	PANTHOR_SORT_TOTAL,
	PANTHOR_SORT_PER_SECOND,
	PANTHOR_SORT_PER_MCYCLE,
	PANTHOR_SORT_NAME,
};

/* A report row before sorting; @order keeps the block order among equals. */
struct panthor_row {
	size_t order;
	union {
		struct hwt_panthor_counter c;
		struct hwt_panthor_aggregate g;
	};
};

/* "total" etc. -> enum panthor_sort; -1 if not a key. */
int panthor__sort_key(const char *s);

struct panthor_stats {
	enum panthor_sort sort;
	uint64_t top;		/* rows per table, 0: all */
	uint32_t cpb;
	uint32_t nblocks[HWT_PANTHOR_NKINDS];
	struct panthor_acc *acc[HWT_PANTHOR_NKINDS];
	uint64_t interval_ns;
	uint64_t samples, blocks, bad_samples, overflow, error, off_blocks, unavailable_blocks;
	uint64_t first_end, last_end;
	bool have_end;
	bool nomem;
	bool no_rows;		/* no_summary: blocks not totalled, no counter rows */
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
