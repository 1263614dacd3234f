// SPDX-License-Identifier: GPL-2.0
/* cpu.c - CPU features for the fast paths (cpu.h). */
#include "cpu.h"

#if defined(__x86_64__) && defined(__GNUC__) && __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>	/* glibc 2.33 */

bool hwt_cpu__have_avx2(void)
{
	/* -1: not asked yet (the answer is the same in every thread) */
	static signed char have = -1;
	signed char h = __atomic_load_n(&have, __ATOMIC_RELAXED);

	if (h < 0) {
		/*
		 * What glibc's loader found (and the kernel enabled) at
		 * start-up, behind a call into libc.  __builtin_cpu_supports()
		 * would link libgcc's constructor, which runs CPUID a dozen
		 * times before main in every run, and CPUID traps to the
		 * hypervisor in a VM (7 us each on our CI machine).
		 */
		h = CPU_FEATURE_ACTIVE(AVX2);
		__atomic_store_n(&have, h, __ATOMIC_RELAXED);
	}
	return h;
}
#elif defined(__x86_64__) && defined(__GNUC__)
bool hwt_cpu__have_avx2(void)
{
	return __builtin_cpu_supports("avx2");
}
#else
bool hwt_cpu__have_avx2(void)
{
	return false;
}
#endif
