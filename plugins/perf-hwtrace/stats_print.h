/* SPDX-License-Identifier: GPL-2.0 */
/* stats_print.h - `report --stats`: record counts as stock perf prints them, and bytes. */
#ifndef PERF_HWTRACE_STATS_PRINT_H
#define PERF_HWTRACE_STATS_PRINT_H

#include <stdbool.h>

#include "hwtrace/diag.h"
#include "hwtrace/perf_data.h"
#include "out.h"

/* perf_event__name(): "SAMPLE", "ATTR", "FEATURE", ... for a record type */
const char *perf_event_name(uint32_t type);

/**
 * stats_print - print per-record-type counts and the byte accounting
 * @o:		where to print
 * @st:		the reader's counts (hwt_reader__stats())
 * @b:		the byte accounting (diag->bytes), or NULL for none
 * @auxtrace_index: the file has the AUXTRACE feature (perf then adds a note
 *		to its "Aggregated stats:" title)
 *
 * The count lines are byte-identical to `perf report --stats` of perf 6.1
 * ("%16s events: %10u  (%4.1f%%)"), so a test can diff them.
 */
void stats_print(struct out *o, const struct hwt_reader_stats *st, const struct hwt_bytes *b,
		 bool auxtrace_index);

/**
 * stats_print_events - perf's per-event block after "Aggregated stats:"
 * @o:		where to print
 * @r:		the reader, for the events' names
 * @samples:	SAMPLE records per attr index
 * @n:		length of @samples (attrs past it had none)
 *
 * evlist__fprintf_nr_events() of perf 6.1 with --skip-empty (its default):
 * "<event> stats:" and its SAMPLE count, for each event that has samples.
 */
void stats_print_events(struct out *o, const struct hwt_reader *r, const uint64_t *samples,
			uint32_t n);

/**
 * stats_count_sample - count one SAMPLE of event @a in *@samples (per attr
 * index, grown to the reader's attrs), for stats_print_events(); out of
 * memory leaves the count out
 */
void stats_count_sample(uint64_t **samples, uint32_t *nsamples, const struct hwt_reader *r,
			const struct hwt_attr *a);

#endif
