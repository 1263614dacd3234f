// SPDX-License-Identifier: GPL-2.0
/*
 * test_output.c - the output conventions of perf-hwtrace (perf-hwtrace.rst,
 * "Output formats"): a field has one base in every style and every record
 * type, hex fields are JSON strings, decimals above 2^53 are JSON strings,
 * signed fields print -1, text from the system is escaped.  Expected texts
 * are written out here by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "core/cpu.h"
#include "hwtrace/device.h"
#include "hwtrace/record.h"
#include "../../plugins/perf-hwtrace/field_fmt.h"

struct rec {
	uint32_t cpu;
	uint64_t mask;
	uint64_t count;
	uint64_t arr[2];
	const char *name;
};

static const struct hwt_field fields[] = {
	{ .name = "cpu", .type = HWT_FT_U32, .offset = offsetof(struct rec, cpu),
	  .flags = HWT_FF_SIGNED },
	HWT_FIELD(struct rec, mask, HWT_FT_U64, HWT_FH_HEX),
	HWT_FIELD(struct rec, count, HWT_FT_U64, HWT_FH_DEC),
	HWT_FIELD_ARRAY(struct rec, arr, HWT_FT_U64, 2, HWT_FH_DEC),
	HWT_FIELD(struct rec, name, HWT_FT_STR, HWT_FH_DEC),
};

static const struct hwt_record_type type = {
	.name = "t", .fields = fields, .nfields = 5, .kind = HWT_RK_DATA,
};

/* field_fmt__record() of @r in @style, as a string (static buffer) */
static const char *show(const struct rec *r, enum field_style style)
{
	static char buf[4096];
	struct out o;
	struct field_views v;
	const struct hwt_record_type *types[] = { &type, NULL };
	struct hwt_record rec = { .type = &type, .data = r };

	out__init(&o, -1);
	field_views__init(&v, style, NULL, 0);
	if (style == FS_CSV)
		field_fmt__csv_header(&o, &v, types);
	field_fmt__record(&o, &v, &rec);
	field_views__fini(&v);
	memcpy(buf, o.buf, o.len);
	buf[o.len] = 0;
	return buf;
}

static void test_bases(void)
{
	struct rec r = {
		.cpu = UINT32_MAX, .mask = UINT64_MAX, .count = (1ull << 53) + 1,
		.arr = { 1, (1ull << 53) + 1 }, .name = "a\033[31mb\n",
	};

	CHECK_STR(show(&r, FS_TEXT),
		  "t: cpu=-1 mask=0xffffffffffffffff count=9007199254740993 "
		  "arr=1,9007199254740993 name=a\\x1b[31mb\\n\n");
	CHECK_STR(show(&r, FS_JSON),
		  "{\"type\":\"t\",\"cpu\":-1,\"mask\":\"0xffffffffffffffff\","
		  "\"count\":\"9007199254740993\",\"arr\":[1,\"9007199254740993\"],"
		  "\"name\":\"a\\u001b[31mb\\u000a\"}\n");
	CHECK_STR(show(&r, FS_CSV),
		  "type,cpu,mask,count,arr,name\n"
		  "t,-1,0xffffffffffffffff,9007199254740993,1;9007199254740993,"
		  "\"a\033[31mb\n\"\n");
	/* 2^53 itself is exact as a JSON number */
	r.count = 1ull << 53;
	r.arr[1] = 7;
	r.cpu = 3;
	r.name = "x";
	CHECK_STR(show(&r, FS_JSON),
		  "{\"type\":\"t\",\"cpu\":3,\"mask\":\"0xffffffffffffffff\","
		  "\"count\":9007199254740992,\"arr\":[1,7],\"name\":\"x\"}\n");
}

/*
 * A list is written as plain JSON numbers only if every element is exact:
 * one above 2^53 anywhere (the list is checked four at a time, then one
 * by one) makes each element what a scalar would be.
 */
