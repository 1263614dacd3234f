/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record.h - the one record schema every sink walks.
 *
 * A decoder fills a plain C struct (struct hwt_cxl_hmu_unit, ...) and emits
 * it as a struct hwt_record that points at the struct and at its
 * struct hwt_record_type.  The type's field table says, for every field, its
 * name, C type, offset and how to show it.  JSON keys, CSV columns, the text
 * line, Python dict keys, tracepoint format text and the raw payload written
 * by inject all come from walking that table: a sink never switches over
 * record types, and a new field touches one table.
 */
#ifndef HWTRACE_RECORD_H
#define HWTRACE_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include "api.h"

/* C type of a field.  Arrays use .count (fixed) or .count_offset (variable). */
enum hwt_ftype {
	HWT_FT_U8,
	HWT_FT_U16,
	HWT_FT_U32,
	HWT_FT_U64,
	HWT_FT_S64,
	HWT_FT_BOOL,	/* bool in the struct; JSON true/false, text 0/1 */
	HWT_FT_STR,	/* const char * (NUL-terminated) in the struct */
	HWT_FT_U64_VEC,	/* const uint64_t * + uint32_t count at .count_offset */
	HWT_FT_KV,	/* const struct hwt_kv * + uint32_t count at .count_offset */
};

/* Display hints. */
enum hwt_fhint {
	HWT_FH_DEC = 0,
	HWT_FH_HEX,	/* 0x%llx in text and CSV, the string "0x.." in JSON */
	HWT_FH_ENUM,	/* value indexes .names; shown as that string */
	HWT_FH_FLAGS,	/* bit i set -> .names[i]; shown as a list of strings */
};

/* Field flags. */
#define HWT_FF_OPTIONAL	0x1	/* present only when bool at .present_offset is true */
#define HWT_FF_NODUMP	0x2	/* not shown in the default text line */
#define HWT_FF_SIGNED	0x4	/* two's complement at the field's width (cpu: -1 unknown) */

/**
 * struct hwt_kv - one named value in a HWT_FT_KV field (panthor "counters")
 * @key:	name, e.g. "GPU_ACTIVE" or "42" for an unnamed index
 * @val:	the value
 */
struct hwt_kv {
	const char *key;
	uint64_t val;
};

/**
 * struct hwt_field - one entry of a record type's field table
 * @name:	the field's name in every sink (JSON key, CSV column, Python arg)
 * @type:	C type in the record struct
 * @offset:	offsetof() in the record struct
 * @count:	fixed array length (0 or 1 = scalar); arrays of HWT_FT_U* only
 * @count_offset: offsetof() a uint32_t holding the length, for _VEC and _KV
 * @hint:	how to show the value
 * @names:	enum or flag names for HWT_FH_ENUM / HWT_FH_FLAGS
 * @nnames:	number of @names
 * @flags:	HWT_FF_*
 * @present_offset: offsetof() a bool that says whether an optional field is set
 */
struct hwt_field {
	const char *name;
	enum hwt_ftype type;
	size_t offset;
	uint32_t count;
	size_t count_offset;
	enum hwt_fhint hint;
	const char *const *names;
	uint32_t nnames;
	uint32_t flags;
	size_t present_offset;
};

enum hwt_record_kind {
	HWT_RK_DATA,
	HWT_RK_FRAMING,
	HWT_RK_SUMMARY,
};

/**
 * struct hwt_record_type - a record type and its field table
 * @name:	e.g. "cxl_hmu_unit"; the tracepoint name in system "hwtrace"
 * @id:		tracepoint ID used by inject (unique, stable)
 * @fields:	the field table
 * @nfields:	its length
 * @dump_fmt:	template for `report -D` lines, or NULL for "name=value ..."
 *		"{field}" prints the field as its hint says, "{field:x}" as bare
 *		lower-case hex, "{field:016x}" zero-padded hex, "{field:d}"
 *		decimal; "\n" separates lines.  Used for byte-exact dumps such as
 *		the CXL HMU RFC's "Header 0: units: %x counter_width %x".
 * @kind:	HWT_RK_DATA (one per device unit: script, inject, Python),
 *		HWT_RK_FRAMING (packet/sample headers: only -D shows them) or
 *		HWT_RK_SUMMARY (emitted by ops->finish: report prints them)
 * @as_list:	summary records too wide for a terminal's table: report prints
 *		each as a list of name and value lines
 */
