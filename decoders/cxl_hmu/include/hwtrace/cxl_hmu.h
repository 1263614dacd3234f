/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cxl_hmu.h - CXL Hotness Monitoring Unit hotlist records (design.rst 4.1).
 */
#ifndef HWTRACE_CXL_HMU_H
#define HWTRACE_CXL_HMU_H

#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/decoder.h"
#include "hwtrace/device.h"
#include "hwtrace/record.h"

#define CXL_HMU_HDR1_MAGIC	0xdeadbeefULL
#define CXL_HMU_HDR_UNITS(h0)	((uint32_t)((h0) & 0xffff))
#define CXL_HMU_HDR_WIDTH(h0)	((uint32_t)(((h0) >> 16) & 0xff))

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

/* One hotlist entry (record type "cxl_hmu_unit"). */
struct hwt_cxl_hmu_unit {
	uint32_t cpu;
	uint64_t time;
	const char *pmu;
	uint64_t unit;
	uint64_t count;
	uint32_t counter_width;
	uint64_t dpa;
	uint64_t hpa;
	bool has_hpa;
	uint64_t raw;		/* the entry as the device wrote it */
};

/* One packet header (record type "cxl_hmu_packet", -D only). */
struct hwt_cxl_hmu_packet {
	uint32_t cpu;
	uint32_t units;
	uint32_t counter_width;
	uint64_t hdr0;
	uint64_t hdr1;
};

/* Per-stream totals (record type "cxl_hmu_summary", report only). */
struct hwt_cxl_hmu_summary {
	const char *pmu;
	uint64_t packets;
	uint64_t units;
	uint64_t bad_packets;
	uint64_t distinct_units;	/* only when counts_exact */
	bool counts_exact;	/* every unit seen has its own exact counter */
	uint64_t max_overcount;	/* each hot total_count exceeds the true one by at most this */
	uint32_t counter_width;
	uint32_t hotness_granual;
};

/* One of the N hottest units (record type "cxl_hmu_hot", report only). */
struct hwt_cxl_hmu_hot {
	uint32_t rank;
	uint64_t unit;
	uint64_t dpa;
	uint64_t hpa;
	bool has_hpa;
	uint64_t total_count;
	uint64_t reports;
};

/* priv[] words of AUXTRACE_INFO type 7 (design.rst 4.1): the RFC's 24-byte record. */
enum {
	HWT_CXL_HMU_PRIV_PMU,		/* attr.type of the cxl_hmu_mem event */
	HWT_CXL_HMU_NPRIV,		/* 1 */
};

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
