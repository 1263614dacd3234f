/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfetto_map.h - which record fields become which Perfetto counter tracks.
 *
 * One entry per record type (perfetto_map.c): the sink looks a record's type
 * up here and never switches over types, so a new record type is one entry.
 * Track names are templates: "{field}" is that field of the record shown as
 * script shows it (hex, enum name, string), nothing when it is an optional
 * field the record lacks; "{field:text}" the same after "text" (a record
 * with it only); "{}" the key of a KV field or the index of a vector element.
 */
#ifndef PERF_HWTRACE_PERFETTO_MAP_H
#define PERF_HWTRACE_PERFETTO_MAP_H

#include <stdbool.h>

/* CounterDescriptor.Unit */
enum pf_unit {
	PF_UNIT_NONE = 0,
	PF_UNIT_NS = 1,
	PF_UNIT_COUNT = 2,
	PF_UNIT_BYTES = 3,
};

enum pf_how {
	PF_END = 0,	/* ends the values */
	PF_FIELD,	/* the field's value */
	PF_TICKS_NS,	/* a count of ticks of the stream's frequency, as ns */
	PF_PER_TICKS,	/* field per field2 ticks, in Hz: field x freq / field2 (fraction) */
	PF_KV,		/* one track per key of a KV field */
	PF_VEC,		/* one track per element of a vector field */
	PF_EPOCH_SUM,	/* sum of the field over the records of one time */
	PF_EPOCH_N,	/* how many records one time had */
	PF_SELECTED,	/* the field, for the keys the first pass selected only */
	PF_METRICS,	/* with --metrics: one track per metric the record carries */
};

/**
 * struct pf_value - one counter track (or a family of them) of a record type
 * @how:	how the value is made
 * @field:	the record field it comes from
 * @field2:	PF_PER_TICKS: the tick count it is divided by
 * @name:	track name template
 * @unit:	CounterDescriptor unit
 * @raw:	only with --raw-counters
 * @fallback:	only for records without metrics (with --metrics the metric
 *		set's own tracks replace it: GpuTime is then the set's)
 */
struct pf_value {
	enum pf_how how;
	const char *field;
	const char *field2;
	const char *name;
	enum pf_unit unit;
	bool raw;
	bool fallback;
};

#define PF_MAX_VALUES 8

/**
 * struct pf_map - the tracks of one record type
 * @type:	record type name
 * @group:	name of the parent track its counter tracks sit under
 * @cpu_time_field: optional: a field that, when present, is the record's
 *		time in ns on the CPUs' clock (i915 OA reports from IGT
 *		correlation points or perf.data AUX times); else ...
 * @time_field:	the record's time: ns on the trace clock ...
 * @time_wrap_bits: ... or, when non-zero, ticks of the stream's frequency
 *		wrapping at this width: the record's time is the chunk time of
 *		the stream's first record (else its ticks as ns) plus the ticks
 *		since, as ns
 * @freq_type:	the summary record type that says the tick frequency when the
 *		stream's device does not (hwt_device.ts_freq; first pass) ...
 * @freq_field:	... and its field
 * @freq_early_type: a record the decoder emits before the data that may say
 *		it too (an IGT file's DEVICE_INFO): read in the one pass a pipe
 *		gets, where no first pass can read the summary ...
 * @freq_early_field: ... and its field
 * @freq_option: the decoder option that gives it (named when it is missing)
 * @select_type: PF_SELECTED: the summary record type whose records pick the keys
 * @select_field: ... and their key field
 * @key_field:	the record's own key field, compared with those
 * @values:	its tracks, ending with PF_END
 */
struct pf_map {
	const char *type;
	const char *group;
	const char *cpu_time_field;
	const char *time_field;
	unsigned time_wrap_bits;
	const char *freq_type, *freq_field;
	const char *freq_early_type, *freq_early_field;
	const char *freq_option;
	const char *select_type, *select_field;
	const char *key_field;
	struct pf_value values[PF_MAX_VALUES];
};

extern const struct pf_map pf_maps[];
extern const unsigned pf_nmaps;

#endif
