/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backend.h - the interface between the CXL HMU perf PMU and the hardware.
 *
 * The PMU (pmu.c) owns everything perf sees: the sysfs format terms, term
 * validation, the AUX buffer and the RFC packet layout.  A backend owns the
 * device: it is configured from the decoded terms, started and stopped on the
 * event's CPU, and hands over hotlist entries when the PMU drains it.  A real
 * CHMU backend maps the CXL r3.2 8.2.8 registers and calls
 * cxl_hmu_pmu_irq() from its fill-threshold interrupt; the simulated backend
 * (sim.c) does the same from an hrtimer.
 */
#ifndef CXL_HMU_BACKEND_H
#define CXL_HMU_BACKEND_H

#include <linux/types.h>

/**
 * struct cxl_hmu_config - the event's terms, decoded from attr.config{,1,2}
 * @epoch_type:		0 = epoch based, 1 = always on
 * @access_type:	1..6: non-TEE R/W/RW, TEE+non-TEE R/W/RW
 * @epoch_scale:	1 = 100us, 2 = 1ms, 3 = 10ms, 4 = 100ms, 5 = 1s
 * @epoch_multiplier:	epoch length in @epoch_scale units
 * @randomized_downsampling: randomize the downsampling point
 * @downsampling_log2:	count one access in 2^this many (the RFC's log2 term)
 * @hotness_threshold:	minimum count for a unit to enter the hotlist
 * @hotness_granual:	log2 of the unit size in bytes
 * @range_base:		start of the monitored DPA range, 256 MiB units
 * @range_size:		size of the monitored DPA range, 256 MiB units
 * @fill_threshold:	hotlist entries that raise the interrupt
 * @counter_width:	set by ->configure: count bits per entry for this unit size
 */
struct cxl_hmu_config {
	u32 epoch_type;
	u32 access_type;
	u32 epoch_scale;
	u32 epoch_multiplier;
	u32 randomized_downsampling;
	u32 downsampling_log2;
	u32 hotness_threshold;
	u32 hotness_granual;
	u32 range_base;
	u32 range_size;
	u32 fill_threshold;
	u32 counter_width;
};

/**
 * struct cxl_hmu_caps - what the device supports (CHMU CAP0/CAP1 registers)
 * @hotlist_size:	entries in the hotlist ring
 * @fill_default:	fill threshold when the event leaves the term at 0
 * @epoch_min_us:	shortest supported epoch
 * @epoch_max_us:	longest supported epoch
 * @always_on:		epoch_type 1 supported
 * @downsampling_mask:	bit n set: factor 2^n supported
 * @granual_mask:	bit g set: unit size 2^g bytes supported
 * @range_units:	device capacity in 256 MiB units
 */
struct cxl_hmu_caps {
	u32 hotlist_size;
	u32 fill_default;
	u64 epoch_min_us;
	u64 epoch_max_us;
	bool always_on;
	u32 downsampling_mask;
	u64 granual_mask;
	u64 range_units;
};

struct cxl_hmu_dev;

/**
 * struct cxl_hmu_ops - hardware access, called by the PMU
 *
 * Process context, may sleep (the PMU calls might_sleep()):
 * @acquire:	take the device for one event (power, interrupt); from
 *		event_init.  Return 0 or -errno, which perf_event_open returns.
 * @configure:	program @cfg and reset the hotlist; from event_init after
 *		@acquire.  Sets @cfg->counter_width.  Return 0 or -errno.
 * @release:	give the device back; from the event's destroy
 * @set_irq_cpu: route the interrupt to @cpu; from cxl_hmu_pmu_add() and from
 *		the CPU hotplug callback, before the events move to @cpu
 *
 * IRQs off, on @dev->cpu (the PMU asserts both):
 * @start:	enable monitoring; may wait for the device.  Return 0 or -errno
 *		(the event then stays stopped)
 * @stop:	disable monitoring and wait until the device has stopped writing
 *		the hotlist; possibly from inside cxl_hmu_pmu_irq().  Entries
 *		stay in the hotlist.  Return true when the device dropped hot
 *		units that no interrupt has reported yet: the interrupt for them
 *		may wait behind the IRQs-off stop and find the event gone.
 * @hotlist_fill: entries waiting in the hotlist
 * @drain:	copy up to @max entries, oldest first, into @dst (CPU order) and
 *		remove them from the hotlist; return how many were copied
 */
struct cxl_hmu_ops {
	int (*acquire)(struct cxl_hmu_dev *dev);
	int (*configure)(struct cxl_hmu_dev *dev, struct cxl_hmu_config *cfg);
	void (*release)(struct cxl_hmu_dev *dev);
	void (*set_irq_cpu)(struct cxl_hmu_dev *dev, unsigned int cpu);
	int (*start)(struct cxl_hmu_dev *dev);
	bool (*stop)(struct cxl_hmu_dev *dev);
	u32 (*hotlist_fill)(struct cxl_hmu_dev *dev);
	u32 (*drain)(struct cxl_hmu_dev *dev, u64 *dst, u32 max);
};

/**
 * struct cxl_hmu_dev - one CHMU instance as the backend describes it
 * @ops:	hardware access
 * @caps:	capabilities, used to validate the terms
 * @memdev:	memdev number (X in cxl_hmu_memX.Y.Z)
 * @chmu:	CHMU index on the memdev (Y)
 * @instance:	instance within the CHMU (Z)
 * @cpu:	CPU that handles the fill interrupt; exported as cpumask
 * @pmu:	set by cxl_hmu_pmu_add(), private to the PMU
 */
struct cxl_hmu_dev {
	const struct cxl_hmu_ops *ops;
	struct cxl_hmu_caps caps;
	int memdev;
	int chmu;
	int instance;
	int cpu;
	void *pmu;
};

/**
 * cxl_hmu_pmu_add() - register the perf PMU cxl_hmu_mem<X>.<Y>.<Z> for @dev
 * @dev: a filled-in device description; must outlive the PMU
 *
 * Return: 0 or -errno.
 */
int cxl_hmu_pmu_add(struct cxl_hmu_dev *dev);

/**
 * cxl_hmu_pmu_remove() - unregister the PMU of @dev
 * @dev: as passed to cxl_hmu_pmu_add()
 */
void cxl_hmu_pmu_remove(struct cxl_hmu_dev *dev);

/**
 * cxl_hmu_pmu_irq() - the hotlist reached its fill threshold or overflowed
 * @dev: the device
 * @lost: the device dropped hot units (hotlist overflow) since the last call
 *
 * Call in hard interrupt context on @dev->cpu.  Drains the hotlist into the
 * AUX buffer as RFC packets.  On @lost the record is flagged TRUNCATED and
 * the PMU stops the event until it is started again.
 */
void cxl_hmu_pmu_irq(struct cxl_hmu_dev *dev, bool lost);

#endif /* CXL_HMU_BACKEND_H */
