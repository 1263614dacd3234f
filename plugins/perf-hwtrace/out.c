// SPDX-License-Identifier: GPL-2.0
/* out.c - buffered output with hand-rolled number formatting. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
/* AddressSanitizer: no read past a string's end, even within its page */
#if defined(__SANITIZE_ADDRESS__)
#define OUT_NO_OVERREAD
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OUT_NO_OVERREAD
#endif
#endif

#include "core/cpu.h"
#include "out.h"

void out__init(struct out *o, int fd)
{
	o->fd = fd;
	o->len = 0;
	o->error = 0;
	o->mem = NULL;
}

void out__init_mem(struct out *o, struct membuf *m)
{
	out__init(o, -1);
	o->mem = m;
}

void out__fail(struct out *o, int err)
{
	if (o->error)
		return;
	o->error = err;
	if (!o->mem && o->fd == STDOUT_FILENO)
		out__stdout_failed(err);
}

/* all @n bytes at @p to the fd, unless a write fails (then writes stop) */
static void write_all(struct out *o, const char *p, size_t n)
{
	while (n && !o->error) {
		ssize_t w = write(o->fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			out__fail(o, errno);
			break;
		}
		p += w;
		n -= w;
	}
}

void out__flush(struct out *o)
{
	if (o->mem) {
		if (!o->error)
			membuf__put(o->mem, o->buf, o->len);
		if (o->mem->oom)
			o->error = ENOMEM;
	} else {
		write_all(o, o->buf, o->len);
	}
	o->len = 0;
}

/* ---- stdout and the exit path ------------------------------------------ */

static struct out *stdout_out;
static int stdout_error;		/* errno of the first failed write to stdout */
static const char *verb = "";

struct out *out__stdout(void)
{
	if (!stdout_out) {
		stdout_out = malloc(sizeof(*stdout_out));
		if (!stdout_out) {
			fputs("perf hwtrace: out of memory\n", stderr);
			_exit(1);
		}
		out__init(stdout_out, STDOUT_FILENO);
	}
	return stdout_out;
}

void out__write_error(int err)
{
	fprintf(stderr, "perf hwtrace%s%s: write error: %s\n", *verb ? " " : "", verb,
		strerror(err));
}

void out__stdout_failed(int err)
{
	if (err == EPIPE)
		_exit(OUT_EXIT_PIPE);
	if (!stdout_error)
		stdout_error = err;
}

void out__path_failed(const char *path, int err)
{
	if (!strcmp(path, "-"))
		out__stdout_failed(err);
	else
		fprintf(stderr, "perf hwtrace%s%s: %s: %s\n", *verb ? " " : "", verb, path,
			strerror(err));
}

static void on_sigpipe(int sig)
{
	(void)sig;
	_exit(OUT_EXIT_PIPE);
}

void out__catch_sigpipe(void)
{
	struct sigaction sa = { .sa_handler = on_sigpipe };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
}

/* The exit path: whatever is left goes out, and a lost write is said. */
static void check_stdout(void)
{
	if (stdout_out)
		out__flush(stdout_out);
	errno = 0;
	if (fflush(stdout) == EOF || ferror(stdout))
		out__stdout_failed(errno ? errno : EIO);
	if (!stdout_error)
		return;
	out__write_error(stdout_error);
	_exit(1);
}

/*
 * A closed stdout or stderr stays taken, so that no file opened later becomes
 * fd 1 or 2: writes to stdout then fail with EBADF, stderr goes nowhere.
 */
