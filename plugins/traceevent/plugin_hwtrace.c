// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_hwtrace.c - libtraceevent plugin: the hwtrace:* events that
 * `perf hwtrace inject` writes, formatted for humans.
 *
 * One handler serves every data record type: it walks the type's field table
 * (the record types of libhwtrace's device table, linked in) and reads each field from the
 * sample with tep_get_field_val()/tep_get_field_raw().  Against the format's
 * own "print fmt" it drops what perf's line prefix already shows (cpu, time)
 * and fields hidden from the text line, shows an unset optional address
 * (hpa=0) not at all, and summarises counter arrays as n/sum/max.
 *
 * Only functions Debian's perf 6.1 exports from its built-in libtraceevent
 * are used (tep_register_event_handler, tep_unregister_event_handler,
 * tep_get_field_val, tep_get_field_raw, tep_plugin_add_options,
 * tep_plugin_remove_options, trace_seq_printf, trace_seq_puts), so
 * the plugin loads there and in trace-cmd's libtraceevent.so.
 *
 * Option hwtrace:all (trace-cmd -O hwtrace:all) prints every field.
 */
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include <trace-seq.h>

#include "hwtrace/device.h"
#include "hwtrace/record.h"
#include "hwtrace/tracepoint.h"

struct tep_plugin_option TEP_PLUGIN_OPTIONS[] = {
	{
		.name = "all",
		.plugin_alias = "hwtrace",
		.description = "show every field of hwtrace events, cpu and time included",
		.set = 0,
	},
	{ .name = NULL },
};

static bool show_all(void)
{
	return TEP_PLUGIN_OPTIONS[0].set;
}

static void number(struct trace_seq *s, const struct hwt_field *f, uint64_t v)
{
	if (f->hint == HWT_FH_ENUM && v < f->nnames && f->names[v]) {
		trace_seq_puts(s, f->names[v]);
	} else if (f->hint == HWT_FH_FLAGS) {
		bool first = true;

		for (unsigned bit = 0; bit < 64; bit++) {
			if (!(v & (1ULL << bit)))
				continue;
			if (!first)
				trace_seq_puts(s, "|");
			first = false;
			if (bit < f->nnames && f->names[bit])
				trace_seq_puts(s, f->names[bit]);
			else
				trace_seq_printf(s, "bit%u", bit);
		}
		if (first)
			trace_seq_puts(s, "0");
	} else if (f->hint == HWT_FH_HEX) {
		trace_seq_printf(s, "0x%llx", (unsigned long long)v);
	} else if (hwt_field__is_signed(f)) {
		trace_seq_printf(s, "%lld", (long long)v);
	} else {
		trace_seq_printf(s, "%llu", (unsigned long long)v);
	}
}

/*
 * "values[64]{sum=.. max=..@idx nz=..}" for "v0,v1,..." text.  @len comes
 * from the sample's __data_loc word: the text is parsed from a terminated
 * copy, so a number cut by @len is never read on past it.
 */
static void list_summary(struct trace_seq *s, const char *p, int len)
{
	char *text = strndup(p, len > 0 ? (size_t)len : 0), *q = text;
	uint64_t sum = 0, max = 0;
	unsigned n = 0, nz = 0, at = 0;

	if (!text)
		return;
	while (*q >= '0' && *q <= '9') {
		char *next;
		uint64_t v = strtoull(q, &next, 0);

		sum += v;
		nz += v != 0;
		if (v > max) {
			max = v;
			at = n;
		}
		n++;
		q = *next == ',' ? next + 1 : next;
	}
	trace_seq_printf(s, "[%u]{sum=%llu max=%llu@%u nz=%u}", n, (unsigned long long)sum,
			 (unsigned long long)max, at, nz);
	free(text);
}

/* "counters{n=.. sum=.. max=NAME:v}" for "KEY=v,KEY=v" text. */
static void kv_summary(struct trace_seq *s, const char *p, int len)
{
	char *text = strndup(p, len > 0 ? (size_t)len : 0), *save = NULL, *best = NULL;
	uint64_t sum = 0, max = 0;
	unsigned n = 0;

	if (!text)
		return;
	for (char *kv = strtok_r(text, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		uint64_t v = eq ? strtoull(eq + 1, NULL, 0) : 0;

		n++;
		sum += v;
		if (eq && (!best || v > max)) {
			max = v;
			*eq = 0;
			best = kv;
		}
	}
	trace_seq_printf(s, "{n=%u sum=%llu", n, (unsigned long long)sum);
	if (best)
		trace_seq_printf(s, " max=%s:%llu", best, (unsigned long long)max);
	trace_seq_puts(s, "}");
	free(text);
}

static int handler(struct trace_seq *s, struct tep_record *record, struct tep_event *event,
		   void *context)
{
	const struct hwt_record_type *t = context;
	bool all = show_all(), first = true;

	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct hwt_field *f = &t->fields[i];
		enum hwt_tp_kind kind = hwt_tp__kind(f);
		unsigned long long v = 0;
		const void *p;
		int len = 0;

		if (!all && ((f->flags & HWT_FF_NODUMP) || !strcmp(f->name, "cpu") ||
			     !strcmp(f->name, "time")))
			continue;
		if (kind == HWT_TP_NUM) {
			if (tep_get_field_val(s, event, f->name, record, &v, 1))
				continue;
			if (!all && (f->flags & HWT_FF_OPTIONAL) && !v)
				continue;	/* inject writes an unset optional as 0 */
			trace_seq_printf(s, "%s%s=", first ? "" : " ", f->name);
			number(s, f, v);
		} else {
			p = tep_get_field_raw(s, event, f->name, record, &len, 1);
			if (!p || (!all && (f->flags & HWT_FF_OPTIONAL) && len <= 1))
				continue;
			trace_seq_printf(s, "%s%s", first ? "" : " ", f->name);
			if (kind == HWT_TP_STR)
				trace_seq_printf(s, "=%.*s", len > 0 ? len - 1 : 0,
						 (const char *)p);
			else if (kind == HWT_TP_KV)
				kv_summary(s, p, len);
			else
				list_summary(s, p, len);
		}
		first = false;
	}
	return 0;
}

int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	/* listed by `trace-cmd list -O`, settable with -O hwtrace:all */
	tep_plugin_add_options("hwtrace", TEP_PLUGIN_OPTIONS);
	hwt_devices__for_each_type(d, t)
		if (hwt_tp__is_event(*t))
			tep_register_event_handler(tep, -1, HWT_TP_SYSTEM, (*t)->name, handler,
						   (void *)*t);
	return 0;
}

void TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	tep_plugin_remove_options(TEP_PLUGIN_OPTIONS);
	hwt_devices__for_each_type(d, t)
		if (hwt_tp__is_event(*t))
			tep_unregister_event_handler(tep, -1, HWT_TP_SYSTEM, (*t)->name, handler,
						     (void *)*t);
}
