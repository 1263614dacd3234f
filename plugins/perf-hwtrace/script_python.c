// SPDX-License-Identifier: GPL-2.0
/*
 * script_python.c - perf-script Python hooks over decoded records.
 *
 * The hook sees exactly what stock `perf script -s` gives it on the file
 * `perf hwtrace inject` writes (checked against Debian's perf 6.1):
 *
 *	trace_begin(), trace_end()
 *	hwtrace__<type>(event_name, context, common_cpu, common_secs, common_nsecs,
 *			common_pid, common_comm, common_callchain, <fields...>
 *			[, perf_sample_dict])
 *	trace_unhandled(event_name, context, fields_dict [, perf_sample_dict])
 *
 * perf_sample_dict is passed only when the function takes one positional
 * argument more, as perf does.  Field values follow tracepoint.h: ints, and
 * str for strings, arrays ("v0,v1,...") and KV fields ("KEY=v,..."); a
 * string field that once holds a non-printable byte is a bytearray from then
 * on (perf's libtraceevent does the same).  Records arrive in decode order;
 * perf sorts by time, which is the same order when times do not go back.
 *
 * Speed (issue 6 wants >= 5x stock perf, tests/bench/inject.sh): whatever a
 * record type fixes (handler, names, attr bytes, dict keys, field kinds) is
 * made once per type; a record's handler gets borrowed objects wherever a
 * value repeats, and empty lists nobody kept from the last call are passed
 * again.  Only CPython's public C API is used (tests/bats/python.bats
 * checks): an int is never changed in place, a new value is a new int.
 */
#ifdef HAVE_PYTHON
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#endif

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/tracepoint.h"
#include "commands.h"
#include "out.h"
#include "run.h"
#include "script_python.h"

#ifdef HAVE_PYTHON

#define MAX_TYPES	64
#define MAX_FIELDS	256
#define CACHED_STR	64	/* strings shorter than this are reused when unchanged */
#define MAX_COMMS	1024
#define PERF_MEM_DATA_SRC_NONE	84410401	/* what perf puts in 'datasrc' */

/*
 * One field of a record type, resolved when the type is first seen so that
 * records need no lookups by name.
 */
struct tp_field {
	uint8_t kind;		/* enum hwt_tp_kind */
	uint8_t type;		/* enum hwt_ftype */
	bool optional;		/* present when the bool at present_offset is */
	bool demoted;		/* string field now passed as bytearray */
	bool is_signed;		/* hwt_field__is_signed() */
	uint32_t offset, present_offset;
	/* the last value: records of a chunk repeat many of them */
	PyObject *last;
	uint64_t last_num;
	const struct hwt_field *f;
	PyObject *key;		/* the name, interned: trace_unhandled's dict key */
	char last_str[CACHED_STR];
};

struct tp_type {
	const struct hwt_record_type *t;
	PyObject *handler;	/* hwtrace__<name>, or NULL */
	bool want_dict;
	int time_i, cpu_i, pid_i;	/* fields hwt_tp__sample_fields() reads, or -1 */
	PyObject *name;		/* "hwtrace__<name>" */
	PyObject *ev_name;	/* "hwtrace:<name>" */
	PyObject *attr;		/* the attr inject writes, as bytes */
	PyObject *dict_tpl;	/* perf_sample_dict's fixed part (dict_template()) */
	struct tp_field *fields;
};

struct comm {
	int32_t tid;
	PyObject *str;
};

/* An int object kept for the next record with the same value (ints are immutable). */
struct int_cache {
	PyObject *o;
	long long v;
};

/* Keys of the dicts built per record, made once (insertion order is perf's). */
enum dict_key {
	K_COMMON_CPU, K_COMMON_S, K_COMMON_NS, K_COMMON_PID, K_COMMON_COMM, K_COMMON_CALLCHAIN,
	K_EV_NAME, K_ATTR, K_SAMPLE, K_RAW_BUF, K_COMM, K_CALLCHAIN, K_BRSTACK, K_BRSTACKSYM,
	K_IREGS, K_UREGS, K_PID, K_TID, K_CPU, K_IP, K_TIME, K_PERIOD, K_PHYS_ADDR, K_ADDR,
	K_VALUES, K_WEIGHT, K_TRANSACTION, K_DATASRC, K_DATASRC_DECODE, K_CPUMODE,
	NKEYS
};

