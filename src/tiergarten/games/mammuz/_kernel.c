/* tiergarten.games.mammuz._kernel: MammuZ's optional C kernel, accelerators of the hot path of
 * play, each the twin of a Python function that stays its readable definition (tests compare
 * them; kernel.py chooses which one the game calls):
 *
 * - `lays(species, hand, tail)` -> `Lays`, twin of lays.LegalLays: a hand's legal lays as a
 *   lazy sequence, for each species, from the plan of the dinosaurs the hand holds and the bit
 *   set of the animal parts it can supply (the AND of two looked-up halves); then `tail`.
 *   `len`, indexing and `in` build nothing (random play and search take one lay of a hundred
 *   or of thousands); iteration, slices, `==`, hashing and `+` go through the tuple of the
 *   same actions.
 * - `shuffle(rng, items)` (shuffles.shuffle): random.shuffle's algorithm, draw for draw through
 *   rng.getrandbits; `move_lay(rng, cards, hand, herd)` (shuffles.move_lay): a lay's cards so
 *   shuffled, moved from the hand to the herd; `deal(rng, deck, players, size)`
 *   (shuffles.deal).
 * - `learn_herd(known, holder, lays, layer, card, skip)` (knowledge.learn_herd): what each
 *   seat learns when a herd is taken or goes to the jackpot.
 *
 * Every table comes from lays.py (`setup`, given lays.kernel_tables()), so the rules stay in
 * Python; `VERSION` names this calling convention (the package uses the kernel only when it
 * matches, see kernel.py). Built into the package by hatch_build.py when a C compiler is there;
 * without it the package is pure Python, the same games, slower. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <structmember.h>  /* T_OBJECT_EX: how a slot is kept */

#define VERSION 2
#define KEY_KINDS 14    /* 8 animals, 6 dinosaurs */
#define SPECIES 8
#define HELD 64         /* sets of dinosaurs a hand can hold */
#define MAX_STEPS 64    /* blocks a plan can have (there are 57) */
#define WORDS 8         /* 64-bit words of a bit set: room for 512 animal parts (there are 495) */
#define HALVES 625      /* 5**4 capped counts of four species */
#define MAX_ROW 4096    /* multisets (there are 2338) */

typedef struct {
    unsigned short block, start, end, count;  /* offsets [start, end) of `block`; lays in it */
} Step;

/* The tables, set once by setup() from lays.py. */
static PyObject *rows;       /* rows[species][block][offset]: the action */
static PyObject *all;        /* every action by id: a lay's id is species * row + multiset */
static PyTypeObject *action_type;  /* the type of `all`'s actions */
static Py_ssize_t id_offset;       /* where an action holds its `id` (a slot) */
static Py_ssize_t row_len;   /* multisets per species */
static Step plans[HELD][MAX_STEPS];  /* per dinosaurs held, its blocks (count unused) */
static int plan_len[HELD];
static uint64_t low[HALVES][WORDS], high[HALVES][WORDS];
static Py_ssize_t mask_bits;  /* bits in the tables' bit sets */
static unsigned short where_block[MAX_ROW], where_offset[MAX_ROW];  /* per multiset */
static int ready;
static PyObject *id_name, *getrandbits_name;

