// SPDX-License-Identifier: GPL-2.0
/*
 * sim.c - simulated Mali-G610 MC4 counters for the panthor perf PMU.
 *
 * An hrtimer pinned to the PMU's CPU ends one sampling period per tick and
 * calls panthor_perf_pmu_irq().  The counters are a closed-form
 * function of the period number, so a recording can be recomputed exactly
 * (tests/e2e/sim_panthor.py).  With k the periods ended since configure, j
 * the value of k at the previous sample (the PMU's user_data), n = k - j:
 *
 *   counter i >= 4 of block (kind b, instance x), where b is the position in
 *   FW, CSG, CSHW, TILER, MEMSYS, SHADER, counts d(m) = A + m * C in every
 *   period m in (j, k] in which the block is powered:
 *	A = (seed * 131 + b * 1009 + x * 257 + i * 37) % 4096
 *	C = (b + x + i) % 5
 *   shader core 3 is powered off in the periods m with m % 10 == 0;
 *   counters 0/1 = low/high 32 bits of the GPU timestamp k * 2^24,
 *   counter 2 (PRFCNT_EN) = 0xffffffff, counter 3 = 0;
 *   block_states (of period k): shader 3 OFF|AVAILABLE when k % 10 == 0,
 *   TILER ON|AVAILABLE|PROTECTED when k % 7 == 0, else ON|AVAILABLE|NORMAL;
 *   clock cycles: toplevel = coregroup = n * 800000, shader = n * 1000000.
 *
 * With lose_every=N (> 0), every period k with k % N == 0 plays a firmware
 * sample-ring overflow: the counters accumulated in (j, k] are dropped
 * (j becomes k) and the interrupt reports the loss.
 */
#define pr_fmt(fmt) "panthor_perf_sim: " fmt

#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "../common/params.h"
#include "backend.h"

static unsigned long long seed = 1;
module_param(seed, ullong, 0644);
MODULE_PARM_DESC(seed, "counter model seed, read at each event's configure (default 1)");

static int cpu;
module_param(cpu, int, 0444);
MODULE_PARM_DESC(cpu, "CPU taking the simulated sample interrupt, exported as cpumask (default 0)");

static unsigned int layout = 6;
module_param(layout, uint, 0444);
MODULE_PARM_DESC(layout, "uAPI revision of the samples: 6 (v6, default) or 2 (RFC v2)");

static int instance;
module_param(instance, int, 0444);
MODULE_PARM_DESC(instance, "N in the PMU name panthor_perfN (default 0)");

static unsigned int lose_every;
module_param(lose_every, uint, 0444);
MODULE_PARM_DESC(lose_every, "lose the counters of every period k % N == 0 (0: never, default)");

/**
 * struct pp_sim - the simulated GPU
 * @dev:	what the PMU sees
 * @timer:	period timer, pinned to @dev.cpu
 * @period:	sampling period
 * @seed:	model seed of the configured event
 * @k:		periods ended since configure
 * @j:		@k at the last reset (previous sample)
 * @lose_every: lose_every of the configured event
 * @irq_cpu:	where the sample interrupt is routed (the timer runs there)
 * @acquired:	between acquire and release
 * @running:	between start and stop
 */
struct pp_sim {
	struct panthor_perf_dev dev;
	struct hrtimer timer;
	ktime_t period;
	u64 seed;
	u64 k;
	u64 j;
	u32 lose_every;
	int irq_cpu;
	bool acquired;
	bool running;
};

static struct pp_sim *sim;

#define to_sim(d) container_of(d, struct pp_sim, dev)

static int sim_acquire(struct panthor_perf_dev *dev)
{
	struct pp_sim *s = to_sim(dev);

	might_sleep();
	if (WARN_ON_ONCE(s->acquired))
		return -EBUSY;
	s->acquired = true;
	return 0;
}

static void sim_release(struct panthor_perf_dev *dev)
{
	struct pp_sim *s = to_sim(dev);

	might_sleep();
	WARN_ON_ONCE(s->running || !s->acquired);
	/* stop never waits for a tick in flight: release does */
	hrtimer_cancel(&s->timer);
	s->acquired = false;
}

static void sim_set_irq_cpu(struct panthor_perf_dev *dev, unsigned int cpu)
{
	might_sleep();
	WRITE_ONCE(to_sim(dev)->irq_cpu, cpu);
}

static int sim_configure(struct panthor_perf_dev *dev, const struct panthor_perf_config *cfg)
{
	struct pp_sim *s = to_sim(dev);

	might_sleep();
	s->seed = seed;
	s->lose_every = lose_every;
	s->k = 0;
	s->j = 0;
	s->period = ns_to_ktime((u64)cfg->period_us * NSEC_PER_USEC);
	return 0;
}

static int sim_start(struct panthor_perf_dev *dev)
{
	struct pp_sim *s = to_sim(dev);

	lockdep_assert_irqs_disabled();
	/* the timer is the interrupt: it must be where set_irq_cpu routed it */
	if (WARN_ON_ONCE(!s->acquired || smp_processor_id() != READ_ONCE(s->irq_cpu)))
		return -EIO;
	s->running = true;
	hrtimer_start(&s->timer, s->period, HRTIMER_MODE_REL_PINNED_HARD);
	return 0;
}

