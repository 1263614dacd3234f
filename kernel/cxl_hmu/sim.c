// SPDX-License-Identifier: GPL-2.0
/*
 * sim.c - simulated CHMU backend for the CXL HMU PMU.
 *
 * A device that does not exist: at the end of every epoch (an hrtimer pinned
 * to the PMU's CPU) it appends one batch of hotlist entries to a 1024-entry
 * ring and, once the ring holds fill_threshold entries, raises its "fill
 * threshold interrupt" by calling cxl_hmu_pmu_irq() from the timer.
 *
 * The entries come from the shared deterministic model (hwtrace/sim_hmu.h),
 * seeded at configure time, with the same call sequence as
 * `perf hwtrace synth --type cxl-hmu`: per batch n = packet_units(max 512),
 * then n entries.  With the default fill_threshold of 1 every batch is one
 * packet, so a recording equals synth's output for the same seed and terms.
 * A batch is only produced when the ring has room for the largest one: if the
 * reader falls behind, the model pauses instead of losing entries.
 */
#define pr_fmt(fmt) "cxl_hmu_sim: " fmt

#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include <sim_hmu.h>

#include "../common/params.h"
#include "backend.h"

#define SIM_HOTLIST		1024		/* entries, as the QEMU CHMU model */
#define SIM_BATCH_MAX		(SIM_HOTLIST / 2)	/* RFC: threshold = half */
#define SIM_COUNTER_WIDTH	16

static unsigned long long seed = 1;
module_param(seed, ullong, 0644);
MODULE_PARM_DESC(seed, "model seed, read at each event's configure (default 1)");

static int cpu;
module_param(cpu, int, 0444);
MODULE_PARM_DESC(cpu, "CPU handling the simulated interrupt, exported as cpumask (default 0)");

static int memdev;
module_param(memdev, int, 0444);
MODULE_PARM_DESC(memdev, "X in the PMU name cxl_hmu_memX.0.0 (default 0)");

#define SIM_ALWAYS_ON_MIN_US	100
#define SIM_ALWAYS_ON_MAX_US	(100 * USEC_PER_SEC)

/* The writable parameters are range-checked on every write, not only at load. */
static int sim_param_set(const char *val, const struct kernel_param *kp, unsigned int min,
			 unsigned int max)
{
	unsigned int v;
	int ret = kstrtouint(val, 0, &v);

	if (ret)
		return ret;
	ret = hwt_param_check(kp->name, v, min, max);
	if (!ret)
		*(unsigned int *)kp->arg = v;
	return ret;
}

static int fill_threshold_set(const char *val, const struct kernel_param *kp)
{
	return sim_param_set(val, kp, 1, SIM_HOTLIST);
}

static int always_on_us_set(const char *val, const struct kernel_param *kp)
{
	return sim_param_set(val, kp, SIM_ALWAYS_ON_MIN_US, SIM_ALWAYS_ON_MAX_US);
}

static const struct kernel_param_ops fill_threshold_ops = {
	.set = fill_threshold_set,
	.get = param_get_uint,
};

static const struct kernel_param_ops always_on_us_ops = {
	.set = always_on_us_set,
	.get = param_get_uint,
};

static unsigned int fill_threshold = 1;
module_param_cb(fill_threshold, &fill_threshold_ops, &fill_threshold, 0644);
MODULE_PARM_DESC(fill_threshold, "hotlist entries that raise the interrupt, 1..1024 (default 1)");

static unsigned int always_on_us = 1000;
module_param_cb(always_on_us, &always_on_us_ops, &always_on_us, 0644);
MODULE_PARM_DESC(always_on_us, "batch period when epoch_type=1, 100..100000000 us (default 1000)");

/**
 * struct chmu_sim - the simulated device
 * @dev:	what the PMU sees
 * @model:	deterministic entry generator
 * @ring:	hotlist ring
 * @head:	next entry to drain (free-running)
 * @tail:	next entry to fill (free-running)
 * @timer:	epoch timer, pinned to @dev.cpu
 * @period:	epoch length
 * @running:	between start and stop
 * @overflows:	epochs whose batch did not fit in the ring (model paused)
 */
struct chmu_sim {
	struct cxl_hmu_dev dev;
	struct hwt_sim_hmu model;
	u64 ring[SIM_HOTLIST];
	u32 head;
	u32 tail;
	struct hrtimer timer;
	ktime_t period;
	bool running;
	u64 overflows;
};

static struct chmu_sim *sim;

#define to_sim(d) container_of(d, struct chmu_sim, dev)

static const u64 sim_scale_us[] = { 0, 100, 1000, 10000, 100000, 1000000 };

