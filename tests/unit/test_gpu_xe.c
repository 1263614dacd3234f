// SPDX-License-Identifier: GPL-2.0
/*
 * test_gpu_xe.c - what top and the exporter make of an xe GPU's engines
 * (gpu_devices.c): the DRM_XE_DEVICE_QUERY_ENGINES reply as the uAPI lays it
 * out (include/uapi/drm/xe_drm.h: u32 count, u32 pad, then per engine u16
 * class, instance, gt id, pad and 24 reserved bytes), the engines' names,
 * the PMU config of their tick events on an xe PMU whose format files are
 * those xe_pmu.c documents (gt 60-63, engine_class 20-27, engine_instance
 * 12-19, event 0-11), and the busy share of a group read, worked out here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "check.h"
#include "pmu/pmu_internal.h"
#include "../../plugins/perf-hwtrace/gpu_devices.h"

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void test_query(void)
{
	/* MTL-like: rcs0, bcs0, ccs0 on gt 0; vcs0, vcs1, vecs0 on the media gt 1 */
	static const uint16_t eng[][3] = {
		{ 0, 0, 0 }, { 1, 0, 0 }, { 4, 0, 0 }, { 2, 0, 1 }, { 2, 1, 1 }, { 3, 0, 1 },
	};
	static const char *const names[] = { "rcs0", "bcs0", "ccs0", "vcs0", "vcs1", "vecs0" };
	uint8_t buf[8 + 6 * 32];
	struct gpu_xe_engine e[8];
	char name[32];

	memset(buf, 0xee, sizeof(buf));	/* pads and reserved words are not read */
	buf[0] = 6, buf[1] = buf[2] = buf[3] = 0;
	for (int i = 0; i < 6; i++) {
		put16(buf + 8 + 32 * i, eng[i][0]);
		put16(buf + 8 + 32 * i + 2, eng[i][1]);
		put16(buf + 8 + 32 * i + 4, eng[i][2]);
	}
	CHECK_EQ(gpu_xe__engines(buf, sizeof(buf), e, 8), 6);
	for (int i = 0; i < 6; i++) {
		CHECK_EQ(e[i].engine_class, eng[i][0]);
		CHECK_EQ(e[i].engine_instance, eng[i][1]);
		CHECK_EQ(e[i].gt_id, eng[i][2]);
		gpu_xe__engine_name(&e[i], false, name, sizeof(name));
		CHECK_STR(name, names[i]);
	}
	CHECK_EQ(gpu_xe__engines(buf, sizeof(buf), e, 2), 2);	/* no more than asked */
	CHECK_EQ(gpu_xe__engines(buf, sizeof(buf) - 1, e, 8), -1);	/* count past the reply */
	CHECK_EQ(gpu_xe__engines(buf, 4, e, 8), -1);
	gpu_xe__engine_name(&e[3], true, name, sizeof(name));
	CHECK_STR(name, "vcs0-gt1");
	e[0].engine_class = 9;
	gpu_xe__engine_name(&e[0], false, name, sizeof(name));
	CHECK_STR(name, "class9-0");
}

static void test_terms(void)
{
	/* the xe PMU as xe_pmu.c lays it out (6.15) */
	static const char *const xe_pmu[][2] = {
		{ "type", "42\n" }, { "cpumask", "0\n" },
		{ "format/event", "config:0-11\n" }, { "format/engine_instance", "config:12-19\n" },
		{ "format/engine_class", "config:20-27\n" }, { "format/function", "config:44-59\n" },
		{ "format/gt", "config:60-63\n" },
		{ "events/engine-active-ticks", "event=0x02\n" },
		{ "events/engine-total-ticks", "event=0x03\n" },
	};
	char root[] = "/tmp/hwt-xe-XXXXXX", dir[300], cmd[700], terms[256], err[256];
	struct gpu_xe_engine vcs1 = { .engine_class = 2, .engine_instance = 1, .gt_id = 1 };
	struct perf_event_attr a;
	struct hwt_pmu *p;

	CHECK(mkdtemp(root) != NULL);
	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices/xe_0000_03_00.0", root);
	check_put_files(dir, xe_pmu, CHECK_NFILES(xe_pmu));
	p = hwt_pmu__new_sysfs_err(root, "xe_0000_03_00.0", err, sizeof(err));
	CHECK(p != NULL);
	if (p) {
		gpu_xe__terms("event=0x02", &vcs1, terms, sizeof(terms));
		memset(&a, 0, sizeof(a));
		CHECK_EQ(hwt_pmu__encode_err(p, terms, &a, err, sizeof(err)), 0);
		CHECK_EQ(a.config, 1ull << 60 | 2ull << 20 | 1ull << 12 | 0x02);
		hwt_pmu__delete(p);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK_EQ(system(cmd), 0);
}

/* busy share of an interval: active over total ticks, worked out by hand */
static void test_sample(void)
{
	struct gpu_engine e = { .fd = -1, .fd2 = -1 };
	uint64_t v[3] = { 2, 1000, 100 };

	e.busy_pct = NAN;
	gpu_xe__sample(&e, v, 5000000000);		/* the first read: no interval */
	CHECK(!e.has_prev || isnan(e.busy_pct));
	CHECK_EQ(e.cur, 0);
	v[1] = 3000, v[2] = 600;			/* 500 of 2000 ticks: 25 % */
	gpu_xe__sample(&e, v, 6000000000);		/* a second later */
	CHECK(e.busy_pct == 25.0);
	CHECK_EQ(e.cur, 250000000);			/* a quarter of the second, in ns */
	v[1] = 3000, v[2] = 700;			/* no total ticks: nothing to share */
	e.busy_pct = NAN;
	gpu_xe__sample(&e, v, 7000000000);
	CHECK(isnan(e.busy_pct));
	CHECK_EQ(e.cur, 250000000);
	v[1] = 4000, v[2] = 2000;			/* more active than total: 100 % */
	gpu_xe__sample(&e, v, 7000000010);
	CHECK(e.busy_pct == 100.0);
	CHECK_EQ(e.cur, 250000010);
	/* a read that failed at 8 s: the next one's share spans 7..9 s */
	v[1] = 8000, v[2] = 3000;			/* 1000 of 4000 ticks: 25 % */
	gpu_xe__sample(&e, v, 9000000010);
	CHECK(e.busy_pct == 25.0);
	CHECK_EQ(e.cur, 250000010 + 500000000);		/* a quarter of two seconds */
	v[0] = 1;					/* not the two events of the group */
	v[1] = 9000;
	gpu_xe__sample(&e, v, 9000000020);
	CHECK_EQ(e.ticks[0], 8000);
	CHECK_EQ(e.t_read, 9000000010);
}

int main(void)
{
	RUN(test_query);
	RUN(test_sample);
	RUN(test_terms);
	return check_done("gpu_xe");
}
