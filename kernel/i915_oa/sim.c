// SPDX-License-Identifier: GPL-2.0
/*
 * sim.c - a simulated Gen12.0 (Tiger Lake GT2) OA unit for the i915 OA PMU.
 *
 * An hrtimer pinned to the PMU's CPU writes one periodic report per OA
 * period (2^(exponent + 1) ticks of 19.2 MHz) into a 16-report OA buffer and
 * calls i915_oa_pmu_poll() when it holds the event's fill_threshold reports.  When the OA buffer is full the new report is
 * lost (OA_REPORT_LOST before the next report that lands); after 16 lost in
 * a row the unit restarts with an empty buffer (OA_BUFFER_LOST).
 *
 * Report k (k = 0, 1, ... since configure) is a closed-form function of k,
 * recomputed independently by tests/e2e/sim_i915.py.  With P = 2^(exponent
 * + 1), q = seed + 1 and wrap(x, bits) = x mod 2^bits on (k - lead) * inc
 * taken modulo 2^64:
 *	dword 0	reason << 19 | 1 << 16 (ctx valid); reason = 8 (context
 *		switch) when k > 0 and k % 64 == 0, else 1 (timer)
 *	dword 1	timestamp  wrap((k - 4) * P, 32)
 *	dword 2	context id 0x10, 0x20 for odd k / 64
 *	dword 3	GPU ticks  wrap((k - 10) * 55 * P, 32)
 *	A i < 32   wrap((k - 6) * q * (i + 1) * 4099, 40)	(A32u40 formats)
 *	A 32..35   wrap((k - 7) * q * (i + 1) * 1031, 32)
 *	B i        wrap((k - 8) * q * (i + 1) * 523, 32)
 *	C i        wrap((k - 9) * q * (i + 1) * 211, 32)
 * so every counter wraps within the first ten reports.  Formats:
 * A32u40_A4u32_B8_C8 (10, 256 bytes) and C4_B8 (7, 64 bytes).
 */
#define pr_fmt(fmt) "i915_oa_sim: " fmt

#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <asm/unaligned.h>

#include "../common/params.h"
#include "backend.h"

#define SIM_OA_BUF	16		/* reports */
#define SIM_TS_FREQ	19200000ULL
#define FMT_C4_B8	7
#define FMT_A32U40	10

static unsigned long long seed = 1;
module_param(seed, ullong, 0644);
MODULE_PARM_DESC(seed, "counter model seed, read at each event's configure (default 1)");

static int cpu;
module_param(cpu, int, 0444);
MODULE_PARM_DESC(cpu, "CPU running the simulated OA unit, exported as cpumask (default 0)");

static int instance;
module_param(instance, int, 0444);
MODULE_PARM_DESC(instance, "N in the PMU name i915_oaN (default 0)");

/**
 * struct oa_slot - one report in the OA buffer
 * @k:		report number; the bytes are made when it is read
 * @lost:	I915_OA_LOST_* flags before it
 */
struct oa_slot {
	u64 k;
	u32 lost;
};

/**
 * struct oa_sim - the simulated OA unit
 * @dev:	what the PMU sees
 * @timer:	OA period timer, pinned to @dev.cpu
 * @period:	OA period
 * @cfg:	format and exponent
 * @q:		seed + 1 of the configured event
 * @k:		next report number
 * @buf:	the OA buffer
 * @head:	next slot to read (free-running)
 * @tail:	next slot to fill (free-running)
 * @lost:	flags for the next report that lands
 * @lost_run:	reports lost in a row
 * @irq_cpu:	where the poll runs (set_irq_cpu; the timer runs there)
 * @acquired:	between acquire and release
 * @running:	between start and stop
 */
struct oa_sim {
	struct i915_oa_dev dev;
	struct hrtimer timer;
	ktime_t period;
	struct i915_oa_config cfg;
	u64 q;
	u64 k;
	struct oa_slot buf[SIM_OA_BUF];
	u32 head;
	u32 tail;
	u32 lost;
	u32 lost_run;
	int irq_cpu;
	bool acquired;
	bool running;
};

static struct oa_sim *sim;

