/* _tiergarten_mammuz.gather(rows, species, key, plans, low, high, tail) -> tuple: MammuZ's
 * optional C kernel, the lay enumeration of tiergarten/games/mammuz/lays.py.
 *
 * The same actions in the same order as lays.LegalLays (the pure-Python path, which documents
 * the table): the lays of the capped hand `key` (fourteen counts, at most four each) for each
 * species, from the plan of the dinosaurs it holds and the bit set of the animal parts it can
 * supply (the AND of the two halves' bit sets, looked up by index: no hashing, no cache); then
 * tail. One pass counts, one fills a tuple of the exact size: no list, no copy, no int object
 * per item. Every table comes from lays.py, so the rules stay in Python; `VERSION` names this
 * calling convention (lays.py uses the kernel only when it matches). Built into the wheel by
 * hatch_build.py when a C compiler is there; without it the package is pure Python. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* The bits of byte `byte` of `mask` that lie in [start, end) (in bits). */
static unsigned bits_in(const unsigned char *mask, Py_ssize_t byte, Py_ssize_t start,
                        Py_ssize_t end) {
    unsigned v = mask[byte];
    if (byte == start >> 3) v &= 0xFFu << (start & 7);
    if (byte == (end - 1) >> 3) v &= 0xFFu >> (7 - ((end - 1) & 7));
    return v & 0xFFu;
}

static unsigned char ones[256];  /* ones[v]: bits set in v (a table: no popcnt needed) */

/* Bits set in mask[start, end) (in bits); `end` is within the mask. */
static Py_ssize_t count_bits(const unsigned char *mask, Py_ssize_t start, Py_ssize_t end) {
    Py_ssize_t n = 0;
    for (Py_ssize_t byte = start >> 3; start < end && byte <= (end - 1) >> 3; byte++)
        n += ones[bits_in(mask, byte, start, end)];
    return n;
}

static int read_step(PyObject *step, Py_ssize_t nbits, Py_ssize_t *block, Py_ssize_t *start,
                     Py_ssize_t *end) {
    if (!PyTuple_Check(step) || PyTuple_GET_SIZE(step) != 3) return -1;
    *block = PyLong_AsSsize_t(PyTuple_GET_ITEM(step, 0));
    *start = PyLong_AsSsize_t(PyTuple_GET_ITEM(step, 1));
    *end = PyLong_AsSsize_t(PyTuple_GET_ITEM(step, 2));
    if (*block < 0 || *start < 0 || *end < *start || *end > nbits) return -1;
    return 0;
}

#define KEY_KINDS 14  /* 8 animals, 6 dinosaurs */
#define MASK_MAX 64    /* bytes: room for 512 animal parts (there are 495) */

/* Index of four capped counts in the half tables: base 5, the first count most significant. */
static Py_ssize_t half_index(const unsigned char *c) {
    return ((c[0] * 5 + c[1]) * 5 + c[2]) * 5 + c[3];
}

