// SPDX-License-Identifier: GPL-2.0
/*
 * auxinfo.c - the i915 OA AUXTRACE_INFO priv[] words (design.rst 4.3),
 * written the same by `record` and `synth` through hwt_device__auxinfo().
 *
 * Each word comes from the lookup (record: a sysfs format term of that name,
 * else <pmu>/caps/<key>; synth: its model), else the default below.  Layout
 * 2 (32 words, always that size) adds the device words the metrics computer
 * needs: revision, GT frequency range, metric set uuid, EU topology.
 */
#include <stdio.h>
#include <string.h>

#include "i915_oa_internal.h"
#include "core/decoder_internal.h"

static void get(const struct hwt_auxinfo_lookup *lk, const char *key, uint64_t *v)
{
	if (lk && lk->get)
		lk->get(lk->ctx, key, v);
}

/*
 * Layout 2's words: what intel_perf_for_devinfo() and the metric set's
 * equations need.  Blobs come word by word ("uuid.0".."uuid.4", "topology.0"..)
 * as the lookup answers only numbers; all zero means unknown.
 */
static int device_words(const struct hwt_auxinfo_lookup *lk, const char *pmu_name,
			uint64_t *priv, char *err, size_t errlen)
{
	char key[16];

	get(lk, "revision", &priv[HWT_I915_OA_PRIV_REVISION]);
	get(lk, "gt_min", &priv[HWT_I915_OA_PRIV_GT_MIN]);
	get(lk, "gt_max", &priv[HWT_I915_OA_PRIV_GT_MAX]);
	for (int i = 0; i < HWT_I915_OA_UUID_LEN / 8; i++) {
		snprintf(key, sizeof(key), "uuid.%d", i);
		get(lk, key, &priv[HWT_I915_OA_PRIV_UUID + i]);
	}
	get(lk, "topology_size", &priv[HWT_I915_OA_PRIV_TOPO_SIZE]);
	if (priv[HWT_I915_OA_PRIV_TOPO_SIZE] > HWT_I915_OA_TOPO_MAX) {
		snprintf(err, errlen, "%s: a %llu-byte EU topology, AUXTRACE_INFO holds %d",
			 pmu_name, (unsigned long long)priv[HWT_I915_OA_PRIV_TOPO_SIZE],
			 HWT_I915_OA_TOPO_MAX);
		return -1;
	}
	for (uint64_t i = 0; i < (priv[HWT_I915_OA_PRIV_TOPO_SIZE] + 7) / 8; i++) {
		snprintf(key, sizeof(key), "topology.%d", (int)i);
		get(lk, key, &priv[HWT_I915_OA_PRIV_TOPO + i]);
	}
	return HWT_I915_OA_NPRIV_V2;
}

int hwt_i915_oa__auxinfo(const struct hwt_auxinfo_lookup *lk, const char *pmu_name,
			 uint64_t *priv, uint32_t max, char *err, size_t errlen)
{
	const struct hwt_i915_oa_format *f;
	uint64_t fmt = hwt_i915_oa_format__by_name("A32u40_A4u32_B8_C8");
	uint64_t *gen = &priv[HWT_I915_OA_PRIV_GEN], *devid = &priv[HWT_I915_OA_PRIV_DEVID];

	if (max < HWT_I915_OA_NPRIV_V2) {
		snprintf(err, errlen, "%s: no room for %d priv words", pmu_name,
			 HWT_I915_OA_NPRIV_V2);
		return -1;
	}
	priv[HWT_I915_OA_PRIV_LAYOUT] = 2;
	*devid = 0;				/* PCI device id: unknown */
	*gen = 0;
	priv[HWT_I915_OA_PRIV_SAMPLE_FLAGS] = 1;	/* DRM_I915_PERF_PROP_SAMPLE_OA */
	priv[HWT_I915_OA_PRIV_METRICS_SET] = 0;
	priv[HWT_I915_OA_PRIV_EXPONENT] = 16;
	priv[HWT_I915_OA_PRIV_TS_FREQ] = 19200000;	/* Gen12 command-streamer timestamp, Hz */
	priv[HWT_I915_OA_PRIV_CTX] = ~0ull;		/* no context filter */
	get(lk, "devid", devid);
	get(lk, "oa_format", &fmt);
	priv[HWT_I915_OA_PRIV_FORMAT] = fmt;
	get(lk, "graphics_ver", gen);
	if (!*gen && *devid <= UINT32_MAX)
		*gen = hwt_i915_oa__gen_for_devid((uint32_t)*devid);
	if (!*gen && fmt <= UINT32_MAX)
		*gen = hwt_i915_oa__default_gen((uint32_t)fmt);
	get(lk, "sample_flags", &priv[HWT_I915_OA_PRIV_SAMPLE_FLAGS]);
	get(lk, "metrics_set", &priv[HWT_I915_OA_PRIV_METRICS_SET]);
	get(lk, "oa_exponent", &priv[HWT_I915_OA_PRIV_EXPONENT]);
	get(lk, "ts_freq", &priv[HWT_I915_OA_PRIV_TS_FREQ]);
	get(lk, "ctx_handle", &priv[HWT_I915_OA_PRIV_CTX]);
	f = fmt <= UINT32_MAX && *gen <= UINT32_MAX ?
		hwt_i915_oa_format__find((uint32_t)fmt, (uint32_t)*gen) : NULL;
	if (!f) {
		snprintf(err, errlen, "%s: OA format %llu is unknown for graphics version %llu",
			 pmu_name, (unsigned long long)fmt, (unsigned long long)*gen);
		return -1;
	}
	priv[HWT_I915_OA_PRIV_REPORT_SIZE] = f->size;
	get(lk, "report_size", &priv[HWT_I915_OA_PRIV_REPORT_SIZE]);
	return device_words(lk, pmu_name, priv, err, errlen);
}
