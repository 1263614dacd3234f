/* SPDX-License-Identifier: GPL-2.0 */
/*
 * i915_perf_present.h - whether libi915_perf loads on this machine, asked in
 * a child: the library loads once per process, and a test may want this
 * process to load it later (or never).
 */
#ifndef HWTRACE_TEST_I915_PERF_PRESENT_H
#define HWTRACE_TEST_I915_PERF_PRESENT_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "i915_oa/i915_perf_lib.h"

static inline bool i915_perf_present(void)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (!pid) {
		char why[256];

		exit(hwt_i915_perf__open(why, sizeof(why)) ? 0 : 1);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st);
}

#endif
