// SPDX-License-Identifier: GPL-2.0
/*
 * pmu.c - CXL Hotness Monitoring Unit perf PMU with AUX output.
 *
 * Follows the semantics of the CXL HMU RFC driver (J. Cameron, Nov 2024):
 * PMU cxl_hmu_mem<X>.<Y>.<Z>, the same format terms and bit ranges,
 * system-wide only, no overwrite mode.  On each fill-threshold interrupt the
 * hotlist is copied into the AUX buffer as one packet:
 *
 *	u64 hdr0 = entries | counter_width << 16
 *	u64 hdr1 = 0xdeadbeef
 *	u64 entry[entries]	(unit_id << counter_width) | count
 *
 * The header words are little-endian, like the entries.  A packet never
 * straddles the end of the AUX buffer and is never empty.  When the buffer is
 * full the remaining entries stay in the hotlist; only when the device
 * reports that its hotlist overflowed (hot units dropped) is the record
 * flagged TRUNCATED, and the PMU then stops until the event is started
 * again.  The device is behind struct cxl_hmu_ops: it is acquired and
 * configured in event_init, where errors reach perf_event_open, and given
 * back in the event's destroy.
 */
#define pr_fmt(fmt) "cxl_hmu: " fmt

#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "../common/aux.h"
#include "../common/hotplug.h"
#include "../common/params.h"
#include "backend.h"

#define CXL_HMU_HDR_SIZE	16
#define CXL_HMU_HDR1		0xdeadbeefULL
#define CXL_HMU_MAX_UNITS	0xffff		/* hdr0 bits 15:0 */
/* 256 MiB, the unit of range_base and range_size */
#define CXL_HMU_RANGE_SHIFT	28

/**
 * struct cxl_hmu_pmu - one registered PMU
 * @pmu:	perf's view
 * @hotplug:	moves the events off the CPU when it goes offline
 * @dev:	the backend's device
 * @handle:	AUX output handle of the running event (one: PMU is exclusive)
 * @event:	the started event, NULL when stopped
 * @owner:	event that holds the backend (acquire .. release)
 * @cfg:	terms of @owner, with the device's counter width
 * @lost:	the device reported loss not yet flagged (set from any CPU)
 * @name:	cxl_hmu_mem<X>.<Y>.<Z>
 */
struct cxl_hmu_pmu {
	struct pmu pmu;
	struct hwt_hotplug hotplug;
	struct cxl_hmu_dev *dev;
	struct perf_output_handle handle;
	struct perf_event *event;
	struct perf_event *owner;
	struct cxl_hmu_config cfg;
	int lost;
	char name[48];
};

#define to_hmu(p) container_of(p, struct cxl_hmu_pmu, pmu)

PMU_FORMAT_ATTR(epoch_type, "config:0-1");
PMU_FORMAT_ATTR(access_type, "config:2-9");
PMU_FORMAT_ATTR(epoch_scale, "config:10-13");
PMU_FORMAT_ATTR(epoch_multiplier, "config:14-25");
PMU_FORMAT_ATTR(randomized_downsampling, "config:26-26");
PMU_FORMAT_ATTR(downsampling_factor, "config:27-34");
PMU_FORMAT_ATTR(hotness_threshold, "config1:0-31");
PMU_FORMAT_ATTR(hotness_granual, "config1:32-63");
PMU_FORMAT_ATTR(range_base, "config2:0-31");
PMU_FORMAT_ATTR(range_size, "config2:32-63");
/* not in the RFC: the CHMU CFG2 fill threshold, 0 = the device's default */
PMU_FORMAT_ATTR(fill_threshold, "config:48-63");

static struct attribute *cxl_hmu_format_attrs[] = {
	&format_attr_epoch_type.attr,
	&format_attr_access_type.attr,
	&format_attr_epoch_scale.attr,
	&format_attr_epoch_multiplier.attr,
	&format_attr_randomized_downsampling.attr,
	&format_attr_downsampling_factor.attr,
	&format_attr_hotness_threshold.attr,
	&format_attr_hotness_granual.attr,
	&format_attr_range_base.attr,
	&format_attr_range_size.attr,
	&format_attr_fill_threshold.attr,
	NULL
};

