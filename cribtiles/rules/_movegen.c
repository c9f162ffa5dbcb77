/* The compiled move generator of Crib Tiles: the same walk as cribtiles/rules/movegen.py, in C.
 *
 * movegen.py is the reference. This file follows it step by step (windows of at most 5 squares in a
 * row or column, cross-checks per empty square and face, the rack's face multisets grouped by rank
 * key) and emits the same plays in the same order with the same scores; tests/rules/
 * test_fast_movegen.py holds the two to it. It knows nothing of the rules' tables by itself: movegen.py
 * hands it the valid-line table, the placement objects, the Play class and the colours once, through
 * init(). Standard C99 and the Python C API only, so that any compiler setuptools finds can build it.
 * Nor does it know the rules in force: what each bonus is worth (scoring.Bonuses, a tuple of three ints)
 * is an argument of every call, as it is of movegen.py's functions.
 *
 * It also computes what the learned value reads of a position (features(), at the end): the bots'
 * cribtiles/bot/tiles/value_features.py is its reference, and tests/bot/tiles/test_value_compiled.py
 * holds the two equal to the last bit.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 13
#define SQUARES (SIZE * SIZE)
#define NFACES 26
#define MAX_LINE 5
#define MAX_RACK 8 /* longer racks go to the pure-Python generator */
#define EMPTY (-1)
#define BLOCKED (-2)
#define TABLE_BITS 16
#define TABLE_SIZE (1u << TABLE_BITS)

/* --- what init() hands over --- */

static int ready = 0;
static uint64_t face_key[NFACES];        /* additive rank key of each face (3 bits a rank) */
static int colour_bit[NFACES];           /* 1 light, 2 dark */
static uint64_t table_keys[TABLE_SIZE];  /* VALID_LINES as an open-addressing table; key 0 = free */
static int16_t table_values[TABLE_SIZE];
static PyObject *placements_table = NULL; /* PLACEMENTS, kept alive for the borrowed pointers below */
static PyObject *placement_of[SQUARES][NFACES];
static PyTypeObject *play_type = NULL;
static PyObject *light_colour = NULL, *dark_colour = NULL;
static int blocked_square[SQUARES];

/* What each bonus is worth under the rules in force (scoring.Bonuses; 0: not played). */
typedef struct {
    int first_play, five_tiles, one_colour;
} Bonuses;

/* A Bonuses from its Python value (a tuple of three ints from 0 to 1000); 0, or -1 with an exception set. */
static int read_bonuses(PyObject *value, Bonuses *out) {
    if (!PyTuple_Check(value) || PyTuple_GET_SIZE(value) != 3) {
        PyErr_SetString(PyExc_TypeError, "the bonuses must be a tuple of three ints (scoring.Bonuses)");
        return -1;
    }
    int got[3];
    for (int i = 0; i < 3; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(value, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || v > 1000) {
            PyErr_SetString(PyExc_ValueError, "a bonus is worth 0 to 1000 points");
            return -1;
        }
        got[i] = (int)v;
    }
    out->first_play = got[0];
    out->five_tiles = got[1];
    out->one_colour = got[2];
    return 0;
}

static inline uint32_t slot_of(uint64_t key) {
    return (uint32_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - TABLE_BITS));
}

/* The score of a valid line with this rank key, or -1 if no such line is valid. */
static inline int valid_line(uint64_t key) {
    uint32_t i = slot_of(key);
    while (table_keys[i]) {
        if (table_keys[i] == key) return table_values[i];
        i = (i + 1) & (TABLE_SIZE - 1);
    }
    return -1;
}

static PyObject *init(PyObject *self, PyObject *args) {
    PyObject *valid, *placements, *play, *light, *dark, *blocked;
    if (!PyArg_ParseTuple(args, "O!O!O!OOO", &PyDict_Type, &valid, &PyTuple_Type, &placements, &PyType_Type,
                          &play, &light, &dark, &blocked))
        return NULL;
    PyTypeObject *pt = (PyTypeObject *)play;
    if (!PyType_IsSubtype(pt, &PyTuple_Type) || pt->tp_dictoffset != 0 || pt->tp_itemsize != sizeof(PyObject *)) {
        PyErr_SetString(PyExc_TypeError, "init: Play must be a plain tuple subclass (a NamedTuple)");
        return NULL;
    }
    if (PyTuple_GET_SIZE(placements) != SQUARES) {
        PyErr_SetString(PyExc_ValueError, "init: PLACEMENTS must hold one row per square");
        return NULL;
    }
    memset(table_keys, 0, sizeof table_keys);
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    Py_ssize_t n = 0;
    while (PyDict_Next(valid, &pos, &k, &v)) {
        unsigned long long key = PyLong_AsUnsignedLongLong(k);
        long score = PyLong_AsLong(v);
        if (PyErr_Occurred()) return NULL;
        if (key == 0 || score < 0 || score > 30000 || ++n > (Py_ssize_t)(TABLE_SIZE / 2)) {
            PyErr_SetString(PyExc_ValueError, "init: the valid-line table is not what this module expects");
            return NULL;
        }
        uint32_t i = slot_of(key);
        while (table_keys[i] && table_keys[i] != key) i = (i + 1) & (TABLE_SIZE - 1);
        table_keys[i] = key;
        table_values[i] = (int16_t)score;
    }
    for (int s = 0; s < SQUARES; s++) {
        PyObject *row = PyTuple_GET_ITEM(placements, s);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != NFACES) {
            PyErr_SetString(PyExc_ValueError, "init: each PLACEMENTS row must hold one placement per face");
            return NULL;
        }
        for (int f = 0; f < NFACES; f++) placement_of[s][f] = PyTuple_GET_ITEM(row, f);
    }
    for (int f = 0; f < NFACES; f++) {
        face_key[f] = UINT64_C(1) << (3 * (f % 13));
        colour_bit[f] = f < 13 ? 1 : 2;
    }
    memset(blocked_square, 0, sizeof blocked_square);
    PyObject *it = PyObject_GetIter(blocked);
    if (it == NULL) return NULL;
    PyObject *item;
    while ((item = PyIter_Next(it)) != NULL) {
        long s = PyLong_AsLong(item);
        Py_DECREF(item);
        if (s < 0 || s >= SQUARES) {
            Py_DECREF(it);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "init: a blocked square is off the board");
            return NULL;
        }
        blocked_square[s] = 1;
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) return NULL;
    Py_INCREF(placements);
    Py_XSETREF(placements_table, placements);
    Py_INCREF(play);
    Py_XSETREF(play_type, pt);
    Py_INCREF(light);
    Py_XSETREF(light_colour, light);
    Py_INCREF(dark);
    Py_XSETREF(dark_colour, dark);
    ready = 1;
    Py_RETURN_NONE;
}

