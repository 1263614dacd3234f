/* SPDX-License-Identifier: GPL-2.0 */
/*
 * field_fmt.h - show a record's fields by walking its type's field table.
 *
 * The one place that turns field values into text; every sink calls it.
 */
#ifndef PERF_HWTRACE_FIELD_FMT_H
#define PERF_HWTRACE_FIELD_FMT_H

#include <stdbool.h>

#include "hwtrace/record.h"
#include "out.h"

enum field_style {
	FS_TEXT,	/* name=value, hex hint as 0x.., lists as a,b */
	FS_JSON,	/* JSON value */
	FS_CSV,		/* one CSV cell; lists joined with ';' */
};

/* Write the value of field @f of @data in @style (nothing if absent). */
void field_fmt__value(struct out *o, const struct hwt_field *f, const void *data,
		      enum field_style style);

/* A whole record as one JSON object: {"type":..., field: value, ...} */
void field_fmt__json(struct out *o, const struct hwt_record *rec,
		     const char *const *only, unsigned nonly);

/* A whole record as a text line: "type: name=value ..." */
void field_fmt__text(struct out *o, const struct hwt_record *rec,
		     const char *const *only, unsigned nonly);

/* Render rec->type->dump_fmt (see record.h); returns false if the type has none. */
bool field_fmt__dump(struct out *o, const struct hwt_record *rec);

/* Field index by name, or -1. */
int field_fmt__find(const struct hwt_record_type *t, const char *name);

#endif