static const struct attribute_group cxl_hmu_format_group = {
	.name = "format",
	.attrs = cxl_hmu_format_attrs,
};

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct cxl_hmu_pmu *hmu = to_hmu(dev_get_drvdata(dev));

	return cpumap_print_to_pagebuf(true, buf, cpumask_of(hmu->dev->cpu));
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *cxl_hmu_cpumask_attrs[] = {
	&dev_attr_cpumask.attr,
	NULL
};

static const struct attribute_group cxl_hmu_cpumask_group = {
	.attrs = cxl_hmu_cpumask_attrs,
};

static const struct attribute_group *cxl_hmu_groups[] = {
	&cxl_hmu_format_group,
	&cxl_hmu_cpumask_group,
	NULL
};

/* Epoch scale code to microseconds (CXL r3.2 CHMU config 0). */
static const u64 cxl_hmu_scale_us[] = { 0, 100, 1000, 10000, 100000, 1000000 };

/* The shortest epoch the device supports, as scale and multiplier. */
static void cxl_hmu_min_epoch(const struct cxl_hmu_caps *caps, struct cxl_hmu_config *c)
{
	for (c->epoch_scale = 1; c->epoch_scale < ARRAY_SIZE(cxl_hmu_scale_us) - 1;
	     c->epoch_scale++)
		if (cxl_hmu_scale_us[c->epoch_scale] * 4095 >= caps->epoch_min_us)
			break;
	c->epoch_multiplier = DIV_ROUND_UP_ULL(caps->epoch_min_us,
					       cxl_hmu_scale_us[c->epoch_scale]);
}

/*
 * Decode and check every term.  As in the RFC, 0 asks for the device's
 * default where the RFC has one: downsampling_factor (log2) and
 * hotness_granual the smallest supported, epoch_scale and epoch_multiplier
 * both 0 the shortest epoch, range_size the whole device.  Each refusal says
 * why under dev_dbg, since perf itself can only report "Invalid argument".
 */
static int cxl_hmu_parse(const struct cxl_hmu_pmu *hmu, const struct perf_event_attr *attr,
			 struct cxl_hmu_config *c)
{
	const struct cxl_hmu_caps *caps = &hmu->dev->caps;
	struct device *dev = hmu->pmu.dev;
	u64 epoch_us;

	if (attr->config & GENMASK_ULL(47, 35)) {
		dev_dbg(dev, "reserved config bits 47:35 set: %#llx\n", attr->config);
		return -EINVAL;
	}
	c->epoch_type = attr->config & GENMASK_ULL(1, 0);
	c->access_type = (attr->config >> 2) & 0xff;
	c->epoch_scale = (attr->config >> 10) & 0xf;
	c->epoch_multiplier = (attr->config >> 14) & 0xfff;
	c->randomized_downsampling = (attr->config >> 26) & 1;
	c->downsampling_log2 = (attr->config >> 27) & 0xff;
	c->hotness_threshold = lower_32_bits(attr->config1);
	c->hotness_granual = upper_32_bits(attr->config1);
	c->range_base = lower_32_bits(attr->config2);
	c->range_size = upper_32_bits(attr->config2);
	c->fill_threshold = attr->config >> 48;
	c->counter_width = 0;

