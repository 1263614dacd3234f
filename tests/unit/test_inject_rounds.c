// SPDX-License-Identifier: GPL-2.0
/*
 * test_inject_rounds.c - when inject passes a FINISHED_ROUND through
 * (plugins/perf-hwtrace/inject_rounds.c).
 *
 * perf 6.1's ordered-events queue, as the cases below work it out by hand:
 * a FINISHED_ROUND delivers everything up to the latest time queued before
 * the previous FINISHED_ROUND; a record earlier than the last delivered one
 * is out of order.  A round may go through only when no sample still to
 * come from a source (stream, cpu) can be earlier than what it delivers.
 * Stock perf checks the whole on real files in tests/bats/inject.bats.
 */
#include "check.h"
#include "../../plugins/perf-hwtrace/inject_rounds.h"

#define MS	1000000ull
#define S	1000000000ull

/* No AUX stream: every round goes through, and each delivers up to the one before. */
static void test_no_stream(void)
{
	struct inject_rounds r = { 0 };

	inject_rounds__event(&r, 10 * MS);
	CHECK(inject_rounds__round(&r));	/* delivers up to 0: nothing */
	inject_rounds__event(&r, 20 * MS);
	CHECK(inject_rounds__round(&r));	/* up to 10 ms */
	CHECK_EQ(r.flushed, 10 * MS);
	inject_rounds__event(&r, 30 * MS);
	CHECK(inject_rounds__round(&r));
	CHECK_EQ(r.flushed, 20 * MS);
	CHECK_EQ(r.held, 0);
	/* untimed records (0, ~0) are not queued by perf: they move nothing */
	inject_rounds__event(&r, 0);
	inject_rounds__event(&r, ~0ull);
	CHECK_EQ(r.max_time, 30 * MS);
	inject_rounds__fini(&r);
}

/* A stream holds rounds until its first sample, then as far as its samples go. */
static void test_stream_holds(void)
{
	struct inject_rounds r = { 0 };

	inject_rounds__stream(&r, 0);
	inject_rounds__event(&r, 10 * MS);
	CHECK(inject_rounds__round(&r));	/* would deliver nothing */
	inject_rounds__event(&r, 20 * MS);
	CHECK(!inject_rounds__round(&r));	/* would deliver up to 10 ms */
	inject_rounds__event(&r, 30 * MS);
	CHECK(!inject_rounds__round(&r));
	CHECK_EQ(r.held, 2);
	/* the drain dates its reports back to 5 ms: none is late */
	CHECK(!inject_rounds__sample(&r, 0, 0, 5 * MS));
	CHECK(!inject_rounds__sample(&r, 0, 0, 25 * MS));
	/* up to 10 ms would pass its next sample (>= 25 ms)?  No: it goes */
	CHECK(inject_rounds__round(&r));
	CHECK_EQ(r.flushed, 10 * MS);
	CHECK_EQ(r.at_last, 30 * MS);
	/* the next delivers up to 30 ms, past the source's 25 ms: held */
	inject_rounds__event(&r, 40 * MS);
	CHECK(!inject_rounds__round(&r));
	CHECK(!inject_rounds__sample(&r, 0, 0, 35 * MS));
	CHECK(inject_rounds__round(&r));
	CHECK_EQ(r.flushed, 30 * MS);
	CHECK_EQ(r.held, 3);
	CHECK_EQ(r.late, 0);
	inject_rounds__fini(&r);
}

/* Each (stream, cpu) is its own source: the slowest one holds. */
static void test_sources(void)
{
	struct inject_rounds r = { 0 };

	inject_rounds__stream(&r, 0);
	inject_rounds__stream(&r, 2);	/* stream 1 has no decoder: not waited for */
	inject_rounds__sample(&r, 0, 0, 100 * MS);
	CHECK_EQ(r.waiting, 1);
	CHECK(inject_rounds__round(&r));
	CHECK_EQ(r.at_last, 100 * MS);
	inject_rounds__event(&r, 200 * MS);
	CHECK(!inject_rounds__round(&r));	/* stream 2 gave nothing yet */
	inject_rounds__sample(&r, 2, 1, 150 * MS);
	inject_rounds__sample(&r, 0, 3, 300 * MS);
	CHECK_EQ(r.waiting, 0);
	/* up to 100 ms: stream 0 cpu 0 at 100, stream 2 cpu 1 at 150, cpu 3 at 300 */
	CHECK(inject_rounds__round(&r));
	CHECK_EQ(r.at_last, 300 * MS);
	/* up to 300 ms would pass stream 0 cpu 0 (100) and stream 2 (150) */
	inject_rounds__sample(&r, 2, 1, 400 * MS);
	CHECK(!inject_rounds__round(&r));
	inject_rounds__sample(&r, 0, 0, 299 * MS);
	CHECK(!inject_rounds__round(&r));	/* 299 < 300 */
	inject_rounds__sample(&r, 0, 0, 300 * MS);
	CHECK(inject_rounds__round(&r));	/* a sample at 300 is not late */
	CHECK_EQ(r.nsrc, 3);
	inject_rounds__fini(&r);
}

