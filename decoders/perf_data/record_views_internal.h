/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_views_internal.h - typed views of the kernel records perf report -D
 * details (MMAP, MMAP2, FORK, EXIT, SAMPLE), so that the dump sink prints
 * fields instead of reading bytes.  Not installed, not exported.
 */
#ifndef HWTRACE_RECORD_VIEWS_INTERNAL_H
#define HWTRACE_RECORD_VIEWS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/perf_data.h"

/*
 * struct hwt_mmap_view - a PERF_RECORD_MMAP or MMAP2
 * @mmap2:	MMAP2: @maj .. @flags are set
 * @build_id:	MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID: @build_id_size bytes
 *		in place of @maj, @min, @ino, @ino_generation
 * @filename:	the name, @name_len bytes (bounded by the record)
 */
struct hwt_mmap_view {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	bool mmap2;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	const uint8_t *build_id;
	uint8_t build_id_size;
	uint32_t prot, flags;
	const char *filename;
	size_t name_len;
};

/* False when @ev is not an MMAP/MMAP2 or too short to hold one. */
bool hwt_event__mmap(const struct hwt_event *ev, struct hwt_mmap_view *m);

/* PERF_RECORD_FORK / EXIT: false when @ev is neither or too short. */
bool hwt_event__task(const struct hwt_event *ev, uint32_t *pid, uint32_t *ppid,
		     uint32_t *tid, uint32_t *ptid);

/*
 * struct hwt_sample_view - the SAMPLE fields perf's dump_sample() prints
 * first, as perf fills them when the attr lacks one: pid and tid -1, ip and
 * addr 0, period the attr's sample_period.
 */
struct hwt_sample_view {
	int32_t pid, tid;
	uint64_t ip, addr, period;
	uint8_t cpumode;		/* misc & PERF_RECORD_MISC_CPUMODE_MASK */
	/* PERF_SAMPLE_READ: @read_nr values (1 without PERF_FORMAT_GROUP) */
	bool has_read;
	uint64_t read_format, time_enabled, time_running, read_nr;
	const uint8_t *read_values;	/* GROUP: the {value, [id], [lost]} array */
	uint64_t one_value, one_id, one_lost;	/* not GROUP */
	/* PERF_SAMPLE_CALLCHAIN: @callchain_nr u64 ips at @callchain */
	bool has_callchain;
	uint64_t callchain_nr;
	const uint8_t *callchain;
	/*
	 * PERF_SAMPLE_REGS_USER / _INTR: the ABI (0: none) and, for another
	 * ABI, one u64 per bit of @regs_*_mask at @regs_*
	 */
	uint64_t regs_user_abi, regs_user_mask;
	const uint8_t *regs_user;
	uint64_t regs_intr_abi, regs_intr_mask;
	const uint8_t *regs_intr;
	/* PERF_SAMPLE_STACK_USER: dyn_size (0 for no stack) and where its size field is */
	uint64_t ustack_size;
	uint32_t ustack_offset;
	uint64_t weight;	/* the PERF_SAMPLE_WEIGHT{,_STRUCT} word */
	uint64_t data_src, transaction, phys_addr;
	uint64_t data_page_size, code_page_size;
	bool parsed_all;	/* every field up to PERF_SAMPLE_CODE_PAGE_SIZE was read */
	/*
	 * PERF_SAMPLE_BRANCH_STACK: @branch_nr {from, to, flags} entries at
	 * @branch; @branch_hw_idx with PERF_SAMPLE_BRANCH_HW_INDEX
	 */
	bool has_branch;
	uint64_t branch_nr, branch_hw_idx;
	const uint8_t *branch;
};

/*
 * False when @ev is not a SAMPLE of a known attr or is cut short before its
 * callchain; @s->parsed_all tells whether the fields after it were read.
 */
bool hwt_event__sample(const struct hwt_event *ev, struct hwt_sample_view *s);

/* Callchain entry @i (< @s->callchain_nr). */
uint64_t hwt_sample_view__callchain_ip(const struct hwt_sample_view *s, uint64_t i);

/* Branch stack entry @i (< @s->branch_nr): from, to and the flags word. */
void hwt_sample_view__branch(const struct hwt_sample_view *s, uint64_t i, uint64_t *from,
			     uint64_t *to, uint64_t *flags);