static const char *const key_names[NKEYS] = {
	[K_COMMON_CPU] = "common_cpu", [K_COMMON_S] = "common_s", [K_COMMON_NS] = "common_ns",
	[K_COMMON_PID] = "common_pid", [K_COMMON_COMM] = "common_comm",
	[K_COMMON_CALLCHAIN] = "common_callchain", [K_EV_NAME] = "ev_name", [K_ATTR] = "attr",
	[K_SAMPLE] = "sample", [K_RAW_BUF] = "raw_buf", [K_COMM] = "comm",
	[K_CALLCHAIN] = "callchain", [K_BRSTACK] = "brstack", [K_BRSTACKSYM] = "brstacksym",
	[K_IREGS] = "iregs", [K_UREGS] = "uregs", [K_PID] = "pid", [K_TID] = "tid",
	[K_CPU] = "cpu", [K_IP] = "ip", [K_TIME] = "time", [K_PERIOD] = "period",
	[K_PHYS_ADDR] = "phys_addr", [K_ADDR] = "addr", [K_VALUES] = "values",
	[K_WEIGHT] = "weight", [K_TRANSACTION] = "transaction", [K_DATASRC] = "datasrc",
	[K_DATASRC_DECODE] = "datasrc_decode", [K_CPUMODE] = "cpumode",
};

/* The empty lists a call passes (common_callchain; callchain, brstack, brstacksym). */
#define NLISTS		4

struct runner {
	struct cli *c;
	PyObject *main_dict;
	PyObject *unhandled;
	bool unhandled_dict;
	PyObject *context;
	PyObject *datasrc_decode;
	PyObject *empty_str;
	PyObject *sample_tpl;		/* perf_sample_dict['sample']'s fixed part */
	PyObject *values_item;		/* (0, 0, None) of 'values' */
	PyObject *keys[NKEYS];
	PyObject *lists[NLISTS];
	struct tp_type types[MAX_TYPES];
	struct tp_type *last_tp;	/* records come in runs of one type */
	struct comm comms[MAX_COMMS];
	uint32_t ncomms;
	struct comm *last_comm;
	struct hwt_where at;		/* of the AUXTRACE being decoded */
	uint64_t obj_time;		/* time the cached secs/nsecs are of */
	uint64_t obj_secs, obj_nsecs;	/* their values */
	PyObject *secs, *nsecs;
	struct int_cache cpu_obj, pid_obj;
	bool failed;
	uint8_t raw[65536];
};

/* ---- the perf_trace_context module generated hooks import --------------- */

static PyObject *ctx_zero(PyObject *self, PyObject *args)
{
	return PyLong_FromLong(0);
}

