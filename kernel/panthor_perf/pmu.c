// SPDX-License-Identifier: GPL-2.0
/*
 * pmu.c - panthor perf-counter PMU with AUX output (design.rst 4.2).
 *
 * Each AUX record holds whole samples exactly as the panthor perf uAPI ring
 * buffer holds them: a 56-byte sample header, then per block a 24-byte block
 * header and counters_per_block u64 counters, in block order FW, [CSG],
 * CSHW, TILER, MEMSYS x n, SHADER x n.  The uAPI revision (RFC v2 or v6)
 * decides the block type numbers and whether CSG blocks exist.  A sample
 * never straddles the end of the AUX buffer.  When one does not fit, the
 * counters keep accumulating in the backend and the next sample written
 * covers every period since the last one and carries the OVERFLOW flag.
 * Nothing is lost then, so nothing is flagged TRUNCATED.  Only when the
 * device reports lost counter data (its sample ring overflowed) is the record
 * flagged TRUNCATED, and the PMU stops until the event is started again, as
 * arm_spe_pmu does.  The device is behind struct panthor_perf_ops: acquired
 * and configured in event_init, where errors reach perf_event_open, and
 * given back in the event's destroy.
 *
 * The caps/ directory of the PMU exports the words a recorder puts into
 * AUXTRACE_INFO priv[] (Documentation/kernel.rst).
 */
#define pr_fmt(fmt) "panthor_perf: " fmt

#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <asm/unaligned.h>

#include "../common/aux.h"
#include "../common/hotplug.h"
#include "../common/owner.h"
#include "../common/params.h"
#include "backend.h"

#define PP_SAMPLE_HDR	56
#define PP_BLOCK_HDR	24
#define PP_PERIOD_MIN	100
#define PP_PERIOD_MAX	1000000
#define PP_NO_TYPE	0xff

/* uAPI block_type per kind: RFC v2 (CSG present) and v6 (CSG removed, renumbered) */
static const u8 pp_type_v2[PANTHOR_PERF_NKINDS] = { 1, 2, 3, 4, 5, 6 };
static const u8 pp_type_v6[PANTHOR_PERF_NKINDS] = { 1, PP_NO_TYPE, 2, 3, 4, 5 };

/**
 * struct panthor_perf_pmu - one registered PMU
 * @pmu:	perf's view
 * @hotplug:	moves the events off the CPU when it goes offline
 * @dev:	the backend's device
 * @handle:	AUX output handle of the running event (the PMU is exclusive)
 * @event:	the started event, NULL when stopped
 * @owner:	event that holds the backend (acquire .. release)
 * @lost:	the device reported loss not yet flagged (set from any CPU)
 * @types:	block_type per kind in this layout
 * @sample_size: bytes per sample
 * @period:	sampling periods ended since configure (user_data of a sample)
 * @last:	@period of the last sample written
 * @last_ns:	end time of the last sample written (or of configure)
 * @counters:	one block's counters, read from the backend
 * @name:	panthor_perf<N>
 */
struct panthor_perf_pmu {
	struct pmu pmu;
	struct hwt_hotplug hotplug;
	struct panthor_perf_dev *dev;
	struct perf_output_handle handle;
	struct perf_event *event;
	struct perf_event *owner;
	int lost;
	const u8 *types;
	u32 sample_size;
	u64 period;
	u64 last;
	u64 last_ns;
	u64 counters[PANTHOR_PERF_MAX_CPB];
	char name[32];
};

#define to_pp(p) container_of(p, struct panthor_perf_pmu, pmu)

PMU_FORMAT_ATTR(period_us, "config:0-23");

static struct attribute *pp_format_attrs[] = {
	&format_attr_period_us.attr,
	NULL
};

static const struct attribute_group pp_format_group = {
	.name = "format",
	.attrs = pp_format_attrs,
};

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct panthor_perf_pmu *pp = to_pp(dev_get_drvdata(dev));

	return cpumap_print_to_pagebuf(true, buf, cpumask_of(pp->dev->cpu));
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *pp_cpumask_attrs[] = {
	&dev_attr_cpumask.attr,
	NULL
};

static const struct attribute_group pp_cpumask_group = {
	.attrs = pp_cpumask_attrs,
};

