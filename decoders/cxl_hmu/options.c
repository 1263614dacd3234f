// SPDX-License-Identifier: GPL-2.0
/* options.c - the decoder options of CXL HMU and how each value is checked. */
#include <stdio.h>
#include <string.h>

#include "cxl_hmu_internal.h"
#include "hwtrace/device.h"

#include "cxl_hmu_opts.h"
#include "rank.h"

bool hmu_opt_u64(const char *s, uint64_t max, uint64_t *out)
{
	unsigned int base = 10;
	uint64_t v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && (*s | 0x20) >= 'a' && (*s | 0x20) <= 'f')
			d = (*s | 0x20) - 'a' + 10;
		else
			return false;
		if (d > max || v > (max - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

bool hmu_opt_bytes(const char *s, uint64_t *out)
{
	uint64_t v;

	/* the HDM decoder's numbers take the same K/M/G/T suffixes */
	if (!hwt_cxl__parse_bytes(s, strlen(s), &v) || v < HMU_RANK_MIN_MEMORY)
		return false;
	*out = v;
	return true;
}

static int check_range(const char *val, uint64_t min, uint64_t max, const char *what, char *err,
		       size_t errlen)
{
	uint64_t v;

	if (hmu_opt_u64(val, max, &v) && v >= min)
		return 0;
	snprintf(err, errlen, "'%s' is not %s in %llu..%llu", val, what,
		 (unsigned long long)min, (unsigned long long)max);
	return -1;
}

static int check_hdm(const char *val, char *err, size_t errlen)
{
	struct hwt_cxl_hdm hdm;

	return hwt_cxl_hdm__parse(val, &hdm, err, errlen) ? -1 : 0;
}

static int check_granual(const char *val, char *err, size_t errlen)
{
	return check_range(val, 0, 63, "a log2 unit size", err, errlen);
}

static int check_width(const char *val, char *err, size_t errlen)
{
	return check_range(val, 1, 64, "a counter width", err, errlen);
}

static int check_rank_memory(const char *val, char *err, size_t errlen)
{
	uint64_t v;

	if (hmu_opt_bytes(val, &v))
		return 0;
	snprintf(err, errlen, "'%s' is not " HMU_RANK_MEMORY_WHAT, val);
	return -1;
}

static int check_rank_counters(const char *val, char *err, size_t errlen)
{
	return check_range(val, 1, HMU_MAX_RANK_COUNTERS, "a count", err, errlen);
}

static int check_top(const char *val, char *err, size_t errlen)
{
	return check_range(val, 0, HMU_MAX_TOP, "a count", err, errlen);
}

const struct hwt_dev_opt hwt_cxl_hmu_options[] = {
	{ "hdm", "base=B,size=S,ways=W,granularity=G,pos=P[,dpa_base=D]",
	  "an HDM decoder: records then carry the HPA", .check = check_hdm },
	{ "granual", "N", "log2 of the unit size when the attr does not say (raw decode)",
	  .check = check_granual },
	{ "width", "N", "counter width in bits when the packet does not say (raw decode)",
	  .check = check_width },
	{ "pmu", "NAME", "the PMU name when the file does not say" },
	{ "top", "N", "how many hottest units report lists (default 10)", .check = check_top },
	{ "rank-memory", "BYTES", "memory for exact ranking counts, K/M/G suffixes (default 256M); "
	  "past it counts are approximate, with their bound", .check = check_rank_memory },
	{ "rank-counters", "N", "counters kept past --rank-memory (default 32768, at most what "
	  "it holds); more give a smaller bound and a slower report", .check = check_rank_counters },
	{ NULL },
};