static PyMethodDef ctx_methods[] = {
	{ "common_pc", ctx_zero, METH_VARARGS, "preempt count (always 0 here)" },
	{ "common_flags", ctx_zero, METH_VARARGS, "irq flags (always 0 here)" },
	{ "common_lock_depth", ctx_zero, METH_VARARGS, "lock depth (always 0 here)" },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef ctx_module = {
	PyModuleDef_HEAD_INIT, "perf_trace_context", NULL, -1, ctx_methods,
};

static PyObject *ctx_init(void)
{
	return PyModule_Create(&ctx_module);
}

/* ---- sys.stdout: the hook's output goes through out.h's stdout ---------- */

/*
 * So that a full disk or a closed stdout ends as every verb does ("write
 * error: <reason>", status 1) and a reader that goes away ends quietly
 * (status 141), never as an OSError or BrokenPipeError traceback in the hook.
 */
static bool stdout_tty;

static PyObject *stdout_write(PyObject *self, PyObject *arg)
{
	Py_ssize_t n;
	const char *s = PyUnicode_AsUTF8AndSize(arg, &n);

	if (!s)
		return NULL;
	out__write(out__stdout(), s, n);
	if (stdout_tty)
		out__flush(out__stdout());
	return PyLong_FromSsize_t(PyUnicode_GET_LENGTH(arg));
}

static PyObject *stdout_flush(PyObject *self, PyObject *unused)
{
	out__flush(out__stdout());
	Py_RETURN_NONE;
}

static PyMethodDef stdout_methods[] = {
	{ "write", stdout_write, METH_O, "write a str to perf-hwtrace's stdout" },
	{ "flush", stdout_flush, METH_NOARGS, "flush perf-hwtrace's stdout" },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef stdout_module = {
	PyModuleDef_HEAD_INIT, "_hwtrace_stdout", NULL, -1, stdout_methods,
};

/* builtins are not bound as methods: file.write(s) calls stdout_write(s) directly */
static const char stdout_class[] =
	"import io, sys\n"
	"class HwtraceStdout(io.TextIOBase):\n"
	"    encoding = 'utf-8'\n"
	"    errors = 'strict'\n"
	"    write = _o.write\n"
	"    flush = _o.flush\n"
	"    def fileno(self): return 1\n"
	"    def isatty(self): return _tty\n"
	"    def writable(self): return True\n"
	"sys.stdout = HwtraceStdout()\n";

static int stdout_init(void)
{
	PyObject *mod = PyModule_Create(&stdout_module);
	PyObject *g = PyDict_New(), *r = NULL;

	stdout_tty = isatty(STDOUT_FILENO);
	if (mod && g && !PyDict_SetItemString(g, "__builtins__", PyEval_GetBuiltins()) &&
	    !PyDict_SetItemString(g, "_o", mod) &&
	    !PyDict_SetItemString(g, "_tty", stdout_tty ? Py_True : Py_False))
		r = PyRun_String(stdout_class, Py_file_input, g, g);
	Py_XDECREF(mod);
	Py_XDECREF(g);
	if (!r) {
		PyErr_Print();
		return -1;
	}
	Py_DECREF(r);
	/* Python ignores SIGPIPE; the tool's quiet exit on a closed pipe stands */
	out__catch_sigpipe();
	return 0;
}

/* ---- values ------------------------------------------------------------- */

static int arg_count(PyObject *fn)
{
	PyObject *code = PyObject_GetAttrString(fn, "__code__"), *n;
	int count = 0;

	PyErr_Clear();
	if (!code)
		return 0;
	n = PyObject_GetAttrString(code, "co_argcount");
	PyErr_Clear();
	if (n) {
		count = (int)PyLong_AsLong(n);
		Py_DECREF(n);
	}
	Py_DECREF(code);
	return count;
}

static bool printable(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isprint((unsigned char)s[i]) && !isspace((unsigned char)s[i]))
			return false;
	return true;
}

/*
 * The value of numeric field @tf (kind HWT_TP_NUM: a scalar of at most 64
 * bits), as hwt_field__u64() reads it but inline.  False when it is absent.
 */
static inline bool num_get(const struct tp_field *tf, const void *data, uint64_t *v)
{
	const char *p = (const char *)data + tf->offset;

	if (tf->optional && !*(const bool *)((const char *)data + tf->present_offset))
		return false;
	switch (tf->type) {
	case HWT_FT_U8:
		*v = tf->is_signed ? (uint64_t)*(const int8_t *)p : *(const uint8_t *)p;
		break;
	case HWT_FT_U16:
		*v = tf->is_signed ? (uint64_t)*(const int16_t *)p : *(const uint16_t *)p;
		break;
	case HWT_FT_U32:
		*v = tf->is_signed ? (uint64_t)*(const int32_t *)p : *(const uint32_t *)p;
		break;
	case HWT_FT_BOOL:
		*v = *(const bool *)p;
		break;
	default:	/* U64, S64 */
		*v = *(const uint64_t *)p;
		break;
	}
	return true;
}

/* hwt_tp__sample_fields() with the fields it reads looked up once per type. */
static inline void sample_fields(const struct tp_type *tp, const void *data, uint64_t *time,
				 uint32_t *cpu, int32_t *pid)
{
	uint64_t v;

	if (tp->time_i >= 0)
		num_get(&tp->fields[tp->time_i], data, time);
	if (tp->cpu_i >= 0 && num_get(&tp->fields[tp->cpu_i], data, &v))
		*cpu = (uint32_t)v;
	if (tp->pid_i >= 0 && num_get(&tp->fields[tp->pid_i], data, &v))
		*pid = (int32_t)v;
}

/* The first numeric field called @name, as hwt_tp__sample_fields() finds it, or -1. */
static int num_field(const struct tp_type *tp, const char *name)
{
	for (uint32_t i = 0; i < tp->t->nfields; i++)
		if (tp->fields[i].kind == HWT_TP_NUM && !strcmp(tp->t->fields[i].name, name))
			return (int)i;
	return -1;
}

/* A string as perf passes it: str, or bytearray (with its NUL) once not printable. */
static PyObject *str_obj(struct tp_field *tf, const char *s, size_t n)
{
	if (!tf->demoted && printable(s, n))
		return PyUnicode_FromStringAndSize(s, n);
	tf->demoted = true;
	return PyByteArray_FromStringAndSize(s, n + 1);
}

static PyObject *text_obj(struct tp_field *tf, const void *data)
{
	char stack[4096], *buf = stack;
	size_t n = hwt_tp__text(tf->f, data, stack, sizeof(stack));
	PyObject *o;

	if (n >= sizeof(stack)) {
		buf = malloc(n + 1);
		if (!buf)
			return PyErr_NoMemory();
		hwt_tp__text(tf->f, data, buf, n + 1);
	}
	o = str_obj(tf, buf, n);
	if (buf != stack)
		free(buf);
	return o;
}

/*
 * Field @tf's value: a borrowed reference to the cached object when the value
 * is the last one again (or becomes the cached one), else a new reference
 * with *@owned set.  Mutable objects (bytearray, and list/KV text that could
 * be long) are never shared between calls.
 */
static inline __attribute__((always_inline)) PyObject *
field_obj(struct tp_field *tf, const void *data, bool *owned)
{
	const char *s;
	uint64_t v = 0;
	size_t len;
	PyObject *o;

	*owned = false;
	switch (tf->kind) {
	case HWT_TP_NUM:
		num_get(tf, data, &v);		/* absent: 0 */
		if (tf->last && tf->last_num == v)
			return tf->last;
		o = tf->is_signed ? PyLong_FromLongLong((long long)v) :
				    PyLong_FromUnsignedLongLong(v);
		if (!o)
			return NULL;
		break;
	case HWT_TP_STR:
		s = hwt_field__present(tf->f, data) ?
			*(const char *const *)((const char *)data + tf->offset) : NULL;
		s = s ? s : "";
		if (tf->last && !tf->demoted && !strcmp(tf->last_str, s))
			return tf->last;
		len = strlen(s);
		o = str_obj(tf, s, len);
		if (!o || tf->demoted || len >= CACHED_STR) {
			*owned = true;
			return o;
		}
		memcpy(tf->last_str, s, len + 1);
		break;
	default:
		*owned = true;
		return text_obj(tf, data);
	}
	Py_XDECREF(tf->last);
	tf->last = o;
	tf->last_num = v;
	return o;
}

/*
 * An empty list from @slot, borrowed.  perf passes a new empty list each
 * time; the one from the last call is passed again when nothing else holds
 * it and it is still empty, which no hook can tell from a new one.
 */
static PyObject *empty_list(PyObject **slot)
{
	PyObject *l = *slot;

	if (l && Py_REFCNT(l) == 1 && PyList_GET_SIZE(l) == 0)
		return l;
	Py_XDECREF(l);
	*slot = PyList_New(0);
	return *slot;
}

/* The attr inject declares for @t (perf passes it as perf_sample_dict['attr']). */
static PyObject *attr_bytes(const struct hwt_record_type *t)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_TRACEPOINT;
	a.size = PERF_ATTR_SIZE_VER7;
	a.config = t->id;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW;
	a.sample_id_all = 1;
	return PyBytes_FromStringAndSize((const char *)&a, PERF_ATTR_SIZE_VER7);
}

