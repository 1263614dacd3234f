// SPDX-License-Identifier: GPL-2.0
/* pb_write.c - protocol buffers wire format (varint, fixed64, length-delimited). */
#include <stdlib.h>
#include <string.h>

#include "pb_write.h"

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2 };

static bool grow(struct pb *p, size_t n)
{
	size_t cap;
	uint8_t *b;

	if (p->oom)
		return false;
	cap = p->cap ? p->cap * 2 : 256;
	while (cap < p->len + n)
		cap *= 2;
	b = realloc(p->buf, cap);
	if (!b) {
		p->oom = true;
		return false;
	}
	p->buf = b;
	p->cap = cap;
	return true;
}

static inline bool reserve(struct pb *p, size_t n)
{
	return (p->len + n <= p->cap && !p->oom) || grow(p, n);
}

/* Encode @v at @out (room for 10 bytes); returns the bytes used. */
static size_t varint_at(uint8_t *out, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		out[n++] = (uint8_t)v | 0x80;
		v >>= 7;
	}
	out[n++] = (uint8_t)v;
	return n;
}

static inline void raw_varint(struct pb *p, uint64_t v)
{
	if (!reserve(p, 10))
		return;
	if (v < 0x80)	/* tags and most lengths, flags and ids */
		p->buf[p->len++] = (uint8_t)v;
	else
		p->len += varint_at(p->buf + p->len, v);
}

static void tag(struct pb *p, uint32_t field, unsigned wt)
{
	raw_varint(p, (uint64_t)field << 3 | wt);
}

void pb__reset(struct pb *p)
{
	p->len = 0;
	p->depth = 0;
	p->oom = false;
}

void pb__free(struct pb *p)
{
	free(p->buf);
	memset(p, 0, sizeof(*p));
}

void pb__varint(struct pb *p, uint32_t field, uint64_t v)
{
	tag(p, field, WT_VARINT);
	raw_varint(p, v);
}

void pb__double(struct pb *p, uint32_t field, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	tag(p, field, WT_I64);
	if (!reserve(p, 8))
		return;
	for (int i = 0; i < 8; i++)	/* fixed64 is little-endian on the wire */
		p->buf[p->len++] = (uint8_t)(bits >> (8 * i));
}

void pb__bytes(struct pb *p, uint32_t field, const void *data, size_t n)
{
	tag(p, field, WT_LEN);
	raw_varint(p, n);
	if (!reserve(p, n))
		return;
	memcpy(p->buf + p->len, data, n);
	p->len += n;
}

void pb__string(struct pb *p, uint32_t field, const char *s)
{
	pb__bytes(p, field, s, strlen(s));
}

/* One byte is kept for the length: most messages are shorter than 128 bytes. */
void pb__begin(struct pb *p, uint32_t field)
{
	tag(p, field, WT_LEN);
	if (p->depth >= PB_MAX_DEPTH) {
		p->oom = true;	/* a programming error: nothing sane to write */
		return;
	}
	if (!reserve(p, 1))
		return;
	p->len++;
	p->open[p->depth++] = p->len;
}

void pb__end(struct pb *p)
{
	uint8_t lenbuf[10];
	size_t start, body, n;

	if (p->depth <= 0 || p->oom)
		return;
	start = p->open[--p->depth];
	body = p->len - start;
	n = varint_at(lenbuf, body);
	if (n > 1) {	/* a longer length: the body moves up by the extra bytes */
		if (!reserve(p, n - 1))
			return;
		memmove(p->buf + start + n - 1, p->buf + start, body);
		p->len += n - 1;
	}
	memcpy(p->buf + start - 1, lenbuf, n);
}
