/* SPDX-License-Identifier: GPL-2.0 */
/*
 * i915_oa_internal.h - i915 OA decoder internals: report layouts, the stream
 * walker, accumulation, IGT recorder files, record types and the device
 * entry (not installed; libhwtrace.so does not export them; the public part
 * is hwtrace/i915_oa.h).
 */
#ifndef HWTRACE_I915_OA_INTERNAL_H
#define HWTRACE_I915_OA_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/decoder.h"
#include "hwtrace/device.h"
#include "hwtrace/diag.h"
#include "hwtrace/i915_oa.h"
#include "hwtrace/record.h"
#include "core/cpu.h"
#include "core/le.h"

/**
 * struct hwt_i915_oa_seg - one run of counters in a report layout
 * @kind:	'a', 'b' or 'c'
 * @first:	index of the first counter of the run (A7 -> 7)
 * @count:	counters in the run
 * @bits:	32, 40 or 64
 * @off:	byte offset of the first counter (the low 32 bits for 40-bit ones)
 * @hi_off:	40-bit counters: byte offset of the first high byte (bits 39:32)
 */
struct hwt_i915_oa_seg {
	char kind;
	uint8_t first;
	uint8_t count;
	uint8_t bits;
	uint16_t off;
	uint16_t hi_off;
};

#define I915_OA_MAX_SEGS 10

/**
 * struct hwt_i915_oa_format - one enum drm_i915_oa_format value on some generations
 * @id:		enum value (1..14)
 * @name:	enum name without the I915_OA_FORMAT_ prefix ("OAR_..."/"OAM_..." kept
 *		as in the enum: "OAR_A32u40_A4u32_B8_C8", "MPEC8u64_B8_C8")
 * @size:	report size in bytes
 * @min_gen:	first graphics version x100 this row describes
 * @max_gen:	last one
 * @hdr64:	64-bit report header (MTL OAM)
 * @nsegs:	entries in @segs
 * @segs:	counter runs, A runs in index order
 * @unknown:	what the sources leave unknown about this layout, or NULL
 */
struct hwt_i915_oa_format {
	uint32_t id;
	const char *name;
	uint16_t size;
	uint16_t min_gen;
	uint16_t max_gen;
	bool hdr64;
	uint8_t nsegs;
	struct hwt_i915_oa_seg segs[I915_OA_MAX_SEGS];
	const char *unknown;
};

/* The format table (i915_oa_formats.c), terminated by a row with id 0. */
extern const struct hwt_i915_oa_format hwt_i915_oa_formats[];

/**
 * hwt_i915_oa_format__find - layout of format @id on graphics version @gen (x100)
 *
 * Returns the row for that generation, else any row of @id, else NULL.
 */
const struct hwt_i915_oa_format *hwt_i915_oa_format__find(uint32_t id, uint32_t gen);

/**
 * hwt_i915_oa_format__by_name - format id for an enum name ("A32u40_A4u32_B8_C8",
 * "I915_OA_FORMAT_A13", "OAR_A32u40_A4u32_B8_C8", "14" ...); 0 if unknown
 */
uint32_t hwt_i915_oa_format__by_name(const char *name);

/**
 * hwt_i915_oa__gen_for_devid - graphics version x100 for a PCI device id, 0 if unknown
 */
uint32_t hwt_i915_oa__gen_for_devid(uint32_t devid);

/**
 * hwt_i915_oa__parse_gen - graphics version x100 from text: "12" -> 1200,
 * "12.5" -> 1250, "12.55" -> 1255, "1255" -> 1255; 0 if it is not one
 */
uint32_t hwt_i915_oa__parse_gen(const char *s);

/**
 * hwt_i915_oa__default_gen - graphics version x100 to assume for a format
 */
uint32_t hwt_i915_oa__default_gen(uint32_t fmt);

/**
 * struct hwt_i915_oa_values - one decoded report
 * @rpt_id:	report id dword (or low 32 bits of the 64-bit id)
 * @reason:	reason bits (bit i = IGT's reason string i)
 * @raw_ts:	timestamp as stored in the report
 * @ts:		timestamp in timestamp-frequency ticks (DG2: raw >> 1)
 * @ctx:	context id as stored
 * @ctx_valid:	the context-valid bit (Gen8 bit 25, Gen9+ bit 16)
 * @ticks:	GPU clock ticks (header; HSW: counter C2)
 * @a, @b, @c:	counters, in index order; @na, @nb, @nc of them
 * @zero_hdr:	the report header is all zero (never written by the hardware)
 */
