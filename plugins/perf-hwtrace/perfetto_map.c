// SPDX-License-Identifier: GPL-2.0
/*
 * perfetto_map.c - the record types convert --to-perfetto turns into
 * counter tracks (Documentation/perfetto.rst lists the names).
 */
#include <stddef.h>

#include "perfetto_map.h"

const struct pf_map pf_maps[] = {
	{
		/* one value per OA report, per context; times from the OA timestamp */
		.type = "i915_oa_report", .group = "i915 OA",
		.time_field = "ts", .time_wrap_bits = 32,
		.freq_type = "i915_oa_stream", .freq_field = "ts_freq", .freq_option = "ts-freq",
		.values = {
			{ PF_TICKS_NS, "dts", NULL, "GpuTime ctx {ctx}", PF_UNIT_NS,
			  .fallback = true },
			{ PF_FIELD, "dticks", NULL, "GpuCoreClocks ctx {ctx}", PF_UNIT_COUNT,
			  .fallback = true },
			{ PF_PER_TICKS, "dticks", "dts", "GpuCoreFrequency ctx {ctx} (Hz)",
			  PF_UNIT_NONE, .fallback = true },
			{ PF_METRICS, NULL, NULL, "{} ctx {ctx}", PF_UNIT_NONE },
			{ PF_VEC, "da", NULL, "A{} ctx {ctx}", PF_UNIT_COUNT, true },
			{ PF_VEC, "db", NULL, "B{} ctx {ctx}", PF_UNIT_COUNT, true },
			{ PF_VEC, "dc", NULL, "C{} ctx {ctx}", PF_UNIT_COUNT, true },
		},
	},
	{
		/* per counter per block, one value per sample (the sample's end time) */
		.type = "panthor_block", .group = "panthor",
		.time_field = "timestamp_end_ns",
		.values = {
			{ PF_KV, "counters", NULL, "panthor {block_type}[{block_idx}] {}",
			  PF_UNIT_COUNT },
			/* the sample's derived metrics ride on its last block */
			{ PF_METRICS, NULL, NULL, "panthor {}", PF_UNIT_NONE },
		},
	},
	{
		/* per epoch (the units of one drain share its AUX time) and hot units */
		.type = "cxl_hmu_unit", .group = "CXL HMU",
		.time_field = "time",
		.select_type = "cxl_hmu_hot", .select_field = "unit", .key_field = "unit",
		.values = {
			{ PF_EPOCH_SUM, "count", NULL, "{pmu} epoch total count", PF_UNIT_COUNT },
			{ PF_EPOCH_N, "unit", NULL, "{pmu} epoch units reported", PF_UNIT_COUNT },
			{ PF_SELECTED, "count", NULL, "{pmu} hot unit {unit} count", PF_UNIT_COUNT },
		},
	},
};

const unsigned pf_nmaps = sizeof(pf_maps) / sizeof(pf_maps[0]);
