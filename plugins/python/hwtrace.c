// SPDX-License-Identifier: GPL-2.0
/*
 * hwtrace.c - the `hwtrace` Python module: decoded records as dicts.
 *
 *	import hwtrace
 *	for rec in hwtrace.open("perf.data"):		# or hdm="base=..,..."
 *		print(rec["type"], rec.get("dpa"))
 *
 * Each dict equals the JSON object `perf hwtrace script --json` prints for
 * the record: key "type" then every field present, enum values as names,
 * flags as lists of names, KV fields as dicts, arrays as lists; numbers are
 * ints, also where JSON writes them as strings (hex fields, values above
 * 2^53).
 *
 * open() returns a streaming iterator (type hwtrace.Records): a worker
 * thread decodes the input into a bounded queue (feed.c) while the iterator
 * takes records out, so the first record comes at once and memory does not
 * grow with the input.  open() raises OSError when the input cannot be read
 * at all; with strict=True the iterator raises ValueError at the first
 * error, after the records decoded before it.  Dropping the iterator, or
 * close(), stops the worker.
 *
 * Speed: a record's dict is a copy of a per-type template that holds the
 * keys (interned once) in field order, with the values set into it; ints
 * and strings that repeat the field's last value are shared (they are
 * immutable).  Only CPython's public C API is used.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <structmember.h>

#include <stdbool.h>
#include <string.h>

#include "hwtrace/decoder.h"
#include "hwtrace/device.h"
#include "feed.h"

#define MAX_OPTS	32
#define MAX_TYPES	64
#define CACHED_STR	64	/* strings shorter than this are shared when they repeat */
#define WAIT_MS		10	/* a waiting iterator looks again (and at signals) this often */

static PyObject *scalar(const struct hwt_field *f, uint64_t v)
{
	if (f->hint == HWT_FH_ENUM && v < f->nnames && f->names[v])
		return PyUnicode_FromString(f->names[v]);
	if (hwt_field__is_signed(f))
		return PyLong_FromLongLong((long long)v);
	if (f->type == HWT_FT_BOOL)
		return PyBool_FromLong(v != 0);
	return PyLong_FromUnsignedLongLong(v);
}

static PyObject *flags(const struct hwt_field *f, uint64_t v)
{
	PyObject *l = PyList_New(0);

	for (unsigned bit = 0; l && bit < 64; bit++) {
		PyObject *s;

		if (!(v & (1ULL << bit)))
			continue;
		if (bit < f->nnames && f->names[bit])
			s = PyUnicode_FromString(f->names[bit]);
		else
			s = PyUnicode_FromFormat("bit%u", bit);
		if (!s || PyList_Append(l, s) < 0) {
			Py_XDECREF(s);
			Py_DECREF(l);
			return NULL;
		}
		Py_DECREF(s);
	}
	return l;
}

static PyObject *value(const struct hwt_field *f, const void *data)
{
	if (f->type == HWT_FT_STR) {
		const char *s = *(const char *const *)((const char *)data + f->offset);

		return PyUnicode_DecodeUTF8(s ? s : "", s ? strlen(s) : 0, "replace");
	}
	if (f->type == HWT_FT_KV) {
		const struct hwt_kv *kv = *(const struct hwt_kv *const *)
			((const char *)data + f->offset);
		uint32_t n = hwt_field__len(f, data);
		PyObject *d = PyDict_New();

		for (uint32_t i = 0; d && i < n; i++) {
			PyObject *v = PyLong_FromUnsignedLongLong(kv[i].val);

			if (!v || PyDict_SetItemString(d, kv[i].key ? kv[i].key : "", v) < 0) {
				Py_XDECREF(v);
				Py_DECREF(d);
				return NULL;
			}
			Py_DECREF(v);
		}
		return d;
	}
	if (f->hint == HWT_FH_FLAGS)
		return flags(f, hwt_field__u64(f, data, 0));
	if (hwt_field__is_array(f)) {
		uint32_t n = hwt_field__len(f, data);
		PyObject *l = PyList_New(n);

		for (uint32_t i = 0; l && i < n; i++) {
			PyObject *v = scalar(f, hwt_field__u64(f, data, i));

			if (!v) {
				Py_DECREF(l);
				return NULL;
			}
			PyList_SET_ITEM(l, i, v);
		}
		return l;
	}
	return scalar(f, hwt_field__u64(f, data, 0));
}