struct hwt_i915_oa_values {
	uint32_t rpt_id;
	uint32_t reason;
	uint64_t raw_ts;
	uint64_t ts;
	uint32_t ctx;
	bool ctx_valid;
	uint64_t ticks;
	uint64_t a[I915_OA_MAX_A];
	uint64_t b[I915_OA_MAX_BC];
	uint64_t c[I915_OA_MAX_BC];
	uint32_t na, nb, nc;
	bool zero_hdr;
};

/**
 * hwt_i915_oa__decode_report - decode one report of @fmt on graphics version @gen
 * @fmt:	the layout
 * @gen:	graphics version x100
 * @p:		the report, at least fmt->size bytes
 * @v:		filled in
 */
void hwt_i915_oa__decode_report(const struct hwt_i915_oa_format *fmt, uint32_t gen,
				const uint8_t *p, struct hwt_i915_oa_values *v);

/* Context key as IGT's reader groups reports: ctx id, or invalid when not valid (< Gfx12). */
static inline uint32_t hwt_i915_oa__ctx_key(uint32_t gen, uint32_t ctx, bool ctx_valid)
{
	if (gen < 800)
		return I915_OA_INVALID_CTX;
	/* IGT's reader takes Gfx12+ ids as always valid */
	if (gen >= 1200 || ctx_valid)
		return ctx;
	return I915_OA_INVALID_CTX;
}

/*
 * How far a report's 32-bit timestamp is shifted right: by one on DG2
 * (12.55) and the 12.5x parts before MTL, as IGT reads them.  Mesa shifts
 * every 12.5+ part, MTL (12.70) too; IGT files and i915-perf-reader are the
 * reference here, and they do not.  64-bit headers carry the whole value.
 */
static inline unsigned int hwt_i915_oa__ts_shift(bool hdr64, uint32_t gen)
{
	return !hdr64 && gen >= 1250 && gen < 1270;
}

static inline uint64_t hwt_i915_oa__ts_of(const struct hwt_i915_oa_format *fmt, uint32_t gen,
					  uint64_t raw_ts)
{
	return raw_ts >> hwt_i915_oa__ts_shift(fmt->hdr64, gen);
}

/* a report's timestamp alone, as hwt_i915_oa__decode_header() puts it in ts */
static inline uint64_t hwt_i915_oa__report_ts(const struct hwt_i915_oa_format *fmt, uint32_t gen,
					      const uint8_t *p)
{
	return hwt_i915_oa__ts_of(fmt, gen, fmt->hdr64 ? hwt_le64(p + 8) : hwt_le32(p + 4));
}

/**
 * hwt_i915_oa__decode_header - the header fields only (no counters: na = nb = nc = 0)
 *
 * Enough for timestamps, GPU ticks (Gen8+) and contexts, i.e. for the
 * per-context totals.  HSW's ticks live in C2: use hwt_i915_oa__decode_report().
 */
static inline void hwt_i915_oa__decode_header(const struct hwt_i915_oa_format *fmt, uint32_t gen,
					      const uint8_t *p, struct hwt_i915_oa_values *v)
{
	v->na = v->nb = v->nc = 0;
	v->rpt_id = hwt_le32(p);
	if (fmt->hdr64) {
		v->raw_ts = hwt_le64(p + 8);
		v->ctx = hwt_le32(p + 16);
		v->ticks = hwt_le64(p + 24);
	} else {
		v->raw_ts = hwt_le32(p + 4);
		v->ctx = hwt_le32(p + 8);
		v->ticks = gen >= 800 ? hwt_le32(p + 12) : 0;
	}
	v->ts = hwt_i915_oa__ts_of(fmt, gen, v->raw_ts);

	if (gen < 800) {
		/* HSW has no reason bits; IGT labels its periodic reports "timer" */
		v->reason = I915_OA_REASON_TIMER;
		v->ctx_valid = false;
	} else {
		v->reason = (v->rpt_id >> 19) & (gen >= 1200 && gen < 1300 ? 0x7f : 0x3f);
		v->ctx_valid = v->rpt_id & (gen == 800 ? 1u << 25 : 1u << 16);
	}

	/* the header is 16 or 32 bytes: OR its u64 words */
	v->zero_hdr = !(hwt_le64(p) | hwt_le64(p + 8) |
			(fmt->hdr64 ? hwt_le64(p + 16) | hwt_le64(p + 24) : 0));
}