/*
 * A round waits at most INJECT_ROUNDS_WAIT_NS of input time: then it goes,
 * and a sample dated before what it delivered is counted late.
 */
static void test_wait_bound(void)
{
	struct inject_rounds r = { 0 };

	inject_rounds__stream(&r, 0);
	inject_rounds__event(&r, 1500 * MS);
	inject_rounds__sample(&r, 0, 0, 1 * S);
	CHECK(inject_rounds__round(&r));	/* delivers nothing */
	CHECK_EQ(r.at_last, 1500 * MS);
	inject_rounds__event(&r, 2 * S);
	CHECK(!inject_rounds__round(&r));	/* up to 1.5 s passes the source's 1 s */
	inject_rounds__event(&r, 2500 * MS - 1);
	CHECK(!inject_rounds__round(&r));	/* 1.5 s is still within 1 s of the latest */
	inject_rounds__event(&r, 2500 * MS);
	CHECK(inject_rounds__round(&r));	/* no longer */
	CHECK_EQ(r.flushed, 1500 * MS);
	CHECK_EQ(r.at_last, 2500 * MS);
	CHECK_EQ(r.held, 2);
	/* its next sample, dated before 1.5 s, comes too late */
	CHECK(inject_rounds__sample(&r, 0, 0, 1500 * MS - 1));
	CHECK(!inject_rounds__sample(&r, 0, 0, 1500 * MS));
	CHECK_EQ(r.late, 1);
	/* a sample without a time is never late */
	CHECK(!inject_rounds__sample(&r, 0, 0, 0));
	CHECK_EQ(r.late, 1);
	inject_rounds__fini(&r);
}

/* A source silent for the wait is not waited for; one that speaks is. */
static void test_silent_source(void)
{
	struct inject_rounds r = { 0 };

	inject_rounds__sample(&r, 0, 0, 100 * MS);	/* A */
	inject_rounds__event(&r, 1000 * MS);
	inject_rounds__sample(&r, 0, 1, 1000 * MS);	/* B */
	CHECK(inject_rounds__round(&r));
	CHECK_EQ(r.at_last, 1000 * MS);
	/* up to 1 s passes A (100 ms), heard less than 1 s before 1.05 s: held */
	inject_rounds__event(&r, 1050 * MS);
	inject_rounds__sample(&r, 0, 1, 1050 * MS);
	CHECK(!inject_rounds__round(&r));
	/* at 1.5 s A was last heard at 100 ms, over 1 s ago: only B counts */
	inject_rounds__sample(&r, 0, 1, 1500 * MS);
	CHECK(inject_rounds__round(&r));
	CHECK_EQ(r.flushed, 1000 * MS);
	inject_rounds__fini(&r);
}

/*
 * A cpu comes from the input: past INJECT_ROUNDS_MAX_SOURCES sources the
 * others share one, held back to the earliest time any of them gave (the
 * time of the last one would let a round deliver past another's).
 */
static void test_many_cpus(void)
{
	struct inject_rounds r = { 0 };
	uint32_t over = INJECT_ROUNDS_MAX_SOURCES;

	inject_rounds__event(&r, 5 * S);
	CHECK(inject_rounds__round(&r));	/* delivers nothing; the next up to 5 s */
	for (uint32_t cpu = 0; cpu < over; cpu++)
		inject_rounds__sample(&r, 0, cpu, 5 * S);
	inject_rounds__sample(&r, 0, over, 4500 * MS);		/* shares an entry */
	inject_rounds__sample(&r, 0, over + 1, 5 * S);		/* the same one */
	for (uint32_t cpu = over + 2; cpu < 100000; cpu++)	/* quickly, too */
		inject_rounds__sample(&r, 0, cpu, 5 * S);
	CHECK_EQ(r.nsrc, over + 1);
	/* cpu `over` may give 4.5 s again: up to 5 s would pass it */
	CHECK(!inject_rounds__round(&r));
	CHECK(!inject_rounds__sample(&r, 0, over, 4600 * MS));
	CHECK_EQ(r.late, 0);
	/* the sources kept apart still go to their own entry (cpu 7's is the 8th) */
	CHECK(!inject_rounds__sample(&r, 0, 7, 5 * S));
	CHECK_EQ(r.hit, 7);
	CHECK_EQ(r.nsrc, over + 1);
	inject_rounds__fini(&r);
}

int main(void)
{
	RUN(test_no_stream);
	RUN(test_stream_holds);
	RUN(test_sources);
	RUN(test_wait_bound);
	RUN(test_silent_source);
	RUN(test_many_cpus);
	return check_done("inject_rounds");
}