/* caps/<key>: the perf_info words, named as the recorder looks them up */
enum pp_cap {
	PP_CAP_LAYOUT, PP_CAP_GPU_ID, PP_CAP_CPB, PP_CAP_SHS, PP_CAP_BHS, PP_CAP_SAMPLE_SIZE,
	PP_CAP_FLAGS, PP_CAP_CLOCKS, PP_CAP_BLOCKS, PP_CAP_SHADER_PRESENT =
	PP_CAP_BLOCKS + PANTHOR_PERF_NKINDS,
};

static u64 pp_cap_value(const struct panthor_perf_pmu *pp, unsigned long key)
{
	const struct panthor_perf_caps *c = &pp->dev->caps;

	switch (key) {
	case PP_CAP_LAYOUT:		return pp->dev->layout;
	case PP_CAP_GPU_ID:		return c->gpu_id;
	case PP_CAP_CPB:		return c->counters_per_block;
	case PP_CAP_SHS:		return PP_SAMPLE_HDR;
	case PP_CAP_BHS:		return PP_BLOCK_HDR;
	case PP_CAP_SAMPLE_SIZE:	return pp->sample_size;
	case PP_CAP_FLAGS:		return PANTHOR_PERF_INFO_BLOCK_STATES;
	case PP_CAP_CLOCKS:		return c->supported_clocks;
	case PP_CAP_SHADER_PRESENT:	return c->shader_present;
	}
	key -= PP_CAP_BLOCKS;
	return pp->types[key] == PP_NO_TYPE ? 0 : c->blocks[key];
}

static ssize_t pp_cap_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct panthor_perf_pmu *pp = to_pp(dev_get_drvdata(dev));
	struct dev_ext_attribute *ea = container_of(attr, struct dev_ext_attribute, attr);

	return sysfs_emit(buf, "%#llx\n", pp_cap_value(pp, (unsigned long)ea->var));
}

#define PP_CAP(_name, _key) \
	static struct dev_ext_attribute pp_cap_##_name = { \
		__ATTR(_name, 0444, pp_cap_show, NULL), (void *)(_key) }

PP_CAP(layout, PP_CAP_LAYOUT);
PP_CAP(gpu_id, PP_CAP_GPU_ID);
PP_CAP(counters_per_block, PP_CAP_CPB);
PP_CAP(sample_header_size, PP_CAP_SHS);
PP_CAP(block_header_size, PP_CAP_BHS);
PP_CAP(sample_size, PP_CAP_SAMPLE_SIZE);
PP_CAP(flags, PP_CAP_FLAGS);
PP_CAP(supported_clocks, PP_CAP_CLOCKS);
PP_CAP(fw_blocks, PP_CAP_BLOCKS + PANTHOR_PERF_FW);
PP_CAP(csg_blocks, PP_CAP_BLOCKS + PANTHOR_PERF_CSG);
PP_CAP(cshw_blocks, PP_CAP_BLOCKS + PANTHOR_PERF_CSHW);
PP_CAP(tiler_blocks, PP_CAP_BLOCKS + PANTHOR_PERF_TILER);
PP_CAP(memsys_blocks, PP_CAP_BLOCKS + PANTHOR_PERF_MEMSYS);
PP_CAP(shader_blocks, PP_CAP_BLOCKS + PANTHOR_PERF_SHADER);
PP_CAP(shader_present, PP_CAP_SHADER_PRESENT);

static struct attribute *pp_caps_attrs[] = {
	&pp_cap_layout.attr.attr,
	&pp_cap_gpu_id.attr.attr,
	&pp_cap_counters_per_block.attr.attr,
	&pp_cap_sample_header_size.attr.attr,
	&pp_cap_block_header_size.attr.attr,
	&pp_cap_sample_size.attr.attr,
	&pp_cap_flags.attr.attr,
	&pp_cap_supported_clocks.attr.attr,
	&pp_cap_fw_blocks.attr.attr,
	&pp_cap_csg_blocks.attr.attr,
	&pp_cap_cshw_blocks.attr.attr,
	&pp_cap_tiler_blocks.attr.attr,
	&pp_cap_memsys_blocks.attr.attr,
	&pp_cap_shader_blocks.attr.attr,
	&pp_cap_shader_present.attr.attr,
	NULL
};

static const struct attribute_group pp_caps_group = {
	.name = "caps",
	.attrs = pp_caps_attrs,
};

static const struct attribute_group *pp_groups[] = {
	&pp_format_group,
	&pp_cpumask_group,
	&pp_caps_group,
	NULL
};