#define to_sim(d) container_of(d, struct oa_sim, dev)

static int sim_acquire(struct i915_oa_dev *dev)
{
	struct oa_sim *s = to_sim(dev);

	might_sleep();
	if (WARN_ON_ONCE(s->acquired))
		return -EBUSY;
	s->acquired = true;
	return 0;
}

static void sim_release(struct i915_oa_dev *dev)
{
	struct oa_sim *s = to_sim(dev);

	might_sleep();
	WARN_ON_ONCE(s->running || !s->acquired);
	/* stop never waits for a tick in flight: release does */
	hrtimer_cancel(&s->timer);
	s->acquired = false;
}

static void sim_set_irq_cpu(struct i915_oa_dev *dev, unsigned int cpu)
{
	might_sleep();
	WRITE_ONCE(to_sim(dev)->irq_cpu, cpu);
}

static int sim_configure(struct i915_oa_dev *dev, const struct i915_oa_config *cfg)
{
	struct oa_sim *s = to_sim(dev);

	might_sleep();
	s->cfg = *cfg;
	s->q = seed + 1;
	s->k = 0;
	s->head = 0;
	s->tail = 0;
	s->lost = 0;
	s->lost_run = 0;
	s->period = ns_to_ktime(div64_u64((2ULL << cfg->exponent) * NSEC_PER_SEC, SIM_TS_FREQ));
	return 0;
}

static int sim_start(struct i915_oa_dev *dev)
{
	struct oa_sim *s = to_sim(dev);

	lockdep_assert_irqs_disabled();
	/* the timer is the poll: it must be where set_irq_cpu routed it */
	if (WARN_ON_ONCE(!s->acquired || smp_processor_id() != READ_ONCE(s->irq_cpu)))
		return -EIO;
	s->running = true;
	hrtimer_start(&s->timer, s->period, HRTIMER_MODE_REL_PINNED_HARD);
	return 0;
}

static void sim_stop(struct i915_oa_dev *dev)
{
	struct oa_sim *s = to_sim(dev);

	/* may run inside the timer callback: never wait for it */
	s->running = false;
	hrtimer_try_to_cancel(&s->timer);
}

static u32 sim_pending(struct i915_oa_dev *dev)
{
	struct oa_sim *s = to_sim(dev);

	return s->tail - s->head;
}

static u64 wrap(u64 k, u64 lead, u64 inc, u32 bits)
{
	return ((k - lead) * inc) & GENMASK_ULL(bits - 1, 0);
}

/* Lay out report @k of the configured format at @p. */
static void sim_report(const struct oa_sim *s, u64 k, u8 *p)
{
	u64 per = 2ULL << s->cfg.exponent, q = s->q;
	u32 reason = k && k % 64 == 0 ? 8 : 1, off_b, off_c, nc, i;

	put_unaligned_le32(reason << 19 | BIT(16), p);
	put_unaligned_le32(wrap(k, 4, per, 32), p + 4);
	put_unaligned_le32((k / 64) % 2 ? 0x20 : 0x10, p + 8);
	put_unaligned_le32(wrap(k, 10, 55 * per, 32), p + 12);
	if (s->cfg.format == FMT_A32U40) {
		for (i = 0; i < 32; i++) {
			u64 a = wrap(k, 6, q * (i + 1) * 4099, 40);

			put_unaligned_le32(lower_32_bits(a), p + 16 + 4 * i);
			p[160 + i] = upper_32_bits(a);
		}
		for (i = 32; i < 36; i++)
			put_unaligned_le32(wrap(k, 7, q * (i + 1) * 1031, 32), p + 144 + 4 * (i - 32));
		off_b = 192;
		off_c = 224;
		nc = 8;
	} else {
		off_c = 16;
		off_b = 32;
		nc = 4;
	}
	for (i = 0; i < 8; i++)
		put_unaligned_le32(wrap(k, 8, q * (i + 1) * 523, 32), p + off_b + 4 * i);
	for (i = 0; i < nc; i++)
		put_unaligned_le32(wrap(k, 9, q * (i + 1) * 211, 32), p + off_c + 4 * i);
}

