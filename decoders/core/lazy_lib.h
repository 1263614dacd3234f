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

#endif
