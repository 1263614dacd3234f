// SPDX-License-Identifier: GPL-2.0
/* device.c - the panthor device: its entry in the device table. */
#include "hwtrace/device.h"
#include "panthor_internal.h"

static const struct hwt_record_type *const record_types[] = {
	&hwt_rt_panthor_block, &hwt_rt_panthor_sample, &hwt_rt_panthor_summary,
	&hwt_rt_panthor_block_total, &hwt_rt_panthor_aggregate, &hwt_rt_panthor_counter, NULL,
};

const struct hwt_device hwt_device_panthor = {
	.name = "panthor",
	.summary = "Arm Mali CSF (panthor) performance counter samples",
	.auxtrace_type = HWT_AUXTRACE_PANTHOR,
	.pmu_pattern = "panthor_perf*",
	.decoder = &hwt_panthor_decoder,
	.record_types = record_types,
	.auxinfo = hwt_panthor__auxinfo,
	.synth = &hwt_panthor_synth,
	.options = hwt_panthor_options,
	.metrics = &hwt_panthor_metrics,
};
