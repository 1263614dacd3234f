/* SPDX-License-Identifier: GPL-2.0 */
/*
 * params.h - checks of module parameters and backend fields shared by the
 * simulated-device PMUs (static inline: each module carries its own copy).
 */
#ifndef HWT_KERNEL_PARAMS_H
#define HWT_KERNEL_PARAMS_H

#include <linux/cpumask.h>
#include <linux/printk.h>
#include <linux/types.h>

/**
 * hwt_cpu_usable() - @cpu may host a PMU: a CPU number in range and online
 * @cpu:	from a module parameter or a backend (may be anything)
 */
static inline bool hwt_cpu_usable(int cpu)
{
	return cpu >= 0 && cpu < nr_cpu_ids && cpu_online(cpu);
}

/**
 * hwt_param_check() - refuse a module parameter outside @min..@max
 * @name:	parameter name, for the message
 * @val:	its value
 * @min:	smallest accepted
 * @max:	largest accepted
 *
 * Return: 0, or -EINVAL after saying why.
 */
static inline int hwt_param_check(const char *name, long long val, long long min,
				  long long max)
{
	if (val >= min && val <= max)
		return 0;
	pr_err("module parameter %s=%lld not in %lld..%lld\n", name, val, min, max);
	return -EINVAL;
}

/**
 * hwt_param_cpu() - refuse a cpu module parameter that is not an online CPU
 * @cpu:	the parameter
 *
 * Return: 0, or -EINVAL after saying why.
 */
static inline int hwt_param_cpu(int cpu)
{
	if (hwt_cpu_usable(cpu))
		return 0;
	pr_err("module parameter cpu=%d is not an online CPU (nr_cpu_ids %u)\n", cpu,
	       nr_cpu_ids);
	return -EINVAL;
}

#endif /* HWT_KERNEL_PARAMS_H */