static int ones(uint64_t x) {  /* bits set in x (no popcnt instruction needed) */
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* The position of the r-th (0-based) bit set in x; x has more than r. */
static int select_bit(uint64_t x, Py_ssize_t r) {
    int at = 0;
    for (int here = ones(x & 0xFF); r >= here; here = ones(x & 0xFF)) {  /* byte by byte */
        r -= here;
        x >>= 8;
        at += 8;
    }
    while (r--) x &= x - 1;
    return at + __builtin_ctzll(x);
}

/* Word w of `mask`, only its bits in [start, end) (in bits). */
static uint64_t word_in(const uint64_t *mask, Py_ssize_t w, Py_ssize_t start, Py_ssize_t end) {
    uint64_t v = mask[w];
    if (w == start >> 6) v &= ~0ULL << (start & 63);
    if (w == (end - 1) >> 6) v &= ~0ULL >> (63 - ((end - 1) & 63));
    return v;
}

/* Bits set in mask[start, end) (in bits). */
static Py_ssize_t count_bits(const uint64_t *mask, Py_ssize_t start, Py_ssize_t end) {
    Py_ssize_t n = 0;
    for (Py_ssize_t w = start >> 6; start < end && w <= (end - 1) >> 6; w++)
        n += ones(word_in(mask, w, start, end));
    return n;
}

/* The offset of the r-th (0-based) bit set in mask[start, end); there are more than r. */
static Py_ssize_t nth_bit(const uint64_t *mask, Py_ssize_t start, Py_ssize_t end,
                          Py_ssize_t r) {
    for (Py_ssize_t w = start >> 6;; w++) {
        uint64_t v = word_in(mask, w, start, end);
        Py_ssize_t here = ones(v);
        if (r < here) return 64 * w + select_bit(v, r);
        r -= here;
    }
}

/* Index of four capped counts in the half tables: base 5, the first count most significant. */
static Py_ssize_t half_index(const unsigned char *c) {
    return ((c[0] * 5 + c[1]) * 5 + c[2]) * 5 + c[3];
}

/* -- setup ------------------------------------------------------------------------------ */

/* The half tables: bytes of a little-endian bit set each, read into 64-bit words. */
static int read_halves(PyObject *halves, uint64_t (*out)[WORDS]) {
    if (!PyTuple_Check(halves) || PyTuple_GET_SIZE(halves) != HALVES) return -1;
    for (Py_ssize_t i = 0; i < HALVES; i++) {
        PyObject *b = PyTuple_GET_ITEM(halves, i);
        if (!PyBytes_Check(b) || 8 * PyBytes_GET_SIZE(b) != mask_bits) return -1;
        const unsigned char *bytes = (const unsigned char *)PyBytes_AS_STRING(b);
        memset(out[i], 0, sizeof out[i]);
        for (Py_ssize_t j = 0; j < PyBytes_GET_SIZE(b); j++)
            out[i][j >> 3] |= (uint64_t)bytes[j] << (8 * (j & 7));
    }
    return 0;
}

static Py_ssize_t int_at(PyObject *tuple, Py_ssize_t i) {
    return PyLong_AsSsize_t(PyTuple_GET_ITEM(tuple, i));
}

static int read_plans(PyObject *table) {
    if (!PyTuple_Check(table) || PyTuple_GET_SIZE(table) != HELD) return -1;
    for (Py_ssize_t h = 0; h < HELD; h++) {
        PyObject *plan = PyTuple_GET_ITEM(table, h);
        if (!PyTuple_Check(plan) || PyTuple_GET_SIZE(plan) > MAX_STEPS) return -1;
        plan_len[h] = (int)PyTuple_GET_SIZE(plan);
        for (Py_ssize_t p = 0; p < plan_len[h]; p++) {
            PyObject *step = PyTuple_GET_ITEM(plan, p);
            if (!PyTuple_Check(step) || PyTuple_GET_SIZE(step) != 3) return -1;
            Py_ssize_t block = int_at(step, 0), start = int_at(step, 1), end = int_at(step, 2);
            if (block < 0 || start < 0 || end < start || end > mask_bits) return -1;
            for (Py_ssize_t s = 0; s < SPECIES; s++) {  /* every offset has its action */
                PyObject *blocks = PyTuple_GET_ITEM(rows, s);
                if (!PyTuple_Check(blocks) || block >= PyTuple_GET_SIZE(blocks) ||
                    !PyTuple_Check(PyTuple_GET_ITEM(blocks, block)) ||
                    end > PyTuple_GET_SIZE(PyTuple_GET_ITEM(blocks, block)))
                    return -1;
            }
            plans[h][p] = (Step){(unsigned short)block, (unsigned short)start,
                                 (unsigned short)end, 0};
        }
    }
    return 0;
}

static int read_where(PyObject *table) {
    if (!PyTuple_Check(table) || PyTuple_GET_SIZE(table) != row_len) return -1;
    for (Py_ssize_t m = 0; m < row_len; m++) {
        PyObject *pair = PyTuple_GET_ITEM(table, m);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) return -1;
        Py_ssize_t block = int_at(pair, 0), offset = int_at(pair, 1);
        if (block < 0 || block > 0xFFFF || offset < 0 || offset >= mask_bits) return -1;
        where_block[m] = (unsigned short)block;
        where_offset[m] = (unsigned short)offset;
    }
    return 0;
}

/* The type of the actions and where they keep `id`: a slot (Action.__slots__), read by its
 * member descriptor's offset, as the interpreter reads it. */
