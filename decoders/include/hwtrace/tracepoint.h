/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracepoint.h - record types as tracepoint-style events (design.rst 5).
 *
 * inject hands decoded records to stock perf as PERF_RECORD_SAMPLEs of
 * made-up tracepoints in system "hwtrace".  Everything here is derived from a
 * record type's field table (record.h), so no record type has code of its own:
 *
 *	table field		tracepoint field		perf's Python sees
 *	U8..U64, BOOL		u64 name (8 bytes)		int
 *	S64			s64 name (signed:1)		int (signed)
 *	STR			__data_loc char[] name		str
 *	fixed array, U64_VEC	__data_loc char[] name		str "v0,v1,..."
 *	KV			__data_loc char[] name		str "KEY=v,KEY=v"
 *
 * Arrays travel as text because perf 6.1 gives Python a bytearray for any
 * array field and `perf data convert --to-ctf` rejects __data_loc arrays of
 * numbers; elements are decimal, or 0x-hex for hex fields (int(x, 0) reads
 * both).  An absent optional field is written as 0 (or empty text).  The
 * payload is the four common fields (8 bytes), one 8-byte slot per field (a
 * __data_loc word uses the first 4 bytes of its slot), then the texts in
 * field order, each NUL-terminated and 8-byte aligned.
 */
#ifndef HWTRACE_TRACEPOINT_H
#define HWTRACE_TRACEPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "perf_data.h"
#include "record.h"

#define HWT_TP_SYSTEM		"hwtrace"
#define HWT_TP_COMMON_SIZE	8	/* common_type, _flags, _preempt_count, _pid */
#define HWT_TP_MAX_PAYLOAD	65000	/* a sample's u16 header.size bounds it */

/* How a field is carried in the payload. */
enum hwt_tp_kind {
	HWT_TP_NUM,		/* u64 / s64 */
	HWT_TP_STR,		/* __data_loc char[] */
	HWT_TP_LIST,		/* __data_loc char[] "v0,v1,..." (arrays) */
	HWT_TP_KV,		/* __data_loc char[] "KEY=v,..." */
};

/**
 * hwt_tp__kind - how field @f is carried
 */
HWT_API enum hwt_tp_kind hwt_tp__kind(const struct hwt_field *f);

/**
 * hwt_tp__is_event - true when records of @t become tracepoint samples
 *
 * Only HWT_RK_DATA types do; framing and summary records are not injected.
 */
HWT_API bool hwt_tp__is_event(const struct hwt_record_type *t);

/**
 * hwt_tp__field_offset - payload offset of field @i (i == nfields: the size
 * of the fixed part)
 */
static inline uint32_t hwt_tp__field_offset(uint32_t i)
{
	return HWT_TP_COMMON_SIZE + 8 * i;
}

/**
 * hwt_tp__field_size - the size: line of field @f in the format text
 */
HWT_API uint32_t hwt_tp__field_size(const struct hwt_field *f);

/**
 * hwt_tp__format - the tracepoint format text of @t
 * @t:		a record type
 * @buf:	where to write (may be NULL when @size is 0)
 * @size:	room in @buf
 *
 * Writes "name:", "ID:", "format:" and "print fmt:" as tracefs shows them.
 * Returns the length of the whole text (like snprintf: when it is >= @size
 * the text was cut).
 */
HWT_API size_t hwt_tp__format(const struct hwt_record_type *t, char *buf, size_t size);

/**
 * hwt_tp__encode - the PERF_SAMPLE_RAW payload of a record
 * @t:		the record's type
 * @data:	the record struct
 * @pid:	common_pid
 * @buf:	output
 * @size:	room in @buf
 *
 * Returns the payload length (not padded), or 0 when it does not fit in
 * @size or in HWT_TP_MAX_PAYLOAD (a dynamic field longer than 64 KiB).
 */
HWT_API size_t hwt_tp__encode(const struct hwt_record_type *t, const void *data, int32_t pid,
			      uint8_t *buf, size_t size);

/**
 * hwt_tp__text - the text a LIST or KV field is encoded as
 * @f:		a field of kind HWT_TP_LIST or HWT_TP_KV
 * @data:	the record struct
 * @buf:	output, NUL-terminated when @size > 0
 * @size:	room in @buf
 *
 * Returns the text length (snprintf semantics).
 */
HWT_API size_t hwt_tp__text(const struct hwt_field *f, const void *data, char *buf, size_t size);

/**
 * hwt_tp__raw_padded - PERF_SAMPLE_RAW size for a payload of @n bytes
 *
 * The u32 size word and the data together keep the sample 8-aligned, so the
 * data is padded with zeros (as the kernel pads it).
 */
static inline size_t hwt_tp__raw_padded(size_t n)
{
	return ((n + 4 + 7) & ~(size_t)7) - 4;
}

/**
 * hwt_tp__sample_fields - the sample's time, cpu and pid for a record
 * @rec:	the record
 * @time:	in: the default (the AUX chunk's time); out: field "time" if any
 * @cpu:	in: the default; out: field "cpu" if the type has one
 * @pid:	in: the default (the AUXTRACE tid); out: field "pid" if any
 *
 * inject and the Python hook runner use this, so both give hooks the same
 * common_* values.
 */
HWT_API void hwt_tp__sample_fields(const struct hwt_record *rec, uint64_t *time, uint32_t *cpu,
				   int32_t *pid);

/**
 * hwt_tp__tracing_data - the TRACING_DATA blob for every event type
 * @size:	set to its length
 *
 * Version "0.6", little endian, page size 4096, the kernel's header_page and
 * header_event texts, no ftrace formats, system "hwtrace" holding every record
 * type of the device table for which hwt_tp__is_event() is true, and empty
 * kallsyms, printk and saved_cmdlines.  Returns a malloc()ed blob or NULL.
 */
HWT_API void *hwt_tp__tracing_data(size_t *size);

#endif