/* ---- record dicts ----------------------------------------------------------- */

enum how {
	HOW_INT,	/* a number shown as an int */
	HOW_ENUM,	/* an enum: its name, or an int outside the names */
	HOW_STR,	/* a string */
	HOW_OTHER,	/* value() builds it (flags, arrays, KV, bool) */
};

/* What one field of a record type needs, made when the type is first seen. */
struct field_cache {
	PyObject *key;		/* the name, interned */
	PyObject **names;	/* HOW_ENUM: the names as str, made when first used */
	PyObject *last;		/* the last int or str made for the field */
	uint64_t last_v;
	char last_str[CACHED_STR];
	enum how how;
	int opt;		/* its bit in the presence mask, or -1 when always there */
};

struct type_cache {
	const struct hwt_record_type *t;
	PyObject *name;		/* value of "type" */
	PyObject *tpl;		/* "type" and the present fields' keys, for @tpl_mask */
	uint64_t tpl_mask;
	uint32_t nopt;		/* optional fields; more than 64: no template */
	struct field_cache *f;
};

static struct type_cache types[MAX_TYPES];
static struct type_cache *last_tc;
static PyObject *key_type;

static enum how how_of(const struct hwt_field *f)
{
	if (f->type == HWT_FT_STR)
		return HOW_STR;
	if (hwt_field__is_array(f) || f->hint == HWT_FH_FLAGS || f->type == HWT_FT_BOOL)
		return HOW_OTHER;
	return f->hint == HWT_FH_ENUM ? HOW_ENUM : HOW_INT;
}

static struct type_cache *type_cache(const struct hwt_record_type *t)
{
	struct type_cache *tc;
	uint32_t i;

	if (last_tc && last_tc->t == t)
		return last_tc;
	for (i = 0; i < MAX_TYPES && types[i].t; i++)
		if (types[i].t == t)
			return last_tc = &types[i];
	if (i == MAX_TYPES) {
		PyErr_SetString(PyExc_RuntimeError, "too many record types");
		return NULL;
	}
	tc = &types[i];
	tc->f = PyMem_Calloc(t->nfields ? t->nfields : 1, sizeof(*tc->f));
	tc->name = PyUnicode_InternFromString(t->name);
	tc->nopt = 0;
	for (uint32_t k = 0; tc->f && tc->name && k < t->nfields; k++) {
		const struct hwt_field *f = &t->fields[k];
		struct field_cache *fc = &tc->f[k];

		fc->key = PyUnicode_InternFromString(f->name);
		if (!fc->key)
			goto fail;
		fc->how = how_of(f);
		fc->opt = (f->flags & HWT_FF_OPTIONAL) ? (int)tc->nopt++ : -1;
	}
	if (!tc->f || !tc->name)
		goto fail;
	tc->t = t;
	return last_tc = tc;
fail:
	/* tc->t stays unset: the next record of the type tries again */
	for (uint32_t k = 0; tc->f && k < t->nfields; k++)
		Py_XDECREF(tc->f[k].key);
	PyMem_Free(tc->f);
	tc->f = NULL;
	Py_CLEAR(tc->name);
	if (!PyErr_Occurred())
		PyErr_NoMemory();
	return NULL;
}

/* A new reference to enum name @v of @f, made once. */
static PyObject *enum_name(struct field_cache *fc, const struct hwt_field *f, uint64_t v)
{
	if (!fc->names) {
		fc->names = PyMem_Calloc(f->nnames, sizeof(*fc->names));
		if (!fc->names)
			return PyErr_NoMemory();
	}
	if (!fc->names[v]) {
		fc->names[v] = PyUnicode_InternFromString(f->names[v]);
		if (!fc->names[v])
			return NULL;
	}
	Py_INCREF(fc->names[v]);
	return fc->names[v];
}