static int read_id_slot(void) {
    if (PyTuple_GET_SIZE(all) == 0) return -1;
    PyTypeObject *type = Py_TYPE(PyTuple_GET_ITEM(all, 0));
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(all); i++)
        if (Py_TYPE(PyTuple_GET_ITEM(all, i)) != type) goto bad;
    PyObject *descr = PyObject_GetAttr((PyObject *)type, id_name);
    if (descr == NULL) return -1;
    int slot = Py_IS_TYPE(descr, &PyMemberDescr_Type) &&
               ((PyMemberDescrObject *)descr)->d_member->type == T_OBJECT_EX;
    Py_ssize_t offset = slot ? ((PyMemberDescrObject *)descr)->d_member->offset : -1;
    Py_DECREF(descr);
    if (!slot) goto bad;
    Py_XSETREF(action_type, (PyTypeObject *)Py_NewRef(type));
    id_offset = offset;
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "setup: the actions are not of one type with an id slot");
    return -1;
}

/* setup(rows, all, plans, low, high, where): the tables of lays.py (see there). */
static PyObject *setup(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6 || !PyTuple_Check(args[0]) || PyTuple_GET_SIZE(args[0]) != SPECIES ||
        !PyTuple_Check(args[1]) || !PyTuple_Check(args[5]) ||
        PyTuple_GET_SIZE(args[5]) > MAX_ROW || !PyTuple_Check(args[3]) ||
        !PyTuple_GET_SIZE(args[3]) || !PyBytes_Check(PyTuple_GET_ITEM(args[3], 0))) {
        PyErr_SetString(PyExc_TypeError, "setup(rows, all, plans, low, high, where): tuples");
        return NULL;
    }
    ready = 0;
    Py_XSETREF(rows, Py_NewRef(args[0]));
    Py_XSETREF(all, Py_NewRef(args[1]));
    row_len = PyTuple_GET_SIZE(args[5]);
    mask_bits = 8 * PyBytes_GET_SIZE(PyTuple_GET_ITEM(args[3], 0));
    if (mask_bits > 64 * WORDS || PyTuple_GET_SIZE(all) < SPECIES * row_len ||
        read_halves(args[3], low) < 0 || read_halves(args[4], high) < 0 ||
        read_plans(args[2]) < 0 || read_where(args[5]) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "setup: a table of the wrong shape");
        return NULL;
    }
    if (read_id_slot() < 0) return NULL;
    ready = 1;
    Py_RETURN_NONE;
}

/* -- Lays --------------------------------------------------------------------------------- */

typedef struct {
    PyObject_VAR_HEAD  /* ob_size: the steps with at least one lay */
    PyObject *tail;
    PyObject *last;  /* the lay indexed last (compared, never read: the tables hold it) */
    Py_ssize_t per, lays, len;  /* lays per species; all lays; lays and tail */
    int nspecies;
    unsigned char species[SPECIES];
    uint64_t mask[WORDS];
    Step steps[1];
} Lays;

static PyTypeObject LaysType;

/* Lays(species, hand, tail): the lays of `hand` (counts of the fourteen kinds) as each of
 * `species`, then tail. */
static PyObject *make_lays(PyObject *species, PyObject *hand, PyObject *tail) {
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "Lays: setup() was not called");
        return NULL;
    }
    if (!PyTuple_Check(species) || PyTuple_GET_SIZE(species) > SPECIES || !PyList_Check(hand) ||
        PyList_GET_SIZE(hand) != KEY_KINDS || !PyTuple_Check(tail)) {
        PyErr_SetString(PyExc_TypeError, "Lays(species, hand, tail): a tuple of up to eight "
                        "species, a list of fourteen counts, a tuple");
        return NULL;
    }
    unsigned char k[KEY_KINDS];  /* the hand capped at four of a kind: more adds no lay */
    int held = 0;
    for (int i = 0; i < KEY_KINDS; i++) {
        long count = PyLong_AsLong(PyList_GET_ITEM(hand, i));
        if (count < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "Lays: a negative count");
            return NULL;
        }
        k[i] = (unsigned char)(count > 4 ? 4 : count);
        if (i >= 8 && count) held |= 1 << (i - 8);
    }
    uint64_t mask[WORDS];
    const uint64_t *lo = low[half_index(k)], *hi = high[half_index(k + 4)];
    for (int w = 0; w < WORDS; w++) mask[w] = lo[w] & hi[w];
    Step steps[MAX_STEPS];
    Py_ssize_t nsteps = 0, per = 0;
    for (int p = 0; p < plan_len[held]; p++) {
        Step step = plans[held][p];
        step.count = (unsigned short)count_bits(mask, step.start, step.end);
        if (step.count) {
            steps[nsteps++] = step;
            per += step.count;
        }
    }
    Lays *self = (Lays *)LaysType.tp_alloc(&LaysType, nsteps);
    if (self == NULL) return NULL;
    self->nspecies = (int)PyTuple_GET_SIZE(species);
    for (int s = 0; s < self->nspecies; s++) {
        long sp = PyLong_AsLong(PyTuple_GET_ITEM(species, s));
        if (sp < 0 || sp >= SPECIES) {
            Py_DECREF(self);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "Lays: a species is 0 to 7");
            return NULL;
        }
        self->species[s] = (unsigned char)sp;
    }
    memcpy(self->mask, mask, sizeof mask);
    memcpy(self->steps, steps, (size_t)nsteps * sizeof(Step));
    self->tail = Py_NewRef(tail);
    self->per = per;
    self->lays = per * self->nspecies;
    self->len = self->lays + PyTuple_GET_SIZE(tail);
    return (PyObject *)self;
}

