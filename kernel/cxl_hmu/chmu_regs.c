// SPDX-License-Identifier: GPL-2.0
/*
 * chmu_regs.c - CXL Hotness Monitoring Unit register driver.
 *
 * Runs one CHMU instance through its registers as CXL r3.2 8.2.8 lays them
 * out, and offers it to the perf PMU (pmu.c) as struct cxl_hmu_ops.  Only
 * readq/writeq/readw/writew on the instance's __iomem base touch the device,
 * so the code is the same whether the registers are a PCI BAR or the device
 * model of sim.c.
 *
 * Operations: configure programs CFG0..2 and the range bitmap with ENABLE
 * clear, then resets the hotlist (CFG0 RESET) and reads the counter width
 * that goes with the unit size from STATUS.  start and stop flip CFG0
 * ENABLE.  Each of these waits until STATUS shows no operation in progress
 * and the requested state, since the hotlist is only consistent then.  The
 * hotlist is a ring of CAP0 "hotlist size" entries: the device writes at
 * TAIL, the driver reads at HEAD and writes HEAD back; HEAD == TAIL is
 * empty, so the ring holds one entry less than its size.  When it is full
 * the device drops hot units and sets STATUS OVRFLW.
 */
#define pr_fmt(fmt) "cxl_hmu_chmu: " fmt

#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/io.h>
#include <linux/iopoll.h>
#include <linux/lockdep.h>
#include <linux/perf_event.h>

#include "chmu_regs.h"

/*
 * The RFC driver allows an operation 100 ms; the device model's clock runs
 * on an emulated CPU that a loaded host may not schedule for that long.
 */
#define CHMU_OP_TIMEOUT_US	500000

const u32 chmu_epoch_scale_us[6] = { 0, 100, 1000, 10000, 100000, 1000000 };

#define to_inst(d) container_of(d, struct chmu_inst, dev)

static u64 chmu_epoch_us(u64 scale, u64 mult)
{
	return scale >= 1 && scale <= 5 ? (u64)chmu_epoch_scale_us[scale] * mult : 0;
}

/* The requested state is reached and nothing is in progress. */
static bool chmu_settled(struct chmu_inst *ci, u64 status, bool enabled)
{
	return !FIELD_GET(CHMU_STATUS_OP, status) &&
	       !!(status & CHMU_STATUS_ENABLED) == enabled &&
	       !(readq(ci->base + CHMU_CFG0) & CHMU_CFG0_RESET);
}

static int chmu_wait(struct chmu_inst *ci, bool enabled, bool atomic, const char *what)
{
	u64 st;
	int ret;

	if (atomic)
		ret = readq_poll_timeout_atomic(ci->base + CHMU_STATUS, st,
						chmu_settled(ci, st, enabled), 2,
						CHMU_OP_TIMEOUT_US);
	else
		ret = readq_poll_timeout(ci->base + CHMU_STATUS, st,
					 chmu_settled(ci, st, enabled), 50, CHMU_OP_TIMEOUT_US);
	if (ret)
		pr_err("%s timed out on CPU %d (status %#llx)\n", what, raw_smp_processor_id(), st);
	return ret;
}

static int chmu_acquire(struct cxl_hmu_dev *dev)
{
	struct chmu_inst *ci = to_inst(dev);

	return ci->plat->get ? ci->plat->get(ci) : 0;
}

static void chmu_release(struct cxl_hmu_dev *dev)
{
	struct chmu_inst *ci = to_inst(dev);

	if (ci->plat->put)
		ci->plat->put(ci);
}

static void chmu_set_irq_cpu(struct cxl_hmu_dev *dev, unsigned int cpu)
{
	struct chmu_inst *ci = to_inst(dev);

	if (ci->plat->route_irq)
		ci->plat->route_irq(ci, cpu);
}

/* One bit per 256 MiB of DPA, bit i of word i / 64. */
static void chmu_write_bitmap(struct chmu_inst *ci, u32 base, u32 size)
{
	u64 words = (ci->hotlist_off - ci->bitmap_off) / 8, w;

	for (w = 0; w < words; w++) {
		u64 lo = w * 64, hi = lo + 64, val = 0;
		u64 from = max_t(u64, lo, base), to = min_t(u64, hi, (u64)base + size);

		if (from < to)
			val = GENMASK_ULL(to - lo - 1, from - lo);
		writeq(val, ci->base + ci->bitmap_off + w * 8);
	}
}

