// SPDX-License-Identifier: GPL-2.0
/*
 * perf_record_views.c - typed views of record bodies, so that sinks read
 * fields instead of parsing bytes.
 */
#include <string.h>

#include "perf_data_internal.h"
#include "record_views_internal.h"

bool hwt_event__comm(const struct hwt_event *ev, uint32_t *pid, uint32_t *tid,
		     const char **comm, size_t *len)
{
	const uint8_t *p = (const uint8_t *)ev->hdr;
	size_t room;

	/* header, u32 pid, u32 tid, comm[] NUL-padded, then the sample_id trailer */
	if (ev->hdr->type != PERF_RECORD_COMM || ev->hdr->size < 16)
		return false;
	room = ev->hdr->size - 16;
	if (ev->attr && ev->attr->attr.sample_id_all && ev->attr->sample_id_size <= room)
		room -= ev->attr->sample_id_size;
	memcpy(pid, p + 8, 4);
	memcpy(tid, p + 12, 4);
	*comm = (const char *)p + 16;
	*len = strnlen(*comm, room);
	return true;
}

static uint32_t u32_at(const uint8_t *p, size_t off)
{
	uint32_t v;

	memcpy(&v, p + off, 4);
	return v;
}

static uint64_t u64_at(const uint8_t *p, size_t off)
{
	uint64_t v;

	memcpy(&v, p + off, 8);
	return v;
}

/* The bytes of @ev's body before its sample_id_all trailer. */
static size_t body_size(const struct hwt_event *ev)
{
	size_t size = ev->hdr->size;

	if (ev->attr && ev->attr->attr.sample_id_all && ev->attr->sample_id_size <= size)
		size -= ev->attr->sample_id_size;
	return size;
}

bool hwt_event__mmap(const struct hwt_event *ev, struct hwt_mmap_view *m)
{
	const uint8_t *p = (const uint8_t *)ev->hdr;
	size_t name_off, size = body_size(ev);

	/* header, u32 pid, u32 tid, u64 start, len, pgoff, [MMAP2 part,] filename[] */
	memset(m, 0, sizeof(*m));
	if (ev->hdr->type == PERF_RECORD_MMAP) {
		name_off = 40;
	} else if (ev->hdr->type == PERF_RECORD_MMAP2) {
		name_off = 72;
		m->mmap2 = true;
	} else {
		return false;
	}
	if (size < name_off)
		return false;
	m->pid = u32_at(p, 8);
	m->tid = u32_at(p, 12);
	m->start = u64_at(p, 16);
	m->len = u64_at(p, 24);
	m->pgoff = u64_at(p, 32);
	if (m->mmap2) {
		if (ev->hdr->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			/* u8 size, u8 and u16 reserved, build_id[20] */
			m->build_id_size = p[40] > 20 ? 20 : p[40];
			m->build_id = p + 44;
		} else {
			m->maj = u32_at(p, 40);
			m->min = u32_at(p, 44);
			m->ino = u64_at(p, 48);
			m->ino_generation = u64_at(p, 56);
		}
		m->prot = u32_at(p, 64);
		m->flags = u32_at(p, 68);
	}
	m->filename = (const char *)p + name_off;
	m->name_len = strnlen(m->filename, size - name_off);
	return true;
}

bool hwt_event__task(const struct hwt_event *ev, uint32_t *pid, uint32_t *ppid,
		     uint32_t *tid, uint32_t *ptid)
{
	const uint8_t *p = (const uint8_t *)ev->hdr;

	/* header, u32 pid, ppid, tid, ptid, u64 time */
	if ((ev->hdr->type != PERF_RECORD_FORK && ev->hdr->type != PERF_RECORD_EXIT) ||
	    ev->hdr->size < 24)
		return false;
	*pid = u32_at(p, 8);
	*ppid = u32_at(p, 12);
	*tid = u32_at(p, 16);
	*ptid = u32_at(p, 20);
	return true;
}

/*
 * The fields after the callchain, from word @i of the @n words of @ev's
 * body, in perf_event.h's order: raw, branch stack, user regs, user stack,
 * weight, data_src, transaction, intr regs, phys_addr, cgroup, page sizes.
 */
