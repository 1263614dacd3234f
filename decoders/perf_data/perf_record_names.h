/* SPDX-License-Identifier: GPL-2.0 */
/* perf_record_names.h - perf's names of record types, for the tool's dumps (not installed). */
#ifndef HWTRACE_PERF_RECORD_NAMES_H
#define HWTRACE_PERF_RECORD_NAMES_H

#include <stdbool.h>
#include <stdint.h>

/**
 * perf_record_name - "PERF_RECORD_AUXTRACE" etc. for a record type
 *
 * Returns "PERF_RECORD_<unknown N>"-style text in a static buffer for types it
 * does not know (not thread safe for those).
 */
const char *perf_record_name(uint32_t type);

/* a type perf 6.1 (or COMPRESSED2) defines */
bool hwt_record__known(uint32_t type);

#endif
