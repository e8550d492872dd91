"""The HyperLogLog's hash, computed for a whole array at once, to feed the sketch only the
values that change it.

datasketches' ``hll_sketch.update`` takes one value per Python call. Its state after a
batch depends only on each value's *coupon*: MurmurHash3 (x64, 128 bits, seed 9001) of the
value's bytes, of which the low 26 bits of the first half give the address (the low 12 of
them, the register) and the leading zeros of the second half + 1 (at most 63) the rank. A
value whose coupon the sketch already holds (list and set modes) or whose rank does not
exceed its register's (HLL mode) leaves the sketch exactly as it was. This module computes
the coupons in numpy, with the bytes datasketches hashes for the Python value the sketch
would be given:

* a Python int: the 8 bytes of the int64, little-endian;
* a Python float: the 8 bytes of the double, ``-0.0`` as ``0.0``;
* a str: its UTF-8 bytes.

:func:`changing_positions` then picks, in their original order, the values that can change
the sketch; feeding only those leaves the sketch byte for byte as feeding every value would
(``tests/faucet_core/profile/test_hll_hash.py`` checks the hash against the library's).

The same coupons come from ``_coupons.c`` when the package was built with a C compiler: one
pass per value instead of ~35 array passes, with the GIL released. :func:`compiled` says
which is in use; the numpy code stays as the fallback and as the reference the tests hold the
compiled hash to.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

import datasketches as ds
import numpy as np

try:
    from faucet_core.profile import _coupons as _compiled
except ImportError:  # built without a C compiler: the numpy hash below
    _compiled = None

if TYPE_CHECKING:  # pyarrow is imported where strings are hashed: the SQL pushdown has none
    import pyarrow as pa

__all__ = [
    "HASH_BLOCK",
    "MAX_STRING_BLOCKS",
    "changing_positions",
    "compiled",
    "feed_changing",
    "float_coupons",
    "int_coupons",
    "ranks",
    "string_coupons",
]

_U64 = np.uint64
_SEED = _U64(9001)
_C1 = _U64(0x87C37B91114253D5)
_C2 = _U64(0x4CF5AD432745937F)
_F1 = _U64(0xFF51AFD7ED558CCD)
_F2 = _U64(0xC4CEB9FE1A85EC53)
_ADDR_MASK = _U64(0x3FFFFFF)


def compiled() -> bool:
    """Whether the compiled hash is in use now (tests switch it off to run the numpy one)."""
    return _compiled is not None


HASH_BLOCK = 16_384
"""Values hashed per block. Each of the hash's ~35 numpy passes writes a temporary as long
as its block. At 16,384 values (128 KiB of uint64) the allocator keeps reusing the same
memory, which stays in the core's cache; the temporaries of a whole 65,536-value batch
(512 KiB each) go back to the system when freed and are faulted in again on the next pass
(about 690 minor page faults a batch against none). On a 2-core AMD EPYC: 5.0 ns per int64
in blocks of 16,384 against 19.6 ns in one block of 65,536, 26 against 71 ns per
16-character string (``benchmarks/hll_hash_blocks.py``)."""
MAX_STRING_BLOCKS = 256
"""Strings longer than this many 16-byte blocks (4 KiB) are not hashed here: the caller feeds
the sketch value by value."""


class Coupons(NamedTuple):
    """The values' coupons, split: the 26-bit address (whose low lg_k bits are the
    register) and the rank (1..63)."""

    address: np.ndarray  # uint32
    rank: np.ndarray  # uint8

    def coupon(self) -> np.ndarray:
        """The coupons as the sketch stores them: rank above the 26-bit address."""
        coupon: np.ndarray = (self.rank.astype(np.uint32) << np.uint32(26)) | self.address
        return coupon

    def tail(self, start: int) -> Coupons:
        return Coupons(self.address[start:], self.rank[start:])


def _rotl(x: np.ndarray, r: int) -> np.ndarray:
    high = x >> _U64(64 - r)
    x <<= _U64(r)
    x |= high
    return x


def _finish(h1: np.ndarray, h2: np.ndarray, lengths: np.ndarray | int) -> Coupons:
    """MurmurHash3's finalization (in place), then the coupon's address and rank."""
    length = _U64(lengths) if isinstance(lengths, int) else lengths.view(_U64)
    h1 ^= length
    h2 ^= length
    h1 += h2
    h2 += h1
    return _mix_out(h1, h2, np.empty_like(h1))


def ranks(h2: np.ndarray) -> np.ndarray:
    """Leading zeros + 1, at most 63, of uint64 words: from the float exponent of their top
    53 bits (exact as a double); words whose top bits are all zero (a chance of 2**-53)
    are counted one by one."""
    top = (h2 >> _U64(11)).view(np.int64)
    exponent = top.astype(np.float64).view(np.int64)
    exponent >>= 52
    np.subtract(1076, exponent, out=exponent)
    np.minimum(exponent, 63, out=exponent)
    rank: np.ndarray = exponent.astype(np.uint8)
    if not top.all():
        low = top == 0
        rank[low] = [_rank(int(v)) for v in h2[low]]
    return rank


def _rank(h2: int) -> int:
    return min(64 - h2.bit_length(), 62) + 1


def _mix_k1(k1: np.ndarray) -> np.ndarray:
    k1 *= _C1
    k1 = _rotl(k1, 31)
    k1 *= _C2
    return k1


def _mix_k2(k2: np.ndarray) -> np.ndarray:
    k2 *= _C2
    k2 = _rotl(k2, 33)
    k2 *= _C1
    return k2


_SEED_8 = _SEED ^ _U64(8)
"""The seed xor the key length: h2 before the finalization mixes h1 into it."""


def _hash_words(words: np.ndarray) -> Coupons:
    """Coupons of 8-byte keys (uint64 words): MurmurHash3 with one tail word, no block.

    The same steps as :func:`_mix_k1` and :func:`_finish`, in place on two arrays and one
    scratch array (h2 is the constant seed until the finalization)."""
    h1 = np.multiply(words, _C1)
    scratch = np.right_shift(h1, _U64(33))  # rotl 31
    h1 <<= _U64(31)
    h1 |= scratch
    h1 *= _C2
    h1 ^= _SEED_8  # the seed, then the length
    h1 += _SEED_8  # h1 += h2
    h2 = h1 + _SEED_8  # h2 += h1
    return _mix_out(h1, h2, scratch)


def _mix_out(h1: np.ndarray, h2: np.ndarray, scratch: np.ndarray) -> Coupons:
    """MurmurHash3's last steps (both halves mixed, then added both ways), as coupons."""
    _fmix_into(h1, scratch)
    _fmix_into(h2, scratch)
    h1 += h2
    h2 += h1
    h1 &= _ADDR_MASK
    return Coupons(h1.astype(np.uint32), ranks(h2))


