/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backend.h - the interface between the panthor perf PMU and the GPU.
 *
 * The PMU (pmu.c) owns what perf sees: the format terms, the caps/ files
 * that describe the stream (design.rst 4.2 priv[] words), the AUX buffer and
 * the uAPI sample layout of the chosen revision.  A backend owns the counters:
 * it accumulates them between samples and hands over one block at a time.
 * A real panthor backend programs PRFCNT through the CSF firmware interface
 * and calls panthor_perf_pmu_sample_ready() when a firmware sample landed;
 * the simulated backend (sim.c) does it from an hrtimer.
 */
#ifndef PANTHOR_PERF_BACKEND_H
#define PANTHOR_PERF_BACKEND_H

#include <linux/types.h>

/* Block kinds, in the order of the block-count words of design.rst 4.2. */
enum panthor_perf_kind {
	PANTHOR_PERF_FW,
	PANTHOR_PERF_CSG,
	PANTHOR_PERF_CSHW,
	PANTHOR_PERF_TILER,
	PANTHOR_PERF_MEMSYS,
	PANTHOR_PERF_SHADER,
	PANTHOR_PERF_NKINDS,
};

/* uAPI block_states bits and sample flags (same in RFC v2 and v6). */
#define PANTHOR_PERF_STATE_ON		0x01
#define PANTHOR_PERF_STATE_OFF		0x02
#define PANTHOR_PERF_STATE_AVAILABLE	0x04
#define PANTHOR_PERF_STATE_UNAVAILABLE	0x08
#define PANTHOR_PERF_STATE_NORMAL	0x10
#define PANTHOR_PERF_STATE_PROTECTED	0x20
#define PANTHOR_PERF_FLAG_OVERFLOW	0x1
#define PANTHOR_PERF_INFO_BLOCK_STATES	0x1

/* Counters 0-3 of every block are header words (TIMESTAMP_LO/HI, PRFCNT_EN, reserved). */
#define PANTHOR_PERF_HDR_COUNTERS	4
#define PANTHOR_PERF_MAX_CPB		128

/**
 * struct panthor_perf_caps - what DEV_QUERY.PERF_INFO and GPU_INFO report
 * @gpu_id:		GPU_ID register
 * @counters_per_block:	u64 counters per block (64 or 128)
 * @blocks:		instances per kind (CSG only exists in uAPI layout 2)
 * @shader_present:	shader core present mask
 * @supported_clocks:	bit i: clock domain i (toplevel, coregroup, shader)
 */
struct panthor_perf_caps {
	u32 gpu_id;
	u32 counters_per_block;
	u32 blocks[PANTHOR_PERF_NKINDS];
	u64 shader_present;
	u32 supported_clocks;
};

/**
 * struct panthor_perf_config - the event's terms
 * @period_us:	sampling period
 */
struct panthor_perf_config {
	u32 period_us;
};

struct panthor_perf_dev;

/**
 * struct panthor_perf_ops - counter access, called by the PMU
 * @configure:	program the terms; once per event before its first start.
 *		Resets the accumulated counters.  Return 0 or -errno.
 * @start:	start counting and sampling every @period_us; IRQs off, on
 *		the device's CPU
 * @stop:	stop; may run inside panthor_perf_pmu_sample_ready() and must
 *		not wait for it.  Accumulated counters are kept.
 * @read_block:	counters accumulated since the last @reset for one block:
 *		fill @counters (counters_per_block values, header words
 *		included) and return the block_states bits
 * @read_cycles: clock cycles since the last @reset per clock domain
 * @reset:	the PMU took a sample: start a new accumulation interval
 */
struct panthor_perf_ops {
	int (*configure)(struct panthor_perf_dev *dev, const struct panthor_perf_config *cfg);
	void (*start)(struct panthor_perf_dev *dev);
	void (*stop)(struct panthor_perf_dev *dev);
	u32 (*read_block)(struct panthor_perf_dev *dev, enum panthor_perf_kind kind, u32 idx,
			  u64 *counters);
	void (*read_cycles)(struct panthor_perf_dev *dev, u64 cycles[3]);
	void (*reset)(struct panthor_perf_dev *dev);
};

/**
 * struct panthor_perf_dev - one GPU as the backend describes it
 * @ops:	counter access
 * @caps:	the GPU's counter topology
 * @layout:	uAPI revision of the samples: 2 (RFC v2) or 6 (v6)
 * @instance:	N in the PMU name panthor_perf<N>
 * @cpu:	CPU that handles the sample interrupt; exported as cpumask
 * @pmu:	set by panthor_perf_pmu_add(), private to the PMU
 */
struct panthor_perf_dev {
	const struct panthor_perf_ops *ops;
	struct panthor_perf_caps caps;
	u32 layout;
	int instance;
	int cpu;
	void *pmu;
};

/**
 * panthor_perf_pmu_add() - register the perf PMU panthor_perf<N> for @dev
 * @dev: a filled-in device description; must outlive the PMU
 *
 * Return: 0 or -errno.
 */
int panthor_perf_pmu_add(struct panthor_perf_dev *dev);

/**
 * panthor_perf_pmu_remove() - unregister the PMU of @dev
 * @dev: as passed to panthor_perf_pmu_add()
 */
void panthor_perf_pmu_remove(struct panthor_perf_dev *dev);

/**
 * panthor_perf_pmu_sample_ready() - one sampling period ended
 * @dev: the device
 *
 * Call in hard interrupt context on @dev->cpu.  Writes one sample covering
 * every period since the last one written into the AUX buffer, or leaves the
 * counters accumulating when it does not fit (the next sample is then
 * flagged OVERFLOW).
 */
void panthor_perf_pmu_sample_ready(struct panthor_perf_dev *dev);

#endif /* PANTHOR_PERF_BACKEND_H */