/* --- tiles and boards from their Python objects --- */

/* The face code (Tile.code) of a Tile (rank, colour), or -1 with an exception set. */
static int face_code(PyObject *tile) {
    if (!PyTuple_Check(tile) || PyTuple_GET_SIZE(tile) != 2) {
        PyErr_Format(PyExc_TypeError, "expected a tile (rank, colour), got a %.100s", Py_TYPE(tile)->tp_name);
        return -1;
    }
    long rank = PyLong_AsLong(PyTuple_GET_ITEM(tile, 0));
    if (rank == -1 && PyErr_Occurred()) return -1;
    PyObject *colour = PyTuple_GET_ITEM(tile, 1);
    int base = colour == light_colour ? 0 : colour == dark_colour ? 13 : -1;
    if (rank < 1 || rank > 13 || base < 0) {
        PyErr_SetString(PyExc_ValueError, "expected a tile: a rank 1-13 and the colour light or dark");
        return -1;
    }
    return base + (int)rank - 1;
}

/* The board's squares as codes: a face code, EMPTY or BLOCKED. Returns the number of tiles, or -1. */
static int board_codes(PyObject *cells, int *codes) {
    if (!PyTuple_Check(cells) || PyTuple_GET_SIZE(cells) != SQUARES) {
        PyErr_SetString(PyExc_TypeError, "expected a board's cells: a tuple of 169 squares");
        return -1;
    }
    int tiles = 0;
    for (int i = 0; i < SQUARES; i++) {
        PyObject *c = PyTuple_GET_ITEM(cells, i);
        if (blocked_square[i]) {
            codes[i] = BLOCKED;
        } else if (c == Py_None) {
            codes[i] = EMPTY;
        } else {
            int code = face_code(c);
            if (code < 0) return -1;
            codes[i] = code;
            tiles++;
        }
    }
    return tiles;
}

/* Cross-checks: for each empty square with tiles beside it in the direction of `step`, the score of
 * that cross line with each face placed (its one-colour bonus, `one_colour` points, included), -1 where it
 * would be invalid. */
typedef struct {
    int has[SQUARES];
    int16_t score[SQUARES][NFACES];
    int16_t top[SQUARES]; /* the best of a square's scores (-1: no face may go there) */
} Cross;

static void cross_table(const int *codes, int step, int one_colour, Cross *out) {
    for (int i = 0; i < SQUARES; i++) {
        out->has[i] = 0;
        if (codes[i] != EMPTY) continue;
        int pos = step == 1 ? i % SIZE : i / SIZE;
        uint64_t key0 = 0;
        int count = 0, colours = 0;
        for (int j = i - step, p = pos - 1; p >= 0 && codes[j] >= 0; j -= step, p--) {
            key0 += face_key[codes[j]];
            colours |= colour_bit[codes[j]];
            count++;
        }
        for (int j = i + step, p = pos + 1; p < SIZE && codes[j] >= 0; j += step, p++) {
            key0 += face_key[codes[j]];
            colours |= colour_bit[codes[j]];
            count++;
        }
        if (!count) continue;
        out->has[i] = 1;
        out->top[i] = -1;
        for (int f = 0; f < NFACES; f++) {
            int v = count + 1 <= MAX_LINE ? valid_line(key0 + face_key[f]) : -1;
            if (v >= 0 && count + 1 == MAX_LINE) {
                int c = colours | colour_bit[f];
                if (c == 1 || c == 2) v += one_colour;
            }
            out->score[i][f] = (int16_t)v;
            if (v > out->top[i]) out->top[i] = (int16_t)v;
        }
    }
}

/* --- the rack: per number of tiles k, its face multisets grouped by rank key --- */


typedef struct {
    int mask;  /* colours present */
    int first; /* index of its first ordering (k codes each) in Rack.orderings[k] */
    int count; /* its distinct orderings, in lexicographic order */
} Variant;

typedef struct {
    uint64_t key; /* rank key of the multisets in this group */
    int first;    /* index of its first variant in Rack.variants[k] */
    int count;
} Group;

typedef struct {
    int ngroups[MAX_LINE + 1];
    Group *groups[MAX_LINE + 1];
    Variant *variants[MAX_LINE + 1];
    unsigned char *orderings[MAX_LINE + 1];
    void *blocks[5 * (MAX_LINE + 1)];
    int nblocks;
} Rack;

static void rack_free(Rack *r) {
    for (int i = 0; i < r->nblocks; i++) free(r->blocks[i]);
    r->nblocks = 0;
}

static void *rack_alloc(Rack *r, size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    if (p != NULL) r->blocks[r->nblocks++] = p;
    return p;
}

