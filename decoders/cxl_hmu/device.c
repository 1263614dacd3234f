// SPDX-License-Identifier: GPL-2.0
/* device.c - the cxl-hmu device: its entry in the device table. */
#include "hwtrace/device.h"
#include "hwtrace/cxl_hmu.h"

const struct hwt_device hwt_device_cxl_hmu = {
	.name = "cxl-hmu",
	.summary = "CXL Hotness Monitoring Unit hotlists (CHMU)",
	.decoder = &hwt_cxl_hmu_decoder,
	.options = hwt_cxl_hmu_options,
};
