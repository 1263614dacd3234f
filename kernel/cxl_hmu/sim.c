// SPDX-License-Identifier: GPL-2.0
/*
 * sim.c - a CHMU device model behind a register file, for the CXL HMU PMU.
 *
 * The device is a vzalloc'd region laid out as CXL r3.2 8.2.8 lays out a
 * CHMU block with one instance.  The register driver (chmu_regs.c) gets only
 * its base pointer and programs it with readq/writeq, as it would a BAR.
 * The model is the hardware side: a clock (an hrtimer on a CPU other than
 * the one the interrupt is routed to) looks at the control registers every
 * SIM_TICK_US, carries out RESET, ENABLE and disable requests as operations
 * that stay "in progress" in STATUS for one tick, ends epochs, appends hot
 * units to the hotlist ring at TAIL, and raises the interrupt as an
 * IPI on the routed CPU, which runs chmu_inst_irq() (the handler a
 * PCI driver would request_irq()).
 *
 * A region of memory cannot see a write, so the model notices changes on its
 * next tick, and it cannot see STATUS write-1-to-clear: it treats the end of
 * the interrupt handler as the acknowledgement and clears the bits it set.
 *
 * The hot units come from the shared deterministic model (hwtrace/sim_hmu.h)
 * seeded at RESET from the programmed registers, with the same call sequence
 * as `perf hwtrace synth --type cxl-hmu`: per epoch n = packet_units(max 512),
 * then n entries.  Entries that find the ring full are dropped (and still
 * drawn from the model) and OVRFLW is raised: real loss.  When disabled, the
 * device reports the epoch cut short as one more batch if the ring has room
 * for any batch; a driver that reads the hotlist before the disable
 * operation completes misses it, which the model counts (stat_undrained).
 */
#define pr_fmt(fmt) "cxl_hmu_sim: " fmt

#include <linux/bitfield.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/smp.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include <sim_hmu.h>

#include "../common/params.h"
#include "chmu_regs.h"

#define SIM_HOTLIST		1024		/* entries, as the QEMU CHMU model */
#define SIM_BATCH_MAX		(SIM_HOTLIST / 2)
#define SIM_TICK_US		200
#define SIM_RANGE_UNITS		4096		/* 1 TiB in 256 MiB units */
#define SIM_BITMAP		0x70
#define SIM_HOTLIST_OFF		(SIM_BITMAP + SIM_RANGE_UNITS / 8)
#define SIM_INST_LEN		(SIM_HOTLIST_OFF + SIM_HOTLIST * 8)
#define SIM_BLOCK_LEN		(CHMU_INSTANCE0 + SIM_INST_LEN)

static unsigned long long seed = 1;
module_param(seed, ullong, 0644);
MODULE_PARM_DESC(seed, "model seed, read at each hotlist reset (default 1)");

static int cpu;
module_param(cpu, int, 0444);
MODULE_PARM_DESC(cpu, "CPU handling the interrupt, exported as cpumask (default 0)");

static int memdev;
module_param(memdev, int, 0444);
MODULE_PARM_DESC(memdev, "X in the PMU name cxl_hmu_memX.0.0 (default 0)");

/* what the model did, for tests: cumulative, read-only */
static unsigned long stat_dropped, stat_overflows, stat_wraps, stat_disables, stat_undrained;
module_param(stat_dropped, ulong, 0444);
MODULE_PARM_DESC(stat_dropped, "hot units dropped because the hotlist was full");
module_param(stat_overflows, ulong, 0444);
MODULE_PARM_DESC(stat_overflows, "epochs that overflowed the hotlist");
module_param(stat_wraps, ulong, 0444);
MODULE_PARM_DESC(stat_wraps, "times TAIL wrapped to the start of the ring");
module_param(stat_disables, ulong, 0444);
MODULE_PARM_DESC(stat_disables, "disable operations completed");
module_param(stat_undrained, ulong, 0444);
MODULE_PARM_DESC(stat_undrained, "disables whose final entries the driver did not read");

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
MODULE_PARM_DESC(fill_threshold,
		 "fill threshold for events whose term is 0, 1..1024 (default 1)");

static unsigned int always_on_us = 1000;
module_param_cb(always_on_us, &always_on_us_ops, &always_on_us, 0644);
MODULE_PARM_DESC(always_on_us, "batch period when epoch_type=1, 100..100000000 us (default 1000)");

