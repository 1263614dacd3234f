// SPDX-License-Identifier: GPL-2.0
/*
 * drm_fdinfo.c - parse the drm-* keys of one fdinfo text (drm-usage-stats.rst).
 *
 * Longest key prefix first: drm-engine-capacity- before drm-engine-,
 * drm-total-cycles- before drm-total-.  Anything else is kept as text.
 * A reparse reuses the names and arrays of the previous content: a monitor
 * re-reads the same keys every refresh and should not allocate for them.
 */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "drm_fdinfo_internal.h"

#define RTYPE "drm fdinfo"

static const char *const mem_names[HWT_DRM_MEM_N] = {
	"total", "shared", "resident", "purgeable", "active",
};

const char *hwt_drm_mem__name(enum hwt_drm_mem m)
{
	return (unsigned int)m < HWT_DRM_MEM_N ? mem_names[m] : NULL;
}

enum unit_kind { U_NONE, U_NS, U_BYTES, U_HZ };

#define KEY(s) s, sizeof(s) - 1

/* Key prefixes that name an engine or region, longest match first. */
static const struct {
	const char *prefix;
	size_t plen;
	enum unit_kind unit;
	int engine_bit;		/* HWT_DRM_HAVE_* or 0 for a region key */
	int mem;		/* enum hwt_drm_mem, or -1 for the legacy drm-memory- */
} key_table[] = {
	{ KEY("drm-engine-capacity-"), U_NONE, HWT_DRM_HAVE_CAPACITY, 0 },
	{ KEY("drm-engine-"), U_NS, HWT_DRM_HAVE_NS, 0 },
	{ KEY("drm-total-cycles-"), U_NONE, HWT_DRM_HAVE_TOTAL, 0 },
	{ KEY("drm-cycles-"), U_NONE, HWT_DRM_HAVE_CYCLES, 0 },
	{ KEY("drm-maxfreq-"), U_HZ, HWT_DRM_HAVE_MAXFREQ, 0 },
	{ KEY("drm-total-"), U_BYTES, 0, HWT_DRM_MEM_TOTAL },
	{ KEY("drm-shared-"), U_BYTES, 0, HWT_DRM_MEM_SHARED },
	{ KEY("drm-resident-"), U_BYTES, 0, HWT_DRM_MEM_RESIDENT },
	{ KEY("drm-purgeable-"), U_BYTES, 0, HWT_DRM_MEM_PURGEABLE },
	{ KEY("drm-active-"), U_BYTES, 0, HWT_DRM_MEM_ACTIVE },
	{ KEY("drm-memory-"), U_BYTES, 0, -1 },
};

#define HAVE_LEGACY HWT_DRM_HAVE_LEGACY
#define PLAN_MAX_LINES 1024	/* real fdinfo has tens of lines; bounds the plan's memory */

enum { S_DRIVER, S_PDEV, S_NAME, S_N };

/* What a line did, remembered in the plan (struct hwt_drm_fdinfo.plan). */
enum step_op { OP_SKIP, OP_BLANK, OP_STR, OP_ID, OP_ENGINE, OP_REGION };

struct hwt_drm_step {
	uint32_t key_off, key_len;	/* the key in plan_keys */
	uint32_t idx;			/* engine or region index */
	uint32_t off;			/* the line's offset in the last text parsed */
	uint8_t op;			/* enum step_op */
	uint8_t arg;			/* OP_STR: S_*; OP_ENGINE/REGION: key_table index */
};

struct parse_ctx {
	struct hwt_drm_fdinfo *fi;
	char *old[S_N];		/* strings of the previous content, adopted when equal */
	unsigned int flags;
	struct hwt_diag *diag;
	bool record;		/* build a plan of this parse */
	struct hwt_drm_step step;	/* what the current line did */
	const char *text;	/* the text parsed */
};

/* A warning makes the parse unfit to replay: the replay never warns. */
#define WARN(ctx, off, ...) do { \
	(ctx)->record = false; \
	hwt_diag__warn((ctx)->diag, off, RTYPE, __VA_ARGS__); \
} while (0)

static char *dup_n(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = 0;
	}
	return p;
}

/* ' ', '\t', '\r', '\v', '\f' (not '\n': it ends a line); a table, as it runs per byte */
static const bool space_byte[256] = {
	[' '] = true, ['\t'] = true, ['\r'] = true, ['\v'] = true, ['\f'] = true,
};

static inline bool is_space(char c)
{
	return space_byte[(unsigned char)c];
}