static void test_list_exact(void)
{
	struct seven {
		uint64_t v[7];
	} r;
	static const struct hwt_field f7[] = {
		HWT_FIELD_ARRAY(struct seven, v, HWT_FT_U64, 7, HWT_FH_DEC),
	};
	static const struct hwt_record_type t7 = {
		.name = "s", .fields = f7, .nfields = 1, .kind = HWT_RK_DATA,
	};
	struct hwt_record rec = { .type = &t7, .data = &r };
	struct field_views v;
	struct out o;
	char want[256];

	for (int big = -1; big < 7; big++) {
		size_t len = (size_t)snprintf(want, sizeof(want), "{\"type\":\"s\",\"v\":[");

		for (int i = 0; i < 7; i++) {
			r.v[i] = i == big ? (1ull << 53) + 1 : (uint64_t)i * 1000;
			if (i == big)
				len += (size_t)snprintf(want + len, sizeof(want) - len,
							"%s\"9007199254740993\"", i ? "," : "");
			else
				len += (size_t)snprintf(want + len, sizeof(want) - len, "%s%d",
							i ? "," : "", i * 1000);
		}
		snprintf(want + len, sizeof(want) - len, "]}\n");
		out__init(&o, -1);
		field_views__init(&v, FS_JSON, NULL, 0);
		field_fmt__record(&o, &v, &rec);
		field_views__fini(&v);
		o.buf[o.len] = 0;
		CHECK_STR(o.buf, want);
	}
}

/* xorshift64*: the same numbers every run */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

/* a number of the class @c (0-5) for test_u64_list(): the edges of each path */
static uint64_t list_value(uint64_t r, int c)
{
	static const uint64_t edge[] = {
		0, 9, 10, 99999999, 100000000, 100000001, 9999999999999999ull,
		10000000000000000ull, 18446744073709551615ull, 9223372036854775808ull,
	};

	switch (c) {
	case 0:
		return edge[r % 10];
	case 1:
		return r % 10;				/* one digit */
	case 2:
		return r % 100000000;			/* up to 8 */
	case 3:
		return 100000000 + r % 9900000000000000ull;	/* 9 to 16 */
	case 4:
		return r >= 10000000000000000ull ? r : r + 10000000000000000ull;	/* 17+ */
	default:
		return r >> (r % 64);			/* any length */
	}
}

/*
 * out__u64_list() against snprintf, with and without its AVX2 path (four
 * numbers below 10^8 at once, two of 9 to 16 digits at once, the others
 * one or two at a time): lists of 0 to 150 numbers (past its 64-number
 * steps) of one length class each, mixed classes, and classes that change
 * every few numbers so that each step meets each neighbour.
 */
static void test_u64_list(void)
{
	static struct out o;
	struct membuf m = { 0 };
	uint64_t s = 0x2545f4914f6cdd1dull, v[150];
	char *want = malloc(150 * 22);
	int bad = 0;

	CHECK(want != NULL);
	for (int avx2 = 0; want && avx2 < 2; avx2++) {
		out__allow_avx2(avx2);
		for (int round = 0; round < 3000; round++) {
			uint32_t n = round < 151 ? (uint32_t)round : (uint32_t)(rnd(&s) % 151);
			int cls = round % 7, run = 1 + (int)(rnd(&s) % 6);
			char sep = round & 1 ? ';' : ',';
			size_t len = 0;

			for (uint32_t i = 0; i < n; i++) {
				int c = cls < 6 ? cls : (int)((i / run) % 6);

				v[i] = list_value(rnd(&s), c);
				len += (size_t)sprintf(want + len, "%s%llu", i ? (sep == ';' ? ";" : ",") : "",
						       (unsigned long long)v[i]);
			}
			m.len = 0;
			out__init_mem(&o, &m);
			out__u64_list(&o, v, n, sep);
			out__flush(&o);
			if (m.len != len || (len && memcmp(m.p, want, len))) {
				if (!bad++)
					fprintf(stderr, "out__u64_list (avx2 %d, %u numbers): \"%.*s\", "
						"want \"%s\"\n", avx2, n, (int)m.len, m.p, want);
			}
		}
	}
	out__allow_avx2(true);
	CHECK_EQ(bad, 0);
	free(m.p);
	free(want);
}

/*
 * hwt_cpu__have_avx2(), which picks the AVX2 paths of the lists and the
 * i915 decoder, says what the kernel's /proc/cpuinfo flags say (x86).
 */
static void test_cpu_avx2(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[8192];
	int flags = -1;

	if (!f)
		return;
	while (flags < 0 && fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');

		if (strncmp(line, "flags", 5) || !c)
			continue;
		flags = 0;
		for (char *t = strtok(c + 1, " \n"); t; t = strtok(NULL, " \n"))
			flags |= !strcmp(t, "avx2");
	}
	fclose(f);
#if defined(__x86_64__)
	CHECK(flags >= 0);
	CHECK_EQ(hwt_cpu__have_avx2(), flags == 1);
#else
	CHECK(!hwt_cpu__have_avx2());
#endif
}