static PyObject *lays_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *species, *hand, *tail;
    if ((kwargs && PyDict_GET_SIZE(kwargs)) || !PyArg_UnpackTuple(args, "Lays", 3, 3, &species,
                                                                  &hand, &tail))
        return NULL;
    return make_lays(species, hand, tail);
}

/* lays(species, hand, tail): Lays(species, hand, tail), called without an argument tuple. */
static PyObject *lays(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "lays(species, hand, tail) takes three arguments");
        return NULL;
    }
    return make_lays(args[0], args[1], args[2]);
}

static void lays_dealloc(Lays *self) {
    Py_XDECREF(self->tail);  /* NULL where the constructor failed */
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static Py_ssize_t lays_length(Lays *self) { return self->len; }

/* Item i, 0 <= i < len (a borrowed reference). */
static PyObject *item(Lays *self, Py_ssize_t i) {
    if (i >= self->lays) return PyTuple_GET_ITEM(self->tail, i - self->lays);
    Py_ssize_t q = i / self->per, r = i % self->per;
    PyObject *blocks = PyTuple_GET_ITEM(rows, self->species[q]);
    for (Py_ssize_t p = 0;; p++) {
        const Step *step = &self->steps[p];
        if (r < step->count) {
            Py_ssize_t at = nth_bit(self->mask, step->start, step->end, r);
            return PyTuple_GET_ITEM(PyTuple_GET_ITEM(blocks, step->block), at);
        }
        r -= step->count;
    }
}

static PyObject *lays_item(Lays *self, Py_ssize_t i) {
    if (i < 0 || i >= self->len) {
        PyErr_SetString(PyExc_IndexError, "legal actions index out of range");
        return NULL;
    }
    PyObject *got = item(self, i);
    if (i < self->lays) self->last = got;  /* random play asks `in` of it next */
    return Py_NewRef(got);
}

/* The tuple of the same actions. */
static PyObject *as_tuple(Lays *self) {
    PyObject *out = PyTuple_New(self->len);
    if (out == NULL) return NULL;
    Py_ssize_t n = 0;
    for (int s = 0; s < self->nspecies; s++) {
        PyObject *blocks = PyTuple_GET_ITEM(rows, self->species[s]);
        for (Py_ssize_t p = 0; p < Py_SIZE(self); p++) {
            const Step *step = &self->steps[p];
            PyObject *row = PyTuple_GET_ITEM(blocks, step->block);
            for (Py_ssize_t w = step->start >> 6; w <= (step->end - 1) >> 6; w++)
                for (uint64_t v = word_in(self->mask, w, step->start, step->end); v;
                     v &= v - 1)
                    PyTuple_SET_ITEM(out, n++, Py_NewRef(PyTuple_GET_ITEM(
                        row, 64 * w + __builtin_ctzll(v))));
        }
    }
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(self->tail); j++)
        PyTuple_SET_ITEM(out, n++, Py_NewRef(PyTuple_GET_ITEM(self->tail, j)));
    return out;
}

/* Whether `action` is one of the lays (without building any): its id names its species and
 * multiset, the multiset its block and offset. */
