/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpu_budget.h - how many CPUs this process can keep busy at once.
 *
 * The affinity mask says which CPUs a process may run on; a container's
 * CPU bandwidth limit (cgroup v2 cpu.max, v1 cpu.cfs_quota_us) says how
 * much of them it gets.  A CI runner with 64 CPUs and a quota of two
 * throttles a process that runs eight busy threads: it is slower than one
 * that runs two.
 */
#ifndef PERF_HWTRACE_CPU_BUDGET_H
#define PERF_HWTRACE_CPU_BUDGET_H

/**
 * cpu_budget__limit() - the cgroup CPU bandwidth limit of this process
 * @root: prepended to every /proc and /sys path ("" for this machine's;
 *        a test's tree otherwise)
 *
 * The lowest quota / period of the process's cgroup and its ancestors, in
 * the v2 hierarchy (cpu.max) and in v1's cpu controller
 * (cpu.cfs_quota_us, cpu.cfs_period_us), found through
 * /proc/self/cgroup and the mounts of /proc/self/mountinfo.
 *
 * Return: that limit in CPUs rounded up (1 at least), or 0 when there is
 * none or it cannot be read.
 */
unsigned int cpu_budget__limit(const char *root);

/**
 * cpu_budget__affinity() - the CPUs of this process's affinity mask
 *
 * One system call, where cpu_budget__limit() reads several files: a caller
 * can take this first and look at the cgroups only when it has more than
 * one CPU and work to spread over them.
 *
 * Return: 1 at least.
 */
unsigned int cpu_budget__affinity(void);

/**
 * cpu_budget__cpus() - the CPUs this process can keep busy
 *
 * cpu_budget__affinity(), or cpu_budget__limit("") where that is lower;
 * the cgroup files are read only for an affinity of two CPUs or more.
 * What the tool hands to the library as hwt_session_opts.cpus.
 *
 * Return: 1 at least.
 */
unsigned int cpu_budget__cpus(void);

#endif