static int compare_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The next distinct ordering in lexicographic order; 0 after the last. */
static int next_permutation(unsigned char *a, int n) {
    int i = n - 2;
    while (i >= 0 && a[i] >= a[i + 1]) i--;
    if (i < 0) return 0;
    int j = n - 1;
    while (a[j] <= a[i]) j--;
    unsigned char t = a[i];
    a[i] = a[j];
    a[j] = t;
    for (int lo = i + 1, hi = n - 1; lo < hi; lo++, hi--) {
        t = a[lo];
        a[lo] = a[hi];
        a[hi] = t;
    }
    return 1;
}

static int binomial(int n, int k) {
    long r = 1;
    for (int i = 1; i <= k; i++) r = r * (n - k + i) / i;
    return (int)r;
}

static void unpack(uint32_t packed, int k, unsigned char *s) {
    for (int j = k - 1; j >= 0; j--) {
        s[j] = (unsigned char)(packed & 31);
        packed >>= 5;
    }
}

/* The rack's groups, as movegen._rack_groups builds them: per k the distinct sorted face multisets in
 * sorted order, grouped by rank key in order of first appearance, each with its distinct orderings in
 * sorted order. `codes` are face codes in rack form (a 6/9 as its 6). 0, or -1 when out of memory. */
static int rack_build(Rack *r, const int *codes, int n) {
    memset(r, 0, sizeof *r);
    int faces[MAX_RACK][2], nfaces[MAX_RACK];
    for (int i = 0; i < n; i++) {
        faces[i][0] = codes[i];
        faces[i][1] = codes[i] + 3; /* a 6/9's 9 face is three ranks up */
        nfaces[i] = codes[i] % 13 == 5 ? 2 : 1;
    }
    int top = n < MAX_LINE ? n : MAX_LINE;
    for (int k = 1; k <= top; k++) {
        uint32_t *ms = rack_alloc(r, sizeof(uint32_t) * ((size_t)binomial(n, k) << k));
        if (ms == NULL) return -1;
        int nms = 0, idx[MAX_LINE];
        for (int i = 0; i < k; i++) idx[i] = i;
        for (;;) { /* each subset of k rack tiles (combinations), each choice of faces (product) */
            int choice[MAX_LINE] = {0};
            for (;;) {
                unsigned char s[MAX_LINE];
                for (int i = 0; i < k; i++) s[i] = (unsigned char)faces[idx[i]][choice[i]];
                for (int i = 1; i < k; i++)
                    for (int j = i; j > 0 && s[j - 1] > s[j]; j--) {
                        unsigned char t = s[j];
                        s[j] = s[j - 1];
                        s[j - 1] = t;
                    }
                uint32_t packed = 0; /* 5 bits a code: numeric order is the sorted tuples' order */
                for (int i = 0; i < k; i++) packed = (packed << 5) | s[i];
                ms[nms++] = packed;
                int i = k - 1;
                while (i >= 0 && choice[i] + 1 >= nfaces[idx[i]]) choice[i--] = 0;
                if (i < 0) break;
                choice[i]++;
            }
            int i = k - 1;
            while (i >= 0 && idx[i] == n - k + i) i--;
            if (i < 0) break;
            idx[i]++;
            for (int j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
        }
        qsort(ms, (size_t)nms, sizeof(uint32_t), compare_u32);
        int m = 0;
        for (int i = 0; i < nms; i++)
            if (m == 0 || ms[m - 1] != ms[i]) ms[m++] = ms[i];
        int *gid = rack_alloc(r, sizeof(int) * m);
        Group *groups = rack_alloc(r, sizeof(Group) * m);
        Variant *variants = rack_alloc(r, sizeof(Variant) * m);
        if (gid == NULL || groups == NULL || variants == NULL) return -1;
        int ng = 0;
        size_t total = 0;
        for (int i = 0; i < m; i++) {
            unsigned char s[MAX_LINE];
            unpack(ms[i], k, s);
            uint64_t key = 0;
            for (int j = 0; j < k; j++) key += face_key[s[j]];
            int g = 0;
            while (g < ng && groups[g].key != key) g++;
            if (g == ng) {
                groups[ng].key = key;
                groups[ng].count = 0;
                ng++;
            }
            groups[g].count++;
            gid[i] = g;
            size_t perms = 1; /* k! over the factorials of the repeats */
            for (int j = 2; j <= k; j++) perms *= (size_t)j;
            for (int j = 0, run = 1; j < k; j++) {
                run = (j > 0 && s[j] == s[j - 1]) ? run + 1 : 1;
                perms /= (size_t)run;
            }
            total += perms;
        }
        unsigned char *orderings = rack_alloc(r, total * (size_t)k);
        if (orderings == NULL) return -1;
        int v = 0, first = 0;
        for (int g = 0; g < ng; g++) {
            groups[g].first = v;
            for (int i = 0; i < m; i++) {
                if (gid[i] != g) continue;
                unsigned char s[MAX_LINE];
                unpack(ms[i], k, s);
                int mask = 0;
                for (int j = 0; j < k; j++) mask |= colour_bit[s[j]];
                variants[v].mask = mask;
                variants[v].first = first;
                int count = 0;
                do {
                    memcpy(orderings + (size_t)(first + count) * k, s, (size_t)k);
                    count++;
                } while (next_permutation(s, k));
                variants[v].count = count;
                first += count;
                v++;
            }
        }
        r->ngroups[k] = ng;
        r->groups[k] = groups;
        r->variants[k] = variants;
        r->orderings[k] = orderings;
    }
    return 0;
}

/* --- the walk --- */

enum { SCORED = 0, LEGAL = 1, ANY = 2, BEST = 3, TOP = 4, KEEPING = 5 };
#define MAX_TOP 64 /* the most plays a TOP sink keeps */

/* One play kept by a TOP sink: its squares and faces, its score, and its place in the walk's order. */
typedef struct {
    int score, k;
    long order;
    int squares[MAX_LINE], faces[MAX_LINE];
} Kept;

/* Where the walk's plays go (Macondo's play recorders): all of them as objects (SCORED, LEGAL),
 * whether there is one (ANY), only the best score (BEST), or the `want` best-scoring (TOP). TOP keeps
 * plain structs and makes objects only for the kept plays, at the end: the simulations' policy looks
 * at a dozen plays of the thousands a rack has. */
typedef struct {
    int mode;
    PyObject *out; /* a list (SCORED, LEGAL) */
    int found;     /* ANY: a play exists */
    int best;      /* BEST: the best score so far (-1: none) */
    int want, nkept;
    long seen;
    Kept *kept; /* TOP: at most `want`, best first; among equal scores the earlier play first */
} Sink;

static PyObject *play_object(const int *squares, const int *faces, int k) {
    PyObject *placements = PyTuple_New(k);
    if (placements == NULL) return NULL;
    for (int i = 0; i < k; i++) {
        PyObject *p = placement_of[squares[i]][faces[i]];
        Py_INCREF(p);
        PyTuple_SET_ITEM(placements, i, p);
    }
    /* Play(placements) as tuple.__new__ makes a tuple subclass: allocate it and fill its one slot */
    PyObject *play = play_type->tp_alloc(play_type, 1);
    if (play == NULL) {
        Py_DECREF(placements);
        return NULL;
    }
    PyTuple_SET_ITEM(play, 0, placements);
    return play;
}

static void keep(Sink *sink, const int *empties, const unsigned char *o, int k, int score) {
    long order = sink->seen++;
    if (sink->nkept == sink->want && score <= sink->kept[sink->nkept - 1].score) return;
    int at = sink->nkept < sink->want ? sink->nkept++ : sink->nkept - 1; /* the last one falls off */
    while (at > 0 && sink->kept[at - 1].score < score) {
        sink->kept[at] = sink->kept[at - 1];
        at--;
    }
    Kept *slot = &sink->kept[at];
    slot->score = score;
    slot->k = k;
    slot->order = order;
    for (int i = 0; i < k; i++) {
        slot->squares[i] = empties[i];
        slot->faces[i] = o[i];
    }
}

/* One play, to the sink: 0, or -1 with an exception set. */
static int put(Sink *sink, const int *empties, const unsigned char *o, int k, int score) {
    switch (sink->mode) {
    case ANY:
        sink->found = 1;
        return 0;
    case BEST:
        if (score > sink->best) sink->best = score;
        return 0;
    case TOP:
    case KEEPING:
        keep(sink, empties, o, k, score);
        return 0;
    default:
        break;
    }
    int faces[MAX_LINE];
    for (int i = 0; i < k; i++) faces[i] = o[i];
    PyObject *play = play_object(empties, faces, k);
    if (play == NULL) return -1;
    PyObject *item = play;
    if (sink->mode == SCORED) {
        PyObject *total = PyLong_FromLong(score);
        item = total == NULL ? NULL : PyTuple_Pack(2, play, total);
        Py_XDECREF(total);
        Py_DECREF(play);
        if (item == NULL) return -1;
    }
    int err = PyList_Append(sink->out, item);
    Py_DECREF(item);
    return err;
}

/* The TOP sink's plays as a list of (Play, score), best first. */
static PyObject *kept_list(const Sink *sink) {
    PyObject *out = PyList_New(sink->nkept);
    if (out == NULL) return NULL;
    for (int i = 0; i < sink->nkept; i++) {
        const Kept *kp = &sink->kept[i];
        PyObject *play = play_object(kp->squares, kp->faces, kp->k);
        PyObject *total = play == NULL ? NULL : PyLong_FromLong(kp->score);
        PyObject *item = total == NULL ? NULL : PyTuple_Pack(2, play, total);
        Py_XDECREF(play);
        Py_XDECREF(total);
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, item);
    }
    return out;
}