static int chmu_configure(struct cxl_hmu_dev *dev, struct cxl_hmu_config *cfg)
{
	struct chmu_inst *ci = to_inst(dev);
	u64 cfg0, cfg1;
	int ret;

	might_sleep();
	cfg0 = FIELD_PREP(CHMU_CFG0_WHAT, cfg->access_type) |
	       (cfg->randomized_downsampling ? CHMU_CFG0_RAND_DOWNSAMPLING : 0) |
	       CHMU_CFG0_OVRFLW_INT_EN | CHMU_CFG0_FILLTHRESH_INT_EN |
	       FIELD_PREP(CHMU_CFG0_HOTNESS_THRESHOLD, cfg->hotness_threshold);
	cfg1 = FIELD_PREP(CHMU_CFG1_UNIT_SIZE, cfg->hotness_granual) |
	       FIELD_PREP(CHMU_CFG1_DOWNSAMPLING, cfg->downsampling_log2) |
	       FIELD_PREP(CHMU_CFG1_MODE, cfg->epoch_type) |
	       FIELD_PREP(CHMU_CFG1_EPOCH_SCALE, cfg->epoch_scale) |
	       FIELD_PREP(CHMU_CFG1_EPOCH_MULT, cfg->epoch_multiplier);
	if (readq(ci->base + CHMU_STATUS) & CHMU_STATUS_ENABLED) {
		writeq(cfg0, ci->base + CHMU_CFG0);
		ret = chmu_wait(ci, false, false, "disable");
		if (ret)
			return ret;
	}
	writeq(cfg0, ci->base + CHMU_CFG0);
	writeq(cfg1, ci->base + CHMU_CFG1);
	chmu_write_bitmap(ci, cfg->range_base, cfg->range_size);
	writeq(FIELD_PREP(CHMU_CFG2_FILL_THRESHOLD, cfg->fill_threshold), ci->base + CHMU_CFG2);
	/* reset after programming: the width that goes with the unit size is then valid */
	writeq(cfg0 | CHMU_CFG0_RESET, ci->base + CHMU_CFG0);
	ret = chmu_wait(ci, false, false, "reset");
	if (ret)
		return ret;
	cfg->counter_width = FIELD_GET(CHMU_STATUS_COUNTER_WIDTH, readq(ci->base + CHMU_STATUS));
	ci->cfg0 = cfg0;
	return 0;
}

static int chmu_start(struct cxl_hmu_dev *dev)
{
	struct chmu_inst *ci = to_inst(dev);

	lockdep_assert_irqs_disabled();
	writeq(ci->cfg0 | CHMU_CFG0_ENABLE, ci->base + CHMU_CFG0);
	return chmu_wait(ci, true, true, "enable");
}

static bool chmu_stop(struct cxl_hmu_dev *dev)
{
	struct chmu_inst *ci = to_inst(dev);

	lockdep_assert_irqs_disabled();
	writeq(ci->cfg0, ci->base + CHMU_CFG0);
	/* entries the device writes while disabling belong to this drain */
	chmu_wait(ci, false, true, "disable");
	/* OVRFLW is set when units are dropped, before its interrupt arrives */
	return readq(ci->base + CHMU_STATUS) & CHMU_STATUS_OVRFLW;
}

/* HEAD and TAIL, or false when the device reports indexes outside the ring */
static bool chmu_ends(struct chmu_inst *ci, u16 *head, u16 *tail)
{
	*head = readw(ci->base + CHMU_HEAD);
	*tail = readw(ci->base + CHMU_TAIL);
	if (*head < ci->entries && *tail < ci->entries)
		return true;
	pr_err_ratelimited("hotlist head %u tail %u outside %u entries\n", *head, *tail,
			   ci->entries);
	return false;
}

static u32 chmu_fill(struct cxl_hmu_dev *dev)
{
	struct chmu_inst *ci = to_inst(dev);
	u16 head, tail;

	if (!chmu_ends(ci, &head, &tail))
		return 0;
	return (tail + ci->entries - head) % ci->entries;
}

