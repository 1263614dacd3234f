/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_copy.h - a record copied with everything it points to.
 *
 * A record's data is valid only during the sink's callback (record.h).  A
 * sink that uses records later, in another thread, keeps a copy: the
 * script sink's rendering threads (plugins/perf-hwtrace/fmt_pool.c) and the
 * Python module's queue (plugins/python/feed.c).  The copy holds the typed
 * struct as far as its field table reaches, the strings, vectors and
 * key-value lists its fields point to, and its metrics' values.  What lives
 * as long as the session stays shared: the record type, enum and flag
 * names, metric definitions and names (metrics.h).  Internal to the
 * library: not part of its ABI.
 */
#ifndef HWTRACE_RECORD_COPY_H
#define HWTRACE_RECORD_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/record.h"

#define RECORD_SHAPE_PTRS 16

/**
 * struct record_shape - what copying a record of one type takes
 * @type:	the type
 * @extent:	bytes of its struct that its field table reaches
 * @ptr:	the fields that point outside the struct (string, vector,
 *		list), by index, when there are at most RECORD_SHAPE_PTRS
 * @nptr:	their number, or more than RECORD_SHAPE_PTRS: look at all
 */
struct record_shape {
	const struct hwt_record_type *type;
	size_t extent;
	uint16_t ptr[RECORD_SHAPE_PTRS];
	uint32_t nptr;
};

void record_shape__init(struct record_shape *s, const struct hwt_record_type *t);

/*
 * Copy @rec into @mem (8-byte aligned), if it fits in @cap bytes; returns
 * the bytes the copy takes (a multiple of 8), so a result above @cap means
 * nothing usable was copied.  The copy's struct hwt_record is at @mem; it
 * points only into @mem and at what lives as long as the session.
 */
size_t record_copy(void *mem, size_t cap, const struct record_shape *s,
		   const struct hwt_record *rec);

#endif
