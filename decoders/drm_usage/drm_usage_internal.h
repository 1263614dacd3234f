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

#include "hwtrace/drm_usage.h"

/* memory kinds, as drm-usage-stats names them */
extern const char *const hwt_drm_usage_kind_names[5];

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
