/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sample_id_internal.h - where a record names its event (sample id), and a
 * record rewritten to name it as PERF_SAMPLE_IDENTIFIER does; for inject,
 * which must give every attr of its output the same id place (design.rst 5).
 * Not installed, not exported.
 */
#ifndef HWTRACE_SAMPLE_ID_INTERNAL_H
#define HWTRACE_SAMPLE_ID_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/perf_data.h"

/**
 * hwt_sample_id__positions - perf's id_pos and is_pos of a sample_type
 * @sample_type: the attr's
 * @id_pos:	set to the u64 index of the id in a SAMPLE's body, -1 if none
 * @is_pos:	set to the u64 index of the id counted back from the end of a
 *		sample_id_all trailer (1 = last), -1 if none
 *
 * perf reads a file only when every attr gives the same two (unless there
 * is just one attr).
 */
void hwt_sample_id__positions(uint64_t sample_type, int *id_pos, int *is_pos);

/**
 * hwt_record__field_id - the event id a user record names in a field of its own
 * @hdr:	the record
 * @id:		set to the id (EVENT_UPDATE, STAT)
 *
 * Returns false for records without such a field, or too short to hold it.
 */
bool hwt_record__field_id(const struct perf_event_header *hdr, uint64_t *id);

/**
 * hwt_record__set_id - a record as its event's attr with PERF_SAMPLE_IDENTIFIER
 * set makes it, naming the event by @id
 * @hdr:	the record as the input has it
 * @a:		its event's attr in the input (NULL: a record outside any event)
 * @id:		the id to write
 * @buf:	output
 * @size:	room in @buf
 *
 * A SAMPLE gets @id as its first u64, a kernel record with a sample_id_all
 * trailer as the trailer's last u64 (inserted when @a lacks IDENTIFIER,
 * overwritten when it has it); a PERF_SAMPLE_ID slot gets @id too, since
 * perf also looks the event up by that.  EVENT_UPDATE and STAT get @id in
 * their id field; other records are copied as they are.
 *
 * Returns the new record's size, or 0 when it does not fit @size or a perf
 * record (64 KiB).
 */
size_t hwt_record__set_id(const struct perf_event_header *hdr, const struct perf_event_attr *a,
			  uint64_t id, uint8_t *buf, size_t size);

#endif
