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
#define I915_OA_TOPOLOGY_MAX	96	/* caps/topology.0 .. .11 */
#define I915_OA_UUID_LEN	40	/* caps/uuid.0 .. .4 */

/**
 * struct i915_oa_caps - the device
 * @devid:	PCI device id
 * @graphics_ver: graphics version x100 (1200 = Gen12.0)
 * @ts_freq:	command-streamer timestamp frequency, Hz
 * @formats:	bit n set: enum drm_i915_oa_format n is supported
 * @report_size: report size in bytes per format (0: unsupported)
 * @min_exponent: smallest supported period exponent
 * @oa_buffer_reports: reports the OA buffer holds (the largest fill threshold)
 * @revision:	PCI revision
 * @gt_min_hz:	lowest GT frequency, Hz
 * @gt_max_hz:	highest GT frequency, Hz
 * @topology:	the EU topology as DRM_I915_QUERY_TOPOLOGY_INFO gives it
 *		(struct drm_i915_query_topology_info and its masks)
 * @topology_size: bytes of @topology used
 * @metric_set:	uuid of the metric set the OA unit counts, NUL-terminated
 *
 * The last five are what a metric set's equations need besides the reports
 * (IGT's intel_perf_for_devinfo()); caps/ exports them word by word.
 */
struct i915_oa_caps {
	u32 devid;
	u32 graphics_ver;
	u64 ts_freq;
	u32 formats;
	u16 report_size[16];
	u32 min_exponent;
	u32 oa_buffer_reports;
	u32 revision;
	u64 gt_min_hz;
	u64 gt_max_hz;
	u8 topology[I915_OA_TOPOLOGY_MAX];
	u32 topology_size;
	char metric_set[I915_OA_UUID_LEN];
};

/**
 * struct i915_oa_config - the event's terms
 * @format:	enum drm_i915_oa_format
 * @exponent:	period = 2^(exponent + 1) timestamp ticks
 * @fill_threshold: reports in the OA buffer before the backend calls
 *		i915_oa_pmu_poll() (1..oa_buffer_reports)
 */
struct i915_oa_config {
	u32 format;
	u32 exponent;
	u32 fill_threshold;
};

struct i915_oa_dev;

/**
 * struct i915_oa_ops - OA unit access, called by the PMU
 *
 * Process context, may sleep (the PMU calls might_sleep()):
 * @acquire:	take the OA unit for one event (power, forcewake); from
 *		event_init.  Return 0 or -errno, which perf_event_open returns.
 * @configure:	program format, period and fill threshold and empty the OA
 *		buffer; from event_init after @acquire.  Return 0 or -errno.
 * @release:	give the OA unit back; from the event's destroy
 * @set_irq_cpu: run the poll on @cpu; from i915_oa_pmu_add() and from the
 *		CPU hotplug callback, before the events move to @cpu
 *
 * IRQs off, on @dev->cpu (the PMU asserts both):
 * @start:	start periodic sampling.  Return 0 or -errno (the event then
 *		stays stopped).
 * @stop:	stop; possibly from inside i915_oa_pmu_poll(), so it must not
 *		wait for it.  Reports stay in the OA buffer.
 * @pending:	reports waiting in the OA buffer
 * @read:	copy the oldest report (report_size bytes) to @dst, free its
 *		slot and return the I915_OA_LOST_* flags that precede it: the
 *		loss report (OASTATUS report lost / buffer overflow)
 */
struct i915_oa_ops {
	int (*acquire)(struct i915_oa_dev *dev);
	int (*configure)(struct i915_oa_dev *dev, const struct i915_oa_config *cfg);
	void (*release)(struct i915_oa_dev *dev);
	void (*set_irq_cpu)(struct i915_oa_dev *dev, unsigned int cpu);
	int (*start)(struct i915_oa_dev *dev);
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
 * Call in hard interrupt context on @dev->cpu, when the OA buffer holds
 * fill_threshold reports or more.  Reports that do not fit stay in the OA
 * buffer.  A report that @ops->read says follows lost ones ends a record
 * flagged TRUNCATED, and the PMU stops the event until it is started again.
 */
void i915_oa_pmu_poll(struct i915_oa_dev *dev);

#endif /* I915_OA_BACKEND_H */