/**
 * struct chmu_sim - the modelled device and its driver instance
 * @ci:		the register driver's instance (what the PMU sees)
 * @regs:	the register file
 * @model:	deterministic hot unit generator
 * @clock:	the device clock
 * @irq:	the interrupt, an IPI to @irq_cpu
 * @move:	restarts @clock on @clock_cpu, an IPI
 * @irq_busy:	@irq is queued or running
 * @move_busy:	@move is queued or running
 * @irq_cpu:	where the interrupt is routed
 * @clock_cpu:	where the clock should run (never @irq_cpu)
 * @powered:	between get and put
 * @enabled:	monitoring (STATUS ENABLED)
 * @op:		operation in progress
 * @width:	counter width for the programmed unit size
 * @irq_bits:	OVRFLW/FILLTHRESH as shown in STATUS
 * @overflowed:	hot units dropped since the last interrupt
 * @filled:	the fill threshold was reached since the last interrupt
 * @check_drain: the last disable reported entries up to @stop_tail
 * @stop_tail:	TAIL after the last disable
 * @epoch:	epoch length
 * @next_epoch:	end of the running epoch
 */
struct chmu_sim {
	struct chmu_inst ci;
	void *regs;
	struct hwt_sim_hmu model;
	struct hrtimer clock;
	call_single_data_t irq;
	call_single_data_t move;
	atomic_t irq_busy;
	atomic_t move_busy;
	int irq_cpu;
	int clock_cpu;
	bool powered;
	bool enabled;
	u16 op;
	u32 width;
	u64 irq_bits;
	bool overflowed;
	bool filled;
	bool check_drain;
	u16 stop_tail;
	ktime_t epoch;
	ktime_t next_epoch;
};

static struct chmu_sim *sim;

/* The device's side of its registers (the driver uses readq/writeq). */
static u64 *sim_reg(struct chmu_sim *s, u64 off)
{
	return s->regs + CHMU_INSTANCE0 + off;
}

static u16 *sim_reg16(struct chmu_sim *s, u64 off)
{
	return s->regs + CHMU_INSTANCE0 + off;
}

static u64 sim_get(struct chmu_sim *s, u64 off)
{
	return le64_to_cpu(READ_ONCE(*sim_reg(s, off)));
}

static void sim_set(struct chmu_sim *s, u64 off, u64 val)
{
	WRITE_ONCE(*sim_reg(s, off), cpu_to_le64(val));
}

static u16 sim_head(struct chmu_sim *s)
{
	return le16_to_cpu(READ_ONCE(*sim_reg16(s, CHMU_HEAD))) % SIM_HOTLIST;
}

static u16 sim_tail(struct chmu_sim *s)
{
	return le16_to_cpu(READ_ONCE(*sim_reg16(s, CHMU_TAIL)));
}

static u32 sim_free(struct chmu_sim *s)
{
	return (sim_head(s) + SIM_HOTLIST - 1 - sim_tail(s)) % SIM_HOTLIST;
}

/* Append n entries from the model; those that find the ring full are dropped. */
/* Run @csd on @to unless it is still in flight; false if it was not sent. */
static bool sim_kick(call_single_data_t *csd, atomic_t *busy, int to)
{
	if (atomic_cmpxchg(busy, 0, 1))
		return false;
	if (!smp_call_function_single_async(to, csd))
		return true;
	atomic_set(busy, 0);
	return false;
}

static void sim_sync(atomic_t *busy)
{
	while (atomic_read_acquire(busy))
		cpu_relax();
}

static void sim_batch(struct chmu_sim *s, u32 n)
{
	u16 tail = sim_tail(s);
	u32 i, dropped = 0;

	for (i = 0; i < n; i++) {
		u64 e = hwt_sim_hmu__entry(&s->model);

		if ((tail + 1) % SIM_HOTLIST == sim_head(s)) {
			dropped++;
			continue;
		}
		WRITE_ONCE(*sim_reg(s, SIM_HOTLIST_OFF + tail * 8ULL), cpu_to_le64(e));
		tail = (tail + 1) % SIM_HOTLIST;
		if (!tail)
			WRITE_ONCE(stat_wraps, stat_wraps + 1);
	}
	/* entries before the index that publishes them */
	smp_wmb();
	WRITE_ONCE(*sim_reg16(s, CHMU_TAIL), cpu_to_le16(tail));
	if (dropped) {
		/* the status shows the loss at once; the interrupt follows */
		if (sim_get(s, CHMU_CFG0) & CHMU_CFG0_OVRFLW_INT_EN)
			s->irq_bits |= CHMU_STATUS_OVRFLW;
		s->overflowed = true;
		WRITE_ONCE(stat_dropped, stat_dropped + dropped);
		WRITE_ONCE(stat_overflows, stat_overflows + 1);
	}
}

