// SPDX-License-Identifier: GPL-2.0
/*
 * top_record.c - `top --record FILE`: every refresh becomes one AUX drain of
 * drm-usage records (design.rst 4.5) written through the same encoder and
 * perf.data writer as `synth --type drm-usage`.
 *
 * "Appends" without ever destroying: the new file is written beside FILE and
 * renamed over it at the end; when FILE already holds top --record samples
 * they are copied into it first.  Any other existing FILE is refused before
 * anything is read.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/synth_run.h"
#include "drm_usage/drm_usage_internal.h"
#include "hwtrace/perf_data.h"
#include "commands.h"
#include "top_record.h"

struct top_rec {
	const char *path;
	struct hwt_writer *w;
	struct hwt_synth_opts so;
	struct hwt_synth_run run;
	struct hwt_diag diag;
	uint8_t *buf;
	size_t cap, len;
	uint64_t aux_off;
	uint64_t too_big;	/* records over HWT_DRM_USAGE_MAX_REC, left out */
};

static void report(void *ctx, const struct hwt_error *e)
{
	const char *path = ctx;

	fprintf(stderr, "perf hwtrace top: --record %s: %s%s\n", path,
		e->severity == HWT_WARN ? "warning: " : "", e->msg);
}

static void quiet(void *ctx, const struct hwt_error *e)
{
	(void)ctx;
	(void)e;
}

/* Whether @path is a perf.data with a drm-usage stream; -1 when it cannot be read. */
static int is_ours(const char *path)
{
	struct hwt_diag diag = { .report = quiet };
	struct hwt_reader *rd = hwt_reader__new(path, &diag);
	struct hwt_event ev;
	int found = 0;

	if (!rd)
		return -1;
	while (!found && hwt_reader__next(rd, &ev) == 1) {
		const struct hwt_auxtrace_info *info = (const void *)ev.hdr;

		if (ev.hdr->type == HWT_REC_AUXTRACE_INFO && ev.hdr->size >= sizeof(*info) &&
		    info->type == HWT_AUXTRACE_DRM_USAGE)
			found = 1;
	}
	hwt_reader__delete(rd);
	return found;
}

