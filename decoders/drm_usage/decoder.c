// SPDX-License-Identifier: GPL-2.0
/*
 * decoder.c - the drm-usage payload decoder (design.rst 4.5): records back
 * to back, each checked for its size, its strings and its enum values
 * before it is emitted.  A bad record is reported with its offset and
 * skipped by its size; a size that cannot be trusted skips the rest of the
 * AUXTRACE record.  No I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/le.h"
#include "hwtrace/perf_data.h"
#include "drm_usage_internal.h"

#define RTYPE "drm_usage record"

static bool du_match(const struct hwt_aux_ctx *ctx)
{
	return ctx->auxtrace_type == HWT_AUXTRACE_DRM_USAGE;
}

static int du_ctx_from_opts(const struct hwt_aux_ctx *ctx, uint64_t *priv, uint32_t max,
			    struct hwt_diag *diag)
{
	(void)ctx;
	if (max < HWT_DRM_USAGE_NPRIV) {
		hwt_diag__error(diag, 0, "drm-usage options", "no room for the context");
		return -1;
	}
	priv[0] = 0;
	priv[HWT_DRM_USAGE_PRIV_LAYOUT] = HWT_DRM_USAGE_LAYOUT;
	return HWT_DRM_USAGE_NPRIV;
}

static void *du_new(const struct hwt_aux_ctx *ctx, struct hwt_diag *diag)
{
	uint64_t layout = ctx->npriv > HWT_DRM_USAGE_PRIV_LAYOUT ?
			  ctx->priv[HWT_DRM_USAGE_PRIV_LAYOUT] : 0;

	if (layout != HWT_DRM_USAGE_LAYOUT) {
		hwt_diag__error(diag, 0, "AUXTRACE_INFO",
				"drm-usage layout %llu (%u priv words): want layout %d",
				(unsigned long long)layout, ctx->npriv, HWT_DRM_USAGE_LAYOUT);
		return NULL;
	}
	/* stateless: any non-NULL pointer will do */
	return (void *)&hwt_drm_usage_decoder;
}

/* The @n NUL-terminated strings at p[@pos..@size); false if one runs past the end. */
static bool take_strings(const uint8_t *p, size_t pos, size_t size, const char **out, int n)
{
	for (int i = 0; i < n; i++) {
		const uint8_t *z = memchr(p + pos, 0, size - pos);

		if (!z)
			return false;
		out[i] = (const char *)p + pos;
		pos = (size_t)(z - p) + 1;
	}
	return true;
}

static const size_t fixed_size[] = {
	[HWT_DRM_USAGE_ENGINE] = 64, [HWT_DRM_USAGE_MEMORY] = 48,
	[HWT_DRM_USAGE_GPU] = 72, [HWT_DRM_USAGE_GPU_ENGINE] = 24,
};
static const int nstrings[] = {
	[HWT_DRM_USAGE_ENGINE] = 4, [HWT_DRM_USAGE_MEMORY] = 4,
	[HWT_DRM_USAGE_GPU] = 3, [HWT_DRM_USAGE_GPU_ENGINE] = 2,
};

/* A client without an id: its client_id word is its fd */
static void fd_of(uint64_t *word, uint32_t *fd, bool *has_fd)
{
	*fd = (uint32_t)*word;
	*has_fd = *word <= UINT32_MAX;
	*word = 0;
}