static u32 chmu_drain(struct cxl_hmu_dev *dev, u64 *dst, u32 max)
{
	struct chmu_inst *ci = to_inst(dev);
	u16 head, tail;
	u32 n = 0;

	if (!chmu_ends(ci, &head, &tail))
		return 0;
	/* the ring wraps: entries after the end continue at offset 0 */
	while (n < max && head != tail) {
		dst[n++] = readq(ci->base + ci->hotlist_off + head * 8ULL);
		head = (head + 1) % ci->entries;
	}
	if (n)
		writew(head, ci->base + CHMU_HEAD);
	return n;
}

irqreturn_t chmu_inst_irq(struct chmu_inst *ci)
{
	u64 st = readq(ci->base + CHMU_STATUS);

	if (!(st & (CHMU_STATUS_OVRFLW | CHMU_STATUS_FILLTHRESH)))
		return IRQ_NONE;
	cxl_hmu_pmu_irq(&ci->dev, st & CHMU_STATUS_OVRFLW);
	/* write-1-to-clear; the other fields ignore the write */
	writeq(st, ci->base + CHMU_STATUS);
	return IRQ_HANDLED;
}

static const struct cxl_hmu_ops chmu_ops = {
	.acquire = chmu_acquire,
	.configure = chmu_configure,
	.release = chmu_release,
	.set_irq_cpu = chmu_set_irq_cpu,
	.start = chmu_start,
	.stop = chmu_stop,
	.hotlist_fill = chmu_fill,
	.drain = chmu_drain,
};

int chmu_inst_probe(struct chmu_inst *ci, void __iomem *block, unsigned int index,
		    const struct chmu_platform_ops *plat)
{
	u64 common0 = readq(block + CHMU_COMMON_CAP0);
	u64 len = FIELD_GET(CHMU_COMMON_CAP1_INST_LEN, readq(block + CHMU_COMMON_CAP1));
	struct cxl_hmu_caps *caps = &ci->dev.caps;
	u64 cap0, cap1;

	if (index >= FIELD_GET(CHMU_COMMON_CAP0_INSTANCES, common0) || len < CHMU_TAIL + 2)
		return -EINVAL;
	ci->base = block + CHMU_INSTANCE0 + index * len;
	ci->plat = plat;
	cap0 = readq(ci->base + CHMU_CAP0);
	cap1 = readq(ci->base + CHMU_CAP1);
	ci->bitmap_off = readq(ci->base + CHMU_BITMAP_OFFSET);
	ci->hotlist_off = readq(ci->base + CHMU_HOTLIST_OFFSET);
	ci->entries = FIELD_GET(CHMU_CAP0_HOTLIST_SIZE, cap0);
	/* as the RFC: an instance that cannot interrupt on fill is not used */
	if (!(cap0 & CHMU_CAP0_FILLTHRESH_INT) || !(cap1 & CHMU_CAP1_EPOCH) ||
	    ci->entries < 2 || ci->hotlist_off <= ci->bitmap_off ||
	    ci->hotlist_off + ci->entries * 8ULL > len)
		return -ENODEV;
	*caps = (struct cxl_hmu_caps) {
		.hotlist_size = ci->entries,
		.fill_default = ci->entries / 2,
		.epoch_min_us = chmu_epoch_us(FIELD_GET(CHMU_CAP0_MIN_SCALE, cap0),
					      FIELD_GET(CHMU_CAP0_MIN_MULT, cap0)),
		.epoch_max_us = chmu_epoch_us(FIELD_GET(CHMU_CAP0_MAX_SCALE, cap0),
					      FIELD_GET(CHMU_CAP0_MAX_MULT, cap0)),
		.always_on = !!(cap1 & CHMU_CAP1_ALWAYS_ON),
		.downsampling_mask = FIELD_GET(CHMU_CAP1_DOWNSAMPLING, cap1),
		.granual_mask = FIELD_GET(CHMU_CAP1_UNIT_SIZES, cap1) << 8,
		.range_units = (ci->hotlist_off - ci->bitmap_off) * 8,
	};
	ci->dev.ops = &chmu_ops;
	return 0;
}
