/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_filter.h - perf's sample filters (--time, -C, --pid, --tid) and a
 * record-type filter (--type), applied to the record stream of any device.
 *
 * A record's cpu, time and pid are those stock perf sees for it once
 * injected: the AUXTRACE's cpu and tid and the latest sample time, unless
 * the record type has its own "cpu", "time" or "pid" field
 * (hwt_tp__sample_fields()).  Filtering a decoded file and filtering its
 * injected copy with stock perf select the same records.
 */
#ifndef PERF_HWTRACE_RECORD_FILTER_H
#define PERF_HWTRACE_RECORD_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/decoder.h"

#include "parse_options.h"

#define RF_MAX_LIST 64
#define RF_MAX_RANGES 16
#define RF_MAX_CPU 4096

/* One --time range: inclusive bounds in ns, or in percent of the input's span. */
struct rf_range {
	uint64_t start, end;		/* end 0: open */
	double pstart, pend;		/* percent forms, resolved once the span is known */
	bool percent;
};

/**
 * struct record_filter - what a verb's filter options asked for
 * @cmd:	the verb, for messages (set before parsing)
 * @ranges:	--time ranges (none: all times)
 * @percent:	some range is in percent: the input's first and last record
 *		times are needed (record_filter__span())
 * @cpus:	-C bitmap, when @have_cpus
 * @pids:	--pid list
 * @tids:	--tid list
 * @types:	--type record types
 * @at:		cpu, tid and time of the payload being decoded
 * @inner:	the sink the selected records go to
 * @selected:	data records passed on
 * @counts:	per record type of them (@nseen types)
 */
struct record_filter {
	const char *cmd;
	struct rf_range ranges[RF_MAX_RANGES];
	unsigned nranges;
	bool percent;
	bool have_cpus;
	uint64_t cpus[RF_MAX_CPU / 64];
	int32_t pids[RF_MAX_LIST], tids[RF_MAX_LIST];
	unsigned npids, ntids;
	const struct hwt_record_type *types[RF_MAX_LIST];
	unsigned ntypes;
	struct hwt_where at;
	struct hwt_sink inner;
	uint64_t selected;
	struct { const struct hwt_record_type *type; uint64_t n; } counts[RF_MAX_LIST];
	unsigned nseen;
};

/* The option callbacks; value is the struct record_filter (its @cmd set). */
int record_filter__time_opt(const struct parse_opt *opt, const char *arg, int unset);
int record_filter__cpu_opt(const struct parse_opt *opt, const char *arg, int unset);
int record_filter__pid_opt(const struct parse_opt *opt, const char *arg, int unset);
int record_filter__tid_opt(const struct parse_opt *opt, const char *arg, int unset);
int record_filter__type_opt(const struct parse_opt *opt, const char *arg, int unset);

/* The table entries of the options above, for a verb's option table. */
#define RECORD_FILTER_OPTS(rf)								\
	OPT_CALLBACK(0, "time", rf, "START,END",					\
		     "only records in these times: secs[.nsecs],secs[.nsecs] | a%/n | "	\
		     "a%-b% (several: space or comma separated, as perf)",		\
		     record_filter__time_opt),						\
	OPT_CALLBACK('C', "cpu", rf, "LIST", "only records of these cpus: 0,2-3",	\
		     record_filter__cpu_opt),						\
	OPT_CALLBACK(0, "pid", rf, "LIST", "only records of these process ids",	\
		     record_filter__pid_opt),						\
	OPT_CALLBACK(0, "tid", rf, "LIST", "only records of these thread ids",	\
		     record_filter__tid_opt),						\
	OPT_CALLBACK(0, "type", rf, "TYPES", "only records of these record types "	\
		     "(cxl_hmu_unit,...)", record_filter__type_opt)

/* Whether any filter was given. */
bool record_filter__active(const struct record_filter *f);

/**
 * record_filter__span - resolve percent ranges against the input's span
 * @f:		the filter
 * @first:	time of the input's first data record
 * @last:	time of its last
 */
void record_filter__span(struct record_filter *f, uint64_t first, uint64_t last);

/**
 * record_filter__sample - the cpu, time and pid stock perf gives @rec
 * @at:		where its payload came from
 * @rec:	the record
 */
void record_filter__sample(const struct hwt_where *at, const struct hwt_record *rec,
			   uint64_t *time, int32_t *cpu, int32_t *pid);

/* Update @at from a perf record (its sample time, if any). */
void record_filter__event(struct hwt_where *at, const struct hwt_event *ev);

/**
 * record_filter__wrap - put @f in front of @sink: data records that fail
 * the filters stop here; everything else passes through unchanged
 */
void record_filter__wrap(struct record_filter *f, struct hwt_sink *sink);

#endif
