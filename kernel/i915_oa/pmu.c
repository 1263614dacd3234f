// SPDX-License-Identifier: GPL-2.0
/*
 * pmu.c - i915 OA PMU with AUX output (design.rst 4.3).
 *
 * The AUX buffer receives the byte stream read() on an i915 perf fd returns:
 * records {u32 type; u16 pad; u16 size} followed by their body.  SAMPLE (1)
 * carries one raw OA report; OA_REPORT_LOST (2) and OA_BUFFER_LOST (3),
 * written just before the first report after the loss, carry none.  A report
 * and the loss records before it are written together and never straddle
 * the end of the AUX buffer.  Reports that do not fit stay in the OA buffer.
 * Only when that buffer has lost reports (real loss) is the record flagged
 * TRUNCATED; the PMU then stops, as arm_spe_pmu does, until the event is
 * enabled again: the same on every CPU and whether or not the core disables
 * the event on TRUNCATED.  What the OA buffer holds at stop still reaches
 * the AUX buffer.  The OA unit is behind struct i915_oa_ops: acquired and
 * configured in event_init, where errors reach perf_event_open, and given
 * back in the event's destroy.
 *
 * The caps/ directory of the PMU exports the device words a recorder puts
 * into AUXTRACE_INFO priv[] (Documentation/kernel.rst).
 */
#define pr_fmt(fmt) "i915_oa: " fmt

#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <asm/unaligned.h>

#include "../common/aux.h"
#include "../common/hotplug.h"
#include "../common/owner.h"
#include "../common/params.h"
#include "backend.h"

#define OA_REC_SAMPLE		1
#define OA_REC_REPORT_LOST	2
#define OA_REC_BUFFER_LOST	3
#define OA_REC_HDR		8
#define OA_EXPONENT_MAX		31	/* i915's OA_EXPONENT_MAX */

/**
 * struct i915_oa_pmu - one registered PMU
 * @pmu:	perf's view
 * @hotplug:	moves the events off the CPU when it goes offline
 * @dev:	the backend's device
 * @handle:	AUX output handle of the running event (the PMU is exclusive)
 * @event:	the started event, NULL when stopped
 * @owner:	event that holds the backend (acquire .. release)
 * @report_size: bytes per report of @owner's format
 * @staged:	@report was read from the OA buffer but not written yet
 * @lost:	I915_OA_LOST_* flags preceding @report
 * @report:	the staged report
 * @name:	i915_oa<N>
 */
struct i915_oa_pmu {
	struct pmu pmu;
	struct hwt_hotplug hotplug;
	struct i915_oa_dev *dev;
	struct perf_output_handle handle;
	struct perf_event *event;
	struct perf_event *owner;
	u32 report_size;
	bool staged;
	u32 lost;
	u8 report[I915_OA_MAX_REPORT];
	char name[32];
};

#define to_op(p) container_of(p, struct i915_oa_pmu, pmu)

PMU_FORMAT_ATTR(oa_format, "config:0-7");
PMU_FORMAT_ATTR(oa_exponent, "config:8-13");
/* not in i915's uAPI: reports in the OA buffer before the poll, 0 = 1 */
PMU_FORMAT_ATTR(fill_threshold, "config:16-23");

static struct attribute *op_format_attrs[] = {
	&format_attr_oa_format.attr,
	&format_attr_oa_exponent.attr,
	&format_attr_fill_threshold.attr,
	NULL
};

static const struct attribute_group op_format_group = {
	.name = "format",
	.attrs = op_format_attrs,
};

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct i915_oa_pmu *op = to_op(dev_get_drvdata(dev));

	return cpumap_print_to_pagebuf(true, buf, cpumask_of(op->dev->cpu));
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *op_cpumask_attrs[] = {
	&dev_attr_cpumask.attr,
	NULL
};

static const struct attribute_group op_cpumask_group = {
	.attrs = op_cpumask_attrs,
};