/* Every field name means one thing: the same base and sign in every record type. */
static void test_one_base_per_name(void)
{
	hwt_devices__for_each_type(da, pa)
		hwt_devices__for_each_type(db, pb) {
			const struct hwt_record_type *ta = *pa;
			const struct hwt_record_type *tb = *pb;

			for (uint32_t i = 0; i < ta->nfields; i++) {
				const struct hwt_field *fa = &ta->fields[i];
				int j = field_fmt__find(tb, fa->name);
				const struct hwt_field *fb = j >= 0 ? &tb->fields[j] : NULL;

				if (!fb)
					continue;
				if ((fa->hint == HWT_FH_HEX) != (fb->hint == HWT_FH_HEX) ||
				    hwt_field__is_signed(fa) != hwt_field__is_signed(fb)) {
					fprintf(stderr, "%s.%s and %s.%s differ in base or sign\n",
						ta->name, fa->name, tb->name, fb->name);
					CHECK(0);
				}
			}
		}
}

static void test_escape(void)
{
	char buf[64];

	CHECK_STR(out__escape(buf, sizeof(buf), "Xorg"), "Xorg");
	CHECK_STR(out__escape(buf, sizeof(buf), "a\tb\\c\x7f\r"), "a\\tb\\\\c\\x7f\\r");
	/* cut whole escapes only */
	CHECK_STR(out__escape(buf, 6, "ab\033cd"), "ab");
	/*
	 * Every byte: shown as itself exactly when it is no control, backslash
	 * or DEL (perf-hwtrace.rst), by out__text_plain() and out__escape()
	 */
	for (int c = 1; c < 256; c++) {
		char s[4] = { 'a', (char)c, 'b', 0 };
		bool plain = c >= 0x20 && c != '\\' && c != 0x7f;

		CHECK_EQ(out__text_plain(s), plain ? 3u : 1u);
		CHECK_EQ(!strcmp(out__escape(buf, sizeof(buf), s), s), plain);
	}
	CHECK_EQ(out__text_plain(""), 0u);
}

/* JSON's escaping (RFC 8259, 7), written out: the reference for out__json_str() */
static size_t json_ref(char *d, const char *s)
{
	size_t n = 0;

	d[n++] = '"';
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			n += (size_t)sprintf(d + n, "\\%c", c);
		else if (c < 0x20)
			n += (size_t)sprintf(d + n, "\\u%04x", c);
		else
			d[n++] = (char)c;
	}
	d[n++] = '"';
	return n;
}

/*
 * out__json_str() and out__put_json_name() look at 16 bytes a step where
 * those do not cross a page: plain strings of 0 to 40 bytes, and with a
 * '"', a '\\' or a control at each place, laid out to end at every offset
 * before a page boundary (where the 16-byte steps must stop).
 */
static void test_json_str_steps(void)
{
	static const char odd[] = { '"', '\\', '\x01', '\x1f' };
	long page = sysconf(_SC_PAGESIZE);
	char *mem = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char want[256], name[128];
	struct out o;

	CHECK(mem != MAP_FAILED);
	if (mem == MAP_FAILED)
		return;
	/* the second page unreadable: a read past it would fault */
	CHECK_EQ(mprotect(mem + page, (size_t)page, PROT_NONE), 0);
	for (int len = 0; len <= 40; len++) {
		for (int at = -1; at < len; at++) {
			for (size_t k = 0; k < (at < 0 ? 1 : sizeof(odd)); k++) {
				for (int end = 0; end < 20; end++) {
					char *s = mem + page - 1 - end - len;
					size_t wn;
					char *q;

					for (int i = 0; i < len; i++)
						s[i] = (char)('a' + i % 26);
					if (at >= 0)
						s[at] = odd[k];
					s[len] = 0;
					wn = json_ref(want, s);
					out__init(&o, -1);
					out__json_str(&o, s);
					CHECK_EQ(o.len, wn);
					CHECK(!memcmp(o.buf, want, wn));
					q = out__put_json_name(name, s, 64);
					if (at >= 0)
						CHECK(q == NULL);
					else
						CHECK(q && (size_t)(q - name) == wn &&
						      !memcmp(name, want, wn));
					/* longer than @max: not written */
					CHECK(len < 1 || out__put_json_name(name, s, (size_t)len - 1) == NULL);
				}
			}
		}
	}
	munmap(mem, (size_t)page * 2);
}

