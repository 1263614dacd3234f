/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decoder.h - payload decoders and the session that feeds them.
 *
 * A payload decoder is a table of handlers (struct hwt_decoder_ops), like a
 * libtraceevent plugin: it claims AUX streams by their AUXTRACE_INFO and PMU,
 * turns payload bytes into typed records and hands them to an emit callback.
 * It does no I/O and no printing.  The session (hwt_session__run*) reads the
 * container, builds each stream's context, pulls AUXTRACE payloads in pieces,
 * feeds them to the stream's decoder and passes events and records to a sink.
 */
#ifndef HWTRACE_DECODER_H
#define HWTRACE_DECODER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "diag.h"
#include "perf_data.h"
#include "metrics.h"
#include "record.h"

/**
 * struct hwt_opt - a decoder option as KEY=VALUE (from `--KEY VALUE`)
 */
struct hwt_opt {
	const char *key;
	const char *val;
};

/* The first priv word of every carriage: attr.type of the AUX event (design.rst 4). */
#define HWT_AUXTRACE_PRIV_PMU	0

struct hwt_device;

/**
 * struct hwt_aux_ctx - what a decoder knows about its stream
 * @auxtrace_type: AUXTRACE_INFO type
 * @priv:	AUXTRACE_INFO priv[] words (raw decode: built from options)
 * @npriv:	number of @priv words
 * @attr:	the event whose attr.type is the PMU type word, or NULL
 * @pmu_name:	that PMU's name from PMU_MAPPINGS or the event name, or NULL
 * @opts:	user options (e.g. "hdm" for CXL HMU), from the command line
 * @nopts:	number of @opts
 * @raw:	true when decoding a plain file outside perf.data
 * @no_summary:	nobody will read summary records: skip the aggregation behind
 *		them (script, -D); per-unit records are unchanged
 * @summary_only: data records are only counted, never read (report): a decoder
 *		may leave out per-unit work no summary needs (i915 OA counters)
 *		or count them with hwt_emit__count(); the session does not pass
 *		data records to the sink
 * @metrics_groups_only: a metrics computer wants only its groups (report)
 * @metrics:	a metrics computer reads every data record: even with
 *		@summary_only, a decoder keeps what the computer reads (counters)
 *		and may still leave out what only a sink would (e.g. CPU times)
 * @metrics_no_groups: nobody asks the metrics computer for its groups (the
 *		sink has no metrics callback: script, Python): it may skip
 *		the sums behind them
 * @metrics_only: hwt_session_opts.metrics_only: NULL, or the names of the
 *		only metrics the sink shows (@nmetrics_only of them; names that
 *		are no metric's are allowed).  A computer whose groups nobody
 *		reads may leave every other metric of a record NaN.
 * @nmetrics_only: number of @metrics_only
 * @cpus:	hwt_session_opts.cpus: asked by a decoder about to start
 *		threads of its own (CXL HMU's ranking); NULL: not known, the
 *		decoder starts them
 * @info_offset: file offset of the PERF_RECORD_AUXTRACE_INFO that @priv
 *		came from (0 for raw input): where a complaint about it points
 */
struct hwt_aux_ctx {
	uint32_t auxtrace_type;
	const uint64_t *priv;
	uint32_t npriv;
	const struct hwt_attr *attr;
	const char *pmu_name;
	const struct hwt_opt *opts;
	uint32_t nopts;
	bool raw;
	bool no_summary;
	bool summary_only;
	bool metrics_groups_only;
	bool metrics;
	bool metrics_no_groups;
	unsigned int (*cpus)(void);
	uint64_t info_offset;
	const char *const *metrics_only;
	uint32_t nmetrics_only;
};

/**
 * struct hwt_chunk - a piece of AUX payload handed to a decoder
 * @data:	the bytes
 * @size:	how many
 * @file_offset: file offset of data[0] (for error messages)
 * @last:	no more bytes of this AUXTRACE record (or raw file) follow: the
 *		decoder must consume all of @size
 * @first:	first piece of its AUXTRACE record (decoders that restart at
 *		each record, like CXL HMU, reset their state here)
 * @cpu:	AUXTRACE cpu (or -1 when unset)
 * @tid:	AUXTRACE tid (or -1 when unset)
 * @time:	time of the latest PERF_RECORD_AUX of this stream and cpu, or 0
 * @aux:	the AUXTRACE record, or NULL for raw input
 */
struct hwt_chunk {
	const uint8_t *data;
	size_t size;
	uint64_t file_offset;
	bool last;
	bool first;
	int32_t cpu;
	int32_t tid;
	uint64_t time;
	const struct hwt_auxtrace *aux;
};

