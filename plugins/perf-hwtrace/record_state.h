/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_state.h - the pieces of `perf hwtrace record` (cmd_record.c drives
 * them): events opened per CPU, their ring and AUX mmaps, the AUXTRACE_INFO
 * of the device their PMU name matches, the header features, and what a
 * system-wide recording says of the processes already running.
 */
#ifndef PERF_HWTRACE_RECORD_STATE_H
#define PERF_HWTRACE_RECORD_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "hwtrace/perf_data.h"

#define REC_MAX_EVENTS	16
#define REC_MAX_CPUS	4096

struct hwt_device;
struct hwt_pmu;

/* What an event's AUX area carries (design.rst 4). */
enum rec_aux_kind {
	REC_AUX_NONE,		/* no AUX area: a plain sampling event */
	REC_AUX_DEVICE,		/* a device of the device table (rec_event.dev) */
	REC_AUX_OTHER,		/* AUX PMU we have no device for: no AUXTRACE_INFO */
};

/**
 * struct rec_event - one -e event
 * @name:	the string as given
 * @attr:	what is passed to perf_event_open
 * @pmu:	its sysfs PMU, NULL for a generic name (cpu-clock, cycles, ...)
 * @aux:	what its AUX area carries; REC_AUX_NONE maps no AUX area
 * @dev:	the device whose PMU names match its PMU's, or NULL
 * @maybe_aux:	a PMU of unknown kind: try the AUX mmap, go on without on
 *		EOPNOTSUPP/EINVAL
 * @fds, @ids:	one per CPU opened
 * @cpus:	their CPUs
 * @nfd:	how many
 * @pid:	the task they follow (per-task recording), or -1: every task
 */
struct rec_event {
	const char *name;
	struct perf_event_attr attr;
	struct hwt_pmu *pmu;
	enum rec_aux_kind aux;
	const struct hwt_device *dev;
	bool maybe_aux;
	int fds[REC_MAX_CPUS];
	uint64_t ids[REC_MAX_CPUS];
	int cpus[REC_MAX_CPUS];
	int nfd;
	pid_t pid;
};

/**
 * struct rec_stats - what the recorder saw, printed at the end
 */
struct rec_stats {
	uint64_t records;		/* ring records copied */
	uint64_t aux_records;		/* PERF_RECORD_AUX */
	uint64_t aux_truncated, aux_partial, aux_collision, aux_overwrite;
	uint64_t aux_bytes;		/* AUX payload saved */
	uint64_t auxtrace_records;
	uint64_t aux_lost_bytes;	/* AUX bytes overwritten before we read them */
	uint64_t aux_gap_bytes;		/* AUX area bytes outside every PERF_RECORD_AUX */
	uint64_t lost_records;		/* PERF_RECORD_LOST */
	uint64_t lost_events;		/* sum of their .lost */
	uint64_t lost_samples;		/* sum of PERF_RECORD_LOST_SAMPLES .lost */
	uint64_t reenabled;		/* events re-enabled after the AUX area filled */
	uint64_t bad_records;		/* ring reads with an impossible data_head or record size */
	uint64_t aux_bad_records;	/* PERF_RECORD_AUX outside the AUX area's window: skipped */
};

/**
 * struct rec_ring - the mmaps of one event fd
 * @idx:	mmap index written into AUXTRACE records
 * @aux_tail:	our copy of the AUX tail (aux stream offset)
 * @pend_start, @pend_end: announced AUX bytes not yet copied
 * @reenable:	the last AUX record was TRUNCATED: the PMU stopped itself
 */
struct rec_ring {
	int fd;
	int cpu;
	uint32_t idx;
	struct rec_event *ev;
	struct perf_event_mmap_page *up;
	size_t map_size;
	uint8_t *data;
	uint64_t data_size;
	uint8_t *aux;
	uint64_t aux_size;
	uint64_t aux_tail;
	uint64_t pend_start, pend_end;
	bool reenable;
};

/* record_open.c: parse an -e string; open, enable, close it per CPU */
int rec_event__setup(struct rec_event *ev, const char *sysfs, const char *str);
int rec_event__open(struct rec_event *ev, const int *cpus, int ncpu, pid_t pid);
void rec_event__enable(struct rec_event *ev, bool on);
void rec_event__close(struct rec_event *ev);

/* record_ring.c */
int rec_ring__mmap(struct rec_ring *r, unsigned int data_pages, unsigned int aux_pages);
void rec_ring__unmap(struct rec_ring *r);
struct rec_dsos;
/* copy new ring records and AUX data into @w, the files MMAPs name into @dsos; bytes or -1 */
long rec_ring__drain(struct rec_ring *r, struct hwt_writer *w, struct rec_stats *st,
		     struct rec_dsos *dsos);

/* record_auxinfo.c */
/*
 * Build the AUXTRACE_INFO record for @ev into @buf (@max u64 words) with its
 * device's encoder; returns its size in bytes, 0 for no record
 * (REC_AUX_OTHER), -1 with @err set.
 */
int rec_aux__info(const char *sysfs, const struct rec_event *ev, uint64_t *buf, size_t max,
		  char *err, size_t errlen);

/* record_features.c: HOSTNAME .. CMDLINE, PMU_MAPPINGS; returns 0 or -1 */
int rec_features__set(struct hwt_writer *w, const char *sysfs, int argc, char **argv);

/**
 * struct rec_dsos - paths of the files processes map executable: the running
 * ones (record_synth.c) and those the kernel's MMAP/MMAP2 records name
 */
struct rec_dsos {
	char **names;
	size_t n, cap;
};

/* record_synth.c: the kernel text's MMAP; COMM/MMAP2 of the running processes, as perf record -a */
int rec_synth__kernel(struct hwt_writer *w, const char *proc, uint64_t sample_type);
int rec_synth__threads(struct hwt_writer *w, const char *proc, uint64_t sample_type,
		       struct rec_dsos *dsos);

/*
 * record_maps.c: the records perf record writes about the recording:
 * ID_INDEX (before AUXTRACE_INFO), THREAD_MAP and CPU_MAP (after the
 * kernel's MMAPs; @pid the command followed, or -1), FINISHED_INIT (after
 * everything synthesized); 0 or -1
 */
int rec_maps__id_index(struct hwt_writer *w, const struct rec_event *ev, int nevents);
int rec_maps__threads_cpus(struct hwt_writer *w, const struct rec_event *ev, int nevents,
			   pid_t pid);
int rec_maps__finished_init(struct hwt_writer *w);

/* record_buildid.c: the build ids (kernel, modules, @dsos): feature or pipe records */
int rec_dsos__add(struct rec_dsos *d, const char *path);
void rec_dsos__free(struct rec_dsos *d);
int rec_buildid__set(struct hwt_writer *w, const char *sysfs, struct rec_dsos *dsos, bool pipe);

#endif