static int pp_parse(const struct panthor_perf_pmu *pp, const struct perf_event_attr *attr,
		    struct panthor_perf_config *cfg)
{
	if ((attr->config & ~GENMASK_ULL(23, 0)) || attr->config1 || attr->config2) {
		dev_dbg(pp->pmu.dev, "reserved config bits set: %#llx %#llx %#llx\n",
			attr->config, attr->config1, attr->config2);
		return -EINVAL;
	}
	cfg->period_us = attr->config & GENMASK_ULL(23, 0);
	if (cfg->period_us < PP_PERIOD_MIN || cfg->period_us > PP_PERIOD_MAX) {
		dev_dbg(pp->pmu.dev, "period_us %u not in %u..%u\n", cfg->period_us,
			PP_PERIOD_MIN, PP_PERIOD_MAX);
		return -EINVAL;
	}
	return 0;
}

/* process context, after the event's last del: give the device back */
static void pp_event_destroy(struct perf_event *event)
{
	struct panthor_perf_pmu *pp = to_pp(event->pmu);

	if (!hwt_owner_destroy(&pp->owner, event))
		return;
	pp->dev->ops->release(pp->dev);
	hwt_owner_unclaim(&pp->owner);
}

/* Process context, may sleep: take the device for @event and program it. */
static int pp_claim(struct panthor_perf_pmu *pp, struct perf_event *event,
		    const struct panthor_perf_config *cfg)
{
	const struct panthor_perf_ops *ops = pp->dev->ops;
	int ret = hwt_owner_claim(&pp->owner, event);

	if (ret)
		return ret;
	ret = ops->acquire(pp->dev);
	if (ret)
		goto free;
	ret = ops->configure(pp->dev, cfg);
	if (!ret) {
		pp->period = 0;
		pp->last = 0;
		pp->last_ns = ktime_get_ns();
		WRITE_ONCE(pp->lost, 0);
		return 0;
	}
	ops->release(pp->dev);
free:
	hwt_owner_unclaim(&pp->owner);
	return ret;
}

static int pp_event_init(struct perf_event *event)
{
	struct panthor_perf_pmu *pp = to_pp(event->pmu);
	struct panthor_perf_config cfg;
	int ret;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (event->attach_state & PERF_ATTACH_TASK || event->cpu < 0) {
		dev_dbg(pp->pmu.dev, "per-task mode not supported\n");
		return -EOPNOTSUPP;
	}
	if (event->cpu != pp->dev->cpu) {
		dev_dbg(pp->pmu.dev, "cpu %d not in cpumask (%d)\n", event->cpu, pp->dev->cpu);
		return -EINVAL;
	}
	/* freq mode restarts the event every tick: periods would never end */
	if (event->attr.freq) {
		dev_dbg(pp->pmu.dev, "frequency mode not supported\n");
		return -EINVAL;
	}
	ret = pp_parse(pp, &event->attr, &cfg);
	if (!ret)
		ret = pp_claim(pp, event, &cfg);
	if (ret)
		return ret;
	event->destroy = pp_event_destroy;
	return 0;
}

static void put_u64(u8 *p, u64 v)
{
	put_unaligned_le64(v, p);
}

/* Lay out one sample at @p: everything the backend accumulated since the last. */
static void pp_write_sample(struct panthor_perf_pmu *pp, u8 *p)
{
	static const u8 clock_of[PANTHOR_PERF_NKINDS] = { 0, 0, 0, 1, 1, 2 };
	const struct panthor_perf_ops *ops = pp->dev->ops;
	const struct panthor_perf_caps *c = &pp->dev->caps;
	u32 cpb = c->counters_per_block, kind, idx, i;
	u64 now = ktime_get_ns(), cycles[3] = { 0 }, *counters = pp->counters;
	u8 *b = p + PP_SAMPLE_HDR;

	memset(p, 0, PP_SAMPLE_HDR);
	ops->read_cycles(pp->dev, cycles);
	put_u64(p + 0, pp->last_ns);
	put_u64(p + 8, now);
	/* block_set (16) and pad stay 0 */
	put_unaligned_le32(pp->period - pp->last > 1 ? PANTHOR_PERF_FLAG_OVERFLOW : 0, p + 20);
	put_u64(p + 24, pp->period);
	for (i = 0; i < 3; i++)
		put_u64(p + 32 + 8 * i, cycles[i]);
	for (kind = 0; kind < PANTHOR_PERF_NKINDS; kind++) {
		if (pp->types[kind] == PP_NO_TYPE)
			continue;
		for (idx = 0; idx < c->blocks[kind]; idx++) {
			u32 states = ops->read_block(pp->dev, kind, idx, counters);

			memset(b, 0, PP_BLOCK_HDR);
			b[0] = pp->types[kind];
			b[1] = idx;
			b[2] = states;
			b[3] = clock_of[kind];
			put_u64(b + 8, ~0ULL);
			put_u64(b + 16, cpb > 64 ? ~0ULL : 0);
			b += PP_BLOCK_HDR;
			for (i = 0; i < cpb; i++)
				put_u64(b + 8 * i, counters[i]);
			b += 8 * cpb;
		}
	}
	ops->reset(pp->dev);
	pp->last = pp->period;
	pp->last_ns = now;
}