/* Decode and emit the record at @p (@size bytes, header checked); false if malformed. */
static bool emit_one(const uint8_t *p, uint16_t type, size_t size, uint64_t off,
		     const struct hwt_emit *emit, char *why, size_t whylen)
{
	const char *s[4];

	if (size < fixed_size[type] ||
	    !take_strings(p, fixed_size[type], size, s, nstrings[type])) {
		snprintf(why, whylen, "type %u: %zu bytes do not hold its fields and %d strings",
			 type, size, nstrings[type]);
		return false;
	}
	switch (type) {
	case HWT_DRM_USAGE_ENGINE: {
		uint32_t f = hwt_le32(p + 28);
		struct hwt_drm_usage_engine_rec r = {
			.time = hwt_le64(p + 8), .client_id = hwt_le64(p + 16),
			.pid = hwt_le32(p + 24), .has_client_id = f & HWT_DU_HAS_ID,
			.busy_ns = hwt_le64(p + 32), .has_busy_ns = f & HWT_DU_HAS_BUSY,
			.cycles = hwt_le64(p + 40), .has_cycles = f & HWT_DU_HAS_CYCLES,
			.total_cycles = hwt_le64(p + 48), .has_total_cycles = f & HWT_DU_HAS_TOTAL,
			.capacity = hwt_le32(p + 56), .util_ppm = hwt_le32(p + 60),
			.has_util = f & HWT_DU_HAS_UTIL,
			.driver = s[0], .pdev = s[1], .comm = s[2], .engine = s[3],
		};

		if (f & HWT_DU_HAS_FD && !r.has_client_id)
			fd_of(&r.client_id, &r.fd, &r.has_fd);
		hwt_emit__record(emit, &hwt_rt_drm_usage_engine, &r, off);
		break;
	}
	case HWT_DRM_USAGE_MEMORY: {
		struct hwt_drm_usage_memory_rec r = {
			.time = hwt_le64(p + 8), .client_id = hwt_le64(p + 16),
			.pid = hwt_le32(p + 24), .has_client_id = hwt_le32(p + 28) & HWT_DU_HAS_ID,
			.bytes = hwt_le64(p + 32), .kind = hwt_le32(p + 40),
			.driver = s[0], .pdev = s[1], .comm = s[2], .region = s[3],
		};

		if (hwt_le32(p + 28) & HWT_DU_HAS_FD && !r.has_client_id)
			fd_of(&r.client_id, &r.fd, &r.has_fd);
		if (r.kind >= 5) {
			snprintf(why, whylen, "memory kind %u unknown (0-4)", r.kind);
			return false;
		}
		hwt_emit__record(emit, &hwt_rt_drm_usage_memory, &r, off);
		break;
	}
	case HWT_DRM_USAGE_GPU: {
		uint32_t f = hwt_le32(p + 16);
		struct hwt_drm_usage_gpu_rec r = {
			.time = hwt_le64(p + 8),
			.cur_mhz = hwt_le64(p + 24), .has_cur = f & HWT_DU_HAS_CUR,
			.max_mhz = hwt_le64(p + 32), .has_max = f & HWT_DU_HAS_MAX,
			.power_mw = hwt_le64(p + 40), .has_power = f & HWT_DU_HAS_POWER,
			.temp_mc = (int64_t)hwt_le64(p + 48), .has_temp = f & HWT_DU_HAS_TEMP,
			.vram_total = hwt_le64(p + 56), .has_vram_total = f & HWT_DU_HAS_VRAM_TOTAL,
			.vram_used = hwt_le64(p + 64), .has_vram_used = f & HWT_DU_HAS_VRAM_USED,
			.card = s[0], .driver = s[1], .pdev = s[2],
		};

		hwt_emit__record(emit, &hwt_rt_drm_usage_gpu, &r, off);
		break;
	}
	case HWT_DRM_USAGE_GPU_ENGINE: {
		struct hwt_drm_usage_gpu_engine_rec r = {
			.time = hwt_le64(p + 8), .has_busy = hwt_le32(p + 16) & HWT_DU_HAS_CUR,
			.busy_ppm = hwt_le32(p + 20), .card = s[0], .engine = s[1],
		};

		hwt_emit__record(emit, &hwt_rt_drm_usage_gpu_engine, &r, off);
		break;
	}
	}
	return true;
}

static size_t du_decode(void *state, const struct hwt_chunk *c, const struct hwt_emit *emit)
{
	struct hwt_diag *diag = emit->diag;
	size_t pos = 0;
	char why[160];

	(void)state;
	while (pos < c->size) {
		const uint8_t *p = c->data + pos;
		size_t left = c->size - pos, size;
		uint64_t off = c->file_offset + pos;
		uint16_t type;

		if (left < 8) {
			if (!c->last)
				break;
			hwt_diag__error(diag, off, RTYPE, "%zu bytes left: a record header is 8",
					left);
			diag->bytes.skipped += left;
			return c->size;
		}
		type = (uint16_t)(p[0] | p[1] << 8);
		size = (size_t)(p[2] | p[3] << 8);
		if (size < 8 || size % 8 || size > HWT_DRM_USAGE_MAX_REC) {
			hwt_diag__error(diag, off, RTYPE,
					"type %u: size %zu (want a multiple of 8, 8..%d): rest of the AUXTRACE record (%zu bytes) skipped",
					type, size, HWT_DRM_USAGE_MAX_REC, left);
			diag->bytes.skipped += left;
			return c->size;
		}
		if (size > left) {
			if (!c->last)
				break;
			hwt_diag__error(diag, off, RTYPE, "type %u: %zu bytes, only %zu left",
					type, size, left);
			diag->bytes.skipped += left;
			return c->size;
		}
		if (type < HWT_DRM_USAGE_ENGINE || type > HWT_DRM_USAGE_GPU_ENGINE) {
			hwt_diag__warn(diag, off, RTYPE, "unknown type %u (%zu bytes) skipped",
				       type, size);
			diag->bytes.skipped += size;
		} else if (!emit_one(p, type, size, off, emit, why, sizeof(why))) {
			hwt_diag__error(diag, off, RTYPE, "%s; skipped", why);
			diag->bytes.skipped += size;
		} else {
			diag->bytes.decoded += size;
		}
		pos += size;
	}
	return pos;
}

static void du_free(void *state)
{
	(void)state;
}

const struct hwt_decoder_ops hwt_drm_usage_decoder = {
	.dump_title = "DRM_USAGE",
	.dump_align = 1,
	.match = du_match,
	.ctx_from_opts = du_ctx_from_opts,
	.new = du_new,
	.decode = du_decode,
	.free = du_free,
};
