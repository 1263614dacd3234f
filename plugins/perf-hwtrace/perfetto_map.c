// SPDX-License-Identifier: GPL-2.0
/*
 * perfetto_map.c - the record types convert --to-perfetto turns into
 * counter tracks (Documentation/perfetto.rst lists the names).
 */
#include <stddef.h>

#include "perfetto_map.h"

const struct pf_map pf_maps[] = {
	{
		/* one value per OA report, per context; at its CPU time, else at its OA timestamp */
		.type = "i915_oa_report", .group = "i915 OA",
		.cpu_time_field = "time", .time_field = "ts", .time_wrap_bits = 32,
		.freq_type = "i915_oa_stream", .freq_field = "ts_freq",
		.freq_early_type = "i915_oa_device", .freq_early_field = "ts_freq",
		.freq_option = "ts-freq",
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
	{
		/* top --record: per client engine utilisation (ppm of its capacity) */
		.type = "drm_usage_engine", .group = "DRM clients",
		.time_field = "time",
		.values = {
			{ PF_FIELD, "util_ppm", NULL, "{comm} {client_id}{fd:fd} {engine} busy (ppm)",
			  PF_UNIT_NONE },
		},
	},
	{
		/* top --record: per client memory, per region and kind */
		.type = "drm_usage_memory", .group = "DRM clients",
		.time_field = "time",
		.values = {
			{ PF_FIELD, "bytes", NULL,
			  "{comm} {client_id}{fd:fd} {region} {kind} memory",
			  PF_UNIT_BYTES },
		},
	},
	{
		/* top --record: device-wide GPU values from sysfs */
		.type = "drm_usage_gpu", .group = "GPUs",
		.time_field = "time",
		.values = {
			{ PF_FIELD, "cur_mhz", NULL, "{card} frequency (MHz)", PF_UNIT_NONE },
			{ PF_FIELD, "power_mw", NULL, "{card} power (mW)", PF_UNIT_NONE },
			{ PF_FIELD, "temp_mc", NULL, "{card} temperature (m\u00b0C)", PF_UNIT_NONE },
			{ PF_FIELD, "vram_used", NULL, "{card} VRAM used", PF_UNIT_BYTES },
		},
	},
	{
		.type = "drm_usage_gpu_engine", .group = "GPUs",
		.time_field = "time",
		.values = {
			{ PF_FIELD, "busy_ppm", NULL, "{card} {engine} busy (ppm)", PF_UNIT_NONE },
		},
	},
};

const unsigned pf_nmaps = sizeof(pf_maps) / sizeof(pf_maps[0]);
