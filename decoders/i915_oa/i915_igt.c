// SPDX-License-Identifier: GPL-2.0
/*
 * i915_igt.c - IGT i915-perf-recorder files (lib/i915/perf_data.h, version 1).
 *
 * A recording is the kernel's record stream with IGT's own records mixed in:
 * VERSION (65536), DEVICE_INFO (65537), TOPOLOGY (65538) and
 * TIMESTAMP_CORRELATION (65539), all framed like kernel records.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "i915_oa_internal.h"

/*
 * What libi915_perf 1.27 keeps of a topology (struct intel_perf_devinfo):
 * 6 bytes of subslice masks, 96 of EU masks; found by giving the installed
 * library topologies one byte past each (tests/bats/i915_metrics.bats)
 */
#define TOPO_SUBSLICE_MASKS	6
#define TOPO_EU_MASKS		96
#define TOPO_HEADER		16	/* flags and seven u16 sizes, offsets, strides */

bool hwt_i915_oa__topology_check(const uint8_t *t, size_t n, char *why, size_t len)
{
	uint64_t slices, subslices, eus, ss_off, ss_stride, eu_off, eu_stride, data, ss_len, eu_len;

	if (n < TOPO_HEADER) {
		snprintf(why, len, "%zu bytes, less than its %u-byte header", n, TOPO_HEADER);
		return false;
	}
	slices = hwt_get_u16(t + 2);
	subslices = hwt_get_u16(t + 4);
	eus = hwt_get_u16(t + 6);
	ss_off = hwt_get_u16(t + 8);
	ss_stride = hwt_get_u16(t + 10);
	eu_off = hwt_get_u16(t + 12);
	eu_stride = hwt_get_u16(t + 14);
	data = n - TOPO_HEADER;
	ss_len = slices * ss_stride;
	eu_len = slices * subslices * eu_stride;
	if (ss_len > TOPO_SUBSLICE_MASKS || eu_len > TOPO_EU_MASKS) {
		snprintf(why, len, "%llu bytes of subslice masks and %llu of EU masks (%llu slices, "
			 "%llu subslices, strides %llu and %llu); libi915_perf holds %u and %u",
			 (unsigned long long)ss_len, (unsigned long long)eu_len,
			 (unsigned long long)slices, (unsigned long long)subslices,
			 (unsigned long long)ss_stride, (unsigned long long)eu_stride,
			 TOPO_SUBSLICE_MASKS, TOPO_EU_MASKS);
		return false;
	}
	/* the masks copied, and the last slice's, subslice's and EU's bit read */
	if (ss_off + ss_len > data || eu_off + eu_len > data ||
	    (slices && (slices - 1) / 8 >= data) ||
	    (slices && subslices &&
	     ss_off + (slices - 1) * ss_stride + (subslices - 1) / 8 >= data) ||
	    (slices && subslices && eus &&
	     eu_off + ((slices - 1) * subslices + subslices - 1) * eu_stride + (eus - 1) / 8 >= data)) {
		snprintf(why, len, "its masks (subslices at %llu, EUs at %llu, for %llu slices of "
			 "%llu subslices of %llu EUs) lie past its %llu bytes of data",
			 (unsigned long long)ss_off, (unsigned long long)eu_off,
			 (unsigned long long)slices, (unsigned long long)subslices,
			 (unsigned long long)eus, (unsigned long long)data);
		return false;
	}
	return true;
}

bool hwt_igt__probe(const uint8_t *head, size_t n)
{
	uint32_t type;
	uint16_t pad, size;

	if (n < 16)
		return false;
	memcpy(&type, head, 4);
	memcpy(&pad, head + 4, 2);
	memcpy(&size, head + 6, 2);
	/* any version: the decoder says it cannot read it, rather than "not perf.data" */
	return type == IGT_PERF_RECORD_VERSION && pad == 0 && size == 16;
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
	 * Correlation GPU times are CS timestamps; DG2 OA times are >> shift.
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