static int grow(void **arr, uint32_t *cap, uint32_t n, size_t elem)
{
	uint32_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 4;	/* small: a monitor holds thousands of these */
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

/* memcmp() == 0 for the short keys and names of fdinfo, without a library call */
static inline bool eq8(const char *a, const char *b)
{
	uint64_t x, y;

	memcpy(&x, a, 8);
	memcpy(&y, b, 8);
	return x == y;
}

static inline bool eq4(const char *a, const char *b)
{
	uint32_t x, y;

	memcpy(&x, a, 4);
	memcpy(&y, b, 4);
	return x == y;
}

static inline bool bytes_eq(const char *a, const char *b, size_t n)
{
	if (n >= 8) {
		for (size_t i = 0; i + 8 < n; i += 8)
			if (!eq8(a + i, b + i))
				return false;
		return eq8(a + n - 8, b + n - 8);	/* the tail, overlapping */
	}
	if (n >= 4)	/* "flags", "mnt_id": two overlapping words */
		return eq4(a, b) && eq4(a + n - 4, b + n - 4);
	while (n--)
		if (*a++ != *b++)
			return false;
	return true;
}

/*
 * A plan's keys are kept with KEY_SLACK bytes after the last one, so that
 * key_at() reads 16 bytes of any key at once.
 */
#define KEY_SLACK	16

/*
 * Whether text @p, which has @left bytes, starts with the plan key @k of
 * @n bytes (16 of it readable, KEY_SLACK).  Where 16 bytes of text are
 * there, in one or two 16-byte compares.
 */
static inline bool key_at(const char *p, size_t left, const char *k, uint32_t n)
{
#ifdef __SSE2__
	if (left >= 16) {
		unsigned int eq = (unsigned int)_mm_movemask_epi8(_mm_cmpeq_epi8(
			_mm_loadu_si128((const __m128i *)p), _mm_loadu_si128((const __m128i *)k)));

		if (n <= 16)
			return !(~eq & ((1u << n) - 1));
		/* longer: 16 bytes at a time, the last 16 overlapping (n < left here) */
		for (uint32_t i = 16; eq == 0xffff && i < n; i += 16) {
			uint32_t at = i + 16 <= n ? i : n - 16;

			eq = (unsigned int)_mm_movemask_epi8(_mm_cmpeq_epi8(
				_mm_loadu_si128((const __m128i *)(p + at)),
				_mm_loadu_si128((const __m128i *)(k + at))));
		}
		return eq == 0xffff;
	}
#endif
	return bytes_eq(p, k, n);
}

/* The first '\n' in [@v, @end), or NULL: 16 bytes at once where there are 16. */
static inline const char *line_end(const char *v, const char *end)
{
#ifdef __SSE2__
	if (end - v >= 16) {
		unsigned int nl = (unsigned int)_mm_movemask_epi8(_mm_cmpeq_epi8(
			_mm_loadu_si128((const __m128i *)v), _mm_set1_epi8('\n')));

		if (nl)
			return v + __builtin_ctz(nl);
		v += 16;
	}
#endif
	return memchr(v, '\n', end - v);
}

/* @s is input text, not NUL-terminated, and may hold a NUL: compare bytes */
static bool name_eq(const char *name, const char *s, size_t n)
{
	return strlen(name) == n && bytes_eq(name, s, n);
}

/* The slot after the last used one, its spare name reused when it matches. */
static void *slot_take(void **arr, uint32_t *cap, uint32_t n, size_t elem, const char *s,
		       size_t sn)
{
	char **name, *nn;

	if (grow(arr, cap, n, elem))
		return NULL;
	name = (char **)((char *)*arr + (size_t)n * elem);	/* name is the first member */
	if (*name && name_eq(*name, s, sn)) {
		nn = *name;
	} else {
		nn = dup_n(s, sn);
		if (!nn)
			return NULL;
		free(*name);
	}
	memset(name, 0, elem);
	*name = nn;
	return name;
}

#define NAMES_MIN 16	/* below this many names a linear scan beats hashing */

/* FNV-1a: names are short and few per client, any spread will do */
static uint32_t name_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* The name of element @i of @arr (elements of @elem bytes, the name first). */
static inline const char *elem_name(const void *arr, size_t elem, uint32_t i)
{
	return *(char *const *)((const char *)arr + (size_t)i * elem);
}

static void names_put(struct hwt_drm_names *ix, const char *name, uint32_t i)
{
	uint32_t m = ix->cap - 1, h = name_hash(name, strlen(name)) & m;

	while (ix->slot[h])
		h = (h + 1) & m;
	ix->slot[h] = i + 1;
	ix->n++;
}

/*
 * Make @ix index the @n names of @arr, with room for one more at a load of at
 * most one half.  Indexing happens once per parse (@ix->n is reset when the
 * content is dropped) and then one name at a time: linear in the names.  The
 * slots are kept across parses, so a steady monitor does not allocate here.
 * -1 when memory runs out (the caller scans instead).
 */
static int names_sync(struct hwt_drm_names *ix, const void *arr, size_t elem, uint32_t n)
{
	if ((uint64_t)(n + 1) * 2 > ix->cap) {
		uint32_t ncap = ix->cap ? ix->cap : 64;
		uint32_t *p;

		while ((uint64_t)(n + 1) * 2 > ncap)
			ncap *= 2;
		p = realloc(ix->slot, (size_t)ncap * sizeof(*p));
		if (!p)
			return -1;
		ix->slot = p;
		ix->cap = ncap;
		ix->n = 0;	/* rehash everything */
	}
	if (ix->n > n)
		ix->n = 0;
	if (!ix->n)
		memset(ix->slot, 0, (size_t)ix->cap * sizeof(*ix->slot));
	while (ix->n < n)
		names_put(ix, elem_name(arr, elem, ix->n), ix->n);
	return 0;
}

/*
 * Index of the element named [s, s + sn) among the @n of @arr, or -1.  Uses
 * @ix when it is valid for these @n names (names_sync() made it so).
 */
static int64_t names_find(const struct hwt_drm_names *ix, const void *arr, size_t elem,
			  uint32_t n, const char *s, size_t sn, uint64_t *probes)
{
	if (ix->cap && ix->n == n && n >= NAMES_MIN) {
		uint32_t m = ix->cap - 1, h = name_hash(s, sn) & m;

		for (; ix->slot[h]; h = (h + 1) & m) {
			uint32_t i = ix->slot[h] - 1;

			++*probes;
			if (name_eq(elem_name(arr, elem, i), s, sn))
				return i;
		}
		++*probes;	/* the empty slot that ends the search */
		return -1;
	}
	for (uint32_t i = 0; i < n; i++) {
		++*probes;
		if (name_eq(elem_name(arr, elem, i), s, sn))
			return i;
	}
	return -1;
}

struct hwt_drm_engine *hwt_drm_fdinfo__engine(const struct hwt_drm_fdinfo *fi, const char *name)
{
	uint64_t probes = 0;
	int64_t i = names_find(&fi->engine_idx, fi->engines, sizeof(*fi->engines),
			       fi->nengines, name, strlen(name), &probes);

	return i < 0 ? NULL : &fi->engines[i];
}

const struct hwt_drm_region *hwt_drm_fdinfo__region(const struct hwt_drm_fdinfo *fi,
						    const char *name)
{
	uint64_t probes = 0;
	int64_t i = names_find(&fi->region_idx, fi->regions, sizeof(*fi->regions),
			       fi->nregions, name, strlen(name), &probes);

	return i < 0 ? NULL : &fi->regions[i];
}

const char *hwt_drm_fdinfo__other(const struct hwt_drm_fdinfo *fi, const char *key)
{
	for (uint32_t i = 0; i < fi->nother; i++)
		if (!strcmp(fi->other[i].key, key))
			return fi->other[i].val;
	return NULL;
}

/*
 * Drivers print one engine's keys together: try the last hit first, then the
 * names seen so far (hashed once there are many: a client with 20k engines
 * must not cost 20k^2/2 comparisons).
 */
static struct hwt_drm_engine *engine_get(struct hwt_drm_fdinfo *fi, const char *s, size_t n)
{
	struct hwt_drm_engine *e;
	int64_t i;

	if (fi->last_engine < fi->nengines) {
		fi->name_probes++;
		if (name_eq(fi->engines[fi->last_engine].name, s, n))
			return &fi->engines[fi->last_engine];
	}
	if (fi->nengines >= NAMES_MIN)
		names_sync(&fi->engine_idx, fi->engines, sizeof(*e), fi->nengines);
	i = names_find(&fi->engine_idx, fi->engines, sizeof(*e), fi->nengines, s, n,
		       &fi->name_probes);
	if (i >= 0) {
		fi->last_engine = i;
		return &fi->engines[i];
	}
	e = slot_take((void **)&fi->engines, &fi->cap_engines, fi->nengines, sizeof(*e), s, n);
	if (!e)
		return NULL;
	e->capacity = 1;
	fi->last_engine = fi->nengines++;
	return e;
}

static struct hwt_drm_region *region_get(struct hwt_drm_fdinfo *fi, const char *s, size_t n)
{
	struct hwt_drm_region *r;
	int64_t i;

	if (fi->last_region < fi->nregions) {
		fi->name_probes++;
		if (name_eq(fi->regions[fi->last_region].name, s, n))
			return &fi->regions[fi->last_region];
	}
	if (fi->nregions >= NAMES_MIN)
		names_sync(&fi->region_idx, fi->regions, sizeof(*r), fi->nregions);
	i = names_find(&fi->region_idx, fi->regions, sizeof(*r), fi->nregions, s, n,
		       &fi->name_probes);
	if (i >= 0) {
		fi->last_region = i;
		return &fi->regions[i];
	}
	r = slot_take((void **)&fi->regions, &fi->cap_regions, fi->nregions, sizeof(*r), s, n);
	if (!r)
		return NULL;
	fi->last_region = fi->nregions++;
	return r;
}

static int keep_other(struct parse_ctx *ctx, const char *k, size_t kn, const char *v,
		      size_t vn)
{
	struct hwt_drm_fdinfo *fi = ctx->fi;
	struct hwt_drm_kv *kv;

	if (ctx->flags & HWT_DRM_PARSE_NO_OTHER)
		return 0;
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
	struct unit {
		const char *name;
		size_t len;
		uint64_t mult;
	};
	static const struct unit bytes[] = {
		{ KEY("KiB"), 1ull << 10 }, { KEY("MiB"), 1ull << 20 }, { KEY("GiB"), 1ull << 30 },
		{ KEY("kB"), 1ull << 10 }, { KEY("KB"), 1ull << 10 }, { KEY("B"), 1 }, { NULL },
	};
	static const struct unit ns[] = { { KEY("ns"), 1 }, { NULL } };
	static const struct unit hz[] = {
		{ KEY("Hz"), 1 }, { KEY("KHz"), 1000 }, { KEY("kHz"), 1000 },
		{ KEY("MHz"), 1000000 }, { KEY("GHz"), 1000000000 }, { NULL },
	};
	static const struct unit none[] = { { NULL } };
	const struct unit *t = kind == U_BYTES ? bytes : kind == U_NS ? ns :
			       kind == U_HZ ? hz : none;

	*mult = 1;
	if (!n)
		return true;
	for (; t->name; t++)
		if (t->len == n && t->name[0] == u[0] && !memcmp(t->name, u, n)) {
			*mult = t->mult;
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
	for (; i < n && v[i] >= '0' && v[i] <= '9'; i++)
		if (__builtin_mul_overflow(x, 10, &x) ||
		    __builtin_add_overflow(x, (uint64_t)(v[i] - '0'), &x))
			return "value does not fit in 64 bits";
	if (i == n) {		/* no unit (the caller trimmed the line) */
		*out = x;
		return NULL;
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

static int set_str(struct parse_ctx *ctx, int which, char **dst, const char *v, size_t n)
{
	char *old = ctx->old[which];

	if (*dst)		/* first one wins (amdgpu printed the header twice) */
		return 0;
	if (old && name_eq(old, v, n)) {
		*dst = old;
		ctx->old[which] = NULL;
		return 0;
	}
	*dst = dup_n(v, n);
	return *dst ? 0 : -1;
}

static void engine_set(struct hwt_drm_engine *e, int bit, uint64_t x)
{
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
}

static void region_set(struct hwt_drm_region *r, int m, uint64_t x)
{
	if (m >= 0) {
		r->bytes[m] = x;
		r->have |= 1u << m;
	} else {
		r->legacy = x;
		r->have |= HAVE_LEGACY;
	}
}

/* Index of the key_table prefix of drm- key @k, or -1. */
static int key_index(const char *k, size_t kn)
{
	for (size_t i = 0; i < sizeof(key_table) / sizeof(key_table[0]); i++) {
		size_t pn = key_table[i].plen;

		/* k[4] tells most prefixes apart before a memcmp */
		if (kn > pn && k[4] == key_table[i].prefix[4] &&
		    !memcmp(k, key_table[i].prefix, pn))
			return (int)i;
	}
	return -1;
}

/*
 * Returns 1 if the line was a standard key understood, 0 if kept as text, -1 on
 * ENOMEM; ctx->step says what it did, for the plan.
 */
static int parse_line(struct parse_ctx *ctx, const char *k, size_t kn, const char *v,
		      size_t vn, uint64_t off)
{
	struct hwt_drm_fdinfo *fi = ctx->fi;
	struct hwt_drm_step *st = &ctx->step;
	const char *why;
	uint64_t x;
	int i;

	st->op = OP_SKIP;
	if (kn <= 4 || memcmp(k, "drm-", 4))	/* pos:, flags:, driver-prefixed keys */
		return keep_other(ctx, k, kn, v, vn) ? -1 : 0;
	st->op = OP_STR;
	if (kn == 10 && !memcmp(k, "drm-driver", 10)) {
		st->arg = S_DRIVER;
		return set_str(ctx, S_DRIVER, &fi->driver, v, vn) ? -1 : 1;
	}
	if (kn == 8 && !memcmp(k, "drm-pdev", 8)) {
		st->arg = S_PDEV;
		return set_str(ctx, S_PDEV, &fi->pdev, v, vn) ? -1 : 1;
	}
	if (kn == 15 && !memcmp(k, "drm-client-name", 15)) {
		st->arg = S_NAME;
		return set_str(ctx, S_NAME, &fi->client_name, v, vn) ? -1 : 1;
	}
	st->op = OP_SKIP;
	if (kn == 13 && !memcmp(k, "drm-client-id", 13)) {
		why = parse_num(v, vn, U_NONE, &x);
		if (why) {
			WARN(ctx, off, "drm-client-id: %s", why);
			return keep_other(ctx, k, kn, v, vn) ? -1 : 0;
		}
		if (fi->has_client_id)	/* transitional amdgpu: the core's id came first */
			return keep_other(ctx, k, kn, v, vn) ? -1 : 0;
		fi->client_id = x;
		fi->has_client_id = true;
		st->op = OP_ID;
		return 1;
	}
	i = key_index(k, kn);
	if (i < 0)
		return keep_other(ctx, k, kn, v, vn) ? -1 : 0;
	why = parse_num(v, vn, key_table[i].unit, &x);
	if (why) {
		WARN(ctx, off, "%.*s: %s", (int)kn, k, why);
		return keep_other(ctx, k, kn, v, vn) ? -1 : 0;
	}
	st->arg = i;
	if (key_table[i].engine_bit) {
		int bit = key_table[i].engine_bit;
		struct hwt_drm_engine *e = engine_get(fi, k + key_table[i].plen,
						      kn - key_table[i].plen);

		if (!e)
			return -1;
		if (bit == HWT_DRM_HAVE_CAPACITY && !x) {
			WARN(ctx, off, "%.*s: zero capacity is not allowed, using 1", (int)kn, k);
			x = 1;
		}
		if (e->have & bit) {
			WARN(ctx, off, "%.*s: repeated key, the first value is kept", (int)kn, k);
			return keep_other(ctx, k, kn, v, vn) ? -1 : 0;
		}
		engine_set(e, bit, x);
		st->op = OP_ENGINE;
		st->idx = e - fi->engines;
	} else {
		int m = key_table[i].mem;
		struct hwt_drm_region *r = region_get(fi, k + key_table[i].plen,
						      kn - key_table[i].plen);

		if (!r)
			return -1;
		if (r->have & (m < 0 ? HAVE_LEGACY : 1u << m)) {
			WARN(ctx, off, "%.*s: repeated key, the first value is kept", (int)kn, k);
			return keep_other(ctx, k, kn, v, vn) ? -1 : 0;
		}
		region_set(r, m, x);
		st->op = OP_REGION;
		st->idx = r - fi->regions;
	}
	return 1;
}

static void other_free(struct hwt_drm_fdinfo *fi)
{
	for (uint32_t i = 0; i < fi->nother; i++) {
		free(fi->other[i].key);
		free(fi->other[i].val);
	}
	fi->nother = 0;
}

/* grow() until @need elements fit */
static int reserve(void **arr, uint32_t *cap, uint64_t need, size_t elem)
{
	while (need > *cap)
		if (grow(arr, cap, *cap, elem))
			return -1;
	return 0;
}

/* Give back what grow() doubled beyond @n: the plan lives as long as its client. */
static void shrink(void **arr, uint32_t *cap, uint32_t n, size_t elem)
{
	void *p;

	if (!n || n + n / 4 >= *cap)
		return;
	p = realloc(*arr, (size_t)n * elem);
	if (p) {
		*arr = p;
		*cap = n;
	}
}

/* Append ctx->step for the line whose key is @k to the plan being recorded. */
static void plan_add(struct parse_ctx *ctx, const char *k, size_t kn)
{
	struct hwt_drm_fdinfo *fi = ctx->fi;
	struct hwt_drm_step *st;

	if (fi->nplan >= PLAN_MAX_LINES) {
		ctx->record = false;	/* a huge text is parsed the long way each time */
		return;
	}
	if (reserve((void **)&fi->plan, &fi->cap_plan, (uint64_t)fi->nplan + 1, sizeof(*st)) ||
	    reserve((void **)&fi->plan_keys, &fi->cap_plan_keys,
		    (uint64_t)fi->plan_keys_len + kn + KEY_SLACK, 1)) {
		ctx->record = false;	/* no plan, no harm */
		return;
	}
	st = &fi->plan[fi->nplan++];
	*st = ctx->step;
	st->off = (uint32_t)(k - ctx->text);
	st->key_off = fi->plan_keys_len;
	st->key_len = kn;
	if (kn)		/* a blank line has no key, and plan_keys may still be NULL */
		memcpy(fi->plan_keys + fi->plan_keys_len, k, kn);
	fi->plan_keys_len += kn;
}

/* One line of a text: [p, end) without trailing whitespace; @bytes counts its newline. */
struct line {
	const char *p, *end;
	size_t bytes;
};

static bool next_line(const char *text, size_t len, size_t *pos, struct line *l)
{
	const char *nl;
	size_t ll;

	if (*pos >= len)
		return false;
	l->p = text + *pos;
	nl = line_end(l->p, text + len);
	ll = nl ? (size_t)(nl - l->p) : len - *pos;
	l->bytes = ll + (nl ? 1 : 0);
	*pos += l->bytes;
	l->end = l->p + ll;
	while (l->end > l->p && is_space(l->end[-1]))
		l->end--;
	return true;
}

static const char *skip_space(const char *v, const char *end)
{
	while (v < end && is_space(*v))
		v++;
	return v;
}

static void legacy_fixup(struct hwt_drm_fdinfo *fi)
{
	for (uint32_t i = 0; i < fi->nregions; i++) {
		struct hwt_drm_region *r = &fi->regions[i];

		if ((r->have & HAVE_LEGACY) && !(r->have & (1u << HWT_DRM_MEM_RESIDENT))) {
			r->bytes[HWT_DRM_MEM_RESIDENT] = r->legacy;
			r->have |= 1u << HWT_DRM_MEM_RESIDENT;
		}
	}
}

/*
 * parse_num() of the value at @p, reading on to the end of its line: digits,
 * whitespace, a unit, whitespace.  *next is past the line's newline.  false
 * for anything parse_num() would not take (the long way then warns).
 */
static __attribute__((noinline)) bool num_fwd_slow(const char *p, const char *end,
						   enum unit_kind kind, uint64_t *out,
						   const char **next)
{
	uint64_t x = 0, mult = 1;
	const char *u, *d = p;

	if (p == end || *p < '0' || *p > '9')
		return false;
	/* up to 19 digits cannot overflow: the checked loop only for longer numbers */
	while (p < end && p - d < 19 && (unsigned char)(*p - '0') < 10)
		x = x * 10 + (uint64_t)(*p++ - '0');
	for (; p < end && *p >= '0' && *p <= '9'; p++)
		if (__builtin_mul_overflow(x, 10, &x) ||
		    __builtin_add_overflow(x, (uint64_t)(*p - '0'), &x))
			return false;
	/* what drivers print after a number: nothing, " ns", " KiB" */
	if (p < end && *p == '\n') {
		*out = x;
		*next = p + 1;
		return true;
	}
	if (end - p >= 4 && kind == U_NS && !memcmp(p, " ns\n", 4)) {
		*out = x;
		*next = p + 4;
		return true;
	}
	if (end - p >= 5 && kind == U_BYTES && !memcmp(p, " KiB\n", 5) && x <= UINT64_MAX >> 10) {
		*out = x << 10;
		*next = p + 5;
		return true;
	}
	while (p < end && is_space(*p))
		p++;
	for (u = p; p < end && *p != '\n' && !is_space(*p); p++)
		;
	/* the units drivers print, without the table walk */
	if (p - u == 2 && kind == U_NS && u[0] == 'n' && u[1] == 's')
		;
	else if (p - u == 3 && kind == U_BYTES && u[1] == 'i' && u[2] == 'B' && u[0] == 'K')
		mult = 1ull << 10;
	else if (p - u == 3 && kind == U_BYTES && u[1] == 'i' && u[2] == 'B' && u[0] == 'M')
		mult = 1ull << 20;
	else if (p > u && !unit_mult(kind, u, p - u, &mult))
		return false;
	while (p < end && is_space(*p))
		p++;
	if ((p < end && *p != '\n') || (mult > 1 && x > UINT64_MAX / mult))
		return false;
	*out = x * mult;
	*next = p < end ? p + 1 : p;
	return true;
}

/*
 * num_fwd_slow()'s answer, inline for the lines drivers print, up to 18
 * digits then "\n", " ns\n" or " KiB\n", away from the text's end; the
 * rest goes to num_fwd_slow().
 */
static inline bool num_fwd(const char *p, const char *end, enum unit_kind kind, uint64_t *out,
			   const char **next)
{
	const char *q = p;
	uint64_t x = 0;
	unsigned int c;

	/* 18 digits and " KiB\n" lie within 24 bytes: no end check per byte */
	if (end - p < 24)
		return num_fwd_slow(p, end, kind, out, next);
	while ((c = (unsigned char)*q - '0') < 10 && q - p < 19) {
		x = x * 10 + c;
		q++;
	}
	if (q == p || q - p == 19)
		return num_fwd_slow(p, end, kind, out, next);
	if (*q == '\n') {
		*out = x;
		*next = q + 1;
		return true;
	}
	if (kind == U_NS && !memcmp(q, " ns\n", 4)) {
		*out = x;
		*next = q + 4;
		return true;
	}
	if (kind == U_BYTES && !memcmp(q, " KiB\n", 5) && x <= UINT64_MAX >> 10) {
		*out = x << 10;
		*next = q + 5;
		return true;
	}
	return num_fwd_slow(p, end, kind, out, next);
}

/* What one line of a replayed text holds: a number, or where a string lies. */
union step_val {
	uint64_t x;
	struct {
		uint32_t off, len;
	} s;
};

/*
 * Check @text from step @k on (its line starting at plan[k].off, the same
 * offset as in the last text) against @fi's plan in one pass, without
 * changing @fi: each line must start with the remembered key and ':' and
 * hold a value that parses without a warning.  The values go to @val and
 * the lines' offsets to @offs, one per step, and *decoded and *skipped
 * count the bytes.  false: the text differs (the caller parses it the long
 * way).
 */
static bool replay_scan(const struct hwt_drm_fdinfo *fi, const char *text, size_t len,
			uint32_t k, union step_val *val, uint32_t *offs, uint64_t *decoded,
			uint64_t *skipped)
{
	size_t start = k < fi->nplan ? fi->plan[k].off : 0;
	const char *p, *end = text + len;
	uint64_t dec = 0, skip = 0;	/* in registers: the stores to @val and @offs may alias */
	uint32_t s;

	*decoded = *skipped = 0;
	if (start > len)
		return false;
	p = text + start;
	for (s = k; p < end; s++) {
		const struct hwt_drm_step *st;
		const char *line = p, *v, *nl, *le;
		int i;

		if (s == fi->nplan)
			return false;	/* more lines than before */
		st = &fi->plan[s];
		offs[s] = (uint32_t)(p - text);
		if (st->op == OP_BLANK) {
			while (p < end && is_space(*p))
				p++;
			if (p < end && *p++ != '\n')
				return false;
			skip += p - line;
			continue;
		}
		if ((size_t)(end - p) <= st->key_len || p[st->key_len] != ':' ||
		    (st->key_len && !key_at(p, end - p, fi->plan_keys + st->key_off, st->key_len)))
			return false;
		v = p + st->key_len + 1;
		while (v < end && is_space(*v))
			v++;
		i = st->arg;
		switch (st->op) {
		case OP_SKIP:
		case OP_STR:
			nl = line_end(v, end);
			p = nl ? nl + 1 : end;
			if (st->op == OP_SKIP) {
				skip += p - line;
				continue;
			}
			for (le = nl ? nl : end; le > v && is_space(le[-1]); le--)
				;
			val[s].s.off = v - text;
			val[s].s.len = le - v;
			break;
		case OP_ID:
			if (!num_fwd(v, end, U_NONE, &val[s].x, &p))
				return false;
			break;
		case OP_ENGINE:
			if (!num_fwd(v, end, key_table[i].unit, &val[s].x, &p) ||
			    (key_table[i].engine_bit == HWT_DRM_HAVE_CAPACITY && !val[s].x))
				return false;
			break;
		case OP_REGION:
			if (!num_fwd(v, end, key_table[i].unit, &val[s].x, &p))
				return false;
			break;
		}
		dec += p - line;
	}
	*decoded = dec;
	*skipped = skip;
	return s == fi->nplan;	/* else fewer lines than before */
}

/* The numbers of a replay_scan() into @fi's engines and regions, emptied first. */
static void replay_store(struct hwt_drm_fdinfo *fi, const union step_val *val)
{
	fi->nengines = fi->plan_nengines;
	fi->nregions = fi->plan_nregions;
	for (uint32_t i = 0; i < fi->nengines; i++) {
		struct hwt_drm_engine *e = &fi->engines[i];

		*e = (struct hwt_drm_engine){ .name = e->name, .capacity = 1 };
	}
	for (uint32_t i = 0; i < fi->nregions; i++) {
		struct hwt_drm_region *r = &fi->regions[i];

		*r = (struct hwt_drm_region){ .name = r->name };
	}
	for (uint32_t s = 0; s < fi->nplan; s++) {
		const struct hwt_drm_step *st = &fi->plan[s];

		if (st->op == OP_ENGINE)
			engine_set(&fi->engines[st->idx], key_table[st->arg].engine_bit, val[s].x);
		else if (st->op == OP_REGION)
			region_set(&fi->regions[st->idx], key_table[st->arg].mem, val[s].x);
	}
	legacy_fixup(fi);
}

static void replay_count(struct hwt_diag *diag, uint64_t decoded, uint64_t skipped)
{
	if (diag) {
		diag->bytes.decoded += decoded;
		diag->bytes.skipped += skipped;
	}
}

/*
 * Replay the plan over the text into ctx->fi, emptied by the caller.
 * 1 done, 0 the text differs (nothing counted in the diag; the caller parses
 * it the long way), -1 ENOMEM.
 */
static int replay(struct parse_ctx *ctx, const char *text, size_t len)
{
	struct hwt_drm_fdinfo *fi = ctx->fi;
	union step_val val[PLAN_MAX_LINES];
	uint32_t offs[PLAN_MAX_LINES];
	uint64_t decoded, skipped;

	if (!replay_scan(fi, text, len, 0, val, offs, &decoded, &skipped))
		return 0;
	for (uint32_t s = 0; s < fi->nplan; s++)
		fi->plan[s].off = offs[s];
	for (uint32_t s = 0; s < fi->nplan; s++) {
		const struct hwt_drm_step *st = &fi->plan[s];
		int i = st->arg;

		if (st->op == OP_STR &&
		    set_str(ctx, i, i == S_DRIVER ? &fi->driver : i == S_PDEV ? &fi->pdev :
				    &fi->client_name, text + val[s].s.off, val[s].s.len))
			return -1;
		if (st->op == OP_ID) {
			fi->client_id = val[s].x;
			fi->has_client_id = true;
		}
	}
	replay_store(fi, val);
	replay_count(ctx->diag, decoded, skipped);
	return 1;
}

/* How many leading bytes @a and @b, both @n long at least, have in common. */
static size_t common_prefix(const char *a, const char *b, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x, y;

		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			break;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/* Bytes decoded and skipped by the lines of steps [0, @k) in a text of @len bytes. */
static void prefix_counts(const struct hwt_drm_fdinfo *fi, uint32_t k, size_t len,
			  uint64_t *decoded, uint64_t *skipped)
{
	*decoded = *skipped = 0;
	for (uint32_t s = 0; s < k; s++) {
		const struct hwt_drm_step *st = &fi->plan[s];
		uint64_t n = (s + 1 < fi->nplan ? fi->plan[s + 1].off : len) - st->off;

		if (st->op == OP_SKIP || st->op == OP_BLANK)
			*skipped += n;
		else
			*decoded += n;
	}
}

int hwt_drm_fdinfo__update(struct hwt_drm_fdinfo *fi, const char *text, size_t len,
			   const char *old, size_t old_len, struct hwt_diag *diag)
{
	union step_val val[PLAN_MAX_LINES];
	uint32_t offs[PLAN_MAX_LINES];
	const char *str[S_N] = { fi->driver, fi->pdev, fi->client_name };
	bool seen[S_N] = { false };
	uint64_t decoded, skipped, pd, ps;
	uint32_t k = 0;

	/* offsets in a plan are 32-bit (parse records none for a longer text) */
	if (!fi->plan_ok || !fi->nplan || len > UINT32_MAX || (old && old_len > UINT32_MAX))
		return 0;
	if (old) {
		/* the lines before the first changed byte hold their values already */
		size_t same = common_prefix(old, text, len < old_len ? len : old_len);

		while (k + 1 < fi->nplan && fi->plan[k + 1].off <= same)
			k++;
		if (same == len && len == old_len)
			k = fi->nplan;	/* not one byte changed */
		/* a changed legacy size would change the resident size derived from it */
		for (uint32_t s = k; s < fi->nplan; s++)
			if (fi->plan[s].op == OP_REGION && key_table[fi->plan[s].arg].mem < 0)
				k = 0;
	}
	if (k < fi->nplan && !replay_scan(fi, text, len, k, val, offs, &decoded, &skipped))
		return 0;
	if (k == fi->nplan)
		decoded = skipped = 0;
	for (uint32_t s = 0; s < fi->nplan; s++) {
		const struct hwt_drm_step *st = &fi->plan[s];
		int i = st->arg;

		/* the first of each string is the one kept: it must not have changed */
		if (st->op == OP_STR && !seen[i]) {
			seen[i] = true;
			if (s >= k && (!str[i] || !name_eq(str[i], text + val[s].s.off,
							      val[s].s.len)))
				return 0;
		}
		if (s >= k && st->op == OP_ID &&
		    (!fi->has_client_id || val[s].x != fi->client_id))
			return 0;
	}
	prefix_counts(fi, k, len, &pd, &ps);
	if (!k) {
		replay_store(fi, val);
	} else {
		for (uint32_t s = k; s < fi->nplan; s++) {
			const struct hwt_drm_step *st = &fi->plan[s];

			if (st->op == OP_ENGINE)
				engine_set(&fi->engines[st->idx], key_table[st->arg].engine_bit,
					   val[s].x);
			else if (st->op == OP_REGION)
				region_set(&fi->regions[st->idx], key_table[st->arg].mem, val[s].x);
		}
	}
	for (uint32_t s = k; s < fi->nplan; s++)
		fi->plan[s].off = offs[s];
	replay_count(diag, pd + decoded, ps + skipped);
	return 1;
}

/* Undo a replay that gave up: strings go back to the pool of old ones. */
static void replay_undo(struct parse_ctx *ctx)
{
	struct hwt_drm_fdinfo *fi = ctx->fi;
	char **str[S_N] = { &fi->driver, &fi->pdev, &fi->client_name };

	for (int i = 0; i < S_N; i++) {
		if (!*str[i])
			continue;
		if (!ctx->old[i])
			ctx->old[i] = *str[i];	/* it was adopted from there */
		else
			free(*str[i]);
		*str[i] = NULL;
	}
	fi->client_id = 0;
	fi->has_client_id = false;
}

/* The long way: every key looked up; records a plan when asked to. */
static int parse_text(struct parse_ctx *ctx, const char *text, size_t len)
{
	struct hwt_drm_fdinfo *fi = ctx->fi;
	struct hwt_diag *diag = ctx->diag;
	struct line l;
	size_t pos = 0;

	fi->nengines = fi->nregions = 0;	/* their names stay for reuse */
	fi->last_engine = fi->last_region = 0;
	fi->engine_idx.n = fi->region_idx.n = 0;	/* names may change: reindex */
	fi->nplan = fi->plan_keys_len = 0;
	fi->plan_ok = false;
	while (next_line(text, len, &pos, &l)) {
		const char *colon, *v;
		int r;

		if (l.end == l.p) {
			if (diag)
				diag->bytes.skipped += l.bytes;
			ctx->step.op = OP_BLANK;
			if (ctx->record)
				plan_add(ctx, l.p, 0);
			continue;
		}
		colon = memchr(l.p, ':', l.end - l.p);
		if (!colon) {
			WARN(ctx, l.p - text, "line without ':' ignored");
			if (diag)
				diag->bytes.skipped += l.bytes;
			continue;
		}
		v = skip_space(colon + 1, l.end);
		r = parse_line(ctx, l.p, colon - l.p, v, l.end - v, l.p - text);
		if (r < 0)
			return -1;
		if (diag) {
			if (r)
				diag->bytes.decoded += l.bytes;
			else
				diag->bytes.skipped += l.bytes;
		}
		if (ctx->record)
			plan_add(ctx, l.p, colon - l.p);
	}
	legacy_fixup(fi);
	/* index the last names too, for hwt_drm_fdinfo__engine() and replays */
	if (fi->nengines >= NAMES_MIN)
		names_sync(&fi->engine_idx, fi->engines, sizeof(*fi->engines), fi->nengines);
	if (fi->nregions >= NAMES_MIN)
		names_sync(&fi->region_idx, fi->regions, sizeof(*fi->regions), fi->nregions);
	if (ctx->record) {
		shrink((void **)&fi->plan, &fi->cap_plan, fi->nplan, sizeof(*fi->plan));
		shrink((void **)&fi->plan_keys, &fi->cap_plan_keys, fi->plan_keys_len + KEY_SLACK, 1);
		fi->plan_ok = true;
		fi->plan_nengines = fi->nengines;
		fi->plan_nregions = fi->nregions;
	}
	return 0;
}

int hwt_drm_fdinfo__parse(struct hwt_drm_fdinfo *fi, const char *text, size_t len,
			  unsigned int flags, struct hwt_diag *diag)
{
	struct parse_ctx ctx = {
		.fi = fi, .flags = flags, .diag = diag, .text = text,
		.old = { fi->driver, fi->pdev, fi->client_name },
		/*
		 * a plan replays lines as skipped, which only NO_OTHER allows;
		 * its line offsets are 32-bit
		 */
		.record = (flags & HWT_DRM_PARSE_NO_OTHER) && len <= UINT32_MAX,
	};
	int r = 0, ret;

	fi->driver = fi->pdev = fi->client_name = NULL;
	fi->client_id = 0;
	fi->has_client_id = false;
	other_free(fi);
	if (fi->plan_ok && ctx.record) {
		r = replay(&ctx, text, len);
		if (!r)
			replay_undo(&ctx);
	}
	ret = r > 0 ? 0 : r < 0 ? -1 : parse_text(&ctx, text, len);
	for (int i = 0; i < S_N; i++)
		free(ctx.old[i]);
	return ret;
}

void hwt_drm_fdinfo__prefetch(const struct hwt_drm_fdinfo *fi)
{
	hwt_prefetch_bytes(fi->plan, (size_t)fi->nplan * sizeof(*fi->plan));
	hwt_prefetch_bytes(fi->plan_keys, fi->plan_keys_len);
	hwt_prefetch_bytes(fi->engines, (size_t)fi->nengines * sizeof(*fi->engines));
	hwt_prefetch_bytes(fi->regions, (size_t)fi->nregions * sizeof(*fi->regions));
	__builtin_prefetch(fi->driver);
	__builtin_prefetch(fi->pdev);
}

void hwt_drm_fdinfo__prefetch_names(const struct hwt_drm_fdinfo *fi)
{
	for (uint32_t i = 0; i < fi->nengines && i < HWT_PREFETCH_LINES; i++)
		__builtin_prefetch(fi->engines[i].name);
	for (uint32_t i = 0; i < fi->nregions && i < HWT_PREFETCH_LINES; i++)
		__builtin_prefetch(fi->regions[i].name);
}

void hwt_drm_fdinfo__init(struct hwt_drm_fdinfo *fi)
{
	memset(fi, 0, sizeof(*fi));
}

void hwt_drm_fdinfo__exit(struct hwt_drm_fdinfo *fi)
{
	free(fi->driver);
	free(fi->pdev);
	free(fi->client_name);
	/* spare names of an earlier parse sit past nengines/nregions */
	for (uint32_t i = 0; i < fi->cap_engines; i++)
		free(fi->engines[i].name);
	for (uint32_t i = 0; i < fi->cap_regions; i++)
		free(fi->regions[i].name);
	other_free(fi);
	free(fi->engines);
	free(fi->regions);
	free(fi->other);
	free(fi->plan);
	free(fi->plan_keys);
	free(fi->engine_idx.slot);
	free(fi->region_idx.slot);
	memset(fi, 0, sizeof(*fi));
}

struct hwt_drm_fdinfo *hwt_drm_fdinfo__new(void)
{
	return calloc(1, sizeof(struct hwt_drm_fdinfo));
}

void hwt_drm_fdinfo__delete(struct hwt_drm_fdinfo *fi)
{
	if (!fi)
		return;
	hwt_drm_fdinfo__exit(fi);
	free(fi);
}

const char *hwt_drm_fdinfo__driver(const struct hwt_drm_fdinfo *fi)
{
	return fi->driver;
}

const char *hwt_drm_fdinfo__pdev(const struct hwt_drm_fdinfo *fi)
{
	return fi->pdev;
}

const char *hwt_drm_fdinfo__client_name(const struct hwt_drm_fdinfo *fi)
{
	return fi->client_name;
}

bool hwt_drm_fdinfo__client_id(const struct hwt_drm_fdinfo *fi, uint64_t *id)
{
	if (fi->has_client_id)
		*id = fi->client_id;
	return fi->has_client_id;
}

uint32_t hwt_drm_fdinfo__nengines(const struct hwt_drm_fdinfo *fi)
{
	return fi->nengines;
}

struct hwt_drm_engine *hwt_drm_fdinfo__engine_at(const struct hwt_drm_fdinfo *fi, uint32_t i)
{
	return i < fi->nengines ? &fi->engines[i] : NULL;
}

uint32_t hwt_drm_fdinfo__nregions(const struct hwt_drm_fdinfo *fi)
{
	return fi->nregions;
}

const struct hwt_drm_region *hwt_drm_fdinfo__region_at(const struct hwt_drm_fdinfo *fi,
						       uint32_t i)
{
	return i < fi->nregions ? &fi->regions[i] : NULL;
}

uint32_t hwt_drm_fdinfo__nother(const struct hwt_drm_fdinfo *fi)
{
	return fi->nother;
}

const struct hwt_drm_kv *hwt_drm_fdinfo__other_at(const struct hwt_drm_fdinfo *fi, uint32_t i)
{
	return i < fi->nother ? &fi->other[i] : NULL;
}
