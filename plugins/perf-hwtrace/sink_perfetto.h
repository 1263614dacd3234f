/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sink_perfetto.h - the record stream as a Perfetto protobuf trace
 * (convert --to-perfetto): counter tracks from perfetto_map.c's table, CPU
 * samples and COMM/EXIT as instants on thread tracks.
 *
 * Streaming: what it keeps is per track, per thread, per stream and per
 * interned name, never per record.  An optional first pass over the input
 * (perfetto_sink__first_pass) reads the summary records some tracks need
 * before the first record: a tick frequency that only the payload says,
 * the hottest units.
 */
#ifndef PERF_HWTRACE_SINK_PERFETTO_H
#define PERF_HWTRACE_SINK_PERFETTO_H

#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/decoder.h"
#include "out.h"

struct perfetto_sink;

/* @o: where the trace goes; @raw: also the raw counter tracks (PF_VEC). */
struct perfetto_sink *perfetto_sink__new(struct out *o, bool raw);
void perfetto_sink__delete(struct perfetto_sink *s);

/*
 * The first pass: fills @sink; it sets *@stop once the input's streams are
 * known to need nothing from it (then the rest is not read).
 */
void perfetto_sink__first_pass(struct perfetto_sink *s, struct hwt_sink *sink,
			       volatile int *stop);
/* The conversion pass. */
void perfetto_sink__init(struct perfetto_sink *s, struct hwt_sink *sink);

/* Problems found (records that could not be placed on the timeline), 0 if none. */
uint64_t perfetto_sink__dropped(const struct perfetto_sink *s);
/* Values of records on the timeline left out (said once on stderr), 0 if none. */
uint64_t perfetto_sink__values_left_out(const struct perfetto_sink *s);
/* Packets and tracks written. */
void perfetto_sink__counts(const struct perfetto_sink *s, uint64_t *packets, uint64_t *tracks);

#endif