/* Real loss: one empty record flagged TRUNCATED, then stopped (arm_spe_pmu). */
static void pp_halt(struct panthor_perf_pmu *pp, struct perf_event *event)
{
	struct perf_output_handle *h = &pp->handle;

	pp->dev->ops->stop(pp->dev);
	if (h->event || perf_aux_output_begin(h, event)) {
		perf_aux_output_flag(h, PERF_AUX_FLAG_TRUNCATED);
		perf_aux_output_end(h, 0);
		WRITE_ONCE(pp->lost, 0);
	}
	event->hw.state = PERF_HES_STOPPED;
	WRITE_ONCE(pp->event, NULL);
}

void panthor_perf_pmu_irq(struct panthor_perf_dev *dev, bool lost)
{
	struct panthor_perf_pmu *pp = dev->pmu;
	struct perf_output_handle *h;
	struct perf_event *event;
	void *p;

	if (!pp)
		return;
	if (lost)
		WRITE_ONCE(pp->lost, 1);
	event = hwt_irq_event(READ_ONCE(pp->event));
	if (!event)
		return;
	hwt_aux_assert_context(event);
	h = &pp->handle;
	pp->period++;
	if (lost) {
		/* the device restarted its accumulation: the next sample starts here */
		pp->last = pp->period;
		pp->last_ns = ktime_get_ns();
	}
	if (READ_ONCE(pp->lost)) {
		pp_halt(pp, event);
		return;
	}
	if (!h->event && !perf_aux_output_begin(h, event))
		return;		/* buffer full: the core disables the event */
	p = hwt_aux_reserve(h, 0, pp->sample_size);
	if (!p) {
		/* reopen the window once: the reader may have made room */
		perf_aux_output_end(h, 0);
		if (!perf_aux_output_begin(h, event))
			return;
		p = hwt_aux_reserve(h, 0, pp->sample_size);
	}
	if (!p) {
		/*
		 * No room: the counters keep accumulating in the device and
		 * the next sample says OVERFLOW.  Nothing is lost, so this is
		 * not TRUNCATED (which would make the core disable the event).
		 */
		perf_aux_output_end(h, 0);
		perf_aux_output_begin(h, event);
		return;
	}
	pp_write_sample(pp, p);
	perf_aux_output_end(h, pp->sample_size);
	perf_aux_output_begin(h, event);
}

static void pp_start(struct perf_event *event, int flags)
{
	struct panthor_perf_pmu *pp = to_pp(event->pmu);

	hwt_aux_assert_context(event);
	/* no AUX buffer or no room: stay off, as arm_spe_pmu does */
	if (!perf_aux_output_begin(&pp->handle, event)) {
		dev_dbg(pp->pmu.dev, "start: no room in the AUX buffer\n");
		event->hw.state = PERF_HES_STOPPED;
		return;
	}
	if (pp->dev->ops->start(pp->dev)) {
		dev_dbg(pp->pmu.dev, "start: the device did not start\n");
		perf_aux_output_end(&pp->handle, 0);
		event->hw.state = PERF_HES_STOPPED;
		return;
	}
	event->hw.state = 0;
	WRITE_ONCE(pp->event, event);
}

static void pp_stop(struct perf_event *event, int flags)
{
	struct panthor_perf_pmu *pp = to_pp(event->pmu);

	hwt_aux_assert_context(event);
	if (!pp->event)
		return;
	pp->dev->ops->stop(pp->dev);
	if (pp->handle.event)
		perf_aux_output_end(&pp->handle, 0);
	WRITE_ONCE(pp->event, NULL);
	event->hw.state = PERF_HES_STOPPED;
}