static int has_lay(Lays *self, PyObject *action) {
    if (Py_TYPE(action) != action_type) return 0;  /* every lay is one of `all`, of its type */
    PyObject *id = *(PyObject **)((char *)action + id_offset);  /* its `id` slot */
    Py_ssize_t i = id != NULL && PyLong_CheckExact(id) ? PyLong_AsSsize_t(id) : -1;
    if (i == -1 && PyErr_Occurred()) PyErr_Clear();
    if (i < 0 || i >= SPECIES * row_len || PyTuple_GET_ITEM(all, i) != action) return 0;
    Py_ssize_t s = i / row_len, m = i % row_len;
    int mine = 0;
    for (int j = 0; j < self->nspecies; j++) mine |= self->species[j] == s;
    if (!mine) return 0;
    Py_ssize_t block = where_block[m], offset = where_offset[m];
    for (Py_ssize_t p = 0; p < Py_SIZE(self); p++) {
        const Step *step = &self->steps[p];
        if (step->block == block)
            return step->start <= offset && offset < step->end &&
                   (self->mask[offset >> 6] >> (offset & 63) & 1);
    }
    return 0;
}

static int lays_contains(Lays *self, PyObject *action) {
    if (action == self->last || (self->lays && has_lay(self, action))) return 1;
    return PySequence_Contains(self->tail, action);
}

static PyObject *lays_subscript(Lays *self, PyObject *key) {
    if (PyIndex_Check(key)) {
        Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) return NULL;
        if (i < 0) i += self->len;
        return lays_item(self, i);
    }
    PyObject *tuple = as_tuple(self);
    if (tuple == NULL) return NULL;
    PyObject *out = PyObject_GetItem(tuple, key);
    Py_DECREF(tuple);
    return out;
}

/* `other` as a tuple (a new reference), or NULL without an error if it is neither. */
static PyObject *tuple_of(PyObject *other) {
    if (PyTuple_Check(other)) return Py_NewRef(other);
    if (Py_IS_TYPE(other, &LaysType)) return as_tuple((Lays *)other);
    return NULL;
}

static PyObject *lays_richcompare(PyObject *self, PyObject *other, int op) {
    if ((op != Py_EQ && op != Py_NE) || !(PyTuple_Check(other) || Py_IS_TYPE(other, &LaysType)))
        Py_RETURN_NOTIMPLEMENTED;
    if (PyTuple_Check(other) && PyTuple_GET_SIZE(other) != ((Lays *)self)->len)
        return PyBool_FromLong(op == Py_NE);
    PyObject *a = as_tuple((Lays *)self), *b = a ? tuple_of(other) : NULL;
    PyObject *out = b ? PyObject_RichCompare(a, b, op) : NULL;
    Py_XDECREF(a);
    Py_XDECREF(b);
    return out;
}

static PyObject *via_tuple(PyObject *self, PyObject *(*f)(PyObject *)) {
    PyObject *tuple = as_tuple((Lays *)self);
    if (tuple == NULL) return NULL;
    PyObject *out = f(tuple);
    Py_DECREF(tuple);
    return out;
}

static Py_hash_t lays_hash(PyObject *self) {
    PyObject *tuple = as_tuple((Lays *)self);
    if (tuple == NULL) return -1;
    Py_hash_t out = PyObject_Hash(tuple);
    Py_DECREF(tuple);
    return out;
}

static PyObject *lays_repr(PyObject *self) { return via_tuple(self, PyObject_Repr); }
static PyObject *lays_iter(PyObject *self) { return via_tuple(self, PyObject_GetIter); }

