/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blob.h - a growable byte buffer for building feature sections and the
 * tracing-data blob.  A failed allocation is sticky: callers check ->nomem
 * once at the end instead of after every append.
 */
#ifndef HWTRACE_BLOB_H
#define HWTRACE_BLOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct blob {
	uint8_t *p;
	size_t len, cap;
	bool nomem;
};

/* Append @n bytes at @p. */
void blob_put(struct blob *b, const void *p, size_t n);
/* Append the low @n bytes of @v, little-endian. */
void blob_le(struct blob *b, uint64_t v, unsigned int n);

static inline void blob_u32(struct blob *b, uint32_t v)
{
	blob_le(b, v, 4);
}

#endif