def _fmix_into(k: np.ndarray, scratch: np.ndarray) -> None:
    """:func:`_fmix` in place, its shifts into ``scratch``."""
    np.right_shift(k, _U64(33), out=scratch)
    k ^= scratch
    k *= _F1
    np.right_shift(k, _U64(33), out=scratch)
    k ^= scratch
    k *= _F2
    np.right_shift(k, _U64(33), out=scratch)
    k ^= scratch


def _in_blocks(n: int, block: Callable[[int, int], Coupons | None]) -> Coupons | None:
    """The coupons of ``n`` values, ``block(start, stop)`` hashing :data:`HASH_BLOCK` of
    them at a time; None as soon as a block is None."""
    if n <= HASH_BLOCK:
        return block(0, n)
    address = np.empty(n, np.uint32)
    rank = np.empty(n, np.uint8)
    for start in range(0, n, HASH_BLOCK):
        stop = min(n, start + HASH_BLOCK)
        part = block(start, stop)
        if part is None:
            return None
        address[start:stop] = part.address
        rank[start:stop] = part.rank
    return Coupons(address, rank)


def int_coupons(values: np.ndarray) -> Coupons:
    """Coupons of integers as the sketch hashes a Python int (its int64)."""
    words = values.astype(np.int64, copy=False).view(_U64)
    if _compiled is not None:
        return _compiled_words(words, floats=False)
    coupons = _in_blocks(words.size, lambda start, stop: _hash_words(words[start:stop]))
    assert coupons is not None
    return coupons