/* d[key] = v: dict_put() with a borrowed @v, dict_put_new() taking a new reference. */
static void dict_put(PyObject *d, PyObject *key, PyObject *v)
{
	if (v)
		PyDict_SetItem(d, key, v);
}

static void dict_put_new(PyObject *d, PyObject *key, PyObject *v)
{
	if (v) {
		PyDict_SetItem(d, key, v);
		Py_DECREF(v);
	}
}

/*
 * The parts of perf_sample_dict that do not change, in perf 6.1's key order:
 * the outer dict of type @tp, or with @tp NULL the inner 'sample' dict.  A
 * record's dicts are copies of these (a dict copy is a memcpy of its table)
 * with the changing values set; None marks them here.
 */
static PyObject *dict_template(struct runner *run, struct tp_type *tp)
{
	PyObject *d = PyDict_New(), **k = run->keys;

	if (!d)
		return NULL;
	if (tp) {
		dict_put(d, k[K_EV_NAME], tp->ev_name);
		dict_put(d, k[K_ATTR], tp->attr);
		dict_put(d, k[K_SAMPLE], Py_None);
		dict_put(d, k[K_RAW_BUF], Py_None);
		dict_put(d, k[K_COMM], Py_None);
		dict_put(d, k[K_CALLCHAIN], Py_None);
		dict_put(d, k[K_BRSTACK], Py_None);
		dict_put(d, k[K_BRSTACKSYM], Py_None);
		dict_put(d, k[K_IREGS], run->empty_str);
		dict_put(d, k[K_UREGS], run->empty_str);
		return d;
	}
	dict_put(d, k[K_PID], Py_None);
	dict_put(d, k[K_TID], Py_None);
	dict_put(d, k[K_CPU], Py_None);
	dict_put_new(d, k[K_IP], PyLong_FromLong(0));
	dict_put(d, k[K_TIME], Py_None);
	dict_put_new(d, k[K_PERIOD], PyLong_FromLong(1));
	dict_put_new(d, k[K_PHYS_ADDR], PyLong_FromLong(0));
	dict_put_new(d, k[K_ADDR], PyLong_FromLong(0));
	dict_put(d, k[K_VALUES], Py_None);
	dict_put_new(d, k[K_WEIGHT], PyLong_FromLong(0));
	dict_put_new(d, k[K_TRANSACTION], PyLong_FromLong(0));
	dict_put_new(d, k[K_DATASRC], PyLong_FromLong(PERF_MEM_DATA_SRC_NONE));
	dict_put(d, k[K_DATASRC_DECODE], run->datasrc_decode);
	dict_put_new(d, k[K_CPUMODE], PyLong_FromLong(0));
	return d;
}