static bool sample_rest(const struct hwt_event *ev, struct hwt_sample_view *s, uint64_t i,
			uint64_t n)
{
	const uint8_t *p = (const uint8_t *)ev->hdr;
	const struct perf_event_attr *a = &ev->attr->attr;
	uint64_t st = a->sample_type, v;

#define NEXT(dst) do { if (i >= n) return false; (dst) = u64_at(p, 8 + 8 * i++); } while (0)
	if (st & PERF_SAMPLE_RAW) {
		if (i >= n)
			return false;
		/* u32 size, the data; padded so that both end on a u64 */
		v = (4 + (uint64_t)u32_at(p, 8 + 8 * i) + 7) / 8;
		if (v > n - i)
			return false;
		i += v;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		NEXT(v);
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			NEXT(s->branch_hw_idx);
		if (v > (n - i) / 3)
			return false;
		s->has_branch = true;
		s->branch_nr = v;
		s->branch = p + 8 + 8 * i;
		i += 3 * v;	/* from, to, flags */
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		NEXT(s->regs_user_abi);
		if (s->regs_user_abi) {
			s->regs_user_mask = a->sample_regs_user;
			s->regs_user = p + 8 + 8 * i;
			i += (uint64_t)__builtin_popcountll(s->regs_user_mask);
		}
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		s->ustack_offset = (uint32_t)(8 + 8 * i);
		NEXT(v);
		if (v) {
			if (v / 8 > n - i)
				return false;
			i += v / 8;
			NEXT(s->ustack_size);
		}
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		NEXT(s->weight);
	if (st & PERF_SAMPLE_DATA_SRC)
		NEXT(s->data_src);
	if (st & PERF_SAMPLE_TRANSACTION)
		NEXT(s->transaction);
	if (st & PERF_SAMPLE_REGS_INTR) {
		NEXT(s->regs_intr_abi);
		if (s->regs_intr_abi) {
			s->regs_intr_mask = a->sample_regs_intr;
			s->regs_intr = p + 8 + 8 * i;
			i += (uint64_t)__builtin_popcountll(s->regs_intr_mask);
		}
	}
	if (st & PERF_SAMPLE_PHYS_ADDR)
		NEXT(s->phys_addr);
	if (st & PERF_SAMPLE_CGROUP)
		NEXT(v);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		NEXT(s->data_page_size);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		NEXT(s->code_page_size);
#undef NEXT
	return i <= n;
}

bool hwt_event__sample(const struct hwt_event *ev, struct hwt_sample_view *s)
{
	const uint8_t *p = (const uint8_t *)ev->hdr;
	uint64_t st, n, i = 0, v;

	if (ev->hdr->type != PERF_RECORD_SAMPLE || !ev->attr)
		return false;
	st = ev->attr->attr.sample_type;
	n = (ev->hdr->size - 8) / 8;
	*s = (struct hwt_sample_view){ .pid = -1, .tid = -1,
				       .period = ev->attr->attr.sample_period };
	/* the fixed part of the body, in perf_event.h's order */
#define NEXT(dst) do { if (i >= n) return false; (dst) = u64_at(p, 8 + 8 * i++); } while (0)
	if (st & PERF_SAMPLE_IDENTIFIER)
		NEXT(v);
	if (st & PERF_SAMPLE_IP)
		NEXT(s->ip);
	if (st & PERF_SAMPLE_TID) {
		NEXT(v);
		s->pid = (int32_t)v;
		s->tid = (int32_t)(v >> 32);
	}
	if (st & PERF_SAMPLE_TIME)
		NEXT(v);
	if (st & PERF_SAMPLE_ADDR)
		NEXT(s->addr);
	if (st & PERF_SAMPLE_ID)
		NEXT(v);
	if (st & PERF_SAMPLE_STREAM_ID)
		NEXT(v);
	if (st & PERF_SAMPLE_CPU)
		NEXT(v);
	if (st & PERF_SAMPLE_PERIOD)
		NEXT(s->period);
	s->cpumode = ev->hdr->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (st & PERF_SAMPLE_READ) {
		uint64_t rf = ev->attr->attr.read_format;

		s->has_read = true;
		s->read_format = rf;
		if (rf & PERF_FORMAT_GROUP) {
			uint64_t words = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);

			NEXT(s->read_nr);
			if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
				NEXT(s->time_enabled);
			if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
				NEXT(s->time_running);
			if (s->read_nr > (n - i) / words)
				return false;
			s->read_values = p + 8 + 8 * i;
			i += s->read_nr * words;
		} else {
			s->read_nr = 1;
			NEXT(s->one_value);
			if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
				NEXT(s->time_enabled);
			if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
				NEXT(s->time_running);
			if (rf & PERF_FORMAT_ID)
				NEXT(s->one_id);
			if (rf & PERF_FORMAT_LOST)
				NEXT(s->one_lost);
		}
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		NEXT(s->callchain_nr);
		if (s->callchain_nr > n - i)
			return false;
		s->has_callchain = true;
		s->callchain = p + 8 + 8 * i;
		i += s->callchain_nr;
	}
	s->parsed_all = sample_rest(ev, s, i, n);
#undef NEXT
	return true;
}

