/* SPDX-License-Identifier: Apache-2.0 */
/* tcj._fastcall: the per-call part of an eager tensor call in C (python/tcj/_calls.py's launch).
 *
 * Why it exists: a tcj.linear call spent as much host time building its plan key, copying the
 * cached descriptor, writing the tensors' addresses and crossing ctypes as the C library spent
 * launching the kernel (docs/perf.md, "Host overhead"). This module does those steps with the
 * same torch calls (shape, stride(), dtype, get_device(), data_ptr()) but without the
 * interpreter between them, and calls tcj_gemm_ex through the address _lib's ctypes handle
 * already holds: it links against neither libtcj nor torch, so one build (the stable ABI,
 * CPython 3.9 and newer) serves every Python and torch version. Without it (a source tree used
 * in place, or no Python headers at build time) _calls.py runs the same steps in Python.
 *
 * Functions:
 *   configure(gemm_ex_address, current_stream)  tcj_gemm_ex's address (an int) and the callable
 *       that gives a device's current stream as an int (torch's _cuda_getCurrentRawStream).
 *   layout_key(key, tensors) -> key + one (shape, stride(), dtype, get_device()) per tensor,
 *       None for None: the plan cache's key, exactly as _calls._layout_of builds it.
 *   run(plan, tensors) -> tcj_status as an int. plan: (descriptor bytes, fields, engine address,
 *       device index); fields: ((byte offset, tensor slot, byte offset added), ...). Copies the
 *       descriptor, writes tensors[slot].data_ptr() + added at each offset, and calls
 *       tcj_gemm_ex(engine, &desc, current_stream(index)) with the GIL released (a first call
 *       may compile).
 *   call(plans, key, tensors) -> layout_key, the lookup in the dict plans (values with the plan
 *       tuple as attribute `run`) and run, in one crossing: run's status (an int) when the plan
 *       is there, else the full key (a tuple) to build and store it under.
 *   call_new(plans, key, inputs) -> as call, for a call whose output it makes: the plan also
 *       holds `new` = (callable, args, kwargs), which makes the output (torch.empty of the
 *       shape, dtype and device the inputs' layouts fix); run gets inputs + (output,). Returns
 *       the output, a failing status (an int), or the key of a missing plan. */
#define Py_LIMITED_API 0x03090000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#include "tcj.h"

typedef tcj_status (*gemm_ex_fn)(tcj_engine *, const tcj_gemm_desc *, CUstream);

static gemm_ex_fn gemm_ex;
static PyObject *current_stream; /* owned */
static PyObject *s_shape, *s_stride, *s_dtype, *s_get_device, *s_data_ptr, *s_run, *s_new; /* interned names */

static PyObject *configure(PyObject *self, PyObject *args) {
  (void)self;
  unsigned long long address;
  PyObject *stream_fn;
  if (!PyArg_ParseTuple(args, "KO:configure", &address, &stream_fn)) return NULL;
  if (!address || !PyCallable_Check(stream_fn)) {
    PyErr_SetString(PyExc_ValueError, "configure: needs tcj_gemm_ex's address and a callable current_stream");
    return NULL;
  }
  gemm_ex = (gemm_ex_fn)(uintptr_t)address;
  Py_INCREF(stream_fn);
  PyObject *old = current_stream;
  current_stream = stream_fn;
  Py_XDECREF(old);
  Py_RETURN_NONE;
}

/* (t.shape, t.stride(), t.dtype, t.get_device()); a new reference, NULL with an exception. */
static PyObject *layout_of(PyObject *t) {
  PyObject *parts[4] = {PyObject_GetAttr(t, s_shape), PyObject_CallMethodObjArgs(t, s_stride, NULL),
                        PyObject_GetAttr(t, s_dtype), PyObject_CallMethodObjArgs(t, s_get_device, NULL)};
  PyObject *out = NULL;
  if (parts[0] && parts[1] && parts[2] && parts[3]) out = PyTuple_Pack(4, parts[0], parts[1], parts[2], parts[3]);
  for (int i = 0; i < 4; i++) Py_XDECREF(parts[i]);
  return out;
}

/* key + one layout_of per tensor (None for None); a new reference. */
static PyObject *key_of(PyObject *key, PyObject *tensors) {
  Py_ssize_t nk = PyTuple_Size(key), nt = PyTuple_Size(tensors);
  PyObject *out = PyTuple_New(nk + nt);
  if (!out) return NULL;
  for (Py_ssize_t i = 0; i < nk; i++) {
    PyObject *v = PyTuple_GetItem(key, i);
    Py_INCREF(v);
    PyTuple_SetItem(out, i, v);
  }
  for (Py_ssize_t i = 0; i < nt; i++) {
    PyObject *t = PyTuple_GetItem(tensors, i);
    PyObject *v = t == Py_None ? (Py_INCREF(Py_None), Py_None) : layout_of(t);
    if (!v) {
      Py_DECREF(out);
      return NULL;
    }
    PyTuple_SetItem(out, nk + i, v);
  }
  return out;
}

