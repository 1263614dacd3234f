// SPDX-License-Identifier: GPL-2.0
/*
 * drm_usage.c - engine utilisation from two fdinfo samples of one client.
 *
 * Precedence (drm-usage-stats.rst): cycles over total-cycles when both
 * samples have them (GPU clock domain, immune to CPU sleep), else busy ns
 * over measured monotonic wall time, else cycles over wall time x maxfreq.
 * All divided by capacity.  Counters that go backwards are held at their
 * previous high value until the driver catches up, as the spec asks.
 */
#include <string.h>

#include "drm_fdinfo_internal.h"

/* Raise *cur to prev if it went backwards; returns whether it did. */
static bool hold(uint64_t prev, uint64_t *cur)
{
	if (*cur >= prev)
		return false;
	*cur = prev;
	return true;
}

struct hwt_drm_util hwt_drm_usage__engine(const struct hwt_drm_engine *prev,
					  struct hwt_drm_engine *cur, uint64_t wall_ns)
{
	struct hwt_drm_util u = { .src = HWT_DRM_UTIL_NONE };
	uint32_t both;
	double cap;

	if (!prev)
		return u;
	both = prev->have & cur->have;
	if (both & HWT_DRM_HAVE_NS)
		u.held |= hold(prev->busy_ns, &cur->busy_ns);
	if (both & HWT_DRM_HAVE_CYCLES)
		u.held |= hold(prev->cycles, &cur->cycles);
	if (both & HWT_DRM_HAVE_TOTAL)
		u.held |= hold(prev->total_cycles, &cur->total_cycles);
	cap = cur->capacity ? (double)cur->capacity : 1.0;

	if ((both & HWT_DRM_HAVE_CYCLES) && (both & HWT_DRM_HAVE_TOTAL) &&
	    cur->total_cycles > prev->total_cycles) {
		u.src = HWT_DRM_UTIL_TOTAL_CYCLES;
		u.percent = 100.0 * (double)(cur->cycles - prev->cycles) /
			    (double)(cur->total_cycles - prev->total_cycles) / cap;
	} else if ((both & HWT_DRM_HAVE_NS) && wall_ns) {
		u.src = HWT_DRM_UTIL_BUSY_NS;
		u.percent = 100.0 * (double)(cur->busy_ns - prev->busy_ns) / (double)wall_ns / cap;
	} else if ((both & HWT_DRM_HAVE_CYCLES) && (cur->have & HWT_DRM_HAVE_MAXFREQ) &&
		   cur->maxfreq_hz && wall_ns) {
		u.src = HWT_DRM_UTIL_MAXFREQ;
		u.percent = 100.0 * (double)(cur->cycles - prev->cycles) /
			    ((double)wall_ns * 1e-9 * (double)cur->maxfreq_hz) / cap;
	}
	return u;
}

void hwt_drm_usage__compute(const struct hwt_drm_fdinfo *prev, struct hwt_drm_fdinfo *cur,
			    uint64_t wall_ns, struct hwt_drm_util *util)
{
	for (uint32_t i = 0; i < cur->nengines; i++) {
		struct hwt_drm_engine *e = &cur->engines[i];
		const struct hwt_drm_engine *p = NULL;

		if (prev) {
			/* same position is the common case: drivers print a stable order */
			if (i < prev->nengines && !strcmp(prev->engines[i].name, e->name))
				p = &prev->engines[i];
			else
				p = hwt_drm_fdinfo__engine(prev, e->name);
		}
		util[i] = hwt_drm_usage__engine(p, e, wall_ns);
	}
}
