// SPDX-License-Identifier: GPL-2.0
/* auxinfo.c - the drm-usage AUXTRACE_INFO words after the PMU type (design.rst 4.5). */
#include <stdio.h>

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
