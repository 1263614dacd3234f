// SPDX-License-Identifier: GPL-2.0
/*
 * record_auxinfo.c - the PERF_RECORD_AUXTRACE_INFO a recording starts with,
 * chosen by PMU name (design.rst 4.1-4.3).
 *
 * The context words of panthor and i915 OA come, for each key, from the first
 * of: a sysfs format term of that name (its value in the event's attr), the
 * file <pmu>/caps/<key>, the defaults below (the device `synth` models).
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwtrace/i915_oa.h"
#include "hwtrace/panthor.h"
#include "hwtrace/pmu_format.h"
#include "record_state.h"

enum rec_aux_kind rec_aux__kind(const char *pmu_name)
{
	if (!fnmatch("cxl_hmu_mem*", pmu_name, 0))
		return REC_AUX_CXL_HMU;
	if (!fnmatch("panthor_perf*", pmu_name, 0))
		return REC_AUX_PANTHOR;
	if (!fnmatch("i915_oa*", pmu_name, 0))
		return REC_AUX_I915_OA;
	return REC_AUX_NONE;
}

/* <sysfs>/bus/event_source/devices/<pmu>/caps/<key> as a number; *v is kept on junk */
static int caps_value(const char *sysfs, const char *pmu, const char *key, uint64_t *v)
{
	char path[4096], buf[64], *end;
	unsigned long long x;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/caps/%s", sysfs, pmu, key);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	if (buf[0] < '0' || buf[0] > '9')
		return -1;	/* strtoull() would take "-1" as 2^64 - 1 */
	errno = 0;
	x = strtoull(buf, &end, 0);
	if (errno || (*end && *end != '\n'))
		return -1;
	*v = x;
	return 0;
}

static void lookup(const char *sysfs, const struct rec_event *ev, const char *key, uint64_t *v)
{
	if (!hwt_pmu__term_value(ev->pmu, &ev->attr, key, v))
		return;
	caps_value(sysfs, hwt_pmu__name(ev->pmu), key, v);
}

static void keep_first(void *ctx, const struct hwt_error *e)
{
	struct hwt_error *first = ctx;

	if (!first->msg[0] && e->severity == HWT_ERROR)
		*first = *e;
}

static int panthor_priv(const char *sysfs, const struct rec_event *ev, uint64_t *priv,
			char *err, size_t errlen)
{
	static const struct { const char *key; int idx; uint64_t def; } keys[] = {
		/* an RK3588-like Mali-G610 MC4, uAPI v6, as `synth --type panthor` */
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
	struct hwt_error first = { 0 };
	struct hwt_diag diag = { .report = keep_first, .ctx = &first };
	const struct hwt_panthor_layout *l;
	struct hwt_panthor_info info;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		priv[keys[i].idx] = keys[i].def;
		lookup(sysfs, ev, keys[i].key, &priv[keys[i].idx]);
	}
	l = priv[HWT_PANTHOR_PRIV_LAYOUT] <= UINT32_MAX ?
		hwt_panthor_layout__get((uint32_t)priv[HWT_PANTHOR_PRIV_LAYOUT]) : NULL;
	if (!l) {
		snprintf(err, errlen, "%s: unknown panthor uAPI layout %llu (want 2 or 6)",
			 hwt_pmu__name(ev->pmu),
			 (unsigned long long)priv[HWT_PANTHOR_PRIV_LAYOUT]);
		return -1;
	}
	/* header sizes the PMU did not state are the ones its layout defines */
	if (!priv[HWT_PANTHOR_PRIV_SHS])
		priv[HWT_PANTHOR_PRIV_SHS] = l->sample_header_size;
	if (!priv[HWT_PANTHOR_PRIV_BHS])
		priv[HWT_PANTHOR_PRIV_BHS] = l->block_header_size;
	if (l->rev == 2 && !priv[HWT_PANTHOR_PRIV_BLOCKS + HWT_PANTHOR_CSG])
		priv[HWT_PANTHOR_PRIV_BLOCKS + HWT_PANTHOR_CSG] = 2;
	if (hwt_panthor_info__from_priv(&info, priv, HWT_PANTHOR_NPRIV, &diag)) {
		snprintf(err, errlen, "%s: perf info from caps/ or defaults: %s",
			 hwt_pmu__name(ev->pmu), first.msg[0] ? first.msg : "inconsistent");
		return -1;
	}
	return HWT_PANTHOR_NPRIV;
}

