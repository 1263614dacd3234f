// SPDX-License-Identifier: GPL-2.0
/*
 * test_i915_metrics_only.c - the i915 metrics computer with a list of the
 * metrics shown (script -F, hwt_aux_ctx.metrics_only): those it computes,
 * to the bit as without the list (GpuTime as the timestamps give it);
 * every other one is NaN; an empty list computes none; and report's
 * groups, which show every metric, ignore it.  The values themselves are
 * i915_metrics.bats' (against i915-perf-reader).
 */
#include <math.h>

#include "check.h"
#include "i915_perf_present.h"
#include "hwtrace/metrics.h"
#include "i915_oa/i915_oa_internal.h"

/* drm_i915_query_topology_info: 1 slice, 6 subslices of 16 EUs */
static const uint8_t topology[30] = {
	0, 0, 1, 0, 6, 0, 16, 0, 1, 0, 1, 0, 2, 0, 2, 0,
	0x01, 0x3f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

/* a Tigerlake GT2 recording of RenderBasic, as IGT's DEVICE_INFO gives it */
static const struct hwt_i915_oa_device tgl = {
	.devid = 0x9a49, .gen = 1200, .ts_freq = 19200000, .gt_min = 350000000,
	.gt_max = 1350000000, .metric_set = "RenderBasic", .uuid = "",
	.topology = topology, .topology_size = sizeof(topology),
};

/* A32u40_A4u32_B8_C8: 36 A, 8 B, 8 C counters */
static uint64_t a[36], b[8], c[8], da[36], db[8], dc[8];

/* the second report of two (the first has no delta): 1 ms at 1 GHz */
static const struct hwt_metrics *feed(const struct hwt_metrics_ops *ops, void *m)
{
	struct hwt_i915_oa_report r = {
		.ctx = 0x20, .ctx_valid = true, .a = a, .b = b, .c = c,
		.na = 36, .nb = 8, .nc = 8,
	};
	struct hwt_record dev = { .type = &hwt_rt_i915_oa_device, .data = &tgl };
	struct hwt_record rep = { .type = &hwt_rt_i915_oa_report, .data = &r };

	for (int i = 0; i < 36; i++)
		da[i] = 100000 + 7919 * (uint64_t)i;
	for (int i = 0; i < 8; i++) {
		db[i] = 20000 + 104729 * (uint64_t)i;
		dc[i] = 30000 + 1299709 * (uint64_t)i;
	}
	ops->record(m, &dev);
	ops->record(m, &rep);	/* the baseline */
	r.has_delta = true;
	r.dts = 19200;
	r.dticks = 1000000;
	r.da = da;
	r.db = db;
	r.dc = dc;
	return ops->record(m, &rep);
}

/* what a run's record showed, kept past the computer's free() */
struct run {
	uint32_t n;
	const char *names[1024];	/* the library's: they live as long as it */
	bool integer[1024];
	double vals[1024];
	uint64_t uvals[1024];
	bool got;
};

/* the report's metrics with @only (@n names, NULL: all) and @no_groups */
static void run_with(const char *const *only, uint32_t n, bool no_groups, struct run *out)
{
	const struct hwt_metrics_ops *ops = &hwt_i915_oa_metrics;
	struct hwt_aux_ctx ctx = {
		.raw = true, .metrics = true, .metrics_no_groups = no_groups,
		.metrics_only = only, .nmetrics_only = n,
	};
	struct hwt_diag diag = { 0 };
	const struct hwt_metrics *m;
	void *st = ops->new(&ctx, &diag);

	memset(out, 0, sizeof(*out));
	CHECK(st != NULL);
	if (!st)
		return;
	m = feed(ops, st);
	CHECK(m != NULL);
	CHECK_EQ(diag.warnings + diag.errors, 0);
	if (m && m->n <= 1024) {
		out->n = m->n;
		for (uint32_t i = 0; i < m->n; i++) {
			out->names[i] = m->defs[i].name;
			out->integer[i] = m->defs[i].integer;
		}
		memcpy(out->vals, m->vals, m->n * sizeof(*m->vals));
		if (m->uvals)
			memcpy(out->uvals, m->uvals, m->n * sizeof(*m->uvals));
		out->got = true;
	}
	ops->free(st);
}

static bool same_bits(double x, double y)
{
	return !memcmp(&x, &y, sizeof(x));
}

static void test_only_the_named(void)
{
	static const char *const only[] = { "time", "GpuBusy", "GpuTime", "EuActive" };
	static struct run all, some;
	uint32_t finite = 0, shown = 0;

	run_with(NULL, 0, true, &all);
	run_with(only, 4, true, &some);
	CHECK(all.got && some.got);
	if (!all.got || !some.got)
		return;
	CHECK_EQ(some.n, all.n);	/* the set's definitions are all there */
	for (uint32_t i = 0; i < all.n; i++) {
		const char *name = all.names[i];
		bool named = !strcmp(name, "GpuBusy") || !strcmp(name, "GpuTime") ||
			     !strcmp(name, "EuActive");

		finite += isfinite(all.vals[i]);
		if (!named) {
			CHECK(isnan(some.vals[i]));
			continue;
		}
		shown++;
		CHECK(same_bits(some.vals[i], all.vals[i]));
		if (all.integer[i])
			CHECK_EQ(some.uvals[i], all.uvals[i]);
		/* IGT's GpuTime: the timestamp delta in ns, 19200 ticks at 19.2 MHz */
		if (!strcmp(name, "GpuTime")) {
			CHECK(all.integer[i]);
			CHECK_EQ(some.uvals[i], 1000000);
		}
	}
	CHECK_EQ(shown, 3);
	/* the whole set was computed: most of its values are numbers */
	CHECK(finite > all.n / 2);
}

static void test_empty_list_none(void)
{
	static const char *const only[] = { "time" };
	static struct run none;

	run_with(only, 1, true, &none);
	CHECK(none.got);
	for (uint32_t i = 0; none.got && i < none.n; i++)
		CHECK(isnan(none.vals[i]));
	run_with(only, 0, true, &none);
	CHECK(none.got);
	for (uint32_t i = 0; none.got && i < none.n; i++)
		CHECK(isnan(none.vals[i]));
}

/* report's groups show every metric: the list is not for them */
static void test_groups_take_all(void)
{
	static const char *const only[] = { "GpuBusy" };
	static struct run all, grouped;

	run_with(NULL, 0, true, &all);
	run_with(only, 1, false, &grouped);
	CHECK(all.got && grouped.got);
	for (uint32_t i = 0; all.got && grouped.got && i < all.n; i++)
		CHECK(same_bits(grouped.vals[i], all.vals[i]));
}

int main(void)
{
	if (!i915_perf_present()) {
		printf("i915_metrics_only: skipped, libi915_perf.so.1.5 not found\n");
		return 0;
	}
	RUN(test_only_the_named);
	RUN(test_empty_list_none);
	RUN(test_groups_take_all);
	return check_done("i915_metrics_only");
}