def float_coupons(values: np.ndarray) -> Coupons:
    """Coupons of finite or infinite floats as the sketch hashes a Python float."""
    if _compiled is not None:
        return _compiled_words(values.astype(np.float64, copy=False).view(_U64), floats=True)
    canonical = values.astype(np.float64, copy=True)
    canonical += 0.0  # -0.0 -> 0.0, as the sketch does
    words = canonical.view(_U64)
    coupons = _in_blocks(words.size, lambda start, stop: _hash_words(words[start:stop]))
    assert coupons is not None
    return coupons


def string_coupons(array: pa.Array, empty: str) -> Coupons | None:
    """Coupons of a string or large_string array without nulls, as the sketch hashes its
    UTF-8 text (an empty string as ``empty``, the stand-in the caller feeds for it); None
    when a string is longer than :data:`MAX_STRING_BLOCKS` blocks (the compiled hash takes
    strings of any length)."""
    if _compiled is not None:
        return _compiled_strings(array, empty)
    return _in_blocks(
        len(array), lambda start, stop: _string_block(array.slice(start, stop - start), empty)
    )


def _compiled_words(words: np.ndarray, *, floats: bool) -> Coupons:
    """The compiled hash of 8-byte keys (``floats``: -0.0 hashed as 0.0)."""
    assert _compiled is not None
    words = np.ascontiguousarray(words)
    coupons = Coupons(np.empty(words.size, np.uint32), np.empty(words.size, np.uint8))
    _compiled.words(words, floats, coupons.address, coupons.rank)
    return coupons


def _compiled_strings(array: pa.Array, empty: str) -> Coupons:
    """The compiled hash of a string or large_string array's UTF-8 text."""
    import pyarrow as pa

    assert _compiled is not None
    n = len(array)
    coupons = Coupons(np.empty(n, np.uint32), np.empty(n, np.uint8))
    if n == 0:
        return coupons
    _, offsets_buf, data_buf = array.buffers()[:3]
    wide = pa.types.is_large_string(array.type)
    offsets = np.frombuffer(offsets_buf, np.int64 if wide else np.int32)
    offsets = np.ascontiguousarray(offsets[array.offset : array.offset + n + 1])
    text = data_buf if data_buf is not None else b""
    _compiled.strings(offsets, wide, text, empty.encode(), coupons.address, coupons.rank)
    return coupons