/* RESET: empty ring, model seeded from the programmed configuration. */
static void sim_reset(struct chmu_sim *s)
{
	u64 cfg0 = sim_get(s, CHMU_CFG0), cfg1 = sim_get(s, CHMU_CFG1);
	u32 gran = FIELD_GET(CHMU_CFG1_UNIT_SIZE, cfg1), units = 0, w;
	u64 us, nunits;

	for (w = 0; w < SIM_RANGE_UNITS / 64; w++)
		units += hweight64(sim_get(s, SIM_BITMAP + w * 8));
	/* a larger unit sees more accesses: the counter widens with it */
	s->width = clamp(gran, 16U, 32U);
	nunits = gran < 64 ? ((u64)units << 28) >> gran : 0;
	/* The model knows no access types or downsampling: all accesses count. */
	hwt_sim_hmu__init(&s->model, READ_ONCE(seed), nunits, s->width,
			  FIELD_GET(CHMU_CFG0_HOTNESS_THRESHOLD, cfg0));
	if (FIELD_GET(CHMU_CFG1_MODE, cfg1) == 1)
		us = READ_ONCE(always_on_us);
	else
		us = (u64)chmu_epoch_scale_us[min_t(u64, FIELD_GET(CHMU_CFG1_EPOCH_SCALE, cfg1), 5)] *
		     FIELD_GET(CHMU_CFG1_EPOCH_MULT, cfg1);
	s->epoch = ns_to_ktime(max_t(u64, us, SIM_ALWAYS_ON_MIN_US) * NSEC_PER_USEC);
	WRITE_ONCE(*sim_reg16(s, CHMU_HEAD), 0);
	WRITE_ONCE(*sim_reg16(s, CHMU_TAIL), 0);
	s->overflowed = false;
	s->filled = false;
	s->check_drain = false;
	sim_set(s, CHMU_CFG0, cfg0 & ~CHMU_CFG0_RESET);
}

static void sim_complete(struct chmu_sim *s, ktime_t now)
{
	switch (s->op) {
	case CHMU_OP_RESET:
		sim_reset(s);
		break;
	case CHMU_OP_ENABLE:
		if (s->check_drain && sim_head(s) != s->stop_tail)
			WRITE_ONCE(stat_undrained, stat_undrained + 1);
		s->check_drain = false;
		s->enabled = true;
		s->next_epoch = ktime_add(now, s->epoch);
		break;
	case CHMU_OP_DISABLE:
		s->enabled = false;
		if (sim_free(s) >= SIM_BATCH_MAX)
			sim_batch(s, hwt_sim_hmu__packet_units(&s->model, SIM_BATCH_MAX));
		s->stop_tail = sim_tail(s);
		s->check_drain = true;
		WRITE_ONCE(stat_disables, stat_disables + 1);
		break;
	}
	s->op = CHMU_OP_NONE;
}

static void sim_publish_status(struct chmu_sim *s)
{
	sim_set(s, CHMU_STATUS, (s->enabled ? CHMU_STATUS_ENABLED : 0) |
		FIELD_PREP(CHMU_STATUS_OP, s->op) |
		FIELD_PREP(CHMU_STATUS_COUNTER_WIDTH, s->width) | s->irq_bits);
}

/* A CPU for the clock: online, not the interrupt's, not @avoid. */
static int sim_pick_clock_cpu(int irq_cpu, int avoid)
{
	int c;

	for_each_online_cpu(c)
		if (c != irq_cpu && c != avoid)
			return c;
	return cpumask_any_but(cpu_online_mask, irq_cpu);
}

static enum hrtimer_restart sim_tick(struct hrtimer *t)
{
	struct chmu_sim *s = container_of(t, struct chmu_sim, clock);
	int irq_cpu = READ_ONCE(s->irq_cpu);
	ktime_t now = ktime_get();
	u64 cfg0;
	int n;

