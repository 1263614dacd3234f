/* SPDX-License-Identifier: GPL-2.0 */
/* stats_print.h - `report --stats`: record counts as stock perf prints them, and bytes. */
#ifndef PERF_HWTRACE_STATS_PRINT_H
#define PERF_HWTRACE_STATS_PRINT_H

#include <stdbool.h>

#include "hwtrace/diag.h"
#include "hwtrace/perf_data.h"
#include "out.h"

/**
 * stats_print - print per-record-type counts and the byte accounting
 * @o:		where to print
 * @st:		the reader's counts (hwt_reader__stats())
 * @b:		the byte accounting (diag->bytes)
 * @auxtrace_index: the file has the AUXTRACE feature (perf then adds a note
 *		to its "Aggregated stats:" title)
 *
 * The count lines are byte-identical to `perf report --stats` of perf 6.1
 * ("%16s events: %10u  (%4.1f%%)"), so a test can diff them.
 */
void stats_print(struct out *o, const struct hwt_reader_stats *st, const struct hwt_bytes *b,
		 bool auxtrace_index);

#endif
