// SPDX-License-Identifier: GPL-2.0
/*
 * test_tracepoint.c - tracepoint format text, raw payload and TRACING_DATA
 * (tracepoint.h), checked against text and offsets written out by hand.
 */
#include <stdlib.h>

#include "check.h"
#include "hwtrace/tracepoint.h"

struct demo {
	uint32_t a;
	const char *s;
	uint64_t v[3];
	bool has_b;
	uint64_t b;
	int64_t neg;
	const uint64_t *vec;
	uint32_t nvec;
	const struct hwt_kv *kv;
	uint32_t nkv;
};

static const char *const colours[] = { "red", "green" };

static const struct hwt_field demo_fields[] = {
	HWT_FIELD(struct demo, a, HWT_FT_U32, HWT_FH_DEC),
	HWT_FIELD(struct demo, s, HWT_FT_STR, HWT_FH_DEC),
	HWT_FIELD_ARRAY(struct demo, v, HWT_FT_U64, 3, HWT_FH_HEX),
	HWT_FIELD_OPT(struct demo, b, HWT_FT_U64, HWT_FH_HEX, has_b),
	HWT_FIELD(struct demo, neg, HWT_FT_S64, HWT_FH_DEC),
	HWT_FIELD_VEC(struct demo, vec, nvec, HWT_FT_U64_VEC),
	HWT_FIELD_VEC(struct demo, kv, nkv, HWT_FT_KV),
	HWT_FIELD_ENUM(struct demo, a, HWT_FT_U32, colours),
};

static const struct hwt_record_type demo_type = {
	.name = "demo",
	.id = 4242,
	.fields = demo_fields,
	.nfields = sizeof(demo_fields) / sizeof(demo_fields[0]),
	.kind = HWT_RK_DATA,
};

static const char expect_format[] =
	"name: demo\n"
	"ID: 4242\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:u64 a;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] s;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] v;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:u64 b;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:s64 neg;\toffset:40;\tsize:8;\tsigned:1;\n"
	"\tfield:__data_loc char[] vec;\toffset:48;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] kv;\toffset:56;\tsize:4;\tsigned:0;\n"
	"\tfield:u64 a;\toffset:64;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"a=%llu s=%s v=%s b=0x%llx neg=%lld vec=%s kv=%s a=%s\", REC->a, "
	"__get_str(s), __get_str(v), REC->b, REC->neg, __get_str(vec), __get_str(kv), "
	"__print_symbolic(REC->a, { 0, \"red\" }, { 1, \"green\" })\n";