struct hwt_i915_oa_delta;
struct hwt_i915_oa_plan;

/**
 * hwt_i915_oa__decode_with_deltas - decode a report and its deltas in one pass
 * @plan:	@fmt's (hwt_i915_oa__plan())
 * @fmt:	the layout
 * @gen:	graphics version x100
 * @p:		the report
 * @b:		the baseline (the accumulator's), or NULL
 * @v:		filled in as by hwt_i915_oa__decode_report()
 * @d:		with @b, its da, db and dc as hwt_i915_oa_accum__report() takes them
 *
 * Eight counters a step, for Gen8+ (HSW's ticks are a counter) on CPUs with
 * AVX2 (hwt_cpu__have_avx2()).  Returns true when @d holds the deltas;
 * false, with @v decoded, when @b is NULL, @v's header is all zero or its
 * counts differ from @b's: the accumulator then takes what it can.
 */
bool hwt_i915_oa__decode_with_deltas(const struct hwt_i915_oa_plan *plan,
				     const struct hwt_i915_oa_format *fmt, uint32_t gen,
				     const uint8_t *p, const struct hwt_i915_oa_values *b,
				     struct hwt_i915_oa_values *v, struct hwt_i915_oa_delta *d);

/* Reason names, as IGT's intel_perf_read_report_reason() spells them. */
extern const char *const hwt_i915_oa_reason_names[7];

/* ---- stream walker (i915_perf_stream.c) ------------------------------------ */

/**
 * struct hwt_i915_walk - what the record walker calls
 * @record:	one well-framed record: @type, its body (@n bytes after the
 *		8-byte header) and the file offset of the header
 * @run:	optional: @count records in a row with one header (type and size),
 *		their bodies @stride bytes apart from @body on; the walker calls
 *		it instead of @record for two to 256 of them (a run longer than
 *		that comes in several calls), so that a caller can take a run
 *		of reports in one pass while they are in cache
 * @known:	whether @type (with body size @n) is a record the caller knows;
 *		used to find the next record after garbage
 * @ctx:	passed to each
 */
struct hwt_i915_walk {
	void (*record)(void *ctx, uint32_t type, const uint8_t *body, size_t n, uint64_t off);
	void (*run)(void *ctx, uint32_t type, const uint8_t *body, size_t n, size_t stride,
		    size_t count, uint64_t off);
	bool (*known)(void *ctx, uint32_t type, size_t n);
	void *ctx;
	/*
	 * set by @record to leave the record it was given unconsumed: the
	 * walk returns its offset (the caller hands it over again, with more
	 * input after it); NULL: never.  Not with @run.
	 */
	const bool *stop;
};

/**
 * hwt_i915_stream__walk - walk {u32 type; u16 pad; u16 size} records by header.size
 * @buf, @n:	input bytes; @off is the file offset of @buf[0]
 * @last:	no more input follows: consume everything
 * @w:		callbacks
 * @diag:	errors; every byte consumed is counted as decoded (framing of
 *		well-formed records: the caller counts bodies) or skipped
 *
 * A size below 8, a non-zero pad or a size past the end is an error; the
 * walker then looks for the next plausible record 4 bytes further on and
 * counts what it passes over as skipped.  Returns the bytes consumed (whole
 * records only unless @last).
 */
size_t hwt_i915_stream__walk(const uint8_t *buf, size_t n, uint64_t off, bool last,
			     const struct hwt_i915_walk *w, struct hwt_diag *diag);

/* ---- accumulation (i915_oa_accum.c) ------------------------------------------ */

/**
 * struct hwt_i915_oa_ctx_total - one context's totals
 * @ctx:	context id (I915_OA_INVALID_CTX: invalid or idle)
 * @reports:	reports labelled with this context
 * @lost:	lost records while this context was the current one
 * @dts:	sum of timestamp deltas ending at a report after one of this context
 * @dticks:	same for GPU ticks
 * @first_ts, @last_ts: first and last report timestamp seen with this context
 * @has_cpu:	perf.data: @cpu_first and @cpu_last are set (the decoder sets them
 *		from the AUX record times, which map no timestamp after the fact)
 * @cpu_first, @cpu_last: CPU time of the first and last such report
 */