/* caps/@name: field @field of the device's caps, as @fmt */
#define OP_CAP_ATTR(name, fmt, field) \
	static ssize_t name##_show(struct device *dev, struct device_attribute *attr, \
				   char *buf) \
	{ \
		return sysfs_emit(buf, fmt "\n", to_op(dev_get_drvdata(dev))->dev->caps.field); \
	} \
	static DEVICE_ATTR_RO(name)

OP_CAP_ATTR(devid, "%#x", devid);
OP_CAP_ATTR(graphics_ver, "%u", graphics_ver);
OP_CAP_ATTR(ts_freq, "%llu", ts_freq);
OP_CAP_ATTR(revision, "%u", revision);
OP_CAP_ATTR(gt_min, "%llu", gt_min_hz);
OP_CAP_ATTR(gt_max, "%llu", gt_max_hz);
OP_CAP_ATTR(topology_size, "%u", topology_size);

/*
 * A blob as 64-bit words, as the recorder reads caps/ (numbers only):
 * word N is bytes 8N..8N+7, little-endian, in "topology.N" and "uuid.N".
 */
struct op_word_attr {
	struct device_attribute attr;
	unsigned int word;
	bool uuid;		/* of caps->metric_set, else of caps->topology */
};

static ssize_t word_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	const struct i915_oa_caps *caps = &to_op(dev_get_drvdata(dev))->dev->caps;
	const struct op_word_attr *wa = container_of(attr, struct op_word_attr, attr);
	const u8 *blob = wa->uuid ? (const u8 *)caps->metric_set : caps->topology;

	return sysfs_emit(buf, "%#llx\n", get_unaligned_le64(blob + 8 * wa->word));
}

