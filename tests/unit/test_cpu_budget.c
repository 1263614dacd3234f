// SPDX-License-Identifier: GPL-2.0
/*
 * test_cpu_budget.c - a cgroup CPU bandwidth limit found as the kernel
 * lays it out (plugins/perf-hwtrace/cpu_budget.c).
 *
 * Each case writes a tree of its own: /proc/self/cgroup and mountinfo
 * lines in the kernel's formats (proc(5), cgroups(7)) and the cgroup
 * files, v2's cpu.max and v1's cpu.cfs_quota_us / cpu.cfs_period_us.  The
 * expected numbers are worked out by hand from what each case writes: the
 * lowest quota / period on the way up, rounded up.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "../../plugins/perf-hwtrace/cpu_budget.h"

static char root[64];

/* write @text to @rel (from "/") below root, directories made */
static void put(const char *rel, const char *text)
{
	check_put_file(root, rel + 1, text);
}

static void fresh(void)
{
	char cmd[128];

	if (root[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		CHECK(!system(cmd));
	}
	strcpy(root, "/tmp/hwt-cpu-budget-XXXXXX");
	CHECK(mkdtemp(root) != NULL);
}

#define V2_MOUNT "30 25 0:26 / /sys/fs/cgroup rw,nosuid,nodev shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"
#define OTHER_MOUNTS \
	"22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n" \
	"23 22 0:5 / /dev rw,nosuid shared:2 - devtmpfs udev rw,size=1k\n"

static void test_none(void)
{
	fresh();
	CHECK_EQ(cpu_budget__limit(root), 0);	/* no /proc at all */
	put("/proc/self/cgroup", "0::/user.slice\n");
	put("/proc/self/mountinfo", OTHER_MOUNTS V2_MOUNT);
	put("/sys/fs/cgroup/user.slice/cpu.max", "max 100000\n");
	CHECK_EQ(cpu_budget__limit(root), 0);
}

/* v2: the leaf's 1.5 CPUs give 2; an ancestor's 0.5 wins; the root has no cpu.max */
static void test_v2_walks_up(void)
{
	fresh();
	put("/proc/self/cgroup", "0::/ci.slice/job-7.scope\n");
	put("/proc/self/mountinfo", OTHER_MOUNTS V2_MOUNT);
	put("/sys/fs/cgroup/ci.slice/job-7.scope/cpu.max", "150000 100000\n");
	put("/sys/fs/cgroup/ci.slice/cpu.max", "max 100000\n");
	CHECK_EQ(cpu_budget__limit(root), 2);
	put("/sys/fs/cgroup/ci.slice/cpu.max", "50000 100000\n");
	CHECK_EQ(cpu_budget__limit(root), 1);
	/* a tenth of a CPU is still one */
	put("/sys/fs/cgroup/ci.slice/cpu.max", "10000 100000\n");
	CHECK_EQ(cpu_budget__limit(root), 1);
	/* 8 CPUs over another period */
	put("/sys/fs/cgroup/ci.slice/cpu.max", "max 100000\n");
	put("/sys/fs/cgroup/ci.slice/job-7.scope/cpu.max", "400000 50000\n");
	CHECK_EQ(cpu_budget__limit(root), 8);
}

/*
 * v1 in a container: the mount shows the hierarchy from /docker/abc on, so
 * /docker/abc/sub is <mount>/sub; "cpu,cpuacct" counts, "cpuacct" alone
 * does not (a limit of 1 there must be ignored).
 */
static void test_v1_container(void)
{
	fresh();
	put("/proc/self/cgroup",
	    "12:pids:/docker/abc/sub\n"
	    "3:cpuacct:/docker/abc/sub\n"
	    "2:cpu,cpuacct:/docker/abc/sub\n"
	    "1:name=systemd:/docker/abc/sub\n");
	put("/proc/self/mountinfo",
	    OTHER_MOUNTS
	    "41 30 0:32 /docker/abc /sys/fs/cgroup/acct ro,nosuid - cgroup cgroup rw,cpuacct\n"
	    "40 30 0:31 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro,nosuid master:12 master:13 - cgroup cgroup rw,cpu,cpuacct\n");
	put("/sys/fs/cgroup/cpu,cpuacct/sub/cpu.cfs_quota_us", "250000\n");
	put("/sys/fs/cgroup/cpu,cpuacct/sub/cpu.cfs_period_us", "100000\n");
	put("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
	put("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
	put("/sys/fs/cgroup/acct/sub/cpu.cfs_quota_us", "100000\n");
	put("/sys/fs/cgroup/acct/sub/cpu.cfs_period_us", "100000\n");
	/* above the mount: not this tree's to read */
	put("/sys/fs/cgroup/cpu.cfs_quota_us", "100000\n");
	put("/sys/fs/cgroup/cpu.cfs_period_us", "100000\n");
	CHECK_EQ(cpu_budget__limit(root), 3);
	/* a cgroup outside the mounted part cannot be read: no limit */
	put("/proc/self/cgroup", "2:cpu,cpuacct:/docker/abcdef\n");
	CHECK_EQ(cpu_budget__limit(root), 0);
}

/* both hierarchies: the lower limit wins, whichever it is in */
static void test_hybrid(void)
{
	fresh();
	put("/proc/self/cgroup", "1:cpu:/job\n0::/job\n");
	put("/proc/self/mountinfo",
	    OTHER_MOUNTS
	    "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	    "40 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n");
	put("/sys/fs/cgroup/cpu/job/cpu.cfs_quota_us", "300000\n");
	put("/sys/fs/cgroup/cpu/job/cpu.cfs_period_us", "100000\n");
	CHECK_EQ(cpu_budget__limit(root), 3);
	put("/sys/fs/cgroup/unified/job/cpu.max", "200000 100000\n");
	CHECK_EQ(cpu_budget__limit(root), 2);
	put("/sys/fs/cgroup/cpu/job/cpu.cfs_quota_us", "100000\n");
	CHECK_EQ(cpu_budget__limit(root), 1);
}

/* a mount point with a space (mountinfo writes it \040) */
static void test_escaped_mount(void)
{
	fresh();
	put("/proc/self/cgroup", "0::/a\n");
	put("/proc/self/mountinfo", "30 25 0:26 / /cg\\040v2 rw - cgroup2 none rw\n");
	put("/cg v2/a/cpu.max", "300000 100000\n");
	CHECK_EQ(cpu_budget__limit(root), 3);
}

/* what is not a limit is none: text, a zero, a missing period */
static void test_bad_values(void)
{
	fresh();
	put("/proc/self/cgroup", "0::/a/b/c/d\n2:cpu:/x\n");
	put("/proc/self/mountinfo", V2_MOUNT "32 31 0:29 / /v1 rw - cgroup cgroup rw,cpu\n");
	put("/sys/fs/cgroup/a/b/c/d/cpu.max", "lots 100000\n");
	put("/sys/fs/cgroup/a/b/c/cpu.max", "0 100000\n");
	put("/sys/fs/cgroup/a/b/cpu.max", "100000 0\n");
	put("/sys/fs/cgroup/a/cpu.max", "100000\n");
	put("/v1/x/cpu.cfs_quota_us", "100000\n");	/* no period file */
	CHECK_EQ(cpu_budget__limit(root), 0);
	put("/sys/fs/cgroup/cpu.max", "700000 100000\n");	/* the top counts */
	CHECK_EQ(cpu_budget__limit(root), 7);
	/* the largest numbers the file can hold: no overflow in the rounding */
	put("/sys/fs/cgroup/cpu.max", "9223372036854775806 9223372036854775807\n");
	CHECK_EQ(cpu_budget__limit(root), 1);
	put("/sys/fs/cgroup/cpu.max", "9223372036854775807 1\n");
	CHECK_EQ(cpu_budget__limit(root), UINT_MAX);
}

/* the real machine: as many CPUs as nproc says (it counts the affinity mask too) */
static void test_machine(void)
{
	FILE *f = popen("env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc", "r");
	unsigned int n = 0;

	CHECK(f != NULL);
	if (!f)
		return;
	CHECK(fscanf(f, "%u", &n) == 1);
	pclose(f);
	CHECK_EQ(cpu_budget__affinity(), n);
}

int main(void)
{
	RUN(test_none);
	RUN(test_v2_walks_up);
	RUN(test_v1_container);
	RUN(test_hybrid);
	RUN(test_escaped_mount);
	RUN(test_bad_values);
	RUN(test_machine);
	fresh();
	rmdir(root);
	return check_done("cpu_budget");
}
