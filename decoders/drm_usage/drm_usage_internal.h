/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drm_usage_internal.h - the drm-usage device: DRM client and GPU samples
 * that `top --record` writes (design.rst 4.5, drm-usage.rst).
 *
 * Payload: records back to back, each an 8-byte header
 * {u16 type; u16 size; u32 zero} (size counts the header and is a multiple
 * of 8), fixed little-endian fields, then the record's strings, each
 * NUL-terminated, zero padded to 8.  The encoder (encode.c) is what `top`
 * and `synth` both write through, so the bytes are the same whoever writes.
 */
#ifndef HWTRACE_DRM_USAGE_INTERNAL_H
#define HWTRACE_DRM_USAGE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/device.h"
#include "hwtrace/perf_data.h"
#include "hwtrace/synth.h"

#define HWT_DRM_USAGE_LAYOUT	1
#define HWT_DRM_USAGE_PRIV_LAYOUT 1	/* priv[1]: payload layout version */
#define HWT_DRM_USAGE_NPRIV	2
#define HWT_DRM_USAGE_PMU	"drm_usage"
#define HWT_DRM_USAGE_MAX_REC	4096	/* a record is at most this many bytes */

enum hwt_drm_usage_rtype {
	HWT_DRM_USAGE_ENGINE = 1,	/* one engine of one client */
	HWT_DRM_USAGE_MEMORY = 2,	/* one region and kind of one client */
	HWT_DRM_USAGE_GPU = 3,		/* one GPU's device-wide values */
	HWT_DRM_USAGE_GPU_ENGINE = 4,	/* one engine of one GPU */
};

/* which optional values an engine record has (payload flags word) */
#define HWT_DU_HAS_ID		0x01
#define HWT_DU_HAS_BUSY		0x02
#define HWT_DU_HAS_CYCLES	0x04
#define HWT_DU_HAS_TOTAL	0x08
#define HWT_DU_HAS_UTIL		0x10
/* GPU record */
#define HWT_DU_HAS_CUR		0x01
#define HWT_DU_HAS_MAX		0x02
#define HWT_DU_HAS_POWER	0x04
#define HWT_DU_HAS_TEMP		0x08
#define HWT_DU_HAS_VRAM_TOTAL	0x10
#define HWT_DU_HAS_VRAM_USED	0x20

/* memory kinds, as drm-usage-stats names them */
extern const char *const hwt_drm_usage_kind_names[5];

/* client identity shared by engine and memory records */
struct hwt_du_client {
	uint64_t time;		/* monotonic ns of the sample */
	const char *driver, *pdev, *comm;
	uint64_t client_id;
	bool has_client_id;
	uint32_t pid;		/* lowest pid holding the client */
};

struct hwt_drm_usage_engine_rec {
	uint64_t time;
	const char *driver, *pdev;
	uint64_t client_id;
	bool has_client_id;
	uint32_t pid;
	const char *comm, *engine;
	uint64_t busy_ns, cycles, total_cycles;
	bool has_busy_ns, has_cycles, has_total_cycles, has_util;
	uint32_t capacity;
	uint32_t util_ppm;	/* utilisation, 1000000 = the whole capacity */
};

struct hwt_drm_usage_memory_rec {
	uint64_t time;
	const char *driver, *pdev;
	uint64_t client_id;
	bool has_client_id;
	uint32_t pid;
	const char *comm, *region;
	uint32_t kind;
	uint64_t bytes;
};

struct hwt_drm_usage_gpu_rec {
	uint64_t time;
	const char *card, *driver, *pdev;
	uint64_t cur_mhz, max_mhz, power_mw, vram_total, vram_used;
	int64_t temp_mc;	/* millidegrees Celsius */
	bool has_cur, has_max, has_power, has_temp, has_vram_total, has_vram_used;
};

struct hwt_drm_usage_gpu_engine_rec {
	uint64_t time;
	const char *card, *engine;
	uint32_t busy_ppm;
	bool has_busy;
};

extern const struct hwt_record_type hwt_rt_drm_usage_engine, hwt_rt_drm_usage_memory,
	hwt_rt_drm_usage_gpu, hwt_rt_drm_usage_gpu_engine;
extern const struct hwt_decoder_ops hwt_drm_usage_decoder;
extern const struct hwt_synth hwt_drm_usage_synth;
extern const struct hwt_device hwt_device_drm_usage;

/*
 * Encoders: append one record to @buf (@cap bytes) at *@len; return 0, or
 * -1 when it does not fit (nothing written).  No I/O.
 */
int hwt_drm_usage__put_engine(uint8_t *buf, size_t cap, size_t *len,
			      const struct hwt_drm_usage_engine_rec *r);
int hwt_drm_usage__put_memory(uint8_t *buf, size_t cap, size_t *len,
			      const struct hwt_drm_usage_memory_rec *r);
int hwt_drm_usage__put_gpu(uint8_t *buf, size_t cap, size_t *len,
			   const struct hwt_drm_usage_gpu_rec *r);
int hwt_drm_usage__put_gpu_engine(uint8_t *buf, size_t cap, size_t *len,
				  const struct hwt_drm_usage_gpu_engine_rec *r);

int hwt_drm_usage__auxinfo(const struct hwt_auxinfo_lookup *lk, const char *pmu_name,
			   uint64_t *priv, uint32_t max, char *err, size_t errlen);

struct hwt_synth_run;

/*
 * The start of a drm-usage perf.data (attrs, PMU_MAPPINGS, AUXTRACE_INFO,
 * FINISHED_INIT) and one drain of samples: what `top --record` and `synth`
 * both write through.  0, or -1 reported through @run.
 */
int hwt_drm_usage__start(struct hwt_synth_run *run);
int hwt_drm_usage__drain(struct hwt_synth_run *run, uint64_t time, uint64_t offset,
			 const void *buf, size_t len);
/* After the last drain: the FINISHED_ROUND that closes it, if due. */
int hwt_drm_usage__drain_end(struct hwt_synth_run *run);

#endif