/* out__text_str() on strings longer than its pieces: every byte, in order */
static void test_text_str_long(void)
{
	char in[300], want[1300];
	size_t n = 0;
	struct out o;

	for (int i = 0; i < 299; i++) {
		in[i] = i % 7 == 3 ? '\033' : 'a' + i % 26;
		n += sprintf(want + n, i % 7 == 3 ? "\\x1b" : "%c", in[i]);
	}
	in[299] = 0;
	out__init(&o, -1);
	out__text_str(&o, in);
	CHECK_EQ(o.len, n);
	CHECK(!memcmp(o.buf, want, n));
}

/*
 * An out flushing into memory (out__init_mem): 200 KiB of numbered lines
 * and one 150 KiB write cross several flushes and arena growths; the arena
 * holds every byte in order, as snprintf writes the same lines.
 */
static void test_out_mem(void)
{
	static struct out o;
	struct membuf m = { 0 };
	size_t n = 0, cap = 400000;
	char *want = malloc(cap), *big = malloc(150000);

	CHECK(want && big);
	if (!want || !big)
		goto out;
	out__init_mem(&o, &m);
	for (uint64_t i = 0; n < 200000; i++) {
		out__u64(&o, i * 7919);
		out__putc(&o, '\n');
		n += snprintf(want + n, cap - n, "%llu\n", (unsigned long long)(i * 7919));
	}
	for (int i = 0; i < 150000; i++)
		big[i] = 'a' + i % 26;
	out__write_slow(&o, big, 150000);	/* what out__write() calls for it */
	memcpy(want + n, big, 150000);
	n += 150000;
	CHECK(m.len < n);	/* the tail is still in the buffer */
	out__flush(&o);
	CHECK_EQ(o.error, 0);
	CHECK_EQ(m.len, n);
	CHECK(m.cap >= m.len);
	CHECK(!memcmp(m.p, want, n));
out:
	free(m.p);
	free(want);
	free(big);
}

/* out__double() of @v against snprintf("%.15g"); counts a mismatch once */
static int double_differs(double v)
{
	char want[64];
	struct out o;
	int n = snprintf(want, sizeof(want), "%.15g", v);

	out__init(&o, -1);
	out__double(&o, v);
	if (o.len == (size_t)n && !memcmp(o.buf, want, n))
		return 0;
	fprintf(stderr, "out__double(%a): \"%.*s\", snprintf: \"%s\"\n", v, (int)o.len, o.buf, want);
	return 1;
}

/*
 * out__double() is printf's "%.15g" byte for byte: random bit patterns,
 * random mantissas over the exponents that print plain (and around them),
 * decimal fractions like metric values, powers of ten and their neighbours
 * (the exponent changes there), dyadic ties at the 16th digit (ties to even)
 * and the specials.
 */
