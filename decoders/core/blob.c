// SPDX-License-Identifier: GPL-2.0
/* blob.c - the growable byte buffer of blob.h. */
#include <stdlib.h>
#include <string.h>

#include "blob.h"

void blob_put(struct blob *b, const void *p, size_t n)
{
	if (b->nomem || !n)
		return;
	if (n > SIZE_MAX / 2 - b->len) {
		b->nomem = true;
		return;
	}
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		uint8_t *np;

		while (cap < b->len + n)
			cap *= 2;
		np = realloc(b->p, cap);
		if (!np) {
			b->nomem = true;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

void blob_le(struct blob *b, uint64_t v, unsigned int n)
{
	uint8_t tmp[8];

	if (n > 8)
		n = 8;
	for (unsigned int i = 0; i < n; i++)
		tmp[i] = (uint8_t)(v >> (8 * i));
	blob_put(b, tmp, n);
}
