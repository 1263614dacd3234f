// SPDX-License-Identifier: GPL-2.0
/* out.c - buffered output with hand-rolled number formatting. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out.h"

void out__init(struct out *o, int fd)
{
	o->fd = fd;
	o->len = 0;
	o->error = 0;
}

void out__flush(struct out *o)
{
	size_t off = 0;

	while (off < o->len && !o->error) {
		ssize_t n = write(o->fd, o->buf + off, o->len - off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			o->error = errno;	/* EPIPE: reader went away; stop quietly */
			break;
		}
		off += n;
	}
	o->len = 0;
}

void out__write(struct out *o, const void *p, size_t n)
{
	const char *s = p;

	while (n) {
		size_t room = sizeof(o->buf) - o->len;

		if (!room) {
			out__flush(o);
			room = sizeof(o->buf);
		}
		if (room > n)
			room = n;
		memcpy(o->buf + o->len, s, room);
		o->len += room;
		s += room;
		n -= room;
	}
}

void out__puts(struct out *o, const char *s)
{
	out__write(o, s, strlen(s));
}

void out__printf(struct out *o, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(tmp)) {
		out__write(o, tmp, n);
		return;
	}
	{
		char *big;

		va_start(ap, fmt);
		n = vasprintf(&big, fmt, ap);
		va_end(ap);
		if (n >= 0) {
			out__write(o, big, n);
			free(big);
		}
	}
}

void out__u64(struct out *o, uint64_t v)
{
	char tmp[20];
	int i = sizeof(tmp);

	do {
		tmp[--i] = '0' + v % 10;
		v /= 10;
	} while (v);
	out__write(o, tmp + i, sizeof(tmp) - i);
}

void out__s64(struct out *o, int64_t v)
{
	if (v < 0) {
		out__putc(o, '-');
		out__u64(o, -(uint64_t)v);
	} else {
		out__u64(o, v);
	}
}

void out__hex(struct out *o, uint64_t v, unsigned width)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	int i = sizeof(tmp);

	do {
		tmp[--i] = digits[v & 0xf];
		v >>= 4;
	} while (v);
	for (unsigned n = sizeof(tmp) - i; n < width && n < 16; n++)
		out__putc(o, '0');
	out__write(o, tmp + i, sizeof(tmp) - i);
}

void out__json_str(struct out *o, const char *s)
{
	out__putc(o, '"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\') {
			out__putc(o, '\\');
			out__putc(o, c);
		} else if (c < 0x20) {
			out__puts(o, "\\u00");
			out__hex(o, c, 2);
		} else {
			out__putc(o, c);
		}
	}
	out__putc(o, '"');
}

void out__csv_str(struct out *o, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		out__puts(o, s);
		return;
	}
	out__putc(o, '"');
	for (; *s; s++) {
		if (*s == '"')
			out__putc(o, '"');
		out__putc(o, *s);
	}
	out__putc(o, '"');
}
