// SPDX-License-Identifier: GPL-2.0
/*
 * panthor_records.c - field tables of the panthor record types (design.rst 7).
 *
 * Every sink (script text/JSON/CSV, report, -D, inject, Python) walks these;
 * the panthor_block shape is the one issue 3 specifies.
 */
#include <stddef.h>

#include "panthor_internal.h"

static const char *const flag_names[] = { "OVERFLOW", "ERROR" };
static const char *const state_names[] = {
	"ON", "OFF", "AVAILABLE", "UNAVAILABLE", "NORMAL", "PROTECTED",
};
static const char *const clock_names[] = { "toplevel", "coregroup", "shader" };

#define BLK struct hwt_panthor_block_rec
static const struct hwt_field block_fields[] = {
	HWT_FIELD(BLK, sample, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(BLK, timestamp_start_ns, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(BLK, timestamp_end_ns, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(BLK, interval_ns, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(BLK, user_data, HWT_FT_U64, HWT_FH_HEX),	/* as the sample's */
	HWT_FIELD_FLAGS(BLK, flags, HWT_FT_U32, flag_names),
	HWT_FIELD_ENUM(BLK, block_type, HWT_FT_U32, hwt_panthor_kind_names),
	HWT_FIELD(BLK, block_idx, HWT_FT_U32, HWT_FH_DEC),
	HWT_FIELD_FLAGS(BLK, block_states, HWT_FT_U32, state_names),
	HWT_FIELD_ENUM(BLK, clock, HWT_FT_U32, clock_names),
	HWT_FIELD(BLK, cycles, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD_ARRAY(BLK, enable_mask, HWT_FT_U64, 2, HWT_FH_HEX),
	HWT_FIELD_VEC(BLK, values, nvalues, HWT_FT_U64_VEC),
	HWT_FIELD_VEC(BLK, counters, ncounters, HWT_FT_KV),
	HWT_FIELD_VEC_OPT(BLK, scaled, nscaled, HWT_FT_KV, has_scaled),
};

const struct hwt_record_type hwt_rt_panthor_block = {
	.name = "panthor_block",
	.id = 2001,
	.fields = block_fields,
	.nfields = sizeof(block_fields) / sizeof(block_fields[0]),
	.dump_fmt = ".  block {block_type} {block_idx}: states {block_states} clock {clock} "
		    "cycles {cycles} enable_mask {enable_mask} counters {counters}",
	.kind = HWT_RK_DATA,
};

#define SMP struct hwt_panthor_sample_rec
static const struct hwt_field sample_fields[] = {
	HWT_FIELD(SMP, sample, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(SMP, timestamp_start_ns, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(SMP, timestamp_end_ns, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(SMP, block_set, HWT_FT_U32, HWT_FH_DEC),
	HWT_FIELD_FLAGS(SMP, flags, HWT_FT_U32, flag_names),
	HWT_FIELD(SMP, user_data, HWT_FT_U64, HWT_FH_HEX),
	HWT_FIELD(SMP, toplevel_clock_cycles, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(SMP, coregroup_clock_cycles, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(SMP, shader_clock_cycles, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(SMP, blocks, HWT_FT_U32, HWT_FH_DEC),
};

const struct hwt_record_type hwt_rt_panthor_sample = {
	.name = "panthor_sample",
	.id = 2002,
	.fields = sample_fields,
	.nfields = sizeof(sample_fields) / sizeof(sample_fields[0]),
	.dump_fmt = ". sample {sample}: start_ns {timestamp_start_ns} end_ns {timestamp_end_ns} "
		    "set {block_set} flags {flags} user_data {user_data} cycles "
		    "{toplevel_clock_cycles}/{coregroup_clock_cycles}/{shader_clock_cycles} "
		    "blocks {blocks}",
	.kind = HWT_RK_FRAMING,
};

#define SUM struct hwt_panthor_summary
static const struct hwt_field summary_fields[] = {
	HWT_FIELD(SUM, layout, HWT_FT_U32, HWT_FH_DEC),
	HWT_FIELD(SUM, gpu_id, HWT_FT_U32, HWT_FH_HEX),
	HWT_FIELD(SUM, gpu, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD(SUM, counters_per_block, HWT_FT_U32, HWT_FH_DEC),
	HWT_FIELD(SUM, sample_size, HWT_FT_U32, HWT_FH_DEC),
	HWT_FIELD(SUM, samples, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(SUM, blocks, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(SUM, bad_samples, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(SUM, overflow, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(SUM, error, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(SUM, off_blocks, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(SUM, unavailable_blocks, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(SUM, span_ns, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(SUM, note, HWT_FT_STR, HWT_FH_DEC),
};

const struct hwt_record_type hwt_rt_panthor_summary = {
	.name = "panthor_summary",
	.id = 2003,
	.fields = summary_fields,
	.nfields = sizeof(summary_fields) / sizeof(summary_fields[0]),
	.kind = HWT_RK_SUMMARY,
	.as_list = true,	/* 14 fields and a note: wider than a terminal */
};

#define TOT struct hwt_panthor_block_total
static const struct hwt_field total_fields[] = {
	HWT_FIELD_ENUM(TOT, block_type, HWT_FT_U32, hwt_panthor_kind_names),
	HWT_FIELD(TOT, block_idx, HWT_FT_U32, HWT_FH_DEC),
	HWT_FIELD(TOT, samples, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(TOT, interval_ns, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(TOT, cycles, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(TOT, off, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(TOT, unavailable, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD(TOT, note, HWT_FT_STR, HWT_FH_DEC),
};

const struct hwt_record_type hwt_rt_panthor_block_total = {
	.name = "panthor_block_total",
	.id = 2004,
	.fields = total_fields,
	.nfields = sizeof(total_fields) / sizeof(total_fields[0]),
	.kind = HWT_RK_SUMMARY,
};

#define CNT struct hwt_panthor_counter
static const struct hwt_field counter_fields[] = {
	HWT_FIELD_ENUM(CNT, block_type, HWT_FT_U32, hwt_panthor_kind_names),
	HWT_FIELD(CNT, block_idx, HWT_FT_U32, HWT_FH_DEC),
	HWT_FIELD(CNT, counter, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD(CNT, total, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD_OPT(CNT, per_second, HWT_FT_U64, HWT_FH_DEC, has_per_second),
	HWT_FIELD_OPT(CNT, per_mcycle, HWT_FT_U64, HWT_FH_DEC, has_per_mcycle),
	HWT_FIELD(CNT, scaled, HWT_FT_U32, HWT_FH_DEC),
};

const struct hwt_record_type hwt_rt_panthor_counter = {
	.name = "panthor_counter",
	.id = 2006,
	.fields = counter_fields,
	.nfields = sizeof(counter_fields) / sizeof(counter_fields[0]),
	.kind = HWT_RK_SUMMARY,
};

#define AGG struct hwt_panthor_aggregate
static const struct hwt_field aggregate_fields[] = {
	HWT_FIELD_ENUM(AGG, block_type, HWT_FT_U32, hwt_panthor_kind_names),
	HWT_FIELD(AGG, counter, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD(AGG, instances, HWT_FT_U32, HWT_FH_DEC),
	HWT_FIELD(AGG, sum, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD_OPT(AGG, mean, HWT_FT_U64, HWT_FH_DEC, has_mean),
	HWT_FIELD_OPT(AGG, per_second, HWT_FT_U64, HWT_FH_DEC, has_per_second),
};

const struct hwt_record_type hwt_rt_panthor_aggregate = {
	.name = "panthor_aggregate",
	.id = 2005,
	.fields = aggregate_fields,
	.nfields = sizeof(aggregate_fields) / sizeof(aggregate_fields[0]),
	.kind = HWT_RK_SUMMARY,
};
