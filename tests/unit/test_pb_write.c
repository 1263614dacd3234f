// SPDX-License-Identifier: GPL-2.0
/*
 * test_pb_write.c - the protobuf writer against byte strings worked out by
 * hand from the wire format: tag = field << 3 | wire type, varints 7 bits a
 * byte low first with bit 7 set on all but the last, fixed64 little-endian,
 * a length-delimited field's length as a varint before its bytes.
 */
#include <stdlib.h>

#include "check.h"
#include "../../plugins/perf-hwtrace/pb_write.h"

static bool bytes_are(const struct pb *p, const uint8_t *want, size_t n)
{
	return !p->m.oom && p->m.len == n && !memcmp(p->m.p, want, n);
}

static void test_varint(void)
{
	struct pb p = { 0 };
	/* field 1 = 150: 08 96 01; field 2 = 0: 10 00; field 30 = 2^64-1 (int64 -1) */
	static const uint8_t want[] = { 0x08, 0x96, 0x01, 0x10, 0x00, 0xf0, 0x01,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };

	pb__varint(&p, 1, 150);
	pb__varint(&p, 2, 0);
	pb__varint(&p, 30, (uint64_t)-1);
	CHECK(bytes_are(&p, want, sizeof(want)));
	pb__free(&p);
}

static void test_double_and_string(void)
{
	struct pb p = { 0 };
	/* field 44, wire type 1: tag 44 << 3 | 1 = 0x161 = e1 02; 1.5 = 0x3ff8000000000000 */
	static const uint8_t want[] = { 0xe1, 0x02, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f,
		0x12, 0x03, 'a', 'b', 'c' };

	pb__double(&p, 44, 1.5);
	pb__string(&p, 2, "abc");
	CHECK(bytes_are(&p, want, sizeof(want)));
	pb__free(&p);
}

/* A nested message gets its length in front; 200 bytes need a 2-byte length. */
static void test_nested(void)
{
	struct pb p = { 0 };
	char body[198];
	uint8_t want[3 + 4 + 201 + 2];
	size_t n = 0;

	memset(body, 'x', sizeof(body));
	pb__begin(&p, 1);
	pb__begin(&p, 60);
	pb__bytes(&p, 2, body, sizeof(body));	/* 12 c6 01 + 198 = 201 bytes */
	pb__end(&p);
	pb__varint(&p, 8, 5);
	pb__end(&p);
	/* outer: 0a, len = (2 + 2 + 201) + 2 = 207 = cf 01 */
	want[n++] = 0x0a;
	want[n++] = 0xcf;
	want[n++] = 0x01;
	/* field 60: tag 0x1e2 = e2 03, len 201 = c9 01 */
	want[n++] = 0xe2;
	want[n++] = 0x03;
	want[n++] = 0xc9;
	want[n++] = 0x01;
	want[n++] = 0x12;
	want[n++] = 0xc6;
	want[n++] = 0x01;
	memset(want + n, 'x', sizeof(body));
	n += sizeof(body);
	want[n++] = 0x40;
	want[n++] = 0x05;
	CHECK_EQ(p.depth, 0);
	CHECK(bytes_are(&p, want, n));
	pb__reset(&p);
	CHECK_EQ(p.m.len, 0);
	pb__begin(&p, 3);
	pb__end(&p);
	CHECK(p.m.len == 2 && p.m.p[0] == 0x1a && p.m.p[1] == 0);	/* an empty message */
	pb__free(&p);
}

int main(void)
{
	RUN(test_varint);
	RUN(test_double_and_string);
	RUN(test_nested);
	return check_done("pb_write");
}