/* Field @f's value (a new reference), sharing the last one when it repeats. */
static PyObject *field_obj(struct field_cache *fc, const struct hwt_field *f, const void *data)
{
	const char *s;
	uint64_t v;
	size_t len;
	PyObject *o;

	switch (fc->how) {
	case HOW_ENUM:
		v = hwt_field__u64(f, data, 0);
		if (v < f->nnames && f->names[v])
			return enum_name(fc, f, v);
		return scalar(f, v);
	case HOW_INT:
		v = hwt_field__u64(f, data, 0);
		if (fc->last && fc->last_v == v) {
			Py_INCREF(fc->last);
			return fc->last;
		}
		o = hwt_field__is_signed(f) ? PyLong_FromLongLong((long long)v) :
					      PyLong_FromUnsignedLongLong(v);
		if (!o)
			return NULL;
		Py_XSETREF(fc->last, o);
		fc->last_v = v;
		Py_INCREF(o);
		return o;
	case HOW_STR:
		s = *(const char *const *)((const char *)data + f->offset);
		s = s ? s : "";
		if (fc->last && !strcmp(fc->last_str, s)) {
			Py_INCREF(fc->last);
			return fc->last;
		}
		len = strlen(s);
		o = PyUnicode_DecodeUTF8(s, len, "replace");
		if (!o || len >= CACHED_STR)
			return o;
		memcpy(fc->last_str, s, len + 1);
		Py_XSETREF(fc->last, o);
		Py_INCREF(o);
		return o;
	default:
		return value(f, data);
	}
}

/* "type" and the keys of the fields in @mask, in field order, with None values. */
static PyObject *template(struct type_cache *tc, uint64_t mask)
{
	PyObject *d = PyDict_New();

	if (!d || PyDict_SetItem(d, key_type, tc->name) < 0)
		goto fail;
	for (uint32_t i = 0; i < tc->t->nfields; i++) {
		struct field_cache *fc = &tc->f[i];

		if (fc->opt >= 0 && !(mask >> fc->opt & 1))
			continue;
		if (PyDict_SetItem(d, fc->key, Py_None) < 0)
			goto fail;
	}
	return d;
fail:
	Py_XDECREF(d);
	return NULL;
}

/* d["metrics"] = {name: value or None}, as `script --metrics --json` prints it */
static int add_metrics(PyObject *d, const struct hwt_metrics *m)
{
	PyObject *md = PyDict_New(), *v;

	if (!md)
		return -1;
	for (uint32_t i = 0; i < m->n; i++) {
		double x = m->vals[i];

		if (isnan(x) || isinf(x)) {
			v = Py_None;
			Py_INCREF(v);
		} else {
			v = PyFloat_FromDouble(x);
		}
		if (!v || PyDict_SetItemString(md, m->defs[i].name, v) < 0) {
			Py_XDECREF(v);
			Py_DECREF(md);
			return -1;
		}
		Py_DECREF(v);
	}
	if (PyDict_SetItemString(d, "metrics", md) < 0) {
		Py_DECREF(md);
		return -1;
	}
	Py_DECREF(md);
	return 0;
}

/* The record as the dict `script --json` prints (a new reference). */
static PyObject *record_dict(const struct hwt_record *rec)
{
	const struct hwt_record_type *t = rec->type;
	struct type_cache *tc = type_cache(t);
	uint64_t mask = 0;
	PyObject *d, *v;

	if (!tc)
		return NULL;
	for (uint32_t i = 0; i < t->nfields; i++) {
		int bit = tc->f[i].opt;

		if (bit >= 0 && bit < 64 && hwt_field__present(&t->fields[i], rec->data))
			mask |= 1ULL << bit;
	}
	if (tc->nopt <= 64 && (!tc->tpl || tc->tpl_mask != mask)) {
		Py_CLEAR(tc->tpl);
		tc->tpl = template(tc, mask);
		tc->tpl_mask = mask;
		if (!tc->tpl)
			return NULL;
	}
	/* a copy of a dict whose keys all stay is its table copied */
	d = tc->nopt <= 64 ? PyDict_Copy(tc->tpl) : PyDict_New();
	if (!d || (tc->nopt > 64 && PyDict_SetItem(d, key_type, tc->name) < 0))
		goto fail;
	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct hwt_field *f = &t->fields[i];

		if (tc->f[i].opt >= 0 && !hwt_field__present(f, rec->data))
			continue;
		v = field_obj(&tc->f[i], f, rec->data);
		if (!v || PyDict_SetItem(d, tc->f[i].key, v) < 0) {
			Py_XDECREF(v);
			goto fail;
		}
		Py_DECREF(v);
	}
	if (rec->metrics && add_metrics(d, rec->metrics) < 0)
		goto fail;
	return d;
