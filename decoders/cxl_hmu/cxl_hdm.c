// SPDX-License-Identifier: GPL-2.0
/*
 * cxl_hdm.c - a CXL HDM decoder description and the DPA -> HPA mapping.
 *
 * Only modulo-arithmetic interleave is covered: the HPA offset of a device's
 * granule g is (g * ways + pos) * granularity, which is how the CXL spec
 * (8.2.4.20, "Interleave Arithmetic" = 0) selects the target for 1, 2, 4, 8
 * and 16 ways and for the 3/6/12-way modulo-3 variants.  XOR interleave
 * (CFMWS arithmetic 1) hashes HPA bits into the position and is not modelled:
 * for such windows the HPA computed here is wrong.
 */
#include <stdio.h>
#include <string.h>

#include "cxl_hmu_internal.h"
#include "cxl_hmu_opts.h"

#define HDM_MAX_KEY	24

/* Decimal or 0x hex, with an optional K/M/G/T (binary) suffix; false on junk or overflow. */
bool hwt_cxl__parse_bytes(const char *s, size_t n, uint64_t *out)
{
	unsigned int base = 10, shift = 0;
	uint64_t v = 0;
	size_t i = 0;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == n)
		return false;
	for (; i < n; i++) {
		char c = s[i];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			break;
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	if (i == 0 || (base == 16 && i == 2))
		return false;
	if (i < n) {
		switch (s[i] | 0x20) {
		case 'k':
			shift = 10;
			break;
		case 'm':
			shift = 20;
			break;
		case 'g':
			shift = 30;
			break;
		case 't':
			shift = 40;
			break;
		default:
			return false;
		}
		if (i + 1 != n)
			return false;
		if (v > (UINT64_MAX >> shift))
			return false;
		v <<= shift;
	}
	*out = v;
	return true;
}

static bool hdm_ways_ok(uint64_t w)
{
	switch (w) {
	case 1: case 2: case 3: case 4: case 6: case 8: case 12: case 16:
		return true;
	}
	return false;
}

/* Key aliases: our short names and the Linux sysfs decoder attribute names. */
static uint64_t *hdm_key(const char *k, uint64_t v[6])
{
	static const char *const names[][2] = {
		{ "base", "start" },
		{ "size", "size" },
		{ "ways", "interleave_ways" },
		{ "granularity", "interleave_granularity" },
		{ "pos", "position" },
		{ "dpa_base", "dpa_base" },
	};

	for (int i = 0; i < 6; i++)
		if (!strcmp(k, names[i][0]) || !strcmp(k, names[i][1]))
			return &v[i];
	return NULL;
}

int hwt_cxl_hdm__parse(const char *s, struct hwt_cxl_hdm *hdm, char *err, size_t errlen)
{
	/* base, size, ways, granularity, pos, dpa_base */
	uint64_t v[6] = { 0, 0, 1, 256, 0, 0 };
	bool seen_base = false, seen_size = false;
	const char *p = s;

	if (!s || !*s) {
		snprintf(err, errlen, "hdm: empty (want base=,size=,ways=,granularity=,pos=)");
		return -1;
	}
	while (*p) {
		const char *end = strchr(p, ',');
		const char *eq;
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char key[HDM_MAX_KEY];
		uint64_t *slot;

		eq = memchr(p, '=', len);
		if (!eq || eq == p || (size_t)(eq - p) >= sizeof(key)) {
			snprintf(err, errlen, "hdm: '%.*s' is not KEY=VALUE", (int)len, p);
			return -1;
		}
		memcpy(key, p, eq - p);
		key[eq - p] = '\0';
		slot = hdm_key(key, v);
		if (!slot) {
			snprintf(err, errlen,
				 "hdm: unknown key '%s' (base, size, ways, granularity, pos, "
				 "dpa_base)",
				 key);
			return -1;
		}
		if (!hwt_cxl__parse_bytes(eq + 1, len - (eq + 1 - p), slot)) {
			snprintf(err, errlen, "hdm: %s: bad number '%.*s'", key,
				 (int)(len - (eq + 1 - p)), eq + 1);
			return -1;
		}
		if (slot == &v[0])
			seen_base = true;
		if (slot == &v[1])
			seen_size = true;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!seen_base || !seen_size) {
		snprintf(err, errlen, "hdm: %s is required", seen_base ? "size" : "base");
		return -1;
	}
	if (!hdm_ways_ok(v[2])) {
		snprintf(err, errlen, "hdm: ways %llu is not one of 1, 2, 3, 4, 6, 8, 12, 16",
			 (unsigned long long)v[2]);
		return -1;
	}
	if (v[3] < 256 || v[3] > 16384 || (v[3] & (v[3] - 1))) {
		snprintf(err, errlen, "hdm: granularity %llu is not a power of 2 in 256..16384",
			 (unsigned long long)v[3]);
		return -1;
	}
	if (v[4] >= v[2]) {
		snprintf(err, errlen, "hdm: pos %llu is not below ways %llu",
			 (unsigned long long)v[4], (unsigned long long)v[2]);
		return -1;
	}
	if (!v[1] || v[1] % (v[2] * v[3])) {
		snprintf(err, errlen,
			 "hdm: size 0x%llx is not a non-zero multiple of ways * granularity "
			 "(0x%llx)",
			 (unsigned long long)v[1], (unsigned long long)(v[2] * v[3]));
		return -1;
	}
	if (v[0] > UINT64_MAX - v[1]) {
		snprintf(err, errlen, "hdm: base + size overflows 64 bits");
		return -1;
	}
	hdm->base = v[0];
	hdm->size = v[1];
	hdm->ways = (uint32_t)v[2];
	hdm->granularity = (uint32_t)v[3];
	hdm->pos = (uint32_t)v[4];
	hdm->dpa_base = v[5];
	return 0;
}

bool hwt_cxl_hdm__dpa_to_hpa(const struct hwt_cxl_hdm *hdm, uint64_t dpa, uint64_t *hpa)
{
	uint64_t off, gran = hdm->granularity;

	if (!hdm->ways || !gran || dpa < hdm->dpa_base)
		return false;
	off = dpa - hdm->dpa_base;
	/* this device backs size / ways bytes of the window */
	if (off >= hdm->size / hdm->ways)
		return false;
	*hpa = hdm->base + ((off / gran) * hdm->ways + hdm->pos) * gran + off % gran;
	return true;
}