int top_rec__check(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return errno == ENOENT ? 0 :
			usage_error("top", "--record %s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return usage_error("top", "--record %s: not a regular file", path);
	if (is_ours(path) != 1)
		return usage_error("top", "--record %s exists and holds no top --record samples: "
				   "not replaced (remove it or choose another name)", path);
	return 0;
}

/* Append one drain of @len bytes at @time; 0 or -1 reported. */
static int drain(struct top_rec *r, uint64_t time, const void *buf, size_t len)
{
	if (hwt_drm_usage__drain(&r->run, time, r->aux_off, buf, len))
		return -1;
	r->aux_off += (len + 7) & ~(size_t)7;
	return 0;
}

/* The old file's AUXTRACE payloads, each as a drain of its own at its time. */
static int copy_old(struct top_rec *r)
{
	struct hwt_diag diag = { .report = report, .ctx = (void *)r->path };
	struct hwt_reader *rd;
	struct hwt_event ev;
	uint8_t *buf = NULL;
	int ret = 0, n;

	if (access(r->path, F_OK))
		return 0;
	rd = hwt_reader__new(r->path, &diag);
	if (!rd)
		return -1;
	while (!ret && (n = hwt_reader__next(rd, &ev)) == 1) {
		const struct hwt_auxtrace *at = (const void *)ev.hdr;
		const void *piece;
		size_t have = 0;
		ssize_t got;

		if (ev.hdr->type != HWT_REC_AUXTRACE || ev.hdr->size < sizeof(*at))
			continue;
		free(buf);
		buf = malloc(at->size ? at->size : 1);
		if (!buf) {
			fprintf(stderr, "perf hwtrace top: --record %s: offset %llu: AUXTRACE of "
				"%llu bytes: out of memory\n", r->path,
				(unsigned long long)ev.offset, (unsigned long long)at->size);
			ret = -1;
			break;
		}
		while ((got = hwt_reader__payload(rd, &piece)) > 0 && have + got <= at->size) {
			memcpy(buf + have, piece, got);
			have += got;
		}
		if (got < 0)
			ret = -1;	/* a cut file: reported by the reader */
		else
			ret = drain(r, at->reference, buf, have);
	}
	if (n < 0 || diag.errors)
		ret = -1;
	free(buf);
	hwt_reader__delete(rd);
	return ret;
}

struct top_rec *top_rec__open(const char *path)
{
	struct top_rec *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->path = path;
	r->diag.report = report;
	r->diag.ctx = (void *)path;
	r->cap = 65536;
	r->buf = malloc(r->cap);
	r->w = r->buf ? hwt_writer__new(path, false) : NULL;
	if (!r->w) {
		fprintf(stderr, "perf hwtrace top: --record %s: %s\n", path, strerror(errno));
		free(r->buf);
		free(r);
		return NULL;
	}
	r->run = (struct hwt_synth_run){ .w = r->w, .o = &r->so, .diag = &r->diag };
	if (hwt_drm_usage__start(&r->run) || copy_old(r)) {
		top_rec__close(r, false);
		return NULL;
	}
	return r;
}

/* Encode through @put, growing the buffer; a record too big for the format is counted. */
#define PUT(r, fn, rec) put_any(r, (int (*)(uint8_t *, size_t, size_t *, const void *))(fn), rec)

static int put_any(struct top_rec *r, int (*fn)(uint8_t *, size_t, size_t *, const void *),
		   const void *rec)
{
	while (fn(r->buf, r->cap, &r->len, rec)) {
		uint8_t *n;

		if (r->cap - r->len >= HWT_DRM_USAGE_MAX_REC) {
			r->too_big++;
			return 0;
		}
		n = realloc(r->buf, r->cap * 2);
		if (!n) {
			fprintf(stderr, "perf hwtrace top: --record: out of memory\n");
			return -1;
		}
		r->buf = n;
		r->cap *= 2;
	}
	return 0;
}

/*
 * llround() without libm (the tool links no libm): the nearest integer,
 * halves away from zero; v - trunc(v) is exact, so no double rounding.
 * Past the 64-bit range (a sensor's leap over a nanosecond makes 10^16 W)
 * the nearest end of it, where a bare cast would be undefined.
 */
static int64_t round_int(double v)
{
	int64_t i;
	double f;

	if (!(v > -9223372036854775808.0))	/* -2^63 and below, and NaN */
		return v != v ? 0 : INT64_MIN;
	if (v >= 9223372036854775808.0)		/* 2^63 */
		return INT64_MAX;
	i = (int64_t)v;
	f = v - (double)i;
	return i + (f >= 0.5 && i < INT64_MAX) - (f <= -0.5);
}

static uint32_t ppm(double pct)
{
	double v = pct * 1e4;

	return v <= 0 ? 0 : v >= 4294967295.0 ? UINT32_MAX : (uint32_t)round_int(v);
}

static int put_client(struct top_rec *r, const struct drm_client *cl, uint64_t now)
{
	const struct hwt_drm_fdinfo *fi = &cl->cur;
	struct hwt_drm_usage_engine_rec e = {
		.time = now, .driver = fi->driver, .pdev = fi->pdev ? fi->pdev : "",
		.client_id = cl->has_id ? cl->client_id : 0, .has_client_id = cl->has_id,
		.fd = drm_client__fd(cl), .has_fd = !cl->has_id,
		.pid = cl->npids ? (uint32_t)cl->pids[0] : 0, .comm = cl->comm,
	};
	struct hwt_drm_usage_memory_rec m = {
		.time = now, .driver = e.driver, .pdev = e.pdev, .client_id = e.client_id,
		.has_client_id = e.has_client_id, .fd = e.fd, .has_fd = e.has_fd, .pid = e.pid,
		.comm = e.comm,
	};

	for (uint32_t i = 0; i < fi->nengines; i++) {
		const struct hwt_drm_engine *en = &fi->engines[i];
		const struct hwt_drm_util *u = &cl->util[i];

		e.engine = en->name;
		e.busy_ns = en->busy_ns;
		e.has_busy_ns = en->have & HWT_DRM_HAVE_NS;
		e.cycles = en->cycles;
		e.has_cycles = en->have & HWT_DRM_HAVE_CYCLES;
		e.total_cycles = en->total_cycles;
		e.has_total_cycles = en->have & HWT_DRM_HAVE_TOTAL;
		e.capacity = en->capacity > UINT32_MAX ? UINT32_MAX : (uint32_t)en->capacity;
		e.has_util = u->src != HWT_DRM_UTIL_NONE && isfinite(u->percent);
		e.util_ppm = e.has_util ? ppm(u->percent) : 0;
		if (PUT(r, hwt_drm_usage__put_engine, &e))
			return -1;
	}
	for (uint32_t i = 0; i < fi->nregions; i++) {
		const struct hwt_drm_region *rg = &fi->regions[i];

		m.region = rg->name;
		for (uint32_t k = 0; k < HWT_DRM_MEM_N; k++) {
			if (!(rg->have & (1u << k)))
				continue;
			m.kind = k;
			m.bytes = rg->bytes[k];
			if (PUT(r, hwt_drm_usage__put_memory, &m))
				return -1;
		}
	}
	return 0;
}

static int put_gpu(struct top_rec *r, const struct gpu_device *d, uint64_t now)
{
	struct hwt_drm_usage_gpu_rec g = {
		.time = now, .card = d->card, .driver = d->driver, .pdev = d->pdev,
		.cur_mhz = (uint64_t)d->cur_mhz, .has_cur = d->cur_mhz >= 0,
		.max_mhz = (uint64_t)d->max_mhz, .has_max = d->max_mhz >= 0,
		.has_power = isfinite(d->power_w) && d->power_w >= 0,
		.has_temp = isfinite(d->temp_c),
		.vram_total = (uint64_t)d->vram_total, .has_vram_total = d->vram_total >= 0,
		.vram_used = (uint64_t)d->vram_used, .has_vram_used = d->vram_used >= 0,
	};

	if (g.has_power)
		g.power_mw = (uint64_t)round_int(d->power_w * 1e3);
	if (g.has_temp)
		g.temp_mc = round_int(d->temp_c * 1e3);
	if (PUT(r, hwt_drm_usage__put_gpu, &g))
		return -1;
	for (int i = 0; i < d->nengines; i++) {
		struct hwt_drm_usage_gpu_engine_rec ge = {
			.time = now, .card = d->card, .engine = d->engines[i].name,
			.has_busy = isfinite(d->engines[i].busy_pct),
		};

		ge.busy_ppm = ge.has_busy ? ppm(d->engines[i].busy_pct) : 0;
		if (PUT(r, hwt_drm_usage__put_gpu_engine, &ge))
			return -1;
	}
	return 0;
}

int top_rec__sample(struct top_rec *r, const struct drm_clients *c, const struct gpu_devices *g,
		    uint64_t now)
{
	r->len = 0;
	for (int i = 0; i < c->nclients; i++)
		if (put_client(r, &c->clients[i], now))
			return -1;
	for (int i = 0; i < g->n; i++)
		if (put_gpu(r, &g->dev[i], now))
			return -1;
	return r->len ? drain(r, now, r->buf, r->len) : 0;
}

int top_rec__close(struct top_rec *r, bool ok)
{
	int ret = 0;

	if (r->too_big)
		fprintf(stderr, "perf hwtrace top: --record %s: %llu records over %d bytes "
			"(very long names) left out\n", r->path,
			(unsigned long long)r->too_big, HWT_DRM_USAGE_MAX_REC);
	if (ok && hwt_drm_usage__drain_end(&r->run))
		ok = false;
	if (ok && hwt_writer__delete(r->w)) {
		fprintf(stderr, "perf hwtrace top: --record %s: write error: %s\n", r->path,
			strerror(errno));
		ret = -1;
	} else if (!ok) {
		hwt_writer__discard(r->w);
		ret = -1;
	}
	free(r->buf);
	free(r->run.buf);
	free(r);
	return ret;
}
