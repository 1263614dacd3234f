/* SPDX-License-Identifier: GPL-2.0 */
/*
 * field_fmt.h - show a record's fields by walking its type's field table.
 *
 * The one place that turns field values into text: the script line, the
 * JSON object, the CSV row, report's table cells and -D's templates all
 * come from field_fmt__value(), and whole records from field_fmt__record().
 *
 * Conventions (Documentation/perf-hwtrace.rst, "Output formats"): a field
 * has one base in every style.  HWT_FH_HEX fields (addresses, masks, ids,
 * raw words) are 0x-prefixed lower-case hex: bare in text and CSV, a JSON
 * string ("0xffffffffffffffff") in JSON, so that every JSON reader keeps all
 * 64 bits.  Other integers are decimal; in JSON a value above 2^53 (where
 * doubles stop being exact) is a string of its decimal digits.  Signed
 * fields (HWT_FF_SIGNED, S64) are shown signed: an unknown cpu is -1.
 */
#ifndef PERF_HWTRACE_FIELD_FMT_H
#define PERF_HWTRACE_FIELD_FMT_H

#include <stdbool.h>

#include "hwtrace/metrics.h"
#include "hwtrace/record.h"
#include "out.h"

enum field_style {
	FS_TEXT,	/* name=value, hex hint as 0x.., lists as a,b */
	FS_JSON,	/* JSON value */
	FS_CSV,		/* one CSV cell; lists joined with ';' */
};

/* Write the value of field @f of @data in @style (JSON null if absent). */
void field_fmt__value(struct out *o, const struct hwt_field *f, const void *data,
		      enum field_style style);

/* A metric's value (metrics.h): %.15g; NaN is null in JSON, "-" in text. */
void field_fmt__metric_value(struct out *o, const struct hwt_metrics *m, uint32_t i,
			     enum field_style style);

/* How field_fmt__record() shows a record's "time" field (ns) in text and CSV. */
enum time_style {
	TS_USECS,	/* perf script's secs.usecs (the default) */
	TS_NSECS,	/* secs.nsecs (--ns) */
	TS_RAW,		/* ns as an integer (--raw-time; JSON always) */
};

/**
 * struct time_base - what --reltime/--deltatime show a time relative to
 * @seen:	a time was shown
 * @first:	the first time shown (--reltime)
 * @prev:	the last time shown (--deltatime)
 */
struct time_base {
	bool seen;
	uint64_t first, prev;
};

/*
 * @t is shown next: the time it is shown relative to (the first time shown
 * with @rel, else the one before), and @b moves on past @t.
 */
uint64_t time_base__next(struct time_base *b, bool rel, uint64_t t);

/**
 * struct field_views - how a sink shows whole records, one view per type
 * @style:	text line, JSON object or CSV row
 * @only:	field names to show (-F), or NULL: all (text: all but NODUMP)
 * @nonly:	their number
 * @cols:	FS_CSV: the column names after "type" (field_fmt__csv_header())
 * @ncols:	their number
 * @time:	text and CSV: how the "time" field is shown
 * @reltime:	time since the first record shown (perf script --reltime)
 * @deltatime:	time since the previous record shown (--deltatime)
 * @cols_borrowed: @cols are another views' (field_views__init_like())
 * @times:	--reltime/--deltatime: the times shown so far
 *
 * Views are built on first use of each record type and reused: no name is
 * compared and no key escaped per record.  The same holds for the metrics
 * after a record's fields: one view of the last metric set seen.
 */
struct field_views {
	enum field_style style;
	const char *const *only;
	unsigned nonly;
	const char **cols;
	unsigned ncols;
	bool cols_borrowed;
	enum time_style time;
	bool reltime, deltatime;
	struct time_base times;
	struct field_view *views;
	unsigned nviews;
	struct field_view *last;
	struct metric_view *mview;
};

/* Empty views in @style showing @only (NULL: all fields). */
void field_views__init(struct field_views *v, enum field_style style,
		       const char *const *only, unsigned nonly);
void field_views__fini(struct field_views *v);

/*
 * Empty views showing what @from shows: its style, -F fields, time style,
 * --reltime/--deltatime and CSV columns (borrowed: @from must outlive @v,
 * and field_views__fini(@v) leaves them).  For another thread rendering as
 * @from does (fmt_pool.c); the views and the time state are @v's own.
 */
void field_views__init_like(struct field_views *v, const struct field_views *from);

/*
 * FS_CSV: write the one header row, "type" and the union of the (selected)
 * fields of @types in order of first appearance; rows then have these
 * columns, empty where a record's type lacks the field.  @types is
 * NULL-terminated.
 */
void field_fmt__csv_header(struct out *o, struct field_views *v,
			   const struct hwt_record_type *const *types);

/*
 * Whether @v shows a time for @rec (its type has a "time" column, present
 * in @rec), and which (*@t): what field_fmt__record() would pass through
 * --reltime/--deltatime, for a caller that keeps their state itself
 * (fmt_pool.c, whose threads render records out of order).
 */
bool field_views__time_of(struct field_views *v, const struct hwt_record *rec, uint64_t *t);

/*
 * The time the next record's time is shown relative to: the first one
 * shown (--reltime) or the one before (--deltatime).
 */
void field_views__set_time_base(struct field_views *v, uint64_t base);

/* A whole record as one text line, JSON object or CSV row. */
void field_fmt__record(struct out *o, struct field_views *v, const struct hwt_record *rec);

/* Render rec->type->dump_fmt (see record.h); returns false if the type has none. */
bool field_fmt__dump(struct out *o, const struct hwt_record *rec);

/* Field index by name, or -1. */
int field_fmt__find(const struct hwt_record_type *t, const char *name);

#endif