fail:
	Py_XDECREF(d);
	return NULL;
}

/* ---- the iterator ------------------------------------------------------------ */

typedef struct {
	PyObject_HEAD
	struct feed *feed;	/* NULL once closed or at the end */
	bool busy;		/* a __next__ runs (it may wait without the GIL) */
	bool close_pending;	/* close() came meanwhile: that __next__ closes */
	int strict;
	Py_ssize_t errors;	/* error reports passed so far */
	Py_ssize_t warnings;	/* warnings passed so far */
} Records;

static void records_stop(Records *self)
{
	struct feed *f = self->feed;

	if (!f)
		return;
	if (self->busy) {
		/* another thread's __next__ uses the feed: it ends and frees it */
		self->close_pending = true;
		feed__stop(f);
		return;
	}
	self->feed = NULL;
	Py_BEGIN_ALLOW_THREADS
	feed__delete(f);
	Py_END_ALLOW_THREADS
}

static void records_dealloc(Records *self)
{
	records_stop(self);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The next item into @it: 1, or -1 at the end, or -2 with an exception set. */
static int next_item(Records *self, struct feed_item *it)
{
	struct feed *f = self->feed;
	int r = feed__next(f, it, 0);

	if (r)
		return r;
	self->busy = true;
	while (r == 0 && !self->close_pending) {
		/* nothing decoded yet: wait without the GIL, minding Ctrl-C */
		Py_BEGIN_ALLOW_THREADS
		r = feed__next(f, it, WAIT_MS);
		Py_END_ALLOW_THREADS
		if (r == 0 && PyErr_CheckSignals() < 0) {
			r = -2;
			break;
		}
	}
	self->busy = false;
	if (self->close_pending) {
		records_stop(self);
		return r == -2 ? -2 : -1;
	}
	return r;
}

static PyObject *records_next(Records *self)
{
	struct feed_item it;
	const char *why;
	int r;

	if (self->busy) {
		PyErr_SetString(PyExc_ValueError, "hwtrace.Records: __next__ already running");
		return NULL;
	}
	while (self->feed) {
		r = next_item(self, &it);
		if (r == -2)
			return NULL;
		if (r < 0) {
			if (!self->feed)
				return NULL;	/* closed meanwhile */
			why = feed__failure(self->feed);
			records_stop(self);
			if (why)
				PyErr_SetString(PyExc_MemoryError, why);
			return NULL;	/* StopIteration */
		}
		if (it.kind == FEED_RECORD)
			return record_dict(&it.rec);
		if (it.severity == HWT_WARN) {
			self->warnings++;
			continue;
		}
		self->errors++;
		if (self->strict) {
			PyErr_SetString(PyExc_ValueError, it.msg);
			records_stop(self);
			return NULL;
		}
	}
	return NULL;
}

static PyObject *records_close(Records *self, PyObject *unused)
{
	records_stop(self);
	Py_RETURN_NONE;
}

static PyObject *records_enter(Records *self, PyObject *unused)
{
	Py_INCREF(self);
	return (PyObject *)self;
}

static PyObject *records_exit(Records *self, PyObject *args)
{
	records_stop(self);
	Py_RETURN_FALSE;
}

static PyMethodDef records_methods[] = {
	{ "close", (PyCFunction)records_close, METH_NOARGS,
	  "stop decoding and free the queue; the iterator then ends" },
	{ "__enter__", (PyCFunction)records_enter, METH_NOARGS, NULL },
	{ "__exit__", (PyCFunction)records_exit, METH_VARARGS, "close()" },
	{ NULL, NULL, 0, NULL },
};

static PyMemberDef records_members[] = {
	{ "errors", T_PYSSIZET, offsetof(Records, errors), READONLY,
	  "error reports among the items passed so far" },
	{ "warnings", T_PYSSIZET, offsetof(Records, warnings), READONLY,
	  "warnings among the items passed so far" },
	{ NULL, 0, 0, 0, NULL },
};

static PyTypeObject records_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "hwtrace.Records",
	.tp_basicsize = sizeof(Records),
	.tp_dealloc = (destructor)records_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "Decoded records of one input, as dicts, in decode order.",
	.tp_iter = PyObject_SelfIter,
	.tp_iternext = (iternextfunc)records_next,
	.tp_methods = records_methods,
	.tp_members = records_members,
};