struct hwt_i915_oa_ctx_total {
	uint32_t ctx;
	uint64_t reports;
	uint64_t lost;
	uint64_t dts;
	uint64_t dticks;
	uint64_t first_ts;
	uint64_t last_ts;
	bool has_cpu;
	uint64_t cpu_first;
	uint64_t cpu_last;
};

/**
 * struct hwt_i915_oa_accum - deltas between consecutive reports and per-context totals
 * @slot:	two report buffers: the baseline and the one to decode next into
 * @prev:	index in @slot of the baseline report
 * @have_prev:	the baseline is valid (false at the start and after OA_BUFFER_LOST)
 * @gen:	graphics version x100
 * @hdr64:	the format has a 64-bit header
 * @mask_a, @mask_b, @mask_c: per counter, 2^width - 1 (width 32, 40 or 64)
 * @ctxs:	per-context totals, @nctxs of them (at most HWT_I915_OA_MAX_CTXS;
 *		later contexts are added to the last entry, @ctx_overflow counts them)
 * @cur:	index in @ctxs of the latest report's context, or -1
 * @no_ctxs:	nobody reads the per-context totals: @ctxs stays empty (set by the caller)
 */
struct hwt_i915_oa_accum {
	struct hwt_i915_oa_values slot[2];
	uint32_t prev;
	bool have_prev;
	uint32_t gen;
	bool hdr64;
	uint64_t mask_a[I915_OA_MAX_A];
	uint64_t mask_b[I915_OA_MAX_BC];
	uint64_t mask_c[I915_OA_MAX_BC];
	struct hwt_i915_oa_ctx_total *ctxs;
	uint32_t nctxs, cap;
	uint64_t ctx_overflow;
	int32_t cur;
	bool no_ctxs;
};

#define HWT_I915_OA_MAX_CTXS 4096

/**
 * struct hwt_i915_oa_delta - deltas ending at one report
 */
struct hwt_i915_oa_delta {
	bool valid;
	uint64_t dts, dticks;
	uint64_t da[I915_OA_MAX_A];
	uint64_t db[I915_OA_MAX_BC];
	uint64_t dc[I915_OA_MAX_BC];
};

void hwt_i915_oa_accum__init(struct hwt_i915_oa_accum *acc, const struct hwt_i915_oa_format *fmt,
			     uint32_t gen);
void hwt_i915_oa_accum__exit(struct hwt_i915_oa_accum *acc);

/**
 * hwt_i915_oa_accum__next - where to decode the next report without a copy
 *
 * The buffer is not the baseline; passing it to hwt_i915_oa_accum__report()
 * makes it the baseline by swapping, not copying.  It stays valid until the
 * next report after that one.
 */
static inline struct hwt_i915_oa_values *hwt_i915_oa_accum__next(struct hwt_i915_oa_accum *acc)
{
	return &acc->slot[acc->prev ^ 1];
}

/* timestamp delta from raw timestamp @prev to @cur: modulo 2^32, shifted as the timestamps */
static inline uint64_t hwt_i915_oa_accum__dts(const struct hwt_i915_oa_accum *acc, uint64_t cur,
					      uint64_t prev)
{
	if (acc->hdr64)
		return cur - prev;
	return (uint32_t)(cur - prev) >> hwt_i915_oa__ts_shift(false, acc->gen);
}

/* GPU clock delta from @prev to @cur */
static inline uint64_t hwt_i915_oa_accum__dticks(const struct hwt_i915_oa_accum *acc,
						 uint64_t cur, uint64_t prev)
{
	return acc->hdr64 ? cur - prev : (uint32_t)(cur - prev);
}

/**
 * hwt_i915_oa_accum__report - take one report: deltas against the baseline
 *
 * Fills @d (d->valid false for the first report after a break or for a
 * zero-header report) and adds the deltas to the previous report's context.
 * A report with an all-zero header is never made the baseline.  @v may be any
 * buffer; hwt_i915_oa_accum__next()'s saves a copy.
 */