/* perf_sample_dict as perf 6.1 builds it for a tracepoint sample. */
static PyObject *sample_dict(struct runner *run, struct tp_type *tp, const void *data,
			     uint64_t time, uint32_t cpu, int32_t tid, PyObject *comm)
{
	PyObject *d, *s, *values, **k = run->keys;
	size_t raw;

	if (!tp->dict_tpl)
		tp->dict_tpl = dict_template(run, tp);
	if (!run->sample_tpl)
		run->sample_tpl = dict_template(run, NULL);
	if (!run->values_item)
		run->values_item = Py_BuildValue("(iiO)", 0, 0, Py_None);
	if (!tp->dict_tpl || !run->sample_tpl || !run->values_item)
		return NULL;
	d = PyDict_Copy(tp->dict_tpl);
	s = PyDict_Copy(run->sample_tpl);
	values = PyList_New(1);		/* [(0, 0, None)]: a list, so one per record */
	if (!d || !s || !values) {
		Py_XDECREF(d);
		Py_XDECREF(s);
		Py_XDECREF(values);
		return NULL;
	}
	Py_INCREF(run->values_item);
	PyList_SET_ITEM(values, 0, run->values_item);
	dict_put_new(s, k[K_PID], PyLong_FromUnsignedLong((uint32_t)tid));
	dict_put_new(s, k[K_TID], PyLong_FromUnsignedLong((uint32_t)tid));
	dict_put_new(s, k[K_CPU], PyLong_FromUnsignedLong(cpu));
	dict_put_new(s, k[K_TIME], PyLong_FromUnsignedLongLong(time));
	dict_put_new(s, k[K_VALUES], values);
	dict_put_new(d, k[K_SAMPLE], s);
	raw = hwt_tp__encode(tp->t, data, tid, run->raw, sizeof(run->raw) - 8);
	if (raw) {
		size_t padded = hwt_tp__raw_padded(raw);

		memset(run->raw + raw, 0, padded - raw);
		raw = padded;
	}
	dict_put_new(d, k[K_RAW_BUF], PyBytes_FromStringAndSize((const char *)run->raw, raw));
	dict_put(d, k[K_COMM], comm);
	dict_put(d, k[K_CALLCHAIN], empty_list(&run->lists[1]));
	dict_put(d, k[K_BRSTACK], empty_list(&run->lists[2]));
	dict_put(d, k[K_BRSTACKSYM], empty_list(&run->lists[3]));
	return d;
}

/* perf's thread comm (borrowed): from COMM records, else ":<tid>". */
static PyObject *comm_of(struct runner *run, int32_t tid)
{
	char buf[32];

	if (run->last_comm && run->last_comm->tid == tid)
		return run->last_comm->str;
	for (uint32_t i = 0; i < run->ncomms; i++)
		if (run->comms[i].tid == tid) {
			run->last_comm = &run->comms[i];
			return run->comms[i].str;
		}
	snprintf(buf, sizeof(buf), ":%d", tid);
	if (run->ncomms == MAX_COMMS)
		return PyUnicode_FromString(buf);	/* leaks a little past the cap */
	run->comms[run->ncomms] = (struct comm){ .tid = tid, .str = PyUnicode_FromString(buf) };
	run->last_comm = &run->comms[run->ncomms];
	return run->comms[run->ncomms++].str;
}

static void set_comm(struct runner *run, int32_t tid, const char *name, size_t max)
{
	PyObject *s = PyUnicode_DecodeUTF8(name, strnlen(name, max), "replace");

	for (uint32_t i = 0; i < run->ncomms; i++)
		if (run->comms[i].tid == tid) {
			Py_XDECREF(run->comms[i].str);
			run->comms[i].str = s;
			return;
		}
	if (run->ncomms < MAX_COMMS)
		run->comms[run->ncomms++] = (struct comm){ .tid = tid, .str = s };
	else
		Py_XDECREF(s);
}

static bool type_init(struct runner *run, struct tp_type *tp, const struct hwt_record_type *t)
{
	char name[160];

	for (uint32_t i = 0; i < t->nfields; i++)
		if (t->fields[i].offset > UINT32_MAX || t->fields[i].present_offset > UINT32_MAX)
			return false;
	tp->fields = calloc(t->nfields ? t->nfields : 1, sizeof(*tp->fields));
	if (!tp->fields)
		return false;
	tp->t = t;
	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct hwt_field *f = &t->fields[i];
		struct tp_field *tf = &tp->fields[i];

		tf->f = f;
		tf->kind = hwt_tp__kind(f);
		tf->type = f->type;
		tf->optional = f->flags & HWT_FF_OPTIONAL;
		tf->is_signed = hwt_field__is_signed(f);
		tf->offset = (uint32_t)f->offset;
		tf->present_offset = (uint32_t)f->present_offset;
		tf->key = PyUnicode_InternFromString(f->name);
	}
	tp->time_i = num_field(tp, "time");
	tp->cpu_i = num_field(tp, "cpu");
	tp->pid_i = num_field(tp, "pid");
	snprintf(name, sizeof(name), "%s__%s", HWT_TP_SYSTEM, t->name);
	tp->name = PyUnicode_FromString(name);
	tp->handler = PyDict_GetItemString(run->main_dict, name);
	if (tp->handler && PyCallable_Check(tp->handler)) {
		Py_INCREF(tp->handler);
		tp->want_dict = arg_count(tp->handler) == 8 + (int)t->nfields + 1;
	} else {
		tp->handler = NULL;
	}
	snprintf(name, sizeof(name), "%s:%s", HWT_TP_SYSTEM, t->name);
	tp->ev_name = PyUnicode_FromString(name);
	tp->attr = attr_bytes(t);
	return true;
}

