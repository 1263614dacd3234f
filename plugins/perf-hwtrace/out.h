/* SPDX-License-Identifier: GPL-2.0 */
/*
 * out.h - fast buffered output for sinks and commands.
 *
 * Sinks print millions of lines; stdio's per-call locking and printf parsing
 * cost more than decoding.  struct out is a plain buffer flushed to an fd.
 */
#ifndef PERF_HWTRACE_OUT_H
#define PERF_HWTRACE_OUT_H

#include <stddef.h>
#include <stdint.h>

struct out {
	int fd;
	size_t len;
	int error;		/* errno of the first failed write, then writes stop */
	char buf[1 << 16];
};

void out__init(struct out *o, int fd);
void out__flush(struct out *o);
void out__write(struct out *o, const void *p, size_t n);
void out__puts(struct out *o, const char *s);
void out__printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* decimal */
void out__u64(struct out *o, uint64_t v);
void out__s64(struct out *o, int64_t v);
/* @n decimals separated by @sep */
void out__u64_list(struct out *o, const uint64_t *v, uint32_t n, char sep);
/* lower-case hex without 0x; @width zero-pads (0: none) */
void out__hex(struct out *o, uint64_t v, unsigned width);
/* a JSON string literal with quotes and escapes */
void out__json_str(struct out *o, const char *s);
/* a CSV cell, quoted when it holds , " or a newline */
void out__csv_str(struct out *o, const char *s);

static inline void out__putc(struct out *o, char c)
{
	if (o->len == sizeof(o->buf))
		out__flush(o);
	o->buf[o->len++] = c;
}

#endif