static PyObject *layout_key(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *key, *tensors;
  if (!PyArg_ParseTuple(args, "O!O!:layout_key", &PyTuple_Type, &key, &PyTuple_Type, &tensors)) return NULL;
  return key_of(key, tensors);
}

/* *out = PyLong as uint64; 0 with an exception set on failure. */
static int as_u64(PyObject *v, uint64_t *out) {
  unsigned long long x = PyLong_AsUnsignedLongLong(v);
  if (x == (unsigned long long)-1 && PyErr_Occurred()) return 0;
  *out = (uint64_t)x;
  return 1;
}

/* run's work on a parsed plan tuple and tensors tuple. */
static PyObject *run_plan(PyObject *plan, PyObject *tensors) {
  if (!PyTuple_Check(plan)) {
    PyErr_SetString(PyExc_TypeError, "run: the plan must be a tuple");
    return NULL;
  }
  if (!gemm_ex) {
    PyErr_SetString(PyExc_RuntimeError, "run: configure() was not called");
    return NULL;
  }
  PyObject *bytes = PyTuple_Size(plan) == 4 ? PyTuple_GetItem(plan, 0) : NULL;
  if (!bytes || !PyBytes_Check(bytes) || PyBytes_Size(bytes) != (Py_ssize_t)sizeof(tcj_gemm_desc)) {
    PyErr_Format(PyExc_ValueError, "run: plan[0] must be the %zu bytes of a tcj_gemm_desc", sizeof(tcj_gemm_desc));
    return NULL;
  }
  /* The desc as a union with uint64_t so that the address writes below are aligned stores. */
  union { tcj_gemm_desc desc; unsigned char raw[sizeof(tcj_gemm_desc)]; uint64_t align; } u;
  memcpy(u.raw, PyBytes_AsString(bytes), sizeof u.desc);
  PyObject *fields = PyTuple_GetItem(plan, 1);
  if (!fields || !PyTuple_Check(fields)) {
    PyErr_SetString(PyExc_ValueError, "run: plan[1] must be a tuple of fields");
    return NULL;
  }
  Py_ssize_t nt = PyTuple_Size(tensors);
  for (Py_ssize_t i = 0, nf = PyTuple_Size(fields); i < nf; i++) {
    /* Read by hand: PyArg_ParseTuple per field cost as much as a data_ptr() call. */
    PyObject *f = PyTuple_GetItem(fields, i);
    if (!f || !PyTuple_Check(f) || PyTuple_Size(f) != 3) {
      PyErr_SetString(PyExc_ValueError, "run: a field must be (offset, slot, added)");
      return NULL;
    }
    Py_ssize_t offset = PyLong_AsSsize_t(PyTuple_GetItem(f, 0)), slot = PyLong_AsSsize_t(PyTuple_GetItem(f, 1));
    uint64_t added;
    if (PyErr_Occurred() || !as_u64(PyTuple_GetItem(f, 2), &added)) return NULL;
    if (offset < 0 || offset % 8 || (size_t)offset + 8 > sizeof u.desc || slot < 0 || slot >= nt) {
      PyErr_Format(PyExc_ValueError, "run: field (%zd, %zd) is outside the descriptor or the tensors", offset, slot);
      return NULL;
    }
    PyObject *ptr = PyObject_CallMethodObjArgs(PyTuple_GetItem(tensors, slot), s_data_ptr, NULL);
    if (!ptr) return NULL;
    uint64_t address;
    int ok = as_u64(ptr, &address);
    Py_DECREF(ptr);
    if (!ok) return NULL;
    address += (uint64_t)added;
    memcpy(u.raw + offset, &address, sizeof address);
  }
  uint64_t engine, index_value, stream;
  if (!as_u64(PyTuple_GetItem(plan, 2), &engine)) return NULL;
  PyObject *index = PyTuple_GetItem(plan, 3);
  if (!as_u64(index, &index_value)) return NULL;
  PyObject *s = PyObject_CallFunctionObjArgs(current_stream, index, NULL);
  if (!s) return NULL;
  int ok = as_u64(s, &stream);
  Py_DECREF(s);
  if (!ok) return NULL;
  tcj_status st;
  Py_BEGIN_ALLOW_THREADS
  st = gemm_ex((tcj_engine *)(uintptr_t)engine, &u.desc, (CUstream)(uintptr_t)stream);
  Py_END_ALLOW_THREADS
  return PyLong_FromLong((long)st);
}

static PyObject *run(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *plan, *tensors;
  if (!PyArg_ParseTuple(args, "O!O!:run", &PyTuple_Type, &plan, &PyTuple_Type, &tensors)) return NULL;
  return run_plan(plan, tensors);
}

/* The plan stored in plans under key + the tensors' layouts (a new reference), else NULL: with
 * *missing the full key (a new reference) when there is none, with an exception on failure. */
