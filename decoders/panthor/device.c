// SPDX-License-Identifier: GPL-2.0
/* device.c - the panthor device: its entry in the device table. */
#include "hwtrace/device.h"
#include "hwtrace/panthor.h"

const struct hwt_device hwt_device_panthor = {
	.name = "panthor",
	.summary = "Arm Mali CSF (panthor) performance counter samples",
	.decoder = &hwt_panthor_decoder,
	.options = hwt_panthor_options,
};
