// SPDX-License-Identifier: GPL-2.0
/*
 * record_maps.c - the records perf record writes about the recording itself
 * (perf 6.1 builtin-record.c, record__synthesize()):
 *
 * - ID_INDEX, before the AUXTRACE_INFO: each sample id with the ring it is
 *   read from (idx), its CPU and its task, as perf_event__synthesize_id_index()
 *   writes them;
 * - THREAD_MAP and CPU_MAP after the kernel's MMAPs: the tasks and the CPUs
 *   the events were opened on (perf_event__synthesize_thread_map2() and
 *   _cpu_map(), the CPUs encoded as the smallest of a range, a list and a
 *   32-bit mask, as cpu_map_data__alloc() chooses);
 * - FINISHED_INIT after every synthesized record, before the first record
 *   of a ring: readers know that what follows is the recording.
 *
 * These are user records (type >= 64): no sample_id trailer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_state.h"

/* perf_record_id_index: header, nr, then {id, idx, cpu, tid} per id */
#define ID_ENTRY	32
/* what one record holds: its size is a u16 (perf splits the same way) */
#define ID_MAX		((UINT16_MAX - 16) / ID_ENTRY)

/* the task of @ev's fds: the command's pid when opened per task, else -1 */
static uint64_t task_of(const struct rec_event *ev)
{
	return ev->pid > 0 ? (uint64_t)ev->pid : (uint64_t)-1;
}

/* a record's header in the u64s at @rec */
static void header(uint64_t *rec, uint32_t type, size_t size)
{
	struct perf_event_header h = { .type = type, .size = (uint16_t)size };

	memcpy(rec, &h, sizeof(h));
}

