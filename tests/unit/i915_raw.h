/* SPDX-License-Identifier: GPL-2.0 */
/*
 * i915_raw.h - helpers of the i915 OA tests: start the decoder on raw
 * reports as `decode --type i915-oa` does, write record headers, draw
 * repeatable numbers.
 */
#ifndef HWTRACE_TEST_I915_RAW_H
#define HWTRACE_TEST_I915_RAW_H

#include <string.h>

#include "i915_oa/i915_oa_internal.h"

/* The decoder's state, or NULL if the options or the decoder refuse; @priv holds the words. */
static inline void *i915_raw_decoder(struct hwt_aux_ctx *ctx, uint64_t *priv, struct hwt_diag *d)
{
	int np = hwt_i915_oa_decoder.ctx_from_opts(ctx, priv, HWT_I915_OA_NPRIV, d);

	if (np < 0)
		return NULL;
	ctx->priv = priv;
	ctx->npriv = (uint32_t)np;
	return hwt_i915_oa_decoder.new(ctx, d);
}

/* xorshift64: the same numbers on every run (each test file seeds its own) */
static inline uint64_t xorshift64(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* A {u32 type; u16 pad; u16 size} record header at @b; returns its 8 bytes. */
static inline size_t i915_put_hdr(uint8_t *b, uint32_t type, uint16_t size)
{
	memcpy(b, &type, 4);
	memset(b + 4, 0, 2);
	memcpy(b + 6, &size, 2);
	return 8;
}

#endif