	if (c->epoch_type > 1 || (c->epoch_type == 1 && !caps->always_on)) {
		dev_dbg(dev, "epoch_type %u not supported\n", c->epoch_type);
		return -EINVAL;
	}
	if (c->access_type < 1 || c->access_type > 6) {
		dev_dbg(dev, "access_type %u not in 1..6\n", c->access_type);
		return -EINVAL;
	}
	if (c->epoch_type == 0) {
		if (!c->epoch_scale && !c->epoch_multiplier)
			cxl_hmu_min_epoch(caps, c);
		if (c->epoch_scale < 1 || c->epoch_scale > 5) {
			dev_dbg(dev, "epoch_scale %u not in 1..5\n", c->epoch_scale);
			return -EINVAL;
		}
		epoch_us = cxl_hmu_scale_us[c->epoch_scale] * c->epoch_multiplier;
		if (epoch_us < caps->epoch_min_us || epoch_us > caps->epoch_max_us) {
			dev_dbg(dev, "epoch %llu us outside %llu..%llu us\n", epoch_us,
				caps->epoch_min_us, caps->epoch_max_us);
			return -EINVAL;
		}
	}
	if (!c->downsampling_log2 && caps->downsampling_mask)
		c->downsampling_log2 = __ffs(caps->downsampling_mask);
	if (c->downsampling_log2 > 15 || !(caps->downsampling_mask & BIT(c->downsampling_log2))) {
		dev_dbg(dev, "downsampling_factor 2^%u not supported (mask %#x)\n",
			c->downsampling_log2, caps->downsampling_mask);
		return -EINVAL;
	}
	/* the upper bound depends on the counter width: checked after configure */
	if (c->hotness_threshold < 1) {
		dev_dbg(dev, "hotness_threshold 0\n");
		return -EINVAL;
	}
	if (!c->fill_threshold)
		c->fill_threshold = caps->fill_default;
	if (c->fill_threshold < 1 || c->fill_threshold > caps->hotlist_size) {
		dev_dbg(dev, "fill_threshold %u not in 1..%u\n", c->fill_threshold,
			caps->hotlist_size);
		return -EINVAL;
	}
	if (!c->hotness_granual && (caps->granual_mask & GENMASK_ULL(63, 8)))
		c->hotness_granual = __ffs64(caps->granual_mask & GENMASK_ULL(63, 8));
	if (c->hotness_granual < 8 || c->hotness_granual > 63 ||
	    !(caps->granual_mask & BIT_ULL(c->hotness_granual))) {
		dev_dbg(dev, "hotness_granual %u: unit size not supported (>= 8, mask %#llx)\n",
			c->hotness_granual, caps->granual_mask);
		return -EINVAL;
	}
	if (!c->range_size && c->range_base < caps->range_units)
		c->range_size = caps->range_units - c->range_base;
	if (!c->range_size || (u64)c->range_base + c->range_size > caps->range_units) {
		dev_dbg(dev, "range base %u size %u outside the device's %llu x 256 MiB\n",
			c->range_base, c->range_size, caps->range_units);
		return -EINVAL;
	}
	if (c->hotness_granual > CXL_HMU_RANGE_SHIFT + ilog2(c->range_size)) {
		dev_dbg(dev, "unit 2^%u bytes larger than the range\n", c->hotness_granual);
		return -EINVAL;
	}
	return 0;
}

/* process context, after the event's last del: give the device back */
static void cxl_hmu_event_destroy(struct perf_event *event)
{
	struct cxl_hmu_pmu *hmu = to_hmu(event->pmu);

	might_sleep();
	if (WARN_ON_ONCE(hmu->owner != event))
		return;
	hmu->dev->ops->release(hmu->dev);
	WRITE_ONCE(hmu->owner, NULL);
}

/*
 * Process context, may sleep: take the device for @event and program it.
 * One event holds it at a time (the PMU is exclusive, but the core checks
 * that only after event_init), so a second open gets EBUSY here.
 */
static int cxl_hmu_claim(struct cxl_hmu_pmu *hmu, struct perf_event *event,
			 struct cxl_hmu_config *cfg)
{
	const struct cxl_hmu_ops *ops = hmu->dev->ops;
	u64 maxcount;
	int ret;

