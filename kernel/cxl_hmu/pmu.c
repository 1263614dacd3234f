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
 * A packet never straddles the end of the AUX buffer and is never empty.  When
 * the buffer is full the remaining entries stay in the hotlist and the record
 * is flagged TRUNCATED.  The device itself is behind struct cxl_hmu_ops.
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
#include "backend.h"

#define CXL_HMU_HDR_SIZE	16
#define CXL_HMU_HDR1		0xdeadbeefULL
#define CXL_HMU_MAX_UNITS	0xffff		/* hdr0 bits 15:0 */
/* 256 MiB, the unit of range_base and range_size */
#define CXL_HMU_RANGE_SHIFT	28

/**
 * struct cxl_hmu_pmu - one registered PMU
 * @pmu:	perf's view
 * @dev:	the backend's device
 * @handle:	AUX output handle of the running event (one: PMU is exclusive)
 * @event:	the started event, NULL when stopped
 * @full_reported: TRUNCATED already sent for the current overrun
 * @owner:	event the backend is configured for
 * @cfg:	terms of @owner
 * @name:	cxl_hmu_mem<X>.<Y>.<Z>
 */
struct cxl_hmu_pmu {
	struct pmu pmu;
	struct cxl_hmu_dev *dev;
	struct perf_output_handle handle;
	struct perf_event *event;
	bool full_reported;
	struct perf_event *owner;
	struct cxl_hmu_config cfg;
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

/*
 * Decode and check every term.  Each refusal says why under pr_debug, since
 * perf itself can only report "Invalid argument".
 */
static int cxl_hmu_parse(const struct cxl_hmu_pmu *hmu, const struct perf_event_attr *attr,
			 struct cxl_hmu_config *c)
{
	const struct cxl_hmu_caps *caps = &hmu->dev->caps;
	u64 maxcount = BIT_ULL(caps->counter_width) - 1;
	u64 epoch_us;

	if (attr->config & GENMASK_ULL(63, 35)) {
		pr_debug("%s: reserved config bits 63:35 set: %#llx\n", hmu->name, attr->config);
		return -EINVAL;
	}
	c->epoch_type = attr->config & GENMASK_ULL(1, 0);
	c->access_type = (attr->config >> 2) & 0xff;
	c->epoch_scale = (attr->config >> 10) & 0xf;
	c->epoch_multiplier = (attr->config >> 14) & 0xfff;
	c->randomized_downsampling = (attr->config >> 26) & 1;
	c->downsampling_factor = (attr->config >> 27) & 0xff;
	c->hotness_threshold = lower_32_bits(attr->config1);
	c->hotness_granual = upper_32_bits(attr->config1);
	c->range_base = lower_32_bits(attr->config2);
	c->range_size = upper_32_bits(attr->config2);

