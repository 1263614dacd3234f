// SPDX-License-Identifier: GPL-2.0
/* device.c - the i915-oa device: its entry in the device table. */
#include "hwtrace/device.h"
#include "i915_oa_internal.h"

/* OA timestamps tick at the command-streamer frequency of the AUXTRACE_INFO */
static uint64_t ts_freq(const struct hwt_aux_ctx *ctx)
{
	return ctx->npriv > HWT_I915_OA_PRIV_TS_FREQ ? ctx->priv[HWT_I915_OA_PRIV_TS_FREQ] : 0;
}

static const struct hwt_record_type *const record_types[] = {
	&hwt_rt_i915_oa_report, &hwt_rt_i915_oa_lost, &hwt_rt_i915_oa_context,
	&hwt_rt_i915_oa_stream, &hwt_rt_i915_oa_device, &hwt_rt_i915_oa_ctx_sums, NULL,
};

const struct hwt_device hwt_device_i915_oa = {
	.name = "i915-oa",
	.summary = "Intel i915 OA reports (perf stream, IGT recorder files)",
	.auxtrace_type = HWT_AUXTRACE_I915_OA,
	.pmu_pattern = "i915_oa*",
	.decoder = &hwt_i915_oa_decoder,
	.record_types = record_types,
	.auxinfo = hwt_i915_oa__auxinfo,
	.synth = &hwt_i915_oa_synth,
	.options = hwt_i915_oa_options,
	.metrics = &hwt_i915_oa_metrics,
	.ts_freq = ts_freq,
};
