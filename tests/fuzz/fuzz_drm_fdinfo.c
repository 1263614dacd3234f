// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_drm_fdinfo.c - the fdinfo parser and the utilisation maths: the input
 * is split at its first NUL into two snapshots of one client.
 */
#include <stdlib.h>
#include <string.h>

#include "hwtrace/drm_fdinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *nul = memchr(text, 0, size);
	size_t n1 = nul ? (size_t)(nul - text) : size;
	struct hwt_drm_fdinfo a = { 0 }, b = { 0 };
	struct hwt_diag diag = { .file = "fuzz" };
	struct hwt_drm_util *util;

	if (hwt_drm_fdinfo__parse(&a, text, n1, &diag))
		return 0;
	if (nul && !hwt_drm_fdinfo__parse(&b, nul + 1, size - n1 - 1, &diag)) {
		util = calloc(b.nengines + 1, sizeof(*util));
		if (util)
			hwt_drm_usage__compute(&a, &b, 1000000000ull, util);
		free(util);
		hwt_drm_fdinfo__free(&b);
	}
	hwt_drm_fdinfo__free(&a);
	return 0;
}