static int sim_configure(struct cxl_hmu_dev *dev, const struct cxl_hmu_config *cfg)
{
	struct chmu_sim *s = to_sim(dev);
	u64 nunits = ((u64)cfg->range_size << 28) >> cfg->hotness_granual;
	u64 us;

	/* The model knows no access types or downsampling: all accesses count. */
	hwt_sim_hmu__init(&s->model, seed, nunits, SIM_COUNTER_WIDTH, cfg->hotness_threshold);
	s->head = 0;
	s->tail = 0;
	s->overflows = 0;
	if (cfg->epoch_type == 0)
		us = sim_scale_us[cfg->epoch_scale] * cfg->epoch_multiplier;
	else
		us = READ_ONCE(always_on_us);
	s->period = ns_to_ktime(us * NSEC_PER_USEC);
	return 0;
}

static void sim_start(struct cxl_hmu_dev *dev)
{
	struct chmu_sim *s = to_sim(dev);

	s->running = true;
	hrtimer_start(&s->timer, s->period, HRTIMER_MODE_REL_PINNED_HARD);
}

static void sim_stop(struct cxl_hmu_dev *dev)
{
	struct chmu_sim *s = to_sim(dev);

	/*
	 * May run inside the timer callback (the PMU stops the device from
	 * its interrupt handler): never wait for the callback.  Otherwise we
	 * are on the timer's CPU with IRQs off, so it is not running.
	 */
	s->running = false;
	hrtimer_try_to_cancel(&s->timer);
}

static u32 sim_fill(struct cxl_hmu_dev *dev)
{
	struct chmu_sim *s = to_sim(dev);

	return s->tail - s->head;
}

static u32 sim_drain(struct cxl_hmu_dev *dev, u64 *dst, u32 max)
{
	struct chmu_sim *s = to_sim(dev);
	u32 n = min(max, s->tail - s->head), i;

	for (i = 0; i < n; i++)
		dst[i] = s->ring[(s->head + i) % SIM_HOTLIST];
	s->head += n;
	return n;
}

static enum hrtimer_restart sim_epoch(struct hrtimer *t)
{
	struct chmu_sim *s = container_of(t, struct chmu_sim, timer);
	u32 n, i;

	if (SIM_HOTLIST - (s->tail - s->head) >= SIM_BATCH_MAX) {
		n = hwt_sim_hmu__packet_units(&s->model, SIM_BATCH_MAX);
		for (i = 0; i < n; i++)
			s->ring[(s->tail + i) % SIM_HOTLIST] = hwt_sim_hmu__entry(&s->model);
		s->tail += n;
	} else {
		s->overflows++;
	}
	if (s->tail - s->head >= READ_ONCE(fill_threshold))
		cxl_hmu_pmu_irq(&s->dev);
	if (!s->running)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, s->period);
	return HRTIMER_RESTART;
}

static const struct cxl_hmu_ops sim_ops = {
	.configure = sim_configure,
	.start = sim_start,
	.stop = sim_stop,
	.hotlist_fill = sim_fill,
	.drain = sim_drain,
};

static int __init chmu_sim_init(void)
{
	int ret;

	ret = hwt_param_cpu(cpu);
	if (!ret)
		ret = hwt_param_check("memdev", memdev, 0, INT_MAX);
	if (ret)
		return ret;
	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;
	hrtimer_init(&sim->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	sim->timer.function = sim_epoch;
	sim->dev = (struct cxl_hmu_dev) {
		.ops = &sim_ops,
		.caps = {
			.counter_width = SIM_COUNTER_WIDTH,
			.hotlist_size = SIM_HOTLIST,
			.epoch_min_us = 100,
			.epoch_max_us = 100 * USEC_PER_SEC,
			.always_on = true,
			.downsampling_mask = 0xffff,		/* 1 .. 32768 */
			.granual_mask = GENMASK_ULL(40, 8),	/* 256 B .. 1 TiB */
			.range_units = 4096,			/* 1 TiB */
		},
		.memdev = memdev,
		.cpu = cpu,
	};
	ret = cxl_hmu_pmu_add(&sim->dev);
	if (ret) {
		pr_err("cannot register PMU: %d\n", ret);
		kfree(sim);
		return ret;
	}
	return 0;
}

static void __exit chmu_sim_exit(void)
{
	cxl_hmu_pmu_remove(&sim->dev);
	hrtimer_cancel(&sim->timer);
	kfree(sim);
}

module_init(chmu_sim_init);
module_exit(chmu_sim_exit);
MODULE_DESCRIPTION("CXL HMU perf PMU (AUX, RFC packet format) with a simulated CHMU");
MODULE_AUTHOR("hwtrace");
MODULE_LICENSE("GPL");
