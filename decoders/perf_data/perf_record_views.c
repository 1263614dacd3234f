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
#undef NEXT
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
