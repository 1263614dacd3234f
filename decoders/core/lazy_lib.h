/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lazy_lib.h - a library loaded by its soname when first needed.
 *
 * Every library a program links is loaded and relocated at every start,
 * used or not.  Those only some inputs or verbs need (libzstd for
 * compressed perf.data, libelf for record's build ids, libmicrohttpd for
 * the exporter) are loaded when first used instead, their functions
 * resolved into a table typed by the library's own header.  The static
 * tool links them and takes their addresses (HWT_LAZY_SYM), as it cannot
 * load libraries.
 */
#ifndef HWTRACE_LAZY_LIB_H
#define HWTRACE_LAZY_LIB_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

/**
 * struct hwt_lazy_sym - a function of a library loaded when needed
 * @p:		where its address goes
 * @name:	its symbol
 * @linked:	its address when the build links the library, else NULL
 */
struct hwt_lazy_sym {
	void **p;
	const char *name;
	void *linked;
};

#ifdef HWTRACE_STATIC
#define HWT_LAZY_SYM(ptr, fn)	{ (void **)&(ptr), #fn, (void *)(fn) }
#else
#define HWT_LAZY_SYM(ptr, fn)	{ (void **)&(ptr), #fn, NULL }
#endif

/**
 * hwt_lazy_lib__open - load @soname and resolve @n symbols of @syms
 * @flags:	dlopen()'s RTLD_NOW or RTLD_LAZY (RTLD_LOCAL is added)
 * @what:	the Debian package that has it, for the message
 * @why:	on failure, what went wrong, in words for the user
 *
 * Returns true when every symbol is resolved.  The library is never
 * closed: what it returned may be in use until the program ends.
 */
bool hwt_lazy_lib__open(const char *soname, int flags, const char *what,
			const struct hwt_lazy_sym *syms, size_t n, char *why, size_t whylen);

/**
 * struct hwt_lazy_lib - a library loaded once, by the first caller that
 * needs it (HWT_LAZY_LIB() fills it)
 * @soname, @flags, @pkg: hwt_lazy_lib__open()'s
 * @syms:	the functions to resolve, @n of them
 * @lock, @state: hwt_lazy_lib__load()'s (0 not tried, 1 loaded, -1 not)
 * @why:	what went wrong, once @state is -1
 */
struct hwt_lazy_lib {
	const char *soname;
	int flags;
	const char *pkg;
	const struct hwt_lazy_sym *syms;
	size_t n;
	pthread_mutex_t lock;
	int state;
	char why[256];
};

/* a struct hwt_lazy_lib for @syms, an array of struct hwt_lazy_sym */
#define HWT_LAZY_LIB(soname, flags, pkg, syms) \
	{ (soname), (flags), (pkg), (syms), sizeof(syms) / sizeof((syms)[0]), \
	  PTHREAD_MUTEX_INITIALIZER, 0, "" }

/**
 * hwt_lazy_lib__load - load @l the first time, from any thread
 *
 * The first call loads (hwt_lazy_lib__open()); calls from other threads
 * meanwhile wait for it; later calls return its answer at once.  Returns
 * true when every symbol is resolved, else false with @l->why set.
 */
bool hwt_lazy_lib__load(struct hwt_lazy_lib *l);

#endif
