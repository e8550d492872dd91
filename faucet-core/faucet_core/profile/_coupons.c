/* The HyperLogLog coupons of a whole array in one call: MurmurHash3 (x64, 128 bits,
 * seed 9001) of each value's bytes, as datasketches' hll_sketch hashes them, split into
 * the 26-bit address and the rank (leading zeros of the second half + 1, at most 63).
 *
 * The numpy code in hll_hash.py computes the same coupons in ~35 array passes; this file is
 * its compiled twin, built when the package is installed with a C compiler and skipped
 * otherwise (hll_hash.py then uses the numpy code). Tests check the two agree value for
 * value and agree with the library's own hash.
 *
 * Only the buffer protocol is used (no numpy headers): the caller hands in contiguous
 * input buffers and the output buffers to fill. The GIL is released while hashing, so the
 * profiler's threads hash columns in parallel.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define SEED 9001ULL
#define C1 0x87c37b91114253d5ULL
#define C2 0x4cf5ad432745937fULL
#define ADDRESS_MASK 0x3ffffffULL

static inline uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline uint64_t fmix64(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

static inline uint64_t load64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline uint64_t mix_k1(uint64_t k1) {
    k1 *= C1;
    k1 = rotl64(k1, 31);
    return k1 * C2;
}

static inline uint64_t mix_k2(uint64_t k2) {
    k2 *= C2;
    k2 = rotl64(k2, 33);
    return k2 * C1;
}

static inline uint8_t rank_of(uint64_t h2) {
    if (h2 == 0) return 63;
    int zeros = __builtin_clzll(h2);
    return (uint8_t)((zeros < 62 ? zeros : 62) + 1);
}

/* The finalization shared by both entry points, then the coupon's two parts. */
static inline void finish(uint64_t h1, uint64_t h2, uint64_t length, uint32_t *address,
                          uint8_t *rank) {
    h1 ^= length;
    h2 ^= length;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    *address = (uint32_t)(h1 & ADDRESS_MASK);
    *rank = rank_of(h2);
}

static void hash_bytes(const uint8_t *data, uint64_t length, uint32_t *address,
                       uint8_t *rank) {
    uint64_t h1 = SEED, h2 = SEED;
    uint64_t blocks = length / 16;
    for (uint64_t i = 0; i < blocks; i++) {
        const uint8_t *block = data + 16 * i;
        h1 ^= mix_k1(load64(block));
        h1 = rotl64(h1, 27);
        h1 += h2;
        h1 = h1 * 5 + 0x52dce729;
        h2 ^= mix_k2(load64(block + 8));
        h2 = rotl64(h2, 31);
        h2 += h1;
        h2 = h2 * 5 + 0x38495ab5;
    }
    const uint8_t *tail = data + 16 * blocks;
    uint64_t rest = length & 15;
    uint64_t k1 = 0, k2 = 0;
    for (uint64_t i = rest; i > 8; i--) k2 |= (uint64_t)tail[i - 1] << (8 * (i - 9));
    for (uint64_t i = rest < 8 ? rest : 8; i > 0; i--) k1 |= (uint64_t)tail[i - 1] << (8 * (i - 1));
    if (rest > 8) h2 ^= mix_k2(k2);
    if (rest > 0) h1 ^= mix_k1(k1);
    finish(h1, h2, length, address, rank);
}

/* An 8-byte key: no block, one tail word. */
static inline void hash_word(uint64_t word, uint32_t *address, uint8_t *rank) {
    finish(SEED ^ mix_k1(word), SEED, 8, address, rank);
}

static int outputs_fit(Py_buffer *address, Py_buffer *rank, Py_ssize_t n) {
    if (address->len != n * 4 || rank->len != n) {
        PyErr_Format(PyExc_ValueError,
                     "coupon outputs must hold %zd uint32 addresses and %zd uint8 ranks "
                     "(got %zd and %zd bytes)",
                     n, n, address->len, rank->len);
        return 0;
    }
    return 1;
}

