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

const struct hwt_decoder_ops *const hwt_decoders[] = {
	&hwt_cxl_hmu_decoder,
	NULL,
};

const struct hwt_record_type *const hwt_record_types[] = {
	&hwt_rt_cxl_hmu_unit,
	&hwt_rt_cxl_hmu_packet,
	&hwt_rt_cxl_hmu_summary,
	&hwt_rt_cxl_hmu_hot,
	NULL,
};
