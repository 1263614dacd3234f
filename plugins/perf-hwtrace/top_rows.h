/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top_rows.h - each client's row of a `top` refresh, rendered as it is read.
 *
 * A refresh of thousands of clients is output in sort order, which is
 * random in memory: reaching each client's scattered allocations again
 * after the whole table was read is a cache miss at every step.  So each
 * client's row (a JSON object, a batch text line) is rendered into an arena
 * right after the client is re-read (drm_clients.updated, in a quick
 * sample), or else in the order the clients lie in memory; only the
 * finished rows are copied out in sort order.  A client steady since the
 * last sample (drm_client.steady) would render to the very row it had
 * then: that row is copied from the last sample's arena instead, so an idle
 * client costs a read and two copies; one whose numbers alone changed
 * (drm_client.same_strings) keeps its head.
 */
#ifndef PERF_HWTRACE_TOP_ROWS_H
#define PERF_HWTRACE_TOP_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "drm_clients.h"
#include "membuf.h"
#include "out.h"

/**
 * struct top_rows_ops - how one view renders a client's row
 * @head:	the part only a scan (pids, comm) or a new driver, pdev or
 *		id changes
 * @body:	the rest (engines, memory), right after @head
 */
struct top_rows_ops {
	void (*head)(struct out *o, const struct drm_client *cl);
	void (*body)(struct out *o, const struct drm_client *cl);
};

/* Where a client's row lies in the arena, by its index in the table. */
struct top_rows_ref {
	size_t off, len;
};

struct top_rows {
	const struct top_rows_ops *ops;
	const struct drm_clients *c;
	struct out stage;	/* flushes into arena[gen & 1] */
	struct top_rows_ref *refs;	/* top_rows__write()'s, one per client */
	int cap_refs;
	struct membuf arena[2];	/* rows of samples @gen and @gen - 1; drm_client.view_* locate them */
	unsigned int gen;
	bool failed;		/* the arena could not grow: render directly */
	bool last_ok;		/* arena[(gen - 1) & 1] holds all of sample gen - 1's rows */
};

void top_rows__init(struct top_rows *r, const struct drm_clients *c, const struct top_rows_ops *ops);
void top_rows__exit(struct top_rows *r);

/* drm_clients.updated (@ctx: the struct top_rows): the client was just re-read */
void top_rows__updated(void *ctx, struct drm_client *cl);

/*
 * The rows of the @n clients @v (of the table @c) to @o in that order,
 * @sep before each but the first, @term after each (0: none): the staged
 * rows copied, the others rendered first (or all in place, without the
 * memory to stage them).
 */
void top_rows__write(struct top_rows *r, struct out *o, struct drm_clients *c,
		     struct drm_client *const *v, int n, char sep, char term);

#endif
