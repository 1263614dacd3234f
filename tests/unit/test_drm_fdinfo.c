// SPDX-License-Identifier: GPL-2.0
/*
 * test_drm_fdinfo.c - fdinfo parser and utilisation on real driver outputs
 * (quoted in Documentation/drm-usage.rst); expected numbers are worked
 * out by hand from the text (e.g. 6044 KiB = 6044 * 1024 bytes).
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "drm_fdinfo/drm_fdinfo_internal.h"

static struct hwt_drm_fdinfo parse(const char *s)
{
	struct hwt_drm_fdinfo fi = { 0 };

	CHECK_EQ(hwt_drm_fdinfo__parse(&fi, s, strlen(s), 0, NULL), 0);
	return fi;
}

static uint64_t mem(const struct hwt_drm_fdinfo *fi, const char *r, enum hwt_drm_mem m)
{
	const struct hwt_drm_region *reg = hwt_drm_fdinfo__region(fi, r);

	return reg && (reg->have & (1u << m)) ? reg->bytes[m] : ~0ull;
}

static const char i915[] =
	"pos:    0\nflags:  02100002\nmnt_id: 26\nino:    284\n"
	"drm-driver:     i915\ndrm-client-id:  39\ndrm-pdev:       0000:00:02.0\n"
	"drm-total-system0:      6044 KiB\ndrm-shared-system0:     0\n"
	"drm-active-system0:     0\ndrm-resident-system0:   6044 KiB\n"
	"drm-purgeable-system0:  1688 KiB\ndrm-total-stolen-system0:       0\n"
	"drm-engine-render:      346249 ns\ndrm-engine-copy:        0 ns\n"
	"drm-engine-video:       0 ns\ndrm-engine-capacity-video:      2\n"
	"drm-engine-video-enhance:       0 ns\n";

static void test_i915(void)
{
	struct hwt_drm_fdinfo fi = parse(i915);
	struct hwt_drm_engine *e;

	CHECK_STR(fi.driver, "i915");
	CHECK_STR(fi.pdev, "0000:00:02.0");
	CHECK(fi.has_client_id);
	CHECK_EQ(fi.client_id, 39);
	CHECK_EQ(fi.nengines, 4);
	e = hwt_drm_fdinfo__engine(&fi, "render");
	CHECK(e && e->busy_ns == 346249 && e->capacity == 1);
	e = hwt_drm_fdinfo__engine(&fi, "video");
	CHECK(e && e->capacity == 2 && (e->have & HWT_DRM_HAVE_CAPACITY));
	CHECK(hwt_drm_fdinfo__engine(&fi, "video-enhance") != NULL);
	CHECK_EQ(mem(&fi, "system0", HWT_DRM_MEM_TOTAL), 6044ull * 1024);
	CHECK_EQ(mem(&fi, "system0", HWT_DRM_MEM_PURGEABLE), 1688ull * 1024);
	CHECK_EQ(mem(&fi, "system0", HWT_DRM_MEM_SHARED), 0);
	CHECK_EQ(mem(&fi, "stolen-system0", HWT_DRM_MEM_TOTAL), 0);
	CHECK_EQ(mem(&fi, "stolen-system0", HWT_DRM_MEM_RESIDENT), ~0ull);	/* absent */
	CHECK_STR(hwt_drm_fdinfo__other(&fi, "flags"), "02100002");
	CHECK_STR(hwt_drm_fdinfo__other(&fi, "ino"), "284");
	hwt_drm_fdinfo__exit(&fi);
}

/* xe: cycles + total-cycles only; "16 MiB" */
static void test_xe(void)
{
	struct hwt_drm_fdinfo fi = parse(
		"drm-driver:     xe\ndrm-client-id:  3\ndrm-pdev:       0000:03:00.0\n"
		"drm-total-gtt:  192 KiB\ndrm-shared-vram0:       16 MiB\n"
		"drm-cycles-rcs: 28257900\ndrm-total-cycles-rcs:   7655183225\n"
		"drm-cycles-ccs: 0\ndrm-total-cycles-ccs:   7655183225\n"
		"drm-engine-capacity-ccs:        4\n");
	struct hwt_drm_engine *e = hwt_drm_fdinfo__engine(&fi, "rcs");

	CHECK(e && e->cycles == 28257900 && e->total_cycles == 7655183225ull);
	CHECK_EQ(e->have, HWT_DRM_HAVE_CYCLES | HWT_DRM_HAVE_TOTAL);
	CHECK_EQ(hwt_drm_fdinfo__engine(&fi, "ccs")->capacity, 4);
	CHECK_EQ(mem(&fi, "gtt", HWT_DRM_MEM_TOTAL), 192 * 1024);
	CHECK_EQ(mem(&fi, "vram0", HWT_DRM_MEM_SHARED), 16ull << 20);
	/* "drm-total-cycles-" must not become a region named "cycles-rcs" */
	CHECK(hwt_drm_fdinfo__region(&fi, "cycles-rcs") == NULL);
	hwt_drm_fdinfo__exit(&fi);
}