static struct tp_type *type_of(struct runner *run, const struct hwt_record_type *t)
{
	uint32_t i;

	if (run->last_tp && run->last_tp->t == t)
		return run->last_tp;
	if (!hwt_tp__is_event(t))
		return NULL;
	for (i = 0; i < MAX_TYPES && run->types[i].t; i++)
		if (run->types[i].t == t)
			return run->last_tp = &run->types[i];
	if (i == MAX_TYPES || t->nfields > MAX_FIELDS || !type_init(run, &run->types[i], t))
		return NULL;
	return run->last_tp = &run->types[i];
}

static void call(struct runner *run, PyObject *fn, PyObject *args)
{
	PyObject *ret = PyObject_CallObject(fn, args);

	if (!ret) {
		PyErr_Print();		/* exits the process on SystemExit, like perf */
		run->failed = true;
		return;
	}
	Py_DECREF(ret);
}

/* ---- sink --------------------------------------------------------------- */

static void on_event(void *ctx, const struct hwt_reader *r, const struct hwt_event *ev)
{
	struct runner *run = ctx;

	if (ev->sid.valid & PERF_SAMPLE_TIME)
		run->at.time = ev->sid.time;
	if (ev->hdr->type == PERF_RECORD_COMM) {
		uint32_t pid, tid;
		const char *comm;
		size_t len;

		if (hwt_event__comm(ev, &pid, &tid, &comm, &len))
			set_comm(run, (int32_t)tid, comm, len);
	}
}

static void on_chunk(void *ctx, const struct hwt_stream *s, const struct hwt_chunk *c,
		     uint64_t total)
{
	struct runner *run = ctx;

	hwt_where__update(&run->at, c);
}

/* A borrowed int of value @v, made only when it differs from the last one. */
static PyObject *int_cached(struct int_cache *c, long long v)
{
	if (!c->o || c->v != v) {
		Py_XDECREF(c->o);
		c->o = PyLong_FromLongLong(v);
		c->v = v;
	}
	return c->o;
}

/* Cached (borrowed) objects for the seconds and nanoseconds of @time. */
static void time_objs(struct runner *run, uint64_t time, PyObject **secs, PyObject **nsecs)
{
	uint64_t s, ns;

	if (run->secs && run->nsecs && run->obj_time == time) {
		*secs = run->secs;
		*nsecs = run->nsecs;
		return;
	}
	run->obj_time = time;
	s = time / 1000000000;
	ns = time % 1000000000;
	if (!run->secs || run->obj_secs != s) {
		Py_XDECREF(run->secs);
		run->secs = PyLong_FromUnsignedLongLong(s);
		run->obj_secs = s;
	}
	if (!run->nsecs || run->obj_nsecs != ns) {
		Py_XDECREF(run->nsecs);
		run->nsecs = PyLong_FromUnsignedLongLong(ns);
		run->obj_nsecs = ns;
	}
	*secs = run->secs;
	*nsecs = run->nsecs;
}

/* trace_unhandled's fields dict (a new reference). */
static PyObject *fields_dict(struct runner *run, struct tp_type *tp, const void *data,
			     uint64_t time, uint32_t cpu, int32_t tid, PyObject *comm)
{
	PyObject *d = PyDict_New(), **k = run->keys, *secs, *nsecs, *o;
	bool owned;

	if (!d)
		return NULL;
	time_objs(run, time, &secs, &nsecs);
	dict_put(d, k[K_COMMON_CPU], int_cached(&run->cpu_obj, cpu));
	dict_put(d, k[K_COMMON_S], secs);
	dict_put(d, k[K_COMMON_NS], nsecs);
	dict_put(d, k[K_COMMON_PID], int_cached(&run->pid_obj, tid));
	dict_put(d, k[K_COMMON_COMM], comm);
	dict_put(d, k[K_COMMON_CALLCHAIN], empty_list(&run->lists[0]));
	for (uint32_t i = 0; i < tp->t->nfields; i++) {
		o = field_obj(&tp->fields[i], data, &owned);
		if (owned)
			dict_put_new(d, tp->fields[i].key, o);
		else
			dict_put(d, tp->fields[i].key, o);
	}
	return d;
}

/*
 * One record: the handler is called with borrowed references where the
 * object is cached (names, context, cpu, pid, comm, times, repeated field
 * values) and new ones otherwise, which are released after the call.
 */
