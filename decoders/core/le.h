/* SPDX-License-Identifier: GPL-2.0 */
/*
 * le.h - loads of unaligned integers from byte buffers (private to libhwtrace).
 *
 * hwt_get_u*() load in host byte order: perf.data is in the recording host's
 * order and the reader refuses the other one.  hwt_le*() load the
 * little-endian words of device payloads (panthor samples, OA reports) on
 * any host; on a little-endian host both are a single load.
 */
#ifndef HWTRACE_LE_H
#define HWTRACE_LE_H

#include <stdint.h>
#include <string.h>

static inline uint64_t hwt_get_u64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint16_t hwt_get_u16(const void *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t hwt_get_u32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t hwt_le32(const void *p)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return __builtin_bswap32(hwt_get_u32(p));
#else
	return hwt_get_u32(p);
#endif
}

static inline uint64_t hwt_le64(const void *p)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return __builtin_bswap64(hwt_get_u64(p));
#else
	return hwt_get_u64(p);
#endif
}

#endif