/* Transitional amdgpu: two drm-client-id lines, ' \t' separators, legacy drm-memory. */
static void test_amdgpu(void)
{
	struct hwt_drm_fdinfo fi = parse(
		"drm-driver:\tamdgpu\ndrm-client-id:\t428\ndrm-pdev:\t0000:63:00.0\n"
		"pasid:\t32789\ndrm-driver:\tamdgpu\ndrm-pdev:\t0000:63:00.0\n"
		"drm-client-id:\t641912\ndrm-memory-vram:\t186708 KiB\n"
		"drm-memory-gtt: \t17828 KiB\ndrm-engine-gfx: \t107322799 ns\n");

	CHECK_EQ(fi.client_id, 428);		/* the first one wins */
	CHECK_STR(hwt_drm_fdinfo__other(&fi, "drm-client-id"), "641912");
	CHECK_EQ(mem(&fi, "vram", HWT_DRM_MEM_RESIDENT), 186708ull * 1024);
	CHECK_EQ(mem(&fi, "gtt", HWT_DRM_MEM_RESIDENT), 17828ull * 1024);
	CHECK_EQ(hwt_drm_fdinfo__engine(&fi, "gfx")->busy_ns, 107322799);
	hwt_drm_fdinfo__exit(&fi);

	/* drm-resident- and drm-memory- together: resident wins, never the sum */
	fi = parse("drm-driver: amdgpu\ndrm-resident-vram: 4 KiB\ndrm-memory-vram: 8 KiB\n");
	CHECK_EQ(mem(&fi, "vram", HWT_DRM_MEM_RESIDENT), 4096);
	hwt_drm_fdinfo__exit(&fi);
}

static void test_units_and_errors(void)
{
	struct hwt_diag d = { 0 };
	struct hwt_drm_fdinfo fi = { 0 };
	const char *s =
		"drm-driver: x\ndrm-total-a: 1 GiB\ndrm-total-b: 3 kB\ndrm-total-c: 1000\n"
		"drm-total-d: 12 furlongs\ndrm-maxfreq-e: 925000000 Hz\ndrm-maxfreq-f: 800 MHz\n"
		"drm-maxfreq-g: 5 KHz\ndrm-engine-h: 18446744073709551615 ns\n"
		"drm-engine-i: 18446744073709551616 ns\ndrm-total-j: 17179869184 GiB\n"
		"no colon here\nv3d-jobs-bin:   98 jobs\ndrm-curfreq-e: 1 Hz\n"
		"drm-client-id: 18446744073709551615\ndrm-engine-capacity-k: 0\n"
		"drm-total-last: 7";	/* no trailing newline: the last byte counts */

	CHECK_EQ(hwt_drm_fdinfo__parse(&fi, s, strlen(s), 0, &d), 0);
	CHECK_EQ(mem(&fi, "a", HWT_DRM_MEM_TOTAL), 1ull << 30);
	CHECK_EQ(mem(&fi, "b", HWT_DRM_MEM_TOTAL), 3072);
	CHECK_EQ(mem(&fi, "c", HWT_DRM_MEM_TOTAL), 1000);
	CHECK_EQ(mem(&fi, "d", HWT_DRM_MEM_TOTAL), ~0ull);
	CHECK_STR(hwt_drm_fdinfo__other(&fi, "drm-total-d"), "12 furlongs");
	CHECK_EQ(hwt_drm_fdinfo__engine(&fi, "e")->maxfreq_hz, 925000000);
	CHECK_EQ(hwt_drm_fdinfo__engine(&fi, "f")->maxfreq_hz, 800000000);
	CHECK_EQ(hwt_drm_fdinfo__engine(&fi, "g")->maxfreq_hz, 5000);
	CHECK_EQ(hwt_drm_fdinfo__engine(&fi, "h")->busy_ns, UINT64_MAX);
	CHECK(hwt_drm_fdinfo__engine(&fi, "i") == NULL);
	CHECK(hwt_drm_fdinfo__region(&fi, "j") == NULL);
	CHECK_EQ(hwt_drm_fdinfo__engine(&fi, "k")->capacity, 1);
	CHECK_EQ(fi.client_id, UINT64_MAX);
	CHECK_STR(hwt_drm_fdinfo__other(&fi, "v3d-jobs-bin"), "98 jobs");
	CHECK_STR(hwt_drm_fdinfo__other(&fi, "drm-curfreq-e"), "1 Hz");
	CHECK_EQ(mem(&fi, "last", HWT_DRM_MEM_TOTAL), 7);
	/* d, i, j, no colon, capacity 0 */
	CHECK_EQ(d.warnings, 5);
	CHECK_EQ(d.bytes.decoded + d.bytes.skipped, strlen(s));
	hwt_drm_fdinfo__exit(&fi);
}

/* 100k driver-specific lines, then the real keys: nothing truncated. */
static void test_huge(void)
{
	size_t cap = 8 << 20, len = 0;
	char *s = malloc(cap);
	struct hwt_drm_fdinfo fi = { 0 };

	for (int i = 0; i < 100000; i++)
		len += snprintf(s + len, cap - len, "amd-evicted-%d:\t%d KiB\n", i, i);
	len += snprintf(s + len, cap - len, "drm-driver: amdgpu\ndrm-client-id: 5\n");
	for (int i = 0; i < 300; i++)
		len += snprintf(s + len, cap - len, "drm-engine-e%d: %d ns\n", i, i * 3);
	len += snprintf(s + len, cap - len, "drm-total-vram: 1 MiB");
	CHECK_EQ(hwt_drm_fdinfo__parse(&fi, s, len, 0, NULL), 0);
	CHECK_EQ(fi.nother, 100000);
	CHECK_EQ(fi.nengines, 300);
	CHECK_EQ(hwt_drm_fdinfo__engine(&fi, "e299")->busy_ns, 897);
	CHECK_EQ(mem(&fi, "vram", HWT_DRM_MEM_TOTAL), 1 << 20);
	hwt_drm_fdinfo__exit(&fi);
	free(s);
}

