// SPDX-License-Identifier: GPL-2.0
/*
 * test_devices.c - the device table is the one registry: every device is
 * found by name and by its PMU names, its record types are the table's and
 * no other device's, and the AUXTRACE_INFO its generator writes (through the
 * device's encoder, as `record` writes it) is claimed by its own decoder.
 *
 * The expected names, PMU names and priv[] sizes are written out here from
 * design.rst 4, not taken from the table under test.
 */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "hwtrace/device.h"
#include "hwtrace/synth.h"
#include "core/decoder_internal.h"

/* What design.rst 4 says each device is. */
static const struct {
	const char *name;
	const char *pmu;		/* a PMU name of the device */
	uint32_t auxtrace_type;
	uint32_t npriv;			/* AUXTRACE_INFO priv[] words */
	const char *types[8];		/* its record types */
} want[] = {
	{ "cxl-hmu", "cxl_hmu_mem0.0.0", 7, 1,
	  { "cxl_hmu_unit", "cxl_hmu_packet", "cxl_hmu_summary", "cxl_hmu_hot" } },
	{ "i915-oa", "i915_oa0", 0x48570002, 32,	/* layout 2 */
	  { "i915_oa_report", "i915_oa_lost", "i915_oa_context", "i915_oa_stream",
	    "i915_oa_device", "i915_oa_ctx_sums" } },
	{ "panthor", "panthor_perf0", 0x48570001, 16,
	  { "panthor_block", "panthor_sample", "panthor_summary", "panthor_block_total",
	    "panthor_aggregate", "panthor_counter" } },
	{ "drm-usage", "drm_usage", 0x48570003, 2,
	  { "drm_usage_engine", "drm_usage_memory", "drm_usage_gpu", "drm_usage_gpu_engine" } },
};
#define NWANT (sizeof(want) / sizeof(want[0]))

static size_t ndevices(void)
{
	size_t n = 0;

	while (hwt_devices[n])
		n++;
	return n;
}

static void test_lookup(void)
{
	CHECK_EQ(ndevices(), NWANT);
	for (size_t i = 0; i < NWANT; i++) {
		const struct hwt_device *dev = hwt_device__find(want[i].name);

		CHECK(dev != NULL);
		if (!dev)
			continue;
		CHECK_STR(dev->name, want[i].name);
		CHECK_EQ(dev->auxtrace_type, want[i].auxtrace_type);
		CHECK(hwt_device__by_pmu(want[i].pmu) == dev);
		CHECK(dev->decoder && dev->decoder->match && dev->decoder->new);
		CHECK(dev->synth && dev->synth->write && dev->synth->help);
		CHECK(dev->auxinfo != NULL);
	}
	CHECK(hwt_device__find("nosuch") == NULL);
	/* an event name with its terms is its PMU's */
	CHECK(hwt_device__by_pmu("cxl_hmu_mem1.0.0/hotness_granual=12/") ==
	      hwt_device__find("cxl-hmu"));
	/* other PMUs, and names that only start alike, are nobody's */
	CHECK(hwt_device__by_pmu("cpu") == NULL);
	CHECK(hwt_device__by_pmu("vpa_dtl") == NULL);
	CHECK(hwt_device__by_pmu("cxl_pmu_mem0.0") == NULL);
	CHECK(hwt_device__by_pmu("panthor") == NULL);
	CHECK(hwt_device__by_pmu(NULL) == NULL);
}

/* Every record type is one device's, listed once, and found by name. */
static void test_record_types(void)
{
	const struct hwt_record_type *seen[64];
	size_t nseen = 0;

	hwt_devices__for_each_type(d, t) {
		for (size_t k = 0; k < nseen; k++) {
			CHECK(seen[k] != *t);
			CHECK(strcmp(seen[k]->name, (*t)->name));
			CHECK(seen[k]->id != (*t)->id);
		}
		if (nseen < 64)
			seen[nseen++] = *t;
		CHECK(hwt_record_type__find((*t)->name) == *t);
	}
	for (size_t i = 0; i < NWANT; i++) {
		const struct hwt_device *dev = hwt_device__find(want[i].name);
		size_t n = 0;

		if (!dev)
			continue;
		for (size_t k = 0; want[i].types[k]; k++) {
			const struct hwt_record_type *t = hwt_record_type__find(want[i].types[k]);
			bool mine = false;

			CHECK(t != NULL);
			for (const struct hwt_record_type *const *p = dev->record_types; *p; p++)
				mine |= *p == t;
			CHECK(mine);
			n++;
		}
		for (const struct hwt_record_type *const *p = dev->record_types; *p; p++)
			n--;
		CHECK_EQ(n, 0);		/* no type beyond the ones design.rst lists */
	}
	CHECK(hwt_record_type__find("nosuch") == NULL);
}

struct seen {
	const struct hwt_device *dev;
	uint32_t streams;
	uint64_t records, foreign;
	uint32_t info_type;
	uint16_t info_size;
	uint64_t info[2 + 64];
};

