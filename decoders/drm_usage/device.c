// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - the drm-usage device: DRM client and GPU samples written by
 * `top --record`: its entry in the device table.
 */
#include "hwtrace/perf_data.h"
#include "drm_usage_internal.h"

static const struct hwt_record_type *const record_types[] = {
	&hwt_rt_drm_usage_engine, &hwt_rt_drm_usage_memory, &hwt_rt_drm_usage_gpu,
	&hwt_rt_drm_usage_gpu_engine, NULL,
};

static const struct hwt_dev_opt no_options[] = { { 0 } };

const struct hwt_device hwt_device_drm_usage = {
	.name = "drm-usage",
	.summary = "DRM client fdinfo and GPU sysfs samples (top --record)",
	.auxtrace_type = HWT_AUXTRACE_DRM_USAGE,
	.pmu_pattern = HWT_DRM_USAGE_PMU,	/* the name its files give PMU type 64 */
	.decoder = &hwt_drm_usage_decoder,
	.record_types = record_types,
	.auxinfo = hwt_drm_usage__auxinfo,
	.synth = &hwt_drm_usage_synth,
	.options = no_options,
};