/*
 * @n engines, each named twice: drm-engine-e<i> for all, then drm-cycles-e<i>
 * for all in reverse, so the last-hit hint never helps.  Returns the name
 * probes (comparisons and index slots looked at) of one parse.
 */
static uint64_t engines_probes(struct hwt_drm_fdinfo *fi, int n)
{
	size_t cap = (size_t)n * 64 + 64, len = 0;
	char *s = malloc(cap);
	uint64_t before = fi->name_probes;

	len += snprintf(s + len, cap - len, "drm-driver: xe\n");
	for (int i = 0; i < n; i++)
		len += snprintf(s + len, cap - len, "drm-engine-e%d: %d ns\n", i, i);
	for (int i = n - 1; i >= 0; i--)
		len += snprintf(s + len, cap - len, "drm-cycles-e%d: %d\n", i, 2 * i);
	CHECK_EQ(hwt_drm_fdinfo__parse(fi, s, len, HWT_DRM_PARSE_NO_OTHER, NULL), 0);
	CHECK_EQ(fi->nengines, (uint32_t)n);
	for (int i = 0; i < n; i += n / 7) {
		char name[16];
		struct hwt_drm_engine *e;

		snprintf(name, sizeof(name), "e%d", i);
		e = hwt_drm_fdinfo__engine(fi, name);
		CHECK(e && e->busy_ns == (uint64_t)i && e->cycles == 2 * (uint64_t)i &&
		      e == &fi->engines[i]);
	}
	CHECK(hwt_drm_fdinfo__engine(fi, "e-none") == NULL);
	free(s);
	return fi->name_probes - before;
}

/*
 * Parsing is linear in the engines of one fdinfo: 20k engines cost about
 * twice the name probes of 10k (a scan of the names seen so far costs four
 * times: n^2/2 comparisons), and a few probes per line.  A reparse of other
 * content in the same object reindexes its names.
 */