static void on_event(void *ctx, const struct hwt_reader *r, const struct hwt_event *ev)
{
	struct seen *s = ctx;

	if (ev->hdr->type != HWT_REC_AUXTRACE_INFO || ev->hdr->size > sizeof(s->info))
		return;
	memcpy(s->info, ev->hdr, ev->hdr->size);
	s->info_size = ev->hdr->size;
	s->info_type = ((const struct hwt_auxtrace_info *)ev->hdr)->type;
}

static void on_stream(void *ctx, const struct hwt_stream *st)
{
	struct seen *s = ctx;

	s->streams++;
	s->dev = st->dev;
}

static void on_record(void *ctx, const struct hwt_record *rec)
{
	struct seen *s = ctx;
	bool mine = false;

	for (const struct hwt_record_type *const *p = s->dev->record_types; *p; p++)
		mine |= *p == rec->type;
	s->records++;
	s->foreign += !mine;
}

/*
 * Each device's generator writes a file its own decoder claims and decodes
 * into its own record types; its AUXTRACE_INFO has the size design.rst gives,
 * as has the one `record` writes with every value its default, which the
 * device's decoder claims and starts on too.
 */
static void test_synth_round_trip(void)
{
	for (size_t i = 0; i < NWANT; i++) {
		const struct hwt_device *dev = hwt_device__find(want[i].name);
		char path[] = "/tmp/hwt-devices-XXXXXX", err[256];
		struct hwt_synth_opts so = { .seed = 1, .size = 16384 };
		struct hwt_diag diag = { 0 };
		struct hwt_session_opts o = { 0 };
		struct seen s = { 0 };
		struct hwt_sink sink = {
			.event = on_event, .stream = on_stream, .record = on_record, .ctx = &s,
		};
		uint64_t rec[2 + 64];
		struct hwt_writer *w;
		int fd, n;

		if (!dev)
			continue;
		fd = mkstemp(path);
		CHECK(fd >= 0);
		close(fd);
		w = hwt_writer__new(path, false);
		CHECK(w != NULL);
		if (!w)
			continue;
		CHECK_EQ(hwt_synth__write(dev, w, &so, &diag), 0);
		CHECK_EQ(hwt_writer__delete(w), 0);
		CHECK_EQ(diag.errors, 0);
		CHECK_EQ(hwt_session__run(path, &o, &sink, &diag), 0);
		unlink(path);
		CHECK_EQ(s.streams, 1);
		CHECK(s.dev == dev);
		CHECK(s.records > 0);
		CHECK_EQ(s.foreign, 0);
		CHECK_EQ(s.info_type, want[i].auxtrace_type);
		CHECK_EQ(s.info_size, 16 + 8 * want[i].npriv);

		/* record's encoding, every value its default */
		n = hwt_device__auxinfo(dev, 42, want[i].pmu, NULL, rec, sizeof(rec) / 8, err,
					sizeof(err));
		CHECK_EQ(n, 16 + 8 * want[i].npriv);
		CHECK_EQ(rec[2 + HWT_AUXTRACE_PRIV_PMU], 42);
		CHECK(!memcmp(rec, s.info, 16));	/* header, type */
		if (n > 0) {
			struct hwt_aux_ctx ctx = {
				.auxtrace_type = dev->auxtrace_type, .priv = rec + 2,
				.npriv = (uint32_t)(n - 16) / 8, .pmu_name = want[i].pmu,
			};
			void *st;

			CHECK(hwt_device__match(&ctx) == dev);
			st = dev->decoder->new(&ctx, &diag);
			CHECK(st != NULL);
			if (st && dev->decoder->free)
				dev->decoder->free(st);
			CHECK_EQ(diag.errors, 0);
		}
	}
}

/* An encoder takes its values from the lookup; one it refuses is an error. */
static int bad_layout(void *ctx, const char *key, uint64_t *v)
{
	if (strcmp(key, "layout") && strcmp(key, "oa_format"))
		return -1;
	*v = 999;		/* no panthor layout, no OA format */
	return 0;
}

static void test_encoder_lookup(void)
{
	struct hwt_auxinfo_lookup lk = { .get = bad_layout };
	char err[256] = "";
	uint64_t rec[2 + 64];

	CHECK_EQ(hwt_device__auxinfo(hwt_device__find("panthor"), 43, "panthor_perf0", &lk, rec,
				     sizeof(rec) / 8, err, sizeof(err)), -1);
	CHECK(strstr(err, "panthor_perf0") != NULL);
	CHECK_EQ(hwt_device__auxinfo(hwt_device__find("i915-oa"), 48, "i915_oa0", &lk, rec,
				     sizeof(rec) / 8, err, sizeof(err)), -1);
	CHECK(strstr(err, "i915_oa0") != NULL);
	/* too small a buffer is refused, not overrun */
	CHECK_EQ(hwt_device__auxinfo(hwt_device__find("panthor"), 43, "panthor_perf0", NULL, rec,
				     10, err, sizeof(err)), -1);
}

int main(void)
{
	RUN(test_lookup);
	RUN(test_record_types);
	RUN(test_synth_round_trip);
	RUN(test_encoder_lookup);
	return check_done("devices");
}
