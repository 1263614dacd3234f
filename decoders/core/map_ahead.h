/* SPDX-License-Identifier: GPL-2.0 */
/*
 * map_ahead.h - a read-only mapping of a whole file for one pass from start
 * to end, whose pages a thread maps ahead of the reader and unmaps behind it.
 */
#ifndef HWTRACE_MAP_AHEAD_H
#define HWTRACE_MAP_AHEAD_H

#include <stdbool.h>
#include <stdint.h>

struct map_ahead;

/**
 * map_ahead__new - map @size bytes of @fd (a regular file) for reading
 * @ahead:	bytes to have mapped beyond the part being read
 *
 * Returns NULL when the file cannot be mapped.  No page is mapped yet.
 */
struct map_ahead *map_ahead__new(int fd, uint64_t size, uint64_t ahead);

/* the first byte of the file in the mapping */
const uint8_t *map_ahead__base(const struct map_ahead *m);

/**
 * map_ahead__read - the reader is about to read [@pos, @end)
 *
 * The thread maps the pages up to @ahead bytes past @end, a step at a
 * time from where it is (a page the reader reaches first is faulted in),
 * and unmaps the pages before @pos, which the reader must not read again.
 * What it has not unmapped yet of the pages before the last call's @pos is
 * unmapped here, before this returns: whatever the scheduler does, only
 * the pages from that @pos on stay mapped.  Without a thread (@ahead bytes
 * or fewer, or none could start) this call does it all.
 */
void map_ahead__read(struct map_ahead *m, uint64_t pos, uint64_t end);

/*
 * Tests: while @hold, the thread does nothing, as one the scheduler does
 * not run (no thread: nothing to do).
 */
void map_ahead__hold(struct map_ahead *m, bool hold);

/* stop the thread and unmap what is left */
void map_ahead__delete(struct map_ahead *m);

#endif
