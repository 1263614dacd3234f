// SPDX-License-Identifier: GPL-2.0
/*
 * sample_id.c - the places a perf record names its event, and records
 * rewritten as an attr with PERF_SAMPLE_IDENTIFIER makes them (inject passes
 * ordinary recordings through this way, design.rst 5).
 */
#include <string.h>

#include "sample_id_internal.h"

/* SAMPLE fields before PERF_SAMPLE_ID; trailer fields after it */
#define BEFORE_ID	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR)
#define AFTER_ID	(PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

void hwt_sample_id__positions(uint64_t sample_type, int *id_pos, int *is_pos)
{
	if (sample_type & PERF_SAMPLE_IDENTIFIER) {
		*id_pos = 0;
		*is_pos = 1;
	} else if (sample_type & PERF_SAMPLE_ID) {
		*id_pos = __builtin_popcountll(sample_type & BEFORE_ID);
		*is_pos = 1 + __builtin_popcountll(sample_type & AFTER_ID);
	} else {
		*id_pos = -1;
		*is_pos = -1;
	}
}

/* Byte offset of the id field of a user record, 0 if it has none. */
static uint32_t field_id_off(uint32_t type)
{
	switch (type) {
	case HWT_REC_EVENT_UPDATE:	/* header, u64 type, u64 id */
		return 16;
	case HWT_REC_STAT:		/* header, u64 id */
		return 8;
	default:
		return 0;
	}
}

bool hwt_record__field_id(const struct perf_event_header *hdr, uint64_t *id)
{
	uint32_t off = field_id_off(hdr->type);

	if (!off || hdr->size < off + 8)
		return false;
	memcpy(id, (const uint8_t *)hdr + off, 8);
	return true;
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

size_t hwt_record__set_id(const struct perf_event_header *hdr, const struct perf_event_attr *a,
			  uint64_t id, uint8_t *buf, size_t size)
{
	const uint8_t *in = (const uint8_t *)hdr;
	uint64_t st = a ? a->sample_type : 0;
	bool sample = hdr->type == PERF_RECORD_SAMPLE && a;
	bool trailer = !sample && hdr->type < HWT_REC_HEADER_ATTR && a && a->sample_id_all;
	bool add = (sample || trailer) && !(st & PERF_SAMPLE_IDENTIFIER);
	size_t n = hdr->size, out = n + (add ? 8 : 0), pos;

	/* an IDENTIFIER the record has is overwritten: it must be there */
	if (out > UINT16_MAX || out > size || n < 8 || ((sample || trailer) && !add && n < 16))
		return 0;
	if (sample && add) {
		memcpy(buf, in, 8);
		memcpy(buf + 16, in + 8, n - 8);
	} else {
		memcpy(buf, in, n);
	}
	((struct perf_event_header *)buf)->size = (uint16_t)out;
	st |= PERF_SAMPLE_IDENTIFIER;
	if (sample) {
		put64(buf + 8, id);
		if (st & PERF_SAMPLE_ID) {
			/* PERF_SAMPLE_ID comes after the IDENTIFIER now there */
			pos = 8 + 8 * (size_t)__builtin_popcountll(st & BEFORE_ID);
			if (pos + 8 <= out)
				put64(buf + pos, id);
		}
	} else if (trailer) {
		put64(buf + out - 8, id);
		if (st & PERF_SAMPLE_ID) {
			pos = 8 * (1 + (size_t)__builtin_popcountll(st & AFTER_ID));
			if (pos + 8 <= out)
				put64(buf + out - pos, id);
		}
	} else if (field_id_off(hdr->type) && n >= field_id_off(hdr->type) + 8) {
		put64(buf + field_id_off(hdr->type), id);
	}
	return out;
}
