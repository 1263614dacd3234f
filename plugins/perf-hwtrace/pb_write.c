// SPDX-License-Identifier: GPL-2.0
/* pb_write.c - protocol buffers wire format (varint, fixed64, length-delimited). */
#include <stdlib.h>
#include <string.h>

#include "pb_write.h"

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2 };

/* The bytes, as the wire format writes them. */
static inline uint8_t *bytes(struct pb *p)
{
	return (uint8_t *)p->m.p;
}

static inline bool reserve(struct pb *p, size_t n)
{
	return (p->m.len + n < p->m.cap && !p->m.oom) || membuf__grow(&p->m, n);
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
		bytes(p)[p->m.len++] = (uint8_t)v;
	else
		p->m.len += varint_at(bytes(p) + p->m.len, v);
}

static void tag(struct pb *p, uint32_t field, unsigned wt)
{
	raw_varint(p, (uint64_t)field << 3 | wt);
}

void pb__reset(struct pb *p)
{
	p->m.len = 0;
	p->depth = 0;
	p->m.oom = false;
}

void pb__free(struct pb *p)
{
	membuf__free(&p->m);
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
		bytes(p)[p->m.len++] = (uint8_t)(bits >> (8 * i));
}

void pb__bytes(struct pb *p, uint32_t field, const void *data, size_t n)
{
	tag(p, field, WT_LEN);
	raw_varint(p, n);
	if (!reserve(p, n))
		return;
	memcpy(bytes(p) + p->m.len, data, n);
	p->m.len += n;
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
		p->m.oom = true;	/* a programming error: nothing sane to write */
		return;
	}
	if (!reserve(p, 1))
		return;
	p->m.len++;
	p->open[p->depth++] = p->m.len;
}

void pb__end(struct pb *p)
{
	uint8_t lenbuf[10];
	size_t start, body, n;

	if (p->depth <= 0 || p->m.oom)
		return;
	start = p->open[--p->depth];
	body = p->m.len - start;
	n = varint_at(lenbuf, body);
	if (n > 1) {	/* a longer length: the body moves up by the extra bytes */
		if (!reserve(p, n - 1))
			return;
		memmove(bytes(p) + start + n - 1, bytes(p) + start, body);
		p->m.len += n - 1;
	}
	memcpy(bytes(p) + start - 1, lenbuf, n);
}