/* The rank key of a face as a rack holds it (movegen.rank_key): 4 bits a rank, a 9 counted as its 6. */
static inline uint64_t rank_key_of(int face) {
    int r = face % 13;
    return UINT64_C(1) << (4 * (r == 8 ? 5 : r));
}

/* The KEEPING sink's answer: of its plays (best-scoring first), the first with the greatest score plus
 * the value `values` gives the tiles it keeps (by their rank key; 0.0 when absent), as (Play, score);
 * None when there is no play. The sum is a double, as Python's int + float is. */
static PyObject *kept_choice(const Sink *sink, const int *rack_codes, int n, PyObject *values) {
    uint64_t rack_key = 0;
    for (int i = 0; i < n; i++) rack_key += rank_key_of(rack_codes[i]);
    int chosen = -1;
    double best = 0.0;
    for (int i = 0; i < sink->nkept; i++) {
        const Kept *kp = &sink->kept[i];
        uint64_t key = rack_key;
        for (int j = 0; j < kp->k; j++) key -= rank_key_of(kp->faces[j]);
        PyObject *pykey = PyLong_FromUnsignedLongLong(key);
        if (pykey == NULL) return NULL;
        PyObject *v = PyDict_GetItemWithError(values, pykey); /* borrowed */
        Py_DECREF(pykey);
        double value = 0.0;
        if (v != NULL) {
            value = PyFloat_AsDouble(v);
            if (value == -1.0 && PyErr_Occurred()) return NULL;
        } else if (PyErr_Occurred()) {
            return NULL;
        }
        double total = (double)kp->score + value;
        if (chosen < 0 || total > best) {
            chosen = i;
            best = total;
        }
    }
    if (chosen < 0) Py_RETURN_NONE;
    const Kept *kp = &sink->kept[chosen];
    PyObject *play = play_object(kp->squares, kp->faces, kp->k);
    PyObject *total = play == NULL ? NULL : PyLong_FromLong(kp->score);
    PyObject *item = total == NULL ? NULL : PyTuple_Pack(2, play, total);
    Py_XDECREF(play);
    Py_XDECREF(total);
    return item;
}

