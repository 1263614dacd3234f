/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top_text.h - `top`'s text views: the order of the clients, the batch text
 * blocks, and the terminal view that fits the window, with its keys.
 */
#ifndef PERF_HWTRACE_TOP_TEXT_H
#define PERF_HWTRACE_TOP_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "drm_clients.h"
#include "gpu_devices.h"
#include "out.h"
#include "top_rows.h"

/* Sortable columns, in screen order; '<' '>' (F6) move along them. */
enum top_col { COL_PID, COL_COMM, COL_DRIVER, COL_PDEV, COL_ID, COL_BUSY, COL_MEM, COL_N };

/* the names --sort takes */
extern const char *const top_col_names[COL_N];

struct top_order {
	enum top_col col;
	bool reverse;
};

/* What the interactive view keeps between draws. */
struct top_view {
	int scroll;		/* first client row shown */
	int page;		/* client rows that fit, from the last draw */
	int nwarnings;		/* held until the screen is left */
	char *warnings;
	size_t warnings_len;
};

enum top_wait { WAIT_TIMEOUT, WAIT_REDRAW, WAIT_QUIT };

/* Sort @v (@n clients) in @ord's order; ties by device, then client id. */
void top_sort(struct drm_client **v, int n, const struct top_order *ord);

/* Resident bytes of every region of @cl, total where resident is absent (*@is_total then). */
uint64_t top_client_mem(const struct drm_client *cl, bool *is_total);

/* A client's text row, head and body (top_rows.h) */
extern const struct top_rows_ops top_text_rows;

/*
 * One -b block: "# time", a "# gpu" line per GPU, the column titles, a
 * line per client of @c in the order of @v (@rows staged them)
 */
void top_text_batch(struct out *o, double time, struct drm_client **v, struct drm_clients *c,
		    const struct gpu_devices *g, const struct top_order *ord,
		    struct top_rows *rows);

/* The terminal view, clipped to the window (TIOCGWINSZ), from row tv->scroll. */
void top_text_tty(struct out *o, double delay, struct drm_client **v, int n,
		  const struct gpu_devices *g, const struct top_order *ord, struct top_view *tv);

/* Apply the keys in @buf; WAIT_QUIT, WAIT_REDRAW, or WAIT_TIMEOUT if nothing changed. */
enum top_wait top_keys(const char *buf, size_t n, struct top_order *ord, struct top_view *tv);

#endif