static void hold_std_fds(void)
{
	static const struct { int fd, flags; } std[] = {
		{ STDOUT_FILENO, O_RDONLY }, { STDERR_FILENO, O_WRONLY },
	};

	for (size_t i = 0; i < sizeof(std) / sizeof(std[0]); i++) {
		int fd;

		if (fcntl(std[i].fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		fd = open("/dev/null", std[i].flags);	/* the lowest free fd: often std[i].fd */
		if (fd >= 0 && fd != std[i].fd) {
			dup2(fd, std[i].fd);
			close(fd);
		}
	}
}

void out__setup(const char *name)
{
	static bool done;

	verb = name ? name : "";
	if (done)
		return;
	done = true;
	hold_std_fds();
	out__catch_sigpipe();
	atexit(check_stdout);
}

void out__write_slow(struct out *o, const void *p, size_t n)
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

void out__write_direct(struct out *o, const void *p, size_t n)
{
	/* a copy is cheaper than a write only for a few KiB */
	if (o->mem || n <= 4096) {
		out__write(o, p, n);
		return;
	}
	out__flush(o);
	write_all(o, p, n);
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

/*
 * Decimal formatting is most of what `script --json` does: a few hundred
 * numbers per OA report.  On little-endian machines the digits of 8-digit
 * blocks are computed in parallel lanes (SWAR, or SSE2 for two blocks at
 * once) and stored 8 bytes at a time, so callers leave room for 8-byte
 * stores past the number (NUM_ROOM).
 */
#define NUM_ROOM 24

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ASCII0 0x3030303030303030ull

/*
 * The 8 decimal digits of @v < 10^8 as one byte each (values 0-9), the most
 * significant digit in the lowest byte, i.e. first in memory.  Split into two
 * 4-digit lanes of 32 bits, those into 2-digit lanes of 16 bits, those into
 * tens and ones, dividing by multiply-and-shift within each lane
 * (x * 10486 >> 20 == x / 100 for x < 10^4, x * 103 >> 10 == x / 10 for
 * x < 100; no product spills into the next lane).
 */
static inline uint64_t digits8(uint32_t v)
{
	uint64_t x = v / 10000 | (uint64_t)(v % 10000) << 32;
	uint64_t y = ((x * 10486) >> 20) & 0x0000007f0000007full;
	uint64_t w = y | (x - y * 100) << 16;
	uint64_t t = ((w * 103) >> 10) & 0x000f000f000f000full;

	return t | (w - t * 10) << 8;
}

/*
 * digits8() of each 64-bit lane of a vector (each < 10^8), the same steps:
 * / 10^4 as mul 0xd1b71759 >> 45, / 100 as mulhi 5243 >> 3, / 10 as mulhi
 * 6554.  Written once for SSE2 and AVX2: @V the vector type, @P and @S the
 * intrinsics' prefix and integer suffix (_mm/si128, _mm256/si256).
 */
#define DEFINE_DIGITS8_LANES(name, V, P, S, attr)						\
attr static inline V name(V x)									\
{												\
	V q = P##_srli_epi64(P##_mul_epu32(x, P##_set1_epi64x(0xd1b71759)), 45);		\
	V r = P##_sub_epi32(x, P##_mul_epu32(q, P##_set1_epi64x(10000)));			\
	V y = P##_or_##S(q, P##_slli_epi64(r, 32));						\
	V q2 = P##_srli_epi16(P##_mulhi_epu16(y, P##_set1_epi16(5243)), 3);			\
	V r2 = P##_sub_epi16(y, P##_mullo_epi16(q2, P##_set1_epi16(100)));			\
	V z = P##_or_##S(q2, P##_slli_epi32(r2, 16));						\
	V t = P##_mulhi_epu16(z, P##_set1_epi16(6554));						\
	V u = P##_sub_epi16(z, P##_mullo_epi16(t, P##_set1_epi16(10)));			\
												\
	return P##_or_##S(t, P##_slli_epi16(u, 8));						\
}

#ifdef __SSE2__
DEFINE_DIGITS8_LANES(digits8x2, __m128i, _mm, si128, )
#endif

/* digits8() of @h and @l (both < 10^8) */
static inline void digits16(uint32_t h, uint32_t l, uint64_t *dh, uint64_t *dl)
{
#ifdef __SSE2__
	__m128i d = digits8x2(_mm_set_epi64x(l, h));

	*dh = (uint64_t)_mm_cvtsi128_si64(d);
	*dl = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(d, d));
#else
	*dh = digits8(h);
	*dl = digits8(l);
#endif
}

/* digits8() output @d without its leading zeros ("0" for 0); returns the end */
static inline char *put_trimmed(char *p, uint64_t d)
{
	/* zero bytes before the first digit; 0 keeps its last byte ("0") */
	unsigned lz = (unsigned)__builtin_ctzll(d | 1ull << 56) >> 3;
	uint64_t a = (d + ASCII0) >> (8 * lz);

	memcpy(p, &a, 8);
	return p + 8 - lz;
}

/* all 8 digits of @d */
static inline char *put_full(char *p, uint64_t d)
{
	uint64_t a = d + ASCII0;

	memcpy(p, &a, 8);
	return p + 8;
}

/* @v in decimal at @p (NUM_ROOM bytes free); returns the end */
static inline char *fmt_u64(char *p, uint64_t v)
{
	uint64_t hi, dh, dl;

	/* one number of 8 digits or fewer: the scalar lanes have the shorter chain */
	if (v < 100000000)
		return put_trimmed(p, digits8((uint32_t)v));
	if (v < 10000000000000000ull) {
		hi = v / 100000000;
		digits16(hi, v - hi * 100000000, &dh, &dl);
		return hi ? put_full(put_trimmed(p, dh), dl) : put_trimmed(p, dl);
	}
	hi = v / 10000000000000000ull;		/* at most 1844 */
	v -= hi * 10000000000000000ull;
	p = put_trimmed(p, digits8(hi));
	hi = v / 100000000;
	digits16(hi, v - hi * 100000000, &dh, &dl);
	return put_full(put_full(p, dh), dl);
}

/* Two numbers below 10^8 with @sep between them: one digits16() for both. */
static inline char *fmt_pair(char *p, uint32_t a, uint32_t b, char sep)
{
	uint64_t da, db;

	digits16(a, b, &da, &db);
	p = put_trimmed(p, da);
	*p++ = sep;
	return put_trimmed(p, db);
}

#else	/* big-endian: plain digit loop */

static inline char *fmt_u64(char *p, uint64_t v)
{
	char tmp[20];
	int i = sizeof(tmp);

	do {
		tmp[--i] = '0' + v % 10;
		v /= 10;
	} while (v);
	memcpy(p, tmp + i, sizeof(tmp) - i);
	return p + sizeof(tmp) - i;
}

static inline char *fmt_pair(char *p, uint32_t a, uint32_t b, char sep)
{
	p = fmt_u64(p, a);
	*p++ = sep;
	return fmt_u64(p, b);
}
#endif

/* At least @n free bytes at the end of the buffer (@n <= its size). */
static inline char *room(struct out *o, size_t n)
{
	return out__room(o, n);
}

char *out__put_u64(char *p, uint64_t v)
{
	return fmt_u64(p, v);
}

/*
 * "%.Nf" of @x as printf rounds it, N = @decimals (1 to 3): x * 10^N is
 * t + e exactly (t the rounded product, e its error by Dekker's product:
 * x split into two halves of 26 bits, each times 10^N exact), rounded to
 * the nearest integer, ties to even.  Exact only without contraction into
 * fused multiply-adds (no -mfma; tests/unit/test_output.c would tell), and
 * without libm's fma(): the tool links no libm, as its start-up is timed.
 */
char *out__put_fixed(char *p, double x, unsigned int decimals)
{
	static const double pow10[] = { 1, 10, 100, 1000 };
	double m, t, e, f, frac;
	uint64_t r, div;

	if (decimals < 1 || decimals > 3)
		return NULL;
	m = pow10[decimals];
	div = (uint64_t)m;
	if (!(x >= 0 && x * m < 0x1p51) || signbit(x))
		return NULL;	/* NaN, negative, -0 ("-0.0"), or t's ulp above 1/4 */
	t = x * m;
	{
		double c = x * 134217729.0, hi = c - (c - x), lo = x - hi;	/* 2^27 + 1 */

		e = (hi * m - t) + lo * m;	/* exact: x * m == t + e */
	}
	f = floor(t);
	frac = t - f;		/* exact: t < 2^51, a multiple of t's ulp */
	r = (uint64_t)f;
	/* |e| <= half t's ulp, frac a multiple of it: e decides an exact half only */
	if (frac > 0.5 || (frac == 0.5 && (e > 0 || (e == 0 && (r & 1)))))
		r++;
	p = fmt_u64(p, r / div);
	*p++ = '.';
	for (uint64_t d = div / 10, v = r % div; d; d /= 10)
		*p++ = (char)('0' + v / d % 10);
	return p;
}

void out__u64(struct out *o, uint64_t v)
{
	char *p = room(o, NUM_ROOM);

	o->len = fmt_u64(p, v) - o->buf;
}

/* out__allow_avx2(): tests take the path without AVX2 too */
static bool avx2_allowed = true;

#if defined(__x86_64__) && defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#include <immintrin.h>
#define OUT_AVX2_LIST 1

DEFINE_DIGITS8_LANES(digits8x4, __m256i, _mm256, si256, __attribute__((target("avx2"))))

/*
 * fmt_u64() for u64_run_avx2(), compiled for AVX2 as well.  That loop must
 * not call the SSE2 build: SSE2 code run while the upper halves of the AVX
 * registers are in use costs about a hundred cycles a call on the CPUs we
 * run on (a list where 9-digit and 7-digit numbers mix, as raw counters
 * do, took 26 ns a number instead of 8).
 */
__attribute__((target("avx2"), flatten))
static char *fmt_u64_avx2(char *p, uint64_t v)
{
	return fmt_u64(p, v);
}

/*
 * out__u64_list()'s inner loop with AVX2: four numbers below 10^8 (counter
 * deltas) take one digits8x4(), and two of 9 to 16 digits (raw counters)
 * one for their four 8-digit halves; the rest as without AVX2.  Returns
 * the end; *@i moves past what was written.
 */
__attribute__((target("avx2")))
static char *u64_run_avx2(char *p, const uint64_t *v, uint32_t *pi, uint32_t end, char sep)
{
	const __m256i bias = _mm256_set1_epi64x((long long)(1ull << 63));
	const __m256i max8 = _mm256_set1_epi64x((long long)((1ull << 63) + 99999999));
	uint64_t d[4];
	uint32_t i = *pi;

	while (i < end) {
		*p = sep;
		p += i != 0;
		if (i + 4 <= end) {
			/* unsigned v > 10^8 - 1, as a signed compare of v - 2^63 */
			__m256i x = _mm256_loadu_si256((const __m256i *)(v + i));
			__m256i big = _mm256_cmpgt_epi64(_mm256_xor_si256(x, bias), max8);

			if (_mm256_testz_si256(big, big)) {
				_mm256_storeu_si256((__m256i *)d, digits8x4(x));
				p = put_trimmed(p, d[0]);
				*p++ = sep;
				p = put_trimmed(p, d[1]);
				*p++ = sep;
				p = put_trimmed(p, d[2]);
				*p++ = sep;
				p = put_trimmed(p, d[3]);
				i += 4;
				continue;
			}
		}
		if (i + 1 < end && v[i] - 100000000 < 10000000000000000ull - 100000000 &&
		    v[i + 1] - 100000000 < 10000000000000000ull - 100000000) {
			uint64_t h0 = v[i] / 100000000, h1 = v[i + 1] / 100000000;

			_mm256_storeu_si256((__m256i *)d, digits8x4(_mm256_set_epi64x(
				(long long)(v[i + 1] - h1 * 100000000), (long long)h1,
				(long long)(v[i] - h0 * 100000000), (long long)h0)));
			p = put_full(put_trimmed(p, d[0]), d[1]);
			*p++ = sep;
			p = put_full(put_trimmed(p, d[2]), d[3]);
			i += 2;
		} else if (i + 1 < end && v[i] < 100000000 && v[i + 1] < 100000000) {
			p = fmt_pair(p, (uint32_t)v[i], (uint32_t)v[i + 1], sep);
			i += 2;
		} else {
			p = fmt_u64_avx2(p, v[i]);
			i++;
		}
	}
	*pi = i;
	return p;
}
#endif

void out__allow_avx2(bool allow)
{
	__atomic_store_n(&avx2_allowed, allow, __ATOMIC_RELAXED);
}

void out__u64_list(struct out *o, const uint64_t *v, uint32_t n, char sep)
{
	uint32_t i = 0;

#ifdef OUT_AVX2_LIST
	if (__atomic_load_n(&avx2_allowed, __ATOMIC_RELAXED) && hwt_cpu__have_avx2()) {
		while (i < n) {
			uint32_t end = n - i < 64 ? n : i + 64;
			char *p = room(o, (NUM_ROOM + 1) * (end - i));

			o->len = u64_run_avx2(p, v, &i, end, sep) - o->buf;
		}
		return;
	}
#endif
	while (i < n) {
		/* room for a batch, then no check (and no o->len reload) per number */
		uint32_t end = n - i < 64 ? n : i + 64;
		char *p = room(o, (NUM_ROOM + 1) * (end - i));

		while (i < end) {
			*p = sep;
			p += i != 0;
			if (i + 1 < end && v[i] < 100000000 && v[i + 1] < 100000000) {
				p = fmt_pair(p, (uint32_t)v[i], (uint32_t)v[i + 1], sep);
				i += 2;
			} else {
				p = fmt_u64(p, v[i]);
				i++;
			}
		}
		o->len = p - o->buf;
	}
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

/*
 * Metric values are doubles printed as "%.15g", and snprintf's exact
 * big-number conversion was most of `script --metrics --json`.  %.15g prints
 * plain digits when the decimal exponent X of the value rounded to 15 digits
 * is in [-4, 14]; those 15 digits are round(|v| * 10^(14 - X)).  With
 * |v| = m * 2^q (m < 2^53) and 14 - X <= 19 (10^19 < 2^64), m * 10^(14 - X)
 * fits 128 bits, so the product, its integer part and the rest against one
 * half are exact, and ties go to even as in glibc's default rounding mode.
 * Exponent notation, NaN, infinities and subnormals go to snprintf.
 */
static const uint64_t pow10_u64[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
	1000000000000ull, 10000000000000ull, 100000000000000ull,
	1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
	1000000000000000000ull, 10000000000000000000ull,
};

/*
 * floor(m * 10^k * 2^q) and where the dropped rest lies: 0 none, 1 below a
 * half, 2 a half, 3 above; the caller keeps the result below 10^16.
 */
static uint64_t scale_exact(uint64_t m, int q, unsigned k, int *rest)
{
	unsigned __int128 x = (unsigned __int128)m * pow10_u64[k], ip, fr, half;

	if (q >= 0) {
		*rest = 0;
		return (uint64_t)(x << q);
	}
	if (q > -64) {
		/* the usual case: the dropped bits are in the low word */
		uint64_t lo = (uint64_t)x, hi = (uint64_t)(x >> 64);
		uint64_t f = lo & ((1ull << -q) - 1), h = 1ull << (-q - 1);

		*rest = !f ? 0 : f < h ? 1 : f == h ? 2 : 3;
		return hi << (64 + q) | lo >> -q;
	}
	ip = x >> -q;
	fr = x - (ip << -q);
	half = (unsigned __int128)1 << (-q - 1);
	*rest = !fr ? 0 : fr < half ? 1 : fr == half ? 2 : 3;
	return (uint64_t)ip;
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * The 15 digits of @n (10^14 <= n < 10^15) at @p with the decimal point
 * for exponent @e (-4..14), trailing zeros dropped; returns the length.
 * The digits come as two digits8() words; the trailing zeros are the zero
 * bytes at the top of the last word; the pieces go with fixed 16-byte
 * stores (NUM_ROOM + 16 bytes free).
 */
static int put_g15_digits(char *p, uint64_t n, int e)
{
	uint64_t hi = n / 100000000, dh, dl, a, b;
	char t[40];
	const char *dig = t + 1;	/* dh's first digit is hi's leading zero */
	int nd;

	digits16((uint32_t)hi, (uint32_t)(n - hi * 100000000), &dh, &dl);
	nd = 15 - (dl ? __builtin_clzll(dl) >> 3 : 8 + (__builtin_clzll(dh) >> 3));
	a = dh + ASCII0;
	b = dl + ASCII0;
	memcpy(t, &a, 8);
	memcpy(t + 8, &b, 8);
	memset(t + 16, '0', 24);
	if (e < 0) {
		/* 0.000ddd */
		memcpy(p, "0.000000", 8);
		memcpy(p + 1 - e, dig, 16);
		return 1 - e + nd;
	}
	memcpy(p, dig, 16);
	if (nd <= e + 1)
		return e + 1;	/* an integer */
	p[e + 1] = '.';
	memcpy(p + e + 2, dig + e + 1, 16);
	return nd + 1;
}
#else
static int put_g15_digits(char *p, uint64_t n, int e)
{
	char d[32];
	int nd, len = 0;

	fmt_u64(d, n);			/* 15 digits */
	for (nd = 15; d[nd - 1] == '0'; nd--)
		;
	if (e >= 0) {
		memcpy(p + len, d, e + 1);
		len += e + 1;
		if (nd > e + 1) {
			p[len++] = '.';
			memcpy(p + len, d + e + 1, nd - e - 1);
			len += nd - e - 1;
		}
	} else {
		p[len++] = '0';
		p[len++] = '.';
		for (int i = 0; i < -e - 1; i++)
			p[len++] = '0';
		memcpy(p + len, d, nd);
		len += nd;
	}
	return len;
}
#endif

/* 10^-5 .. 10^16 as doubles (exact from 10^0 up) */
static const double pow10_double[22] = {
	1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
};

/* the digits of "%.15g" of @v into @p, or 0 if they need snprintf; returns the length */
static int fmt_g15(char *p, double v)
{
	uint64_t bits, m, n;
	int be, q, e, rest, len = 0;

	memcpy(&bits, &v, 8);
	be = (int)(bits >> 52 & 0x7ff);
	/* 2^-15 < 10^-4 rounded down, 2^50 > 10^15: outside is never plain */
	if (be < 1023 - 15 || be >= 1023 + 50)
		return 0;
	if (bits >> 63)
		p[len++] = '-';
	m = (bits & ((1ull << 52) - 1)) | 1ull << 52;
	q = be - 1075;
	/* an integer below 10^15 prints as one */
	if (q >= 0 || (q > -53 && !(m & ((1ull << -q) - 1)))) {
		n = q >= 0 ? m << q : m >> -q;
		if (n < pow10_u64[15])
			return (int)(fmt_u64(p + len, n) - p);
	}
	/*
	 * e = floor(log10(2^(be - 1023))) is X or X - 1; then the e that puts
	 * floor(|v| * 10^(14 - e)) in [10^14, 10^15)
	 */
	e = ((be - 1023) * 78913) >> 18;
	if (e < -5)
		e = -5;
	/* most often right at once (a wrong guess costs one more scaling) */
	if (e < 14 && fabs(v) >= pow10_double[e + 1 + 5])
		e++;
	for (;;) {
		n = scale_exact(m, q, 14 - e, &rest);
		if (n >= pow10_u64[15] && e < 14)
			e++;
		else if (n < pow10_u64[14] && e > -5)
			e--;
		else
			break;
	}
	if (n < pow10_u64[14] || n >= pow10_u64[15])
		return 0;
	n += rest == 3 || (rest == 2 && (n & 1));
	if (n == pow10_u64[15]) {
		n = pow10_u64[14];
		e++;
	}
	if (e < -4 || e > 14)
		return 0;
	return len + put_g15_digits(p + len, n, e);
}

char *out__put_double(char *p, double v)
{
	int n = fmt_g15(p, v);

	if (!n)
		n = snprintf(p, OUT_NUM_ROOM, "%.15g", v);
	return p + n;
}

void out__double(struct out *o, double v)
{
	char *p = room(o, OUT_NUM_ROOM);

	o->len = out__put_double(p, v) - o->buf;
}

/*
 * "000102...feff": two hex digits per byte value.  A constant: rendering
 * threads (fmt_pool.c) share it, and one built on first use would be
 * written by two of them at once.
 */
static const char hex_pairs[513] =
	"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
	"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
	"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
	"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
	"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
	"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
	"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

void out__hex(struct out *o, uint64_t v, unsigned width)
{
	const char *pairs = hex_pairs;
	/* digits needed: 1 for 0, else ceil(bits / 4) */
	unsigned n = v ? (67 - (unsigned)__builtin_clzll(v)) / 4 : 1;
	char *p;

	if (n < width)
		n = width < 16 ? width : 16;
#if defined(__SSE2__)
	if (n == 16) {
		/*
		 * All 16 digits at once (-D prints every entry so): each byte,
		 * most significant first, split into its two nibbles, each
		 * turned into '0'-'9' or 'a'-'f' with no branch
		 */
		__m128i b = _mm_cvtsi64_si128((long long)__builtin_bswap64(v));
		__m128i lo = _mm_and_si128(b, _mm_set1_epi8(0x0f));
		__m128i hi = _mm_and_si128(_mm_srli_epi16(b, 4), _mm_set1_epi8(0x0f));
		__m128i nib = _mm_unpacklo_epi8(hi, lo);
		__m128i af = _mm_and_si128(_mm_cmpgt_epi8(nib, _mm_set1_epi8(9)),
					   _mm_set1_epi8('a' - '0' - 10));

		_mm_storeu_si128((__m128i *)room(o, 16),
				 _mm_add_epi8(nib, _mm_add_epi8(af, _mm_set1_epi8('0'))));
		o->len += 16;
		return;
	}
#endif
	p = room(o, n) + n;
	o->len += n;
	/* two digits per step from the end; leading zeros fall out of v >> 8 */
	for (unsigned i = n / 2; i; i--) {
		p -= 2;
		memcpy(p, pairs + 2 * (v & 0xff), 2);
		v >>= 8;
	}
	if (n & 1)
		p[-1] = pairs[2 * (v & 0xf) + 1];
}

/* Bytes a JSON string holds as themselves: not NUL, '"', '\\' or a control. */
static const uint8_t json_plain[256] = {
	[0x20 ... 0x21] = 1, [0x23 ... 0x5b] = 1, [0x5d ... 0xff] = 1,	/* 0x22 ", 0x5c \\ */
};

/*
 * The plain bytes @s starts with (json_plain), up to @max + 1 of them: @s
 * at the result is the NUL that ends a plain string, or a byte to escape,
 * or lies past @max.  16 bytes a step (SSE2) while they do not cross into
 * the next page: a control (NUL among them), '"' or '\\' ends the run.
 */
static inline size_t plain_len(const char *s, size_t max)
{
	size_t n = 0;

#if defined(__SSE2__) && !defined(OUT_NO_OVERREAD)
	while (n <= max && ((uintptr_t)(s + n) & 4095) <= 4096 - 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(s + n));
		__m128i ctl = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x1f)),
					     _mm_set1_epi8(0x1f));
		__m128i odd = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
					   _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
		unsigned stop = (unsigned)_mm_movemask_epi8(_mm_or_si128(ctl, odd));

		if (stop)
			return n + (size_t)__builtin_ctz(stop);
		n += 16;
	}
#endif
	while (n <= max && json_plain[(unsigned char)s[n]])
		n++;
	return n;
}