static void on_record(void *ctx, const struct hwt_record *rec)
{
	struct runner *run = ctx;
	PyObject *args[8 + MAX_FIELDS + 1], *owned[8 + MAX_FIELDS + 1], *fn, *comm, *ret;
	uint32_t cpu = run->at.cpu < 0 ? 0 : (uint32_t)run->at.cpu;
	uint64_t time = run->at.time;
	int32_t tid = run->at.tid;
	struct tp_type *tp;
	int n = 0, no = 0;
	bool own, bad;

	if (run->failed || !(tp = type_of(run, rec->type)))
		return;
	fn = tp->handler ? tp->handler : run->unhandled;
	if (!fn)
		return;
	sample_fields(tp, rec->data, &time, &cpu, &tid);
	comm = comm_of(run, tid);
	bad = !tp->name || !run->context || !comm;
	args[n++] = tp->name;
	args[n++] = run->context;
	if (tp->handler) {
		args[n++] = int_cached(&run->cpu_obj, cpu);
		time_objs(run, time, &args[n], &args[n + 1]);
		n += 2;
		args[n++] = int_cached(&run->pid_obj, tid);
		args[n++] = comm;
		args[n++] = empty_list(&run->lists[0]);
		bad |= !args[2] || !args[3] || !args[4] || !args[5] || !args[7];
		for (uint32_t i = 0; i < tp->t->nfields; i++) {
			PyObject *o = field_obj(&tp->fields[i], rec->data, &own);

			bad |= !o;
			args[n++] = o;
			if (own)
				owned[no++] = o;
		}
	} else {
		args[n++] = owned[no++] = fields_dict(run, tp, rec->data, time, cpu, tid, comm);
	}
	if (tp->handler ? tp->want_dict : run->unhandled_dict)
		args[n++] = owned[no++] = sample_dict(run, tp, rec->data, time, cpu, tid, comm);
	for (int i = 0; i < no; i++)
		bad |= !owned[i];
	ret = NULL;
	if (!bad && !PyErr_Occurred())
		ret = PyObject_Vectorcall(fn, args, n, NULL);
	else if (!PyErr_Occurred())
		PyErr_NoMemory();
	for (int i = 0; i < no; i++)
		Py_XDECREF(owned[i]);
	if (ret) {
		Py_DECREF(ret);
		return;
	}
	PyErr_Print();		/* exits the process on SystemExit, like perf */
	run->failed = true;
}

/* ---- driver ------------------------------------------------------------- */

static void call_hook(struct runner *run, const char *name)
{
	PyObject *fn = PyDict_GetItemString(run->main_dict, name);
	PyObject *args;

	if (!fn || !PyCallable_Check(fn) || run->failed)
		return;
	args = PyTuple_New(0);
	call(run, fn, args);
	Py_XDECREF(args);
}

static int start_python(const char *script, int nargs, char **args)
{
	PyConfig config;
	PyStatus st;
	PyObject *path;
	char *dir = strdup(script), *slash;

	if (PyImport_AppendInittab("perf_trace_context", ctx_init) < 0) {
		free(dir);
		return -1;
	}
	PyConfig_InitPythonConfig(&config);
	config.parse_argv = 0;
	st = PyConfig_SetBytesArgv(&config, nargs, args);
	if (!PyStatus_Exception(st))
		st = Py_InitializeFromConfig(&config);
	PyConfig_Clear(&config);
	if (PyStatus_Exception(st)) {
		fprintf(stderr, "perf hwtrace script: cannot start Python: %s\n",
			st.err_msg ? st.err_msg : "unknown error");
		free(dir);
		return -1;
	}
	if (stdout_init() < 0) {
		free(dir);
		return -1;
	}
	/* like PySys_SetArgv() in perf: the hook's directory first on sys.path */
	path = PySys_GetObject("path");
	slash = dir ? strrchr(dir, '/') : NULL;
	if (path && dir) {
		PyObject *d;

		if (slash)
			*slash = 0;
		d = PyUnicode_DecodeFSDefault(slash ? dir : "");
		if (d) {
			PyList_Insert(path, 0, d);
			Py_DECREF(d);
		}
	}
	free(dir);
	return 0;
}

static int run_hook(struct cli *c, const char *script, int nargs, char **args,
		    struct record_filter *filter)
{
	static struct runner run;
	/* hooks see data records only: skip the ranking behind summary records */
	struct hwt_session_opts so = {
		.opts = c->opts, .nopts = c->nopts, .no_summary = true,
	};
	struct hwt_sink sink = {
		.event = on_event, .chunk = on_chunk, .record = on_record, .ctx = &run,
	};
	FILE *fp;
	int ret;

