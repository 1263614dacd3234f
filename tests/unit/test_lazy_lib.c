// SPDX-License-Identifier: GPL-2.0
/*
 * test_lazy_lib.c - libraries loaded when first needed (lazy_lib.h): a
 * present library's functions resolve to the ones the linker gives this
 * test (which links libzstd), a missing library or symbol is a false return
 * and a message naming it, and linked addresses need no loading at all.
 * A struct hwt_lazy_lib is loaded once: threads asking at the same time
 * all get the loaded functions, and a failure is answered again, the same.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>
#include <zstd.h>

#include "check.h"
#include "core/lazy_lib.h"

static void test_load(void)
{
	typeof(&ZSTD_versionNumber) version = NULL;
	typeof(&ZSTD_isError) is_error = NULL;
	const struct hwt_lazy_sym syms[] = {
		{ (void **)&version, "ZSTD_versionNumber", NULL },
		{ (void **)&is_error, "ZSTD_isError", NULL },
	};
	char why[256] = "";

	CHECK(hwt_lazy_lib__open("libzstd.so.1", RTLD_NOW, "libzstd1", syms, 2, why,
				 sizeof(why)));
	CHECK(version && version() == ZSTD_versionNumber());
	CHECK(is_error && !is_error(0));
	CHECK_STR(why, "");
}

static void test_missing(void)
{
	void *f = NULL;
	const struct hwt_lazy_sym none[] = { { &f, "ZSTD_isError", NULL } };
	const struct hwt_lazy_sym bad[] = {
		{ &f, "ZSTD_isError", NULL }, { &f, "ZSTD_noSuchFunction", NULL },
	};
	char why[256];

	CHECK(!hwt_lazy_lib__open("libhwtrace-none.so.9", RTLD_NOW, "none", none, 1, why,
				  sizeof(why)));
	CHECK(!strncmp(why, "cannot load libhwtrace-none.so.9 (Debian package none): ", 56));
	CHECK(!hwt_lazy_lib__open("libzstd.so.1", RTLD_NOW, "libzstd1", bad, 2, why,
				  sizeof(why)));
	CHECK_STR(why, "libzstd.so.1 has no ZSTD_noSuchFunction: not the ABI this tool was "
		  "built for");
}

/* the static tool's case: addresses given, no library opened */
static void test_linked(void)
{
	void *f = NULL;
	const struct hwt_lazy_sym syms[] = { { &f, "anything", (void *)test_linked } };
	char why[8] = "";

	CHECK(hwt_lazy_lib__open("libhwtrace-none.so.9", RTLD_NOW, "none", syms, 1, why,
				 sizeof(why)));
	CHECK(f == (void *)test_linked);
}

static struct {
	typeof(&ZSTD_versionNumber) version;
} z;

static const struct hwt_lazy_sym z_syms[] = {
	{ (void **)&z.version, "ZSTD_versionNumber", NULL },
};

static struct hwt_lazy_lib z_lib = HWT_LAZY_LIB("libzstd.so.1", RTLD_NOW, "libzstd1", z_syms);

static void *load_and_call(void *arg)
{
	unsigned *got = arg;

	*got = hwt_lazy_lib__load(&z_lib) && z.version ? z.version() : 0;
	return NULL;
}

/* eight threads at once: each sees the library loaded, its function set */
static void test_load_once(void)
{
	pthread_t t[8];
	unsigned got[8] = { 0 };

	for (int i = 0; i < 8; i++)
		CHECK(!pthread_create(&t[i], NULL, load_and_call, &got[i]));
	for (int i = 0; i < 8; i++) {
		pthread_join(t[i], NULL);
		CHECK_EQ(got[i], ZSTD_versionNumber());
	}
	CHECK_EQ(z_lib.state, 1);
}

static void *none_fn;
static const struct hwt_lazy_sym none_syms[] = { { &none_fn, "x", NULL } };
static struct hwt_lazy_lib none_lib = HWT_LAZY_LIB("libhwtrace-none.so.9", RTLD_NOW, "none",
						   none_syms);

/* a library that is not there: false, and the same reason every time */
static void test_load_missing(void)
{
	char first[sizeof(none_lib.why)];

	CHECK(!hwt_lazy_lib__load(&none_lib));
	CHECK(!strncmp(none_lib.why, "cannot load libhwtrace-none.so.9 (Debian package none): ",
		       56));
	memcpy(first, none_lib.why, sizeof(first));
	CHECK(!hwt_lazy_lib__load(&none_lib));
	CHECK_STR(none_lib.why, first);
	CHECK_EQ(none_lib.state, -1);
	CHECK(none_fn == NULL);
}

int main(void)
{
	RUN(test_load);
	RUN(test_missing);
	RUN(test_linked);
	RUN(test_load_once);
	RUN(test_load_missing);
	return check_done("lazy_lib");
}
