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
 * ints, also where JSON writes them as strings (hex fields, values above 2^53).  open()
 * decodes the whole input when called and returns an iterator over the
 * records; it raises OSError when the input cannot be read at all and
 * ValueError when it had errors and strict=True.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "hwtrace/decoder.h"
#include "hwtrace/device.h"

#define MAX_OPTS 32

struct collect {
	PyObject *list;
	bool failed;
	char first_error[512];
};

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

static void on_record(void *ctx, const struct hwt_record *rec)
{
	struct collect *c = ctx;
	const struct hwt_record_type *t = rec->type;
	PyObject *d, *v;

	if (c->failed || t->kind != HWT_RK_DATA)
		return;
	d = PyDict_New();
	v = d ? PyUnicode_FromString(t->name) : NULL;
	if (!v || PyDict_SetItemString(d, "type", v) < 0)
		goto fail;
	Py_DECREF(v);
	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct hwt_field *f = &t->fields[i];

		if (!hwt_field__present(f, rec->data))
			continue;
		v = value(f, rec->data);
		if (!v || PyDict_SetItemString(d, f->name, v) < 0)
			goto fail;
		Py_DECREF(v);
	}
	if (PyList_Append(c->list, d) < 0) {
		v = NULL;
		goto fail;
	}
	Py_DECREF(d);
	return;
fail:
	Py_XDECREF(v);
	Py_XDECREF(d);
	c->failed = true;
}

static void on_error(void *ctx, const struct hwt_error *e)
{
	struct collect *c = ctx;

	if (!c->first_error[0] && e->severity == HWT_ERROR)
		snprintf(c->first_error, sizeof(c->first_error), "%s: offset %#llx: %s: %s",
			 e->file, (unsigned long long)e->offset, e->rtype, e->msg);
}

static PyObject *hw_open(PyObject *self, PyObject *args, PyObject *kwargs)
{
	struct hwt_opt opts[MAX_OPTS];
	uint32_t nopts = 0;
	struct collect c = { 0 };
	struct hwt_diag diag = { .report = on_error, .ctx = &c };
	struct hwt_sink sink = { .record = on_record, .ctx = &c };
	struct hwt_session_opts so = { .opts = opts };
	PyObject *path_obj, *bytes = NULL, *key, *val, *it;
	int strict = 0, ret;
	Py_ssize_t pos = 0;
	const char *path;

	if (!PyArg_ParseTuple(args, "O:open", &path_obj))
		return NULL;
	if (!PyUnicode_FSConverter(path_obj, &bytes))
		return NULL;
	path = PyBytes_AS_STRING(bytes);
	while (kwargs && PyDict_Next(kwargs, &pos, &key, &val)) {
		const char *k = PyUnicode_AsUTF8(key);

		if (!k)
			goto err;
		if (!strcmp(k, "strict")) {
			strict = PyObject_IsTrue(val);
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
	so.nopts = nopts;
	c.list = PyList_New(0);
	if (!c.list)
		goto err;
	diag.file = path;
	ret = hwt_session__run(path, &so, &sink, &diag);
	if (c.failed)
		goto err;
	if (ret < 0) {
		PyErr_Format(PyExc_OSError, "%s", c.first_error[0] ? c.first_error : path);
		goto err;
	}
	if (strict && diag.errors) {
		PyErr_Format(PyExc_ValueError, "%s", c.first_error);
		goto err;
	}
	Py_DECREF(bytes);
	it = PyObject_GetIter(c.list);
	Py_DECREF(c.list);
	return it;
err:
	Py_XDECREF(c.list);
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
	  "open(path, strict=False, **decoder_options) -> iterator of record dicts" },
	{ "record_types", hw_types, METH_NOARGS, "names of the data record types" },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef module = {
	PyModuleDef_HEAD_INIT, "hwtrace", "Decoded hwtrace records as dicts.", -1, methods,
};

PyMODINIT_FUNC PyInit_hwtrace(void)
{
	return PyModule_Create(&module);
}
