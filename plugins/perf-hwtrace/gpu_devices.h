/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gpu_devices.h - device-wide GPU state from sysfs, for `top` and the exporter.
 *
 * gpu_devices__scan() finds every <sys>/class/drm/cardN once; each
 * gpu_devices__sample() then reads what the kernel exposes for it without
 * vendor tools: frequency (i915/xe gt files, amdgpu pp_dpm_sclk), hwmon
 * power and temperature, VRAM (amdgpu mem_info_vram_*, xe tile size) and,
 * for i915, engine busy time from its perf PMU.  Values a device does not
 * expose are marked absent (the views print "-" or null), never zero.
 */
#ifndef PERF_HWTRACE_GPU_DEVICES_H
#define PERF_HWTRACE_GPU_DEVICES_H

#include <stdbool.h>
#include <stdint.h>

/* An engine busy counter of the driver's PMU (i915 "<engine>-busy", ns). */
struct gpu_engine {
	char name[32];		/* "rcs0" */
	int fd;			/* perf event, -1 if it could not be opened */
	uint64_t prev, cur;	/* busy ns */
	bool has_prev;
	double busy_pct;	/* over the last interval, NAN until two samples */
};

struct gpu_device {
	char card[16];		/* "card0" */
	char dir[4096];		/* <sys>/class/drm/cardN */
	char driver[32];
	char pdev[64];		/* PCI slot, "" for platform devices */
	char hwmon[4096];	/* <dir>/device/hwmon/hwmonN, "" if none */
	int64_t cur_mhz, max_mhz;	/* -1: absent */
	double power_w;		/* NAN: absent (or energy only and one sample so far) */
	double temp_c;		/* NAN: absent */
	char temp_file[16];	/* its hwmon file ("temp2_input"); "" before the first read */
	int64_t vram_total, vram_used;	/* bytes, -1: absent */
	uint64_t energy_uj, t_energy;	/* last hwmon energy1_input and when */
	bool has_energy;
	uint64_t t_last;	/* monotonic ns of the last sample */
	char pmu[64];		/* the driver's PMU, "" if none */
	struct gpu_engine *engines;
	int nengines;
};

struct gpu_devices {
	const char *sys;
	struct gpu_device *dev;
	int n;
};

/**
 * gpu_devices__scan - find the GPUs under @sys (normally "/sys")
 * @g:		filled; release with gpu_devices__exit()
 * @sys:	sysfs root; engine PMUs are opened only when it is "/sys" (a
 *		fake tree's PMU type numbers mean nothing to this kernel)
 *
 * Returns the number of GPUs found (0 when there is no class/drm), -1 on ENOMEM.
 */
int gpu_devices__scan(struct gpu_devices *g, const char *sys);

/* Read every device's values now; @now_ns is monotonic (power from energy deltas). */
void gpu_devices__sample(struct gpu_devices *g, uint64_t now_ns);

void gpu_devices__exit(struct gpu_devices *g);

#endif