static void test_many_engines_linear(void)
{
	struct hwt_drm_fdinfo a = { 0 }, b = { 0 };
	uint64_t p10 = engines_probes(&a, 10000), p20 = engines_probes(&b, 20000);

	CHECK(p20 <= p10 * 5 / 2);
	CHECK(p20 <= 20000 * 2 * 4);	/* 40k lines, < 4 probes each */
	CHECK(engines_probes(&a, 20000) <= 20000 * 2 * 4);
	engines_probes(&a, 17);	/* just past the scan threshold: values checked */
	CHECK(engines_probes(&a, 3000) <= 3000 * 2 * 4);
	hwt_drm_fdinfo__exit(&a);
	hwt_drm_fdinfo__exit(&b);
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

/* Two samples 1 s apart; expected percentages worked out by hand. */
static void test_util(void)
{
	struct hwt_drm_fdinfo a = parse(
		"drm-driver: i915\ndrm-engine-render: 1000000000 ns\n"
		"drm-engine-video: 0 ns\ndrm-engine-capacity-video: 2\n"
		"drm-engine-copy: 500 ns\n"
		"drm-cycles-rcs: 100\ndrm-total-cycles-rcs: 1000\n"
		"drm-engine-gpu: 10 ns\ndrm-cycles-gpu: 0\ndrm-maxfreq-gpu: 800 MHz\n"
		"drm-cycles-frag: 0\ndrm-maxfreq-frag: 1000 Hz\n");
	struct hwt_drm_fdinfo b = parse(
		"drm-driver: i915\ndrm-engine-render: 1250000000 ns\n"
		"drm-engine-video: 1000000000 ns\ndrm-engine-capacity-video: 2\n"
		"drm-engine-copy: 400 ns\n"
		"drm-cycles-rcs: 400\ndrm-total-cycles-rcs: 2000\n"
		"drm-engine-gpu: 500000010 ns\ndrm-cycles-gpu: 999\ndrm-maxfreq-gpu: 800 MHz\n"
		"drm-cycles-frag: 250\ndrm-maxfreq-frag: 1000 Hz\n"
		"drm-engine-new: 5 ns\n");
	struct hwt_drm_fdinfo c = parse(
		"drm-driver: i915\ndrm-engine-copy: 700 ns\n");
	struct hwt_drm_util u[16];

	hwt_drm_usage__compute(NULL, &a, 0, u);
	for (uint32_t i = 0; i < a.nengines; i++)
		CHECK_EQ(u[i].src, HWT_DRM_UTIL_NONE);	/* first sample: null */

	hwt_drm_usage__compute(&a, &b, 1000000000ull, u);
	CHECK_EQ(b.nengines, 7);
	CHECK_EQ(u[0].src, HWT_DRM_UTIL_BUSY_NS);	/* render: 0.25 s of 1 s */
	CHECK(near(u[0].percent, 25.0));
	CHECK(near(u[1].percent, 50.0));		/* video: 1 s over capacity 2 */
	CHECK(u[2].held && near(u[2].percent, 0));	/* copy went 500 -> 400 */
	CHECK_EQ(b.engines[2].busy_ns, 500);		/* held at the high value */
	CHECK_EQ(u[3].src, HWT_DRM_UTIL_TOTAL_CYCLES);	/* rcs: 300 of 1000 */
	CHECK(near(u[3].percent, 30.0));
	CHECK_EQ(u[4].src, HWT_DRM_UTIL_BUSY_NS);	/* ns beats cycles x maxfreq */
	CHECK(near(u[4].percent, 50.0));
	CHECK_EQ(u[5].src, HWT_DRM_UTIL_MAXFREQ);	/* 250 cycles / (1 s x 1000 Hz) */
	CHECK(near(u[5].percent, 25.0));
	CHECK_EQ(u[6].src, HWT_DRM_UTIL_NONE);		/* appeared: null */

	/* copy catches up to 700 over the held 500: 200 ns in 0.5 s; others vanished */
	hwt_drm_usage__compute(&b, &c, 500000000ull, u);
	CHECK_EQ(c.nengines, 1);
	CHECK(!u[0].held && near(u[0].percent, 200 * 100.0 / 5e8));
	hwt_drm_fdinfo__exit(&a);
	hwt_drm_fdinfo__exit(&b);
	hwt_drm_fdinfo__exit(&c);
}

/* Deep equality of the parsed content (not @other, which NO_OTHER leaves empty). */
static bool same_fdinfo(const struct hwt_drm_fdinfo *a, const struct hwt_drm_fdinfo *b)
{
	const char *sa[] = { a->driver, a->pdev, a->client_name };
	const char *sb[] = { b->driver, b->pdev, b->client_name };

	for (int i = 0; i < 3; i++)
		if (!sa[i] != !sb[i] || (sa[i] && strcmp(sa[i], sb[i])))
			return false;
	if (a->has_client_id != b->has_client_id || a->client_id != b->client_id ||
	    a->nengines != b->nengines || a->nregions != b->nregions)
		return false;
	for (uint32_t i = 0; i < a->nengines; i++) {
		const struct hwt_drm_engine *x = &a->engines[i], *y = &b->engines[i];

		if (strcmp(x->name, y->name) || x->busy_ns != y->busy_ns ||
		    x->cycles != y->cycles ||
		    x->total_cycles != y->total_cycles || x->capacity != y->capacity ||
		    x->maxfreq_hz != y->maxfreq_hz || x->have != y->have)
			return false;
	}
	for (uint32_t i = 0; i < a->nregions; i++) {
		const struct hwt_drm_region *x = &a->regions[i], *y = &b->regions[i];

		if (strcmp(x->name, y->name) || memcmp(x->bytes, y->bytes, sizeof(x->bytes)) ||
		    x->legacy != y->legacy || x->have != y->have)
			return false;
	}
	return true;
}

/*
 * hwt_drm_fdinfo__update() of @a's parse with @b, told of @a or not: either
 * @b's fresh parse (byte counts included, and every engine still in its
 * slot), or @a's parse untouched, the same way with and without @a.
 * Returns what the update returned.
 */
static int check_update(const char *a, const char *b)
{
	int ret = -1;

	for (int with_old = 0; with_old < 2; with_old++) {
		struct hwt_drm_fdinfo u = { 0 }, ref = { 0 };
		struct hwt_diag du = { 0 }, dref = { 0 };
		char *names[64];
		uint32_t n;
		int r;

		CHECK_EQ(hwt_drm_fdinfo__parse(&u, a, strlen(a), HWT_DRM_PARSE_NO_OTHER, NULL), 0);
		n = u.nengines < 64 ? u.nengines : 64;
		for (uint32_t i = 0; i < n; i++)
			names[i] = u.engines[i].name;
		r = hwt_drm_fdinfo__update(&u, b, strlen(b), with_old ? a : NULL, strlen(a), &du);
		CHECK(r == 0 || r == 1);
		CHECK(ret < 0 || r == ret);
		ret = r;
		if (r == 1) {
			CHECK_EQ(hwt_drm_fdinfo__parse(&ref, b, strlen(b), 0, &dref), 0);
			CHECK_EQ(du.bytes.decoded, dref.bytes.decoded);
			CHECK_EQ(du.bytes.skipped, dref.bytes.skipped);
			CHECK_EQ(du.warnings, 0);
			CHECK_EQ(dref.warnings, 0);
			for (uint32_t i = 0; i < n; i++)
				CHECK(u.engines[i].name == names[i]);
		} else {
			CHECK_EQ(hwt_drm_fdinfo__parse(&ref, a, strlen(a), 0, NULL), 0);
			CHECK_EQ(du.bytes.decoded + du.bytes.skipped, 0);
		}
		if (!same_fdinfo(&u, &ref))
			fprintf(stderr, "update of [%s] with [%s] (%d, old %d) differs\n", a, b, r,
				with_old);
		CHECK(same_fdinfo(&u, &ref));
		hwt_drm_fdinfo__exit(&u);
		hwt_drm_fdinfo__exit(&ref);
	}
	return ret;
}

/* Which texts update a parse in place: only numbers may change. */
static void test_update(void)
{
	static const char base[] =
		"pos:\t0\ndrm-driver: xe\ndrm-client-id: 3\ndrm-pdev: 0000:03:00.0\n"
		"drm-client-name: app\ndrm-engine-rcs: 5 ns\ndrm-cycles-rcs: 1\n"
		"drm-total-vram0: 1 KiB\ndrm-memory-gtt: 4 KiB\n";
	static const struct {
		const char *text;
		int want;
	} cases[] = {
		/* numbers, their widths and units, and skipped lines may change */
		{ "pos:\t12345\ndrm-driver: xe\ndrm-client-id: 3\ndrm-pdev: 0000:03:00.0\n"
		  "drm-client-name: app\ndrm-engine-rcs: 123456789 ns\ndrm-cycles-rcs: 2\n"
		  "drm-total-vram0: 3 MiB\ndrm-memory-gtt: 8 KiB\n", 1 },
		/* the strings and the id may not: another client, or the long way */
		{ "pos:\t0\ndrm-driver: i915\ndrm-client-id: 3\ndrm-pdev: 0000:03:00.0\n"
		  "drm-client-name: app\ndrm-engine-rcs: 5 ns\ndrm-cycles-rcs: 1\n"
		  "drm-total-vram0: 1 KiB\ndrm-memory-gtt: 4 KiB\n", 0 },
		{ "pos:\t0\ndrm-driver: xe\ndrm-client-id: 4\ndrm-pdev: 0000:03:00.0\n"
		  "drm-client-name: app\ndrm-engine-rcs: 5 ns\ndrm-cycles-rcs: 1\n"
		  "drm-total-vram0: 1 KiB\ndrm-memory-gtt: 4 KiB\n", 0 },
		{ "pos:\t0\ndrm-driver: xe\ndrm-client-id: 3\ndrm-pdev: 0000:04:00.0\n"
		  "drm-client-name: app\ndrm-engine-rcs: 5 ns\ndrm-cycles-rcs: 1\n"
		  "drm-total-vram0: 1 KiB\ndrm-memory-gtt: 4 KiB\n", 0 },
		{ "pos:\t0\ndrm-driver: xe\ndrm-client-id: 3\ndrm-pdev: 0000:03:00.0\n"
		  "drm-client-name: app2\ndrm-engine-rcs: 5 ns\ndrm-cycles-rcs: 1\n"
		  "drm-total-vram0: 1 KiB\ndrm-memory-gtt: 4 KiB\n", 0 },
		/* a bad value, a line more or less, another key */
		{ "pos:\t0\ndrm-driver: xe\ndrm-client-id: 3\ndrm-pdev: 0000:03:00.0\n"
		  "drm-client-name: app\ndrm-engine-rcs: 5 ms\ndrm-cycles-rcs: 1\n"
		  "drm-total-vram0: 1 KiB\ndrm-memory-gtt: 4 KiB\n", 0 },
		{ "pos:\t0\ndrm-driver: xe\ndrm-client-id: 3\ndrm-pdev: 0000:03:00.0\n"
		  "drm-client-name: app\ndrm-engine-rcs: 5 ns\ndrm-cycles-rcs: 1\n"
		  "drm-total-vram0: 1 KiB\n", 0 },
		{ "pos:\t0\ndrm-driver: xe\ndrm-client-id: 3\ndrm-pdev: 0000:03:00.0\n"
		  "drm-client-name: app\ndrm-engine-rcs: 5 ns\ndrm-cycles-rcs: 1\n"
		  "drm-total-vram0: 1 KiB\ndrm-memory-gtt: 4 KiB\ndrm-engine-bcs: 1 ns\n", 0 },
		{ "pos:\t0\ndrm-driver: xe\ndrm-client-id: 3\ndrm-pdev: 0000:03:00.0\n"
		  "drm-client-name: app\ndrm-engine-ccs: 5 ns\ndrm-cycles-rcs: 1\n"
		  "drm-total-vram0: 1 KiB\ndrm-memory-gtt: 4 KiB\n", 0 },
		{ "", 0 },
		/*
		 * the longest numbers (the replay reads up to 18 digits inline, far
		 * enough from the end, the rest the long way), and the largest
		 * KiB count whose bytes fit 64 bits
		 */
		{ "pos:\t0\ndrm-driver: xe\ndrm-client-id: 3\ndrm-pdev: 0000:03:00.0\n"
		  "drm-client-name: app\ndrm-engine-rcs: 123456789012345678 ns\ndrm-cycles-rcs: 1\n"
		  "drm-total-vram0: 18014398509481983 KiB\ndrm-memory-gtt: 4 KiB\n", 1 },
		{ "pos:\t0\ndrm-driver: xe\ndrm-client-id: 3\ndrm-pdev: 0000:03:00.0\n"
		  "drm-client-name: app\ndrm-engine-rcs: 1234567890123456789 ns\ndrm-cycles-rcs: 1\n"
		  "drm-total-vram0: 1 KiB\ndrm-memory-gtt: 4 KiB\n", 1 },
		{ "pos:\t0\ndrm-driver: xe\ndrm-client-id: 3\ndrm-pdev: 0000:03:00.0\n"
		  "drm-client-name: app\ndrm-engine-rcs: 18446744073709551615 ns\ndrm-cycles-rcs: 1\n"
		  "drm-total-vram0: 1 KiB\ndrm-memory-gtt: 4 KiB\n", 1 },
		/* one more overflows: a bad value */
		{ "pos:\t0\ndrm-driver: xe\ndrm-client-id: 3\ndrm-pdev: 0000:03:00.0\n"
		  "drm-client-name: app\ndrm-engine-rcs: 18446744073709551616 ns\ndrm-cycles-rcs: 1\n"
		  "drm-total-vram0: 1 KiB\ndrm-memory-gtt: 4 KiB\n", 0 },
		{ "pos:\t0\ndrm-driver: xe\ndrm-client-id: 3\ndrm-pdev: 0000:03:00.0\n"
		  "drm-client-name: app\ndrm-engine-rcs: 5 ns\ndrm-cycles-rcs: 1\n"
		  "drm-total-vram0: 18014398509481984 KiB\ndrm-memory-gtt: 4 KiB\n", 0 },
	};
	struct hwt_drm_fdinfo fi = { 0 };
	struct hwt_drm_engine *e;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK_EQ(check_update(base, cases[i].text), cases[i].want);
	/* worked by hand: the legacy gtt size is the resident one again */
	CHECK_EQ(hwt_drm_fdinfo__parse(&fi, base, strlen(base), HWT_DRM_PARSE_NO_OTHER, NULL), 0);
	CHECK_EQ(hwt_drm_fdinfo__update(&fi, cases[0].text, strlen(cases[0].text), NULL, 0, NULL),
		 1);
	e = hwt_drm_fdinfo__engine(&fi, "rcs");
	CHECK(e && e->busy_ns == 123456789 && e->cycles == 2);
	CHECK_EQ(mem(&fi, "vram0", HWT_DRM_MEM_TOTAL), 3 << 20);
	CHECK_EQ(mem(&fi, "gtt", HWT_DRM_MEM_RESIDENT), 8 << 10);
	/* the longest counts, read inline, by hand: 18 digits of ns, 2^54 - 1 KiB */
	CHECK_EQ(hwt_drm_fdinfo__parse(&fi, base, strlen(base), HWT_DRM_PARSE_NO_OTHER, NULL), 0);
	CHECK_EQ(hwt_drm_fdinfo__update(&fi, cases[10].text, strlen(cases[10].text), base,
					strlen(base), NULL), 1);
	e = hwt_drm_fdinfo__engine(&fi, "rcs");
	CHECK(e && e->busy_ns == 123456789012345678ull && e->cycles == 1);
	CHECK_EQ(mem(&fi, "vram0", HWT_DRM_MEM_TOTAL), 18446744073709550592ull);
	/* without a plan (a parse that kept other lines) there is nothing to update */
	CHECK_EQ(hwt_drm_fdinfo__parse(&fi, base, strlen(base), 0, NULL), 0);
	CHECK_EQ(hwt_drm_fdinfo__update(&fi, cases[0].text, strlen(cases[0].text), NULL, 0, NULL),
		 0);
	hwt_drm_fdinfo__exit(&fi);
}

/*
 * Keys of every length from 1 to 60 bytes, each with one byte changed at
 * every place in turn: the replay compares keys 16 bytes at a time where
 * the text leaves room, so a change in any 16 of them, the first, a middle
 * or the overlapping last, must send the text the long way; the same key
 * with a new number updates in place.
 */
static void test_update_keys(void)
{
	for (int n = 1; n <= 60; n++) {
		char key[64], a[256], b[256];

		for (int i = 0; i < n; i++)
			key[i] = (char)('a' + i % 26);
		key[n] = 0;
		/* the line first (16 bytes of text after it), then at the end */
		for (int last = 0; last < 2; last++) {
			const char *pad = "drm-driver: xe\ndrm-engine-rcs: 5 ns\n";

			snprintf(a, sizeof(a), "%s%s: 1\n%s", last ? pad : "", key, last ? "" : pad);
			snprintf(b, sizeof(b), "%s%s: 2\n%s", last ? pad : "", key, last ? "" : pad);
			CHECK_EQ(check_update(a, b), 1);
			for (int i = 0; i < n; i++) {
				char *k = b + (last ? strlen(pad) : 0) + i;

				*k = 'Z';
				CHECK_EQ(check_update(a, b), 0);
				*k = key[i];
			}
		}
	}
}

/*
 * One object re-read with texts of the same keys (replayed from the plan) and
 * of changed keys, bad values, more or fewer lines (parsed the long way):
 * always what a fresh parse of the same text gives, warnings and byte
 * accounting included.
 */
static void test_reparse(void)
{
	static const char *const texts[] = {
		i915,
		/* same keys, other values: the replay */
		"pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t284\n"
		"drm-driver:     i915\ndrm-client-id:  40\ndrm-pdev:       0000:00:02.0\n"
		"drm-total-system0:      7 MiB\ndrm-shared-system0:     5\n"
		"drm-active-system0:     0\ndrm-resident-system0:   6045 KiB\n"
		"drm-purgeable-system0:  0 KiB\ndrm-total-stolen-system0:       1\n"
		"drm-engine-render:      999 ns\ndrm-engine-copy:        1 ns\n"
		"drm-engine-video:       2 ns\ndrm-engine-capacity-video:      4\n"
		"drm-engine-video-enhance:       3 ns\n",
		/* same keys, capacity 0: a warning, so the long way */
		"pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t284\n"
		"drm-driver:     i915\ndrm-client-id:  40\ndrm-pdev:       0000:00:02.0\n"
		"drm-total-system0:      7 MiB\ndrm-shared-system0:     5\n"
		"drm-active-system0:     0\ndrm-resident-system0:   6045 KiB\n"
		"drm-purgeable-system0:  0 KiB\ndrm-total-stolen-system0:       1\n"
		"drm-engine-render:      999 ns\ndrm-engine-copy:        1 ns\n"
		"drm-engine-video:       2 ns\ndrm-engine-capacity-video:      0\n"
		"drm-engine-video-enhance:       3 ns\n",
		i915,
		/* one line fewer */
		"pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t284\n"
		"drm-driver:     i915\ndrm-client-id:  39\ndrm-pdev:       0000:00:02.0\n",
		/* an engine in the middle, another driver, a blank line */
		"drm-driver: xe\ndrm-client-id:  3\n\ndrm-cycles-rcs: 5\ndrm-total-cycles-rcs: 9\n"
		"drm-cycles-ccs: 1\ndrm-total-cycles-ccs: 9\ndrm-engine-capacity-ccs: 4\n",
		"drm-driver: xe\ndrm-client-id:  3\n\ndrm-cycles-rcs: 6\ndrm-total-cycles-rcs: 10\n"
		"drm-cycles-bcs: 7\ndrm-total-cycles-bcs: 10\n"
		"drm-cycles-ccs: 2\ndrm-total-cycles-ccs: 10\ndrm-engine-capacity-ccs: 4\n",
		/* same keys, a bad value and a unit that changed */
		"drm-driver: xe\ndrm-client-id:  3\n\ndrm-cycles-rcs: 6 furlongs\n"
		"drm-total-cycles-rcs: 10\ndrm-cycles-bcs: 7\ndrm-total-cycles-bcs: 10\n"
		"drm-cycles-ccs: 2\ndrm-total-cycles-ccs: 10\ndrm-engine-capacity-ccs: 4\n",
		"drm-driver: xe\ndrm-client-id:  3\n\ndrm-cycles-rcs: 6\ndrm-total-cycles-rcs: 10\n"
		"drm-cycles-bcs: 7\ndrm-total-cycles-bcs: 10\n"
		"drm-cycles-ccs: 2\ndrm-total-cycles-ccs: 10\ndrm-engine-capacity-ccs: 4\n"
		"drm-total-vram: 1 KiB",	/* one line more, no newline */
		/* transitional amdgpu twice: the first id and driver win in the replay too */
		"drm-driver:\tamdgpu\ndrm-client-id:\t428\npasid:\t1\ndrm-driver:\tamdgpu\n"
		"drm-client-id:\t641912\ndrm-memory-vram:\t186708 KiB\ndrm-engine-gfx: \t5 ns\n",
		"drm-driver:\tamdgpu\ndrm-client-id:\t429\npasid:\t2\ndrm-driver:\tother\n"
		"drm-client-id:\t1\ndrm-memory-vram:\t1 MiB\ndrm-engine-gfx: \t6 ns\n",
		/*
		 * the replay's digit and unit fast paths at their edges, one per text
		 * after a plain one (its plan), against the long way
		 */
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 9999999999999999999 ns\ndrm-total-vram0: 18014398509481983 KiB\n"
		"drm-resident-vram0: 17592186044415 MiB\ndrm-cycles-rcs: 18446744073709551615\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 18446744073709551616\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 99999999999999999999\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 00000000000000000000000012 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 10000000000000000000 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 18014398509481984 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 17592186044416 MiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 4 KiB \n"
		"drm-resident-vram0: 3 GiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 5 kB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 7 ns\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 1 KiBx\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 Ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 1 KiB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 1\n",
		"drm-driver: xe\ndrm-engine-rcs: 5 ns\ndrm-total-vram0: 1 MIB\n"
		"drm-resident-vram0: 2 MiB\ndrm-cycles-rcs: 1\n",
		"",
	};
	struct hwt_drm_fdinfo fi = { 0 };
	struct hwt_drm_engine *e;
	int updates = 0;

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct hwt_diag d1 = { 0 }, d2 = { 0 };
		struct hwt_drm_fdinfo ref = { 0 };
		size_t len = strlen(texts[i]);

		CHECK_EQ(hwt_drm_fdinfo__parse(&fi, texts[i], len, HWT_DRM_PARSE_NO_OTHER, &d1),
			 0);
		CHECK_EQ(hwt_drm_fdinfo__parse(&ref, texts[i], len, 0, &d2), 0);
		if (!same_fdinfo(&fi, &ref))
			fprintf(stderr, "reparse of text %zu differs from a fresh parse\n", i);
		CHECK(same_fdinfo(&fi, &ref));
		CHECK_EQ(fi.nother, 0);
		CHECK_EQ(d1.warnings, d2.warnings);
		CHECK_EQ(d1.bytes.decoded, d2.bytes.decoded);
		CHECK_EQ(d1.bytes.skipped, d2.bytes.skipped);
		CHECK_EQ(d1.bytes.decoded + d1.bytes.skipped, len);
		hwt_drm_fdinfo__exit(&ref);
		if (i == 1) {	/* worked by hand from the text */
			CHECK(fi.plan_ok);
			CHECK_EQ(fi.client_id, 40);
			e = hwt_drm_fdinfo__engine(&fi, "render");
			CHECK(e && e->busy_ns == 999);
			e = hwt_drm_fdinfo__engine(&fi, "video");
			CHECK(e && e->capacity == 4);
			CHECK_EQ(mem(&fi, "system0", HWT_DRM_MEM_TOTAL), 7 << 20);
		}
		if (i == 2)
			CHECK_EQ(d1.warnings, 1);
		if (i == 10) {
			CHECK_EQ(fi.client_id, 429);
			CHECK_STR(fi.driver, "amdgpu");
			CHECK_EQ(mem(&fi, "vram", HWT_DRM_MEM_RESIDENT), 1 << 20);
		}
	}
	CHECK(fi.driver == NULL);
	CHECK_EQ(fi.nengines, 0);
	hwt_drm_fdinfo__exit(&fi);

	/* each text as an in-place update of the one before: a parse, or nothing */
	for (size_t i = 1; i < sizeof(texts) / sizeof(texts[0]); i++)
		updates += check_update(texts[i - 1], texts[i]);
	/* the xe edge pairs where both texts parse without a warning: 11-12, 12-13,
	 * 17-18 to 20-21 and 25-26 to 28-29 (the others change a key, a string or
	 * the id, or follow or hold a warning) */
	CHECK_EQ(updates, 10);
}