static void test_double_g15(void)
{
	uint64_t s = 0x9e3779b97f4a7c15ull;
	int bad = 0;
	static const double special[] = {
		0.0, -0.0, 1.0, -1.0, 0.5, 1e-4, 1e-5, 9.99999999999999e-5, 1e15, 1e15 - 1,
		999999999999999.4, 999999999999999.5, 0.1, 1.0 / 3, 2.0 / 3, 123456789012.0625,
		123456789012.1875, 1e300, 5e-324, 2.2250738585072014e-308,
	};

	for (unsigned i = 0; i < sizeof(special) / sizeof(special[0]); i++) {
		bad += double_differs(special[i]);
		bad += double_differs(-special[i]);
	}
	bad += double_differs(__builtin_nan(""));
	bad += double_differs(__builtin_inf());
	bad += double_differs(-__builtin_inf());
	for (int i = 0; i < 200000 && bad < 10; i++) {
		uint64_t r = rnd(&s), bits;
		double v;
		int e10;

		/* any bit pattern */
		memcpy(&v, &r, 8);
		bad += double_differs(v);
		/* a random mantissa, binary exponent 2^-20 .. 2^55 */
		bits = (r & ((1ull << 52) - 1)) | (uint64_t)(1023 - 20 + rnd(&s) % 76) << 52 |
		       (r >> 63) << 63;
		memcpy(&v, &bits, 8);
		bad += double_differs(v);
		/* a decimal fraction: integer / 10^k */
		e10 = (int)(rnd(&s) % 22);
		v = (double)(rnd(&s) >> (rnd(&s) % 64)) / 1e10 * __builtin_powi(10.0, e10 - 10);
		bad += double_differs(v);
		/* 10^k and its neighbours */
		v = __builtin_powi(10.0, (int)(rnd(&s) % 24) - 6);
		bad += double_differs(v);
		bad += double_differs(__builtin_nextafter(v, 0));
		bad += double_differs(__builtin_nextafter(v, 1e300));
		/* 16+ digits ending in 5 exactly: ties at the 15th digit */
		v = (double)(rnd(&s) % 10000000000000000ull | 1) / 16;
		bad += double_differs(v);
		v = (double)(rnd(&s) % 100000000000000000ull) / (1 << (rnd(&s) % 12));
		bad += double_differs(v);
	}
	CHECK_EQ(bad, 0);
}

/* whether out__put_fixed(@v, @d) differs from snprintf's "%.<d>f", or takes what it must refuse */
static int fixed_differs(double v, unsigned int d)
{
	static const double lim[] = { 0, 0x1p51 / 10, 0x1p51 / 100, 0x1p51 / 1000 };
	char want[400], got[64 + OUT_NUM_ROOM], *end = out__put_fixed(got, v, d);
	int n = snprintf(want, sizeof(want), "%.*f", (int)d, v);

	if (!(v >= 0 && v < lim[d]) || __builtin_signbit(v))
		return end != NULL;	/* refused: the caller takes printf */
	if (end && end - got == n && !memcmp(got, want, n))
		return 0;
	fprintf(stderr, "out__put_fixed(%a, %u): \"%.*s\", snprintf: \"%s\"\n", v, d,
		end ? (int)(end - got) : 4, end ? got : "NULL", want);
	return 1;
}

static int fixed_all_differ(double v)
{
	return fixed_differs(v, 1) + fixed_differs(v, 2) + fixed_differs(v, 3);
}

/*
 * out__put_fixed() is printf's "%.1f" (top's percentages and sizes),
 * "%.2f" (top's JSON percentages) and "%.3f": ties to even (0.25, 0.125,
 * k + 0.x5 exact in binary), values a hair either side of each tie and of
 * the range's end, sizes as human_bytes() divides them, any bit pattern.
 */
static void test_fixed(void)
{
	uint64_t s = 0x2545f4914f6cdd1dull;
	int bad = 0;

	for (int k = 0; k < 80000; k++) {
		double tie = k / 80.0;	/* every x.xx5, x.x25, ... below 1000 */

		bad += fixed_all_differ(tie);
		bad += fixed_all_differ(__builtin_nextafter(tie, 0));
		bad += fixed_all_differ(__builtin_nextafter(tie, 1e300));
		bad += fixed_all_differ(k / 1000.0);
		bad += fixed_all_differ(k / 1024.0);
	}
	for (unsigned int d = 1; d <= 3; d++) {
		double lim = 0x1p51 / (d == 1 ? 10 : d == 2 ? 100 : 1000);

		bad += fixed_differs(lim, d);
		bad += fixed_differs(__builtin_nextafter(lim, 0), d);
		CHECK(!out__put_fixed((char[64 + OUT_NUM_ROOM]){ 0 }, 1.5, d == 1 ? 0 : 3 + d));
	}
	bad += fixed_all_differ(-0.0);
	bad += fixed_all_differ(-1.0);
	bad += fixed_all_differ(__builtin_nan(""));
	bad += fixed_all_differ(__builtin_inf());
	for (int i = 0; i < 300000 && bad < 10; i++) {
		uint64_t r = rnd(&s), bits;
		double v;
		int u = (int)(rnd(&s) % 6);

		memcpy(&v, &r, 8);
		bad += fixed_all_differ(v);
		bits = (r & ((1ull << 52) - 1)) | (uint64_t)(1023 - 30 + rnd(&s) % 82) << 52;
		memcpy(&v, &bits, 8);
		bad += fixed_all_differ(v);
		/* a size in bytes over 1024^u, as human_bytes() does it */
		v = (double)(rnd(&s) >> (rnd(&s) % 64));
		while (u--)
			v /= 1024;
		bad += fixed_all_differ(v);
		/* a busy percentage: ns over ns */
		bad += fixed_all_differ(100.0 * (double)(rnd(&s) % 1000000007) / 1000000007.0);
	}
	CHECK_EQ(bad, 0);
}

