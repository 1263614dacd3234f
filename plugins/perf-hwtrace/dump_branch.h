/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dump_branch.h - the branch stack lines `report -D` prints under a SAMPLE
 * of an attr with PERF_SAMPLE_BRANCH_STACK, as perf 6.1 prints them.
 */
#ifndef PERF_HWTRACE_DUMP_BRANCH_H
#define PERF_HWTRACE_DUMP_BRANCH_H

#include <stdbool.h>

#include "out.h"
#include "perf_data/record_views_internal.h"

/*
 * "... branch stack: nr:N" and one line per entry, or, with
 * PERF_SAMPLE_BRANCH_CALL_STACK (@callstack), "... branch callstack" and
 * the addresses the stack unwinds to.  Each line starts with its "\n".
 */
void dump_branch_stack(struct out *o, const struct hwt_sample_view *sv, bool callstack);

#endif
