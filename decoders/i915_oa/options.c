// SPDX-License-Identifier: GPL-2.0
/* options.c - the decoder options of i915 OA and how each value is checked. */
#include "hwtrace/device.h"
#include "hwtrace/i915_oa.h"

const struct hwt_dev_opt hwt_i915_oa_options[] = {
	{ "oa-format", "NAME", "OA report format (raw decode), e.g. A32u40_A4u32_B8_C8" },
	{ "gen", "VER", "graphics version (raw decode), e.g. 9, 12, 12.5" },
	{ "ts-freq", "HZ", "command-streamer timestamp frequency" },
	{ "devid", "ID", "PCI device id" },
	{ NULL },
};
