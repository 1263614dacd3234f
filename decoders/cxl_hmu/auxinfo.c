// SPDX-License-Identifier: GPL-2.0
/*
 * auxinfo.c - the CXL HMU AUXTRACE_INFO priv[] (design.rst 4.1): the RFC's
 * 24-byte record carries the PMU type (priv[0], set by hwt_device__auxinfo())
 * and nothing else.
 */
#include "cxl_hmu_internal.h"
#include "core/decoder_internal.h"

int hwt_cxl_hmu__auxinfo(const struct hwt_auxinfo_lookup *lk, const char *pmu_name,
			 uint64_t *priv, uint32_t max, char *err, size_t errlen)
{
	return HWT_CXL_HMU_NPRIV;
}