	might_sleep();
	if (cmpxchg(&hmu->owner, NULL, event))
		return -EBUSY;
	ret = ops->acquire(hmu->dev);
	if (ret)
		goto free;
	ret = ops->configure(hmu->dev, cfg);
	if (!ret && (cfg->counter_width < 1 || cfg->counter_width > 63)) {
		dev_dbg(hmu->pmu.dev, "device counter width %u\n", cfg->counter_width);
		ret = -EIO;
	}
	maxcount = BIT_ULL(cfg->counter_width) - 1;
	if (!ret && cfg->hotness_threshold > maxcount) {
		dev_dbg(hmu->pmu.dev, "hotness_threshold %u not in 1..%llu (unit 2^%u)\n",
			cfg->hotness_threshold, maxcount, cfg->hotness_granual);
		ret = -EINVAL;
	}
	if (!ret) {
		hmu->cfg = *cfg;
		WRITE_ONCE(hmu->lost, 0);
		return 0;
	}
	ops->release(hmu->dev);
free:
	WRITE_ONCE(hmu->owner, NULL);
	return ret;
}

static int cxl_hmu_event_init(struct perf_event *event)
{
	struct cxl_hmu_pmu *hmu = to_hmu(event->pmu);
	struct cxl_hmu_config cfg;
	int ret;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (event->attach_state & PERF_ATTACH_TASK || event->cpu < 0) {
		dev_dbg(hmu->pmu.dev, "per-task mode not supported\n");
		return -EOPNOTSUPP;
	}
	if (event->cpu != hmu->dev->cpu) {
		dev_dbg(hmu->pmu.dev, "cpu %d not in cpumask (%d)\n", event->cpu,
			hmu->dev->cpu);
		return -EINVAL;
	}
	/* freq mode restarts the event every tick, and with it the epoch */
	if (event->attr.freq) {
		dev_dbg(hmu->pmu.dev, "frequency mode not supported\n");
		return -EINVAL;
	}
	ret = cxl_hmu_parse(hmu, &event->attr, &cfg);
	if (!ret)
		ret = cxl_hmu_claim(hmu, event, &cfg);
	if (ret)
		return ret;
	event->destroy = cxl_hmu_event_destroy;
	return 0;
}

/*
 * Copy the hotlist into the AUX buffer, one packet per call unless the buffer
 * end (or the 0xffff entry limit of a header) splits it.  Runs with IRQs off
 * on the event's CPU, with hmu->handle active.  Returns the bytes written.
 * Entries that find no room stay in the hotlist for the next window: nothing
 * is lost, so nothing is flagged TRUNCATED.
 */
static unsigned long cxl_hmu_fill_aux(struct cxl_hmu_pmu *hmu)
{
	struct perf_output_handle *h = &hmu->handle;
	struct hwt_aux_buf *buf = perf_get_aux(h);
	const struct cxl_hmu_ops *ops = hmu->dev->ops;
	unsigned long written = 0;
	u32 pending;

	if (!buf)
		return 0;
	while ((pending = ops->hotlist_fill(hmu->dev))) {
		unsigned long off = (h->head + written) & (buf->size - 1);
		unsigned long to_end = buf->size - off;
		unsigned long free = h->size - written;
		unsigned long room = min(to_end, free) & ~7UL;
		__le64 *pkt = buf->base + off;
		u32 n, got;

		if (to_end < CXL_HMU_HDR_SIZE + 8 && free > to_end) {
			/*
			 * No whole packet fits before the end: leave the tail
			 * unused (zeroed, outside every AUX record).  Skipping
			 * needs the handle to hold no unreported data.
			 */
			if (written)
				break;
			memset(pkt, 0, to_end);
			if (perf_aux_output_skip(h, to_end))
				break;
			continue;
		}
		if (room < CXL_HMU_HDR_SIZE + 8)
			break;
		n = min_t(unsigned long, pending, (room - CXL_HMU_HDR_SIZE) / 8);
		n = min_t(u32, n, CXL_HMU_MAX_UNITS);
		got = ops->drain(hmu->dev, (u64 *)(pkt + 2), n);
		if (!got)
			break;
		/* little-endian, whatever the CPU */
		for (n = 0; n < got; n++)
			pkt[2 + n] = cpu_to_le64(((u64 *)pkt)[2 + n]);
		pkt[0] = cpu_to_le64(got | (u64)hmu->cfg.counter_width << 16);
		pkt[1] = cpu_to_le64(CXL_HMU_HDR1);
		written += CXL_HMU_HDR_SIZE + (unsigned long)got * 8;
	}
	return written;
}

