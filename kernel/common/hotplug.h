/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hotplug.h - move a single-CPU PMU off a CPU that goes offline, as
 * hisi_ptt, arm_smmuv3_pmu and cxl_pmu do: the events follow through
 * perf_pmu_migrate_context(), and the backend's CPU (which cpumask shows and
 * where ->start runs the device) becomes another online CPU.  Static inline:
 * each module carries its own copy.
 */
#ifndef HWT_KERNEL_HOTPLUG_H
#define HWT_KERNEL_HOTPLUG_H

#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/perf_event.h>

/**
 * struct hwt_hotplug - one PMU's CPU hotplug instance
 * @node:	cpuhp instance
 * @pmu:	the registered PMU
 * @cpu:	the backend's CPU field (cpumask, event_init and start use it)
 * @state:	dynamic cpuhp state of this PMU
 * @moved:	optional: called with the new CPU before the events move there
 *		(process context, the hotplug thread), to move the interrupt
 */
struct hwt_hotplug {
	struct hlist_node node;
	struct pmu *pmu;
	int *cpu;
	enum cpuhp_state state;
	void (*moved)(struct hwt_hotplug *hp, unsigned int cpu);
};

/* cpuhp teardown, in the hotplug thread of the dying CPU */
static inline int hwt_hotplug_offline(unsigned int cpu, struct hlist_node *node)
{
	struct hwt_hotplug *hp = hlist_entry_safe(node, struct hwt_hotplug, node);
	unsigned int target;

	if (cpu != READ_ONCE(*hp->cpu))
		return 0;
	target = cpumask_any_but(cpu_online_mask, cpu);
	if (target >= nr_cpu_ids)
		return 0;
	/* new opens and the migrated events' start see the new CPU */
	WRITE_ONCE(*hp->cpu, target);
	if (hp->moved)
		hp->moved(hp, target);
	perf_pmu_migrate_context(hp->pmu, cpu, target);
	return 0;
}

/**
 * hwt_hotplug_add() - follow CPU hotplug for a registered PMU
 * @hp:		instance, lives as long as the PMU
 * @name:	cpuhp state name (kept by the core: a string literal)
 * @pmu:	the PMU, already registered
 * @cpu:	the backend's CPU field
 *
 * Return: 0 or -errno.
 */
static inline int hwt_hotplug_add(struct hwt_hotplug *hp, const char *name, struct pmu *pmu,
				  int *cpu)
{
	int ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, name, NULL, hwt_hotplug_offline);

	if (ret < 0)
		return ret;
	hp->state = ret;
	hp->pmu = pmu;
	hp->cpu = cpu;
	ret = cpuhp_state_add_instance_nocalls(hp->state, &hp->node);
	if (ret)
		cpuhp_remove_multi_state(hp->state);
	return ret;
}

/**
 * hwt_hotplug_remove() - stop following CPU hotplug (before unregistering)
 * @hp:		what hwt_hotplug_add() set up
 */
static inline void hwt_hotplug_remove(struct hwt_hotplug *hp)
{
	cpuhp_state_remove_instance_nocalls(hp->state, &hp->node);
	cpuhp_remove_multi_state(hp->state);
}

#endif /* HWT_KERNEL_HOTPLUG_H */
