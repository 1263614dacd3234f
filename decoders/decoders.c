// SPDX-License-Identifier: GPL-2.0
/*
 * decoders.c - the table of payload decoders and record types.
 *
 * Adding a device: write its decoder_ops and record types, then add one line
 * to each table below.  Nothing else in the library or the sinks changes.
 */
#include <stddef.h>

#include "hwtrace/decoder.h"
#include "hwtrace/cxl_hmu.h"
#include "hwtrace/i915_oa.h"
#include "hwtrace/panthor.h"

const struct hwt_decoder_ops *const hwt_decoders[] = {
	&hwt_cxl_hmu_decoder,
	&hwt_i915_oa_decoder,
	&hwt_panthor_decoder,
	NULL,
};

const struct hwt_record_type *const hwt_record_types[] = {
	&hwt_rt_cxl_hmu_unit,
	&hwt_rt_cxl_hmu_packet,
	&hwt_rt_cxl_hmu_summary,
	&hwt_rt_cxl_hmu_hot,
	&hwt_rt_i915_oa_report,
	&hwt_rt_i915_oa_lost,
	&hwt_rt_i915_oa_context,
	&hwt_rt_i915_oa_stream,
	&hwt_rt_panthor_block, &hwt_rt_panthor_sample, &hwt_rt_panthor_summary,
	&hwt_rt_panthor_block_total, &hwt_rt_panthor_aggregate,
	NULL,
};