char *out__put_json_name(char *p, const char *s, size_t max)
{
	size_t n = plain_len(s, max);

	if (s[n] || n > max)
		return NULL;	/* too long, or a byte to escape */
	*p = '"';
	out__copy(p + 1, s, n);
	p[n + 1] = '"';
	return p + n + 2;
}

void out__json_str(struct out *o, const char *s)
{
	size_t n = plain_len(s, SIZE_MAX - 1);

	/* the common case, nothing to escape: one copy */
	if (!s[n] && n + 2 <= sizeof(o->buf)) {
		char *p = room(o, n + 2);

		*p = '"';
		if (n <= 16) {	/* names, ids: no call */
			o->len++;
			out__write(o, s, n);
			o->buf[o->len++] = '"';
			return;
		}
		memcpy(p + 1, s, n);
		p[n + 1] = '"';
		o->len += n + 2;
		return;
	}
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

/*
 * How text shows each byte: 0 as itself (the one definition of a plain
 * byte), else the letter of its escape (\n, \t, \r, \\), or 'x' for \xNN
 * (the other controls and DEL).  NUL ends a string.
 */
static const char text_esc[256] = {
	[0x00 ... 0x08] = 'x', ['\t'] = 't', ['\n'] = 'n', [0x0b ... 0x0c] = 'x',
	['\r'] = 'r', [0x0e ... 0x1f] = 'x', ['\\'] = '\\', [0x7f] = 'x',
};

/* The escape for byte @c, or 0 when it is shown as itself. */
static inline int text_escape(unsigned char c)
{
	return text_esc[c];
}

size_t out__text_plain(const char *s)
{
	size_t n = 0;

	while (s[n] && !text_esc[(unsigned char)s[n]])
		n++;
	return n;
}

void out__text_str(struct out *o, const char *s)
{
	char buf[4 * 64 + 1];
	size_t n = 0;

	/* the common case, nothing to escape: one copy */
	n = out__text_plain(s);
	out__write(o, s, n);
	for (s += n; *s; s += n) {
		char piece[64];

		/* at most 4 bytes per byte escaped: convert in pieces */
		for (n = 0; s[n] && n < sizeof(piece) - 1; n++)
			piece[n] = s[n];
		piece[n] = 0;
		out__puts(o, out__escape(buf, sizeof(buf), piece));
	}
}

const char *out__escape(char *buf, size_t size, const char *s)
{
	static const char digits[] = "0123456789abcdef";
	size_t n = 0;

	for (; *s && n + 1 < size; s++) {
		unsigned char c = *s;
		int e = text_escape(c);

		if (!e) {
			buf[n++] = c;
		} else if (e != 'x') {
			if (n + 3 > size)
				break;
			buf[n++] = '\\';
			buf[n++] = e;
		} else {
			if (n + 5 > size)
				break;
			buf[n++] = '\\';
			buf[n++] = 'x';
			buf[n++] = digits[c >> 4];
			buf[n++] = digits[c & 0xf];
		}
	}
	buf[n] = 0;
	return buf;
}
