// SPDX-License-Identifier: GPL-2.0
/* options.c - the decoder options of i915 OA and how each value is checked. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/device.h"
#include "i915_oa_internal.h"
#include "i915_perf_lib.h"

/* ctx_from_opts() reads both with strtoull(); a sign would wrap there */
static int parse_u64(const char *val, uint64_t max, uint64_t *v)
{
	char *end;

	if (!*val || *val == '-' || *val == '+' || *val == ' ')
		return -1;
	errno = 0;
	*v = strtoull(val, &end, 0);
	return errno || *end || *v > max ? -1 : 0;
}

static int check_format(const char *val, char *err, size_t errlen)
{
	size_t n;

	if (hwt_i915_oa_format__by_name(val))
		return 0;
	n = (size_t)snprintf(err, errlen, "unknown OA format '%s'; valid:", val);
	for (const struct hwt_i915_oa_format *f = hwt_i915_oa_formats; f->id && n < errlen; f++) {
		/* a format appears once per generation range: name it once */
		if (f != hwt_i915_oa_formats && !strcmp(f[-1].name, f->name))
			continue;
		n += (size_t)snprintf(err + n, errlen - n, " %s", f->name);
	}
	return -1;
}

static int check_gen(const char *val, char *err, size_t errlen)
{
	if (hwt_i915_oa__parse_gen(val))
		return 0;
	snprintf(err, errlen, "'%s' is not a graphics version (e.g. 9, 12, 12.5)", val);
	return -1;
}

static int check_ts_freq(const char *val, char *err, size_t errlen)
{
	uint64_t v;

	if (!parse_u64(val, UINT64_MAX, &v) && v)
		return 0;
	snprintf(err, errlen, "'%s' is not a frequency in Hz (1 or more)", val);
	return -1;
}

static int check_devid(const char *val, char *err, size_t errlen)
{
	uint64_t v;

	if (!parse_u64(val, 0xffff, &v))
		return 0;
	snprintf(err, errlen, "'%s' is not a PCI device id (0..0xffff)", val);
	return -1;
}

static int check_metric_set(const char *val, char *err, size_t errlen)
{
	if (*val && hwt_i915_perf__set_known(val))
		return 0;
	snprintf(err, errlen, "'%s' is no metric set of any platform libi915_perf knows "
		 "(IGT symbol names, e.g. RenderBasic, ComputeBasic)", val);
	return -1;
}

const struct hwt_dev_opt hwt_i915_oa_options[] = {
	{ "oa-format", "NAME", "OA report format (raw decode), e.g. A32u40_A4u32_B8_C8",
	  .check = check_format },
	{ "gen", "VER", "graphics version (raw decode), e.g. 9, 12, 12.5", .check = check_gen },
	{ "ts-freq", "HZ", "command-streamer timestamp frequency", .check = check_ts_freq },
	{ "devid", "ID", "PCI device id", .check = check_devid },
	{ "metric-set", "NAME", "metric set of --metrics (IGT symbol name), e.g. RenderBasic",
	  .check = check_metric_set },
	{ NULL },
};
