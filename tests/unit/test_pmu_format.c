// SPDX-License-Identifier: GPL-2.0
/*
 * test_pmu_format.c - format terms and event encoding.  The CXL CPMU terms
 * are upstream drivers/perf/cxl_pmu.c's; the CXL HMU terms design.rst 4.1's.
 * Expected configs are assembled by hand with shifts, not by the encoder.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "pmu/pmu_internal.h"

static struct hwt_pmu *cpmu(void)
{
	static const char *const t[][2] = {
		{ "mask", "config:0-31" }, { "gid", "config:32-47" }, { "vid", "config:48-63" },
		{ "threshold", "config1:0-15" }, { "invert", "config1:16" },
		{ "edge", "config1:17" }, { "hdm_filter_en", "config1:18" },
		{ "hdm", "config2:0-15" },
	};
	struct hwt_pmu *p = hwt_pmu__new("cxl_pmu_mem0.0", 12);
	char err[256];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		CHECK_EQ(hwt_pmu__add_format(p, t[i][0], t[i][1], err, sizeof(err)), 0);
	CHECK_EQ(hwt_pmu__add_event(p, "clock_ticks", "config=0x1e98000000000001\n"), 0);
	return p;
}

struct last_error {
	char msg[256];
	char rtype[32];
};

static void keep_error(void *ctx, const struct hwt_error *e)
{
	struct last_error *le = ctx;

	snprintf(le->msg, sizeof(le->msg), "%s", e->msg);
	snprintf(le->rtype, sizeof(le->rtype), "%s", e->rtype);
}

static void test_cpmu_encode(void)
{
	struct hwt_pmu *p = cpmu();
	struct perf_event_attr a = { 0 };
	char err[256];

	CHECK_EQ(hwt_pmu__encode_err(p, "mask=0xff,gid=0x10,vid=0x1e98,threshold=3,invert,edge,"
				     "hdm_filter_en,hdm=0x5", &a, err, sizeof(err)), 0);
	CHECK_EQ(a.type, 12);
	CHECK_EQ(a.config, (0x1e98ull << 48) | (0x10ull << 32) | 0xff);
	CHECK_EQ(a.config1, 3 | 1u << 16 | 1u << 17 | 1u << 18);
	CHECK_EQ(a.config2, 5);

	memset(&a, 0, sizeof(a));
	CHECK_EQ(hwt_pmu__encode_err(p, "clock_ticks", &a, err, sizeof(err)), 0);
	CHECK_EQ(a.config, (0x1e98ull << 48) | 1);	/* vid CXL, gid 0, mask 1 */
	/* an alias then a term: the term replaces its bits */
	memset(&a, 0, sizeof(a));
	CHECK_EQ(hwt_pmu__encode_err(p, "clock_ticks,mask=2", &a, err, sizeof(err)), 0);
	CHECK_EQ(a.config, (0x1e98ull << 48) | 2);
	hwt_pmu__delete(p);
}

static void test_cpmu_errors(void)
{
	struct hwt_pmu *p = cpmu();
	struct perf_event_attr a = { 0 };
	char err[256];

	CHECK_EQ(hwt_pmu__encode_err(p, "mask=0x100000000", &a, err, sizeof(err)), -1);
	CHECK(strstr(err, "'mask'") && strstr(err, "config:0-31") && strstr(err, "32 bits"));
	CHECK_EQ(hwt_pmu__encode_err(p, "invert=2", &a, err, sizeof(err)), -1);
	CHECK(strstr(err, "'invert'") && strstr(err, "config1:16") && strstr(err, "1 bit"));
	CHECK_EQ(hwt_pmu__encode_err(p, "hdm=0x10000", &a, err, sizeof(err)), -1);
	CHECK(strstr(err, "config2:0-15"));
	CHECK_EQ(hwt_pmu__encode_err(p, "bogus=1", &a, err, sizeof(err)), -1);
	CHECK(strstr(err, "unknown term 'bogus'") && strstr(err, "mask"));
	CHECK_EQ(hwt_pmu__encode_err(p, "mask=12abc", &a, err, sizeof(err)), -1);
	CHECK(strstr(err, "bad value '12abc'") && strstr(err, "config:0-31"));
	CHECK_EQ(hwt_pmu__encode_err(p, "mask=-1", &a, err, sizeof(err)), -1);
	hwt_pmu__delete(p);
}

