// SPDX-License-Identifier: GPL-2.0
/*
 * drm_fdinfo.c - parse the drm-* keys of one fdinfo text (drm-usage-stats.rst).
 *
 * Longest key prefix first: drm-engine-capacity- before drm-engine-,
 * drm-total-cycles- before drm-total-.  Anything else is kept as text.
 */
#include <stdlib.h>
#include <string.h>

#include "hwtrace/drm_fdinfo.h"

#define RTYPE "drm fdinfo"

const char *const hwt_drm_mem_names[HWT_DRM_MEM_N] = {
	"total", "shared", "resident", "purgeable", "active",
};

enum unit_kind { U_NONE, U_NS, U_BYTES, U_HZ };

/* Key prefixes that name an engine or region, longest match first. */
static const struct {
	const char *prefix;
	enum unit_kind unit;
	int engine_bit;		/* HWT_DRM_HAVE_* or 0 for a region key */
	int mem;		/* enum hwt_drm_mem, or -1 for the legacy drm-memory- */
} key_table[] = {
	{ "drm-engine-capacity-", U_NONE, HWT_DRM_HAVE_CAPACITY, 0 },
	{ "drm-engine-", U_NS, HWT_DRM_HAVE_NS, 0 },
	{ "drm-total-cycles-", U_NONE, HWT_DRM_HAVE_TOTAL, 0 },
	{ "drm-cycles-", U_NONE, HWT_DRM_HAVE_CYCLES, 0 },
	{ "drm-maxfreq-", U_HZ, HWT_DRM_HAVE_MAXFREQ, 0 },
	{ "drm-total-", U_BYTES, 0, HWT_DRM_MEM_TOTAL },
	{ "drm-shared-", U_BYTES, 0, HWT_DRM_MEM_SHARED },
	{ "drm-resident-", U_BYTES, 0, HWT_DRM_MEM_RESIDENT },
	{ "drm-purgeable-", U_BYTES, 0, HWT_DRM_MEM_PURGEABLE },
	{ "drm-active-", U_BYTES, 0, HWT_DRM_MEM_ACTIVE },
	{ "drm-memory-", U_BYTES, 0, -1 },
};

#define HAVE_LEGACY HWT_DRM_HAVE_LEGACY

static char *dup_n(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = 0;
	}
	return p;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int grow(void **arr, uint32_t *cap, uint32_t n, size_t elem)
{
	uint32_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	if (ncap <= n)
		return -1;
	p = realloc(*arr, (size_t)ncap * elem);
	if (!p)
		return -1;
	memset((char *)p + (size_t)*cap * elem, 0, (size_t)(ncap - *cap) * elem);
	*arr = p;
	*cap = ncap;
	return 0;
}

/* @s is input text, not NUL-terminated, and may hold a NUL: compare bytes */
static bool name_eq(const char *name, const char *s, size_t n)
{
	return strlen(name) == n && !memcmp(name, s, n);
}

struct hwt_drm_engine *hwt_drm_fdinfo__engine(const struct hwt_drm_fdinfo *fi, const char *name)
{
	for (uint32_t i = 0; i < fi->nengines; i++)
		if (!strcmp(fi->engines[i].name, name))
			return &fi->engines[i];
	return NULL;
}

struct hwt_drm_region *hwt_drm_fdinfo__region(const struct hwt_drm_fdinfo *fi, const char *name)
{
	for (uint32_t i = 0; i < fi->nregions; i++)
		if (!strcmp(fi->regions[i].name, name))
			return &fi->regions[i];
	return NULL;
}

const char *hwt_drm_fdinfo__other(const struct hwt_drm_fdinfo *fi, const char *key)
{
	for (uint32_t i = 0; i < fi->nother; i++)
		if (!strcmp(fi->other[i].key, key))
			return fi->other[i].val;
	return NULL;
}

/* Drivers print one engine's keys together: try the last hit first. */
static struct hwt_drm_engine *engine_get(struct hwt_drm_fdinfo *fi, const char *s, size_t n)
{
	struct hwt_drm_engine *e;

	if (fi->last_engine < fi->nengines && name_eq(fi->engines[fi->last_engine].name, s, n))
		return &fi->engines[fi->last_engine];
	for (uint32_t i = 0; i < fi->nengines; i++)
		if (name_eq(fi->engines[i].name, s, n)) {
			fi->last_engine = i;
			return &fi->engines[i];
		}
	if (grow((void **)&fi->engines, &fi->cap_engines, fi->nengines, sizeof(*e)))
		return NULL;
	e = &fi->engines[fi->nengines];
	e->name = dup_n(s, n);
	if (!e->name)
		return NULL;
	e->capacity = 1;
	fi->last_engine = fi->nengines++;
	return e;
}

static struct hwt_drm_region *region_get(struct hwt_drm_fdinfo *fi, const char *s, size_t n)
{
	struct hwt_drm_region *r;