/*
 * Publish what the hotlist holds and open the next output window, which also
 * picks up the room the reader has made since.  When no window can be opened
 * the device keeps running: its hotlist holds the entries and the next
 * interrupt tries again.
 */
static void cxl_hmu_update_aux(struct cxl_hmu_pmu *hmu, bool restart)
{
	struct perf_output_handle *h = &hmu->handle;

	if (h->event) {
		unsigned long len = cxl_hmu_fill_aux(hmu);

		/* the record that ends where the device dropped units */
		if (xchg(&hmu->lost, 0))
			perf_aux_output_flag(h, PERF_AUX_FLAG_TRUNCATED);
		perf_aux_output_end(h, len);
	}
	if (restart && !perf_aux_output_begin(h, hmu->event))
		dev_dbg(hmu->pmu.dev, "AUX buffer full\n");
}

void cxl_hmu_pmu_irq(struct cxl_hmu_dev *dev, bool lost)
{
	struct cxl_hmu_pmu *hmu = dev->pmu;
	struct perf_event *event;

	if (!hmu)
		return;
	event = READ_ONCE(hmu->event);
	/*
	 * Stopped: the device was disabled first, and stop read every loss
	 * from the status then; this is that loss's late interrupt.
	 */
	if (!event)
		return;
	if (lost)
		WRITE_ONCE(hmu->lost, 1);
	/*
	 * Routed ahead of the event while CPU hotplug moves it: the entries
	 * wait in the hotlist, the loss in @lost.
	 */
	if (event->cpu != smp_processor_id())
		return;
	hwt_aux_assert_context(event);
	if (READ_ONCE(hmu->lost) && hmu->handle.event) {
		/* real loss: as arm_spe_pmu, stop until the event is started again */
		dev->ops->stop(dev);	/* the loss is being reported */
		cxl_hmu_update_aux(hmu, false);
		event->hw.state = PERF_HES_STOPPED;
		WRITE_ONCE(hmu->event, NULL);
		return;
	}
	cxl_hmu_update_aux(hmu, true);
	/* Room left only at the start of the buffer: one more window. */
	if (hmu->handle.event && dev->ops->hotlist_fill(dev))
		cxl_hmu_update_aux(hmu, true);
}

static void cxl_hmu_start(struct perf_event *event, int flags)
{
	struct cxl_hmu_pmu *hmu = to_hmu(event->pmu);

	hwt_aux_assert_context(event);
	/* no AUX buffer or no room: stay off, as arm_spe_pmu does */
	if (!perf_aux_output_begin(&hmu->handle, event)) {
		dev_dbg(hmu->pmu.dev, "start: no room in the AUX buffer\n");
		event->hw.state = PERF_HES_STOPPED;
		return;
	}
	if (hmu->dev->ops->start(hmu->dev)) {
		perf_aux_output_end(&hmu->handle, 0);
		event->hw.state = PERF_HES_STOPPED;
		return;
	}
	event->hw.state = 0;
	WRITE_ONCE(hmu->event, event);
}

static void cxl_hmu_stop(struct perf_event *event, int flags)
{
	struct cxl_hmu_pmu *hmu = to_hmu(event->pmu);

	hwt_aux_assert_context(event);
	if (!hmu->event)
		return;
	if (hmu->dev->ops->stop(hmu->dev))
		WRITE_ONCE(hmu->lost, 1);
	/* Like the RFC: what the hotlist holds at stop still reaches the buffer. */
	cxl_hmu_update_aux(hmu, false);
	WRITE_ONCE(hmu->event, NULL);
	event->hw.state = PERF_HES_STOPPED;
}

