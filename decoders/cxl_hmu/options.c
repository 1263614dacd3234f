// SPDX-License-Identifier: GPL-2.0
/* options.c - the decoder options of CXL HMU and how each value is checked. */
#include "hwtrace/cxl_hmu.h"
#include "hwtrace/device.h"

const struct hwt_dev_opt hwt_cxl_hmu_options[] = {
	{ "hdm", "base=B,size=S,ways=W,granularity=G,pos=P[,dpa_base=D]",
	  "an HDM decoder: records then carry the HPA" },
	{ "granual", "N", "log2 of the unit size when the attr does not say (raw decode)" },
	{ "width", "N", "counter width in bits when the packet does not say (raw decode)" },
	{ "pmu", "NAME", "the PMU name when the file does not say" },
	{ "top", "N", "how many hottest units report lists (default 10)" },
	{ NULL },
};
