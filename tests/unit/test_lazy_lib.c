// SPDX-License-Identifier: GPL-2.0
/*
 * test_lazy_lib.c - libraries loaded when first needed (lazy_lib.h): a
 * present library's functions resolve to the ones the linker gives this
 * test (which links libzstd), a missing library or symbol is a false return
 * and a message naming it, and linked addresses need no loading at all.
 */
#include <dlfcn.h>
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

int main(void)
{
	RUN(test_load);
	RUN(test_missing);
	RUN(test_linked);
	return check_done("lazy_lib");
}
