// SPDX-License-Identifier: GPL-2.0
/*
 * i915_oa_formats.c - the one table of enum drm_i915_oa_format layouts.
 *
 * Values and sizes: i915_drm.h and the kernel's oa_formats[]; byte offsets:
 * IGT tests/intel/perf.c format tables and lib/i915/perf.c accumulation
 * (see Documentation/i915-oa.rst).  Gen is the graphics version x100.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i915_oa_internal.h"

#define SEG(k, f, n, b, o, h) { .kind = k, .first = f, .count = n, .bits = b, .off = o, .hi_off = h }
#define B8(o) SEG('b', 0, 8, 32, o, 0)
#define C8(o) SEG('c', 0, 8, 32, o, 0)
#define HSW 750, 750
#define GEN8_12 800, 1200

const struct hwt_i915_oa_format hwt_i915_oa_formats[] = {
	{ 1, "A13", 64, HSW, false, 1, { SEG('a', 0, 13, 32, 12, 0) },
	  "dword 2 (HSW) unknown" },
	{ 2, "A29", 128, HSW, false, 1, { SEG('a', 0, 29, 32, 12, 0) },
	  "dword 2 (HSW) unknown" },
	{ 3, "A13_B8_C8", 128, HSW, false, 3,
	  { SEG('a', 0, 13, 32, 12, 0), B8(64), C8(96) }, "dword 2 (HSW) unknown" },
	{ 4, "B4_C8", 64, HSW, false, 2, { SEG('b', 0, 4, 32, 16, 0), C8(32) },
	  "dwords 2-3 (HSW) unknown" },
	{ 5, "A45_B8_C8", 256, HSW, false, 3,
	  { SEG('a', 0, 45, 32, 12, 0), B8(192), C8(224) }, "dword 2 (HSW) unknown" },
	{ 6, "B4_C8_A16", 128, HSW, false, 3,
	  { SEG('a', 29, 16, 32, 60, 0), SEG('b', 0, 4, 32, 16, 0), C8(32) },
	  "dwords 2-3 (HSW) unknown" },
	/* HSW: IGT's table puts B at 28, overlapping C3; not cross-checked */
	{ 7, "C4_B8", 64, HSW, false, 2, { SEG('c', 0, 4, 32, 16, 0), B8(28) },
	  "B at byte 28 overlaps C3 (IGT table, not cross-checked)" },
	{ 7, "C4_B8", 64, 800, 1299, false, 2, { SEG('c', 0, 4, 32, 16, 0), B8(32) }, NULL },
	/* IGT puts A7 at byte 12, where Gen8+ headers hold the GPU ticks */
	{ 8, "A12", 64, GEN8_12, false, 1, { SEG('a', 7, 12, 32, 12, 0) },
	  "A7 at byte 12 shares the ticks dword (IGT table, not cross-checked)" },
	{ 9, "A12_B8_C8", 128, GEN8_12, false, 3,
	  { SEG('a', 7, 12, 32, 12, 0), B8(64), C8(96) },
	  "A7 at byte 12 shares the ticks dword (IGT table, not cross-checked)" },
	{ 10, "A32u40_A4u32_B8_C8", 256, GEN8_12, false, 4,
	  { SEG('a', 0, 32, 40, 16, 160), SEG('a', 32, 4, 32, 144, 0), B8(192), C8(224) }, NULL },
	{ 11, "OAR_A32u40_A4u32_B8_C8", 256, 1250, 1299, false, 4,
	  { SEG('a', 0, 32, 40, 16, 160), SEG('a', 32, 4, 32, 144, 0), B8(192), C8(224) }, NULL },
	/* A36/A37 sit in the unused high-byte slots of A0-3 and A24-27 */
	{ 12, "A24u40_A14u32_B8_C8", 256, 1250, 1299, false, 9,
	  { SEG('a', 0, 4, 32, 16, 0), SEG('a', 4, 20, 40, 32, 164), SEG('a', 24, 4, 32, 112, 0),
	    SEG('a', 28, 4, 40, 128, 188), SEG('a', 32, 4, 32, 144, 0), SEG('a', 36, 1, 32, 160, 0),
	    SEG('a', 37, 1, 32, 184, 0), B8(192), C8(224) }, NULL },
	{ 13, "MPEC8u64_B8_C8", 192, 1270, 1299, true, 3,
	  { SEG('a', 0, 8, 64, 32, 0), B8(96), C8(128) },
	  "bytes 20-23 and 160-191 unknown; MPEC counters are reported as a[]" },
	{ 14, "MPEC8u32_B8_C8", 128, 1270, 1299, true, 3,
	  { SEG('a', 0, 8, 32, 32, 0), B8(64), C8(96) },
	  "bytes 20-23 unknown; MPEC counters are reported as a[]" },
	{ 0 },
};

