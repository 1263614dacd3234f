// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - the drm-usage device: DRM client and GPU samples written by
 * `top --record`; its AUXTRACE_INFO words (design.rst 4.5) and its entry in
 * the device table.
 */
#include <stdio.h>

#include "hwtrace/perf_data.h"
#include "drm_usage_internal.h"

int hwt_drm_usage__auxinfo(const struct hwt_auxinfo_lookup *lk, const char *pmu_name,
			   uint64_t *priv, uint32_t max, char *err, size_t errlen)
{
	(void)lk;
	if (max < HWT_DRM_USAGE_NPRIV) {
		snprintf(err, errlen, "%s: no room for %d priv words", pmu_name,
			 HWT_DRM_USAGE_NPRIV);
		return -1;
	}
	priv[HWT_DRM_USAGE_PRIV_LAYOUT] = HWT_DRM_USAGE_LAYOUT;
	return HWT_DRM_USAGE_NPRIV;
}

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
