/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script_python.h - `perf hwtrace script -s HOOK.py [ARGS]`: run a perf-script
 * Python hook over the decoded records with stock perf's calling convention.
 */
#ifndef PERF_HWTRACE_SCRIPT_PYTHON_H
#define PERF_HWTRACE_SCRIPT_PYTHON_H

#include "cli.h"

/**
 * script_python__main - run the hook named at argv[*i] (after "-s") or in
 * "--script=HOOK.py"
 * @c:		input and decoder options parsed so far
 * @argc:	argument count of the script command
 * @argv:	its arguments; everything after the hook's path goes to sys.argv
 * @i:		index of the "-s" / "--script" argument
 *
 * Returns the exit status (0, 1 input or hook errors, 2 usage).
 */
int script_python__main(struct cli *c, int argc, char **argv, int i);

/* perf-hwtrace-python.so's entry point (dlsym'ed by script_python__main) */
int script_python__run_hook(struct cli *c, const char *script, int nargs, char **args);

#endif
