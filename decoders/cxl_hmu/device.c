// SPDX-License-Identifier: GPL-2.0
/* device.c - the cxl-hmu device: its entry in the device table. */
#include "hwtrace/device.h"
#include "cxl_hmu_internal.h"

static const struct hwt_record_type *const record_types[] = {
	&hwt_rt_cxl_hmu_unit,
	&hwt_rt_cxl_hmu_packet,
	&hwt_rt_cxl_hmu_summary,
	&hwt_rt_cxl_hmu_hot,
	NULL,
};

const struct hwt_device hwt_device_cxl_hmu = {
	.name = "cxl-hmu",
	.summary = "CXL Hotness Monitoring Unit hotlists (CHMU)",
	.auxtrace_type = HWT_AUXTRACE_CXL_HMU,
	.pmu_pattern = "cxl_hmu_mem*",
	.decoder = &hwt_cxl_hmu_decoder,
	.record_types = record_types,
	.auxinfo = hwt_cxl_hmu__auxinfo,
	.synth = &hwt_cxl_hmu_synth,
	.options = hwt_cxl_hmu_options,
};
