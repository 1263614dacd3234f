/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gpu_devices.h - device-wide GPU state from sysfs, for `top` and the exporter.
 *
 * gpu_devices__scan() finds every <sys>/class/drm/cardN once; each
 * gpu_devices__sample() then reads what the kernel exposes for it without
 * vendor tools: frequency (i915/xe gt files, amdgpu pp_dpm_sclk), hwmon
 * power and temperature, VRAM (amdgpu mem_info_vram_*, xe tile size) and,
 * for i915 and xe, engine busy time from their perf PMUs.  Values a device does not
 * expose are marked absent (the views print "-" or null), never zero.
 */
#ifndef PERF_HWTRACE_GPU_DEVICES_H
#define PERF_HWTRACE_GPU_DEVICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * An engine's busy counters in the driver's PMU: i915's "<engine>-busy" (ns),
 * or xe's engine-total-ticks (@fd, the group leader) and engine-active-ticks
 * (@fd2), whose ratio over an interval is the busy share.
 */
struct gpu_engine {
	char name[32];		/* "rcs0" */
	int fd;			/* perf event, -1 if it could not be opened */
	int fd2;		/* xe: active ticks, in @fd's group; -1 for i915 */
	uint64_t prev, cur;	/* busy ns (xe: the busy share times the interval, summed) */
	uint64_t ticks[2];	/* xe: total and active ticks at the last read */
	uint64_t t_read;	/* monotonic ns of the last read that worked */
	bool has_prev;
	double busy_pct;	/* over the last interval, NAN until two samples */
};

/* An engine as xe's DRM_XE_DEVICE_QUERY_ENGINES gives it. */
struct gpu_xe_engine {
	uint16_t engine_class, engine_instance, gt_id;
};

/**
 * gpu_xe__engines - the engines of a DRM_XE_DEVICE_QUERY_ENGINES reply
 * @buf:	struct drm_xe_query_engines as the kernel filled it (@len bytes)
 * @out:	up to @max engines
 *
 * Returns how many, or -1 when @buf is shorter than its count says.
 */
int gpu_xe__engines(const void *buf, size_t len, struct gpu_xe_engine *out, int max);

/* @e's name as xe's fdinfo names its class ("rcs0", "vcs1"), "-gtN" past GT 0's */
void gpu_xe__engine_name(const struct gpu_xe_engine *e, bool other_gt, char *buf, size_t size);

/*
 * gpu_xe__sample - one read of @e's group (@v: nr, total ticks, active
 * ticks) at monotonic time @now: busy_pct is active over total ticks since
 * the last read that worked, and cur (busy ns) grows by that share of the
 * time since then (a read that failed in between leaves both spans whole).
 */
void gpu_xe__sample(struct gpu_engine *e, const uint64_t v[3], uint64_t now);

/* The PMU terms of event @value ("event=0x02") for engine @e */
void gpu_xe__terms(const char *value, const struct gpu_xe_engine *e, char *buf, size_t size);

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
