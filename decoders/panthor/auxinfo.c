// SPDX-License-Identifier: GPL-2.0
/*
 * auxinfo.c - the panthor AUXTRACE_INFO priv[] words (design.rst 4.2),
 * written the same by `record` and `synth` through hwt_device__auxinfo().
 *
 * Each word comes from the lookup (record: a sysfs format term of that name,
 * else <pmu>/caps/<key>; synth: its model), else the default below: an
 * RK3588-like Mali-G610 MC4 with uAPI v6, the GPU `synth --type panthor`
 * models.
 */
#include <stdio.h>

#include "panthor_internal.h"
#include "core/decoder_internal.h"

static const struct { const char *key; int idx; uint64_t def; } keys[] = {
	{ "layout", HWT_PANTHOR_PRIV_LAYOUT, 6 },
	{ "gpu_id", HWT_PANTHOR_PRIV_GPU_ID, 0xa8670000 },
	{ "counters_per_block", HWT_PANTHOR_PRIV_CPB, 64 },
	{ "sample_header_size", HWT_PANTHOR_PRIV_SHS, 0 },
	{ "block_header_size", HWT_PANTHOR_PRIV_BHS, 0 },
	{ "sample_size", HWT_PANTHOR_PRIV_SAMPLE_SIZE, 0 },
	{ "flags", HWT_PANTHOR_PRIV_FLAGS, HWT_PANTHOR_INFO_BLOCK_STATES },
	{ "supported_clocks", HWT_PANTHOR_PRIV_CLOCKS, 7 },
	{ "fw_blocks", HWT_PANTHOR_PRIV_BLOCKS + HWT_PANTHOR_FW, 1 },
	{ "csg_blocks", HWT_PANTHOR_PRIV_BLOCKS + HWT_PANTHOR_CSG, 0 },
	{ "cshw_blocks", HWT_PANTHOR_PRIV_BLOCKS + HWT_PANTHOR_CSHW, 1 },
	{ "tiler_blocks", HWT_PANTHOR_PRIV_BLOCKS + HWT_PANTHOR_TILER, 1 },
	{ "memsys_blocks", HWT_PANTHOR_PRIV_BLOCKS + HWT_PANTHOR_MEMSYS, 4 },
	{ "shader_blocks", HWT_PANTHOR_PRIV_BLOCKS + HWT_PANTHOR_SHADER, 4 },
	{ "shader_present", HWT_PANTHOR_PRIV_SHADER_PRESENT, 0x50005 },
};

static void keep_first(void *ctx, const struct hwt_error *e)
{
	struct hwt_error *first = ctx;

	if (!first->msg[0] && e->severity == HWT_ERROR)
		*first = *e;
}

int hwt_panthor__auxinfo(const struct hwt_auxinfo_lookup *lk, const char *pmu_name,
			 uint64_t *priv, uint32_t max, char *err, size_t errlen)
{
	struct hwt_error first = { 0 };
	struct hwt_diag diag = { .report = keep_first, .ctx = &first };
	const struct hwt_panthor_layout *l;
	struct hwt_panthor_info info;

	if (max < HWT_PANTHOR_NPRIV) {
		snprintf(err, errlen, "%s: no room for %d priv words", pmu_name, HWT_PANTHOR_NPRIV);
		return -1;
	}
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		priv[keys[i].idx] = keys[i].def;
		if (lk && lk->get)
			lk->get(lk->ctx, keys[i].key, &priv[keys[i].idx]);
	}
	l = priv[HWT_PANTHOR_PRIV_LAYOUT] <= UINT32_MAX ?
		hwt_panthor_layout__get((uint32_t)priv[HWT_PANTHOR_PRIV_LAYOUT]) : NULL;
	if (!l) {
		snprintf(err, errlen, "%s: unknown panthor uAPI layout %llu (want 2 or 6)",
			 pmu_name, (unsigned long long)priv[HWT_PANTHOR_PRIV_LAYOUT]);
		return -1;
	}
	/* header sizes the PMU did not state are the ones its layout defines */
	if (!priv[HWT_PANTHOR_PRIV_SHS])
		priv[HWT_PANTHOR_PRIV_SHS] = l->sample_header_size;
	if (!priv[HWT_PANTHOR_PRIV_BHS])
		priv[HWT_PANTHOR_PRIV_BHS] = l->block_header_size;
	if (l->rev == 2 && !priv[HWT_PANTHOR_PRIV_BLOCKS + HWT_PANTHOR_CSG])
		priv[HWT_PANTHOR_PRIV_BLOCKS + HWT_PANTHOR_CSG] = 2;
	if (hwt_panthor_info__from_priv(&info, priv, HWT_PANTHOR_NPRIV, 0, &diag)) {
		snprintf(err, errlen, "%s: perf info from caps/ or defaults: %s",
			 pmu_name, first.msg[0] ? first.msg : "inconsistent");
		return -1;
	}
	return HWT_PANTHOR_NPRIV;
}
