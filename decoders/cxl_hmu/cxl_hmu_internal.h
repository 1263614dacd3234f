/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cxl_hmu_internal.h - CXL HMU decoder internals: the HDM decoder math, the
 * AUXTRACE_INFO encoder, record types and the device entry (not installed;
 * libhwtrace.so does not export them; the public part is hwtrace/cxl_hmu.h).
 */
#ifndef HWTRACE_CXL_HMU_INTERNAL_H
#define HWTRACE_CXL_HMU_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/cxl_hmu.h"
#include "hwtrace/decoder.h"
#include "hwtrace/device.h"
#include "hwtrace/record.h"

/**
 * struct hwt_cxl_hdm - an HDM decoder, to turn a DPA into an HPA
 * @base:	HPA base of the decoder window
 * @size:	size of the whole (interleaved) window in bytes
 * @ways:	interleave ways (1, 2, 3, 4, 6, 8, 12, 16)
 * @granularity: interleave granularity in bytes (256 .. 16384, power of 2)
 * @pos:	this device's position in the interleave set (0 .. ways-1)
 * @dpa_base:	DPA where the decoder's device range starts (usually 0)
 */
struct hwt_cxl_hdm {
	uint64_t base;
	uint64_t size;
	uint32_t ways;
	uint32_t granularity;
	uint32_t pos;
	uint64_t dpa_base;
};

/**
 * hwt_cxl_hdm__parse - parse "base=..,size=..,ways=..,granularity=..,pos=..[,dpa_base=..]"
 *
 * Returns 0, or -1 with a reason in @err (size @errlen).
 */
int hwt_cxl_hdm__parse(const char *s, struct hwt_cxl_hdm *hdm, char *err, size_t errlen);

/**
 * hwt_cxl_hdm__dpa_to_hpa - map a DPA through a modulo-arithmetic HDM decoder
 *
 * HPA = base + ((dpa_off / gran) * ways + pos) * gran + dpa_off % gran, with
 * dpa_off = dpa - dpa_base.  Returns false when the DPA is outside the window.
 */
bool hwt_cxl_hdm__dpa_to_hpa(const struct hwt_cxl_hdm *hdm, uint64_t dpa, uint64_t *hpa);

/* CXL HMU AUXTRACE_INFO priv[] (struct hwt_device.auxinfo): the PMU type only */
int hwt_cxl_hmu__auxinfo(const struct hwt_auxinfo_lookup *lk, const char *pmu_name,
			 uint64_t *priv, uint32_t max, char *err, size_t errlen);

extern const struct hwt_record_type hwt_rt_cxl_hmu_unit;
extern const struct hwt_record_type hwt_rt_cxl_hmu_packet;
extern const struct hwt_record_type hwt_rt_cxl_hmu_summary;
extern const struct hwt_record_type hwt_rt_cxl_hmu_hot;
extern const struct hwt_decoder_ops hwt_cxl_hmu_decoder;
extern const struct hwt_dev_opt hwt_cxl_hmu_options[];
extern const struct hwt_synth hwt_cxl_hmu_synth;
extern const struct hwt_device hwt_device_cxl_hmu;

#endif