static PyObject *lays_add(PyObject *a, PyObject *b) {  /* with a tuple or Lays, either side */
    PyObject *x = tuple_of(a), *y = x ? tuple_of(b) : NULL;
    if (y == NULL) {
        Py_XDECREF(x);
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *out = PySequence_Concat(x, y);
    Py_DECREF(x);
    Py_DECREF(y);
    return out;
}

static PyObject *by_tuple(PyObject *self, PyObject *args, const char *name) {
    PyObject *tuple = as_tuple((Lays *)self);
    if (tuple == NULL) return NULL;
    PyObject *method = PyObject_GetAttrString(tuple, name);
    PyObject *out = method ? PyObject_Call(method, args, NULL) : NULL;
    Py_XDECREF(method);
    Py_DECREF(tuple);
    return out;
}

static PyObject *lays_index(PyObject *self, PyObject *args) {
    return by_tuple(self, args, "index");
}

static PyObject *lays_count(PyObject *self, PyObject *args) {
    return by_tuple(self, args, "count");
}

static PyMethodDef lays_methods[] = {
    {"index", lays_index, METH_VARARGS, "as tuple.index"},
    {"count", lays_count, METH_VARARGS, "as tuple.count"},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods lays_as_sequence = {
    .sq_length = (lenfunc)lays_length,
    .sq_item = (ssizeargfunc)lays_item,
    .sq_contains = (objobjproc)lays_contains,
};

static PyMappingMethods lays_as_mapping = {
    .mp_length = (lenfunc)lays_length,
    .mp_subscript = (binaryfunc)lays_subscript,
};

static PyNumberMethods lays_as_number = {.nb_add = lays_add};

static PyTypeObject LaysType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tiergarten.games.mammuz._kernel.Lays",
    .tp_doc = "Lays(species, hand, tail): a hand's legal lays, as the tuple of the same actions "
              "(see mammuz/lays.py)",
    .tp_basicsize = offsetof(Lays, steps),
    .tp_itemsize = sizeof(Step),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_SEQUENCE,
    .tp_new = lays_new,
    .tp_dealloc = (destructor)lays_dealloc,
    .tp_as_sequence = &lays_as_sequence,
    .tp_as_mapping = &lays_as_mapping,
    .tp_as_number = &lays_as_number,
    .tp_richcompare = lays_richcompare,
    .tp_hash = lays_hash,
    .tp_repr = lays_repr,
    .tp_iter = lays_iter,
    .tp_methods = lays_methods,
};

/* -- shuffle, lay -------------------------------------------------------------------------- */

/* random.shuffle's algorithm on items[0:n] by rng, draw for draw: for i from the last down to
 * 1, j = rng._randbelow(i + 1) by getrandbits, items i and j swap. `items` is the item array
 * of a list or of a tuple nobody else holds yet; `list`, if not NULL, is that list (checked
 * after each draw, which runs Python code and could change it). */
static int shuffle_items(PyObject *rng, PyObject **items, Py_ssize_t n, PyObject *list) {
    if (n < 2) return 0;
    PyObject *getrandbits = PyObject_GetAttr(rng, getrandbits_name);  /* once: a bound method */
    if (getrandbits == NULL) return -1;
    for (Py_ssize_t i = n - 1; i > 0; i--) {
        size_t below = (size_t)i + 1;
        PyObject *bits = PyLong_FromLong(64 - __builtin_clzll((unsigned long long)below));
        size_t j;  /* bits: a small int, cached (never fails) */
        do {
            PyObject *got = PyObject_Vectorcall(getrandbits, &bits, 1, NULL);
            if (got == NULL) goto fail;
            j = PyLong_AsSize_t(got);
            Py_DECREF(got);
            if (j == (size_t)-1 && PyErr_Occurred()) goto fail;
        } while (j >= below);
        if (list != NULL &&
            (PyList_GET_SIZE(list) != n || ((PyListObject *)list)->ob_item != items)) {
            PyErr_SetString(PyExc_RuntimeError, "shuffle: the list changed");
            goto fail;
        }
        PyObject *t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
    Py_DECREF(getrandbits);
    return 0;
fail:
    Py_DECREF(getrandbits);
    return -1;
}

/* shuffle(rng, items): random.shuffle(items) by rng, draw for draw (the twin: shuffles.shuffle). */
static PyObject *shuffle(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyList_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "shuffle(rng, items): items is a list");
        return NULL;
    }
    PyObject *list = args[1];
    if (shuffle_items(args[0], ((PyListObject *)list)->ob_item, PyList_GET_SIZE(list), list) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* counts[k] += by, for a list of fourteen counts. */
static int add_to(PyObject *counts, Py_ssize_t k, long by) {
    long value = PyLong_AsLong(PyList_GET_ITEM(counts, k));
    if (value == -1 && PyErr_Occurred()) return -1;
    PyObject *now = PyLong_FromLong(value + by);
    if (now == NULL) return -1;
    Py_SETREF(((PyListObject *)counts)->ob_item[k], now);
    return 0;
}

/* move_lay(rng, cards, hand, herd) -> tuple: the cards (a tuple of kinds) in the order shuffle
 * draws for them, each moved from hand to herd (lists of fourteen counts). The twin:
 * shuffles.move_lay. */
static PyObject *move_lay(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4 || !PyTuple_Check(args[1]) || !PyList_CheckExact(args[2]) ||
        PyList_GET_SIZE(args[2]) != KEY_KINDS || !PyList_CheckExact(args[3]) ||
        PyList_GET_SIZE(args[3]) != KEY_KINDS) {
        PyErr_SetString(PyExc_TypeError, "move_lay(rng, cards, hand, herd): a tuple of kinds, "
                        "two lists of fourteen counts");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(args[1]);
    for (Py_ssize_t i = 0; i < n; i++) {  /* check all before changing anything */
        long k = PyLong_AsLong(PyTuple_GET_ITEM(args[1], i));
        if (k < 0 || k >= KEY_KINDS) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "move_lay: a kind is 0 to 13");
            return NULL;
        }
    }
    PyObject *out = PyTuple_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++)
        PyTuple_SET_ITEM(out, i, Py_NewRef(PyTuple_GET_ITEM(args[1], i)));
    if (shuffle_items(args[0], ((PyTupleObject *)out)->ob_item, n, NULL) < 0) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t k = PyLong_AsSsize_t(PyTuple_GET_ITEM(out, i));
        if (add_to(args[2], k, -1) < 0 || add_to(args[3], k, 1) < 0) goto fail;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* deal(rng, deck, players, size) -> hands: the deck (a list of kinds) shuffled by rng in
 * place, draw for draw as shuffle, then `size` cards to each of `players` hands in turn, each
 * hand a list of fourteen counts. The twin: shuffles.deal. */