void hwt_i915_oa_accum__report(struct hwt_i915_oa_accum *acc, const struct hwt_i915_oa_values *v,
			       struct hwt_i915_oa_delta *d);

/* as hwt_i915_oa_accum__report(), @d's counter deltas already taken (decode_with_deltas()) */
void hwt_i915_oa_accum__report_taken(struct hwt_i915_oa_accum *acc,
				     const struct hwt_i915_oa_values *v, struct hwt_i915_oa_delta *d);

/* An OA_REPORT_LOST (@buffer false) or OA_BUFFER_LOST (@buffer true, drops the baseline). */
void hwt_i915_oa_accum__lost(struct hwt_i915_oa_accum *acc, bool buffer);

/* one run of counters of a plan: @count of @bits at byte @off (40-bit: high bytes at @hi_off) */
struct hwt_i915_oa_run {
	uint8_t bits, count;
	uint16_t off, hi_off, dst;	/* @dst: index of the first in the sums */
};

/*
 * one run of counters as hwt_i915_oa__decode_report() stores it: its first
 * counter's u64 is at byte @voff of struct hwt_i915_oa_values and its delta
 * at byte @doff of struct hwt_i915_oa_delta (B and C follow each other in both)
 */
struct hwt_i915_oa_drun {
	uint8_t bits, count;
	uint16_t off, hi_off, voff, doff;
};

/**
 * struct hwt_i915_oa_plan - how to take a format's deltas straight from the bytes
 * @runs:	the format's runs, neighbours merged, @nruns of them
 * @na, @nb, @nc: counters of each kind, as hwt_i915_oa__decode_report() gives;
 *		the sums hold the A counters, then the B, then the C
 * @dec:	the runs as decoded into values and deltas, @ndec of them
 * @avx2:	the CPU has AVX2: eight counters a step
 */
struct hwt_i915_oa_plan {
	struct hwt_i915_oa_run runs[I915_OA_MAX_SEGS];
	uint32_t nruns;
	struct hwt_i915_oa_drun dec[I915_OA_MAX_SEGS];
	uint32_t ndec;
	uint32_t na, nb, nc;
	bool avx2;
};

void hwt_i915_oa__plan(const struct hwt_i915_oa_format *fmt, struct hwt_i915_oa_plan *plan);

/**
 * hwt_i915_oa__add_deltas - add one report's counter deltas to sums, from the bytes
 * @plan:	the layout of both reports (hwt_i915_oa__plan())
 * @cur:	the report
 * @prev:	its baseline
 * @sums:	plan->na + plan->nb + plan->nc sums
 *
 * What decoding both reports and hwt_i915_oa_accum__report()'s deltas would
 * add, without either: each counter's difference modulo 2^width.
 */
void hwt_i915_oa__add_deltas(const struct hwt_i915_oa_plan *plan, const uint8_t *cur,
			     const uint8_t *prev, uint64_t *sums);

/**
 * hwt_i915_oa__count_wraps - count, per counter, the pairs of a run of reports that wrap
 * @plan:	their layout
 * @first:	the first report; the others follow @stride bytes apart
 * @npairs:	pairs (first + j * stride, first + (j + 1) * stride), j < @npairs
 * @w:		per counter (the sums' order), incremented for each pair whose
 *		counter is lower in the later report
 */
void hwt_i915_oa__count_wraps(const struct hwt_i915_oa_plan *plan, const uint8_t *first,
			      size_t stride, uint32_t npairs, uint32_t *w);

/**
 * hwt_i915_oa__add_span - add the deltas of a run of reports to sums, from its ends
 * @plan:	their layout
 * @last, @first: the run's last and first reports
 * @w:		hwt_i915_oa__count_wraps() over the run's pairs
 * @sums:	as hwt_i915_oa__add_deltas()'s
 *
 * What hwt_i915_oa__add_deltas() on each pair of the run would add:
 * @last - @first plus, for each wrap, 2^width.
 */
void hwt_i915_oa__add_span(const struct hwt_i915_oa_plan *plan, const uint8_t *last,
			   const uint8_t *first, const uint32_t *w, uint64_t *sums);

/* ---- per-context entries (i915_oa_ctx_table.c) ------------------------------ */