uint64_t hwt_sample_view__reg(const uint8_t *regs, uint64_t i)
{
	return u64_at(regs, 8 * i);
}

uint64_t hwt_sample_view__callchain_ip(const struct hwt_sample_view *s, uint64_t i)
{
	return u64_at(s->callchain, 8 * i);
}

void hwt_sample_view__branch(const struct hwt_sample_view *s, uint64_t i, uint64_t *from,
			     uint64_t *to, uint64_t *flags)
{
	*from = u64_at(s->branch, 24 * i);
	*to = u64_at(s->branch, 24 * i + 8);
	*flags = u64_at(s->branch, 24 * i + 16);
}

void hwt_sample_view__read_value(const struct hwt_sample_view *s, uint64_t i, uint64_t *id,
				 uint64_t *value, uint64_t *lost)
{
	uint64_t rf = s->read_format;
	size_t off;

	if (!(rf & PERF_FORMAT_GROUP)) {
		*id = s->one_id;
		*value = s->one_value;
		*lost = s->one_lost;
		return;
	}
	/* {value, [id], [lost]} */
	off = 8 * i * (1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST));
	*value = u64_at(s->read_values, off);
	off += 8;
	*id = 0;
	*lost = 0;
	if (rf & PERF_FORMAT_ID) {
		*id = u64_at(s->read_values, off);
		off += 8;
	}
	if (rf & PERF_FORMAT_LOST)
		*lost = u64_at(s->read_values, off);
}

/*
 * perf_record_cpu_map_data: u16 type, then for 0 (CPUS) u16 nr, u16 cpu[nr];
 * 1 (MASK) u16 nr, u16 long_size, then nr u32 words (long_size 4) or, after
 * 4 bytes of padding, nr u64 words (long_size 8), all packed; 2 (RANGE) u8 any_cpu, u8
 * pad, u16 start, u16 end.
 */
static uint16_t u16_at(const uint8_t *p, size_t off)
{
	uint16_t v;

	memcpy(&v, p + off, 2);
	return v;
}

long hwt_cpu_map_data__cpus(const uint8_t *data, size_t len, int32_t *cpus, size_t max)
{
	size_t n = 0;

#define ADD(c) do { if (n < max) cpus[n] = (c); n++; } while (0)
	if (len < 4)
		return -1;
	switch (u16_at(data, 0)) {
	case 0: {
		uint16_t nr = u16_at(data, 2);

		if (len < 4 + 2u * nr)
			return -1;
		for (uint16_t i = 0; i < nr; i++) {
			uint16_t c = u16_at(data, 4 + 2u * i);

			ADD(c == UINT16_MAX ? -1 : (int32_t)c);
		}
		break;
	}
	case 1: {
		uint16_t nr, lsize;
		size_t base;

		if (len < 6)
			return -1;
		nr = u16_at(data, 2);
		lsize = u16_at(data, 4);
		if (lsize != 4 && lsize != 8)
			return -1;
		base = lsize == 4 ? 6 : 10;	/* the packed struct: u32 pad before u64s */
		if (len < base + (size_t)lsize * nr)
			return -1;
		for (uint16_t i = 0; i < nr; i++) {
			uint64_t w = lsize == 4 ? u32_at(data, base + 4u * i) :
						  u64_at(data, base + 8u * i);

			for (unsigned b = 0; b < 8u * lsize; b++)
				if (w >> b & 1)
					ADD((int32_t)(i * 8u * lsize + b));
		}
		break;
	}
	case 2: {
		uint16_t start, end;

		if (len < 8)
			return -1;
		start = u16_at(data, 4);
		end = u16_at(data, 6);
		if (data[2])
			ADD(-1);
		for (uint32_t c = start; c <= end; c++)
			ADD((int32_t)c);
		break;
	}
	default:
		return -1;
	}
#undef ADD
	return (long)n;
}

