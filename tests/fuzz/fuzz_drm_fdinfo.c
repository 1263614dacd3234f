// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_drm_fdinfo.c - the fdinfo parser and the utilisation maths.  The
 * input is split at its first NUL into two snapshots A and B of one client.
 *
 * Besides "no crash", a differential check: reparsing B over A's parse
 * (reusing its memory and, with NO_OTHER, replaying A's key order) must give
 * exactly what a fresh parse of B gives, warnings and byte counts included;
 * an in-place update of A's parse with B gives that too, or leaves A's.
 */
#include <stdlib.h>
#include <string.h>

#include "drm_fdinfo/drm_fdinfo_internal.h"

static int str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static void same(const struct hwt_drm_fdinfo *x, const struct hwt_drm_fdinfo *y)
{
	int ok = str_eq(x->driver, y->driver) && str_eq(x->pdev, y->pdev) &&
		 str_eq(x->client_name, y->client_name) && x->has_client_id == y->has_client_id &&
		 (!x->has_client_id || x->client_id == y->client_id) &&
		 x->nengines == y->nengines && x->nregions == y->nregions;

	for (uint32_t i = 0; ok && i < x->nengines; i++) {
		const struct hwt_drm_engine *a = &x->engines[i], *b = &y->engines[i];

		ok = str_eq(a->name, b->name) && a->have == b->have && a->busy_ns == b->busy_ns &&
		     a->cycles == b->cycles && a->total_cycles == b->total_cycles &&
		     a->capacity == b->capacity && a->maxfreq_hz == b->maxfreq_hz;
	}
	for (uint32_t i = 0; ok && i < x->nregions; i++) {
		const struct hwt_drm_region *a = &x->regions[i], *b = &y->regions[i];

		ok = str_eq(a->name, b->name) && a->have == b->have && a->legacy == b->legacy &&
		     !memcmp(a->bytes, b->bytes, sizeof(a->bytes));
	}
	if (!ok)
		abort();
}

/*
 * A's parse updated in place with B, told of A's text or not: B's fresh
 * parse, or A's parse untouched, the same either way.
 */
static void check_update(const char *a, size_t na, const char *b, size_t nb)
{
	int was = -1;

	for (int with_old = 0; with_old < 2; with_old++) {
		struct hwt_drm_fdinfo u = { 0 }, f = { 0 };
		struct hwt_diag du = { .file = "u" }, df = { .file = "f" };
		int k;

		if (hwt_drm_fdinfo__parse(&u, a, na, HWT_DRM_PARSE_NO_OTHER, NULL))
			goto next;
		k = hwt_drm_fdinfo__update(&u, b, nb, with_old ? a : NULL, na, &du);
		if ((k != 0 && k != 1) || (was >= 0 && k != was))
			abort();
		was = k;
		if (k ? hwt_drm_fdinfo__parse(&f, b, nb, 0, &df) :
			hwt_drm_fdinfo__parse(&f, a, na, 0, NULL))
			goto next;
		same(&u, &f);
		if (k && (du.bytes.decoded != df.bytes.decoded ||
			  du.bytes.skipped != df.bytes.skipped || df.warnings))
			abort();
		if (!k && du.bytes.decoded + du.bytes.skipped)
			abort();
next:
		hwt_drm_fdinfo__exit(&u);
		hwt_drm_fdinfo__exit(&f);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *nul = memchr(text, 0, size);
	size_t n1 = nul ? (size_t)(nul - text) : size;
	const char *t2 = nul ? nul + 1 : text;
	size_t n2 = nul ? size - n1 - 1 : size;
	struct hwt_drm_fdinfo a = { 0 }, b = { 0 }, r = { 0 };
	struct hwt_diag da = { .file = "a" }, db = { .file = "b" }, dr = { .file = "r" };
	struct hwt_drm_util *util;

	if (hwt_drm_fdinfo__parse(&a, text, n1, 0, &da) || hwt_drm_fdinfo__parse(&b, t2, n2, 0, &db))
		goto out;
	util = calloc(b.nengines + 1, sizeof(*util));
	if (util)
		hwt_drm_usage__compute(&a, &b, 1000000000ull, util);
	free(util);
	/* r: parse A, then reparse B over it (as top does between refreshes) */
	for (unsigned flags = 0; flags <= HWT_DRM_PARSE_NO_OTHER; flags++) {
		struct hwt_diag fresh = { .file = "b" };
		struct hwt_drm_fdinfo f = { 0 };

		dr = (struct hwt_diag){ .file = "r" };
		if (hwt_drm_fdinfo__parse(&r, text, n1, flags, NULL) ||
		    hwt_drm_fdinfo__parse(&r, t2, n2, flags, &dr) ||
		    hwt_drm_fdinfo__parse(&f, t2, n2, 0, &fresh)) {
			hwt_drm_fdinfo__exit(&f);
			break;
		}
		same(&r, &f);
		if (dr.errors != fresh.errors || dr.warnings != fresh.warnings ||
		    dr.bytes.decoded != fresh.bytes.decoded)
			abort();
		hwt_drm_fdinfo__exit(&f);
	}
	check_update(text, n1, t2, n2);
out:
	hwt_drm_fdinfo__exit(&r);
	hwt_drm_fdinfo__exit(&b);
	hwt_drm_fdinfo__exit(&a);
	return 0;
}
