/* SPDX-License-Identifier: GPL-2.0 */
/*
 * membuf.h - a growing buffer in memory: the exporter renders a scrape into
 * one, an out (out__init_mem()) flushes into one when text is rendered
 * ahead of the order it is printed in (top's JSON), and the protobuf writer
 * (pb_write.h) builds its messages in one.
 */
#ifndef PERF_HWTRACE_MEMBUF_H
#define PERF_HWTRACE_MEMBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* After a failed allocation it stops growing and sets @oom. */
struct membuf {
	char *p;
	size_t len, cap;
	bool oom;
};

/* Room for @n more bytes (and a NUL); false once out of memory. */
bool membuf__grow(struct membuf *b, size_t n);

/* Inline: a scrape is hundreds of thousands of short copies. */
static inline void membuf__put(struct membuf *b, const char *s, size_t n)
{
	if (b->len + n >= b->cap && !membuf__grow(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

void membuf__puts(struct membuf *b, const char *s);
/* The text, NUL-terminated, handed to the caller (who frees it); @b is empty after. */
char *membuf__steal(struct membuf *b, size_t *len);
void membuf__free(struct membuf *b);

#endif