static void test_formats(void)
{
	struct hwt_pmu *p = hwt_pmu__new("x", 7);
	struct perf_event_attr a = { 0 };
	char err[256];

	CHECK_EQ(hwt_pmu__add_format(p, "split", "config:0-7,32-35\n", err, sizeof(err)), 0);
	CHECK_EQ(hwt_pmu__add_format(p, "event", "config:0-7", err, sizeof(err)), 0);
	CHECK_EQ(hwt_pmu__add_format(p, "umask", "config:8-15", err, sizeof(err)), 0);
	CHECK_EQ(hwt_pmu__add_format(p, "full", "config2:0-63", err, sizeof(err)), 0);
	CHECK_EQ(hwt_pmu__add_event(p, "ev", "event=0x3c,umask=1"), 0);
	CHECK_EQ(hwt_pmu__add_event(p, "param", "event=0x1,umask=?"), 0);
	CHECK_EQ(hwt_pmu__encode_err(p, "split=0xabc", &a, err, sizeof(err)), 0);
	CHECK_EQ(a.config, 0xbcull | (0xaull << 32));	/* low 8 bits, then the next 4 */
	CHECK_EQ(hwt_pmu__encode_err(p, "split=0x1000", &a, err, sizeof(err)), -1);
	CHECK(strstr(err, "config:0-7,32-35") && strstr(err, "12 bits"));
	memset(&a, 0, sizeof(a));
	CHECK_EQ(hwt_pmu__encode_err(p, "ev,full=0xffffffffffffffff", &a, err, sizeof(err)), 0);
	CHECK_EQ(a.config, 0x13c);
	CHECK_EQ(a.config2, UINT64_MAX);
	CHECK_EQ(hwt_pmu__encode_err(p, "param", &a, err, sizeof(err)), -1);
	CHECK(strstr(err, "needs a value"));
	CHECK_EQ(hwt_pmu__encode_err(p, "config1=0x42,period=1000", &a, err, sizeof(err)), 0);
	CHECK_EQ(a.config1, 0x42);
	CHECK_EQ(a.sample_period, 1000);
	CHECK_EQ(hwt_pmu__add_format(p, "bad", "config:5-3", err, sizeof(err)), -1);
	CHECK_EQ(hwt_pmu__add_format(p, "bad", "config:0-64", err, sizeof(err)), -1);
	CHECK_EQ(hwt_pmu__add_format(p, "bad", "config9:0", err, sizeof(err)), -1);
	CHECK(strstr(err, "config9"));
	CHECK_EQ(hwt_pmu__add_format(p, "bad", "config:", err, sizeof(err)), -1);
	hwt_pmu__delete(p);
}

/* A sign after '=' (blanks first) is junk, not 2^64 - 1 from strtoull(). */
static void test_signed_values(void)
{
	struct hwt_pmu *p = hwt_pmu__new("x", 7);
	struct perf_event_attr a = { 0 };
	char err[256];

	CHECK_EQ(hwt_pmu__add_format(p, "full", "config2:0-63", err, sizeof(err)), 0);
	CHECK_EQ(hwt_pmu__encode_err(p, "full= -1", &a, err, sizeof(err)), -1);
	CHECK(strstr(err, "bad value ' -1'"));
	CHECK_EQ(a.config2, 0);
	CHECK_EQ(hwt_pmu__encode_err(p, "config=\t-2", &a, err, sizeof(err)), -1);
	CHECK_EQ(a.config, 0);
	/* blanks are fine */
	CHECK_EQ(hwt_pmu__encode_err(p, "full= 5", &a, err, sizeof(err)), 0);
	CHECK_EQ(a.config2, 5);
	hwt_pmu__delete(p);
}

/* Term values read back from configs assembled by hand. */
static void test_term_value(void)
{
	struct hwt_pmu *p = hwt_pmu__new("x", 7);
	struct perf_event_attr a = { 0 };
	char err[256];
	uint64_t v = 99;

	CHECK_EQ(hwt_pmu__add_format(p, "split", "config:0-7,32-35", err, sizeof(err)), 0);
	CHECK_EQ(hwt_pmu__add_format(p, "bit", "config1:63", err, sizeof(err)), 0);
	CHECK_EQ(hwt_pmu__add_format(p, "full", "config2:0-63", err, sizeof(err)), 0);
	a.config = 0xbcull | (0xaull << 32) | (0xfull << 40);	/* bits 40-43 belong to no term */
	a.config1 = 1ull << 63;
	a.config2 = 0x8000000000000001ull;
	CHECK_EQ(hwt_pmu__term_value(p, &a, "split", &v), 0);
	CHECK_EQ(v, 0xabc);
	CHECK_EQ(hwt_pmu__term_value(p, &a, "bit", &v), 0);
	CHECK_EQ(v, 1);
	CHECK_EQ(hwt_pmu__term_value(p, &a, "full", &v), 0);
	CHECK_EQ(v, 0x8000000000000001ull);
	v = 99;
	CHECK_EQ(hwt_pmu__term_value(p, &a, "spli", &v), -1);
	CHECK_EQ(v, 99);
	hwt_pmu__delete(p);
}

