/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backend.h - the interface between the i915 OA PMU and the OA unit.
 *
 * The PMU (pmu.c) owns what perf sees: the format terms, the caps/ files,
 * the AUX buffer and the i915 perf-stream framing ({u32 type; u16 pad;
 * u16 size} + report, design.rst 4.3).  A backend owns the OA unit: it is
 * configured with a report format and a period exponent, writes reports into
 * its OA buffer and hands them over oldest first, saying when reports or the
 * whole buffer were lost before one.  A real backend programs OAG through
 * i915's perf code and calls i915_oa_pmu_poll() from its poll timer; the
 * simulated backend (sim.c) does it from an hrtimer, once per report.
 */
#ifndef I915_OA_BACKEND_H
#define I915_OA_BACKEND_H

#include <linux/types.h>

/* Loss flags returned by ops->read: what happened before this report. */
#define I915_OA_LOST_REPORT	0x1	/* -> DRM_I915_PERF_RECORD_OA_REPORT_LOST */
#define I915_OA_LOST_BUFFER	0x2	/* -> DRM_I915_PERF_RECORD_OA_BUFFER_LOST */

#define I915_OA_MAX_REPORT	256

/**
 * struct i915_oa_caps - the device
 * @devid:	PCI device id
 * @graphics_ver: graphics version x100 (1200 = Gen12.0)
 * @ts_freq:	command-streamer timestamp frequency, Hz
 * @formats:	bit n set: enum drm_i915_oa_format n is supported
 * @report_size: report size in bytes per format (0: unsupported)
 * @min_exponent: smallest supported period exponent
 */
struct i915_oa_caps {
	u32 devid;
	u32 graphics_ver;
	u64 ts_freq;
	u32 formats;
	u16 report_size[16];
	u32 min_exponent;
};

/**
 * struct i915_oa_config - the event's terms
 * @format:	enum drm_i915_oa_format
 * @exponent:	period = 2^(exponent + 1) timestamp ticks
 */
struct i915_oa_config {
	u32 format;
	u32 exponent;
};

struct i915_oa_dev;

/**
 * struct i915_oa_ops - OA unit access, called by the PMU
 * @configure:	program format and period; once per event before its first
 *		start.  Empties the OA buffer.  Return 0 or -errno.
 * @start:	start periodic sampling; IRQs off, on the device's CPU
 * @stop:	stop; may run inside i915_oa_pmu_poll() and must not wait for it
 * @pending:	reports waiting in the OA buffer
 * @read:	copy the oldest report (report_size bytes) to @dst, free its
 *		slot and return the I915_OA_LOST_* flags that precede it
 */
struct i915_oa_ops {
	int (*configure)(struct i915_oa_dev *dev, const struct i915_oa_config *cfg);
	void (*start)(struct i915_oa_dev *dev);
	void (*stop)(struct i915_oa_dev *dev);
	u32 (*pending)(struct i915_oa_dev *dev);
	u32 (*read)(struct i915_oa_dev *dev, void *dst);
};

/**
 * struct i915_oa_dev - one OA unit as the backend describes it
 * @ops:	OA unit access
 * @caps:	what it supports
 * @instance:	N in the PMU name i915_oa<N>
 * @cpu:	CPU running the poll; exported as cpumask
 * @pmu:	set by i915_oa_pmu_add(), private to the PMU
 */
struct i915_oa_dev {
	const struct i915_oa_ops *ops;
	struct i915_oa_caps caps;
	int instance;
	int cpu;
	void *pmu;
};

/**
 * i915_oa_pmu_add() - register the perf PMU i915_oa<N> for @dev
 * @dev: a filled-in device description; must outlive the PMU
 *
 * Return: 0 or -errno.
 */
int i915_oa_pmu_add(struct i915_oa_dev *dev);

/**
 * i915_oa_pmu_remove() - unregister the PMU of @dev
 * @dev: as passed to i915_oa_pmu_add()
 */
void i915_oa_pmu_remove(struct i915_oa_dev *dev);

/**
 * i915_oa_pmu_poll() - move what the OA buffer holds into the AUX buffer
 * @dev: the device
 *
 * Call in hard interrupt context on @dev->cpu.  Reports that do not fit stay
 * in the OA buffer; the record is then flagged TRUNCATED.
 */
void i915_oa_pmu_poll(struct i915_oa_dev *dev);

#endif /* I915_OA_BACKEND_H */
