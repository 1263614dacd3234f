/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sinks.h - the output ends of the flow: they print records and events,
 * never parse bytes, and never switch over record types.
 */
#ifndef PERF_HWTRACE_SINKS_H
#define PERF_HWTRACE_SINKS_H

#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/decoder.h"
#include "field_fmt.h"
#include "out.h"
#include "dump_machine.h"

/* script: one line / JSON object / CSV row per data record. */
struct script_sink {
	struct out *o;
	struct field_views views;
	const struct hwt_record_type *only_type;	/* show only this type (NULL: all) */
	/* CSV: the data record types of the streams, for the one header row */
	const struct hwt_record_type *types[64 + 1];
	unsigned ntypes;
	bool header_done;
	uint64_t records;
	/* records rendered in threads (fmt_pool.h), made at the first record */
	struct fmt_pool *pool;
	bool pool_tried;
};

/* @only/@nonly: -F field names (NULL: all). */
void script_sink__init(struct script_sink *s, struct out *o, enum field_style style,
		       const char *const *only, unsigned nonly, struct hwt_sink *sink);
void script_sink__fini(struct script_sink *s);

/* report -D: perf-style record dump with the decoded payload under each AUXTRACE. */
struct dump_sink {
	struct out *o;
	const char *path;
	uint64_t sample_type;	/* first attr's, for the "<cpu> <time>" prefix */
	bool sample_id_all;
	bool have_attr;
	bool file_order;	/* --file-order: no time sorting */
	struct hwt_bytes *bytes;
	/* kernel records waiting for their time, as perf's ordered_events */
	struct dump_queued *q;
	size_t nq, capq;
	uint64_t next_flush, max_ts;
	bool quiet;		/* -q: no heading */
	bool started;		/* the heading is out */
	struct dump_machine machine;	/* threads and maps, for the lines under a SAMPLE */
	uint64_t *samples;	/* SAMPLE records per attr index, for perf's stats */
	uint32_t nsamples;
	const struct hwt_reader *r;
	struct dump_id { uint64_t id, last; } *ids;	/* read values: the last per id */
	size_t nids;
};

void dump_sink__init(struct dump_sink *s, struct out *o, const char *path,
		     struct hwt_bytes *bytes, struct hwt_sink *sink);

/* report: summary per AUX stream, summary records as tables. */
struct report_sink {
	struct out *o;
	bool stats;		/* --stats: per-record-type counts, and only them */
	int header;		/* 1: --header, 2: --header-only */
	const char *path;	/* the input, for the header's "captured on" */
	volatile int stop;	/* --header-only of a file: the records are not read */
	bool header_done;
	uint64_t feats_shown[4];	/* pipe mode: features printed so far */
	uint64_t *samples;	/* --stats: SAMPLE records per attr index */
	uint32_t nsamples;
	struct hwt_bytes *bytes;
	const struct hwt_record_type *table_type;
	uint32_t table_stream;
	/* summary records are kept until end, to print them under their stream */
	struct report_row *rows;
	uint32_t nrows, cap;
};

void report_sink__init(struct report_sink *s, struct out *o, struct hwt_bytes *bytes,
		       struct hwt_sink *sink);
void report_sink__fini(struct report_sink *s);

/* -D output of one record; used by dump_sink and by decode -D. */
/* report --metrics: the metrics computers' groups (sink_metrics.c) */
struct metrics_sink {
	struct out *o;
	enum field_style style;		/* FS_TEXT table or FS_JSON lines */
	uint64_t groups;
};

void metrics_sink__init(struct metrics_sink *s, struct out *o, enum field_style style,
			struct hwt_sink *sink);

void dump_record(struct out *o, const struct hwt_record *rec);

#endif
