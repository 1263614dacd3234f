/* SPDX-License-Identifier: GPL-2.0 */
/* header_print.h - `report --header`: the header block as perf report --header-only prints it. */
#ifndef PERF_HWTRACE_HEADER_PRINT_H
#define PERF_HWTRACE_HEADER_PRINT_H

#include <stdint.h>

#include "hwtrace/perf_data.h"
#include "out.h"

/**
 * header_print_begin - the "# ========" block up to the feature lines
 * @o:		where to print
 * @r:		the reader (its header and, in file mode, its features read)
 * @path:	the input ("-": standard input), for the "captured on" time
 *
 * File mode: the whole block with every feature and the missing ones.  Pipe
 * mode: the fixed lines and the closing "# ========"; features follow as
 * their HEADER_FEATURE records arrive (header_print_feature()), as perf does.
 */
void header_print_begin(struct out *o, const struct hwt_reader *r, const char *path);

/**
 * header_print_feature - one feature's lines, perf 6.1's print_<feature>()
 * @o:		where to print
 * @r:		the reader
 * @feat:	feature bit; those perf prints nothing for print nothing
 */
void header_print_feature(struct out *o, const struct hwt_reader *r, uint32_t feat);

/**
 * header_print_attr - perf_event_attr__fprintf()'s ", name = value" list of the non-zero fields
 * @o:		where to print
 * @a:		the attr
 */
void header_print_attr(struct out *o, const struct perf_event_attr *a);

#endif