	if (fi->last_region < fi->nregions && name_eq(fi->regions[fi->last_region].name, s, n))
		return &fi->regions[fi->last_region];
	for (uint32_t i = 0; i < fi->nregions; i++)
		if (name_eq(fi->regions[i].name, s, n)) {
			fi->last_region = i;
			return &fi->regions[i];
		}
	if (grow((void **)&fi->regions, &fi->cap_regions, fi->nregions, sizeof(*r)))
		return NULL;
	r = &fi->regions[fi->nregions];
	r->name = dup_n(s, n);
	if (!r->name)
		return NULL;
	fi->last_region = fi->nregions++;
	return r;
}

static int keep_other(struct hwt_drm_fdinfo *fi, const char *k, size_t kn, const char *v,
		      size_t vn)
{
	struct hwt_drm_kv *kv;

	if (grow((void **)&fi->other, &fi->cap_other, fi->nother, sizeof(*kv)))
		return -1;
	kv = &fi->other[fi->nother];
	kv->key = dup_n(k, kn);
	kv->val = dup_n(v, vn);
	if (!kv->key || !kv->val) {
		free(kv->key);
		free(kv->val);
		return -1;
	}
	fi->nother++;
	return 0;
}

/* Unit multipliers; the spec has none/KiB/MiB and Hz/KHz/MHz, the rest is defensive. */
static bool unit_mult(enum unit_kind kind, const char *u, size_t n, uint64_t *mult)
{
	static const struct { enum unit_kind kind; const char *name; uint64_t mult; } units[] = {
		{ U_BYTES, "KiB", 1ull << 10 }, { U_BYTES, "MiB", 1ull << 20 },
		{ U_BYTES, "GiB", 1ull << 30 }, { U_BYTES, "kB", 1ull << 10 },
		{ U_BYTES, "KB", 1ull << 10 }, { U_BYTES, "B", 1 },
		{ U_NS, "ns", 1 },
		{ U_HZ, "Hz", 1 }, { U_HZ, "KHz", 1000 }, { U_HZ, "kHz", 1000 },
		{ U_HZ, "MHz", 1000000 }, { U_HZ, "GHz", 1000000000 },
	};

	*mult = 1;
	if (!n)
		return true;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (units[i].kind == kind && strlen(units[i].name) == n &&
		    !memcmp(units[i].name, u, n)) {
			*mult = units[i].mult;
			return true;
		}
	return false;
}

/* "<uint>[ws][unit][ws]": 0 ok, else a reason for the diag. */
static const char *parse_num(const char *v, size_t n, enum unit_kind kind, uint64_t *out)
{
	uint64_t x = 0, mult;
	size_t i = 0, us;

	if (!n || v[0] < '0' || v[0] > '9')
		return "value is not an unsigned integer";
	for (; i < n && v[i] >= '0' && v[i] <= '9'; i++) {
		unsigned d = v[i] - '0';

		if (x > (UINT64_MAX - d) / 10)
			return "value does not fit in 64 bits";
		x = x * 10 + d;
	}
	while (i < n && is_space(v[i]))
		i++;
	us = i;
	while (i < n && !is_space(v[i]))
		i++;
	if (!unit_mult(kind, v + us, i - us, &mult))
		return "unknown unit";
	while (i < n && is_space(v[i]))
		i++;
	if (i != n)
		return "trailing text after the unit";
	if (mult > 1 && x > UINT64_MAX / mult)
		return "value with its unit does not fit in 64 bits";
	*out = x * mult;
	return NULL;
}

static int set_str(char **dst, const char *v, size_t n)
{
	if (*dst)		/* first one wins (amdgpu printed the header twice) */
		return 0;
	*dst = dup_n(v, n);
	return *dst ? 0 : -1;
}

