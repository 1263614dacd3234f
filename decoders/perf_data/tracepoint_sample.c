// SPDX-License-Identifier: GPL-2.0
/*
 * tracepoint_sample.c - decoded records as PERF_RECORD_SAMPLEs of tracepoint
 * events (design.rst 5): the attrs and sample ids of the events, and the
 * sample bytes of each record.  inject drives it; the payload encoding is
 * tracepoint_format.c's.
 */
#include <stdio.h>
#include <string.h>

#include "hwtrace/device.h"
#include "tracepoint_internal.h"

/* header, id, pid/tid, time, cpu/res, period, raw size */
#define SAMPLE_FIXED	(8 + 8 + 8 + 8 + 8 + 8 + 4)

/* Whether one of the input's attrs already uses sample id @id. */
static bool id_used(const struct hwt_reader *r, uint32_t nattrs, uint64_t id)
{
	for (uint32_t i = 0; i < nattrs; i++) {
		const struct hwt_attr *a = hwt_reader__attr(r, i);

		for (uint32_t k = 0; k < a->nr_ids; k++)
			if (a->ids[k] == id)
				return true;
	}
	return false;
}

int hwt_tp_events__declare(struct hwt_tp_events *ev, struct hwt_writer *w,
			   const struct hwt_reader *r, bool sample_id_all, uint64_t taken)
{
	uint32_t nattrs = r ? hwt_reader__nr_attrs(r) : 0;
	uint64_t next_id = 1;
	int ret = 0;

	memset(ev, 0, sizeof(*ev));
	for (uint32_t i = 0; i < nattrs; i++) {
		const struct hwt_attr *a = hwt_reader__attr(r, i);

		for (uint32_t k = 0; k < a->nr_ids; k++)
			if (a->ids[k] >= next_id)
				next_id = a->ids[k] + 1;
	}
	hwt_devices__for_each_type(d, t) {
		char name[128];
		struct hwt_writer_attr wa = { .nr_ids = 1, .name = name };
		uint64_t *id = &ev->ids[ev->n];

		if (!hwt_tp__is_event(*t) || ev->n == HWT_TP_MAX_EVENTS)
			continue;
		/* past the input's largest id; after 2^64 - 1 (0 means none) the free ones */
		do
			*id = next_id++;
		while (!*id || *id == taken || id_used(r, nattrs, *id));
		ev->types[ev->n++] = *t;
		snprintf(name, sizeof(name), "%s:%s", HWT_TP_SYSTEM, (*t)->name);
		wa.ids = id;
		wa.attr.type = PERF_TYPE_TRACEPOINT;
		wa.attr.size = sizeof(wa.attr);
		wa.attr.config = (*t)->id;
		wa.attr.sample_period = 1;
		wa.attr.sample_type = HWT_TP_SAMPLE_TYPE;
		wa.attr.sample_id_all = sample_id_all;
		if (hwt_writer__add_attr(w, &wa) < 0)
			ret = -1;
	}
	return ret;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

size_t hwt_tp__sample(const struct hwt_record *rec, uint64_t id, uint64_t time, uint32_t cpu,
		      int32_t tid, uint8_t *buf, size_t size)
{
	struct perf_event_header *h = (void *)buf;
	size_t raw, total;
	uint8_t *p;

	if (size < SAMPLE_FIXED + 8)
		return 0;
	hwt_tp__sample_fields(rec, &time, &cpu, &tid);
	raw = hwt_tp__encode(rec->type, rec->data, tid, buf + SAMPLE_FIXED,
			     size - SAMPLE_FIXED - 8);
	total = SAMPLE_FIXED + hwt_tp__raw_padded(raw);
	if (!raw || total > UINT16_MAX || total > size)
		return 0;
	memset(buf + SAMPLE_FIXED + raw, 0, total - SAMPLE_FIXED - raw);
	*h = (struct perf_event_header){ .type = PERF_RECORD_SAMPLE, .size = (uint16_t)total };
	p = buf + 8;
	put64(p, id);
	put32(p + 8, (uint32_t)tid);
	put32(p + 12, (uint32_t)tid);
	put64(buf + HWT_TP_SAMPLE_TIME_OFF, time);
	put32(buf + HWT_TP_SAMPLE_CPU_OFF, cpu);
	put32(p + 28, 0);
	put64(p + 32, 1);		/* period */
	put32(p + 40, (uint32_t)(total - SAMPLE_FIXED));
	return total;
}