const struct hwt_i915_oa_format *hwt_i915_oa_format__find(uint32_t id, uint32_t gen)
{
	const struct hwt_i915_oa_format *any = NULL;

	for (const struct hwt_i915_oa_format *f = hwt_i915_oa_formats; f->id; f++) {
		if (f->id != id)
			continue;
		if (gen >= f->min_gen && gen <= f->max_gen)
			return f;
		if (!any)
			any = f;
	}
	return any;
}

uint32_t hwt_i915_oa_format__by_name(const char *name)
{
	static const char *const prefixes[] = {
		"I915_OA_FORMAT_", "I915_OAR_FORMAT_", "I915_OAM_FORMAT_", "OAM_",
	};
	char *end;
	unsigned long v = strtoul(name, &end, 0);

	if (*name && !*end)
		return v >= 1 && v <= I915_OA_FORMAT_MAX ? (uint32_t)v : 0;
	for (int pass = 0; pass < 2; pass++) {
		for (const struct hwt_i915_oa_format *f = hwt_i915_oa_formats; f->id; f++)
			if (!strcasecmp(f->name, name))
				return f->id;
		/* I915_OAR_FORMAT_X is our "OAR_X"; the other prefixes drop */
		for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
			size_t l = strlen(prefixes[i]);

			if (strncasecmp(name, prefixes[i], l))
				continue;
			if (i == 1) {
				char buf[64] = "OAR_";

				strncat(buf, name + l, sizeof(buf) - 5);
				return hwt_i915_oa_format__by_name(buf);
			}
			name += l;
			break;
		}
	}
	return 0;
}

/* PCI device id ranges -> graphics version x100 (the platforms IGT's reader knows). */
static const struct {
	uint16_t lo, hi;
	uint16_t gen;
} devids[] = {
	{ 0x0402, 0x0d2e, 750 },	/* HSW (0x04xx, 0x0Axx, 0x0Cxx, 0x0Dxx) */
	{ 0x1602, 0x163e, 800 },	/* BDW */
	{ 0x22b0, 0x22b3, 800 },	/* CHV */
	{ 0x1902, 0x193d, 900 },	/* SKL */
	{ 0x0a84, 0x0a84, 900 },	/* BXT */
	{ 0x1a84, 0x1a85, 900 },
	{ 0x5a84, 0x5a85, 900 },
	{ 0x3184, 0x3185, 900 },	/* GLK */
	{ 0x5902, 0x593b, 900 },	/* KBL */
	{ 0x87c0, 0x87ca, 900 },	/* KBL/AML */
	{ 0x3e90, 0x3ea9, 900 },	/* CFL */
	{ 0x9b21, 0x9bf6, 900 },	/* CML */
	{ 0x8a50, 0x8a71, 1100 },	/* ICL */
	{ 0x4500, 0x4571, 1100 },	/* EHL */
	{ 0x4e51, 0x4e71, 1100 },	/* JSL */
	{ 0x9a40, 0x9af8, 1200 },	/* TGL */
	{ 0x4c8a, 0x4c9a, 1200 },	/* RKL */
	{ 0x4905, 0x4909, 1200 },	/* DG1 */
	{ 0x4680, 0x46d2, 1200 },	/* ADL-S/P/N */
	{ 0xa780, 0xa7ad, 1200 },	/* RPL */
	{ 0x5690, 0x56c1, 1255 },	/* DG2 */
	{ 0x7d40, 0x7dd5, 1270 },	/* MTL, ARL */
};

uint32_t hwt_i915_oa__gen_for_devid(uint32_t devid)
{
	for (size_t i = 0; i < sizeof(devids) / sizeof(devids[0]); i++)
		if (devid >= devids[i].lo && devid <= devids[i].hi)
			return devids[i].gen;
	return 0;
}

uint32_t hwt_i915_oa__parse_gen(const char *s)
{
	char *end;
	unsigned long major = strtoul(s, &end, 10), minor = 0;

	if (end == s)
		return 0;
	if (*end == '.') {
		const char *m = end + 1;

		minor = strtoul(m, &end, 10);
		if (end - m == 1)
			minor *= 10;
		else if (end - m != 2)
			return 0;
	}
	if (*end)
		return 0;
	if (major >= 100 && !minor)
		return major <= 9999 ? (uint32_t)major : 0;
	return major && major < 100 ? (uint32_t)(major * 100 + minor) : 0;
}

uint32_t hwt_i915_oa__default_gen(uint32_t fmt)
{
	if (fmt >= 1 && fmt <= 6)
		return 750;
	if (fmt == 11 || fmt == 12)
		return 1255;
	if (fmt == 13 || fmt == 14)
		return 1270;
	return 1200;
}