static PyObject *deal(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t players = nargs == 4 ? PyLong_AsSsize_t(args[2]) : -1;
    Py_ssize_t size = nargs == 4 ? PyLong_AsSsize_t(args[3]) : -1;
    if (players < 0 || size < 0 || !PyList_CheckExact(args[1])) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "deal(rng, deck, players, size): a list of kinds, "
                            "two counts");
        return NULL;
    }
    PyObject *deck = args[1];
    if (shuffle_items(args[0], ((PyListObject *)deck)->ob_item, PyList_GET_SIZE(deck), deck) < 0)
        return NULL;
    if (players * size > PyList_GET_SIZE(deck)) {
        PyErr_SetString(PyExc_ValueError, "deal: the deck has too few cards");
        return NULL;
    }
    PyObject *hands = PyList_New(players);
    if (hands == NULL) return NULL;
    for (Py_ssize_t seat = 0; seat < players; seat++) {
        long counts[KEY_KINDS] = {0};
        for (Py_ssize_t i = seat * size; i < (seat + 1) * size; i++) {
            long k = PyLong_AsLong(PyList_GET_ITEM(deck, i));
            if (k < 0 || k >= KEY_KINDS) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "deal: a kind is 0 to 13");
                Py_DECREF(hands);
                return NULL;
            }
            counts[k]++;
        }
        PyObject *hand = PyList_New(KEY_KINDS);
        if (hand == NULL) {
            Py_DECREF(hands);
            return NULL;
        }
        PyList_SET_ITEM(hands, seat, hand);
        for (int k = 0; k < KEY_KINDS; k++) {
            PyObject *count = PyLong_FromLong(counts[k]);
            if (count == NULL) {
                Py_DECREF(hands);
                return NULL;
            }
            PyList_SET_ITEM(hand, k, count);
        }
    }
    return hands;
}

/* -- knowledge ------------------------------------------------------------------------------ */

/* row[at] = max(row[at], floor) + 1: a count settled against its holder's laid cards, plus one
 * (knowledge.py). */
static int settle_add(PyObject *row, Py_ssize_t at, long floor) {
    if (!PyList_CheckExact(row) || at < 0 || at >= PyList_GET_SIZE(row)) {
        PyErr_SetString(PyExc_ValueError, "learn_herd: a count out of the table");
        return -1;
    }
    long c = PyLong_AsLong(PyList_GET_ITEM(row, at));
    if (c == -1 && PyErr_Occurred()) return -1;
    PyObject *now = PyLong_FromLong((c > floor ? c : floor) + 1);
    if (now == NULL) return -1;
    Py_SETREF(((PyListObject *)row)->ob_item[at], now);
    return 0;
}