	if (c->epoch_type > 1 || (c->epoch_type == 1 && !caps->always_on)) {
		pr_debug("%s: epoch_type %u not supported\n", hmu->name, c->epoch_type);
		return -EINVAL;
	}
	if (c->access_type < 1 || c->access_type > 6) {
		pr_debug("%s: access_type %u not in 1..6\n", hmu->name, c->access_type);
		return -EINVAL;
	}
	if (c->epoch_type == 0) {
		if (c->epoch_scale < 1 || c->epoch_scale > 5) {
			pr_debug("%s: epoch_scale %u not in 1..5\n", hmu->name, c->epoch_scale);
			return -EINVAL;
		}
		epoch_us = cxl_hmu_scale_us[c->epoch_scale] * c->epoch_multiplier;
		if (epoch_us < caps->epoch_min_us || epoch_us > caps->epoch_max_us) {
			pr_debug("%s: epoch %llu us outside %llu..%llu us\n", hmu->name,
				 epoch_us, caps->epoch_min_us, caps->epoch_max_us);
			return -EINVAL;
		}
	}
	if (!is_power_of_2(c->downsampling_factor) ||
	    !(caps->downsampling_mask & BIT(ilog2(c->downsampling_factor)))) {
		pr_debug("%s: downsampling_factor %u not supported (mask %#x)\n", hmu->name,
			 c->downsampling_factor, caps->downsampling_mask);
		return -EINVAL;
	}
	if (c->hotness_threshold < 1 || c->hotness_threshold > maxcount) {
		pr_debug("%s: hotness_threshold %u not in 1..%llu\n", hmu->name,
			 c->hotness_threshold, maxcount);
		return -EINVAL;
	}
	if (c->hotness_granual < 8 || c->hotness_granual > 63 ||
	    !(caps->granual_mask & BIT_ULL(c->hotness_granual))) {
		pr_debug("%s: hotness_granual %u: unit size not supported (>= 8, mask %#llx)\n",
			 hmu->name, c->hotness_granual, caps->granual_mask);
		return -EINVAL;
	}
	if (!c->range_size || (u64)c->range_base + c->range_size > caps->range_units) {
		pr_debug("%s: range base %u size %u outside the device's %llu x 256 MiB\n",
			 hmu->name, c->range_base, c->range_size, caps->range_units);
		return -EINVAL;
	}
	if (c->hotness_granual > CXL_HMU_RANGE_SHIFT + ilog2(c->range_size)) {
		pr_debug("%s: unit 2^%u bytes larger than the range\n", hmu->name,
			 c->hotness_granual);
		return -EINVAL;
	}
	return 0;
}

static void cxl_hmu_event_destroy(struct perf_event *event)
{
	struct cxl_hmu_pmu *hmu = to_hmu(event->pmu);

	cmpxchg(&hmu->owner, event, NULL);
}

static int cxl_hmu_event_init(struct perf_event *event)
{
	struct cxl_hmu_pmu *hmu = to_hmu(event->pmu);
	struct cxl_hmu_config cfg;
	int ret;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (event->attach_state & PERF_ATTACH_TASK || event->cpu < 0) {
		pr_debug("%s: per-task mode not supported\n", hmu->name);
		return -EOPNOTSUPP;
	}
	if (event->cpu != hmu->dev->cpu) {
		pr_debug("%s: cpu %d not in cpumask (%d)\n", hmu->name, event->cpu,
			 hmu->dev->cpu);
		return -EINVAL;
	}
	ret = cxl_hmu_parse(hmu, &event->attr, &cfg);
	if (ret)
		return ret;
	event->destroy = cxl_hmu_event_destroy;
	return 0;
}

/* Entries had to stay in the hotlist: say so once per overrun, not per epoch. */
static void cxl_hmu_truncated(struct cxl_hmu_pmu *hmu)
{
	if (hmu->full_reported)
		return;
	perf_aux_output_flag(&hmu->handle, PERF_AUX_FLAG_TRUNCATED);
	hmu->full_reported = true;
}

/*
 * Copy the hotlist into the AUX buffer, one packet per call unless the buffer
 * end splits it.  Runs with IRQs off on the event's CPU, with hmu->handle
 * active.  Returns the bytes written; sets TRUNCATED when entries had to stay
 * behind because the buffer is full.
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
		u64 *pkt = buf->base + off;
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
		if (room < CXL_HMU_HDR_SIZE + 8) {
			cxl_hmu_truncated(hmu);
			break;
		}
		n = min_t(unsigned long, pending, (room - CXL_HMU_HDR_SIZE) / 8);
		n = min_t(u32, n, CXL_HMU_MAX_UNITS);
		got = ops->drain(hmu->dev, pkt + 2, n);
		if (!got)
			break;
		pkt[0] = got | (u64)hmu->dev->caps.counter_width << 16;
		pkt[1] = CXL_HMU_HDR1;
		written += CXL_HMU_HDR_SIZE + (unsigned long)got * 8;
		hmu->full_reported = false;
		if (got < pending && free <= to_end) {
			cxl_hmu_truncated(hmu);
			break;
		}
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

	if (h->event)
		perf_aux_output_end(h, cxl_hmu_fill_aux(hmu));
	if (restart && !perf_aux_output_begin(h, hmu->event))
		pr_debug("%s: AUX buffer full\n", hmu->name);
}

void cxl_hmu_pmu_irq(struct cxl_hmu_dev *dev)
{
	struct cxl_hmu_pmu *hmu = dev->pmu;

	if (!hmu || !hmu->event)
		return;
	cxl_hmu_update_aux(hmu, true);
	/* Room left only at the start of the buffer: one more window. */
	if (hmu->handle.event && dev->ops->hotlist_fill(dev))
		cxl_hmu_update_aux(hmu, true);
}
EXPORT_SYMBOL_GPL(cxl_hmu_pmu_irq);

static void cxl_hmu_start(struct perf_event *event, int flags)
{
	struct cxl_hmu_pmu *hmu = to_hmu(event->pmu);

	event->hw.state = 0;
	hmu->event = event;
	hmu->full_reported = false;
	if (!perf_aux_output_begin(&hmu->handle, event))
		pr_debug("%s: start: AUX buffer full\n", hmu->name);
	hmu->dev->ops->start(hmu->dev);
}

static void cxl_hmu_stop(struct perf_event *event, int flags)
{
	struct cxl_hmu_pmu *hmu = to_hmu(event->pmu);

	if (!hmu->event)
		return;
	hmu->dev->ops->stop(hmu->dev);
	/* Like the RFC: what the hotlist holds at stop still reaches the buffer. */
	cxl_hmu_update_aux(hmu, false);
	hmu->event = NULL;
	event->hw.state = PERF_HES_STOPPED;
}

static int cxl_hmu_add(struct perf_event *event, int flags)
{
	struct cxl_hmu_pmu *hmu = to_hmu(event->pmu);
	int ret;

	if (hmu->owner != event) {
		/* Terms were checked at init; re-decode what the backend needs. */
		ret = cxl_hmu_parse(hmu, &event->attr, &hmu->cfg);
		if (!ret)
			ret = hmu->dev->ops->configure(hmu->dev, &hmu->cfg);
		if (ret)
			return ret;
		hmu->owner = event;
	}
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
	struct cxl_hmu_pmu *hmu = to_hmu(event->pmu);

	if (overwrite)
		pr_debug("%s: overwrite mode is not supported\n", hmu->name);
	return hwt_aux_setup(pages, nr_pages, overwrite);
}

int cxl_hmu_pmu_add(struct cxl_hmu_dev *dev)
{
	struct cxl_hmu_pmu *hmu;
	int ret;

	if (!dev->ops || dev->caps.counter_width < 1 || dev->caps.counter_width > 32 ||
	    !cpu_online(dev->cpu))
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
	ret = perf_pmu_register(&hmu->pmu, hmu->name, -1);
	if (ret) {
		dev->pmu = NULL;
		kfree(hmu);
		return ret;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(cxl_hmu_pmu_add);

void cxl_hmu_pmu_remove(struct cxl_hmu_dev *dev)
{
	struct cxl_hmu_pmu *hmu = dev->pmu;

	if (!hmu)
		return;
	perf_pmu_unregister(&hmu->pmu);
	dev->pmu = NULL;
	kfree(hmu);
}
EXPORT_SYMBOL_GPL(cxl_hmu_pmu_remove);
