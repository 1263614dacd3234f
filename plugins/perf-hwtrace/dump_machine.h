/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dump_machine.h - the threads and maps perf report keeps while it reads a
 * file, as far as `report -D` needs them for the " ... thread:" and
 * " ...... dso:" lines under a SAMPLE: the latest name of each thread (from
 * COMM and FORK), the maps of each process (from MMAP and MMAP2) and the
 * kernel's.  Fed with the record views, in perf's delivery order.
 */
#ifndef PERF_HWTRACE_DUMP_MACHINE_H
#define PERF_HWTRACE_DUMP_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "out.h"
#include "perf_data/record_views_internal.h"

struct dump_thread;
struct dump_maps;

struct dump_machine {
	struct dump_thread *threads;	/* not sorted: few threads per recording */
	size_t nthreads, capthreads;
	struct dump_maps *maps;		/* [0] is the kernel's; a process's share one */
	size_t nmaps, capmaps;
	size_t last;			/* the thread found last, tried first */
	bool x86_64;			/* the file's arch: its entry trampoline maps */
};

/*
 * Update @m with MMAP, MMAP2, COMM, FORK and KSYMBOL records; prints to @o what
 * perf prints while doing so (a FORK that finds a parent of another pid).
 */
void dump_machine__event(struct dump_machine *m, struct out *o, const struct hwt_event *ev);

/* " ... thread: COMM:TID\n ...... dso: NAME" for a sample, as perf's machine__resolve(). */
void dump_machine__sample(struct dump_machine *m, struct out *o,
			  const struct hwt_sample_view *sv);

void dump_machine__free(struct dump_machine *m);

#endif