/**
 * struct hwt_where - where and when the records being decoded come from
 * @cpu:	AUXTRACE cpu of the current piece (-1 when unset)
 * @tid:	AUXTRACE tid of the current piece (-1 when unset)
 * @time:	time of the latest piece that had one (0 before any)
 *
 * Sinks that stamp records with a cpu, tid and time (inject, Python hooks)
 * keep one and update it from their chunk callback.
 */
struct hwt_where {
	int32_t cpu;
	int32_t tid;
	uint64_t time;
};

static inline void hwt_where__update(struct hwt_where *w, const struct hwt_chunk *c)
{
	w->cpu = c->cpu;
	w->tid = c->tid;
	if (c->time)
		w->time = c->time;
}

/**
 * struct hwt_emit - where a decoder puts its records
 * @record:	called once per record; the record is valid only during the call
 * @ctx:	passed to @record
 * @diag:	where the decoder reports problems and counts payload bytes
 * @stream:	stream index copied into each record
 * @records:	the stream's count of data records (struct hwt_stream.records)
 * @count_only:	nothing reads the records (no sink callback, no metrics
 *		computer: script --null): hwt_emit__record() only counts the
 *		data records in *@records, without a call per record
 */
struct hwt_emit {
	void (*record)(void *ctx, const struct hwt_record *rec);
	void *ctx;
	struct hwt_diag *diag;
	uint32_t stream;
	uint64_t *records;
	bool count_only;
};

/* Emit one record of @type from @data decoded at @offset. */
static inline void hwt_emit__record(const struct hwt_emit *e, const struct hwt_record_type *type,
				    const void *data, uint64_t offset)
{
	struct hwt_record rec = { .type = type, .data = data, .stream = e->stream, .offset = offset };

	if (e->count_only) {
		*e->records += type->kind == HWT_RK_DATA;
		return;
	}
	e->record(e->ctx, &rec);
}

/*
 * @n data records were decoded and not emitted: only a summary_only stream
 * may do this (nobody reads its data records; report counts them).
 */
static inline void hwt_emit__count(const struct hwt_emit *e, uint64_t n)
{
	*e->records += n;
}

/**
 * struct hwt_decoder_ops - one payload decoder (its device, struct hwt_device,
 * holds its name, AUXTRACE_INFO type and record types)
 * @dump_title:	as in perf's ". ... %s data: size %zu bytes" ("CXL_HMU")
 * @dump_align:	the size in that line is rounded down to this many bytes (1: as is)
 * @match:	true if the stream is this decoder's (type, PMU name, priv)
 * @probe:	optional: true if a plain (non perf.data) file starting with
 *		@head is a self-describing input of this decoder (e.g. an IGT
 *		i915-perf-recorder file); report/script then decode it raw
 * @ctx_from_opts: raw decode: fill @priv (room for @max words) from options;
 *		return the number of words or -1 (reason reported via @diag)
 * @new:	create decoder state for a stream; NULL on error (reported)
 * @decode:	decode @chunk; return the bytes consumed (whole units only,
 *		unless chunk->last).  It counts every consumed byte in
 *		emit->diag->bytes as decoded or skipped and reports problems.
 * @finish:	end of input: emit summary records (type->summary) if any
 * @free:	free the state
 */
struct hwt_decoder_ops {
	const char *dump_title;
	uint32_t dump_align;
	bool (*match)(const struct hwt_aux_ctx *ctx);
	bool (*probe)(const uint8_t *head, size_t n);
	int (*ctx_from_opts)(const struct hwt_aux_ctx *ctx, uint64_t *priv, uint32_t max,
			     struct hwt_diag *diag);
	void *(*new)(const struct hwt_aux_ctx *ctx, struct hwt_diag *diag);
	size_t (*decode)(void *state, const struct hwt_chunk *chunk, const struct hwt_emit *emit);
	void (*finish)(void *state, const struct hwt_emit *emit);
	void (*free)(void *state);
};

/**
 * struct hwt_stream - one AUX stream (one AUXTRACE_INFO) as the session saw it
 * @idx:	index (0, 1, ...) in order of appearance
 * @ctx:	its context
 * @dev:	its device, or NULL when no device's decoder claimed it
 * @ops:	@dev's decoder (NULL with @dev)
 * @info_offset: file offset of its AUXTRACE_INFO
 * @chunks:	AUXTRACE records
 * @bytes:	AUXTRACE payload bytes
 * @aux_records: PERF_RECORD_AUX records of its event
 * @aux_bytes:	their aux_size total
 * @aux_flags:	[0] truncated, [1] overwrite, [2] partial, [3] collision
 * @aux_lost_bytes: aux_size of records flagged TRUNCATED
 * @records:	data records decoded (with summary_only, the only trace of them)
 */
