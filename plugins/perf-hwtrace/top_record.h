/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top_record.h - `top --record FILE`: each refresh's clients and GPUs as
 * drm-usage samples in a perf.data (design.rst 4.5, drm-usage.rst).
 */
#ifndef PERF_HWTRACE_TOP_RECORD_H
#define PERF_HWTRACE_TOP_RECORD_H

#include <stdint.h>

#include "drm_clients.h"
#include "gpu_devices.h"

struct top_rec;

/*
 * Before any input is read: 0 when @path does not exist or is a perf.data
 * that top --record wrote (it will be continued), else EXIT_USAGE reported.
 */
int top_rec__check(const char *path);

/*
 * Start writing @path (a temporary file renamed over it at the end) with
 * the samples @path already holds.  NULL reported.
 */
struct top_rec *top_rec__open(const char *path);

/* Append one refresh taken at @now (monotonic ns); 0, or -1 reported. */
int top_rec__sample(struct top_rec *r, const struct drm_clients *c, const struct gpu_devices *g,
		    uint64_t now);

/*
 * Finish: rename the file into place when @ok and every write worked, else
 * leave @path as it was.  Returns 0, or -1 reported.  Frees @r.
 */
int top_rec__close(struct top_rec *r, bool ok);

#endif