	memset(&run, 0, sizeof(run));
	run.c = c;
	run.at.cpu = -1;
	run.at.tid = -1;
	fp = fopen(script, "r");
	if (!fp) {
		fprintf(stderr, "perf hwtrace script: %s: %s\n", script, strerror(errno));
		return EXIT_USAGE;
	}
	if (start_python(script, nargs, args) < 0) {
		fclose(fp);
		return EXIT_INPUT_ERROR;
	}
	if (PyRun_SimpleFileExFlags(fp, script, 1, NULL) < 0) {
		Py_FinalizeEx();
		return EXIT_INPUT_ERROR;
	}
	run.main_dict = PyModule_GetDict(PyImport_AddModule("__main__"));
	run.unhandled = PyDict_GetItemString(run.main_dict, "trace_unhandled");
	if (run.unhandled && PyCallable_Check(run.unhandled))
		run.unhandled_dict = arg_count(run.unhandled) == 4;
	else
		run.unhandled = NULL;
	run.context = PyCapsule_New(&run, NULL, NULL);
	run.datasrc_decode =
		PyUnicode_FromString("|OP N/A|LVL N/A|SNP N/A|TLB N/A|LCK N/A|BLK  N/A");
	run.empty_str = PyUnicode_FromString("");
	for (int k = 0; k < NKEYS; k++)
		run.keys[k] = PyUnicode_InternFromString(key_names[k]);
	c->diag.file = c->input;
	/* the filter sees every record first; COMM and the rest pass through it */
	if (filter && record_filter__active(filter))
		record_filter__wrap(filter, &sink);
	cli__guard_sink(c, &sink);
	if (filter && filter->percent && run__find_span(c, filter, &so, NULL) < 0)
		ret = -1;
	else
		ret = 0;
	call_hook(&run, "trace_begin");
	if (!ret)
		ret = hwt_session__run(c->input, &so, &sink, &c->diag);
	call_hook(&run, "trace_end");
	if (Py_FinalizeEx() < 0)
		run.failed = true;
	cli__print_totals(c, stderr);
	ret = cli__status(c, ret);
	return run.failed ? EXIT_INPUT_ERROR : ret;
}

/*
 * The entry point of perf-hwtrace-python.so.  The tool looks it up with
 * dlsym() only when -s is given, so other commands never load libpython.
 */
int script_python__run_hook(struct cli *c, const char *script, int nargs, char **args,
			    struct record_filter *filter)
{
	return run_hook(c, script, nargs, args, filter);
}

#else /* the tool itself: find the Python runner and load it now */

#define PY_RUNNER "perf-hwtrace-python.so"

#ifndef HWTRACE_STATIC
/*
 * Next to the binary (the build tree), then in ../lib/hwtrace/ (an install
 * under PREFIX); $HWTRACE_PYTHON_RUNNER overrides both.
 */
static void *open_runner(char *why, size_t n)
{
	const char *env = getenv("HWTRACE_PYTHON_RUNNER");
	char exe[4096], path[4096 + 64];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *const rel[] = { "/" PY_RUNNER, "/../lib/hwtrace/" PY_RUNNER };
	void *h;

	snprintf(why, n, "no %s found", PY_RUNNER);
	if (env) {
		h = dlopen(env, RTLD_NOW | RTLD_LOCAL);
		if (!h)
			snprintf(why, n, "%s", dlerror());
		return h;
	}
	if (len <= 0)
		return NULL;
	exe[len] = 0;
	*strrchr(exe, '/') = 0;
	for (size_t k = 0; k < sizeof(rel) / sizeof(rel[0]); k++) {
		snprintf(path, sizeof(path), "%s%s", exe, rel[k]);
		if (access(path, F_OK))
			continue;
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (h)
			return h;
		snprintf(why, n, "%s", dlerror());
	}
	return NULL;
}
#endif

static int run_runner(struct cli *c, const char *script, int nargs, char **args,
		      struct record_filter *filter)
{
#ifdef HWTRACE_STATIC
	return usage_error("script", "-s: this static perf-hwtrace has no Python runner");
#else
	int (*run_hook)(struct cli *, const char *, int, char **, struct record_filter *);
	char why[512];
	void *h = open_runner(why, sizeof(why));

	if (!h)
		return usage_error("script", "-s needs %s (built by make when python3-dev is "
				   "installed): %s", PY_RUNNER, why);
	*(void **)&run_hook = dlsym(h, "script_python__run_hook");
	if (!run_hook)
		return usage_error("script", "-s: %s", dlerror());
	/* the module stays loaded: hooks may have registered atexit work */
	return run_hook(c, script, nargs, args, filter);
#endif
}

#endif /* HAVE_PYTHON */

#ifndef HAVE_PYTHON
int script_python__main(struct cli *c, const char *script, int nargs, char **args,
			struct record_filter *filter)
{
	char **argv = calloc((size_t)nargs + 2, sizeof(*argv));
	int ret;

	if (!argv)
		return EXIT_INPUT_ERROR;
	/* sys.argv = [hook, its arguments] as perf script sets it */
	argv[0] = (char *)script;
	memcpy(argv + 1, args, (size_t)nargs * sizeof(*argv));
	ret = run_runner(c, script, nargs + 1, argv, filter);
	free(argv);
	return ret;
}
#endif