/* Every legal filling of one window's empty squares, with its score (movegen._emit). 1 when the sink
 * wants no more (ANY found one), 0 to go on, -1 on error. */
static int emit(Sink *sink, const Rack *rack, int k, const int *empties, const Cross *cross, uint64_t key0,
                int colours, int length, int first_bonus, const Bonuses *bonuses) {
    int fixed = first_bonus + (k == MAX_LINE ? bonuses->five_tiles : 0);
    int free_window = 1, reach = 0; /* reach: the most the cross lines can add */
    for (int i = 0; i < k; i++)
        if (cross->has[empties[i]]) {
            free_window = 0;
            if (cross->top[empties[i]] < 0) return 0; /* no tile may go on that square */
            reach += cross->top[empties[i]];
        }
    const Group *groups = rack->groups[k];
    const Variant *variants = rack->variants[k];
    const unsigned char *orderings = rack->orderings[k];
    for (int g = 0; g < rack->ngroups[k]; g++) {
        int main_line = 0;
        if (length >= 2) {
            main_line = valid_line(key0 + groups[g].key);
            if (main_line < 0) continue;
        }
        for (int v = groups[g].first; v < groups[g].first + groups[g].count; v++) {
            int base = main_line + fixed;
            int c = colours | variants[v].mask;
            if (length == MAX_LINE && (c == 1 || c == 2)) base += bonuses->one_colour;
            if (sink->mode == BEST && base + reach <= sink->best) continue; /* cannot beat the best */
            const unsigned char *o = orderings + (size_t)variants[v].first * k;
            for (int n = 0; n < variants[v].count; n++, o += k) {
                int score = base, ok = 1;
                if (!free_window) {
                    for (int i = 0; i < k; i++) {
                        if (!cross->has[empties[i]]) continue;
                        int x = cross->score[empties[i]][o[i]];
                        if (x < 0) {
                            ok = 0;
                            break;
                        }
                        score += x;
                    }
                }
                if (!ok) continue;
                if (put(sink, empties, o, k, score) < 0) return -1;
                if (sink->found) return 1;
            }
        }
    }
    return 0;
}

/* movegen._generate: windows across, then down; in each, lines top to bottom (left to right), window
 * starts in order, window ends in order. 0, 1 (stopped early), or -1 on error. */
static int walk(Sink *sink, const int *codes, int first, const Rack *rack, int nrack, const Cross *down,
                const Cross *across_cross, const Bonuses *bonuses) {
    int first_bonus = first ? bonuses->first_play : 0;
    for (int pass = 0; pass < 2; pass++) {
        int across = pass == 0;
        int step = across ? 1 : SIZE, stride = across ? SIZE : 1;
        const Cross *cross = across ? down : across_cross;
        for (int line = 0; line < SIZE; line++) {
            int idx[SIZE], lc[SIZE];
            for (int p = 0; p < SIZE; p++) {
                idx[p] = line * stride + p * step;
                lc[p] = codes[idx[p]];
            }
            for (int a = 0; a < SIZE; a++) {
                if (lc[a] == BLOCKED || (a > 0 && lc[a - 1] >= 0)) continue;
                uint64_t key0 = 0;
                int colours = 0, has_tile = 0, k = 0;
                int empties[MAX_LINE + 1];
                int end = a + MAX_LINE < SIZE ? a + MAX_LINE : SIZE;
                for (int b = a; b < end; b++) {
                    int cb = lc[b];
                    if (cb == BLOCKED) break;
                    if (cb >= 0) {
                        key0 += face_key[cb];
                        colours |= colour_bit[cb];
                        has_tile = 1;
                    } else {
                        empties[k++] = idx[b];
                        if (k > nrack) break;
                    }
                    if (b + 1 < SIZE && lc[b + 1] >= 0) continue; /* not a maximal window */
                    if (k == 0 || (k == 1 && !across)) continue;
                    if (first) {
                        if (k < 2) continue;
                    } else if (!has_tile) {
                        int touches = 0;
                        for (int i = 0; i < k; i++)
                            if (cross->has[empties[i]]) touches = 1;
                        if (!touches) continue;
                    }
                    int r = emit(sink, rack, k, empties, cross, key0, colours, b - a + 1, first_bonus, bonuses);
                    if (r) return r;
                }
            }
        }
    }
    return 0;
}

/* generate(cells, rack, mode, bonuses[, want[, values]]): the plays of a rack (a tuple of at most MAX_RACK
 * tiles) on a board (its cells), scored with `bonuses` (scoring.Bonuses): mode 0 a list of (Play, score), 1 a list of Play, 2 whether any play exists, 3
 * the best score (-1 when there is no play), 4 the `want` best-scoring (Play, score), best first (the
 * earlier play of the walk first among equal scores, as a stable sort of mode 0's list would), 5 of
 * those `want`, the one (Play, score) whose score plus `values`[rank key of the tiles it keeps] is
 * greatest (the first such; None when there is no play). */
