/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backend.h - the interface between the panthor perf PMU and the GPU.
 *
 * The PMU (pmu.c) owns what perf sees: the format terms, the caps/ files
 * that describe the stream (design.rst 4.2 priv[] words), the AUX buffer and
 * the uAPI sample layout of the chosen revision.  A backend owns the counters:
 * it accumulates them between samples and hands over one block at a time.
 * A real panthor backend programs PRFCNT through the CSF firmware interface
 * and calls panthor_perf_pmu_irq() when a firmware sample landed or the
 * firmware reported its sample ring overflowed; the simulated backend
 * (sim.c) does it from an hrtimer.
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
 *
 * Process context, may sleep (the PMU calls might_sleep()):
 * @acquire:	take the GPU's counters for one event (power, firmware
 *		interface); from event_init.  Return 0 or -errno, which
 *		perf_event_open returns.
 * @configure:	program @cfg and reset the accumulated counters; from
 *		event_init after @acquire.  Return 0 or -errno.
 * @release:	give the counters back; from the event's destroy
 * @set_irq_cpu: route the sample interrupt to @cpu; from
 *		panthor_perf_pmu_add() and from the CPU hotplug callback,
 *		before the events move to @cpu
 *
 * IRQs off, on @dev->cpu (the PMU asserts both):
 * @start:	start counting and sampling every @period_us.  Return 0 or
 *		-errno (the event then stays stopped).
 * @stop:	stop; possibly from inside panthor_perf_pmu_irq(), so it must
 *		not wait for it.  Accumulated counters are kept.
 * @read_block:	counters accumulated since the last @reset for one block:
 *		fill @counters (counters_per_block values, header words
 *		included) and return the block_states bits
 * @read_cycles: clock cycles since the last @reset per clock domain
 * @reset:	the PMU took a sample: start a new accumulation interval
 */
struct panthor_perf_ops {
	int (*acquire)(struct panthor_perf_dev *dev);
	int (*configure)(struct panthor_perf_dev *dev, const struct panthor_perf_config *cfg);
	void (*release)(struct panthor_perf_dev *dev);
	void (*set_irq_cpu)(struct panthor_perf_dev *dev, unsigned int cpu);
	int (*start)(struct panthor_perf_dev *dev);
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
 * panthor_perf_pmu_irq() - one sampling period ended, or counters were lost
 * @dev: the device
 * @lost: the device lost counter data since the last call (the firmware's
 *	sample ring overflowed); the accumulation restarts at this period
 *
 * Call in hard interrupt context on @dev->cpu.  Without loss: writes one
 * sample covering every period since the last one written into the AUX
 * buffer, or leaves the counters accumulating when it does not fit (the next
 * sample is then flagged OVERFLOW).  On @lost: the record is flagged
 * TRUNCATED and the PMU stops the event until it is started again.
 */
void panthor_perf_pmu_irq(struct panthor_perf_dev *dev, bool lost);

#endif /* PANTHOR_PERF_BACKEND_H */
