/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inject_rounds.h - which of the input's FINISHED_ROUND records inject
 * passes through where, so that stock perf's ordered-events queue takes
 * every injected sample in time order.
 */
#ifndef HWTRACE_INJECT_ROUNDS_H
#define HWTRACE_INJECT_ROUNDS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * How long (in the input's time) a source that gives no sample holds the
 * rounds back: past it, its next samples may come too late and are counted.
 */
#define INJECT_ROUNDS_WAIT_NS	1000000000ull

/*
 * (stream, cpu) sources kept apart; the ones past it (a cpu comes from the
 * input) share one more, bounded by the earliest time any of them gave
 */
#define INJECT_ROUNDS_MAX_SOURCES	1024

struct inject_source;

/**
 * struct inject_rounds - perf's queue as the output so far leaves it
 * @max_time:	the latest time written (perf's max_timestamp)
 * @at_last:	@max_time when the last round was written: the next one
 *		flushes up to it
 * @flushed:	what perf has flushed up to: a sample earlier is late
 * @held:	rounds held back; they go at the end of the output
 * @late:	injected samples written earlier than @flushed
 * @nstreams:	size of @stream_seen
 * @stream_seen: per AUX stream: 1 = to wait for (it holds rounds until its
 *		first sample), 2 = gave a sample
 * @waiting:	streams at 1
 * @src:	one per (stream, cpu): the time of its last sample; the
 *		sources past INJECT_ROUNDS_MAX_SOURCES share the last entry
 * @nsrc:	how many (INJECT_ROUNDS_MAX_SOURCES + 1 at most)
 * @cap:	entries allocated
 * @hit:	the one the last sample went to
 */
struct inject_rounds {
	uint64_t max_time, at_last, flushed;
	uint64_t held, late;
	uint32_t nstreams, waiting;
	uint8_t *stream_seen;
	struct inject_source *src;
	uint32_t nsrc, cap, hit;
};

/**
 * inject_rounds__stream - an AUX stream that will give samples appeared
 * @r:		state, zeroed by the caller
 * @idx:	its index (struct hwt_stream.idx)
 *
 * Until its first sample its times are unknown: rounds are held.
 */
void inject_rounds__stream(struct inject_rounds *r, uint32_t idx);

/**
 * inject_rounds__event - a passed-through record with @time was written
 * @r:		state
 * @time:	its sample time (0 or ~0: none; perf does not queue it)
 */
void inject_rounds__event(struct inject_rounds *r, uint64_t time);

/**
 * inject_rounds__sample - an injected sample was written
 * @r:		state
 * @stream:	the AUX stream it was decoded from
 * @cpu:	its cpu
 * @time:	its time
 *
 * A source's (stream, cpu) sample times never go back: its next sample is
 * at least this one's time.  Returns whether the sample is late (perf has
 * already delivered records after it), and counts it then.
 */
bool inject_rounds__sample(struct inject_rounds *r, uint32_t stream, uint32_t cpu,
			   uint64_t time);

/**
 * inject_rounds__round - the input has a FINISHED_ROUND here
 * @r:		state
 *
 * Returns true when the round may be written here: perf then flushes up to
 * @r->at_last, and every source's next sample is at or after it (sources
 * silent for INJECT_ROUNDS_WAIT_NS of input time are not waited for).
 * Else the round is counted in @r->held, for the end of the output:
 * holding a round only lets perf sort more at once, it never makes a
 * passed-through record late.
 */
bool inject_rounds__round(struct inject_rounds *r);

/* inject_rounds__fini - free what @r holds */
void inject_rounds__fini(struct inject_rounds *r);

#endif