bool hwt_event__cpu_map(const struct hwt_event *ev, const uint8_t **data, size_t *len)
{
	if (ev->hdr->type != HWT_REC_CPU_MAP || ev->hdr->size < 12)
		return false;
	*data = (const uint8_t *)ev->hdr + 8;
	*len = ev->hdr->size - 8u;
	return true;
}

/* header, u64 nr, nr x {id, idx, cpu, tid}, then perhaps nr x {machine_pid, vcpu} */
uint64_t hwt_event__id_index_nr(const struct hwt_event *ev)
{
	uint64_t nr;

	if (ev->hdr->type != HWT_REC_ID_INDEX || ev->hdr->size < 16)
		return 0;
	nr = u64_at((const uint8_t *)ev->hdr, 8);
	return nr <= (ev->hdr->size - 16) / 32u ? nr : (ev->hdr->size - 16) / 32u;
}

void hwt_event__id_index_entry(const struct hwt_event *ev, uint64_t i,
			       struct hwt_id_index_entry *e)
{
	const uint8_t *p = (const uint8_t *)ev->hdr;
	uint64_t nr = u64_at(p, 8);
	size_t off = 16 + 32 * i;

	e->id = u64_at(p, off);
	e->idx = u64_at(p, off + 8);
	e->cpu = (int64_t)u64_at(p, off + 16);
	e->tid = (int64_t)u64_at(p, off + 24);
	/* the second table only when the record holds both whole */
	e->has_e2 = nr <= (ev->hdr->size - 16u) / 48u;
	if (e->has_e2) {
		off = 16 + 32 * nr + 16 * i;
		e->machine_pid = (int64_t)u64_at(p, off);
		e->vcpu = u64_at(p, off + 8);
	}
}

/* header, u64 nr, nr x {u64 pid, char comm[16]} */
uint64_t hwt_event__thread_map_nr(const struct hwt_event *ev)
{
	uint64_t nr;

	if (ev->hdr->type != HWT_REC_THREAD_MAP || ev->hdr->size < 16)
		return 0;
	nr = u64_at((const uint8_t *)ev->hdr, 8);
	return nr <= (ev->hdr->size - 16) / 24u ? nr : (ev->hdr->size - 16) / 24u;
}

int64_t hwt_event__thread_map_pid(const struct hwt_event *ev, uint64_t i)
{
	return (int64_t)u64_at((const uint8_t *)ev->hdr, 16 + 24 * i);
}

/* header, u64 type, u64 id, the value */
bool hwt_event__event_update(const struct hwt_event *ev, uint64_t *type, uint64_t *id,
			     const uint8_t **value, size_t *len)
{
	const uint8_t *p = (const uint8_t *)ev->hdr;

	if (ev->hdr->type != HWT_REC_EVENT_UPDATE || ev->hdr->size < 24)
		return false;
	*type = u64_at(p, 8);
	*id = u64_at(p, 16);
	*value = p + 24;
	*len = ev->hdr->size - 24u;
	return true;
}

/* header, u32 next_prev_pid, u32 next_prev_tid */
bool hwt_event__switch_cpu_wide(const struct hwt_event *ev, int32_t *pid, int32_t *tid)
{
	if (ev->hdr->type != PERF_RECORD_SWITCH_CPU_WIDE || body_size(ev) < 16)
		return false;
	*pid = (int32_t)u32_at((const uint8_t *)ev->hdr, 8);
	*tid = (int32_t)u32_at((const uint8_t *)ev->hdr, 12);
	return true;
}

