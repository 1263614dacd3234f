// SPDX-License-Identifier: GPL-2.0
/* device.c - the i915-oa device: its entry in the device table. */
#include "hwtrace/device.h"
#include "hwtrace/i915_oa.h"

const struct hwt_device hwt_device_i915_oa = {
	.name = "i915-oa",
	.summary = "Intel i915 OA reports (perf stream, IGT recorder files)",
	.decoder = &hwt_i915_oa_decoder,
	.options = hwt_i915_oa_options,
};