static int pp_add(struct perf_event *event, int flags)
{
	/* the device was configured for this event in event_init */
	event->hw.state = PERF_HES_STOPPED;
	if (flags & PERF_EF_START)
		pp_start(event, 0);
	return 0;
}

static void pp_del(struct perf_event *event, int flags)
{
	pp_stop(event, PERF_EF_UPDATE);
}

static void pp_read(struct perf_event *event)
{
	/* Nothing to count: the samples are in the AUX buffer. */
}

static void *pp_setup_aux(struct perf_event *event, void **pages, int nr_pages, bool overwrite)
{
	struct panthor_perf_pmu *pp = to_pp(event->pmu);

	return hwt_aux_setup(event, pages, nr_pages, overwrite, pp->sample_size);
}

/* cpuhp teardown of the PMU's CPU: the interrupt goes where the events go */
static void pp_moved(struct hwt_hotplug *hp, unsigned int cpu)
{
	struct panthor_perf_pmu *pp = container_of(hp, struct panthor_perf_pmu, hotplug);

	pp->dev->ops->set_irq_cpu(pp->dev, cpu);
}

int panthor_perf_pmu_add(struct panthor_perf_dev *dev)
{
	const struct panthor_perf_caps *c = &dev->caps;
	struct panthor_perf_pmu *pp;
	u64 size = PP_SAMPLE_HDR;
	int ret, k;

	might_sleep();
	if (!dev->ops || (dev->layout != 2 && dev->layout != 6) ||
	    c->counters_per_block < PANTHOR_PERF_HDR_COUNTERS ||
	    c->counters_per_block > PANTHOR_PERF_MAX_CPB || !hwt_cpu_usable(dev->cpu))
		return -EINVAL;
	pp = kzalloc(sizeof(*pp), GFP_KERNEL);
	if (!pp)
		return -ENOMEM;
	pp->types = dev->layout == 2 ? pp_type_v2 : pp_type_v6;
	for (k = 0; k < PANTHOR_PERF_NKINDS; k++) {
		if (pp->types[k] == PP_NO_TYPE)
			continue;
		if (c->blocks[k] > 255) {
			kfree(pp);
			return -EINVAL;
		}
		size += (u64)c->blocks[k] * (PP_BLOCK_HDR + 8 * c->counters_per_block);
	}
	pp->sample_size = size;
	snprintf(pp->name, sizeof(pp->name), "panthor_perf%d", dev->instance);
	pp->dev = dev;
	pp->pmu = (struct pmu) {
		.module = THIS_MODULE,
		.attr_groups = pp_groups,
		.task_ctx_nr = perf_invalid_context,
		.capabilities = PERF_PMU_CAP_EXCLUSIVE | PERF_PMU_CAP_NO_EXCLUDE,
		.event_init = pp_event_init,
		.add = pp_add,
		.del = pp_del,
		.start = pp_start,
		.stop = pp_stop,
		.read = pp_read,
		.setup_aux = pp_setup_aux,
		.free_aux = hwt_aux_free,
	};
	dev->pmu = pp;
	pp->hotplug.moved = pp_moved;
	dev->ops->set_irq_cpu(dev, dev->cpu);
	ret = perf_pmu_register(&pp->pmu, pp->name, -1);
	if (!ret) {
		ret = hwt_hotplug_add(&pp->hotplug, "perf/panthor_perf:online", &pp->pmu, &dev->cpu);
		if (ret)
			perf_pmu_unregister(&pp->pmu);
	}
	if (ret) {
		dev->pmu = NULL;
		kfree(pp);
	}
	return ret;
}

void panthor_perf_pmu_remove(struct panthor_perf_dev *dev)
{
	struct panthor_perf_pmu *pp = dev->pmu;

	if (!pp)
		return;
	hwt_hotplug_remove(&pp->hotplug);
	perf_pmu_unregister(&pp->pmu);
	dev->pmu = NULL;
	/*
	 * Every event holds a reference on this module (pmu.module), also
	 * while only its AUX mapping is left, so none is live when the
	 * module's exit gets here.  A backend whose device can be unbound
	 * must set suppress_bind_attrs or free on release instead.
	 */
	kfree(pp);
}