static PyObject *gather(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7 || !PyTuple_Check(args[0]) || !PyTuple_Check(args[1]) ||
        !PyBytes_Check(args[2]) || !PyTuple_Check(args[3]) || !PyTuple_Check(args[4]) ||
        !PyTuple_Check(args[5]) || !PyTuple_Check(args[6])) {
        PyErr_SetString(PyExc_TypeError, "gather(rows, species, key, plans, low, high, tail): "
                        "key is bytes, the others tuples");
        return NULL;
    }
    PyObject *rows = args[0], *species = args[1], *plans = args[3], *tail = args[6];
    const unsigned char *key = (const unsigned char *)PyBytes_AS_STRING(args[2]);
    if (PyBytes_GET_SIZE(args[2]) != KEY_KINDS) goto bad;
    Py_ssize_t held = 0;
    for (int k = 0; k < KEY_KINDS; k++) {
        if (key[k] > 4) goto bad;
        if (k >= 8 && key[k]) held |= (Py_ssize_t)1 << (k - 8);
    }
    Py_ssize_t lo = half_index(key), hi = half_index(key + 4);
    if (held >= PyTuple_GET_SIZE(plans) || lo >= PyTuple_GET_SIZE(args[4]) ||
        hi >= PyTuple_GET_SIZE(args[5]))
        goto bad;
    PyObject *plan = PyTuple_GET_ITEM(plans, held);
    PyObject *low = PyTuple_GET_ITEM(args[4], lo), *high = PyTuple_GET_ITEM(args[5], hi);
    if (!PyTuple_Check(plan) || !PyBytes_Check(low) || !PyBytes_Check(high) ||
        PyBytes_GET_SIZE(low) != PyBytes_GET_SIZE(high) || PyBytes_GET_SIZE(low) > MASK_MAX)
        goto bad;
    unsigned char mask[MASK_MAX];
    Py_ssize_t nbytes = PyBytes_GET_SIZE(low), nbits = 8 * nbytes;
    for (Py_ssize_t j = 0; j < nbytes; j++)
        mask[j] = (unsigned char)PyBytes_AS_STRING(low)[j] & (unsigned char)PyBytes_AS_STRING(high)[j];
    Py_ssize_t nspecies = PyTuple_GET_SIZE(species), nplan = PyTuple_GET_SIZE(plan);
    Py_ssize_t total = PyTuple_GET_SIZE(tail), block = 0, start = 0, end = 0;
    for (Py_ssize_t p = 0; p < nplan; p++) {
        if (read_step(PyTuple_GET_ITEM(plan, p), nbits, &block, &start, &end) < 0) goto bad;
        total += nspecies * count_bits(mask, start, end);
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
            read_step(PyTuple_GET_ITEM(plan, p), nbits, &block, &start, &end);
            if (block >= PyTuple_GET_SIZE(blocks) || !PyTuple_Check(PyTuple_GET_ITEM(blocks, block)))
                goto bad_out;
            PyObject *row = PyTuple_GET_ITEM(blocks, block);
            if (end > PyTuple_GET_SIZE(row) && count_bits(mask, PyTuple_GET_SIZE(row), end))
                goto bad_out;
            for (Py_ssize_t byte = start >> 3; start < end && byte <= (end - 1) >> 3; byte++) {
                for (unsigned v = bits_in(mask, byte, start, end); v; v &= v - 1) {
                    PyObject *item = PyTuple_GET_ITEM(row, 8 * byte + __builtin_ctz(v));
                    __builtin_prefetch(item, 1);  /* its count is raised in the next pass */
                    PyTuple_SET_ITEM(out, n++, item);
                }
            }
        }
    }
    /* A second pass takes the references: the first only asked for the items' memory, all
     * at once, instead of waiting for each in turn. */
    for (Py_ssize_t j = 0; j < n; j++) Py_INCREF(PyTuple_GET_ITEM(out, j));
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(tail); j++) {
        PyObject *item = PyTuple_GET_ITEM(tail, j);
        Py_INCREF(item);
        PyTuple_SET_ITEM(out, n++, item);
    }
    /* Actions refer to no container that could lead back to this tuple: it can be in no
     * cycle, so the garbage collector need not walk its (many) items. */
    PyObject_GC_UnTrack(out);
    return out;
bad_out:  /* the items placed hold no reference yet: empty their slots (NULL is skipped) */
    for (Py_ssize_t j = 0; j < n; j++) PyTuple_SET_ITEM(out, j, NULL);
    Py_DECREF(out);
bad:
    if (!PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError,
                        "gather: a count, plan step, species or block out of range");
    return NULL;
}

static PyMethodDef methods[] = {
    {"gather", (PyCFunction)(void (*)(void))gather, METH_FASTCALL,
     "gather(rows, species, key, plans, low, high, tail) -> tuple (see mammuz/lays.py)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_tiergarten_mammuz", NULL, 0,
                                     methods};

PyMODINIT_FUNC PyInit__tiergarten_mammuz(void) {
    for (int v = 1; v < 256; v++) ones[v] = (unsigned char)(ones[v >> 1] + (v & 1));
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "VERSION", 1) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