static void sim_stop(struct panthor_perf_dev *dev)
{
	struct pp_sim *s = to_sim(dev);

	/* may run inside the timer callback: never wait for it */
	s->running = false;
	hrtimer_try_to_cancel(&s->timer);
}

static u64 tri(u64 x)
{
	return x * (x + 1) / 2;
}

static u32 sim_read_block(struct panthor_perf_dev *dev, enum panthor_perf_kind kind, u32 idx,
			  u64 *counters)
{
	struct pp_sim *s = to_sim(dev);
	bool gated = kind == PANTHOR_PERF_SHADER && idx == 3;
	u64 k = s->k, j = s->j, on = k - j, msum = tri(k) - tri(j), ts = k << 24;
	u32 i, states = PANTHOR_PERF_STATE_ON | PANTHOR_PERF_STATE_AVAILABLE |
			PANTHOR_PERF_STATE_NORMAL;

	if (gated) {
		/* periods m % 10 == 0 in (j, k] are off: take them out */
		on -= k / 10 - j / 10;
		msum -= 10 * (tri(k / 10) - tri(j / 10));
		if (k % 10 == 0)
			states = PANTHOR_PERF_STATE_OFF | PANTHOR_PERF_STATE_AVAILABLE;
	}
	if (kind == PANTHOR_PERF_TILER && k % 7 == 0)
		states = PANTHOR_PERF_STATE_ON | PANTHOR_PERF_STATE_AVAILABLE |
			 PANTHOR_PERF_STATE_PROTECTED;
	counters[0] = lower_32_bits(ts);
	counters[1] = upper_32_bits(ts);
	counters[2] = 0xffffffff;
	counters[3] = 0;
	for (i = PANTHOR_PERF_HDR_COUNTERS; i < dev->caps.counters_per_block; i++) {
		u64 a = (s->seed * 131 + kind * 1009 + idx * 257 + i * 37) % 4096;
		u64 c = (kind + idx + i) % 5;

		counters[i] = on * a + msum * c;
	}
	return states;
}

static void sim_read_cycles(struct panthor_perf_dev *dev, u64 cycles[3])
{
	struct pp_sim *s = to_sim(dev);
	u64 n = s->k - s->j;

	cycles[0] = n * 800000;
	cycles[1] = n * 800000;
	cycles[2] = n * 1000000;
}

static void sim_reset(struct panthor_perf_dev *dev)
{
	struct pp_sim *s = to_sim(dev);

	s->j = s->k;
}

static enum hrtimer_restart sim_tick(struct hrtimer *t)
{
	struct pp_sim *s = container_of(t, struct pp_sim, timer);
	bool lost;

	s->k++;
	lost = s->lose_every && s->k % s->lose_every == 0;
	if (lost)
		s->j = s->k;	/* the sample ring overflowed: (j, k] is gone */
	panthor_perf_pmu_irq(&s->dev, lost);
	if (!s->running)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, s->period);
	return HRTIMER_RESTART;
}

static const struct panthor_perf_ops sim_ops = {
	.acquire = sim_acquire,
	.configure = sim_configure,
	.release = sim_release,
	.set_irq_cpu = sim_set_irq_cpu,
	.start = sim_start,
	.stop = sim_stop,
	.read_block = sim_read_block,
	.read_cycles = sim_read_cycles,
	.reset = sim_reset,
};

static int __init pp_sim_init(void)
{
	int ret;

	if (layout != 2 && layout != 6) {
		pr_err("module parameter layout=%u is neither 2 nor 6\n", layout);
		return -EINVAL;
	}
	ret = hwt_param_cpu(cpu);
	if (!ret)
		ret = hwt_param_check("instance", instance, 0, INT_MAX);
	if (ret)
		return ret;
	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;
	hrtimer_init(&sim->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	sim->timer.function = sim_tick;
	sim->dev = (struct panthor_perf_dev) {
		.ops = &sim_ops,
		.caps = {
			.gpu_id = 0xa8670000,		/* Mali-G610 (RK3588) */
			.counters_per_block = 64,
			.blocks = { 1, 2, 1, 1, 4, 4 },	/* CSG only in layout 2 */
			.shader_present = 0x50005,
			.supported_clocks = 7,
		},
		.layout = layout,
		.instance = instance,
		.cpu = cpu,
	};
	ret = panthor_perf_pmu_add(&sim->dev);
	if (ret) {
		pr_err("cannot register PMU: %d\n", ret);
		kfree(sim);
	}
	return ret;
}

static void __exit pp_sim_exit(void)
{
	panthor_perf_pmu_remove(&sim->dev);
	hrtimer_cancel(&sim->timer);
	kfree(sim);
}

module_init(pp_sim_init);
module_exit(pp_sim_exit);
MODULE_DESCRIPTION("panthor perf-counter PMU (AUX, uAPI samples) with a simulated Mali GPU");
MODULE_AUTHOR("hwtrace");
MODULE_LICENSE("GPL");
