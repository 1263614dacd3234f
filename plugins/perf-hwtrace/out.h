/* SPDX-License-Identifier: GPL-2.0 */
/*
 * out.h - fast buffered output for sinks and commands, and the contract of
 * stdout: every verb writes stdout through out__stdout() (or stdio), and the
 * one exit path (out__setup()) flushes both and turns a failed write into
 * "write error: <reason>" and exit status 1.  A reader that goes away
 * (EPIPE, SIGPIPE) ends the process quietly with status 141, as if killed
 * by SIGPIPE, but by a normal exit: stock perf's wrapper reports a
 * subcommand killed by a signal as "FATAL: unable to run".
 */
#ifndef PERF_HWTRACE_OUT_H
#define PERF_HWTRACE_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "membuf.h"

struct out {
	int fd;
	size_t len;
	int error;		/* errno of the first failed write, then writes stop */
	struct membuf *mem;	/* flushes append here (out__init_mem), or NULL */
	char buf[1 << 16];
};

/* 128 + SIGPIPE: what a shell shows for a process killed by SIGPIPE */
#define OUT_EXIT_PIPE 141

void out__init(struct out *o, int fd);
/*
 * An out whose flushes append to @m (error ENOMEM when it cannot grow), for
 * text rendered ahead of the order it is printed in.
 */
void out__init_mem(struct out *o, struct membuf *m);
/* The process's buffered stdout (never NULL; allocated on first use). */
struct out *out__stdout(void);
/*
 * Install the exit path (atexit) and SIGPIPE handling, once; @verb names
 * the command in messages ("perf hwtrace @verb: write error: ..."), and a
 * later call only renames it.
 */
void out__setup(const char *verb);
/* SIGPIPE ends quietly with OUT_EXIT_PIPE (again, after Python set it to SIG_IGN). */
void out__catch_sigpipe(void);
/*
 * A write to stdout failed with @err: EPIPE exits quietly with
 * OUT_EXIT_PIPE; anything else is kept for the exit path.
 */
void out__stdout_failed(int err);
/* Print "perf hwtrace VERB: write error: <strerror(@err)>" to stderr. */
void out__write_error(int err);
/*
 * Writing output file @path failed with @err: "-" (stdout) goes to
 * out__stdout_failed(), another path is said as "perf hwtrace VERB: PATH: reason".
 */
void out__path_failed(const char *path, int err);
/*
 * The output cannot go on (@err, e.g. ENOMEM): writes stop, as after a
 * failed write, and stdout's exit path reports it.
 */
void out__fail(struct out *o, int err);
void out__flush(struct out *o);
void out__write_slow(struct out *o, const void *p, size_t n);
/* @n bytes, written straight from @p (after the buffer) unless they are a few */
void out__write_direct(struct out *o, const void *p, size_t n);
void out__puts(struct out *o, const char *s);
void out__printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* decimal */
void out__u64(struct out *o, uint64_t v);
void out__s64(struct out *o, int64_t v);
/* @n decimals separated by @sep */
void out__u64_list(struct out *o, const uint64_t *v, uint32_t n, char sep);
/* tests: whether out__u64_list() may take its AVX2 path (where the CPU has AVX2) */
void out__allow_avx2(bool allow);
/*
 * printf's "%.15g" of @v, byte for byte (default rounding mode), without
 * printf for the values that print in plain digits
 */
void out__double(struct out *o, double v);
/* lower-case hex without 0x; @width zero-pads (0: none) */
void out__hex(struct out *o, uint64_t v, unsigned width);
/* a JSON string literal with quotes and escapes */
void out__json_str(struct out *o, const char *s);
/*
 * @s as a JSON string at @p (@max + 2 bytes free), if it is at most @max
 * bytes and has nothing to escape; returns the end, or NULL (nothing
 * written: the caller takes out__json_str()).
 */
char *out__put_json_name(char *p, const char *s, size_t max);
/* a CSV cell, quoted when it holds , " or a newline */
void out__csv_str(struct out *o, const char *s);
/*
 * Text from the system (process names, fdinfo and sysfs strings) with
 * control characters, DEL and backslash as C escapes (\n, \t, \x1b, \\), so
 * that no byte from another process can drive the terminal.
 */
void out__text_str(struct out *o, const char *s);
/* The same into @buf (@size >= 1; cut to fit); returns @buf. */
const char *out__escape(char *buf, size_t size, const char *s);
/* How many bytes @s starts with that out__text_str() shows as themselves */
size_t out__text_plain(const char *s);

/*
 * Writing in place, for a run of pieces with one check for room: @n free
 * bytes at the buffer's end (@n at most the buffer's size), where the
 * caller writes, then out__set_end() at the end of what it wrote.
 */
static inline char *out__room(struct out *o, size_t n)
{
	if (sizeof(o->buf) - o->len < n)
		out__flush(o);
	return o->buf + o->len;
}

static inline void out__set_end(struct out *o, char *end)
{
	o->len = end - o->buf;
}

/* Room out__put_u64() and out__put_double() need (they store past the number) */
#define OUT_NUM_ROOM 48

/* out__u64() and out__double() at @p; return the end */
char *out__put_u64(char *p, uint64_t v);
char *out__put_double(char *p, double v);
/*
 * @x as printf's "%.Nf" at @p, N = @decimals (1 to 3), for +0 <= x and
 * x * 10^N < 2^51; NULL for anything else (NaN, -0, a negative), nothing
 * written: the caller takes printf.  Returns the end.
 */
char *out__put_fixed(char *p, double x, unsigned int decimals);

static inline void out__putc(struct out *o, char c)
{
	if (o->len == sizeof(o->buf))
		out__flush(o);
	o->buf[o->len++] = c;
}

/* @n bytes from @s to @d; short strings as overlapping fixed-size moves, no call */
static inline void out__copy(char *d, const char *s, size_t n)
{
	if (n >= 8 && n <= 16) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n < 4) {
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	} else {
		memcpy(d, s, n);
	}
}

/* @n bytes; inline because sinks write many short pieces (keys, separators) */
static inline void out__write(struct out *o, const void *p, size_t n)
{
	if (n > sizeof(o->buf) - o->len) {
		out__write_slow(o, p, n);
		return;
	}
	out__copy(o->buf + o->len, p, n);
	o->len += n;
}

/* Largest integer every JSON reader holds exactly (IEEE doubles: 2^53). */
#define OUT_JSON_EXACT (1ull << 53)

/* out__put_u64(), where one digit (an idle counter's, a capacity) takes no call */
static inline char *out__put_dec(char *p, uint64_t v)
{
	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	return out__put_u64(p, v);
}

/* out__json_u64() at @p (OUT_NUM_ROOM + 2 bytes free); returns the end */
static inline char *out__put_json_u64(char *p, uint64_t v)
{
	if (v <= OUT_JSON_EXACT)
		return out__put_dec(p, v);
	*p = '"';
	p = out__put_u64(p + 1, v);
	*p = '"';
	return p + 1;
}

/* A JSON number, or beyond OUT_JSON_EXACT a string of its decimal digits. */
static inline void out__json_u64(struct out *o, uint64_t v)
{
	out__set_end(o, out__put_json_u64(out__room(o, OUT_NUM_ROOM + 2), v));
}

#endif