static PyObject *generate(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 4 || nargs > 6) {
        PyErr_SetString(PyExc_TypeError,
                        "generate(cells, rack, mode, bonuses[, want[, values]]) takes 4 to 6 arguments");
        return NULL;
    }
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "the compiled move generator was not given its tables (init)");
        return NULL;
    }
    PyObject *cells = args[0], *rack_tiles = args[1];
    long mode = PyLong_AsLong(args[2]);
    if (mode == -1 && PyErr_Occurred()) return NULL;
    if (mode < SCORED || mode > KEEPING) {
        PyErr_SetString(PyExc_ValueError,
                        "generate: mode is 0 (scored), 1 (legal), 2 (any), 3 (best), 4 (top) or 5 (keeping)");
        return NULL;
    }
    Bonuses bonuses;
    if (read_bonuses(args[3], &bonuses) < 0) return NULL;
    long want = 0;
    PyObject *values = NULL;
    if (mode == TOP || mode == KEEPING) {
        want = nargs >= 5 ? PyLong_AsLong(args[4]) : -1;
        if (want == -1 && PyErr_Occurred()) return NULL;
        if (want < 1 || want > MAX_TOP) {
            PyErr_Format(PyExc_ValueError, "generate: modes 4 and 5 want 1 to %d plays", MAX_TOP);
            return NULL;
        }
    }
    if (mode == KEEPING) {
        if (nargs != 6 || !PyDict_Check(args[5])) {
            PyErr_SetString(PyExc_TypeError, "generate: mode 5 takes a dict of values by rank key");
            return NULL;
        }
        values = args[5];
    }
    if (!PyTuple_Check(rack_tiles) || PyTuple_GET_SIZE(rack_tiles) > MAX_RACK) {
        PyErr_Format(PyExc_ValueError, "generate: the rack must be a tuple of at most %d tiles", MAX_RACK);
        return NULL;
    }
    int n = (int)PyTuple_GET_SIZE(rack_tiles), rack_codes[MAX_RACK];
    for (int i = 0; i < n; i++) {
        int code = face_code(PyTuple_GET_ITEM(rack_tiles, i));
        if (code < 0) return NULL;
        rack_codes[i] = code % 13 == 8 ? code - 3 : code; /* rack form: a 9 is its 6/9 tile */
    }
    int codes[SQUARES];
    int tiles = board_codes(cells, codes);
    if (tiles < 0) return NULL;
    Kept kept[MAX_TOP];
    Sink sink = {(int)mode, NULL, 0, -1, (int)want, 0, 0, kept};
    if (mode == SCORED || mode == LEGAL) {
        sink.out = PyList_New(0);
        if (sink.out == NULL) return NULL;
    }
    if (n == 0) {
        if (mode == ANY) Py_RETURN_FALSE;
        if (mode == BEST) return PyLong_FromLong(-1);
        if (mode == TOP) return PyList_New(0);
        if (mode == KEEPING) Py_RETURN_NONE;
        return sink.out;
    }
    Cross *down = PyMem_Malloc(sizeof(Cross)), *across = PyMem_Malloc(sizeof(Cross));
    Rack rack;
    int err = 0;
    if (down == NULL || across == NULL) {
        PyErr_NoMemory();
        err = -1;
        memset(&rack, 0, sizeof rack);
    } else if (rack_build(&rack, rack_codes, n) < 0) {
        PyErr_NoMemory();
        err = -1;
    } else {
        cross_table(codes, SIZE, bonuses.one_colour, down);
        cross_table(codes, 1, bonuses.one_colour, across);
        /* The plays hold no cycles, and a cycle collection while the list grows would walk the list
         * again and again (most of the time of a large list): collect once, afterwards, if at all. */
        int collecting = PyGC_Disable();
        err = walk(&sink, codes, tiles == 0, &rack, n < MAX_LINE ? n : MAX_LINE, down, across, &bonuses) < 0 ? -1 : 0;
        if (collecting) PyGC_Enable();
    }
    rack_free(&rack);
    PyMem_Free(down);
    PyMem_Free(across);
    if (err < 0) {
        Py_XDECREF(sink.out);
        return NULL;
    }
    if (mode == ANY) return PyBool_FromLong(sink.found);
    if (mode == BEST) return PyLong_FromLong(sink.best);
    if (mode == TOP) return kept_list(&sink);
    if (mode == KEEPING) return kept_choice(&sink, rack_codes, n, values);
    return sink.out;
}

/* --- what the learned value reads of a position (cribtiles/bot/tiles/value_features.py) --- */

#define NKINDS 24 /* kinds of tile as a rack holds them: every face but the two 9s */

/* The chance that `drawn` tiles taken from `pool` include none of its `good` ones, step for step as
 * value_features._hypergeometric_none computes it (the same doubles in the same order). */
static double hypergeometric_none(long pool, long good, long drawn) {
    double p = 1.0;
    for (long i = 0; i < drawn; i++) {
        if (pool - i <= 0) return 0.0;
        long left = pool - good - i;
        p *= (double)(left > 0 ? left : 0) / (double)(pool - i);
        if (p == 0.0) break;
    }
    return p;
}

/* A product rounded on its own before it is added: no fused multiply-add, which some compilers make of
 * `a += b * c` and which rounds once where Python rounds twice. */
static double rounded_product(double a, double b) {
    volatile double p = a * b;
    return p;
}

/* value_features.expected_best over the kinds' values (`value[i]` each, `count[i]` tiles of it):
 * the expected best of `drawn` tiles and the chances it reaches `hot` and `very_hot`. */
static void expected_best(const int *value, const long *count, long drawn, int hot, int very_hot, double *out) {
    out[0] = out[1] = out[2] = 0.0;
    long pool = 0;
    for (int i = 0; i < NKINDS; i++) pool += count[i];
    if (pool == 0 || drawn <= 0) return;
    int levels[NKINDS];
    long at_level[NKINDS];
    int nlevels = 0;
    for (int i = 0; i < NKINDS; i++) {
        if (count[i] == 0 || value[i] <= 0) continue;
        int j = 0;
        while (j < nlevels && levels[j] != value[i]) j++;
        if (j == nlevels) {
            levels[nlevels] = value[i];
            at_level[nlevels++] = 0;
        }
        at_level[j] += count[i];
    }
    for (int i = 1; i < nlevels; i++) /* highest first */
        for (int j = i; j > 0 && levels[j - 1] < levels[j]; j--) {
            int v = levels[j];
            long c = at_level[j];
            levels[j] = levels[j - 1];
            at_level[j] = at_level[j - 1];
            levels[j - 1] = v;
            at_level[j - 1] = c;
        }
    double total = 0.0;
    long above = 0;
    for (int j = 0; j < nlevels; j++) {
        int lower = j + 1 < nlevels ? levels[j + 1] : 0;
        above += at_level[j];
        double reach = 1.0 - hypergeometric_none(pool, above, drawn);
        total += rounded_product((double)(levels[j] - lower), reach);
        if (levels[j] >= hot) out[1] = reach;
        if (levels[j] >= very_hot) out[2] = reach;
    }
    out[0] = total;
}

