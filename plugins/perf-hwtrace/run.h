/* SPDX-License-Identifier: GPL-2.0 */
/* run.h - the one driver behind report, script and decode. */
#ifndef PERF_HWTRACE_RUN_H
#define PERF_HWTRACE_RUN_H

#include "cli.h"
#include "field_fmt.h"
#include "record_filter.h"

enum run_mode {
	RUN_REPORT,	/* summary per stream */
	RUN_DUMP,	/* perf-style -D dump */
	RUN_SCRIPT,	/* one line / object / row per record */
	RUN_COUNT,	/* decode and count records, print only the totals */
};

/**
 * struct run_args - what to run
 * @mode:	output kind
 * @style:	RUN_SCRIPT: text, JSON or CSV
 * @fields:	RUN_SCRIPT: -F list (NULL: all)
 * @nfields:	its length
 * @fields_type: RUN_SCRIPT: show only records of this type (-F TYPE:fields), or NULL
 * @stats:	RUN_REPORT: only perf report --stats style counts
 * @file_order: RUN_DUMP: no time sorting
 * @header:	RUN_REPORT: 1 perf's header block first, 2 only that
 * @raw_type:	decode a plain payload file with this decoder
 * @filter:	RUN_SCRIPT, RUN_REPORT: --time, -C, --pid, --tid, --type
 * @time:	RUN_SCRIPT: how "time" fields are shown (--ns, --raw-time)
 * @reltime:	RUN_SCRIPT: times since the first record shown
 * @deltatime:	RUN_SCRIPT: times since the previous record shown
 * @metrics:	compute the devices' metrics (--metrics): RUN_SCRIPT adds them
 *		to each record, RUN_REPORT prints only them, per group
 */
struct run_args {
	enum run_mode mode;
	enum field_style style;
	const char *const *fields;
	unsigned nfields;
	const struct hwt_record_type *fields_type;
	bool stats;
	int header;
	bool file_order;
	const char *raw_type;
	struct record_filter filter;
	enum time_style time;
	bool reltime, deltatime;
	bool metrics;
};

/*
 * A first pass over @c->input for percent --time ranges of @f: resolves
 * them against the first and last data record times.  Returns < 0 when the
 * input cannot be read.
 */
int run__find_span(struct cli *c, struct record_filter *f, const struct hwt_session_opts *so,
		   const char *raw_type);

/* Run and return the exit status (0, 1 input errors). */
int run(struct cli *c, struct run_args *a);

#endif
