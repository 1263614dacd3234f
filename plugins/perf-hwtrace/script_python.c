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
 */
#ifdef HAVE_PYTHON
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#endif

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/tracepoint.h"
#include "commands.h"
#include "script_python.h"

#ifdef HAVE_PYTHON

#define MAX_TYPES	64
#define MAX_FIELDS	256
#define CACHED_STR	64	/* strings shorter than this are reused when unchanged */
#define MAX_COMMS	1024
#define PERF_MEM_DATA_SRC_NONE	84410401	/* what perf puts in 'datasrc' */

struct tp_type {
	const struct hwt_record_type *t;
	bool resolved;
	PyObject *handler;	/* hwtrace__<name>, or NULL */
	bool want_dict;
	PyObject *name;		/* "hwtrace__<name>" */
	PyObject *ev_name;	/* "hwtrace:<name>" */
	PyObject *attr;		/* the attr inject writes, as bytes */
	bool demoted[MAX_FIELDS];	/* string field now passed as bytearray */
	/* the last value of each field: records of a chunk repeat many of them */
	PyObject *last[MAX_FIELDS];
	uint64_t last_num[MAX_FIELDS];
	char last_str[MAX_FIELDS][CACHED_STR];
};

struct comm {
	int32_t tid;
	PyObject *str;
};