/* Returns 1 if the line was a standard key understood, 0 if kept as text, -1 on ENOMEM. */
static int parse_line(struct hwt_drm_fdinfo *fi, const char *k, size_t kn, const char *v,
		      size_t vn, uint64_t off, struct hwt_diag *diag)
{
	const char *why;
	uint64_t x;

	if (kn == 10 && !memcmp(k, "drm-driver", 10))
		return set_str(&fi->driver, v, vn) ? -1 : 1;
	if (kn == 8 && !memcmp(k, "drm-pdev", 8))
		return set_str(&fi->pdev, v, vn) ? -1 : 1;
	if (kn == 15 && !memcmp(k, "drm-client-name", 15))
		return set_str(&fi->client_name, v, vn) ? -1 : 1;
	if (kn == 13 && !memcmp(k, "drm-client-id", 13)) {
		why = parse_num(v, vn, U_NONE, &x);
		if (why) {
			hwt_diag__warn(diag, off, RTYPE, "drm-client-id: %s", why);
			return keep_other(fi, k, kn, v, vn) ? -1 : 0;
		}
		if (fi->has_client_id)	/* transitional amdgpu: the core's id came first */
			return keep_other(fi, k, kn, v, vn) ? -1 : 0;
		fi->client_id = x;
		fi->has_client_id = true;
		return 1;
	}
	for (size_t i = 0; i < sizeof(key_table) / sizeof(key_table[0]); i++) {
		size_t pn = strlen(key_table[i].prefix);
		const char *name = k + pn;
		size_t nn = kn - pn;

		if (kn <= pn || memcmp(k, key_table[i].prefix, pn))
			continue;
		why = parse_num(v, vn, key_table[i].unit, &x);
		if (why) {
			hwt_diag__warn(diag, off, RTYPE, "%.*s: %s", (int)kn, k, why);
			return keep_other(fi, k, kn, v, vn) ? -1 : 0;
		}
		if (key_table[i].engine_bit) {
			struct hwt_drm_engine *e = engine_get(fi, name, nn);
			int bit = key_table[i].engine_bit;

			if (!e)
				return -1;
			if (bit == HWT_DRM_HAVE_CAPACITY && !x) {
				hwt_diag__warn(diag, off, RTYPE,
					       "%.*s: zero capacity is not allowed, using 1",
					       (int)kn, k);
				x = 1;
			}
			if (e->have & bit) {
				hwt_diag__warn(diag, off, RTYPE,
					       "%.*s: repeated key, the first value is kept",
					       (int)kn, k);
				return keep_other(fi, k, kn, v, vn) ? -1 : 0;
			}
			e->have |= bit;
			if (bit == HWT_DRM_HAVE_NS)
				e->busy_ns = x;
			else if (bit == HWT_DRM_HAVE_CYCLES)
				e->cycles = x;
			else if (bit == HWT_DRM_HAVE_TOTAL)
				e->total_cycles = x;
			else if (bit == HWT_DRM_HAVE_CAPACITY)
				e->capacity = x;
			else
				e->maxfreq_hz = x;
			return 1;
		} else {
			struct hwt_drm_region *r = region_get(fi, name, nn);
			int m = key_table[i].mem;
			uint32_t bit = m < 0 ? HAVE_LEGACY : 1u << m;

			if (!r)
				return -1;
			if (r->have & bit) {
				hwt_diag__warn(diag, off, RTYPE,
					       "%.*s: repeated key, the first value is kept",
					       (int)kn, k);
				return keep_other(fi, k, kn, v, vn) ? -1 : 0;
			}
			r->have |= bit;
			if (m >= 0)
				r->bytes[m] = x;
			else
				r->legacy = x;
			return 1;
		}
	}
	return keep_other(fi, k, kn, v, vn) ? -1 : 0;
}

int hwt_drm_fdinfo__parse(struct hwt_drm_fdinfo *fi, const char *text, size_t len,
			  struct hwt_diag *diag)
{
	size_t pos = 0;

	memset(fi, 0, sizeof(*fi));
	while (pos < len) {
		const char *line = text + pos, *nl, *colon, *v, *end;
		size_t ll, kn;
		int r;

		nl = memchr(line, '\n', len - pos);
		ll = nl ? (size_t)(nl - line) : len - pos;
		pos += ll + (nl ? 1 : 0);
		end = line + ll;
		while (end > line && is_space(end[-1]))
			end--;
		if (end == line) {
			if (diag)
				diag->bytes.skipped += ll + (nl ? 1 : 0);
			continue;
		}
		colon = memchr(line, ':', end - line);
		if (!colon) {
			hwt_diag__warn(diag, line - text, RTYPE, "line without ':' ignored");
			if (diag)
				diag->bytes.skipped += ll + (nl ? 1 : 0);
			continue;
		}
		kn = colon - line;
		v = colon + 1;
		while (v < end && is_space(*v))
			v++;
		r = parse_line(fi, line, kn, v, end - v, line - text, diag);
		if (r < 0)
			return -1;
		if (diag) {
			if (r)
				diag->bytes.decoded += ll + (nl ? 1 : 0);
			else
				diag->bytes.skipped += ll + (nl ? 1 : 0);
		}
	}
	for (uint32_t i = 0; i < fi->nregions; i++) {
		struct hwt_drm_region *r = &fi->regions[i];

		if ((r->have & HAVE_LEGACY) && !(r->have & (1u << HWT_DRM_MEM_RESIDENT))) {
			r->bytes[HWT_DRM_MEM_RESIDENT] = r->legacy;
			r->have |= 1u << HWT_DRM_MEM_RESIDENT;
		}
	}
	return 0;
}

void hwt_drm_fdinfo__free(struct hwt_drm_fdinfo *fi)
{
	free(fi->driver);
	free(fi->pdev);
	free(fi->client_name);
	for (uint32_t i = 0; i < fi->nengines; i++)
		free(fi->engines[i].name);
	for (uint32_t i = 0; i < fi->nregions; i++)
		free(fi->regions[i].name);
	for (uint32_t i = 0; i < fi->nother; i++) {
		free(fi->other[i].key);
		free(fi->other[i].val);
	}
	free(fi->engines);
	free(fi->regions);
	free(fi->other);
	memset(fi, 0, sizeof(*fi));
}
