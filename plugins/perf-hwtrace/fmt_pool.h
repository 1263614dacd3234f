/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fmt_pool.h - records rendered in several threads, written in their order.
 *
 * Rendering text is most of `script --json`'s time (numbers to decimal),
 * and the decoder is much faster than it.  The pool takes copies of the
 * records (record_copy.h) in batches; threads of its own and the caller
 * render batches, each with its own field views, and the caller alone
 * writes the rendered batches to the output, in order: the bytes are those
 * field_fmt__record() would write one record at a time.
 */
#ifndef PERF_HWTRACE_FMT_POOL_H
#define PERF_HWTRACE_FMT_POOL_H

#include <stdbool.h>

#include "field_fmt.h"

struct fmt_pool;

/*
 * A pool rendering as @v does into @o, or NULL when it would not help (a
 * single CPU to keep busy, cpu_budget__affinity()) or no memory.  @v stays
 * the caller's; it must not change while the pool lives (CSV: its header is
 * written before).  --reltime/--deltatime state is the pool's, kept in
 * record order.
 */
struct fmt_pool *fmt_pool__new(struct out *o, struct field_views *v);

/*
 * The same with @workers threads (at most 7) whatever the CPUs; 0: the
 * caller renders every batch (tests).
 */
struct fmt_pool *fmt_pool__new_workers(struct out *o, struct field_views *v, unsigned workers);

/*
 * Queue a copy of @rec.  False when no memory for it: everything queued
 * before has been written, and the caller renders @rec itself.
 */
bool fmt_pool__add(struct fmt_pool *p, const struct hwt_record *rec);

/* Render and write everything queued; the pool can take more after. */
void fmt_pool__drain(struct fmt_pool *p);

/* Drain, stop the threads and free (NULL is fine). */
void fmt_pool__delete(struct fmt_pool *p);

#endif
