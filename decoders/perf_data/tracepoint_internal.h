/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracepoint_internal.h - records as PERF_RECORD_SAMPLEs of their
 * tracepoints, for inject (design.rst 5); not installed, libhwtrace.so does
 * not export these (the public part is hwtrace/tracepoint.h).
 */
#ifndef HWTRACE_TRACEPOINT_INTERNAL_H
#define HWTRACE_TRACEPOINT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hwtrace/perf_data.h"
#include "hwtrace/record.h"
#include "hwtrace/tracepoint.h"

/* ---- tracepoint samples (inject, design.rst 5) ---------------------------- */

#define HWT_TP_MAX_EVENTS	64

/* sample_type of the tracepoint attrs: where each sample word goes */
#define HWT_TP_SAMPLE_TYPE	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
				 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW)

/**
 * struct hwt_tp_events - one tracepoint event per event record type
 * @n:		how many
 * @types:	the record types, in device-table order
 * @ids:	the sample id of each
 */
struct hwt_tp_events {
	uint32_t n;
	const struct hwt_record_type *types[HWT_TP_MAX_EVENTS];
	uint64_t ids[HWT_TP_MAX_EVENTS];
};

/**
 * hwt_tp_events__declare - give every event record type a sample id and an attr
 * @ev:		filled in
 * @w:		the output; one PERF_TYPE_TRACEPOINT attr per type is added
 *		("hwtrace:<type>", config = its tracepoint ID)
 * @r:		the input whose attrs keep their ids, or NULL
 * @sample_id_all: the attrs' sample_id_all (perf wants every attr alike)
 * @taken:	an id the output already gives another event (0: none)
 *
 * Ids are the ones after the input's largest, skipping 0, @taken and any the
 * input uses.  Returns 0, or -1 when an attr could not be added (errno set).
 */
int hwt_tp_events__declare(struct hwt_tp_events *ev, struct hwt_writer *w,
			   const struct hwt_reader *r, bool sample_id_all, uint64_t taken);

/* The sample id of @t's event, 0 when @t is not an event type. */
static inline uint64_t hwt_tp_events__id(const struct hwt_tp_events *ev,
					 const struct hwt_record_type *t)
{
	for (uint32_t i = 0; i < ev->n; i++)
		if (ev->types[i] == t)
			return ev->ids[i];
	return 0;
}

/**
 * hwt_tp__sample - a record as a PERF_RECORD_SAMPLE of its tracepoint
 * @rec:	the record
 * @id:		its event's sample id
 * @time:	sample time unless the record has a "time" field
 * @cpu:	sample cpu unless the record has a "cpu" field
 * @tid:	pid/tid unless the record has a "pid" field
 * @buf:	output: header, id, pid/tid, time, cpu, period 1, raw (HWT_TP_SAMPLE_TYPE)
 * @size:	room in @buf
 *
 * Returns the record's size, or 0 when it does not fit @size or a perf
 * record (64 KiB).
 */
size_t hwt_tp__sample(const struct hwt_record *rec, uint64_t id, uint64_t time, uint32_t cpu,
		      int32_t tid, uint8_t *buf, size_t size);

/* where hwt_tp__sample() puts the time and the cpu: after header, id, pid/tid */
#define HWT_TP_SAMPLE_TIME_OFF	24
#define HWT_TP_SAMPLE_CPU_OFF	32

/* the time and cpu of a sample hwt_tp__sample() built in @buf */
static inline uint64_t hwt_tp__sample_time(const uint8_t *buf)
{
	uint64_t v;

	memcpy(&v, buf + HWT_TP_SAMPLE_TIME_OFF, sizeof(v));
	return v;
}

static inline uint32_t hwt_tp__sample_cpu(const uint8_t *buf)
{
	uint32_t v;

	memcpy(&v, buf + HWT_TP_SAMPLE_CPU_OFF, sizeof(v));
	return v;
}

#endif