/* header, u32 pid, u32 tid, u64 nr_namespaces, nr x {u64 dev, u64 ino} */
bool hwt_event__namespaces(const struct hwt_event *ev, int32_t *pid, int32_t *tid,
			   uint64_t *nr, uint64_t *nr_fit)
{
	const uint8_t *p = (const uint8_t *)ev->hdr;
	size_t size = body_size(ev);

	if (ev->hdr->type != PERF_RECORD_NAMESPACES || size < 24)
		return false;
	*pid = (int32_t)u32_at(p, 8);
	*tid = (int32_t)u32_at(p, 12);
	*nr = u64_at(p, 16);
	*nr_fit = *nr <= (size - 24) / 16 ? *nr : (size - 24) / 16;
	return true;
}

void hwt_event__namespace(const struct hwt_event *ev, uint64_t i, uint64_t *dev, uint64_t *ino)
{
	*dev = u64_at((const uint8_t *)ev->hdr, 24 + 16 * i);
	*ino = u64_at((const uint8_t *)ev->hdr, 32 + 16 * i);
}

/* header, u64 id, char path[] */
bool hwt_event__cgroup(const struct hwt_event *ev, uint64_t *id, const char **path, size_t *len)
{
	size_t size = body_size(ev);

	if (ev->hdr->type != PERF_RECORD_CGROUP || size < 16)
		return false;
	*id = u64_at((const uint8_t *)ev->hdr, 8);
	*path = (const char *)ev->hdr + 16;
	*len = strnlen(*path, size - 16);
	return true;
}

/* header, u64 id, u64 lost */
bool hwt_event__lost(const struct hwt_event *ev, uint64_t *id, uint64_t *lost)
{
	if (ev->hdr->type != PERF_RECORD_LOST || body_size(ev) < 24)
		return false;
	*id = u64_at((const uint8_t *)ev->hdr, 8);
	*lost = u64_at((const uint8_t *)ev->hdr, 16);
	return true;
}

/* header, u64 addr, u32 len, u16 ksym_type, u16 flags, char name[] */
bool hwt_event__ksymbol(const struct hwt_event *ev, uint64_t *addr, uint32_t *len,
			uint16_t *type, uint16_t *flags, const char **name, size_t *name_len)
{
	const uint8_t *p = (const uint8_t *)ev->hdr;
	size_t size = body_size(ev);

	if (ev->hdr->type != PERF_RECORD_KSYMBOL || size < 24)
		return false;
	*addr = u64_at(p, 8);
	*len = u32_at(p, 16);
	memcpy(type, p + 20, 2);
	memcpy(flags, p + 22, 2);
	*name = (const char *)p + 24;
	*name_len = strnlen(*name, size - 24);
	return true;
}

/* header, u16 type, u16 flags, u32 id, u8 tag[8] */
bool hwt_event__bpf(const struct hwt_event *ev, uint16_t *type, uint16_t *flags, uint32_t *id)
{
	const uint8_t *p = (const uint8_t *)ev->hdr;

	if (ev->hdr->type != PERF_RECORD_BPF_EVENT || body_size(ev) < 16)
		return false;
	memcpy(type, p + 8, 2);
	memcpy(flags, p + 10, 2);
	*id = u32_at(p, 12);
	return true;
}

/* header, u32 pid, u32 tid */
bool hwt_event__itrace_start(const struct hwt_event *ev, uint32_t *pid, uint32_t *tid)
{
	if (ev->hdr->type != PERF_RECORD_ITRACE_START || body_size(ev) < 16)
		return false;
	*pid = u32_at((const uint8_t *)ev->hdr, 8);
	*tid = u32_at((const uint8_t *)ev->hdr, 12);
	return true;
}

/* header, u64 lost (LOST_SAMPLES) or u64 hw_id (AUX_OUTPUT_HW_ID) */
bool hwt_event__first_u64(const struct hwt_event *ev, uint64_t *v)
{
	if ((ev->hdr->type != PERF_RECORD_LOST_SAMPLES &&
	     ev->hdr->type != PERF_RECORD_AUX_OUTPUT_HW_ID) || body_size(ev) < 16)
		return false;
	*v = u64_at((const uint8_t *)ev->hdr, 8);
	return true;
}
