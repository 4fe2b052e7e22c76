/* gather(rows, species, plan, parts, tail) -> tuple: MammuZ's lay enumeration's inner loop.
 *
 * The same as lays.gather_py (the Python fallback, which documents it): for each species, for
 * each (block, room) of the plan, the items rows[species][block][i] for i in parts[room]; then
 * tail. One pass counts, one fills a tuple of the exact size: no list, no copy, one reference
 * per item (the Python loop costs ~20 ns per item, this ~3). Built by tools/compile.py. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *gather(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5 || !PyTuple_Check(args[0]) || !PyTuple_Check(args[1]) ||
        !PyTuple_Check(args[2]) || !PyTuple_Check(args[3]) || !PyTuple_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError, "gather(rows, species, plan, parts, tail): five tuples");
        return NULL;
    }
    PyObject *rows = args[0], *species = args[1], *plan = args[2], *parts = args[3];
    PyObject *tail = args[4];
    Py_ssize_t nspecies = PyTuple_GET_SIZE(species), nplan = PyTuple_GET_SIZE(plan);
    Py_ssize_t nparts = PyTuple_GET_SIZE(parts), total = PyTuple_GET_SIZE(tail);
    for (Py_ssize_t p = 0; p < nplan; p++) {
        PyObject *step = PyTuple_GET_ITEM(plan, p);
        if (!PyTuple_Check(step) || PyTuple_GET_SIZE(step) != 2) goto bad;
        Py_ssize_t room = PyLong_AsSsize_t(PyTuple_GET_ITEM(step, 1));
        if (room < 0 || room >= nparts || !PyTuple_Check(PyTuple_GET_ITEM(parts, room))) goto bad;
        total += nspecies * PyTuple_GET_SIZE(PyTuple_GET_ITEM(parts, room));
    }
    PyObject *out = PyTuple_New(total);
    if (out == NULL) return NULL;
    Py_ssize_t n = 0;
    for (Py_ssize_t s = 0; s < nspecies; s++) {
        Py_ssize_t sp = PyLong_AsSsize_t(PyTuple_GET_ITEM(species, s));
        if (sp < 0 || sp >= PyTuple_GET_SIZE(rows) || !PyTuple_Check(PyTuple_GET_ITEM(rows, sp)))
            goto bad_out;
        PyObject *blocks = PyTuple_GET_ITEM(rows, sp);
        for (Py_ssize_t p = 0; p < nplan; p++) {
            PyObject *step = PyTuple_GET_ITEM(plan, p);
            Py_ssize_t block = PyLong_AsSsize_t(PyTuple_GET_ITEM(step, 0));
            PyObject *part = PyTuple_GET_ITEM(parts, PyLong_AsSsize_t(PyTuple_GET_ITEM(step, 1)));
            if (block < 0 || block >= PyTuple_GET_SIZE(blocks) ||
                !PyTuple_Check(PyTuple_GET_ITEM(blocks, block)))
                goto bad_out;
            PyObject *row = PyTuple_GET_ITEM(blocks, block);
            Py_ssize_t size = PyTuple_GET_SIZE(row), count = PyTuple_GET_SIZE(part);
            for (Py_ssize_t j = 0; j < count; j++) {
                Py_ssize_t i = PyLong_AsSsize_t(PyTuple_GET_ITEM(part, j));
                if (i < 0 || i >= size) goto bad_out;
                PyObject *item = PyTuple_GET_ITEM(row, i);
                Py_INCREF(item);
                PyTuple_SET_ITEM(out, n++, item);
            }
        }
    }
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(tail); j++) {
        PyObject *item = PyTuple_GET_ITEM(tail, j);
        Py_INCREF(item);
        PyTuple_SET_ITEM(out, n++, item);
    }
    return out;
bad_out:
    Py_DECREF(out);  /* unfilled slots are NULL, which tuple deallocation skips */
bad:
    if (!PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "gather: an index out of range or not a tuple");
    return NULL;
}

static PyMethodDef methods[] = {
    {"gather", (PyCFunction)(void (*)(void))gather, METH_FASTCALL,
     "gather(rows, species, plan, parts, tail) -> tuple (see lays.gather_py)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_gather", NULL, 0, methods};

PyMODINIT_FUNC PyInit__gather(void) { return PyModule_Create(&module); }