struct runner {
	struct cli *c;
	PyObject *main_dict;
	PyObject *unhandled;
	bool unhandled_dict;
	PyObject *context;
	PyObject *datasrc_decode;
	struct tp_type types[MAX_TYPES];
	struct comm comms[MAX_COMMS];
	uint32_t ncomms;
	int32_t cpu, tid;
	uint64_t time;
	uint64_t obj_time;		/* time the cached secs/nsecs are of */
	PyObject *secs, *nsecs;
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

/* A string as perf passes it: str, or bytearray (with its NUL) once not printable. */
static PyObject *str_obj(struct tp_type *tp, uint32_t i, const char *s, size_t n)
{
	if (!tp->demoted[i] && printable(s, n))
		return PyUnicode_FromStringAndSize(s, n);
	tp->demoted[i] = true;
	return PyByteArray_FromStringAndSize(s, n + 1);
}

static PyObject *field_new(struct tp_type *tp, uint32_t i, const void *data)
{
	const struct hwt_field *f = &tp->t->fields[i];
	bool present = hwt_field__present(f, data);

	switch (hwt_tp__kind(f)) {
	case HWT_TP_NUM:
		if (!present)
			return PyLong_FromLong(0);
		if (f->type == HWT_FT_S64)
			return PyLong_FromLongLong((long long)hwt_field__u64(f, data, 0));
		return PyLong_FromUnsignedLongLong(hwt_field__u64(f, data, 0));
	case HWT_TP_STR: {
		const char *s = present ? *(const char *const *)((const char *)data + f->offset)
					: NULL;

		s = s ? s : "";
		return str_obj(tp, i, s, strlen(s));
	}
	case HWT_TP_LIST:
	case HWT_TP_KV: {
		char stack[4096], *buf = stack;
		size_t n = hwt_tp__text(f, data, stack, sizeof(stack));
		PyObject *o;

		if (n >= sizeof(stack)) {
			buf = malloc(n + 1);
			if (!buf)
				return PyErr_NoMemory();
			hwt_tp__text(f, data, buf, n + 1);
		}
		o = str_obj(tp, i, buf, n);
		if (buf != stack)
			free(buf);
		return o;
	}
	}
	return NULL;
}

/* A new reference to field @i's value, reusing the last object when equal. */
static PyObject *field_obj(struct tp_type *tp, uint32_t i, const void *data)
{
	const struct hwt_field *f = &tp->t->fields[i];
	enum hwt_tp_kind kind = hwt_tp__kind(f);
	const char *s = NULL;
	uint64_t v = 0;
	PyObject *o;

	if (kind == HWT_TP_NUM) {
		v = hwt_field__present(f, data) ? hwt_field__u64(f, data, 0) : 0;
		if (tp->last[i] && tp->last_num[i] == v)
			goto hit;
	} else if (kind == HWT_TP_STR) {
		s = hwt_field__present(f, data) ?
			*(const char *const *)((const char *)data + f->offset) : NULL;
		s = s ? s : "";
		if (tp->last[i] && !strcmp(tp->last_str[i], s))
			goto hit;
	}
	o = field_new(tp, i, data);
	if (!o || kind == HWT_TP_LIST || kind == HWT_TP_KV ||
	    (s && strlen(s) >= CACHED_STR) || PyByteArray_Check(o))
		return o;	/* mutable or long: never shared */
	Py_XDECREF(tp->last[i]);
	Py_INCREF(o);
	tp->last[i] = o;
	tp->last_num[i] = v;
	if (s)
		strcpy(tp->last_str[i], s);
	return o;
hit:
	Py_INCREF(tp->last[i]);
	return tp->last[i];
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

static void dict_set(PyObject *d, const char *key, PyObject *v)
{
	if (v) {
		PyDict_SetItemString(d, key, v);
		Py_DECREF(v);
	}
}

static PyObject *sample_dict(struct runner *run, struct tp_type *tp, const void *data,
			     uint64_t time, uint32_t cpu, int32_t tid, PyObject *comm)
{
	PyObject *d = PyDict_New(), *s = PyDict_New(), *values;
	size_t raw;

	if (!d || !s) {
		Py_XDECREF(d);
		Py_XDECREF(s);
		return NULL;
	}
	Py_INCREF(tp->ev_name);
	dict_set(d, "ev_name", tp->ev_name);
	Py_INCREF(tp->attr);
	dict_set(d, "attr", tp->attr);
	dict_set(s, "pid", PyLong_FromUnsignedLong((uint32_t)tid));
	dict_set(s, "tid", PyLong_FromUnsignedLong((uint32_t)tid));
	dict_set(s, "cpu", PyLong_FromUnsignedLong(cpu));
	dict_set(s, "ip", PyLong_FromLong(0));
	dict_set(s, "time", PyLong_FromUnsignedLongLong(time));
	dict_set(s, "period", PyLong_FromLong(1));
	dict_set(s, "phys_addr", PyLong_FromLong(0));
	dict_set(s, "addr", PyLong_FromLong(0));
	values = Py_BuildValue("[(iiO)]", 0, 0, Py_None);
	dict_set(s, "values", values);
	dict_set(s, "weight", PyLong_FromLong(0));
	dict_set(s, "transaction", PyLong_FromLong(0));
	dict_set(s, "datasrc", PyLong_FromLong(PERF_MEM_DATA_SRC_NONE));
	Py_INCREF(run->datasrc_decode);
	dict_set(s, "datasrc_decode", run->datasrc_decode);
	dict_set(s, "cpumode", PyLong_FromLong(0));
	dict_set(d, "sample", s);
	raw = hwt_tp__encode(tp->t, data, tid, run->raw, sizeof(run->raw) - 8);
	if (raw) {
		size_t padded = hwt_tp__raw_padded(raw);

		memset(run->raw + raw, 0, padded - raw);
		raw = padded;
	}
	dict_set(d, "raw_buf", PyBytes_FromStringAndSize((const char *)run->raw, raw));
	Py_INCREF(comm);
	dict_set(d, "comm", comm);
	dict_set(d, "callchain", PyList_New(0));
	dict_set(d, "brstack", PyList_New(0));
	dict_set(d, "brstacksym", PyList_New(0));
	dict_set(d, "iregs", PyUnicode_FromString(""));
	dict_set(d, "uregs", PyUnicode_FromString(""));
	return d;
}

/* perf's thread comm: from COMM records, else ":<tid>". */
static PyObject *comm_of(struct runner *run, int32_t tid)
{
	char buf[32];

	for (uint32_t i = 0; i < run->ncomms; i++)
		if (run->comms[i].tid == tid)
			return run->comms[i].str;
	snprintf(buf, sizeof(buf), ":%d", tid);
	if (run->ncomms == MAX_COMMS)
		return PyUnicode_FromString(buf);	/* leaks a little past the cap */
	run->comms[run->ncomms] = (struct comm){ .tid = tid, .str = PyUnicode_FromString(buf) };
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

static struct tp_type *type_of(struct runner *run, const struct hwt_record_type *t)
{
	uint32_t i;
	char name[160];

	for (i = 0; i < MAX_TYPES && run->types[i].t; i++)
		if (run->types[i].t == t)
			return &run->types[i];
	if (i == MAX_TYPES || t->nfields > MAX_FIELDS)
		return NULL;
	run->types[i].t = t;
	snprintf(name, sizeof(name), "%s__%s", HWT_TP_SYSTEM, t->name);
	run->types[i].name = PyUnicode_FromString(name);
	run->types[i].handler = PyDict_GetItemString(run->main_dict, name);
	if (run->types[i].handler && PyCallable_Check(run->types[i].handler)) {
		Py_INCREF(run->types[i].handler);
		run->types[i].want_dict =
			arg_count(run->types[i].handler) == 8 + (int)t->nfields + 1;
	} else {
		run->types[i].handler = NULL;
	}
	snprintf(name, sizeof(name), "%s:%s", HWT_TP_SYSTEM, t->name);
	run->types[i].ev_name = PyUnicode_FromString(name);
	run->types[i].attr = attr_bytes(t);
	return &run->types[i];
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
		run->time = ev->sid.time;
	if (ev->hdr->type == PERF_RECORD_COMM && ev->hdr->size > 16) {
		const uint8_t *p = (const uint8_t *)ev->hdr;
		int32_t tid;

		memcpy(&tid, p + 12, 4);
		set_comm(run, tid, (const char *)p + 16, ev->hdr->size - 16);
	}
}

static void on_chunk(void *ctx, const struct hwt_stream *s, const struct hwt_chunk *c,
		     uint64_t total)
{
	struct runner *run = ctx;

	run->cpu = c->cpu;
	run->tid = c->tid;
	if (c->time)
		run->time = c->time;
}

/* New references to the seconds and nanoseconds of @time. */
static void time_objs(struct runner *run, uint64_t time, PyObject **secs, PyObject **nsecs)
{
	if (!run->secs || run->obj_time != time) {
		Py_XDECREF(run->secs);
		Py_XDECREF(run->nsecs);
		run->secs = PyLong_FromUnsignedLongLong(time / 1000000000);
		run->nsecs = PyLong_FromUnsignedLongLong(time % 1000000000);
		run->obj_time = time;
	}
	Py_XINCREF(run->secs);
	Py_XINCREF(run->nsecs);
	*secs = run->secs;
	*nsecs = run->nsecs;
}

static void on_record(void *ctx, const struct hwt_record *rec)
{
	struct runner *run = ctx;
	const struct hwt_record_type *t = rec->type;
	struct tp_type *tp;
	uint64_t time = run->time;
	uint32_t cpu = run->cpu < 0 ? 0 : (uint32_t)run->cpu;
	int32_t tid = run->tid;
	PyObject *args[8 + MAX_FIELDS + 1], *fields, *comm, *ret, *secs, *nsecs;
	bool dict;
	int n = 0;

	if (run->failed || !hwt_tp__is_event(t) || !(tp = type_of(run, t)))
		return;
	if (!tp->handler && !run->unhandled)
		return;
	hwt_tp__sample_fields(rec, &time, &cpu, &tid);
	comm = comm_of(run, tid);
	dict = tp->handler ? tp->want_dict : run->unhandled_dict;
	time_objs(run, time, &secs, &nsecs);
	Py_INCREF(tp->name);
	args[n++] = tp->name;
	Py_INCREF(run->context);
	args[n++] = run->context;
	if (tp->handler) {
		args[n++] = PyLong_FromUnsignedLong(cpu);
		args[n++] = secs;
		args[n++] = nsecs;
		args[n++] = PyLong_FromLong(tid);
		Py_XINCREF(comm);
		args[n++] = comm;
		args[n++] = PyList_New(0);
		for (uint32_t i = 0; i < t->nfields; i++)
			args[n++] = field_obj(tp, i, rec->data);
	} else {
		fields = PyDict_New();
		if (fields) {
			dict_set(fields, "common_cpu", PyLong_FromUnsignedLong(cpu));
			dict_set(fields, "common_s", secs);
			dict_set(fields, "common_ns", nsecs);
			dict_set(fields, "common_pid", PyLong_FromLong(tid));
			Py_XINCREF(comm);
			dict_set(fields, "common_comm", comm);
			dict_set(fields, "common_callchain", PyList_New(0));
			for (uint32_t i = 0; i < t->nfields; i++)
				dict_set(fields, t->fields[i].name, field_obj(tp, i, rec->data));
		} else {
			Py_XDECREF(secs);
			Py_XDECREF(nsecs);
		}
		args[n++] = fields;
	}
	if (dict)
		args[n++] = sample_dict(run, tp, rec->data, time, cpu, tid, comm);
	ret = NULL;
	if (!PyErr_Occurred())
		ret = PyObject_Vectorcall(tp->handler ? tp->handler : run->unhandled, args, n,
					  NULL);
	for (int i = 0; i < n; i++)
		Py_XDECREF(args[i]);
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

static int run_hook(struct cli *c, const char *script, int nargs, char **args)
{
	static struct runner run;
	struct hwt_session_opts so = { .opts = c->opts, .nopts = c->nopts };
	struct hwt_sink sink = {
		.event = on_event, .chunk = on_chunk, .record = on_record, .ctx = &run,
	};
	FILE *fp;
	int ret;

	memset(&run, 0, sizeof(run));
	run.c = c;
	run.cpu = -1;
	run.tid = -1;
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
	call_hook(&run, "trace_begin");
	c->diag.file = c->input;
	ret = hwt_session__run(c->input, &so, &sink, &c->diag);
	call_hook(&run, "trace_end");
	if (Py_FinalizeEx() < 0)
		run.failed = true;
	cli__print_totals(c, stderr);
	ret = cli__status(c, ret);
	return run.failed ? EXIT_INPUT_ERROR : ret;
}

#endif /* HAVE_PYTHON */

int script_python__main(struct cli *c, int argc, char **argv, int i)
{
	const char *script;
	char **args;
	int nargs, ret;

	if (!strncmp(argv[i], "--script=", 9)) {
		script = argv[i] + 9;
	} else if (i + 1 < argc) {
		script = argv[++i];
	} else {
		return usage_error("script", "-s needs a Python hook file");
	}
	/* sys.argv = [hook, everything after it] as perf script sets it */
	nargs = argc - i;
	args = calloc(nargs + 1, sizeof(*args));
	if (!args)
		return EXIT_INPUT_ERROR;
	args[0] = (char *)script;
	for (int k = 1; k < nargs; k++)
		args[k] = argv[i + k];
#ifdef HAVE_PYTHON
	ret = run_hook(c, script, nargs, args);
#else
	ret = usage_error("script", "-s: this perf-hwtrace was built without Python "
			  "(install python3-dev and rebuild)");
#endif
	free(args);
	return ret;
}
