/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inject_passthrough.h - the input's events and records in inject's output,
 * named by sample ids stock perf can tell from the injected events' ones.
 */
#ifndef HWTRACE_INJECT_PASSTHROUGH_H
#define HWTRACE_INJECT_PASSTHROUGH_H

#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/diag.h"
#include "hwtrace/perf_data.h"

struct pt_attr;

/**
 * struct inject_pt - pass-through state
 * @nattrs:	the input's attrs
 * @attrs:	what each becomes
 * @last:	the attr of the last rewritten record (records come in runs)
 * @rewrite:	some attr's records need their ids rewritten
 * @sample_id_all: the attrs' (all alike), for the injected events
 * @fresh_id:	the id given to a lone event without one, or 0
 * @refused:	the input's records cannot be passed through: nothing is written
 * @too_big:	records that no longer fit 64 KiB with the id added
 * @buf:	the rewritten record
 */
struct inject_pt {
	uint32_t nattrs;
	struct pt_attr *attrs;
	struct pt_attr *last;
	bool rewrite;
	bool sample_id_all;
	uint64_t fresh_id;
	bool refused;
	uint64_t too_big;
	uint8_t buf[65536];
};

/**
 * inject_pt__start - declare the input's events in the output
 * @pt:		state, zeroed by the caller
 * @r:		the input (NULL: a raw file, no events)
 * @w:		the output
 * @diag:	where a refusal is reported (as an error)
 *
 * Every event gets PERF_SAMPLE_IDENTIFIER, the place the injected events
 * keep their ids, and its ids (a lone event without any: @pt->fresh_id).
 * Returns 0, or -1 when the input's records cannot be told apart (@pt->refused
 * set, the reason reported) or the writer failed (errno set).
 */
int inject_pt__start(struct inject_pt *pt, const struct hwt_reader *r, struct hwt_writer *w,
		     struct hwt_diag *diag);

/**
 * inject_pt__record - one input record as it goes into the output
 * @pt:		state
 * @r:		the input
 * @ev:		the record
 * @diag:	where problems go
 *
 * Returns the record to write (@ev's or @pt->buf), or NULL to leave it out:
 * when it does not fit with its id (an error) or its event cannot be found
 * (an error; @pt->refused is set and nothing must be written).
 */
const struct perf_event_header *inject_pt__record(struct inject_pt *pt,
						  const struct hwt_reader *r,
						  const struct hwt_event *ev, struct hwt_diag *diag);

/* free what inject_pt__start() allocated */
void inject_pt__fini(struct inject_pt *pt);

#endif
