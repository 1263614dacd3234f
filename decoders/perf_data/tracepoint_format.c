// SPDX-License-Identifier: GPL-2.0
/*
 * tracepoint_format.c - tracepoint format text, raw payloads and the
 * TRACING_DATA blob, all derived from record field tables (tracepoint.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/device.h"
#include "hwtrace/tracepoint.h"
#include "blob.h"

/* The kernel's events/header_page on a 64-bit machine with 4 KiB pages. */
static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

/* The kernel's events/header_event (perf skips it, but keep it faithful). */
static const char header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

enum hwt_tp_kind hwt_tp__kind(const struct hwt_field *f)
{
	switch (f->type) {
	case HWT_FT_STR:
		return HWT_TP_STR;
	case HWT_FT_KV:
		return HWT_TP_KV;
	default:
		return hwt_field__is_array(f) ? HWT_TP_LIST : HWT_TP_NUM;
	}
}

bool hwt_tp__is_event(const struct hwt_record_type *t)
{
	return t->kind == HWT_RK_DATA;
}

uint32_t hwt_tp__field_size(const struct hwt_field *f)
{
	/* a __data_loc word is offset | len << 16 */
	return hwt_tp__kind(f) == HWT_TP_NUM ? 8 : 4;
}

/* ---- text building ------------------------------------------------------ */

struct text {
	char *buf;
	size_t size;
	size_t len;
};

static void __attribute__((format(printf, 2, 3))) text_add(struct text *t, const char *fmt, ...)
{
	size_t room = t->len < t->size ? t->size - t->len : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? t->buf + t->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len += n;
}

static void field_decl(struct text *x, const struct hwt_field *f, uint32_t off)
{
	uint32_t size = hwt_tp__field_size(f);

	switch (hwt_tp__kind(f)) {
	case HWT_TP_NUM:
		text_add(x, "\tfield:%s %s;", hwt_field__is_signed(f) ? "s64" : "u64", f->name);
		break;
	default:
		text_add(x, "\tfield:__data_loc char[] %s;", f->name);
		break;
	}
	text_add(x, "\toffset:%u;\tsize:%u;\tsigned:%d;\n", off, size, hwt_field__is_signed(f));
}

/* The conversion of a field in "print fmt:". */
static void field_conv(struct text *x, const struct hwt_field *f)
{
	switch (hwt_tp__kind(f)) {
	case HWT_TP_NUM:
		if (f->hint == HWT_FH_HEX)
			text_add(x, "0x%%llx");
		else if (f->hint == HWT_FH_ENUM || f->hint == HWT_FH_FLAGS)
			text_add(x, "%%s");
		else
			text_add(x, hwt_field__is_signed(f) ? "%%lld" : "%%llu");
		break;
	default:
		text_add(x, "%%s");
		break;
	}
}

static void field_arg(struct text *x, const struct hwt_field *f)
{
	switch (hwt_tp__kind(f)) {
	case HWT_TP_NUM:
		if (f->hint == HWT_FH_ENUM) {
			text_add(x, ", __print_symbolic(REC->%s", f->name);
			for (uint32_t i = 0; i < f->nnames; i++)
				if (f->names[i])
					text_add(x, ", { %u, \"%s\" }", i, f->names[i]);
			text_add(x, ")");
		} else if (f->hint == HWT_FH_FLAGS) {
			text_add(x, ", __print_flags(REC->%s, \"|\"", f->name);
			for (uint32_t i = 0; i < f->nnames && i < 64; i++)
				if (f->names[i])
					text_add(x, ", { 0x%llx, \"%s\" }", 1ULL << i, f->names[i]);
			text_add(x, ")");
		} else {
			text_add(x, ", REC->%s", f->name);
		}
		break;
	default:
		text_add(x, ", __get_str(%s)", f->name);
		break;
	}
}

size_t hwt_tp__format(const struct hwt_record_type *t, char *buf, size_t size)
{
	struct text x = { .buf = buf, .size = size };

	if (size)
		buf[0] = 0;
	text_add(&x, "name: %s\nID: %u\nformat:\n", t->name, t->id);
	text_add(&x, "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n");
	for (uint32_t i = 0; i < t->nfields; i++)
		field_decl(&x, &t->fields[i], hwt_tp__field_offset(i));
	text_add(&x, "\nprint fmt: \"");
	for (uint32_t i = 0; i < t->nfields; i++) {
		text_add(&x, "%s%s=", i ? " " : "", t->fields[i].name);
		field_conv(&x, &t->fields[i]);
	}
	text_add(&x, "\"");
	for (uint32_t i = 0; i < t->nfields; i++)
		field_arg(&x, &t->fields[i]);
	text_add(&x, "\n");
	return x.len;
}

/* ---- payload encoding --------------------------------------------------- */

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

size_t hwt_tp__text(const struct hwt_field *f, const void *data, char *buf, size_t size)
{
	uint32_t n = hwt_field__len(f, data);
	struct text x = { .buf = buf, .size = size };

	if (size)
		buf[0] = 0;
	if (!hwt_field__present(f, data))
		return 0;
	if (f->type == HWT_FT_KV) {
		const struct hwt_kv *kv = *(const struct hwt_kv *const *)
			((const char *)data + f->offset);

		for (uint32_t i = 0; kv && i < n; i++)
			text_add(&x, "%s%s=%llu", i ? "," : "", kv[i].key ? kv[i].key : "",
				 (unsigned long long)kv[i].val);
		return x.len;
	}
	for (uint32_t i = 0; i < n; i++) {
		unsigned long long v = hwt_field__u64(f, data, i);

		if (f->hint == HWT_FH_HEX)
			text_add(&x, "%s0x%llx", i ? "," : "", v);
		else if (hwt_field__is_signed(f))
			text_add(&x, "%s%lld", i ? "," : "", (long long)v);
		else
			text_add(&x, "%s%llu", i ? "," : "", v);
	}
	return x.len;
}