static void test_cpulist(void)
{
	int c[16];

	CHECK_EQ(hwt_cpulist__parse("0-3,8\n", c, 16), 5);
	CHECK_EQ(c[3], 3);
	CHECK_EQ(c[4], 8);
	CHECK_EQ(hwt_cpulist__parse("2", c, 16), 1);
	CHECK_EQ(hwt_cpulist__parse("", c, 16), 0);
	CHECK_EQ(hwt_cpulist__parse("3-1", c, 16), -1);
	CHECK_EQ(hwt_cpulist__parse("x", c, 16), -1);
}

/* The online list of a sysfs fixture; a root without one falls back to this machine's. */
static void test_online(void)
{
	char root[] = "/tmp/hwt-cpu-XXXXXX", cmd[600];
	int c[16];

	CHECK(mkdtemp(root) != NULL);
	check_put_file(root, "devices/system/cpu/online", "0-1,3\n");
	CHECK_EQ(hwt_cpulist__online(root, c, 16), 3);
	CHECK(c[0] == 0 && c[1] == 1 && c[2] == 3);
	CHECK_EQ(hwt_cpulist__online("/nonexistent", c, 16),
		 sysconf(_SC_NPROCESSORS_ONLN) < 16 ? sysconf(_SC_NPROCESSORS_ONLN) : 16);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK_EQ(system(cmd), 0);
}

/*
 * arm_spe_0 as Linux 6.3+ describes it: inv_event_filter is config3:0-63.
 * The PMU and its other terms stay usable, with any build; the file of a
 * newer syntax than ours ("config9", a bit past 63) costs only its term, with
 * one warning each through the diag.
 */
static void test_config3_and_bad_format(void)
{
	/* arm_spe's formats, with a config3 and two it cannot take */
	static const char *const spe[][2] = {
		{ "type", "8\n" }, { "format/ts_enable", "config:0\n" },
		{ "format/min_latency", "config2:0-11\n" },
		{ "format/inv_event_filter", "config3:0-63\n" },
		{ "format/future", "config9:0-3\n" }, { "format/wide", "config:60-70\n" },
	};
	char root[] = "/tmp/hwt-spe-XXXXXX", cmd[700], dir[600];
	struct last_error le = { { 0 } };
	struct hwt_diag d = { .report = keep_error, .ctx = &le };
	struct perf_event_attr a = { 0 };
	struct hwt_pmu *p;
	const char *spec;
	char err[256];
	bool has_inv = false;

	CHECK(mkdtemp(root) != NULL);
	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices/arm_spe_0", root);
	check_put_files(dir, spe, CHECK_NFILES(spe));
	p = hwt_pmu__new_sysfs(root, "arm_spe_0", &d);
	CHECK(p != NULL);
	if (!p)
		return;
	CHECK_EQ(d.errors, 0);
	CHECK_EQ(d.warnings, 2);
	CHECK(strstr(le.msg, "term dropped") != NULL);
	CHECK_EQ(hwt_pmu__nterms(p), 3);
	for (int i = 0; i < hwt_pmu__nterms(p); i++)
		if (!strcmp(hwt_pmu__term(p, i, &spec), "inv_event_filter"))
			has_inv = !strcmp(spec, "config3:0-63");
	CHECK(has_inv);
	CHECK(hwt_pmu__warnings(p) && strstr(hwt_pmu__warnings(p), "arm_spe_0/format/future"));
	CHECK_EQ(hwt_pmu__encode_err(p, "ts_enable,min_latency=20,inv_event_filter=0", &a, err,
				     sizeof(err)), 0);
	CHECK_EQ(a.config, 1);
	CHECK_EQ(a.config2, 20);
	memset(&a, 0, sizeof(a));
	if (hwt_pmu__config_words() == 4) {
#ifdef PERF_ATTR_SIZE_VER8
		CHECK_EQ(hwt_pmu__encode_err(p, "inv_event_filter=0x5", &a, err, sizeof(err)), 0);
		CHECK_EQ(a.config3, 5);
#endif
	} else {
		/* this build cannot pass config3 to the kernel: the term says so */
		CHECK_EQ(hwt_pmu__encode_err(p, "inv_event_filter=0x5", &a, err, sizeof(err)), -1);
		CHECK(strstr(err, "inv_event_filter") && strstr(err, "config3"));
	}
	hwt_pmu__delete(p);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK_EQ(system(cmd), 0);
}