/* Register @i (< popcount of the mask) of a regs dump. */
uint64_t hwt_sample_view__reg(const uint8_t *regs, uint64_t i);

/* Read value @i (< @s->read_nr): its id, value and lost count (0 when absent). */
void hwt_sample_view__read_value(const struct hwt_sample_view *s, uint64_t i, uint64_t *id,
				 uint64_t *value, uint64_t *lost);

/*
 * The cpus of a perf_record_cpu_map_data (CPU_MAP's body, EVENT_UPDATE's
 * CPUS value) of @len bytes at @data, in perf's order (-1 for "any"): up
 * to @max into @cpus.  Returns how many the map holds, or -1 when the data
 * is cut short or of an unknown type.
 */
long hwt_cpu_map_data__cpus(const uint8_t *data, size_t len, int32_t *cpus, size_t max);

/* PERF_RECORD_CPU_MAP's data and its length: false when @ev is none or too short. */
bool hwt_event__cpu_map(const struct hwt_event *ev, const uint8_t **data, size_t *len);

/*
 * struct hwt_id_index_entry - one entry of a PERF_RECORD_ID_INDEX
 * @has_e2:	the record carries the second table (machine_pid, vcpu)
 */
struct hwt_id_index_entry {
	uint64_t id, idx;
	int64_t cpu, tid;
	bool has_e2;
	int64_t machine_pid;
	uint64_t vcpu;
};

/* Entries of an ID_INDEX that fit in the record (0 when @ev is none). */
uint64_t hwt_event__id_index_nr(const struct hwt_event *ev);
/* Entry @i (< hwt_event__id_index_nr()). */
void hwt_event__id_index_entry(const struct hwt_event *ev, uint64_t i,
			       struct hwt_id_index_entry *e);

/* Threads of a THREAD_MAP that fit in the record (0 when @ev is none), and one's pid. */
uint64_t hwt_event__thread_map_nr(const struct hwt_event *ev);
int64_t hwt_event__thread_map_pid(const struct hwt_event *ev, uint64_t i);

/*
 * PERF_RECORD_EVENT_UPDATE: its @type (PERF_EVENT_UPDATE__*: 0 unit, 1
 * scale, 2 name, 3 cpus), the event @id and the @len bytes of the value.
 * False when @ev is none or too short.
 */
bool hwt_event__event_update(const struct hwt_event *ev, uint64_t *type, uint64_t *id,
			     const uint8_t **value, size_t *len);

/* SWITCH_CPU_WIDE: the pid and tid switched to (OUT) or from (IN). */
bool hwt_event__switch_cpu_wide(const struct hwt_event *ev, int32_t *pid, int32_t *tid);

/* NAMESPACES: pid, tid and how many {dev, ino} links fit in the record. */
bool hwt_event__namespaces(const struct hwt_event *ev, int32_t *pid, int32_t *tid,
			   uint64_t *nr, uint64_t *nr_fit);
/* Link @i (< nr_fit) of a NAMESPACES record. */
void hwt_event__namespace(const struct hwt_event *ev, uint64_t i, uint64_t *dev, uint64_t *ino);

/* CGROUP: the id and the path, @len bytes. */
bool hwt_event__cgroup(const struct hwt_event *ev, uint64_t *id, const char **path, size_t *len);

/* LOST: the event id and how many records were lost. */
bool hwt_event__lost(const struct hwt_event *ev, uint64_t *id, uint64_t *lost);

/* KSYMBOL: address, length, type, flags and the name, @name_len bytes. */
bool hwt_event__ksymbol(const struct hwt_event *ev, uint64_t *addr, uint32_t *len,
			uint16_t *type, uint16_t *flags, const char **name, size_t *name_len);

/* BPF_EVENT: type, flags and the program id. */
bool hwt_event__bpf(const struct hwt_event *ev, uint16_t *type, uint16_t *flags, uint32_t *id);

/* ITRACE_START: pid and tid. */
bool hwt_event__itrace_start(const struct hwt_event *ev, uint32_t *pid, uint32_t *tid);

/* LOST_SAMPLES' lost count, AUX_OUTPUT_HW_ID's hw_id: the u64 after the header. */
bool hwt_event__first_u64(const struct hwt_event *ev, uint64_t *v);

#endif