/**
 * struct hwt_i915_oa_ctx_table - entries of @size bytes, each starting with its
 * u32 context id, in the order the contexts came
 * @v:		@n entries (room for @cap)
 * @last:	index of the entry last returned, or -1
 *
 * Initialise as { .size = sizeof(entry), .last = -1 }.
 */
struct hwt_i915_oa_ctx_table {
	void *v;
	size_t size;
	uint32_t n, cap;
	int32_t last;
};

/* context @ctx's entry, added zeroed if new; NULL past HWT_I915_OA_MAX_CTXS or without memory */
void *hwt_i915_oa_ctx_table__get(struct hwt_i915_oa_ctx_table *t, uint32_t ctx);
void hwt_i915_oa_ctx_table__exit(struct hwt_i915_oa_ctx_table *t);

static inline void *hwt_i915_oa_ctx_table__at(const struct hwt_i915_oa_ctx_table *t, uint32_t i)
{
	return (char *)t->v + (size_t)i * t->size;
}

/* ---- per-context delta sums (i915_oa_sums.c) --------------------------------- */

/* one context's sums: the deltas of the reports that follow one of its reports */
struct hwt_i915_oa_ctx_sum {
	uint32_t ctx;		/* first: an entry of struct hwt_i915_oa_ctx_table */
	uint64_t dts, dticks;
	uint64_t v[I915_OA_MAX_A + 2 * I915_OA_MAX_BC];	/* A, B then C (the plan's) */
};

/**
 * struct hwt_i915_oa_sums - per-context sums of every counter's deltas
 * @plan:	the format's (set by the caller, who keeps it)
 * @ctxs:	struct hwt_i915_oa_ctx_sum, in the order the contexts' first deltas came
 * @prev_key:	context key of the latest report
 * @have_prev:	a report came since the start or the last lost record
 * @base:	the baseline report's bytes: in the piece being decoded, or @keep
 * @keep:	the baseline, copied when its piece ends
 * @dropped:	deltas not summed: more than HWT_I915_OA_MAX_CTXS contexts, or no memory
 *
 * The metrics computer's per-context sums (i915_oa_metrics.c) done in the
 * decoder when only those sums are wanted (report --metrics): the reports'
 * counters are never decoded, only subtracted and added.
 */
struct hwt_i915_oa_sums {
	const struct hwt_i915_oa_plan *plan;
	struct hwt_i915_oa_ctx_table ctxs;
	uint32_t prev_key;
	bool have_prev;
	const uint8_t *base;
	uint8_t keep[256];
	uint64_t dropped;
};

void hwt_i915_oa_sums__init(struct hwt_i915_oa_sums *s);
void hwt_i915_oa_sums__exit(struct hwt_i915_oa_sums *s);

/**
 * hwt_i915_oa_sums__report - take one report (already passed to the accumulator)
 * @s:		the sums
 * @body:	its bytes, valid until the piece ends (hwt_i915_oa_sums__piece_end())
 * @v:		its header (hwt_i915_oa__decode_header())
 * @d:		the accumulator's deltas ending at it (d->valid: it has a baseline)
 * @key:	its context key (hwt_i915_oa__ctx_key())
 *
 * As the metrics computer: the deltas ending at a report go to the context
 * of the report before it, unless a lost record came between them.
 */
void hwt_i915_oa_sums__report(struct hwt_i915_oa_sums *s, const uint8_t *body, const struct hwt_i915_oa_values *v,
			      const struct hwt_i915_oa_delta *d, uint32_t key);

/**
 * hwt_i915_oa_sums__span - take the reports that follow one just taken, while
 * their deltas go to one context
 * @s:		the sums
 * @acc:	the accumulator, which keeps no per-context totals (no_ctxs)
 * @fmt, @gen:	the reports' format and graphics version
 * @first:	the report just passed to hwt_i915_oa_sums__report(), at most
 *		@count reports of @fmt->size bytes, @stride bytes apart, from it on
 *
 * Takes the reports after @first up to the first that has a zero header
 * (not taken) or a context other than @first's (taken, as the run's last),
 * and leaves @s and @acc as one call each per report would.  Returns how
 * many it took (0 when @first was not a baseline).
 */
