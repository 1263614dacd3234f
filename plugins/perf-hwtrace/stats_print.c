// SPDX-License-Identifier: GPL-2.0
/*
 * stats_print.c - `report --stats` output.
 *
 * Stock perf counts every record it processes, once, in file order: records
 * inflated from COMPRESSED records count as themselves and each COMPRESSED
 * record counts too; in pipe mode HEADER_ATTR, HEADER_FEATURE and
 * HEADER_TRACING_DATA count as "ATTR", "FEATURE" and "TRACING_DATA".  The
 * reader counts the same way, so only the names need perf's spelling: the
 * uapi name without "PERF_RECORD_" and, for perf's user header records,
 * without "HEADER_".
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "perf_data/perf_record_names.h"
#include <stdlib.h>

#include "stats_print.h"

const char *perf_event_name(uint32_t type)
{
	const char *n = perf_record_name(type);

	if (!strncmp(n, "PERF_RECORD_", 12))
		n += 12;
	if (!strncmp(n, "HEADER_", 7))
		n += 7;
	return n;
}

static void line(struct out *o, const char *name, uint64_t n, uint64_t total, bool pct)
{
	if (pct)
		out__printf(o, "%16s events: %10" PRIu64 "  (%4.1f%%)\n", name, n,
			    100.0 * (double)n / (double)total);
	else
		out__printf(o, "%16s events: %10" PRIu64 "\n", name, n);
}

void stats_print(struct out *o, const struct hwt_reader_stats *st, const struct hwt_bytes *b,
		 bool auxtrace_index)
{
	uint64_t total = st->nr_other;

	for (uint32_t i = 0; i < HWT_REC_MAX; i++)
		total += st->nr[i];
	out__printf(o, "\nAggregated stats:%s\n", auxtrace_index ?
		    " (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" :
		    "");
	line(o, "TOTAL", total, total, false);
	for (uint32_t i = 0; i < HWT_REC_MAX; i++)
		if (st->nr[i])
			line(o, perf_event_name(i), st->nr[i], total, true);
	if (st->nr_other)
		line(o, "OTHER", st->nr_other, total, true);
	if (!b)
		return;
	out__printf(o, "decoded bytes: %" PRIu64 "\n", b->decoded);
	out__printf(o, "skipped bytes: %" PRIu64 "\n", b->skipped);
	out__printf(o, "lost bytes: %" PRIu64 "\n", b->lost);
}

void stats_print_events(struct out *o, const struct hwt_reader *r, const uint64_t *samples,
			uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		const struct hwt_attr *a = hwt_reader__attr(r, i);

		if (!samples[i])
			continue;
		out__printf(o, "%s stats:\n", a->name ? a->name : "unknown");
		line(o, "SAMPLE", samples[i], 0, false);
	}
}

void stats_count_sample(uint64_t **samples, uint32_t *nsamples, const struct hwt_reader *r,
			const struct hwt_attr *a)
{
	uint32_t n = hwt_reader__nr_attrs(r), i;

	for (i = 0; i < n && hwt_reader__attr(r, i) != a; i++)
		;
	if (i == n)
		return;
	if (i >= *nsamples) {
		uint64_t *c = realloc(*samples, n * sizeof(*c));

		if (!c)
			return;
		memset(c + *nsamples, 0, (n - *nsamples) * sizeof(*c));
		*samples = c;
		*nsamples = n;
	}
	(*samples)[i]++;
}
