// SPDX-License-Identifier: GPL-2.0
/*
 * membuf.c - the growing text buffer of membuf.h.
 */
#include <stdint.h>
#include <stdlib.h>

#include "membuf.h"

bool membuf__grow(struct membuf *b, size_t n)
{
	size_t ncap;
	char *p;

	if (b->len + n < b->cap)
		return true;
	if (b->oom)
		return false;
	if (n >= SIZE_MAX / 2 - b->len) {	/* doubling would wrap */
		b->oom = true;
		return false;
	}
	ncap = b->cap ? b->cap : 1 << 16;
	while (ncap <= b->len + n)
		ncap *= 2;
	p = realloc(b->p, ncap);
	if (!p) {
		b->oom = true;
		return false;
	}
	b->p = p;
	b->cap = ncap;
	return true;
}

void membuf__puts(struct membuf *b, const char *s)
{
	membuf__put(b, s, strlen(s));
}

char *membuf__steal(struct membuf *b, size_t *len)
{
	char *p;

	if (!membuf__grow(b, 1)) {
		membuf__free(b);
		return NULL;
	}
	p = b->p;
	p[b->len] = 0;
	*len = b->len;
	memset(b, 0, sizeof(*b));
	return p;
}

void membuf__free(struct membuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}
