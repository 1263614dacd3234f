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

#endif