static PyObject *words(PyObject *self, PyObject *args) {
    Py_buffer in, address, rank;
    int floats;
    if (!PyArg_ParseTuple(args, "y*pw*w*", &in, &floats, &address, &rank)) return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = in.len / 8;
    if (in.len % 8 != 0) {
        PyErr_Format(PyExc_ValueError, "8-byte keys expected, got %zd bytes", in.len);
    } else if (outputs_fit(&address, &rank, n)) {
        const uint8_t *src = (const uint8_t *)in.buf;
        uint32_t *addr = (uint32_t *)address.buf;
        uint8_t *rk = (uint8_t *)rank.buf;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; i < n; i++) {
            uint64_t word = load64(src + 8 * i);
            /* the sketch hashes -0.0 as 0.0 */
            if (floats && word == 0x8000000000000000ULL) word = 0;
            hash_word(word, addr + i, rk + i);
        }
        Py_END_ALLOW_THREADS
        result = Py_NewRef(Py_None);
    }
    PyBuffer_Release(&in);
    PyBuffer_Release(&address);
    PyBuffer_Release(&rank);
    return result;
}

static PyObject *strings(PyObject *self, PyObject *args) {
    Py_buffer offsets, data, empty, address, rank;
    int wide;
    if (!PyArg_ParseTuple(args, "y*py*y*w*w*", &offsets, &wide, &data, &empty, &address,
                          &rank))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t width = wide ? 8 : 4;
    Py_ssize_t n = offsets.len / width - 1;
    if (offsets.len % width != 0 || n < 0) {
        PyErr_Format(PyExc_ValueError, "offsets must hold n + 1 int%zd values, got %zd bytes",
                     8 * width, offsets.len);
    } else if (outputs_fit(&address, &rank, n)) {
        const uint8_t *text = (const uint8_t *)data.buf;
        uint32_t *addr = (uint32_t *)address.buf;
        uint8_t *rk = (uint8_t *)rank.buf;
        uint32_t empty_address;
        uint8_t empty_rank;
        int bad = 0;
        Py_ssize_t at = 0;
        Py_BEGIN_ALLOW_THREADS
        hash_bytes((const uint8_t *)empty.buf, (uint64_t)empty.len, &empty_address,
                   &empty_rank);
        int64_t start = wide ? ((const int64_t *)offsets.buf)[0]
                             : ((const int32_t *)offsets.buf)[0];
        for (Py_ssize_t i = 0; i < n; i++) {
            int64_t stop = wide ? ((const int64_t *)offsets.buf)[i + 1]
                                : ((const int32_t *)offsets.buf)[i + 1];
            if (start < 0 || stop < start || stop > data.len) {
                bad = 1;
                at = i;
                break;
            }
            if (stop == start) {
                addr[i] = empty_address;
                rk[i] = empty_rank;
            } else {
                hash_bytes(text + start, (uint64_t)(stop - start), addr + i, rk + i);
            }
            start = stop;
        }
        Py_END_ALLOW_THREADS
        if (bad) {
            PyErr_Format(PyExc_ValueError,
                         "string %zd's offsets fall outside the %zd bytes of text", at,
                         data.len);
        } else {
            result = Py_NewRef(Py_None);
        }
    }
    PyBuffer_Release(&offsets);
    PyBuffer_Release(&data);
    PyBuffer_Release(&empty);
    PyBuffer_Release(&address);
    PyBuffer_Release(&rank);
    return result;
}

static PyMethodDef methods[] = {
    {"words", words, METH_VARARGS,
     "words(keys, floats, address, rank): the coupons of 8-byte little-endian keys (int64 "
     "or float64, -0.0 hashed as 0.0 when floats) into a uint32 and a uint8 buffer."},
    {"strings", strings, METH_VARARGS,
     "strings(offsets, wide, data, empty, address, rank): the coupons of the UTF-8 strings "
     "between consecutive offsets (int64 when wide, else int32) into data; an empty string "
     "hashed as the bytes of empty."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_coupons",
    "The HyperLogLog coupons of whole arrays, compiled (see hll_hash.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__coupons(void) { return PyModule_Create(&module); }