/* Free squares from `p` on in direction `step` along one line (`line` holds its 13 codes), at most
 * MAX_LINE (value_features._room). */
static int room(const int *line, int p, int step) {
    int n = 0;
    while (p >= 0 && p < SIZE && line[p] == EMPTY && n < MAX_LINE) {
        n++;
        p += step;
    }
    return n;
}

/* value_features._board_lines: open lines of 2-4, open fours, open fours of one colour, lanes. */
static void board_lines(const int *codes, int *out) {
    out[0] = out[1] = out[2] = out[3] = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int line = 0; line < SIZE; line++) {
            int row[SIZE];
            for (int p = 0; p < SIZE; p++) row[p] = codes[pass == 0 ? line * SIZE + p : p * SIZE + line];
            int p = 0;
            while (p < SIZE) {
                if (row[p] < 0) {
                    p++;
                    continue;
                }
                int start = p, colours = 0;
                while (p < SIZE && row[p] >= 0) colours |= colour_bit[row[p++]];
                int length = p - start;
                int grow = room(row, start - 1, -1) + room(row, p, 1);
                if (grow > MAX_LINE - length) grow = MAX_LINE - length;
                if (grow >= 2) out[3]++;
                if (length >= 2 && length < MAX_LINE && grow >= 1) {
                    out[0]++;
                    if (length == MAX_LINE - 1) {
                        out[1]++;
                        if (colours == 1 || colours == 2) out[2]++;
                    }
                }
            }
        }
    }
}

static int kind_of_code(int code) { return code % 13 == 8 ? code - 3 : code; } /* a 9 is its 6/9 tile */
static int kind_index(int kind) { return kind - (kind > 8) - (kind > 21); }  /* kind code -> 0..23 */

/* features(cells, rack, unseen, drawn, hot, very_hot, bonuses): what value_features reads of a position, as
 * ((the 16 BOARD_FEATURES as floats), (rack count value, rack 5s, rack 10s-Ks, rack A-4s, rack pairs,
 * rack's most of one colour, unseen tiles, unseen 5s, unseen 10s-Ks, unseen A-4s, unseen light)).
 * `drawn` is the size of the rack the opponent's reply is drawn as; a square is hot where a tile makes
 * `hot` points or more (very hot: `very_hot`). value_features._board_counts is the reference. */
