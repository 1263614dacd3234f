/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decoder_internal.h - what the session, the device table and the decoders
 * share besides the public hwtrace/decoder.h and hwtrace/device.h (not
 * installed; libhwtrace.so does not export these).
 */
#ifndef HWTRACE_DECODER_INTERNAL_H
#define HWTRACE_DECODER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hwtrace/decoder.h"
#include "hwtrace/device.h"

/**
 * hwt_aux_ctx__opt - value of option @key, or NULL
 */
const char *hwt_aux_ctx__opt(const struct hwt_aux_ctx *ctx, const char *key);

/* Decoder by --type name, or NULL. */
const struct hwt_decoder_ops *hwt_decoder__find(const char *name);

/**
 * hwt_device__auxinfo - encode @dev's PERF_RECORD_AUXTRACE_INFO
 * @dev:	the device
 * @pmu_type:	attr.type of the AUX event (priv word HWT_AUXTRACE_PRIV_PMU)
 * @pmu_name:	its PMU name, for error messages
 * @lk:		where the device's context values come from
 * @buf:	the record, @max u64 words (2 header words + priv[])
 * @err:	reason on failure
 * @errlen:	size of @err
 *
 * Internal (not exported by libhwtrace.so): `record` and `synth` both write
 * AUXTRACE_INFO through this, so the bytes
 * are the same whoever writes them (design.rst 4).  Returns the record size
 * in bytes, or -1 with @err set.
 */
int hwt_device__auxinfo(const struct hwt_device *dev, uint32_t pmu_type,
				const char *pmu_name, const struct hwt_auxinfo_lookup *lk,
				uint64_t *buf, size_t max, char *err, size_t errlen);

#endif