int rec_maps__id_index(struct hwt_writer *w, const struct rec_event *ev, int nevents)
{
	uint64_t *rec = malloc(16 + ID_ENTRY * ID_MAX);
	uint64_t nr = 0, idx = 0;
	int ret = 0;

	if (!rec)
		return -1;
	/* rings are mapped one per fd, event after event (cmd_record.c map_rings()) */
	for (int e = 0; e < nevents && !ret; e++) {
		for (int i = 0; i < ev[e].nfd && !ret; i++, idx++) {
			uint64_t *en = &rec[2 + 4 * nr];

			en[0] = ev[e].ids[i];
			en[1] = idx;
			en[2] = (uint64_t)(int64_t)ev[e].cpus[i];
			en[3] = task_of(&ev[e]);
			if (++nr < ID_MAX)
				continue;
			header(rec, HWT_REC_ID_INDEX, 16 + ID_ENTRY * nr);
			rec[1] = nr;
			ret = hwt_writer__write(w, (struct perf_event_header *)rec) < 0 ? -1 : 0;
			nr = 0;
		}
	}
	if (nr && !ret) {
		header(rec, HWT_REC_ID_INDEX, 16 + ID_ENTRY * nr);
		rec[1] = nr;
		ret = hwt_writer__write(w, (struct perf_event_header *)rec) < 0 ? -1 : 0;
	}
	free(rec);
	return ret;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* the CPUs of every event, sorted, each once (-1, "any", first); their number */
static int all_cpus(const struct rec_event *ev, int nevents, int *cpus, int max)
{
	int n = 0, k = 0;

	for (int e = 0; e < nevents; e++)
		for (int i = 0; i < ev[e].nfd && n < max; i++)
			cpus[n++] = ev[e].cpus[i];
	qsort(cpus, (size_t)n, sizeof(*cpus), cmp_int);
	for (int i = 0; i < n; i++)
		if (!k || cpus[i] != cpus[k - 1])
			cpus[k++] = cpus[i];
	return k;
}

/* CPU_MAP's data at @d (zeroed, room for the largest); its size in bytes */
static size_t cpu_map_data(uint8_t *d, const int *cpus, int n)
{
	int any = n && cpus[0] == -1;
	int min = n > any ? cpus[any] : -1, max = n ? cpus[n - 1] : -1;
	size_t size_cpus = 2 + 2 + 2 * (size_t)n;
	/*
	 * perf counts the mask's words as BITS_TO_U32(max), one short when
	 * max is a multiple of 32 (and then writes past them); these are
	 * the words the CPUs need
	 */
	size_t words = (size_t)(max / 32 + 1), size_mask = 2 + 4 + 4 * words;
	uint16_t v;

	if (n && max - min + 1 == n - any) {
		/* a consecutive range: type 2, any_cpu, pad, start, end */
		v = 2;
		memcpy(d, &v, 2);
		d[2] = (uint8_t)any;
		v = (uint16_t)min;
		memcpy(d + 4, &v, 2);
		v = (uint16_t)max;
		memcpy(d + 6, &v, 2);
		return 8;
	}
	if (any || size_cpus < size_mask) {
		/* a list: type 0, nr, cpu[nr] (-1 as 0xffff) */
		v = (uint16_t)n;
		memcpy(d + 2, &v, 2);
		for (int i = 0; i < n; i++) {
			v = (uint16_t)cpus[i];
			memcpy(d + 4 + 2 * i, &v, 2);
		}
		return (size_cpus + 7) & ~(size_t)7;
	}
	/* a mask of 32-bit words: type 1, nr, long_size 4, mask[nr] */
	v = 1;
	memcpy(d, &v, 2);
	v = (uint16_t)words;
	memcpy(d + 2, &v, 2);
	v = 4;
	memcpy(d + 4, &v, 2);
	for (int i = 0; i < n; i++) {
		uint32_t m;

		memcpy(&m, d + 6 + 4 * (cpus[i] / 32), 4);
		m |= 1u << (cpus[i] % 32);
		memcpy(d + 6 + 4 * (cpus[i] / 32), &m, 4);
	}
	return (size_mask + 7) & ~(size_t)7;
}

int rec_maps__threads_cpus(struct hwt_writer *w, const struct rec_event *ev, int nevents,
			   pid_t pid)
{
	/* THREAD_MAP: nr 1, {pid, comm[16]}; perf's map has no comm for either */
	uint64_t tm[5] = { 0, 1, pid > 0 ? (uint64_t)pid : (uint64_t)-1, 0, 0 };
	size_t max = 0, size;
	uint64_t *cm;
	int *cpus, n, ret = -1;

	header(tm, HWT_REC_THREAD_MAP, sizeof(tm));
	if (hwt_writer__write(w, (struct perf_event_header *)tm) < 0)
		return -1;
	for (int e = 0; e < nevents; e++)
		max += (size_t)ev[e].nfd;
	cpus = malloc((max + 1) * sizeof(*cpus));
	if (!cpus)
		return -1;
	n = all_cpus(ev, nevents, cpus, (int)max);
	/* room for a list of the CPUs and for a mask up to the last one */
	size = 8 + 4 + 2 * (size_t)n + 6 + 4 * (size_t)(n ? cpus[n - 1] / 32 + 1 : 1);
	cm = calloc((size + 7) / 8, sizeof(*cm));
	if (cm) {
		size = 8 + cpu_map_data((uint8_t *)&cm[1], cpus, n);
		ret = 0;
		if (size <= UINT16_MAX) {
			header(cm, HWT_REC_CPU_MAP, size);
			ret = hwt_writer__write(w, (struct perf_event_header *)cm) < 0 ? -1 : 0;
		} else {
			/*
			 * a list of over 32000 scattered CPUs (more than
			 * REC_MAX_CPUS events' worth): perf could not write
			 * it either; not silently, should it ever happen
			 */
			fprintf(stderr, "perf hwtrace record: warning: the map of %d CPUs needs "
				"%zu bytes, more than a record holds: no CPU_MAP written\n", n, size);
		}
	}
	free(cpus);
	free(cm);
	return ret;
}

int rec_maps__finished_init(struct hwt_writer *w)
{
	struct perf_event_header h = { .type = HWT_REC_FINISHED_INIT, .size = 8 };

	return hwt_writer__write(w, &h) < 0 ? -1 : 0;
}