def _string_block(array: pa.Array, empty: str) -> Coupons | None:
    """:func:`string_coupons` of one block."""
    import pyarrow as pa

    n = len(array)
    _, offsets_buf, data_buf = array.buffers()[:3]
    wide = pa.types.is_large_string(array.type)
    offsets = np.frombuffer(offsets_buf, np.int64 if wide else np.int32)
    offsets = offsets[array.offset : array.offset + n + 1].astype(np.int64)
    starts: np.ndarray = offsets[:-1]
    lengths: np.ndarray = np.diff(offsets)
    blocks: np.ndarray = lengths >> 4
    most = int(blocks.max()) if n else 0
    if most > MAX_STRING_BLOCKS:
        return None
    # the array's text bytes as aligned little-endian words, zero-padded past the end (a
    # slice's offsets start where the slice's text does)
    first = int(offsets[0]) if n else 0
    size = int(offsets[-1]) - first if n else 0
    words = np.empty(size // 8 + 3, _U64)
    words[-3:] = 0
    if size:
        words.view(np.uint8)[:size] = np.frombuffer(data_buf, np.uint8, size, first)
    # the word starting at each byte: a view with a stride of one byte (unaligned reads)
    word_at = np.ndarray((size + 9,), _U64, words, 0, (1,))
    starts = starts - first
    h1 = np.full(n, _SEED)
    h2 = np.full(n, _SEED)
    every = int(blocks.min()) if n else 0  # blocks every string has
    for j in range(most):
        rows = slice(None) if j < every else np.nonzero(blocks > j)[0]
        at = starts[rows] + 16 * j
        a, b = h1[rows], h2[rows]
        a ^= _mix_k1(word_at[at])
        a = _rotl(a, 27)
        a += b
        a = a * _U64(5) + _U64(0x52DCE729)
        b ^= _mix_k2(word_at[at + 8])
        b = _rotl(b, 31)
        b += a
        b = b * _U64(5) + _U64(0x38495AB5)
        h1[rows], h2[rows] = a, b
    # the tail, zero-padded: a zero word mixes to zero and leaves h1/h2 as they are
    tail = lengths & 15
    at = starts + (blocks << 4)
    h2 ^= _mix_k2(word_at[at + 8] & _BYTE_MASKS[np.clip(tail - 8, 0, 8)])
    h1 ^= _mix_k1(word_at[at] & _BYTE_MASKS[np.minimum(tail, 8)])
    coupons = _finish(h1, h2, lengths)
    if n and lengths.min() == 0:
        stand_in = _string_block(pa.array([empty], pa.string()), empty)
        assert stand_in is not None
        none = lengths == 0
        coupons.address[none], coupons.rank[none] = stand_in.address[0], stand_in.rank[0]
    return coupons


_BYTE_MASKS = np.array([(1 << (8 * i)) - 1 for i in range(9)], dtype=_U64)
"""The low 0..8 bytes of a word."""


# -- which values change the sketch ---------------------------------------------------------
_HLL_MODE = 2
_PREAMBLE = 40
_WARM_UP_WINDOW = 1024
"""Values looked at in the first step while the sketch is in list or set mode (it turns to
HLL mode after a few hundred coupons at lg_k 12)."""


def _registers(hll: ds.hll_sketch) -> np.ndarray | None:
    """The HLL_8 registers of a sketch in HLL mode (its updatable image: a 40-byte preamble,
    then one byte per register); None in list or set mode, or in another layout."""
    image = hll.serialize_updatable()
    k = 1 << hll.lg_config_k
    if image[7] & 3 != _HLL_MODE or hll.tgt_type != ds.tgt_hll_type.HLL_8:
        return None
    if len(image) < _PREAMBLE + k:
        return None
    return np.frombuffer(image, np.uint8, k, _PREAMBLE)


def changing_positions(registers: np.ndarray, coupons: Coupons) -> np.ndarray:
    """Positions, ascending, of the values that raise their register in HLL mode: above the
    register's current rank and above every earlier value of the same register."""
    register = (coupons.address & np.uint32(registers.size - 1)).astype(np.intp)
    rank = coupons.rank
    above = np.flatnonzero(rank > registers[register])
    if above.size <= 1:
        return above
    reg = register[above]
    order = np.argsort(reg.astype(np.uint16), kind="stable")  # by register, then position
    key = reg[order] * 64 + rank[above][order]
    running = np.maximum.accumulate(key)
    record = np.empty(key.size, dtype=bool)
    record[0] = True
    np.greater(key[1:], running[:-1], out=record[1:])
    return np.sort(above[order[record]])


def feed_changing(
    hll: ds.hll_sketch, coupons: Coupons, pick: Callable[[np.ndarray], list[Any]]
) -> None:
    """Feed ``hll`` the values (``pick(positions)`` gives them as Python values, in order)
    that can change it, leaving it as feeding every value in order would."""
    start = 0
    n = coupons.rank.size
    window = _WARM_UP_WINDOW
    while start < n:
        registers = _registers(hll)
        if registers is not None:
            at = changing_positions(registers, coupons.tail(start)) + start
            deque(map(hll.update, pick(at)), maxlen=0)
            return
        # list or set mode: every new coupon counts; feed a window's first occurrences, in
        # windows that double (a column of few distinct values may stay in these modes)
        end = min(n, start + window)
        part = Coupons(coupons.address[start:end], coupons.rank[start:end])
        _, first = np.unique(part.coupon(), return_index=True)
        deque(map(hll.update, pick(np.sort(first) + start)), maxlen=0)
        start, window = end, 2 * window
