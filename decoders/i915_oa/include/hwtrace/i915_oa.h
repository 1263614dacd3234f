/* SPDX-License-Identifier: GPL-2.0 */
/*
 * i915_oa.h - Intel i915 OA reports: record constants, the decoded record
 * structs and the priv[] layout (design.rst 4.3 and 7).  Report layouts,
 * accumulation and IGT i915-perf-recorder files are internal
 * (i915_oa_internal.h).
 *
 * Facts and their sources: Documentation/i915-oa.rst.
 */
#ifndef HWTRACE_I915_OA_H
#define HWTRACE_I915_OA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/decoder.h"
#include "hwtrace/device.h"
#include "hwtrace/diag.h"
#include "hwtrace/record.h"

/* struct drm_i915_perf_record_header types (i915_drm.h) and IGT's (perf_data.h). */
#define I915_PERF_RECORD_SAMPLE		1
#define I915_PERF_RECORD_OA_REPORT_LOST	2
#define I915_PERF_RECORD_OA_BUFFER_LOST	3
#define IGT_PERF_RECORD_VERSION		65536
#define IGT_PERF_RECORD_DEVICE_INFO	65537
#define IGT_PERF_RECORD_TOPOLOGY	65538
#define IGT_PERF_RECORD_CORRELATION	65539
#define IGT_PERF_DEVICE_INFO_SIZE	336	/* packed struct, without the header */

#define I915_OA_FORMAT_MAX	14	/* highest enum drm_i915_oa_format value */
#define I915_OA_MAX_A		45
#define I915_OA_MAX_BC		8
#define I915_OA_INVALID_CTX	0xffffffffu

/* Reason bits: (report id >> 19) & 0x3f (Gen8-11) or 0x7f (Gen12). */
#define I915_OA_REASON_TIMER		(1u << 0)
#define I915_OA_REASON_CTX_SWITCH	(1u << 3)

/* One OA report (record type "i915_oa_report"). */
struct hwt_i915_oa_report {
	uint32_t reason;
	uint64_t ts;
	uint32_t ctx;
	bool ctx_valid;
	uint64_t ticks;
	const uint64_t *a, *b, *c;
	uint32_t na, nb, nc;
	bool has_delta;
	uint64_t dts, dticks;
	const uint64_t *da, *db, *dc;
	bool has_time;
	uint64_t time;		/* CPU ns from IGT correlation points */
};

/* A lost record (record type "i915_oa_lost"); kind 0 report_lost, 1 buffer_lost. */
struct hwt_i915_oa_lost {
	uint32_t kind;
	bool has_time;
	uint64_t time;		/* the CPU time of the report before it, if known */
};

/* Per-context totals (record type "i915_oa_context", report only). */
struct hwt_i915_oa_context {
	uint32_t ctx;
	uint64_t reports;
	uint64_t lost;
	bool has_time;
	uint64_t GpuTime;
	uint64_t GpuCoreClocks;
	uint64_t AvgGpuCoreFrequency;
	bool has_cpu;
	uint64_t cpu_start;
	uint64_t cpu_end;
};

/*
 * What the recording says of its device (record type "i915_oa_device",
 * framing: only -D shows it).  Emitted at IGT's DEVICE_INFO and TOPOLOGY
 * records, for the metrics computer; @topology is IGT's copy of
 * drm_i915_query_topology_info, NULL until seen.
 */
struct hwt_i915_oa_device {
	uint32_t devid;
	uint32_t revision;
	uint32_t gen;
	uint64_t ts_freq;
	uint64_t gt_min;
	uint64_t gt_max;
	const char *metric_set;
	const char *uuid;
	const void *topology;
	uint32_t topology_size;
};

/* Per-stream summary (record type "i915_oa_stream", report only). */
struct hwt_i915_oa_stream {
	uint32_t source;	/* 0 raw stream, 1 IGT recording, 2 perf.data */
	const char *format;
	uint32_t gen;
	uint32_t devid;
	uint64_t ts_freq;
	const char *metric_set;
	uint64_t samples;
	uint64_t report_lost;
	uint64_t buffer_lost;
	uint64_t zero_reports;
	uint64_t unknown_records;
	uint64_t correlations;
};

/* priv[] words of AUXTRACE_INFO type 0x48570002 (design.rst 4.3). */
enum {
	HWT_I915_OA_PRIV_PMU,		/* attr.type of the i915_oa event */
	HWT_I915_OA_PRIV_LAYOUT,	/* layout version: 1, or 2 with the words below 11 */
	HWT_I915_OA_PRIV_DEVID,		/* PCI device id, 0: unknown */
	HWT_I915_OA_PRIV_GEN,		/* graphics version x 100, 0: unknown */
	HWT_I915_OA_PRIV_FORMAT,	/* DRM_I915_PERF_PROP_OA_FORMAT */
	HWT_I915_OA_PRIV_REPORT_SIZE,	/* bytes per report */
	HWT_I915_OA_PRIV_SAMPLE_FLAGS,	/* 1: DRM_I915_PERF_PROP_SAMPLE_OA */
	HWT_I915_OA_PRIV_METRICS_SET,	/* metric set id, 0: none */
	HWT_I915_OA_PRIV_EXPONENT,	/* OA timer exponent */
	HWT_I915_OA_PRIV_TS_FREQ,	/* command-streamer timestamp, Hz */
	HWT_I915_OA_PRIV_CTX,		/* context filter, ~0: none */
	HWT_I915_OA_NPRIV,		/* 11: what layout 1 carries */
	/* layout 2: what the metric set's equations need (i915-oa.rst) */
	HWT_I915_OA_PRIV_REVISION = HWT_I915_OA_NPRIV,	/* PCI revision */
	HWT_I915_OA_PRIV_GT_MIN,	/* GT frequency range, Hz (0: unknown) */
	HWT_I915_OA_PRIV_GT_MAX,
	HWT_I915_OA_PRIV_UUID,		/* 5 words: metric set uuid, NUL-padded text */
	HWT_I915_OA_PRIV_TOPO_SIZE = HWT_I915_OA_PRIV_UUID + 5,	/* topology bytes, 0: none */
	HWT_I915_OA_PRIV_TOPO,		/* drm_i915_query_topology_info, zero-padded */
};

#define HWT_I915_OA_UUID_LEN	40	/* IGT DEVICE_INFO's metric_set_uuid[] */
#define HWT_I915_OA_TOPO_MAX	96	/* topology bytes layout 2 holds (12 words) */
#define HWT_I915_OA_NPRIV_V2	(HWT_I915_OA_PRIV_TOPO + HWT_I915_OA_TOPO_MAX / 8)	/* 32 */

#endif
