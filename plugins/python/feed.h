/* SPDX-License-Identifier: GPL-2.0 */
/*
 * feed.h - a decode session in a worker thread, its records in a bounded queue.
 *
 * The library's session pushes records into a sink until its input ends; a
 * Python iterator wants to pull them one at a time.  A feed runs the session
 * in a pthread of its own that never touches Python: its sink copies each
 * data record (the typed struct and what its pointers reach) and each
 * diagnostic, in the order the session produced them, into chunks of a
 * bounded queue (FEED_CHUNK bytes each, at most FEED_CHUNKS in flight), and
 * the worker waits while the queue is full.  Memory is therefore flat
 * whatever the input's size.  The consumer takes items out; deleting the
 * feed sets the session's stop flag (hwt_session_opts.stop) and ends the
 * worker promptly.
 */
#ifndef HWT_PY_FEED_H
#define HWT_PY_FEED_H

#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/decoder.h"

#define FEED_CHUNK	(256u << 10)
#define FEED_CHUNKS	8

struct feed;

enum feed_kind {
	FEED_RECORD,
	FEED_DIAG,
};

/**
 * struct feed_item - one thing the session produced, valid until the next
 * feed__next() or feed__delete()
 * @kind:	FEED_RECORD or FEED_DIAG
 * @rec:	FEED_RECORD: the record; @rec.data is a copy whose pointers
 *		(strings, vectors, KV arrays) point into the copy
 * @severity:	FEED_DIAG: HWT_WARN or HWT_ERROR
 * @msg:	FEED_DIAG: "FILE: offset 0xOFF: RTYPE: what was wrong"
 */
struct feed_item {
	enum feed_kind kind;
	struct hwt_record rec;
	enum hwt_severity severity;
	const char *msg;
};

/**
 * feed__new - start decoding @path with decoder options @opts in a worker
 *
 * With @metrics the session computes the devices' metrics and records
 * carry them (struct hwt_record.metrics, copied with the record).
 * @path and @opts are copied.  Returns NULL when out of memory or when no
 * thread could be started.
 */
struct feed *feed__new(const char *path, const struct hwt_opt *opts, uint32_t nopts,
		       bool metrics);

/**
 * feed__started - wait up to @ms milliseconds for the input to be open
 *
 * Returns 1 once the session read the input's header (or ended), 0 when
 * @ms passed first.
 */
int feed__started(struct feed *f, int ms);

/**
 * feed__unreadable - the session ended before reading anything: the input
 * could not be opened or is not one the library reads; @why gets the first
 * error's text (or is left alone).  Only meaningful after feed__started().
 */
bool feed__unreadable(struct feed *f, char *why, size_t n);

/**
 * feed__failure - why the worker gave up before the input's end ("out of
 * memory"), or NULL
 */
const char *feed__failure(struct feed *f);

/**
 * feed__next - the next item
 * @ms:		how long to wait for one: 0 never, else milliseconds
 *
 * Returns 1 with @it filled, 0 when none came within @ms, -1 at the end.
 */
int feed__next(struct feed *f, struct feed_item *it, int ms);

/**
 * feed__stop - ask the worker to stop; any thread may call it
 *
 * The consumer then gets what was published and the end.
 */
void feed__stop(struct feed *f);

/**
 * feed__delete - stop the worker and free the feed (NULL: nothing)
 *
 * Waits for the worker a short while; a worker that is blocked reading a
 * pipe is left to end on its own and frees the feed's memory itself then.
 */
void feed__delete(struct feed *f);

#endif
