/* SPDX-License-Identifier: GPL-2.0 */
/* script_gen.h - script -l (the shipped hooks) and script -g python (a hook skeleton). */
#ifndef PERF_HWTRACE_SCRIPT_GEN_H
#define PERF_HWTRACE_SCRIPT_GEN_H

#include "cli.h"

/* The file script -g python writes in the current directory, as perf names it. */
#define SCRIPT_GEN_FILE "perf-script.py"

/*
 * script -l: "List of available trace scripts:" then one line per hook of
 * the first scripts directory that holds any (see script_gen.c), as
 * `perf script -l` prints them.  Returns the exit status.
 */
int script_gen__list(void);

/*
 * script -g python: refuse before any input is read when SCRIPT_GEN_FILE
 * exists.  Returns 0 or EXIT_USAGE.
 */
int script_gen__check(const struct cli *c);

/*
 * script -g python: decode @c->input and write SCRIPT_GEN_FILE with one
 * handler per record type found.  Returns the exit status.
 */
int script_gen__python(struct cli *c);

#endif