/* Append a dynamic piece at *dyn (8-aligned); returns false if it does not fit. */
static bool put_dyn(uint8_t *buf, size_t size, size_t *dyn, uint32_t slot, size_t len)
{
	if (*dyn + len > size || *dyn + len > HWT_TP_MAX_PAYLOAD || len > 0xffff)
		return false;
	put_le(buf + slot, (uint64_t)*dyn | (uint64_t)len << 16, 4);
	return true;
}

size_t hwt_tp__encode(const struct hwt_record_type *t, const void *data, int32_t pid,
		      uint8_t *buf, size_t size)
{
	size_t fixed = hwt_tp__field_offset(t->nfields), dyn = fixed;

	if (fixed > size || fixed > HWT_TP_MAX_PAYLOAD)
		return 0;
	memset(buf, 0, fixed);
	put_le(buf, t->id, 2);
	put_le(buf + 4, (uint32_t)pid, 4);
	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct hwt_field *f = &t->fields[i];
		uint32_t off = hwt_tp__field_offset(i);
		bool present = hwt_field__present(f, data);
		size_t len = 0;

		switch (hwt_tp__kind(f)) {
		case HWT_TP_NUM:
			if (present)
				put_le(buf + off, hwt_field__u64(f, data, 0), 8);
			break;
		case HWT_TP_STR: {
			const char *s = present ?
				*(const char *const *)((const char *)data + f->offset) : NULL;

			len = (s ? strlen(s) : 0) + 1;
			if (!put_dyn(buf, size, &dyn, off, len))
				return 0;
			memcpy(buf + dyn, s ? s : "", len);
			break;
		}
		case HWT_TP_LIST:
		case HWT_TP_KV: {
			size_t room = size - dyn < 0xffff ? size - dyn : 0xffff;

			/* written in place; cut text means it did not fit */
			len = hwt_tp__text(f, data, (char *)buf + dyn, room) + 1;
			if (!put_dyn(buf, size, &dyn, off, len))
				return 0;
			break;
		}
		}
		if (hwt_tp__kind(f) != HWT_TP_NUM) {
			size_t end = dyn + len;

			dyn = (end + 7) & ~(size_t)7;
			if (dyn > size)
				dyn = end;
			memset(buf + end, 0, dyn - end);
		}
	}
	return dyn;
}

/* Numeric scalar field @name of @rec, when the type has it and it is set. */
static bool field_value(const struct hwt_record *rec, const char *name, uint64_t *v)
{
	const struct hwt_record_type *t = rec->type;

	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct hwt_field *f = &t->fields[i];

		if (strcmp(f->name, name) || hwt_tp__kind(f) != HWT_TP_NUM)
			continue;
		if (!hwt_field__present(f, rec->data))
			return false;
		*v = hwt_field__u64(f, rec->data, 0);
		return true;
	}
	return false;
}

void hwt_tp__sample_fields(const struct hwt_record *rec, uint64_t *time, uint32_t *cpu,
			   int32_t *pid)
{
	uint64_t v;

	field_value(rec, "time", time);
	if (field_value(rec, "cpu", &v))
		*cpu = (uint32_t)v;
	if (field_value(rec, "pid", &v))
		*pid = (int32_t)v;
}

/* ---- TRACING_DATA ------------------------------------------------------- */

void *hwt_tp__tracing_data(size_t *size)
{
	static const uint8_t magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct blob b = { 0 };
	uint32_t nevents = 0;

	blob_put(&b, magic, sizeof(magic));
	blob_put(&b, "0.6", 4);
	blob_le(&b, 0, 1);		/* big_endian */
	blob_le(&b, 8, 1);		/* long_size */
	blob_le(&b, 4096, 4);		/* page_size */
	blob_put(&b, "header_page", 12);
	blob_le(&b, sizeof(header_page) - 1, 8);
	blob_put(&b, header_page, sizeof(header_page) - 1);
	blob_put(&b, "header_event", 13);
	blob_le(&b, sizeof(header_event) - 1, 8);
	blob_put(&b, header_event, sizeof(header_event) - 1);
	blob_le(&b, 0, 4);		/* ftrace formats */
	hwt_devices__for_each_type(d, t)
		nevents += hwt_tp__is_event(*t);
	blob_le(&b, nevents ? 1 : 0, 4);	/* systems */
	if (nevents) {
		blob_put(&b, HWT_TP_SYSTEM, sizeof(HWT_TP_SYSTEM));
		blob_le(&b, nevents, 4);
		hwt_devices__for_each_type(d, t) {
			size_t n;
			char *text;

			if (b.nomem || !hwt_tp__is_event(*t))
				continue;
			n = hwt_tp__format(*t, NULL, 0);
			text = malloc(n + 1);
			if (!text) {
				b.nomem = true;
				continue;
			}
			hwt_tp__format(*t, text, n + 1);
			blob_le(&b, n, 8);
			blob_put(&b, text, n);
			free(text);
		}
	}
	blob_le(&b, 0, 4);		/* kallsyms */
	blob_le(&b, 0, 4);		/* printk formats */
	blob_le(&b, 0, 8);		/* saved_cmdlines */
	if (b.nomem) {
		free(b.p);
		return NULL;
	}
	*size = b.len;
	return b.p;
}