/* The opaque object and its accessors, as a program using libhwtrace.so sees it. */
static void test_public_api(void)
{
	static const char amd[] = "drm-driver:\tamdgpu\ndrm-engine-gfx:\t5 ns\n";
	struct hwt_drm_fdinfo *fi = hwt_drm_fdinfo__new();
	const struct hwt_drm_region *r;
	const struct hwt_drm_kv *kv;
	uint64_t id = 0;

	CHECK(fi != NULL);
	CHECK(hwt_drm_fdinfo__driver(fi) == NULL);
	CHECK_EQ(hwt_drm_fdinfo__parse(fi, i915, strlen(i915), 0, NULL), 0);
	CHECK_STR(hwt_drm_fdinfo__driver(fi), "i915");
	CHECK_STR(hwt_drm_fdinfo__pdev(fi), "0000:00:02.0");
	CHECK(hwt_drm_fdinfo__client_name(fi) == NULL);
	CHECK(hwt_drm_fdinfo__client_id(fi, &id));
	CHECK_EQ(id, 39);
	/* render, copy, video, video-enhance: in the order of the text */
	CHECK_EQ(hwt_drm_fdinfo__nengines(fi), 4);
	CHECK_STR(hwt_drm_fdinfo__engine_at(fi, 0)->name, "render");
	CHECK_EQ(hwt_drm_fdinfo__engine_at(fi, 0)->busy_ns, 346249);
	CHECK_STR(hwt_drm_fdinfo__engine_at(fi, 3)->name, "video-enhance");
	CHECK(hwt_drm_fdinfo__engine_at(fi, 4) == NULL);
	/* system0, then stolen-system0 */
	CHECK_EQ(hwt_drm_fdinfo__nregions(fi), 2);
	r = hwt_drm_fdinfo__region_at(fi, 0);
	CHECK_STR(r->name, "system0");
	CHECK_EQ(r->bytes[HWT_DRM_MEM_RESIDENT], 6044ull * 1024);
	CHECK(hwt_drm_fdinfo__region_at(fi, 2) == NULL);
	/* pos, flags, mnt_id, ino */
	CHECK_EQ(hwt_drm_fdinfo__nother(fi), 4);
	kv = hwt_drm_fdinfo__other_at(fi, 2);
	CHECK_STR(kv->key, "mnt_id");
	CHECK_STR(kv->val, "26");
	CHECK(hwt_drm_fdinfo__other_at(fi, 4) == NULL);
	/* a second parse replaces the first */
	CHECK_EQ(hwt_drm_fdinfo__parse(fi, amd, strlen(amd), HWT_DRM_PARSE_NO_OTHER, NULL), 0);
	CHECK_STR(hwt_drm_fdinfo__driver(fi), "amdgpu");
	CHECK(!hwt_drm_fdinfo__client_id(fi, &id));
	CHECK_EQ(hwt_drm_fdinfo__nengines(fi), 1);
	CHECK_EQ(hwt_drm_fdinfo__nregions(fi), 0);
	CHECK_EQ(hwt_drm_fdinfo__nother(fi), 0);
	hwt_drm_fdinfo__delete(fi);
	hwt_drm_fdinfo__delete(NULL);
	CHECK_STR(hwt_drm_mem__name(HWT_DRM_MEM_TOTAL), "total");
	CHECK_STR(hwt_drm_mem__name(HWT_DRM_MEM_ACTIVE), "active");
	CHECK(hwt_drm_mem__name(HWT_DRM_MEM_N) == NULL);
}

int main(void)
{
	RUN(test_i915);
	RUN(test_xe);
	RUN(test_amdgpu);
	RUN(test_units_and_errors);
	RUN(test_huge);
	RUN(test_many_engines_linear);
	RUN(test_util);
	RUN(test_reparse);
	RUN(test_update);
	RUN(test_update_keys);
	RUN(test_public_api);
	return check_done("drm_fdinfo");
}