static int i915_priv(const char *sysfs, const struct rec_event *ev, uint64_t *priv,
		     char *err, size_t errlen)
{
	const struct hwt_i915_oa_format *f;
	uint64_t fmt = hwt_i915_oa_format__by_name("A32u40_A4u32_B8_C8");

	priv[1] = 1;			/* layout version */
	priv[2] = 0;			/* PCI device id: unknown */
	priv[3] = 0;
	priv[6] = 1;			/* DRM_I915_PERF_PROP_SAMPLE_OA */
	priv[7] = 0;
	priv[8] = 16;			/* OA exponent */
	priv[9] = 19200000;		/* Gen12 command-streamer timestamp, Hz */
	priv[10] = ~0ull;		/* no context filter */
	lookup(sysfs, ev, "devid", &priv[2]);
	lookup(sysfs, ev, "oa_format", &fmt);
	priv[4] = fmt;
	lookup(sysfs, ev, "graphics_ver", &priv[3]);
	if (!priv[3] && priv[2] <= UINT32_MAX)
		priv[3] = hwt_i915_oa__gen_for_devid((uint32_t)priv[2]);
	if (!priv[3] && fmt <= UINT32_MAX)
		priv[3] = hwt_i915_oa__default_gen((uint32_t)fmt);
	lookup(sysfs, ev, "sample_flags", &priv[6]);
	lookup(sysfs, ev, "metrics_set", &priv[7]);
	lookup(sysfs, ev, "oa_exponent", &priv[8]);
	lookup(sysfs, ev, "ts_freq", &priv[9]);
	lookup(sysfs, ev, "ctx_handle", &priv[10]);
	f = fmt <= UINT32_MAX && priv[3] <= UINT32_MAX ?
		hwt_i915_oa_format__find((uint32_t)fmt, (uint32_t)priv[3]) : NULL;
	if (!f) {
		snprintf(err, errlen, "%s: OA format %llu is unknown for graphics version %llu",
			 hwt_pmu__name(ev->pmu), (unsigned long long)fmt,
			 (unsigned long long)priv[3]);
		return -1;
	}
	priv[5] = f->size;
	lookup(sysfs, ev, "report_size", &priv[5]);
	return 11;
}

/**
 * rec_aux__info - build the AUXTRACE_INFO record of an AUX event
 * @sysfs:	sysfs root
 * @ev:		the event (opened; ev->pmu set)
 * @buf:	record buffer of @max u64 words
 * @max:	at least 2 + 16
 * @err:	reason on failure
 * @errlen:	size of @err
 *
 * Returns the record size in bytes, 0 when the PMU has no carriage of ours,
 * -1 with @err set.
 */
int rec_aux__info(const char *sysfs, const struct rec_event *ev, uint64_t *buf, size_t max,
		  char *err, size_t errlen)
{
	struct hwt_auxtrace_info *info = (struct hwt_auxtrace_info *)buf;
	int n;

	if (max < 2 + HWT_PANTHOR_NPRIV)
		return -1;
	memset(buf, 0, max * sizeof(*buf));
	info->priv[0] = ev->attr.type;
	switch (ev->aux) {
	case REC_AUX_CXL_HMU:
		info->type = HWT_AUXTRACE_CXL_HMU;
		n = 1;
		break;
	case REC_AUX_PANTHOR:
		info->type = HWT_AUXTRACE_PANTHOR;
		n = panthor_priv(sysfs, ev, info->priv, err, errlen);
		break;
	case REC_AUX_I915_OA:
		info->type = HWT_AUXTRACE_I915_OA;
		n = i915_priv(sysfs, ev, info->priv, err, errlen);
		break;
	default:
		return 0;
	}
	if (n < 0)
		return -1;
	info->header.type = HWT_REC_AUXTRACE_INFO;
	info->header.size = (uint16_t)(sizeof(*info) + n * sizeof(uint64_t));
	return info->header.size;
}
