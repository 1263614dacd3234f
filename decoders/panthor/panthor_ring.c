// SPDX-License-Identifier: GPL-2.0
/*
 * panthor_ring.c - which slots of a panthor perf ring BO hold samples.
 *
 * The kernel (v5/v6 code, Documentation/panthor.rst) writes sample k at byte
 * k * sample_size, advances insert_idx = (insert + 1) % slots and keeps at
 * most slots - 1 samples outstanding (CIRC_SPACE); userspace advances
 * extract_idx.  Dumps made by other tools may hold free-running indices, so
 * indices at or above the slot count are read that way.
 */
#include "panthor_internal.h"

#define RTYPE "panthor ring control"

int hwt_panthor_ring__plan(uint64_t slots, uint64_t extract, uint64_t insert,
			   struct hwt_panthor_ring *r, uint64_t off, struct hwt_diag *diag)
{
	*r = (struct hwt_panthor_ring){ .slots = slots };
	if (!slots || (slots & (slots - 1))) {
		hwt_diag__error(diag, off, RTYPE, "%llu slots is not a power of two",
				(unsigned long long)slots);
		return -1;
	}
	if (extract < slots && insert < slots) {
		/* the kernel's modulo indices */
		r->first = extract;
		r->count = (insert - extract) & (slots - 1);
		r->full = r->count == slots - 1 && slots > 1;
	} else if (insert < extract) {
		hwt_diag__error(diag, off, RTYPE,
				"impossible indices: insert_idx %llu is behind extract_idx %llu "
				"(%llu slots)", (unsigned long long)insert,
				(unsigned long long)extract, (unsigned long long)slots);
		return -1;
	} else if (insert - extract > slots) {
		hwt_diag__error(diag, off, RTYPE,
				"impossible indices: insert_idx %llu - extract_idx %llu exceeds the "
				"%llu slots; only the newest %llu samples are still in the ring",
				(unsigned long long)insert, (unsigned long long)extract,
				(unsigned long long)slots, (unsigned long long)slots);
		r->first = (insert - slots) & (slots - 1);
		r->count = slots;
		r->full = true;
		return 0;
	} else {
		r->first = extract & (slots - 1);
		r->count = insert - extract;
		r->full = r->count == slots;
	}
	r->empty = r->count == 0;
	if (r->empty)
		hwt_diag__warn(diag, off, RTYPE, "ring empty: insert_idx == extract_idx == %llu",
			       (unsigned long long)insert);
	else if (r->full)
		hwt_diag__warn(diag, off, RTYPE,
			       "ring full (%llu of %llu slots): the kernel refuses new samples "
			       "until userspace advances extract_idx", (unsigned long long)r->count,
			       (unsigned long long)slots);
	return 0;
}