static uint64_t rd(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static void test_format(void)
{
	size_t n = hwt_tp__format(&demo_type, NULL, 0);
	char *buf = malloc(n + 1), small[16];

	CHECK_EQ(n, sizeof(expect_format) - 1);
	CHECK_EQ(hwt_tp__format(&demo_type, buf, n + 1), n);
	CHECK_STR(buf, expect_format);
	/* a short buffer gets a cut, terminated text and the full length back */
	CHECK_EQ(hwt_tp__format(&demo_type, small, sizeof(small)), n);
	CHECK_STR(small, "name: demo\nID: ");
	free(buf);
}

static void test_encode(void)
{
	static const uint64_t vec[] = { 7, 0, 18446744073709551615ULL };
	static const struct hwt_kv kv[] = { { "X", 1 }, { "Y", 22 } };
	struct demo d = {
		.a = 1, .s = "hello", .v = { 0x10, 0x20, 0xff }, .has_b = false, .b = 99,
		.neg = -5, .vec = vec, .nvec = 3, .kv = kv, .nkv = 2,
	};
	uint8_t buf[512];
	size_t n;

	memset(buf, 0xaa, sizeof(buf));
	n = hwt_tp__encode(&demo_type, &d, -1, buf, sizeof(buf));
	/*
	 * fixed part: 8 common + 8 slots * 8 = 72
	 * "hello\0"			72..78  -> next 80
	 * "0x10,0x20,0xff\0" (15)	80..95  -> next 96
	 * "7,0,18446744073709551615\0" (25) 96..121 -> next 128
	 * "X=1,Y=22\0" (9)		128..137 -> next 144
	 */
	CHECK_EQ(n, 144);
	CHECK_EQ(rd(buf, 2), 4242);
	CHECK_EQ(buf[2], 0);
	CHECK_EQ(buf[3], 0);
	CHECK_EQ(rd(buf + 4, 4), 0xffffffff);
	CHECK_EQ(rd(buf + 8, 8), 1);
	CHECK_EQ(rd(buf + 16, 4), 72 | 6 << 16);
	CHECK_EQ(rd(buf + 20, 4), 0);
	CHECK_STR((char *)buf + 72, "hello");
	CHECK_EQ(rd(buf + 24, 4), 80 | 15 << 16);
	CHECK_STR((char *)buf + 80, "0x10,0x20,0xff");
	CHECK_EQ(rd(buf + 32, 8), 0);		/* absent optional */
	CHECK_EQ(rd(buf + 40, 8), (uint64_t)-5);
	CHECK_EQ(rd(buf + 48, 4), 96 | 25 << 16);
	CHECK_STR((char *)buf + 96, "7,0,18446744073709551615");
	CHECK_EQ(rd(buf + 56, 4), 128 | 9 << 16);
	CHECK_STR((char *)buf + 128, "X=1,Y=22");
	CHECK_EQ(rd(buf + 64, 8), 1);
	CHECK_EQ(rd(buf + 138, 6), 0);		/* alignment padding is zeroed */

	d.has_b = true;
	CHECK_EQ(hwt_tp__encode(&demo_type, &d, 7, buf, sizeof(buf)), 144);
	CHECK_EQ(rd(buf + 32, 8), 99);
	CHECK_EQ(rd(buf + 4, 4), 7);

	/* does not fit: 0, never a write past the buffer */
	CHECK_EQ(hwt_tp__encode(&demo_type, &d, 7, buf, 100), 0);
	CHECK_EQ(hwt_tp__encode(&demo_type, &d, 7, buf, 40), 0);

	CHECK_EQ(hwt_tp__raw_padded(144), 148);	/* 4 + 148 = 152 = 19 * 8 */
	CHECK_EQ(hwt_tp__raw_padded(4), 4);
}

static void test_sample_fields(void)
{
	struct demo d = { .a = 3 };
	struct hwt_record rec = { .type = &demo_type, .data = &d };
	uint64_t time = 5;
	uint32_t cpu = 2;
	int32_t pid = -1;

	/* the demo type has no time/cpu/pid fields: defaults stay */
	hwt_tp__sample_fields(&rec, &time, &cpu, &pid);
	CHECK_EQ(time, 5);
	CHECK_EQ(cpu, 2);
	CHECK_EQ(pid, -1);
}

static void test_tracing_data(void)
{
	static const uint8_t head[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g',
					'0', '.', '6', 0, 0, 8, 0, 0x10, 0, 0 };
	/* the data record types of design.rst 7, each one event (not the framing/summary ones) */
	static const char *const want[] = {
		"cxl_hmu_unit", "i915_oa_report", "i915_oa_lost", "panthor_block",
		"drm_usage_engine", "drm_usage_memory", "drm_usage_gpu", "drm_usage_gpu_engine",
	};
	const size_t nwant = sizeof(want) / sizeof(want[0]);
	size_t size = 0, off, len, seen = 0;
	uint8_t *p = hwt_tp__tracing_data(&size);
	uint32_t n;

	CHECK(p != NULL);
	if (!p)
		return;
	CHECK(!memcmp(p, head, sizeof(head)));
	off = sizeof(head);
	CHECK_STR((char *)p + off, "header_page");
	off += 12;
	len = rd(p + off, 8);
	CHECK_EQ(len, 205);		/* the kernel's text on x86_64 */
	off += 8 + len;
	CHECK_STR((char *)p + off, "header_event");
	off += 13;
	off += 8 + rd(p + off, 8);
	CHECK_EQ(rd(p + off, 4), 0);	/* ftrace formats */
	off += 4;
	CHECK_EQ(rd(p + off, 4), 1);	/* one system */
	off += 4;
	CHECK_STR((char *)p + off, "hwtrace");
	off += 8;
	n = rd(p + off, 4);
	CHECK_EQ(n, nwant);
	off += 4;
	for (uint32_t i = 0; i < n && off + 8 <= size; i++) {
		len = rd(p + off, 8);
		if (len > size - off - 8)
			break;
		for (size_t k = 0; k < nwant; k++) {
			size_t kl = strlen(want[k]);

			/* "name: <type>\n" opens each format text */
			if (len > 7 + kl && !memcmp(p + off + 8, "name: ", 6) &&
			    !memcmp(p + off + 14, want[k], kl) && p[off + 14 + kl] == '\n')
				seen |= 1u << k;
		}
		off += 8 + len;
	}
	CHECK_EQ(seen, (1u << nwant) - 1);	/* every one, once each (n == nwant) */
	CHECK_EQ(rd(p + off, 4), 0);	/* kallsyms */
	CHECK_EQ(rd(p + off + 4, 4), 0);	/* printk */
	CHECK_EQ(rd(p + off + 8, 8), 0);	/* saved_cmdlines */
	CHECK_EQ(off + 16, size);
	free(p);
}

int main(void)
{
	RUN(test_format);
	RUN(test_encode);
	RUN(test_sample_fields);
	RUN(test_tracing_data);
	return check_done("tracepoint");
}