struct hwt_stream {
	uint32_t idx;
	struct hwt_aux_ctx ctx;
	const struct hwt_device *dev;
	const struct hwt_decoder_ops *ops;
	uint64_t info_offset;
	uint64_t chunks;
	uint64_t bytes;
	uint64_t aux_records;
	uint64_t aux_bytes;
	uint64_t aux_flags[4];
	uint64_t aux_lost_bytes;
	uint64_t records;
};

/**
 * struct hwt_sink - what the session calls; every member may be NULL
 * @event:	each perf record, before its payload is decoded (for -D, --stats)
 * @stream:	a new AUX stream appeared (after its AUXTRACE_INFO event)
 * @chunk:	an AUXTRACE payload of @s is about to be decoded (first piece)
 * @record:	each decoded record
 * @end:	input done; streams hold their final counters
 * @metrics:	with hwt_session_opts.metrics: one group of a stream's metrics
 *		computer (per i915 context, ...), after the last record and
 *		before @end
 */
struct hwt_sink {
	void (*event)(void *ctx, const struct hwt_reader *r, const struct hwt_event *ev);
	void (*stream)(void *ctx, const struct hwt_stream *s);
	void (*chunk)(void *ctx, const struct hwt_stream *s, const struct hwt_chunk *c,
		      uint64_t total_size);
	void (*record)(void *ctx, const struct hwt_record *rec);
	void (*end)(void *ctx, const struct hwt_stream *const *streams, uint32_t nstreams,
		    const struct hwt_reader *r);
	void *ctx;
	void (*metrics)(void *ctx, const struct hwt_stream *s, const struct hwt_metrics *m);
};

/**
 * struct hwt_session_opts - how to run
 * @opts:	decoder options (KEY=VALUE)
 * @nopts:	number of @opts
 * @no_decode:	walk the container only (payloads counted skipped)
 * @no_summary:	decoders may skip work that only feeds summary records
 * @summary_only: data records are only counted (see struct hwt_aux_ctx)
 * @raw_type:	hwt_session__run_raw(): decoder name
 * @metrics:	run each stream's metrics computer (metrics.h), if its device
 *		has one: records carry their metrics, sink->metrics gets groups
 * @metrics_groups_only: with @metrics, only the groups are wanted (report):
 *		computers may skip each record's values
 * @stop:	optional: once *@stop is non-zero (set by another thread with an
 *		atomic store, or by a signal handler) the session stops before
 *		the next perf.data record or payload piece: the rest of the input
 *		is not read, decoders' finish (summary records) is skipped, and
 *		sink->end still sees the streams' counters so far.  A decoder
 *		finishes the piece it is decoding, so a sink may get records of
 *		that piece after setting it.
 * @cpus:	optional: how many CPUs the process may keep busy at once
 *		(its affinity mask, a cgroup's CPU limit); a decoder that would
 *		run threads of its own asks first, and runs none for one CPU.
 *		NULL: decoders start their threads whatever the CPUs.
 * @metrics_only: with @metrics: NULL (every metric), or the names of the only
 *		metrics the sink shows of each record (script -F), valid until
 *		the run returns: computers may compute no other (they are NaN)
 * @nmetrics_only: number of @metrics_only (0 with a list: no metric)
 */
struct hwt_session_opts {
	const struct hwt_opt *opts;
	uint32_t nopts;
	bool no_decode;
	bool no_summary;
	bool summary_only;
	const char *raw_type;
	const volatile int *stop;
	bool metrics;
	bool metrics_groups_only;
	unsigned int (*cpus)(void);
	const char *const *metrics_only;
	uint32_t nmetrics_only;
};

/**
 * hwt_session__run - read a perf.data (path or "-"), decode, feed @sink
 *
 * Returns 0 when the input was clean, 1 when errors were reported (output
 * before and after them was still produced), -1 when the file could not be
 * opened or is not a perf.data at all (reported).
 */
HWT_API int hwt_session__run(const char *path, const struct hwt_session_opts *o,
		     const struct hwt_sink *sink, struct hwt_diag *diag);

/**
 * hwt_session__run_raw - decode a plain payload file with decoder o->raw_type
 *
 * The stream's context comes from the options via ops->ctx_from_opts().
 * Same return values as hwt_session__run().
 */
HWT_API int hwt_session__run_raw(const char *path, const struct hwt_session_opts *o,
			 const struct hwt_sink *sink, struct hwt_diag *diag);

#endif
