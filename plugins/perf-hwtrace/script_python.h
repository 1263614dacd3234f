/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script_python.h - `perf hwtrace script -s HOOK.py [ARGS]`: run a perf-script
 * Python hook over the decoded records with stock perf's calling convention.
 */
#ifndef PERF_HWTRACE_SCRIPT_PYTHON_H
#define PERF_HWTRACE_SCRIPT_PYTHON_H

#include "cli.h"
#include "record_filter.h"

/**
 * script_python__main - run the Python hook @script over the input
 * @c:		input and decoder options
 * @script:	the hook's path (checked to be a file by the caller)
 * @nargs:	how many arguments the hook gets (what followed `--`)
 * @args:	those arguments; sys.argv is [@script, @args...]
 * @filter:	--time, -C, --pid, --tid, --type: the hooks get the records
 *		these select, as stock perf script -s with the same filters
 *		on the injected file (inactive: every record)
 *
 * Returns the exit status (0, 1 input or hook errors, 2 usage).
 */
int script_python__main(struct cli *c, const char *script, int nargs, char **args,
			struct record_filter *filter);

/* perf-hwtrace-python.so's entry point (dlsym'ed by script_python__main) */
int script_python__run_hook(struct cli *c, const char *script, int nargs, char **args,
			    struct record_filter *filter);

#endif