/*
 * hv_24x7's parameterised aliases: "chip=?" takes the value the user gives
 * (perf stat -e hv_24x7/PM_XLINK_CYCLES__PHYS_CHIP,chip=1/), an unset one is
 * an error naming it; a term given twice is an error.
 */
static void test_params_and_duplicates(void)
{
	static const char *const t[][2] = {
		{ "domain", "config:0-3" }, { "offset", "config:16-31" },
		{ "chip", "config:32-47" }, { "lpar", "config1:0-15" },
	};
	struct hwt_pmu *p = hwt_pmu__new("hv_24x7", 20);
	struct perf_event_attr a = { 0 };
	char err[256];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		CHECK_EQ(hwt_pmu__add_format(p, t[i][0], t[i][1], err, sizeof(err)), 0);
	CHECK_EQ(hwt_pmu__add_event(p, "PM_XLINK_CYCLES__PHYS_CHIP",
				    "domain=0x1,offset=0x230,chip=?,lpar=0x0\n"), 0);
	CHECK_EQ(hwt_pmu__encode_err(p, "PM_XLINK_CYCLES__PHYS_CHIP,chip=1", &a, err,
				     sizeof(err)), 0);
	CHECK_EQ(a.config, 1 | 0x230ull << 16 | 1ull << 32);
	CHECK_EQ(a.config1, 0);
	memset(&a, 0, sizeof(a));	/* the value may come first too */
	CHECK_EQ(hwt_pmu__encode_err(p, "chip=3,PM_XLINK_CYCLES__PHYS_CHIP", &a, err,
				     sizeof(err)), 0);
	CHECK_EQ(a.config, 1 | 0x230ull << 16 | 3ull << 32);
	err[0] = 0;
	CHECK_EQ(hwt_pmu__encode_err(p, "PM_XLINK_CYCLES__PHYS_CHIP", &a, err, sizeof(err)), -1);
	CHECK(strstr(err, "'chip'") != NULL);
	CHECK_EQ(hwt_pmu__encode_err(p, "domain=?", &a, err, sizeof(err)), -1);
	err[0] = 0;
	CHECK_EQ(hwt_pmu__encode_err(p, "domain=1,domain=2", &a, err, sizeof(err)), -1);
	CHECK(strstr(err, "'domain' given twice") != NULL);
	CHECK_EQ(hwt_pmu__encode_err(p, "PM_XLINK_CYCLES__PHYS_CHIP,chip=1,chip=2", &a, err,
				     sizeof(err)), -1);
	hwt_pmu__delete(p);
}

