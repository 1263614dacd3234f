// SPDX-License-Identifier: GPL-2.0
/*
 * inject_rounds.c - FINISHED_ROUND records that keep injected samples in
 * time order for stock perf.
 *
 * perf sorts timed records in rounds: at a FINISHED_ROUND it delivers
 * everything queued up to the latest time seen before the previous one,
 * and a record that comes in earlier than what it delivered last is "out
 * of order" (delivered late, counted in a warning).  The input's rounds
 * keep its own records in order.  Injected samples are written where their
 * AUXTRACE record was, but a decoder may date them before records of
 * earlier rounds: the i915 OA reports of one drain go back up to the drain
 * period from its PERF_RECORD_AUX, and a recorder may finish several
 * rounds in that time.  So a round is passed through only when no sample
 * still to come can be earlier than what it makes perf deliver; the others
 * are written at the end.  Leaving a round out never makes a passed-through
 * record late: perf then delivers less, later.
 */
#include <stdlib.h>
#include <string.h>

#include "inject_rounds.h"

struct inject_source {
	uint32_t stream, cpu;
	uint64_t last;		/* time of its last sample */
	uint64_t heard;		/* max_time when it gave it */
};

/* perf does not queue records without a time (ordered_events__queue) */
static bool timed(uint64_t t)
{
	return t && t != ~0ull;
}

void inject_rounds__stream(struct inject_rounds *r, uint32_t idx)
{
	uint8_t *p;

	if (idx >= r->nstreams) {
		p = realloc(r->stream_seen, idx + 1);
		if (!p)
			return;	/* not waited for: at worst samples are counted late */
		memset(p + r->nstreams, 0, idx + 1 - r->nstreams);
		r->stream_seen = p;
		r->nstreams = idx + 1;
	}
	if (!r->stream_seen[idx]) {
		r->stream_seen[idx] = 1;
		r->waiting++;
	}
}

void inject_rounds__event(struct inject_rounds *r, uint64_t time)
{
	if (timed(time) && time > r->max_time)
		r->max_time = time;
}

/*
 * A sample's source, found or added.  Its cpu comes from the input (the
 * AUXTRACE record's), so a crafted file may name a new one in every record:
 * past INJECT_ROUNDS_MAX_SOURCES the others share the last entry, whose
 * bound is then the earliest time any of them gave (see @shared), so that
 * the search stays short and the bound is never too late.
 */
static struct inject_source *source(struct inject_rounds *r, uint32_t stream, uint32_t cpu,
				    bool *shared)
{
	struct inject_source *s;

	*shared = false;
	/* samples come in runs of one AUX record: one stream and cpu */
	if (r->hit < r->nsrc && r->src[r->hit].stream == stream && r->src[r->hit].cpu == cpu)
		return &r->src[r->hit];
	for (uint32_t i = 0; i < r->nsrc && i < INJECT_ROUNDS_MAX_SOURCES; i++)
		if (r->src[i].stream == stream && r->src[i].cpu == cpu) {
			r->hit = i;
			return &r->src[i];
		}
	if (r->nsrc > INJECT_ROUNDS_MAX_SOURCES) {
		*shared = true;
		return &r->src[INJECT_ROUNDS_MAX_SOURCES];
	}
	if (r->nsrc == r->cap) {
		uint32_t cap = r->cap ? 2 * r->cap : 16;

		if (cap > INJECT_ROUNDS_MAX_SOURCES + 1)
			cap = INJECT_ROUNDS_MAX_SOURCES + 1;
		s = realloc(r->src, cap * sizeof(*s));
		if (!s)
			return NULL;
		r->src = s;
		r->cap = cap;
	}
	s = &r->src[r->nsrc];
	*s = (struct inject_source){ .stream = stream, .cpu = cpu, .last = UINT64_MAX };
	*shared = r->nsrc == INJECT_ROUNDS_MAX_SOURCES;
	r->hit = r->nsrc++;
	return s;
}

bool inject_rounds__sample(struct inject_rounds *r, uint32_t stream, uint32_t cpu,
			   uint64_t time)
{
	struct inject_source *s;
	bool late, shared;

	if (!timed(time))
		return false;
	late = time < r->flushed;
	r->late += late;
	inject_rounds__event(r, time);
	if (stream < r->nstreams && r->stream_seen[stream] == 1) {
		r->stream_seen[stream] = 2;
		r->waiting--;
	}
	s = source(r, stream, cpu, &shared);
	if (s) {
		/* a shared entry's sources' next samples are at least the earliest */
		if (!shared || time < s->last)
			s->last = time;
		s->heard = r->max_time;
	}
	return late;
}

bool inject_rounds__round(struct inject_rounds *r)
{
	uint64_t waited = r->max_time > INJECT_ROUNDS_WAIT_NS ?
			  r->max_time - INJECT_ROUNDS_WAIT_NS : 0;
	uint64_t next = UINT64_MAX;

	/* a stream that gave nothing yet may start anywhere */
	if (r->waiting)
		next = 0;
	for (uint32_t i = 0; i < r->nsrc; i++)
		if (r->src[i].heard >= waited && r->src[i].last < next)
			next = r->src[i].last;
	if (r->at_last > next && r->at_last > waited) {
		r->held++;
		return false;
	}
	r->flushed = r->at_last;
	r->at_last = r->max_time;
	return true;
}

void inject_rounds__fini(struct inject_rounds *r)
{
	free(r->stream_seen);
	free(r->src);
	r->stream_seen = NULL;
	r->src = NULL;
}
