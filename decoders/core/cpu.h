/* SPDX-License-Identifier: GPL-2.0 */
/* cpu.h - what the CPU lets a fast path use, asked once for every decoder and sink. */
#ifndef HWTRACE_CORE_CPU_H
#define HWTRACE_CORE_CPU_H

#include <stdbool.h>

/*
 * hwt_cpu__have_avx2 - whether AVX2 may be used (the CPU has it and the
 * kernel saves its registers): false on other architectures, and where it
 * cannot be told.  Asked once, then a load.
 */
bool hwt_cpu__have_avx2(void);

#endif