/* perf's -e lists: commas inside pmu/.../ belong to the event. */
static void test_event_list_split(void)
{
	char **v;
	int n = hwt_event_list__split("a/x=1/,b/y=1,z=2/,cycles,,c/w/", &v);

	CHECK_EQ(n, 4);
	if (n == 4) {
		CHECK(!strcmp(v[0], "a/x=1/"));
		CHECK(!strcmp(v[1], "b/y=1,z=2/"));
		CHECK(!strcmp(v[2], "cycles"));
		CHECK(!strcmp(v[3], "c/w/"));
	}
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The CXL HMU PMU as the RFC driver describes it in sysfs, read back from files. */
static void test_hmu_sysfs(void)
{
	static const char *const t[][2] = {
		{ "epoch_type", "config:0-1" }, { "access_type", "config:2-9" },
		{ "epoch_scale", "config:10-13" }, { "epoch_multiplier", "config:14-25" },
		{ "randomized_downsampling", "config:26-26" },
		{ "downsampling_factor", "config:27-34" }, { "hotness_threshold", "config1:0-31" },
		{ "hotness_granual", "config1:32-63" }, { "range_base", "config2:0-31" },
		{ "range_size", "config2:32-63" },
	};
	char root[] = "/tmp/hwt-pmu-XXXXXX", dir[512], fmt[600], err[256];
	struct perf_event_attr a = { 0 };
	struct hwt_pmu *p = NULL;
	int cpus[4];

	CHECK(mkdtemp(root) != NULL);
	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices/cxl_hmu_mem0.0.0", root);
	check_put_file(dir, "type", "42\n");
	check_put_file(dir, "cpumask", "1\n");
	snprintf(fmt, sizeof(fmt), "%s/format", dir);
	check_put_files(fmt, t, CHECK_NFILES(t));

	CHECK_EQ(hwt_pmu__parse_event_err(root, "cxl_hmu_mem0.0.0/epoch_type=1,access_type=6,"
					  "epoch_scale=4,epoch_multiplier=3,randomized_downsampling,"
					  "downsampling_factor=2,hotness_threshold=5,hotness_granual=12,"
					  "range_base=0,range_size=4/", &a, &p, err, sizeof(err)), 0);
	CHECK_EQ(a.type, 42);
	CHECK_EQ(a.config, 1 | 6u << 2 | 4u << 10 | 3u << 14 | 1u << 26 | 2ull << 27);
	CHECK_EQ(a.config1, 5 | 12ull << 32);
	CHECK_EQ(a.config2, 4ull << 32);
	CHECK(p != NULL);
	if (p) {
		CHECK_STR(hwt_pmu__name(p), "cxl_hmu_mem0.0.0");
		CHECK_EQ(hwt_pmu__cpus(p, cpus, 4), 1);
		CHECK_EQ(cpus[0], 1);
		CHECK_EQ(hwt_pmu__nterms(p), 10);
		CHECK(!hwt_pmu__counting_only(p));
		hwt_pmu__delete(p);
	}
	CHECK_EQ(hwt_pmu__parse_event_err(root, "cxl_hmu_mem0.0.0/epoch_type=4/", &a, NULL, err,
					  sizeof(err)), -1);
	CHECK(strstr(err, "epoch_type") && strstr(err, "config:0-1"));
	CHECK_EQ(hwt_pmu__parse_event_err(root, "nope/x=1/", &a, NULL, err, sizeof(err)), -1);
	CHECK(strstr(err, "unknown PMU 'nope'"));
	CHECK_EQ(hwt_pmu__parse_event_err(root, "cxl_hmu_mem0.0.0/epoch_type=1/u", &a, NULL, err,
					  sizeof(err)), -1);
	CHECK_EQ(hwt_pmu__parse_event_err(root, "../x/", &a, NULL, err, sizeof(err)), -1);
	CHECK_EQ(hwt_pmu__parse_event_err(root, "cpu-clock", &a, &p, err, sizeof(err)), 0);
	CHECK_EQ(a.type, PERF_TYPE_SOFTWARE);
	CHECK_EQ(a.config, PERF_COUNT_SW_CPU_CLOCK);
	CHECK(p == NULL);
	/* the public forms report through struct hwt_diag */
	{
		struct last_error le = { 0 };
		struct hwt_diag d = { .report = keep_error, .ctx = &le, .file = "sysfs" };
		struct hwt_pmu *q;

		CHECK_EQ(hwt_pmu__parse_event(root, "cxl_hmu_mem0.0.0/epoch_type=4/", &a, NULL, &d), -1);
		CHECK_EQ(d.errors, 1);
		CHECK(strstr(le.msg, "epoch_type") && strstr(le.msg, "config:0-1"));
		CHECK_STR(le.rtype, "event");
		CHECK(hwt_pmu__new_sysfs(root, "nope", &d) == NULL);
		CHECK_EQ(d.errors, 2);
		CHECK(strstr(le.msg, "unknown PMU 'nope'"));
		CHECK_STR(le.rtype, "sysfs PMU");
		q = hwt_pmu__new_sysfs(root, "cxl_hmu_mem0.0.0", &d);
		CHECK(q != NULL);
		CHECK_EQ(hwt_pmu__type(q), 42);
		CHECK_EQ(hwt_pmu__encode(q, "epoch_type=2,range_size=4", &a, &d), 0);
		CHECK_EQ(a.config, 2);
		CHECK_EQ(a.config2, 4ull << 32);
		CHECK_EQ(hwt_pmu__encode(q, "bogus=1", &a, &d), -1);
		CHECK_EQ(d.errors, 3);
		CHECK(strstr(le.msg, "bogus"));
		hwt_pmu__delete(q);
	}
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
		CHECK_EQ(system(cmd), 0);
	}
}

int main(void)
{
	RUN(test_cpmu_encode);
	RUN(test_cpmu_errors);
	RUN(test_formats);
	RUN(test_signed_values);
	RUN(test_term_value);
	RUN(test_cpulist);
	RUN(test_online);
	RUN(test_hmu_sysfs);
	RUN(test_config3_and_bad_format);
	RUN(test_params_and_duplicates);
	RUN(test_event_list_split);
	return check_done("pmu_format");
}
