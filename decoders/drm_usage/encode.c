// SPDX-License-Identifier: GPL-2.0
/*
 * encode.c - the drm-usage payload records (design.rst 4.5), the one encoder
 * `top --record` and `synth --type drm-usage` write through.  No I/O.
 */
#include <string.h>

#include "drm_usage_internal.h"

struct enc {
	uint8_t *p;
	size_t pos;
};

static void w32(struct enc *e, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		e->p[e->pos++] = (uint8_t)(v >> (8 * i));
}

static void w64(struct enc *e, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		e->p[e->pos++] = (uint8_t)(v >> (8 * i));
}

/* size of @fixed bytes plus @n strings, padded to 8; 0 when too big */
static size_t rec_size(size_t fixed, const char *const *s, int n)
{
	size_t sz = fixed;

	for (int i = 0; i < n; i++)
		sz += strlen(s[i] ? s[i] : "") + 1;
	sz = (sz + 7) & ~(size_t)7;
	return sz > HWT_DRM_USAGE_MAX_REC ? 0 : sz;
}

/* Start a record of @type and @size at *@len; false when it does not fit. */
static bool start(struct enc *e, uint8_t *buf, size_t cap, size_t *len, uint16_t type,
		  size_t size)
{
	if (!size || *len + size > cap)
		return false;
	e->p = buf + *len;
	e->pos = 0;
	memset(e->p, 0, size);
	e->p[0] = (uint8_t)type;
	e->p[1] = (uint8_t)(type >> 8);
	e->p[2] = (uint8_t)size;
	e->p[3] = (uint8_t)(size >> 8);
	e->pos = 8;
	return true;
}

static void strings(struct enc *e, const char *const *s, int n)
{
	for (int i = 0; i < n; i++) {
		size_t l = strlen(s[i] ? s[i] : "") + 1;

		memcpy(e->p + e->pos, s[i] ? s[i] : "", l);
		e->pos += l;
	}
}

/* The client_id word: the id, or for a client without one its fd (HWT_DU_HAS_FD). */
static uint64_t client_word(uint64_t id, bool has_id, uint32_t fd, bool has_fd)
{
	return has_id ? id : has_fd ? fd : 0;
}

static uint32_t client_flags(bool has_id, bool has_fd)
{
	return has_id ? HWT_DU_HAS_ID : has_fd ? HWT_DU_HAS_FD : 0;
}

int hwt_drm_usage__put_engine(uint8_t *buf, size_t cap, size_t *len,
			      const struct hwt_drm_usage_engine_rec *r)
{
	const char *s[] = { r->driver, r->pdev, r->comm, r->engine };
	size_t size = rec_size(64, s, 4);
	struct enc e;

	if (!start(&e, buf, cap, len, HWT_DRM_USAGE_ENGINE, size))
		return -1;
	w64(&e, r->time);
	w64(&e, client_word(r->client_id, r->has_client_id, r->fd, r->has_fd));
	w32(&e, r->pid);
	w32(&e, client_flags(r->has_client_id, r->has_fd) | (r->has_busy_ns ? HWT_DU_HAS_BUSY : 0) |
		(r->has_cycles ? HWT_DU_HAS_CYCLES : 0) |
		(r->has_total_cycles ? HWT_DU_HAS_TOTAL : 0) | (r->has_util ? HWT_DU_HAS_UTIL : 0));
	w64(&e, r->busy_ns);
	w64(&e, r->cycles);
	w64(&e, r->total_cycles);
	w32(&e, r->capacity);
	w32(&e, r->util_ppm);
	strings(&e, s, 4);
	*len += size;
	return 0;
}

int hwt_drm_usage__put_memory(uint8_t *buf, size_t cap, size_t *len,
			      const struct hwt_drm_usage_memory_rec *r)
{
	const char *s[] = { r->driver, r->pdev, r->comm, r->region };
	size_t size = rec_size(48, s, 4);
	struct enc e;

	if (!start(&e, buf, cap, len, HWT_DRM_USAGE_MEMORY, size))
		return -1;
	w64(&e, r->time);
	w64(&e, client_word(r->client_id, r->has_client_id, r->fd, r->has_fd));
	w32(&e, r->pid);
	w32(&e, client_flags(r->has_client_id, r->has_fd));
	w64(&e, r->bytes);
	w32(&e, r->kind);
	w32(&e, 0);
	strings(&e, s, 4);
	*len += size;
	return 0;
}

int hwt_drm_usage__put_gpu(uint8_t *buf, size_t cap, size_t *len,
			   const struct hwt_drm_usage_gpu_rec *r)
{
	const char *s[] = { r->card, r->driver, r->pdev };
	size_t size = rec_size(72, s, 3);
	struct enc e;

	if (!start(&e, buf, cap, len, HWT_DRM_USAGE_GPU, size))
		return -1;
	w64(&e, r->time);
	w32(&e, (r->has_cur ? HWT_DU_HAS_CUR : 0) | (r->has_max ? HWT_DU_HAS_MAX : 0) |
		(r->has_power ? HWT_DU_HAS_POWER : 0) | (r->has_temp ? HWT_DU_HAS_TEMP : 0) |
		(r->has_vram_total ? HWT_DU_HAS_VRAM_TOTAL : 0) |
		(r->has_vram_used ? HWT_DU_HAS_VRAM_USED : 0));
	w32(&e, 0);
	w64(&e, r->cur_mhz);
	w64(&e, r->max_mhz);
	w64(&e, r->power_mw);
	w64(&e, (uint64_t)r->temp_mc);
	w64(&e, r->vram_total);
	w64(&e, r->vram_used);
	strings(&e, s, 3);
	*len += size;
	return 0;
}

int hwt_drm_usage__put_gpu_engine(uint8_t *buf, size_t cap, size_t *len,
				  const struct hwt_drm_usage_gpu_engine_rec *r)
{
	const char *s[] = { r->card, r->engine };
	size_t size = rec_size(24, s, 2);
	struct enc e;

	if (!start(&e, buf, cap, len, HWT_DRM_USAGE_GPU_ENGINE, size))
		return -1;
	w64(&e, r->time);
	w32(&e, r->has_busy ? HWT_DU_HAS_CUR : 0);
	w32(&e, r->busy_ppm);
	strings(&e, s, 2);
	*len += size;
	return 0;
}