struct hwt_record_type {
	const char *name;
	uint32_t id;
	const struct hwt_field *fields;
	uint32_t nfields;
	const char *dump_fmt;
	enum hwt_record_kind kind;
	bool as_list;
};

/**
 * struct hwt_record - one decoded unit on its way to the sinks
 * @type:	its type
 * @data:	the typed struct, valid only during the emit callback
 * @stream:	index of the AUX stream (decoder instance) it came from
 * @offset:	file offset of the bytes it was decoded from
 * @metrics:	its metrics (metrics.h) when the session computes them, else NULL
 */
struct hwt_record {
	const struct hwt_record_type *type;
	const void *data;
	uint32_t stream;
	uint64_t offset;
	const struct hwt_metrics *metrics;
};

/* Helpers for writing field tables. */
#define HWT_FIELD(st, memb, ft, hint_) \
	{ .name = #memb, .type = ft, .offset = offsetof(st, memb), .hint = hint_ }
#define HWT_FIELD_ARRAY(st, memb, ft, n, hint_) \
	{ .name = #memb, .type = ft, .offset = offsetof(st, memb), .count = n, .hint = hint_ }
#define HWT_FIELD_VEC(st, memb, cnt, ft) \
	{ .name = #memb, .type = ft, .offset = offsetof(st, memb), \
	  .count_offset = offsetof(st, cnt) }
#define HWT_FIELD_ENUM(st, memb, ft, tbl) \
	{ .name = #memb, .type = ft, .offset = offsetof(st, memb), .hint = HWT_FH_ENUM, \
	  .names = tbl, .nnames = sizeof(tbl) / sizeof(tbl[0]) }
#define HWT_FIELD_FLAGS(st, memb, ft, tbl) \
	{ .name = #memb, .type = ft, .offset = offsetof(st, memb), .hint = HWT_FH_FLAGS, \
	  .names = tbl, .nnames = sizeof(tbl) / sizeof(tbl[0]) }
#define HWT_FIELD_OPT(st, memb, ft, hint_, has) \
	{ .name = #memb, .type = ft, .offset = offsetof(st, memb), .hint = hint_, \
	  .flags = HWT_FF_OPTIONAL, .present_offset = offsetof(st, has) }
#define HWT_FIELD_VEC_OPT(st, memb, cnt, ft, has) \
	{ .name = #memb, .type = ft, .offset = offsetof(st, memb), \
	  .count_offset = offsetof(st, cnt), .flags = HWT_FF_OPTIONAL, \
	  .present_offset = offsetof(st, has) }

/**
 * hwt_field__present - whether an optional field is set in @data
 */
static inline bool hwt_field__present(const struct hwt_field *f, const void *data)
{
	if (!(f->flags & HWT_FF_OPTIONAL))
		return true;
	return *(const bool *)((const char *)data + f->present_offset);
}

/**
 * hwt_field__is_signed - whether a numeric field's value is shown signed
 */
static inline bool hwt_field__is_signed(const struct hwt_field *f)
{
	return f->type == HWT_FT_S64 || (f->flags & HWT_FF_SIGNED);
}

/**
 * hwt_field__u64 - read element @i of a numeric field as u64
 *
 * A HWT_FF_SIGNED field narrower than 64 bits is sign-extended, so that
 * (int64_t)hwt_field__u64() is its value.
 */
HWT_API uint64_t hwt_field__u64(const struct hwt_field *f, const void *data, uint32_t i);

/**
 * hwt_field__len - number of elements: 1 for scalars, count for arrays/vectors
 */
HWT_API uint32_t hwt_field__len(const struct hwt_field *f, const void *data);

/**
 * hwt_field__is_array - true for fixed arrays, _VEC and _KV fields
 */
HWT_API bool hwt_field__is_array(const struct hwt_field *f);

/**
 * hwt_record_type__find - look a record type up by name among the device
 * table's (device.h); NULL if unknown
 */
HWT_API const struct hwt_record_type *hwt_record_type__find(const char *name);

#endif