size_t hwt_i915_oa_sums__span(struct hwt_i915_oa_sums *s, struct hwt_i915_oa_accum *acc,
			      const struct hwt_i915_oa_format *fmt, uint32_t gen,
			      const uint8_t *first, size_t stride, size_t count);

/* a lost record (either kind): the next report's deltas go to no context */
static inline void hwt_i915_oa_sums__lost(struct hwt_i915_oa_sums *s)
{
	s->have_prev = false;
}

/* the piece's bytes go away: keep the baseline */
void hwt_i915_oa_sums__piece_end(struct hwt_i915_oa_sums *s, const struct hwt_i915_oa_format *fmt);

/* ns = ticks * 1e9 / freq without overflow (0 when freq is 0; saturates at UINT64_MAX). */
uint64_t hwt_i915_oa__ticks_to_ns(uint64_t ticks, uint64_t freq);

/* ---- IGT recorder files (i915_igt.c) ------------------------------------------ */

/**
 * struct hwt_igt_device_info - DEVICE_INFO record
 */
struct hwt_igt_device_info {
	uint64_t timestamp_frequency;
	uint32_t device_id, device_revision;
	uint32_t gt_min_frequency, gt_max_frequency;
	uint32_t engine_class, engine_instance;
	uint32_t oa_format;
	char metric_set_name[256];
	char metric_set_uuid[40];
};

/* One CORRELATION record: CPU ns and the full GPU timestamp. */
struct hwt_igt_correlation {
	uint64_t cpu_ts;
	uint64_t gpu_ts;
};

/* Whether @head looks like an IGT i915-perf-recorder file (starts with VERSION). */
bool hwt_igt__probe(const uint8_t *head, size_t n);

/* Parse DEVICE_INFO from @body (@n bytes); false if it is too short. */
bool hwt_igt__device_info(const uint8_t *body, size_t n, struct hwt_igt_device_info *di);

/**
 * hwt_i915_oa__topology_check - whether libi915_perf may be given topology @t
 * @t:		a drm_i915_query_topology_info (IGT's TOPOLOGY record, perf.data
 *		layout 2's topology words) of @n bytes
 * @why:	what is wrong, on false (@len bytes)
 *
 * intel_perf_for_devinfo() trusts the topology's header: it copies its
 * subslice and EU masks into arrays of fixed size (an assert aborts the
 * process when they do not fit) and reads every slice's, subslice's and
 * EU's bit at the offsets and strides the header gives.  True when all of
 * that lies in the @n bytes and fits those arrays.
 */
bool hwt_i915_oa__topology_check(const uint8_t *t, size_t n, char *why, size_t len);

/**
 * hwt_igt__gpu_to_cpu - map an OA timestamp (low @mask bits, already shifted)
 * to CPU ns by linear interpolation between correlation points, as IGT's
 * reader does (points whose masked GPU time brackets @ts; else the first pair
 * extrapolated).  @shift is the Gfx12.5 right shift of OA timestamps.
 * Returns false with fewer than two points.
 */
bool hwt_igt__gpu_to_cpu(const struct hwt_igt_correlation *pts, uint32_t n, uint64_t ts,
			 uint64_t mask, uint32_t shift, uint64_t *cpu);

/* ---- records and the decoder --------------------------------------------------- */

/* i915 OA AUXTRACE_INFO priv[] from the lookup (struct hwt_device.auxinfo) */
int hwt_i915_oa__auxinfo(const struct hwt_auxinfo_lookup *lk, const char *pmu_name,
			 uint64_t *priv, uint32_t max, char *err, size_t errlen);

extern const struct hwt_record_type hwt_rt_i915_oa_report;
extern const struct hwt_record_type hwt_rt_i915_oa_lost;
extern const struct hwt_record_type hwt_rt_i915_oa_context;
extern const struct hwt_record_type hwt_rt_i915_oa_device;
extern const struct hwt_record_type hwt_rt_i915_oa_ctx_sums;
extern const struct hwt_metrics_ops hwt_i915_oa_metrics;
extern const struct hwt_record_type hwt_rt_i915_oa_stream;
extern const struct hwt_decoder_ops hwt_i915_oa_decoder;
extern const struct hwt_dev_opt hwt_i915_oa_options[];
extern const struct hwt_synth hwt_i915_oa_synth;
extern const struct hwt_device hwt_device_i915_oa;

#endif