static PyObject *find_plan(PyObject *plans, PyObject *key, PyObject *tensors, PyObject **missing) {
  *missing = NULL;
  PyObject *full = key_of(key, tensors);
  if (!full) return NULL;
  PyObject *found = PyDict_GetItemWithError(plans, full); /* borrowed */
  if (!found) {
    if (PyErr_Occurred()) Py_DECREF(full);
    else *missing = full;
    return NULL;
  }
  Py_DECREF(full);
  Py_INCREF(found); /* held across what calls back into Python (data_ptr, torch.empty) */
  return found;
}

/* layout_key, the plan's lookup and run in one crossing: the status of a plan found in plans
 * (whose values have the plan tuple as attribute `run`), else the key, for the caller to build
 * and store the plan under. */
static PyObject *call(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *plans, *key, *tensors, *missing;
  if (!PyArg_ParseTuple(args, "O!O!O!:call", &PyDict_Type, &plans, &PyTuple_Type, &key, &PyTuple_Type, &tensors))
    return NULL;
  PyObject *found = find_plan(plans, key, tensors, &missing);
  if (!found) return missing;
  PyObject *plan = PyObject_GetAttr(found, s_run);
  Py_DECREF(found);
  if (!plan) return NULL;
  PyObject *out = run_plan(plan, tensors);
  Py_DECREF(plan);
  return out;
}

/* call for an output this call makes: the plan found also holds, as attribute `new`, how to
 * make it, (callable, args, kwargs) (torch.empty of the output's shape, dtype and device, which
 * the inputs' layouts and the key's scalars fix). The inputs' key, the lookup, the output, its
 * address and the launch in one crossing: the output on success, the status (an int) when the
 * call failed, or the key of a missing plan. */
static PyObject *call_new(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *plans, *key, *inputs, *missing;
  if (!PyArg_ParseTuple(args, "O!O!O!:call_new", &PyDict_Type, &plans, &PyTuple_Type, &key, &PyTuple_Type, &inputs))
    return NULL;
  PyObject *found = find_plan(plans, key, inputs, &missing);
  if (!found) return missing;
  PyObject *plan = PyObject_GetAttr(found, s_run), *make = PyObject_GetAttr(found, s_new);
  Py_DECREF(found);
  PyObject *out = NULL, *tensors = NULL, *status = NULL;
  if (!plan || !make) goto done;
  if (!PyTuple_Check(make) || PyTuple_Size(make) != 3 || !PyTuple_Check(PyTuple_GetItem(make, 1))) {
    PyErr_SetString(PyExc_ValueError, "call_new: the plan's `new` must be (callable, args tuple, kwargs)");
    goto done;
  }
  PyObject *kwargs = PyTuple_GetItem(make, 2);
  out = PyObject_Call(PyTuple_GetItem(make, 0), PyTuple_GetItem(make, 1), kwargs == Py_None ? NULL : kwargs);
  if (!out) goto done;
  Py_ssize_t n = PyTuple_Size(inputs); /* run's tensors: the inputs, then the output */
  if (!(tensors = PyTuple_New(n + 1))) goto done;
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *t = PyTuple_GetItem(inputs, i);
    Py_INCREF(t);
    PyTuple_SetItem(tensors, i, t);
  }
  Py_INCREF(out);
  PyTuple_SetItem(tensors, n, out);
  status = run_plan(plan, tensors);
done:
  Py_XDECREF(plan);
  Py_XDECREF(make);
  Py_XDECREF(tensors);
  if (!status || PyLong_AsLong(status) != 0) { /* an exception, or the failing status itself */
    Py_XDECREF(out);
    return status;
  }
  Py_DECREF(status);
  return out;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS, "configure(gemm_ex_address, current_stream): see the module's source."},
    {"layout_key", layout_key, METH_VARARGS, "layout_key(key, tensors) -> the plan cache's key."},
    {"run", run, METH_VARARGS, "run(plan, tensors) -> tcj_status of tcj_gemm_ex on the plan's descriptor."},
    {"call", call, METH_VARARGS, "call(plans, key, tensors) -> run's status for the plan found, else the key."},
    {"call_new", call_new, METH_VARARGS,
     "call_new(plans, key, inputs) -> the new output, a failing status, or the key of a missing plan."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastcall",
                                    "The per-call part of tcj's eager tensor calls, in C (see its source).", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__fastcall(void) {
  s_shape = PyUnicode_InternFromString("shape");
  s_stride = PyUnicode_InternFromString("stride");
  s_dtype = PyUnicode_InternFromString("dtype");
  s_get_device = PyUnicode_InternFromString("get_device");
  s_data_ptr = PyUnicode_InternFromString("data_ptr");
  s_run = PyUnicode_InternFromString("run");
  s_new = PyUnicode_InternFromString("new");
  if (!s_shape || !s_stride || !s_dtype || !s_get_device || !s_data_ptr || !s_run || !s_new) return NULL;
  /* The descriptor's address fields are 8-byte pointers at 8-byte offsets (run's writes). */
  if (sizeof(void *) != 8) {
    PyErr_SetString(PyExc_ImportError, "tcj._fastcall needs a 64-bit build");
    return NULL;
  }
  return PyModule_Create(&module);
}
