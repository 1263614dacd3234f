// SPDX-License-Identifier: GPL-2.0
/* options.c - the decoder options of panthor and how each value is checked. */
#include "hwtrace/device.h"
#include "hwtrace/panthor.h"

const struct hwt_dev_opt hwt_panthor_options[] = {
	{ "info", "FILE", "perf_info fields as JSON (raw decode)", .file = true },
	{ "layout", "N", "uAPI layout revision: 2 or 6 (raw decode)" },
	{ "insert", "N", "ring insert index (raw decode)" },
	{ "extract", "N", "ring extract index (raw decode)" },
	{ "slots", "N", "ring slots (raw decode)" },
	{ "format", "ring|samples", "what the raw file holds (default ring)" },
	{ NULL },
};
