// SPDX-License-Identifier: GPL-2.0
/* options.c - the decoder options of panthor and how each value is checked. */
#include <stdio.h>
#include <string.h>

#include "hwtrace/device.h"
#include "panthor_internal.h"


/* The decoder reads these with panthor__parse_u64() too (panthor_decoder.c). */
static int check_u64(const char *val, char *err, size_t errlen)
{
	uint64_t v;

	if (!panthor__parse_u64(val, &v))
		return 0;
	snprintf(err, errlen, "'%s' is not a number", val);
	return -1;
}

static int check_layout(const char *val, char *err, size_t errlen)
{
	uint64_t v;

	if (!panthor__parse_u64(val, &v) && v <= UINT32_MAX && hwt_panthor_layout__get((uint32_t)v))
		return 0;
	snprintf(err, errlen, "'%s' is not a uAPI layout revision (2 or 6)", val);
	return -1;
}

static int check_format(const char *val, char *err, size_t errlen)
{
	if (!strcmp(val, "ring") || !strcmp(val, "samples"))
		return 0;
	snprintf(err, errlen, "'%s': use 'ring' (default) or 'samples'", val);
	return -1;
}

static const char *const sort_keys[] = {
	[PANTHOR_SORT_BLOCK] = "block", [PANTHOR_SORT_TOTAL] = "total",
	[PANTHOR_SORT_PER_SECOND] = "per_second", [PANTHOR_SORT_PER_MCYCLE] = "per_mcycle",
	[PANTHOR_SORT_NAME] = "name",
};

int panthor__sort_key(const char *s)
{
	for (int i = 0; i < (int)(sizeof(sort_keys) / sizeof(sort_keys[0])); i++)
		if (!strcmp(s, sort_keys[i]))
			return i;
	return -1;
}

static int check_sort(const char *val, char *err, size_t errlen)
{
	if (panthor__sort_key(val) >= 0)
		return 0;
	snprintf(err, errlen, "'%s': use block, total, per_second, per_mcycle or name", val);
	return -1;
}

static int check_top(const char *val, char *err, size_t errlen)
{
	uint64_t v;

	/* the range cxl-hmu's --top takes: the option is one for both devices */
	if (!panthor__parse_u64(val, &v) && v <= 1000000)
		return 0;
	snprintf(err, errlen, "'%s' is not a count from 0 to 1000000", val);
	return -1;
}

const struct hwt_dev_opt hwt_panthor_options[] = {
	{ "info", "FILE", "perf_info fields as JSON (raw decode)", .file = true },
	{ "layout", "N", "uAPI layout revision: 2 or 6 (raw decode)", .check = check_layout },
	{ "insert", "N", "ring insert index (raw decode)", .check = check_u64 },
	{ "extract", "N", "ring extract index (raw decode)", .check = check_u64 },
	{ "slots", "N", "ring slots (raw decode)", .check = check_u64 },
	{ "format", "ring|samples", "what the raw file holds (default ring)",
	  .check = check_format },
	{ "sort", "KEY", "report rows by block (default), total, per_second, per_mcycle or name",
	  .check = check_sort },
	{ "top", "N", "report: the first N rows of each table (default all)", .check = check_top },
	{ NULL },
};