	if (!READ_ONCE(s->powered))
		return HRTIMER_NORESTART;
	if (smp_processor_id() == irq_cpu) {
		/* the clock landed on the interrupt's CPU (CPU hotplug): move it */
		n = sim_pick_clock_cpu(irq_cpu, -1);
		if (n < nr_cpu_ids) {
			WRITE_ONCE(s->clock_cpu, n);
			if (sim_kick(&s->move, &s->move_busy, n))
				return HRTIMER_NORESTART;
		}
	}
	cfg0 = sim_get(s, CHMU_CFG0);
	if (s->op)
		sim_complete(s, now);
	else if (cfg0 & CHMU_CFG0_RESET)
		s->op = CHMU_OP_RESET;
	else if (!!(cfg0 & CHMU_CFG0_ENABLE) != s->enabled)
		s->op = s->enabled ? CHMU_OP_DISABLE : CHMU_OP_ENABLE;
	if (s->enabled && !s->op && ktime_after(now, s->next_epoch)) {
		sim_batch(s, hwt_sim_hmu__packet_units(&s->model, SIM_BATCH_MAX));
		/* one epoch per tick: a clock that fell behind skips epochs */
		s->next_epoch = ktime_add(s->next_epoch, s->epoch);
		if (ktime_after(now, s->next_epoch))
			s->next_epoch = ktime_add(now, s->epoch);
		if ((sim_tail(s) + SIM_HOTLIST - sim_head(s)) % SIM_HOTLIST >=
		    FIELD_GET(CHMU_CFG2_FILL_THRESHOLD, sim_get(s, CHMU_CFG2)))
			s->filled = true;
	}
	/* only between interrupts: the handler's end acknowledges the bits */
	if (!atomic_read_acquire(&s->irq_busy)) {
		s->irq_bits = 0;
		if (s->overflowed && (cfg0 & CHMU_CFG0_OVRFLW_INT_EN))
			s->irq_bits |= CHMU_STATUS_OVRFLW;
		if (s->filled && (cfg0 & CHMU_CFG0_FILLTHRESH_INT_EN))
			s->irq_bits |= CHMU_STATUS_FILLTHRESH;
		s->overflowed = false;
		s->filled = false;
		sim_publish_status(s);
		if (s->irq_bits)
			sim_kick(&s->irq, &s->irq_busy, irq_cpu);
	} else {
		sim_publish_status(s);
	}
	hrtimer_forward_now(t, ns_to_ktime(SIM_TICK_US * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void sim_irq(void *info)
{
	struct chmu_sim *s = info;

	chmu_inst_irq(&s->ci);
	atomic_set_release(&s->irq_busy, 0);
}

static void sim_move(void *info)
{
	struct chmu_sim *s = info;

	if (READ_ONCE(s->powered))
		hrtimer_start(&s->clock, ns_to_ktime(SIM_TICK_US * NSEC_PER_USEC),
			      HRTIMER_MODE_REL_PINNED_HARD);
	atomic_set_release(&s->move_busy, 0);
}

static void sim_clock_stop(struct chmu_sim *s)
{
	WRITE_ONCE(s->powered, false);
	hrtimer_cancel(&s->clock);
	sim_sync(&s->move_busy);
	hrtimer_cancel(&s->clock);
	sim_sync(&s->irq_busy);
}

static int sim_clock_start(struct chmu_sim *s, int avoid)
{
	int c = sim_pick_clock_cpu(READ_ONCE(s->irq_cpu), avoid);

	if (c >= nr_cpu_ids)
		return -ENODEV;	/* the device cannot run on the interrupt's CPU */
	WRITE_ONCE(s->clock_cpu, c);
	WRITE_ONCE(s->powered, true);
	if (!sim_kick(&s->move, &s->move_busy, c)) {
		WRITE_ONCE(s->powered, false);
		return -EAGAIN;
	}
	return 0;
}

static int sim_get_power(struct chmu_inst *ci)
{
	struct chmu_sim *s = container_of(ci, struct chmu_sim, ci);

	might_sleep();
	return sim_clock_start(s, -1);
}

static void sim_put_power(struct chmu_inst *ci)
{
	struct chmu_sim *s = container_of(ci, struct chmu_sim, ci);

	might_sleep();
	sim_clock_stop(s);
}

static void sim_route_irq(struct chmu_inst *ci, unsigned int to)
{
	struct chmu_sim *s = container_of(ci, struct chmu_sim, ci);
	int old = READ_ONCE(s->irq_cpu);
	bool on = READ_ONCE(s->powered);

	might_sleep();
	/* the clock must never share a CPU with a driver spinning on STATUS */
	if (on)
		sim_clock_stop(s);
	WRITE_ONCE(s->irq_cpu, to);
	if (on)
		sim_clock_start(s, old);
}

static const struct chmu_platform_ops sim_platform = {
	.get = sim_get_power,
	.put = sim_put_power,
	.route_irq = sim_route_irq,
};

/* Power-on register values: capabilities and an idle, empty instance. */
static void sim_init_regs(struct chmu_sim *s)
{
	u64 *common = s->regs;

	common[0] = cpu_to_le64(FIELD_PREP(CHMU_COMMON_CAP0_VERSION, 1) |
				FIELD_PREP(CHMU_COMMON_CAP0_INSTANCES, 1));
	common[1] = cpu_to_le64(FIELD_PREP(CHMU_COMMON_CAP1_INST_LEN, SIM_INST_LEN));
	sim_set(s, CHMU_CAP0, CHMU_CAP0_OVRFLW_INT | CHMU_CAP0_FILLTHRESH_INT |
		GENMASK_ULL(13, 8) |				/* all six access types */
		FIELD_PREP(CHMU_CAP0_MAX_SCALE, 5) | FIELD_PREP(CHMU_CAP0_MAX_MULT, 100) |
		FIELD_PREP(CHMU_CAP0_MIN_SCALE, 1) | FIELD_PREP(CHMU_CAP0_MIN_MULT, 1) |
		FIELD_PREP(CHMU_CAP0_HOTLIST_SIZE, SIM_HOTLIST));
	sim_set(s, CHMU_CAP1, FIELD_PREP(CHMU_CAP1_UNIT_SIZES, GENMASK(23, 0)) |	/* 256 B..2 GiB */
		FIELD_PREP(CHMU_CAP1_DOWNSAMPLING, 0xffff) |	/* 1..32768 */
		CHMU_CAP1_EPOCH | CHMU_CAP1_ALWAYS_ON | CHMU_CAP1_RAND_DOWNSAMPLING);
	sim_set(s, CHMU_BITMAP_OFFSET, SIM_BITMAP);
	sim_set(s, CHMU_HOTLIST_OFFSET, SIM_HOTLIST_OFF);
	s->width = 16;
	sim_publish_status(s);
}

static int __init chmu_sim_init(void)
{
	int ret;

	ret = hwt_param_cpu(cpu);
	if (!ret)
		ret = hwt_param_check("memdev", memdev, 0, INT_MAX);
	if (ret)
		return ret;
	if (num_online_cpus() < 2) {
		pr_err("the device model needs a second online CPU for its clock\n");
		return -ENODEV;
	}
	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;
	sim->regs = vzalloc(SIM_BLOCK_LEN);
	if (!sim->regs) {
		kfree(sim);
		return -ENOMEM;
	}
	hrtimer_init(&sim->clock, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	sim->clock.function = sim_tick;
	INIT_CSD(&sim->irq, sim_irq, sim);
	INIT_CSD(&sim->move, sim_move, sim);
	sim->irq_cpu = cpu;
	sim_init_regs(sim);
	/* from here on only the base pointer: what a BAR mapping would give */
	ret = chmu_inst_probe(&sim->ci, (void __force __iomem *)sim->regs, 0, &sim_platform);
	if (!ret) {
		sim->ci.dev.caps.fill_default = fill_threshold;
		sim->ci.dev.memdev = memdev;
		sim->ci.dev.cpu = cpu;
		ret = cxl_hmu_pmu_add(&sim->ci.dev);
	}
	if (ret) {
		pr_err("cannot register PMU: %d\n", ret);
		vfree(sim->regs);
		kfree(sim);
		return ret;
	}
	return 0;
}

static void __exit chmu_sim_exit(void)
{
	cxl_hmu_pmu_remove(&sim->ci.dev);
	sim_clock_stop(sim);
	vfree(sim->regs);
	kfree(sim);
}

module_init(chmu_sim_init);
module_exit(chmu_sim_exit);
MODULE_DESCRIPTION("CXL HMU perf PMU (AUX, RFC packet format) with a CHMU register model");
MODULE_AUTHOR("hwtrace");
MODULE_LICENSE("GPL");