/* @rec shown twice through @v: with the metrics @first, then @second */
static void with_metrics(struct out *o, struct field_views *v, struct hwt_record *rec,
			 const struct hwt_metrics *first, const struct hwt_metrics *second)
{
	rec->metrics = first;
	field_fmt__record(o, v, rec);
	rec->metrics = second;
	field_fmt__record(o, v, rec);
}

/*
 * Metrics after a record's fields: the keys of each set are made once, so
 * records of two sets in turn, a set whose names change in place, and -F
 * must each still print their own keys.
 */
static void test_metrics_views(void)
{
	static const struct hwt_metric_def a_defs[] = {
		{ .name = "GpuBusy" }, { .name = "Odd\"Name" }, { .name = "Clocks", .integer = true },
	};
	struct hwt_metric_def b_defs[] = { { .name = "Y" }, { .name = "Z" } };
	static const double a_vals[] = { 10.5, 0.25, 7 }, b_vals[] = { 1, 0.0 / 0.0 };
	static const uint64_t a_uvals[] = { 0, 0, 123456789012ull };
	const struct hwt_metrics a = { .set = "A", .defs = a_defs, .vals = a_vals, .uvals = a_uvals,
				       .n = 3 };
	const struct hwt_metrics b = { .set = "B", .defs = b_defs, .vals = b_vals, .n = 2 };
	static const char *const only[] = { "count", "Clocks", "Z" };
	struct rec r = { .count = 5 };
	struct hwt_record rec = { .type = &type, .data = &r };
	struct field_views v;
	struct out o;

	out__init(&o, -1);
	field_views__init(&v, FS_JSON, NULL, 0);
	with_metrics(&o, &v, &rec, &a, &b);
	b_defs[0].name = "W";	/* the same array, another name */
	with_metrics(&o, &v, &rec, &b, &a);
	field_views__fini(&v);
	o.buf[o.len] = 0;
	CHECK_STR(o.buf,
		  "{\"type\":\"t\",\"cpu\":0,\"mask\":\"0x0\",\"count\":5,\"arr\":[0,0],\"name\":\"\","
		  "\"metrics\":{\"GpuBusy\":10.5,\"Odd\\\"Name\":0.25,\"Clocks\":123456789012}}\n"
		  "{\"type\":\"t\",\"cpu\":0,\"mask\":\"0x0\",\"count\":5,\"arr\":[0,0],\"name\":\"\","
		  "\"metrics\":{\"Y\":1,\"Z\":null}}\n"
		  "{\"type\":\"t\",\"cpu\":0,\"mask\":\"0x0\",\"count\":5,\"arr\":[0,0],\"name\":\"\","
		  "\"metrics\":{\"W\":1,\"Z\":null}}\n"
		  "{\"type\":\"t\",\"cpu\":0,\"mask\":\"0x0\",\"count\":5,\"arr\":[0,0],\"name\":\"\","
		  "\"metrics\":{\"GpuBusy\":10.5,\"Odd\\\"Name\":0.25,\"Clocks\":123456789012}}\n");

	/* -F: the named fields and metrics; text style */
	out__init(&o, -1);
	field_views__init(&v, FS_TEXT, only, 3);
	with_metrics(&o, &v, &rec, &a, &b);
	field_views__fini(&v);
	o.buf[o.len] = 0;
	CHECK_STR(o.buf, "t: count=5 Clocks=123456789012\nt: count=5 Z=-\n");
}

int main(void)
{
	RUN(test_bases);
	RUN(test_list_exact);
	RUN(test_u64_list);
	RUN(test_cpu_avx2);
	RUN(test_one_base_per_name);
	RUN(test_escape);
	RUN(test_json_str_steps);
	RUN(test_text_str_long);
	RUN(test_out_mem);
	RUN(test_double_g15);
	RUN(test_fixed);
	RUN(test_metrics_views);
	return check_done("output");
}
