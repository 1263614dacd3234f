// SPDX-License-Identifier: GPL-2.0
/*
 * i915_igt.c - IGT i915-perf-recorder files (lib/i915/perf_data.h, version 1).
 *
 * A recording is the kernel's record stream with IGT's own records mixed in:
 * VERSION (65536), DEVICE_INFO (65537), TOPOLOGY (65538) and
 * TIMESTAMP_CORRELATION (65539), all framed like kernel records.
 */
#include <stdint.h>
#include <string.h>

#include "i915_oa_internal.h"

bool hwt_igt__probe(const uint8_t *head, size_t n)
{
	uint32_t type, version;
	uint16_t pad, size;

	if (n < 16)
		return false;
	memcpy(&type, head, 4);
	memcpy(&pad, head + 4, 2);
	memcpy(&size, head + 6, 2);
	memcpy(&version, head + 8, 4);
	return type == IGT_PERF_RECORD_VERSION && pad == 0 && size == 16 && version == 1;
}

bool hwt_igt__device_info(const uint8_t *body, size_t n, struct hwt_igt_device_info *di)
{
	if (n < IGT_PERF_DEVICE_INFO_SIZE)
		return false;
	memcpy(&di->timestamp_frequency, body, 8);
	memcpy(&di->device_id, body + 8, 4);
	memcpy(&di->device_revision, body + 12, 4);
	memcpy(&di->gt_min_frequency, body + 16, 4);
	memcpy(&di->gt_max_frequency, body + 20, 4);
	memcpy(&di->engine_class, body + 24, 4);
	memcpy(&di->engine_instance, body + 28, 4);
	memcpy(&di->oa_format, body + 32, 4);
	memcpy(di->metric_set_name, body + 36, 256);
	di->metric_set_name[255] = 0;
	memcpy(di->metric_set_uuid, body + 292, 40);
	di->metric_set_uuid[39] = 0;
	return true;
}

static uint64_t lerp(const struct hwt_igt_correlation *a, const struct hwt_igt_correlation *b,
		     uint64_t ga, uint64_t ts, uint32_t shift)
{
	/*
	 * Correlation GPU times are CS timestamps; Gfx12.5 OA times are >> shift.
	 * Differences are signed: corrupt points may go backwards.
	 */
	__int128 dg = ((__int128)b->gpu_ts - a->gpu_ts) >> shift;
	__int128 dc = (__int128)b->cpu_ts - a->cpu_ts;
	__int128 x = (__int128)ts - ga;
	__int128 prod, r;
	uint64_t p64;

	if (!dg)
		return a->cpu_ts;
	/* the usual case, points in order and the report after the first: 64 bits do */
	if (x >= 0 && dc >= 0 && dg > 0 && x <= UINT64_MAX && dc <= UINT64_MAX &&
	    dg <= UINT64_MAX && !__builtin_mul_overflow((uint64_t)x, (uint64_t)dc, &p64) &&
	    a->cpu_ts <= UINT64_MAX - p64 / (uint64_t)dg)
		return a->cpu_ts + p64 / (uint64_t)dg;
	/* absurd points (corrupt files) would overflow: go approximate */
	if (__builtin_mul_overflow(x, dc, &prod)) {
		long double f = (long double)a->cpu_ts + (long double)x * dc / dg;

		return f <= 0 ? 0 : f >= 18446744073709551615.0L ? UINT64_MAX : (uint64_t)f;
	}
	/* extrapolation may leave 0..2^64-1 ns: clamp, as above, rather than wrap */
	r = (__int128)a->cpu_ts + prod / dg;
	return r < 0 ? 0 : r > (__int128)UINT64_MAX ? UINT64_MAX : (uint64_t)r;
}

bool hwt_igt__gpu_to_cpu(const struct hwt_igt_correlation *pts, uint32_t n, uint64_t ts,
			 uint64_t mask, uint32_t shift, uint64_t *cpu)
{
	if (n < 2)
		return false;
	for (uint32_t i = 0; i + 1 < n; i++) {
		uint64_t g0 = (pts[i].gpu_ts >> shift) & mask;
		uint64_t g1 = (pts[i + 1].gpu_ts >> shift) & mask;

		if (ts >= g0 && ts < g1) {
			*cpu = lerp(&pts[i], &pts[i + 1], g0, ts, shift);
			return true;
		}
	}
	/* outside every bracket: extrapolate from the nearest end */
	if (ts < ((pts[0].gpu_ts >> shift) & mask))
		*cpu = lerp(&pts[0], &pts[1], (pts[0].gpu_ts >> shift) & mask, ts, shift);
	else
		*cpu = lerp(&pts[n - 2], &pts[n - 1], (pts[n - 2].gpu_ts >> shift) & mask, ts, shift);
	return true;
}