/* learn_herd(known, holder, lays, layer, card, skip): knowledge.learn_herd, its twin. */
static PyObject *learn_herd(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6 || !PyList_CheckExact(args[0]) || PyList_GET_SIZE(args[0]) < 2 ||
        !PyList_CheckExact(args[2])) {
        PyErr_SetString(PyExc_TypeError, "learn_herd(known, holder, lays, layer, card, skip): "
                        "known and lays are lists");
        return NULL;
    }
    PyObject *known = args[0], *lays = args[2];
    Py_ssize_t holder = PyLong_AsSsize_t(args[1]), layer = PyLong_AsSsize_t(args[3]);
    Py_ssize_t card = PyLong_AsSsize_t(args[4]), skip = PyLong_AsSsize_t(args[5]);
    if (PyErr_Occurred()) return NULL;
    Py_ssize_t observers = PyList_GET_SIZE(known) - 1;  /* the last row: laid per holder */
    PyObject *laid = PyList_GET_ITEM(known, observers);
    if (!PyList_CheckExact(laid) || holder < 0 || holder >= PyList_GET_SIZE(laid)) {
        PyErr_SetString(PyExc_ValueError, "learn_herd: no such holder");
        return NULL;
    }
    long floor = PyLong_AsLong(PyList_GET_ITEM(laid, holder));
    if (floor == -1 && PyErr_Occurred()) return NULL;
    Py_ssize_t base = holder * KEY_KINDS;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(lays); i++) {  /* each layer's own cards */
        PyObject *lay = PyList_GET_ITEM(lays, i);
        if (!PyTuple_Check(lay) || PyTuple_GET_SIZE(lay) != 2 ||
            !PyTuple_Check(PyTuple_GET_ITEM(lay, 1))) {
            PyErr_SetString(PyExc_TypeError, "learn_herd: a lay is (seat, cards)");
            return NULL;
        }
        Py_ssize_t seat = PyLong_AsSsize_t(PyTuple_GET_ITEM(lay, 0));
        if (seat == -1 && PyErr_Occurred()) return NULL;
        if (seat == skip) continue;
        if (seat < 0 || seat >= observers) {
            PyErr_SetString(PyExc_ValueError, "learn_herd: no such seat");
            return NULL;
        }
        PyObject *cards = PyTuple_GET_ITEM(lay, 1), *row = PyList_GET_ITEM(known, seat);
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(cards); j++) {
            Py_ssize_t k = PyLong_AsSsize_t(PyTuple_GET_ITEM(cards, j));
            if ((k == -1 && PyErr_Occurred()) || settle_add(row, base + k, floor) < 0)
                return NULL;
        }
    }
    for (Py_ssize_t o = 0; o < observers; o++)  /* then the turned card, every other row */
        if (o != skip && o != layer &&
            settle_add(PyList_GET_ITEM(known, o), base + card, floor) < 0)
            return NULL;
    Py_RETURN_NONE;
}

/* -- module --------------------------------------------------------------------------------- */

static PyMethodDef methods[] = {
    {"setup", (PyCFunction)(void (*)(void))setup, METH_FASTCALL,
     "setup(rows, all, plans, low, high, where): the tables of mammuz/lays.py"},
    {"lays", (PyCFunction)(void (*)(void))lays, METH_FASTCALL,
     "lays(species, hand, tail) -> Lays: a hand's legal lays (see mammuz/lays.py)"},
    {"deal", (PyCFunction)(void (*)(void))deal, METH_FASTCALL,
     "deal(rng, deck, players, size) -> hands: the deck shuffled, dealt into count lists"},
    {"learn_herd", (PyCFunction)(void (*)(void))learn_herd, METH_FASTCALL,
     "learn_herd(known, holder, lays, layer, card, skip): knowledge.learn_herd's twin"},
    {"shuffle", (PyCFunction)(void (*)(void))shuffle, METH_FASTCALL,
     "shuffle(rng, items): random.shuffle(items), draw for draw by rng.getrandbits"},
    {"move_lay", (PyCFunction)(void (*)(void))move_lay, METH_FASTCALL,
     "move_lay(rng, cards, hand, herd) -> tuple: cards shuffled, moved from hand to herd"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "tiergarten.games.mammuz._kernel",
                                     NULL, 0, methods};

PyMODINIT_FUNC PyInit__kernel(void) {
    id_name = PyUnicode_InternFromString("id");
    getrandbits_name = PyUnicode_InternFromString("getrandbits");
    if (id_name == NULL || getrandbits_name == NULL || PyType_Ready(&LaysType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "VERSION", VERSION) < 0 ||
        PyModule_AddObjectRef(m, "Lays", (PyObject *)&LaysType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