#define OP_WORD_ATTR(blob, n, is_uuid) \
	static struct op_word_attr op_##blob##_##n = { \
		.attr = { .attr = { .name = #blob "." #n, .mode = 0444 }, .show = word_show }, \
		.word = n, .uuid = is_uuid, \
	}

OP_WORD_ATTR(topology, 0, false);
OP_WORD_ATTR(topology, 1, false);
OP_WORD_ATTR(topology, 2, false);
OP_WORD_ATTR(topology, 3, false);
OP_WORD_ATTR(topology, 4, false);
OP_WORD_ATTR(topology, 5, false);
OP_WORD_ATTR(topology, 6, false);
OP_WORD_ATTR(topology, 7, false);
OP_WORD_ATTR(topology, 8, false);
OP_WORD_ATTR(topology, 9, false);
OP_WORD_ATTR(topology, 10, false);
OP_WORD_ATTR(topology, 11, false);
OP_WORD_ATTR(uuid, 0, true);
OP_WORD_ATTR(uuid, 1, true);
OP_WORD_ATTR(uuid, 2, true);
OP_WORD_ATTR(uuid, 3, true);
OP_WORD_ATTR(uuid, 4, true);
static_assert(12 * 8 == I915_OA_TOPOLOGY_MAX && 5 * 8 == I915_OA_UUID_LEN);

static struct attribute *op_caps_attrs[] = {
	&dev_attr_devid.attr,
	&dev_attr_graphics_ver.attr,
	&dev_attr_ts_freq.attr,
	&dev_attr_revision.attr,
	&dev_attr_gt_min.attr,
	&dev_attr_gt_max.attr,
	&dev_attr_topology_size.attr,
	&op_topology_0.attr.attr, &op_topology_1.attr.attr, &op_topology_2.attr.attr,
	&op_topology_3.attr.attr, &op_topology_4.attr.attr, &op_topology_5.attr.attr,
	&op_topology_6.attr.attr, &op_topology_7.attr.attr, &op_topology_8.attr.attr,
	&op_topology_9.attr.attr, &op_topology_10.attr.attr, &op_topology_11.attr.attr,
	&op_uuid_0.attr.attr, &op_uuid_1.attr.attr, &op_uuid_2.attr.attr,
	&op_uuid_3.attr.attr, &op_uuid_4.attr.attr,
	NULL
};

static const struct attribute_group op_caps_group = {
	.name = "caps",
	.attrs = op_caps_attrs,
};

static const struct attribute_group *op_groups[] = {
	&op_format_group,
	&op_cpumask_group,
	&op_caps_group,
	NULL
};

static int op_parse(const struct i915_oa_pmu *op, const struct perf_event_attr *attr,
		    struct i915_oa_config *cfg)
{
	const struct i915_oa_caps *caps = &op->dev->caps;

	if ((attr->config & ~(GENMASK_ULL(13, 0) | GENMASK_ULL(23, 16))) || attr->config1 ||
	    attr->config2) {
		dev_dbg(op->pmu.dev, "reserved config bits set: %#llx %#llx %#llx\n",
			attr->config, attr->config1, attr->config2);
		return -EINVAL;
	}
	cfg->format = attr->config & 0xff;
	cfg->exponent = (attr->config >> 8) & 0x3f;
	cfg->fill_threshold = (attr->config >> 16) & 0xff ?: 1;
	if (cfg->format >= 16 || !(caps->formats & BIT(cfg->format)) ||
	    !caps->report_size[cfg->format]) {
		dev_dbg(op->pmu.dev, "oa_format %u not supported (mask %#x)\n", cfg->format,
			caps->formats);
		return -EINVAL;
	}
	if (cfg->exponent < caps->min_exponent || cfg->exponent > OA_EXPONENT_MAX) {
		dev_dbg(op->pmu.dev, "oa_exponent %u not in %u..%u\n", cfg->exponent,
			caps->min_exponent, OA_EXPONENT_MAX);
		return -EINVAL;
	}
	if (cfg->fill_threshold > caps->oa_buffer_reports) {
		dev_dbg(op->pmu.dev, "fill_threshold %u not in 1..%u\n", cfg->fill_threshold,
			caps->oa_buffer_reports);
		return -EINVAL;
	}
	return 0;
}

/* process context, after the event's last del: give the device back */
static void op_event_destroy(struct perf_event *event)
{
	struct i915_oa_pmu *op = to_op(event->pmu);

	if (!hwt_owner_destroy(&op->owner, event))
		return;
	op->dev->ops->release(op->dev);
	hwt_owner_unclaim(&op->owner);
}

/* Process context, may sleep: take the OA unit for @event and program it. */
static int op_claim(struct i915_oa_pmu *op, struct perf_event *event,
		    const struct i915_oa_config *cfg)
{
	const struct i915_oa_ops *ops = op->dev->ops;
	int ret = hwt_owner_claim(&op->owner, event);

	if (ret)
		return ret;
	ret = ops->acquire(op->dev);
	if (ret)
		goto free;
	ret = ops->configure(op->dev, cfg);
	if (!ret) {
		op->report_size = op->dev->caps.report_size[cfg->format];
		op->staged = false;
		return 0;
	}
	ops->release(op->dev);
free:
	hwt_owner_unclaim(&op->owner);
	return ret;
}

static int op_event_init(struct perf_event *event)
{
	struct i915_oa_pmu *op = to_op(event->pmu);
	struct i915_oa_config cfg;
	int ret;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (event->attach_state & PERF_ATTACH_TASK || event->cpu < 0) {
		dev_dbg(op->pmu.dev, "per-task mode not supported\n");
		return -EOPNOTSUPP;
	}
	if (event->cpu != op->dev->cpu) {
		dev_dbg(op->pmu.dev, "cpu %d not in cpumask (%d)\n", event->cpu, op->dev->cpu);
		return -EINVAL;
	}
	/* freq mode restarts the event every tick */
	if (event->attr.freq) {
		dev_dbg(op->pmu.dev, "frequency mode not supported\n");
		return -EINVAL;
	}
	ret = op_parse(op, &event->attr, &cfg);
	if (!ret)
		ret = op_claim(op, event, &cfg);
	if (ret)
		return ret;
	event->destroy = op_event_destroy;
	return 0;
}

static u8 *op_put_hdr(u8 *p, u32 type, u16 size)
{
	put_unaligned_le32(type, p);
	put_unaligned_le16(0, p + 4);
	put_unaligned_le16(size, p + 6);
	return p + OA_REC_HDR;
}

/* The staged report and its loss records as one contiguous unit. */
static unsigned long op_unit_len(const struct i915_oa_pmu *op)
{
	return OA_REC_HDR * (hweight32(op->lost & 3) + 1) + op->report_size;
}

static void op_write_unit(struct i915_oa_pmu *op, u8 *p)
{
	if (op->lost & I915_OA_LOST_BUFFER)
		p = op_put_hdr(p, OA_REC_BUFFER_LOST, OA_REC_HDR);
	if (op->lost & I915_OA_LOST_REPORT)
		p = op_put_hdr(p, OA_REC_REPORT_LOST, OA_REC_HDR);
	p = op_put_hdr(p, OA_REC_SAMPLE, OA_REC_HDR + op->report_size);
	memcpy(p, op->report, op->report_size);
}

/*
 * Move what the OA buffer holds into the AUX buffer, up to the first report
 * that follows a loss.  @restart (the poll): open the next window, unless a
 * loss was written.  Returns whether one was (the record is then flagged
 * TRUNCATED and the caller stops the device).
 */
static bool op_drain(struct i915_oa_pmu *op, struct perf_event *event, bool restart)
{
	const struct i915_oa_ops *ops = op->dev->ops;
	struct perf_output_handle *h = &op->handle;
	unsigned long written = 0, len;
	bool reopened = false, lost = false;
	void *p;

	if (!h->event && !perf_aux_output_begin(h, event))
		return false;
	while (!lost) {
		if (!op->staged) {
			if (!ops->pending(op->dev))
				break;
			op->lost = ops->read(op->dev, op->report);
			op->staged = true;
		}
		len = op_unit_len(op);
		p = hwt_aux_reserve(h, written, len);
		if (p == HWT_AUX_REOPEN || (!p && !reopened)) {
			/* publish, then reopen: skips the tail or sees the reader's progress */
			reopened |= !p;
			perf_aux_output_end(h, written);
			written = 0;
			if (!perf_aux_output_begin(h, event))
				return false;
			continue;
		}
		if (!p)
			break;	/* no room: the rest waits in the OA buffer */
		op_write_unit(op, p);
		written += len;
		op->staged = false;
		lost = op->lost;
	}
	/* the record ends with the loss records: it is where data is missing */
	if (lost)
		perf_aux_output_flag(h, PERF_AUX_FLAG_TRUNCATED);
	perf_aux_output_end(h, written);
	if (restart && !lost)
		perf_aux_output_begin(h, event);
	return lost;
}

void i915_oa_pmu_poll(struct i915_oa_dev *dev)
{
	struct i915_oa_pmu *op = dev->pmu;
	struct perf_event *event;

	if (!op)
		return;
	/* stopped, or run ahead of a migrating event: the reports wait */
	event = hwt_irq_event(READ_ONCE(op->event));
	if (!event)
		return;
	hwt_aux_assert_context(event);
	if (op_drain(op, event, true)) {
		/* reports were lost: as arm_spe_pmu, stop until started again */
		dev->ops->stop(dev);
		event->hw.state = PERF_HES_STOPPED;
		WRITE_ONCE(op->event, NULL);
	}
}

static void op_start(struct perf_event *event, int flags)
{
	struct i915_oa_pmu *op = to_op(event->pmu);

	hwt_aux_assert_context(event);
	/* no AUX buffer or no room: stay off, as arm_spe_pmu does */
	if (!perf_aux_output_begin(&op->handle, event)) {
		dev_dbg(op->pmu.dev, "start: no room in the AUX buffer\n");
		event->hw.state = PERF_HES_STOPPED;
		return;
	}
	if (op->dev->ops->start(op->dev)) {
		dev_dbg(op->pmu.dev, "start: the OA unit did not start\n");
		perf_aux_output_end(&op->handle, 0);
		event->hw.state = PERF_HES_STOPPED;
		return;
	}
	event->hw.state = 0;
	WRITE_ONCE(op->event, event);
}

static void op_stop(struct perf_event *event, int flags)
{
	struct i915_oa_pmu *op = to_op(event->pmu);

	hwt_aux_assert_context(event);
	if (!op->event)
		return;
	op->dev->ops->stop(op->dev);
	/* below the fill threshold, reports still wait in the OA buffer */
	if (op->handle.event)
		op_drain(op, event, false);
	WRITE_ONCE(op->event, NULL);
	event->hw.state = PERF_HES_STOPPED;
}

static int op_add(struct perf_event *event, int flags)
{
	/* the OA unit was configured for this event in event_init */
	event->hw.state = PERF_HES_STOPPED;
	if (flags & PERF_EF_START)
		op_start(event, 0);
	return 0;
}

static void op_del(struct perf_event *event, int flags)
{
	op_stop(event, PERF_EF_UPDATE);
}

static void op_read(struct perf_event *event)
{
	/* Nothing to count: the reports are in the AUX buffer. */
}

static void *op_setup_aux(struct perf_event *event, void **pages, int nr_pages, bool overwrite)
{
	struct i915_oa_pmu *op = to_op(event->pmu);
	struct i915_oa_config cfg;

	/* a report with both loss records before it is the largest unit */
	if (op_parse(op, &event->attr, &cfg))
		return NULL;
	return hwt_aux_setup(event, pages, nr_pages, overwrite,
			     OA_REC_HDR * 3 + op->dev->caps.report_size[cfg.format]);
}

/* cpuhp teardown of the PMU's CPU: the poll goes where the events go */
static void op_moved(struct hwt_hotplug *hp, unsigned int cpu)
{
	struct i915_oa_pmu *op = container_of(hp, struct i915_oa_pmu, hotplug);

	op->dev->ops->set_irq_cpu(op->dev, cpu);
}

int i915_oa_pmu_add(struct i915_oa_dev *dev)
{
	struct i915_oa_pmu *op;
	int ret, f;

	might_sleep();
	if (!dev->ops || !dev->caps.oa_buffer_reports || dev->caps.oa_buffer_reports > 255 ||
	    !hwt_cpu_usable(dev->cpu))
		return -EINVAL;
	for (f = 0; f < 16; f++)
		if (dev->caps.report_size[f] > I915_OA_MAX_REPORT)
			return -EINVAL;
	op = kzalloc(sizeof(*op), GFP_KERNEL);
	if (!op)
		return -ENOMEM;
	snprintf(op->name, sizeof(op->name), "i915_oa%d", dev->instance);
	op->dev = dev;
	op->pmu = (struct pmu) {
		.module = THIS_MODULE,
		.attr_groups = op_groups,
		.task_ctx_nr = perf_invalid_context,
		.capabilities = PERF_PMU_CAP_EXCLUSIVE | PERF_PMU_CAP_NO_EXCLUDE,
		.event_init = op_event_init,
		.add = op_add,
		.del = op_del,
		.start = op_start,
		.stop = op_stop,
		.read = op_read,
		.setup_aux = op_setup_aux,
		.free_aux = hwt_aux_free,
	};
	dev->pmu = op;
	op->hotplug.moved = op_moved;
	dev->ops->set_irq_cpu(dev, dev->cpu);
	ret = perf_pmu_register(&op->pmu, op->name, -1);
	if (!ret) {
		ret = hwt_hotplug_add(&op->hotplug, "perf/i915_oa:online", &op->pmu, &dev->cpu);
		if (ret)
			perf_pmu_unregister(&op->pmu);
	}
	if (ret) {
		dev->pmu = NULL;
		kfree(op);
	}
	return ret;
}

void i915_oa_pmu_remove(struct i915_oa_dev *dev)
{
	struct i915_oa_pmu *op = dev->pmu;

	if (!op)
		return;
	hwt_hotplug_remove(&op->hotplug);
	perf_pmu_unregister(&op->pmu);
	dev->pmu = NULL;
	/*
	 * Every event holds a reference on this module (pmu.module), also
	 * while only its AUX mapping is left, so none is live when the
	 * module's exit gets here.  A backend whose device can be unbound
	 * must set suppress_bind_attrs or free on release instead.
	 */
	kfree(op);
}