static PyObject *hw_open(PyObject *self, PyObject *args, PyObject *kwargs)
{
	struct hwt_opt opts[MAX_OPTS];
	uint32_t nopts = 0;
	PyObject *path_obj, *bytes = NULL, *key, *val;
	Records *rec = NULL;
	Py_ssize_t pos = 0;
	struct feed *f;
	char why[512];
	int strict = 0, started = 0, metrics = 0;

	if (!PyArg_ParseTuple(args, "O:open", &path_obj))
		return NULL;
	if (!PyUnicode_FSConverter(path_obj, &bytes))
		return NULL;
	while (kwargs && PyDict_Next(kwargs, &pos, &key, &val)) {
		const char *k = PyUnicode_AsUTF8(key);

		if (!k)
			goto err;
		if (!strcmp(k, "strict") || !strcmp(k, "metrics")) {
			int *flag = !strcmp(k, "strict") ? &strict : &metrics;

			*flag = PyObject_IsTrue(val);
			if (*flag < 0)
				goto err;
			continue;
		}
		if (nopts == MAX_OPTS || !PyUnicode_Check(val)) {
			PyErr_Format(PyExc_TypeError, "decoder option %s: a str value is needed",
				     k);
			goto err;
		}
		opts[nopts].key = k;
		opts[nopts].val = PyUnicode_AsUTF8(val);
		if (!opts[nopts++].val)
			goto err;
	}
	rec = PyObject_New(Records, &records_type);
	if (!rec)
		goto err;
	rec->feed = NULL;
	rec->busy = rec->close_pending = false;
	rec->strict = strict;
	rec->errors = rec->warnings = 0;
	f = feed__new(PyBytes_AS_STRING(bytes), opts, nopts, metrics);
	if (!f) {
		PyErr_NoMemory();
		goto err;
	}
	rec->feed = f;
	/* an input that cannot be read at all is open()'s error, as before */
	while (!started) {
		Py_BEGIN_ALLOW_THREADS
		started = feed__started(f, WAIT_MS);
		Py_END_ALLOW_THREADS
		if (!started && PyErr_CheckSignals() < 0)
			goto err;
	}
	snprintf(why, sizeof(why), "%s", PyBytes_AS_STRING(bytes));
	if (feed__unreadable(f, why, sizeof(why))) {
		PyErr_SetString(PyExc_OSError, why);
		goto err;
	}
	Py_DECREF(bytes);
	return (PyObject *)rec;
err:
	Py_XDECREF(rec);
	Py_XDECREF(bytes);
	return NULL;
}

static PyObject *hw_types(PyObject *self, PyObject *noargs)
{
	PyObject *l = PyList_New(0);

	if (!l)
		return NULL;
	hwt_devices__for_each_type(d, t) {
		PyObject *s;

		if ((*t)->kind != HWT_RK_DATA)
			continue;
		s = PyUnicode_FromString((*t)->name);
		if (!s || PyList_Append(l, s) < 0) {
			Py_XDECREF(s);
			Py_DECREF(l);
			return NULL;
		}
		Py_DECREF(s);
	}
	return l;
}

static PyMethodDef methods[] = {
	{ "open", (PyCFunction)(void (*)(void))hw_open, METH_VARARGS | METH_KEYWORDS,
	  "open(path, strict=False, **decoder_options) -> Records, an iterator of record "
	  "dicts decoded as they are taken" },
	{ "record_types", hw_types, METH_NOARGS, "names of the data record types" },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef module = {
	PyModuleDef_HEAD_INIT, "hwtrace", "Decoded hwtrace records as dicts.", -1, methods,
};

PyMODINIT_FUNC PyInit_hwtrace(void)
{
	PyObject *m;

	key_type = PyUnicode_InternFromString("type");
	if (!key_type || PyType_Ready(&records_type) < 0)
		return NULL;
	m = PyModule_Create(&module);
	if (!m)
		return NULL;
	Py_INCREF(&records_type);
	if (PyModule_AddObject(m, "Records", (PyObject *)&records_type) < 0) {
		Py_DECREF(&records_type);
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