static int cxl_hmu_add(struct perf_event *event, int flags)
{
	/* the device was configured for this event in event_init */
	event->hw.state = PERF_HES_STOPPED;
	if (flags & PERF_EF_START)
		cxl_hmu_start(event, 0);
	return 0;
}

static void cxl_hmu_del(struct perf_event *event, int flags)
{
	cxl_hmu_stop(event, PERF_EF_UPDATE);
}

static void cxl_hmu_read(struct perf_event *event)
{
	/* Nothing to count: the data is in the AUX buffer. */
}

static void *cxl_hmu_setup_aux(struct perf_event *event, void **pages, int nr_pages,
			       bool overwrite)
{
	/* packets are cut at the buffer end: any buffer holds two */
	return hwt_aux_setup(event, pages, nr_pages, overwrite, CXL_HMU_HDR_SIZE + 8);
}

/* cpuhp teardown of the PMU's CPU: the interrupt goes where the events go */
static void cxl_hmu_moved(struct hwt_hotplug *hp, unsigned int cpu)
{
	struct cxl_hmu_pmu *hmu = container_of(hp, struct cxl_hmu_pmu, hotplug);

	hmu->dev->ops->set_irq_cpu(hmu->dev, cpu);
}

int cxl_hmu_pmu_add(struct cxl_hmu_dev *dev)
{
	struct cxl_hmu_pmu *hmu;
	int ret;

	might_sleep();
	if (!dev->ops || !dev->caps.hotlist_size || !hwt_cpu_usable(dev->cpu))
		return -EINVAL;
	hmu = kzalloc(sizeof(*hmu), GFP_KERNEL);
	if (!hmu)
		return -ENOMEM;
	snprintf(hmu->name, sizeof(hmu->name), "cxl_hmu_mem%d.%d.%d", dev->memdev, dev->chmu,
		 dev->instance);
	hmu->dev = dev;
	hmu->pmu = (struct pmu) {
		.module = THIS_MODULE,
		.attr_groups = cxl_hmu_groups,
		.task_ctx_nr = perf_invalid_context,
		.capabilities = PERF_PMU_CAP_EXCLUSIVE | PERF_PMU_CAP_NO_EXCLUDE,
		.event_init = cxl_hmu_event_init,
		.add = cxl_hmu_add,
		.del = cxl_hmu_del,
		.start = cxl_hmu_start,
		.stop = cxl_hmu_stop,
		.read = cxl_hmu_read,
		.setup_aux = cxl_hmu_setup_aux,
		.free_aux = hwt_aux_free,
	};
	dev->pmu = hmu;
	hmu->hotplug.moved = cxl_hmu_moved;
	dev->ops->set_irq_cpu(dev, dev->cpu);
	ret = perf_pmu_register(&hmu->pmu, hmu->name, -1);
	if (!ret) {
		ret = hwt_hotplug_add(&hmu->hotplug, "perf/cxl_hmu:online", &hmu->pmu, &dev->cpu);
		if (ret)
			perf_pmu_unregister(&hmu->pmu);
	}
	if (ret) {
		dev->pmu = NULL;
		kfree(hmu);
		return ret;
	}
	return 0;
}

void cxl_hmu_pmu_remove(struct cxl_hmu_dev *dev)
{
	struct cxl_hmu_pmu *hmu = dev->pmu;

	if (!hmu)
		return;
	hwt_hotplug_remove(&hmu->hotplug);
	perf_pmu_unregister(&hmu->pmu);
	dev->pmu = NULL;
	/*
	 * Every event holds a reference on this module (pmu.module), also
	 * while only its AUX mapping is left, so none is live when the
	 * module's exit gets here.  A backend whose device can be unbound
	 * must set suppress_bind_attrs or free on release instead.
	 */
	kfree(hmu);
}
