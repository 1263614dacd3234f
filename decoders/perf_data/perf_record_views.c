// SPDX-License-Identifier: GPL-2.0
/*
 * perf_record_views.c - typed views of record bodies, so that sinks read
 * fields instead of parsing bytes.
 */
#include <string.h>

#include "perf_data_internal.h"

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
