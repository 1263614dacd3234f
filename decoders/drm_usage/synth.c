// SPDX-License-Identifier: GPL-2.0
/*
 * synth.c - `synth --type drm-usage`: samples as `top --record` writes them
 * (design.rst 4.5), for tests and fuzz seeds.  It also holds the file
 * start both writers share, hwt_drm_usage__start().
 *
 * Model: GPU card0 (i915, 0000:00:02.0); --clients N clients (default 2),
 * client c (from 0) has client_id c + 1, pid 1000 + c, comm "app<c>".
 * Sample k (from 0) is at T0 + k s (T0 = 1 s); one AUX drain per sample.
 *	engine "render": busy_ns = k x (c + 1) x 1e8, capacity 1, util_ppm
 *	(from k = 1) = (c + 1) x 1e5; engine "copy": busy_ns = k x 1e7,
 *	util_ppm 10000
 *	memory region "system": total (c + 1) MiB + k x 4096, resident half that
 *	GPU: cur_mhz 300 + k, max_mhz 1300, power_mw 5000 + k, temp_mc 45000,
 *	no VRAM; GPU engine rcs0 busy_ppm 250000 (from k = 1)
 * Manifest: per record "engine k client_id engine busy_ns util_ppm|-",
 * "memory k client_id region kind bytes", "gpu k cur_mhz power_mw".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/synth_run.h"
#include "hwtrace/perf_data.h"
#include "drm_usage_internal.h"

#define DU_ID		31
#define DUMMY_ID	32
#define DU_PMU_TYPE	64
#define T0_NS		1000000000ULL

int hwt_drm_usage__start(struct hwt_synth_run *run)
{
	static const uint64_t id = DU_ID;
	const struct hwt_pmu_mapping maps[] = {
		{ 1, "software" }, { DU_PMU_TYPE, HWT_DRM_USAGE_PMU },
	};
	struct hwt_writer_attr a = { .ids = &id, .nr_ids = 1, .name = HWT_DRM_USAGE_PMU "//" };

	a.attr.type = DU_PMU_TYPE;
	if (hwt_synth_run__aux_events(run, &a, DUMMY_ID, false) ||
	    hwt_writer__set_pmu_mappings(run->w, maps, sizeof(maps) / sizeof(maps[0])))
		return hwt_synth_run__error(run, "write failed: %s", strerror(errno));
	return hwt_synth_run__auxinfo(run, &hwt_device_drm_usage, DU_PMU_TYPE,
				      HWT_DRM_USAGE_PMU, NULL, true);
}

int hwt_drm_usage__drain(struct hwt_synth_run *run, uint64_t time, uint64_t offset,
			 const void *buf, size_t len)
{
	return hwt_synth_run__drain(run, DU_ID, time, offset, buf, len);
}

int hwt_drm_usage__drain_end(struct hwt_synth_run *run)
{
	return hwt_synth_run__drains_end(run);
}

static int du_sample(struct hwt_synth_run *run, uint64_t k, uint64_t nclients, uint8_t *buf,
		     size_t cap, size_t *len)
{
	uint64_t t = T0_NS + k * 1000000000ULL;
	int err = 0;

	for (uint64_t c = 0; c < nclients; c++) {
		char comm[32], util[24];
		struct hwt_drm_usage_engine_rec e = {
			.time = t, .driver = "i915", .pdev = "0000:00:02.0", .comm = comm,
			.client_id = c + 1, .has_client_id = true, .pid = (uint32_t)(1000 + c),
			.capacity = 1, .has_busy_ns = true, .has_util = k > 0,
		};
		struct hwt_drm_usage_memory_rec m = {
			.time = t, .driver = "i915", .pdev = "0000:00:02.0", .comm = comm,
			.client_id = c + 1, .has_client_id = true, .pid = (uint32_t)(1000 + c),
			.region = "system",
		};

		snprintf(comm, sizeof(comm), "app%llu", (unsigned long long)c);
		snprintf(util, sizeof(util), "%llu", (unsigned long long)(c + 1) * 100000);
		e.engine = "render";
		e.busy_ns = k * (c + 1) * 100000000ULL;
		e.util_ppm = (uint32_t)((c + 1) * 100000);
		err |= hwt_drm_usage__put_engine(buf, cap, len, &e);
		hwt_synth_run__printf(run, "engine %llu %llu render %llu %s\n",
				      (unsigned long long)k, (unsigned long long)c + 1,
				      (unsigned long long)e.busy_ns, k ? util : "-");
		e.engine = "copy";
		e.busy_ns = k * 10000000ULL;
		e.util_ppm = 10000;
		err |= hwt_drm_usage__put_engine(buf, cap, len, &e);
		hwt_synth_run__printf(run, "engine %llu %llu copy %llu %s\n",
				      (unsigned long long)k, (unsigned long long)c + 1,
				      (unsigned long long)e.busy_ns, k ? "10000" : "-");
		m.kind = 0;
		m.bytes = ((c + 1) << 20) + k * 4096;
		err |= hwt_drm_usage__put_memory(buf, cap, len, &m);
		hwt_synth_run__printf(run, "memory %llu %llu system total %llu\n",
				      (unsigned long long)k, (unsigned long long)c + 1,
				      (unsigned long long)m.bytes);
		m.kind = 2;
		m.bytes /= 2;
		err |= hwt_drm_usage__put_memory(buf, cap, len, &m);
		hwt_synth_run__printf(run, "memory %llu %llu system resident %llu\n",
				      (unsigned long long)k, (unsigned long long)c + 1,
				      (unsigned long long)m.bytes);
	}
	{
		struct hwt_drm_usage_gpu_rec g = {
			.time = t, .card = "card0", .driver = "i915", .pdev = "0000:00:02.0",
			.cur_mhz = 300 + k, .has_cur = true, .max_mhz = 1300, .has_max = true,
			.power_mw = 5000 + k, .has_power = true, .temp_mc = 45000,
			.has_temp = true,
		};
		struct hwt_drm_usage_gpu_engine_rec ge = {
			.time = t, .card = "card0", .engine = "rcs0", .busy_ppm = 250000,
			.has_busy = k > 0,
		};

		err |= hwt_drm_usage__put_gpu(buf, cap, len, &g);
		err |= hwt_drm_usage__put_gpu_engine(buf, cap, len, &ge);
		hwt_synth_run__printf(run, "gpu %llu %llu %llu\n", (unsigned long long)k,
				      (unsigned long long)g.cur_mhz,
				      (unsigned long long)g.power_mw);
	}
	return err ? hwt_synth_run__error(run, "sample %llu does not fit its buffer",
					  (unsigned long long)k) : 0;
}

static int du_write(struct hwt_synth_run *run)
{
	uint64_t nclients, nsamples, off = 0;
	size_t cap, per;
	uint8_t *buf;

	if (hwt_synth_run__u64(run, "clients", 2, 0, 1000, &nclients))
		return -1;
	per = 512 + nclients * 4 * 160;
	cap = per;
	nsamples = run->o->size / per + 1;
	buf = hwt_synth_run__buffer(run, cap);
	if (!buf || hwt_drm_usage__start(run))
		return -1;
	hwt_synth_run__printf(run, "# samples %llu clients %llu\n",
			      (unsigned long long)nsamples, (unsigned long long)nclients);
	for (uint64_t k = 0; k < nsamples; k++) {
		size_t len = 0;

		if (du_sample(run, k, nclients, buf, cap, &len) ||
		    hwt_drm_usage__drain(run, T0_NS + k * 1000000000ULL, off, buf, len))
			return -1;
		off += (len + 7) & ~(size_t)7;
	}
	return hwt_drm_usage__drain_end(run);
}

const struct hwt_synth hwt_drm_usage_synth = {
	.write = du_write,
	.help = "DRM client and GPU samples as top writes them [--clients N (2)]",
};
