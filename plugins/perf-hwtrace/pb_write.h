/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pb_write.h - a small protocol buffers encoder: varints, fixed64 doubles,
 * strings and nested messages built in one growing buffer.  A nested
 * message is opened, filled and closed; closing puts its length in front
 * of it (in the byte kept for it, or moving the body up when the length
 * needs more), so no pass over the message is needed to size it first.
 */
#ifndef PERF_HWTRACE_PB_WRITE_H
#define PERF_HWTRACE_PB_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "membuf.h"

#define PB_MAX_DEPTH 8

/**
 * struct pb - a message being built
 * @m:		the bytes (m.p, m.len of them); m.oom: an allocation failed, or
 *		the nesting went too deep: the message is incomplete
 * @open:	start of each open nested message's body
 * @depth:	how many are open
 */
struct pb {
	struct membuf m;
	size_t open[PB_MAX_DEPTH];
	int depth;
};

void pb__reset(struct pb *p);
void pb__free(struct pb *p);

/* Wire type 0: uint32/64, enum, bool; int64 as its two's complement. */
void pb__varint(struct pb *p, uint32_t field, uint64_t v);
/* Wire type 1: double. */
void pb__double(struct pb *p, uint32_t field, double v);
/* Wire type 2: string or bytes. */
void pb__bytes(struct pb *p, uint32_t field, const void *data, size_t n);
void pb__string(struct pb *p, uint32_t field, const char *s);

/* Open a nested message (wire type 2) as @field; pb__end() closes the innermost. */
void pb__begin(struct pb *p, uint32_t field);
void pb__end(struct pb *p);

#endif