static PyObject *features(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "features(cells, rack, unseen, drawn, hot, very_hot, bonuses) takes 7 arguments");
        return NULL;
    }
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "the compiled move generator was not given its tables (init)");
        return NULL;
    }
    PyObject *cells = args[0], *rack_tiles = args[1], *unseen = args[2];
    long drawn = PyLong_AsLong(args[3]);
    if (drawn == -1 && PyErr_Occurred()) return NULL;
    long hot_l = PyLong_AsLong(args[4]);
    if (hot_l == -1 && PyErr_Occurred()) return NULL;
    long very_hot_l = PyLong_AsLong(args[5]);
    if (very_hot_l == -1 && PyErr_Occurred()) return NULL;
    if (hot_l < 1 || hot_l > 30000 || very_hot_l < 1 || very_hot_l > 30000) {
        PyErr_SetString(PyExc_ValueError, "features: the hot thresholds are points from 1 to 30000");
        return NULL;
    }
    int hot = (int)hot_l, very_hot = (int)very_hot_l;
    Bonuses bonuses;
    if (read_bonuses(args[6], &bonuses) < 0) return NULL;
    if (!PyTuple_Check(rack_tiles) || PyTuple_GET_SIZE(rack_tiles) > MAX_RACK) {
        PyErr_Format(PyExc_ValueError, "features: the rack must be a tuple of at most %d tiles", MAX_RACK);
        return NULL;
    }
    if (!PyTuple_Check(unseen)) {
        PyErr_SetString(PyExc_TypeError, "features: the tiles unseen must be a tuple of tiles");
        return NULL;
    }
    int n = (int)PyTuple_GET_SIZE(rack_tiles), rack_codes[MAX_RACK], rack_has[NKINDS] = {0};
    long counts[11] = {0};
    int ranks[MAX_RACK], light = 0;
    for (int i = 0; i < n; i++) {
        int code = face_code(PyTuple_GET_ITEM(rack_tiles, i));
        if (code < 0) return NULL;
        int rank = code % 13 + 1;
        counts[0] += rank < 10 ? rank : 10;
        rack_codes[i] = kind_of_code(code);
        rack_has[kind_index(rack_codes[i])] = 1;
        ranks[i] = rack_codes[i] % 13 + 1;
        light += code < 13;
        counts[1] += ranks[i] == 5;
        counts[2] += ranks[i] >= 10;
        counts[3] += ranks[i] <= 4;
        for (int j = 0; j < i; j++) counts[4] += ranks[j] == ranks[i];
    }
    counts[5] = light > n - light ? light : n - light;
    long unseen_kinds[NKINDS] = {0};
    Py_ssize_t nunseen = PyTuple_GET_SIZE(unseen);
    for (Py_ssize_t i = 0; i < nunseen; i++) {
        int code = face_code(PyTuple_GET_ITEM(unseen, i));
        if (code < 0) return NULL;
        int rank = code % 13 + 1;
        unseen_kinds[kind_index(kind_of_code(code))]++;
        counts[7] += rank == 5;
        counts[8] += rank >= 10;
        counts[9] += rank <= 4;
        counts[10] += code < 13;
    }
    counts[6] = (long)nunseen;
    int codes[SQUARES];
    int tiles = board_codes(cells, codes);
    if (tiles < 0) return NULL;

    Cross *down = PyMem_Malloc(sizeof(Cross)), *across = PyMem_Malloc(sizeof(Cross));
    if (down == NULL || across == NULL) {
        PyMem_Free(down);
        PyMem_Free(across);
        return PyErr_NoMemory();
    }
    cross_table(codes, SIZE, bonuses.one_colour, down);
    cross_table(codes, 1, bonuses.one_colour, across);
    /* per square touching a tile, per kind: the best single-tile score there (-1: the kind cannot go) */
    int kind_best[NKINDS], anchors = 0, dead = 0, hot10 = 0, hot20 = 0, my_hot10 = 0, my_single = 0;
    for (int i = 0; i < NKINDS; i++) kind_best[i] = -1;
    for (int s = 0; s < SQUARES; s++) {
        if (codes[s] != EMPTY || (!down->has[s] && !across->has[s])) continue;
        anchors++;
        int by_face[NFACES];
        for (int f = 0; f < NFACES; f++) {
            int d = down->has[s] ? down->score[s][f] : 0, a = across->has[s] ? across->score[s][f] : 0;
            by_face[f] = d < 0 || a < 0 ? -1 : d + a;
        }
        int by_kind[NKINDS], any = -1;
        for (int f = 0; f < NFACES; f++) {
            if (f % 13 == 8) continue;
            int v = by_face[f];
            if (f % 13 == 5 && by_face[f + 3] > v) v = by_face[f + 3];
            by_kind[kind_index(f)] = v;
            if (v > any) any = v;
        }
        if (any < 0) {
            dead++;
            continue;
        }
        int best_out = -1, mine = -1;
        for (int i = 0; i < NKINDS; i++) {
            if (by_kind[i] > kind_best[i]) kind_best[i] = by_kind[i];
            if (unseen_kinds[i] && by_kind[i] > best_out) best_out = by_kind[i];
            if (rack_has[i] && by_kind[i] > mine) mine = by_kind[i];
        }
        hot10 += best_out >= hot;
        hot20 += best_out >= very_hot;
        my_hot10 += mine >= hot;
        if (mine > my_single) my_single = mine;
    }
    int values[NKINDS];
    long hot_tiles = 0;
    for (int i = 0; i < NKINDS; i++) {
        values[i] = kind_best[i] > 0 ? kind_best[i] : 0;
        if (values[i] >= hot) hot_tiles += unseen_kinds[i];
    }
    double opp[3];
    expected_best(values, unseen_kinds, drawn, hot, very_hot, opp);
    int best = -1, err = 0;
    if (n > 0) {
        Rack rack;
        Sink sink = {BEST, NULL, 0, -1, 0, 0, 0, NULL};
        if (rack_build(&rack, rack_codes, n) < 0) {
            PyErr_NoMemory();
            err = -1;
        } else {
            err = walk(&sink, codes, tiles == 0, &rack, n < MAX_LINE ? n : MAX_LINE, down, across, &bonuses) < 0
                      ? -1
                      : 0;
        }
        rack_free(&rack);
        best = sink.best;
    }
    PyMem_Free(down);
    PyMem_Free(across);
    if (err < 0) return NULL;
    int lines[4];
    board_lines(codes, lines);
    double board[16] = {
        opp[0], opp[1], opp[2], (double)hot10, (double)hot20,
        nunseen ? (double)hot_tiles / (double)nunseen : 0.0,
        (double)my_single, (double)my_hot10, (double)(best > 0 ? best : 0), (double)(best < 0),
        (double)anchors, (double)dead, (double)lines[0], (double)lines[1], (double)lines[2], (double)lines[3],
    };
    PyObject *floats = PyTuple_New(16), *ints = PyTuple_New(11);
    if (floats == NULL || ints == NULL) goto fail;
    for (int i = 0; i < 16; i++) {
        PyObject *v = PyFloat_FromDouble(board[i]);
        if (v == NULL) goto fail;
        PyTuple_SET_ITEM(floats, i, v);
    }
    for (int i = 0; i < 11; i++) {
        PyObject *v = PyLong_FromLong(counts[i]);
        if (v == NULL) goto fail;
        PyTuple_SET_ITEM(ints, i, v);
    }
    PyObject *pair = PyTuple_Pack(2, floats, ints);
    Py_DECREF(floats);
    Py_DECREF(ints);
    return pair;
fail:
    Py_XDECREF(floats);
    Py_XDECREF(ints);
    return NULL;
}

static PyMethodDef methods[] = {
    {"init", init, METH_VARARGS,
     "init(valid_lines, placements, play_type, light, dark, blocked): the rules' tables, once."},
    {"generate", (PyCFunction)(void (*)(void))generate, METH_FASTCALL,
     "generate(cells, rack, mode, bonuses[, want[, values]]): scored with bonuses (first play, five tiles, "
     "one colour); mode 0 [(Play, score)], 1 [Play], 2 whether any play "
     "exists, 3 the best score (-1: none), 4 the `want` best [(Play, score)], 5 of those the (Play, score) "
     "best by score + values[rank key kept] (None: no play)."},
    {"features", (PyCFunction)(void (*)(void))features, METH_FASTCALL,
     "features(cells, rack, unseen, drawn, hot, very_hot, bonuses): what the learned value reads of a "
     "position, as "
     "(the 16 board features, the rack's and the tiles unseen's 11 counts); see value_features.py."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_movegen", "The compiled move generator of Crib Tiles (see movegen.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__movegen(void) { return PyModule_Create(&module); }
