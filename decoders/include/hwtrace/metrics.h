/* SPDX-License-Identifier: GPL-2.0 */
/*
 * metrics.h - what a device's raw counters mean.
 *
 * A device may have a metrics computer (struct hwt_device.metrics): i915's
 * metric sets as IGT computes them, panthor's derived metrics.  When a
 * session runs with hwt_session_opts.metrics, it starts one computer per
 * stream of such a device, shows it every record the decoder emits, and
 * attaches what it returns for a data record to that record
 * (struct hwt_record.metrics) before the sink sees it.  At the end of the
 * input the session hands the sink each group the computer kept (per
 * context for i915, per block or per run for panthor) through
 * struct hwt_sink.metrics.  Computers do no I/O and no printing, like
 * decoders; sinks render the values and never compute them.
 */
#ifndef HWTRACE_METRICS_H
#define HWTRACE_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"

struct hwt_aux_ctx;
struct hwt_diag;
struct hwt_record;

/**
 * struct hwt_metric_def - one metric of a metric set
 * @name:	its symbol name, the JSON key and `-F` name ("GpuBusy"), in
 *		storage that lives as long as the program and never changes:
 *		sinks know a set by its names' pointers
 * @unit:	its unit as printed after the value ("percent", "ns", "bytes",
 *		"bytes/s", "Hz", "cycles", "events", ...; "" for none)
 * @desc:	one line for help and reports, or NULL
 * @integer:	the metric is a 64-bit count: its exact value is in
 *		struct hwt_metrics.uvals (a double holds only 53 bits)
 */
struct hwt_metric_def {
	const char *name;
	const char *unit;
	const char *desc;
	bool integer;
};

/**
 * struct hwt_metrics - values of one metric set for a record or a group
 * @set:	the metric set's name ("RenderBasic", "panthor")
 * @defs:	@n definitions, in the order the set lists them
 * @vals:	@n values; NaN where a value cannot be computed (JSON null)
 * @uvals:	NULL, or @n exact values of the metrics whose def is @integer
 * @n:		number of metrics
 * @group_key:	groups only: the JSON key that names the group ("ctx")
 * @group:	groups only: the group's name as a string ("0x20")
 */
struct hwt_metrics {
	const char *set;
	const struct hwt_metric_def *defs;
	const double *vals;
	const uint64_t *uvals;
	uint32_t n;
	const char *group_key;
	const char *group;
};

/**
 * struct hwt_metrics_ops - a device's metrics computer
 * @new:	state for the stream @ctx (its options carry e.g. "metric-set");
 *		NULL when there is nothing to compute for it, with the reason
 *		reported through @diag (the stream then decodes as without
 *		metrics)
 * @record:	see record @rec (every kind, in emit order); return the
 *		metrics of a data record, or NULL when it has none (the first
 *		report of an i915 context has no delta).  The result stays
 *		valid until the next call.
 * @group:	after the last record: group @i (0, 1, ...), or NULL past the
 *		last; valid until the next call or @free
 * @free:	free the state
 * @known:	optional: the name, in storage that lives as long as the
 *		program, of the metric @name (@len bytes, not NUL-terminated)
 *		if some metric set of the device has it, else NULL: `-F` checks
 *		names with it before any input is read
 * @unknowable:	optional: whether @known cannot tell any name now (the
 *		metric sets live in a library that cannot be loaded), with the
 *		reason in @why (@n bytes), so that `-F` says so
 */
struct hwt_metrics_ops {
	void *(*new)(const struct hwt_aux_ctx *ctx, struct hwt_diag *diag);
	const struct hwt_metrics *(*record)(void *state, const struct hwt_record *rec);
	const struct hwt_metrics *(*group)(void *state, uint32_t i);
	void (*free)(void *state);
	const char *(*known)(const char *name, size_t len);
	bool (*unknowable)(char *why, size_t n);
};

/**
 * hwt_metrics__find - index of metric @name in @m, or -1
 */
HWT_API int hwt_metrics__find(const struct hwt_metrics *m, const char *name);

#endif