static u32 sim_read(struct i915_oa_dev *dev, void *dst)
{
	struct oa_sim *s = to_sim(dev);
	struct oa_slot *slot = &s->buf[s->head % SIM_OA_BUF];

	sim_report(s, slot->k, dst);
	s->head++;
	return slot->lost;
}

static enum hrtimer_restart sim_tick(struct hrtimer *t)
{
	struct oa_sim *s = container_of(t, struct oa_sim, timer);

	if (s->tail - s->head < SIM_OA_BUF) {
		s->buf[s->tail % SIM_OA_BUF] = (struct oa_slot){ .k = s->k, .lost = s->lost };
		s->tail++;
		s->lost = 0;
		s->lost_run = 0;
	} else if (++s->lost_run < SIM_OA_BUF) {
		s->lost |= I915_OA_LOST_REPORT;
	} else {
		/* overflow: the unit restarts with an empty buffer */
		s->head = s->tail;
		s->lost = I915_OA_LOST_BUFFER;
		s->lost_run = 0;
	}
	s->k++;
	if (s->tail - s->head >= s->cfg.fill_threshold)
		i915_oa_pmu_poll(&s->dev);
	if (!s->running)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, s->period);
	return HRTIMER_RESTART;
}

static const struct i915_oa_ops sim_ops = {
	.acquire = sim_acquire,
	.configure = sim_configure,
	.release = sim_release,
	.set_irq_cpu = sim_set_irq_cpu,
	.start = sim_start,
	.stop = sim_stop,
	.pending = sim_pending,
	.read = sim_read,
};

/*
 * The EU topology: 1 slice of 6 subslices of 16 EUs, all present, as
 * struct drm_i915_query_topology_info lays it out (flags, max slices,
 * subslices and EUs, subslice mask offset and stride, EU mask offset and
 * stride, then the masks).
 */
static void sim_topology(struct i915_oa_caps *caps)
{
	static const u16 hdr[8] = { 0, 1, 6, 16, 1, 1, 2, 2 };

	for (unsigned int i = 0; i < ARRAY_SIZE(hdr); i++)
		put_unaligned_le16(hdr[i], caps->topology + 2 * i);
	caps->topology[16] = 0x01;			/* slice 0 */
	caps->topology[17] = 0x3f;			/* subslices 0-5 */
	memset(caps->topology + 18, 0xff, 6 * 2);	/* 16 EUs each */
	caps->topology_size = 32;			/* 30, padded to a word */
}

static int __init oa_sim_init(void)
{
	int ret;

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
	sim->dev = (struct i915_oa_dev) {
		.ops = &sim_ops,
		.caps = {
			.devid = 0x9a49,		/* Tiger Lake GT2 */
			.graphics_ver = 1200,
			.ts_freq = SIM_TS_FREQ,
			.formats = BIT(FMT_C4_B8) | BIT(FMT_A32U40),
			.report_size = { [FMT_C4_B8] = 64, [FMT_A32U40] = 256 },
			.min_exponent = 10,		/* 107 us: an hrtimer per report */
			.oa_buffer_reports = SIM_OA_BUF,
			.gt_min_hz = 300000000,
			.gt_max_hz = 1100000000,
			/* IGT's TGL GT2 RenderBasic (libi915_perf's hw_config_guid) */
			.metric_set = "0fc397c0-4833-492c-9ccd-4929d574d5b8",
		},
		.instance = instance,
		.cpu = cpu,
	};
	sim_topology(&sim->dev.caps);
	ret = i915_oa_pmu_add(&sim->dev);
	if (ret) {
		pr_err("cannot register PMU: %d\n", ret);
		kfree(sim);
	}
	return ret;
}

static void __exit oa_sim_exit(void)
{
	i915_oa_pmu_remove(&sim->dev);
	hrtimer_cancel(&sim->timer);
	kfree(sim);
}

module_init(oa_sim_init);
module_exit(oa_sim_exit);
MODULE_DESCRIPTION("i915 OA PMU (AUX, i915 perf stream records) with a simulated OA unit");
MODULE_AUTHOR("hwtrace");
MODULE_LICENSE("GPL");
