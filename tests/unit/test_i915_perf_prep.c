// SPDX-License-Identifier: GPL-2.0
/*
 * test_i915_perf_prep.c - a device's view of libi915_perf built by the
 * loading thread (hwt_i915_perf__prepare()): the view taken is the one a
 * plain hwt_i915_perf__for_devinfo() builds, it is taken once, only by who
 * asked and only for the device asked, and with no loading thread nothing
 * is prepared.
 * The library loads once per process, so each case runs in a child.
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "i915_perf_present.h"
#include "i915_oa/i915_perf_lib.h"

/* drm_i915_query_topology_info: 1 slice, 6 subslices of 16 EUs */
static const uint8_t topology[30] = {
	0, 0, 1, 0, 6, 0, 16, 0, 1, 0, 1, 0, 2, 0, 2, 0,
	0x01, 0x3f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

/* a Tigerlake GT2, as IGT's DEVICE_INFO and TOPOLOGY records give it */
static struct hwt_i915_oa_device tgl(void)
{
	return (struct hwt_i915_oa_device){
		.devid = 0x9a49, .gen = 1200, .ts_freq = 19200000, .gt_min = 350000000,
		.gt_max = 1350000000, .topology = topology, .topology_size = sizeof(topology),
	};
}

/* @p's metric sets and their counter counts, as text */
static void describe(const struct igt_perf *p, char *buf, size_t n)
{
	const struct igt_list_head *head = &p->metric_sets;
	size_t len = 0;

	buf[0] = 0;
	for (const struct igt_list_head *l = head->next; l != head && len < n; l = l->next) {
		const struct igt_metric_set *s = (const void *)((const char *)l -
					offsetof(struct igt_metric_set, link));

		len += (size_t)snprintf(buf + len, n - len, "%s:%d ", s->symbol_name,
					s->n_counters);
	}
}

static void case_taken(void)
{
	struct hwt_i915_oa_device d = tgl();
	struct igt_perf *p, *q;
	static char a[65536], b[65536];
	int owner;

	hwt_i915_perf__load_async();
	hwt_i915_perf__prepare(&owner, &d);
	p = hwt_i915_perf__take(&owner, &d);
	CHECK(p != NULL);
	if (!p)
		return;
	q = hwt_i915_perf__for_devinfo(d.devid, d.revision, d.ts_freq, d.gt_min, d.gt_max,
				       d.topology);
	CHECK(q != NULL);
	CHECK(hwt_i915_perf__find_set(p, "RenderBasic") != NULL);
	describe(p, a, sizeof(a));
	if (q)
		describe(q, b, sizeof(b));
	CHECK(strlen(a) > 100);
	CHECK_STR(a, b);
	/* taken once */
	CHECK(hwt_i915_perf__take(&owner, &d) == NULL);
	hwt_i915_perf__free(p);
	hwt_i915_perf__free(q);
}

static void case_other_device(void)
{
	struct hwt_i915_oa_device d = tgl(), later = tgl();
	uint8_t t[sizeof(topology)];
	int owner;

	hwt_i915_perf__load_async();
	hwt_i915_perf__prepare(&owner, &d);
	/* the recording said another topology since: the view is dropped */
	memcpy(t, topology, sizeof(t));
	t[17] = 0x0f;
	later.topology = t;
	CHECK(hwt_i915_perf__take(&owner, &later) == NULL);
}

static void case_other_frequency(void)
{
	struct hwt_i915_oa_device d = tgl(), later = tgl();
	int owner;

	hwt_i915_perf__load_async();
	hwt_i915_perf__prepare(&owner, &d);
	later.gt_max = 1300000000;
	CHECK(hwt_i915_perf__take(&owner, &later) == NULL);
}

static void case_other_owner(void)
{
	struct hwt_i915_oa_device d = tgl();
	int owner, other;

	hwt_i915_perf__load_async();
	hwt_i915_perf__prepare(&owner, &d);
	/* one view at a time: the second ask is not taken */
	hwt_i915_perf__prepare(&other, &d);
	CHECK(hwt_i915_perf__take(&other, &d) == NULL);
	/* released, not taken: freed, and gone */
	hwt_i915_perf__release(&owner);
	CHECK(hwt_i915_perf__take(&owner, &d) == NULL);
}

static void case_no_thread(void)
{
	struct hwt_i915_oa_device d = tgl();
	char why[256];
	int owner;

	/* loaded in this thread: no view is built behind the caller's back */
	CHECK(hwt_i915_perf__open(why, sizeof(why)));
	hwt_i915_perf__prepare(&owner, &d);
	CHECK(hwt_i915_perf__take(&owner, &d) == NULL);
}

/* run @fn in a child, with a library never loaded; its failures are ours */
static void in_child(void (*fn)(void), const char *name)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (!pid) {
		check_current = name;
		check_failures = 0;	/* the parent's, before this case */
		fn();
		exit(check_failures ? 1 : 0);
	}
	CHECK(pid > 0);
	if (pid > 0) {
		CHECK(waitpid(pid, &st, 0) == pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
}

#define IN_CHILD(fn) in_child(fn, #fn)

static void test_taken(void) { IN_CHILD(case_taken); }
static void test_other_device(void) { IN_CHILD(case_other_device); }
static void test_other_frequency(void) { IN_CHILD(case_other_frequency); }
static void test_other_owner(void) { IN_CHILD(case_other_owner); }
static void test_no_thread(void) { IN_CHILD(case_no_thread); }

int main(void)
{
	if (!i915_perf_present()) {
		/* make deps installs it (intel-gpu-tools); without it there is nothing to prepare */
		printf("i915_perf_prep: skipped, libi915_perf.so.1.5 not found\n");
		return 0;
	}
	RUN(test_taken);
	RUN(test_other_device);
	RUN(test_other_frequency);
	RUN(test_other_owner);
	RUN(test_no_thread);
	return check_done("i915_perf_prep");
}
