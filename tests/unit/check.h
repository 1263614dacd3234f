/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check.h - minimal C unit-test harness.
 *
 *	static void test_foo(void) { CHECK_EQ(1 + 1, 2); }
 *	int main(void) { RUN(test_foo); return check_done("foo"); }
 *
 * check_done() prints "<suite>: N passed, N failed" and returns the exit code.
 */
#ifndef HWTRACE_TEST_CHECK_H
#define HWTRACE_TEST_CHECK_H

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static int check_failures, check_passed, check_failed;
static const char *check_current;

#define CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: %s: CHECK(%s) failed\n", __FILE__, __LINE__, \
			check_current, #cond); \
		check_failures++; \
	} \
} while (0)

#define CHECK_EQ(a, b) do { \
	unsigned long long _a = (unsigned long long)(a), _b = (unsigned long long)(b); \
	if (_a != _b) { \
		fprintf(stderr, "%s:%d: %s: %s == %s failed: 0x%llx (%llu) != 0x%llx (%llu)\n", \
			__FILE__, __LINE__, check_current, #a, #b, _a, _a, _b, _b); \
		check_failures++; \
	} \
} while (0)

#define CHECK_STR(a, b) do { \
	const char *_a = (a), *_b = (b); \
	if (!_a || !_b || strcmp(_a, _b)) { \
		fprintf(stderr, "%s:%d: %s: %s == %s failed: \"%s\" != \"%s\"\n", \
			__FILE__, __LINE__, check_current, #a, #b, _a ? _a : "(null)", \
			_b ? _b : "(null)"); \
		check_failures++; \
	} \
} while (0)

#define RUN(fn) do { \
	int _before = check_failures; \
	check_current = #fn; \
	fn(); \
	if (check_failures == _before) \
		check_passed++; \
	else \
		check_failed++; \
} while (0)

/* mkdir -p of the directories in file path @path (not its last component) */
static inline void check_mkdirs(const char *path)
{
	char dir[1024];

	snprintf(dir, sizeof(dir), "%s", path);
	for (char *s = dir + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		CHECK(!mkdir(dir, 0755) || errno == EEXIST);
		*s = '/';
	}
}

/*
 * Write @text to @dir/@name (a sysfs or proc fixture), making the
 * directories on the way; a failure is a failed check.
 */
static inline void check_put_file(const char *dir, const char *name, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	check_mkdirs(path);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		CHECK(!fclose(f));
	}
}

/* A fixture tree below @dir: check_put_file() of each { name, text } of @files (@n) */
static inline void check_put_files(const char *dir, const char *const (*files)[2], size_t n)
{
	for (size_t i = 0; i < n; i++)
		check_put_file(dir, files[i][0], files[i][1]);
}

#define CHECK_NFILES(files) (sizeof(files) / sizeof((files)[0]))

static inline int check_done(const char *suite)
{
	printf("%s: %d passed, %d failed\n", suite, check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif
