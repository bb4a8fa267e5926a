"""A field's posting lists written straight into a Whoosh 3 segment's files: the same bytes, less Python.

Whoosh writes each term through five objects: the field writer starts it, the postings writer buffers it and
writes each block (with a fresh block buffer, a `TermInfo.add_block`, three "minify" calls and three file
writes), the term info packs itself, and the ordered hash file appends its record with four more writes.
That is ~60 Python calls a term, and a term is mostly one short block: writing the 10k terms of a 1k-paper
update cost ~0.45 s, a quarter of the update, in calls rather than work. Here one function per term does
what those calls do, in the same order with the same values (pickled block data, zlib only at and above
Whoosh's `COMPRESSION_MIN_SIZE`, block info, term info, hash record), and each file gets one write per
megabyte. A test compares the segment files byte for byte with Whoosh's own writer.
"""

from __future__ import annotations

import zlib
from array import array
from collections.abc import Callable, Sequence
from operator import sub
from pickle import dumps
from typing import Any

from whoosh.codec import whoosh3
from whoosh.filedb import filetables
from whoosh.system import pack_int, pack_long, pack_ushort
from whoosh.util.numeric import length_to_byte

_HEADER = whoosh3.WHOOSH3_HEADER_MAGIC
_TERMINFO = whoosh3.W3TermInfo._struct.pack
_RECORD = filetables._lengths.pack
"""The (key length, value length) header of a hash file record."""
_FLUSH = 1 << 20


def supported(fieldwriter: Any) -> bool:
    """Whether `fieldwriter` is exactly what `TermWriter` reproduces: Whoosh 3's field writer over an
    ordered hash term file, with number ids and no inlined postings (the default W3 codec)."""
    return (
        type(fieldwriter) is whoosh3.W3FieldWriter
        and type(fieldwriter._tindex) is filetables.OrderedHashWriter
        and type(fieldwriter._codec) is whoosh3.W3Codec
        and fieldwriter._codec._inlinelimit <= 1
    )


class TermWriter:
    """One field's terms, in order, after `start_field`; `close` before `finish_field`.

    Args:
        fieldwriter: a W3 field writer (see `supported`) whose field has just been started.
        length_of: each document's length in this field (None or 0: unknown), for the blocks' length bounds;
            None when the codec keeps no length statistics.
    """

    def __init__(self, fieldwriter: Any, length_of: Callable[[int], int | None] | None) -> None:
        postwriter = fieldwriter._postwriter
        self._limit: int = postwriter._blocklimit
        self._compression: int = postwriter._compression
        self._fixed: int | None = fieldwriter._format.fixed_value_size()
        self._length_of = length_of
        self._postfile = fieldwriter._postfile
        self._tindex = fieldwriter._tindex
        self._prefix = pack_ushort(fieldwriter._fieldid)
        self._postpos: int = self._postfile.tell()
        self._trmpos: int = self._tindex.dbfile.tell()
        self._posts: list[bytes] = []
        self._records: list[bytes] = []
        self._pending = 0

    def add(
        self, btext: bytes, docnums: Sequence[int], weights: Sequence[float], values: Sequence[Any]
    ) -> None:
        """One term's postings (document numbers ascending), as `start_term`, an `add_posting` for each and
        `finish_term` would write them."""
        limit, count = self._limit, len(docnums)
        length_of, fixed = self._length_of, self._fixed
        out = self._posts
        start = pos = self._postpos
        out.append(_HEADER)
        pos += 4
        total: float = 0
        min_length: int | None = None
        max_length = 0
        max_weight: float = 0
        for first in range(0, count, limit):
            if count > limit:
                ids, raw, vals = (
                    docnums[first : first + limit],
                    weights[first : first + limit],
                    values[first : first + limit],
                )
            else:
                ids, raw, vals = docnums, weights, values
            stored = array("f", raw)
            total += sum(stored)
            # The block's statistics as `add_posting` keeps them, then the term's as `add_block` folds them.
            top = max(raw)
            block_weight = top if top > 0 else 0
            low: int | None = None
            high = 0
            if length_of is not None:
                known = [length for length in map(length_of, ids) if length]
                if known:
                    low, high = min(known), max(known)
            # (A block without lengths after one with them fails here as it does in `add_block`.)
            min_length = low if min_length is None else min(min_length, low)  # type: ignore[type-var]
            max_length = max(max_length, high)
            max_weight = max(max_weight, block_weight)
            data = dumps((_deltas(ids), _mini_weights(stored), _mini_values(vals, fixed)), 2)
            comp = self._compression if len(data) >= whoosh3.COMPRESSION_MIN_SIZE else 0
            if comp:
                data = zlib.compress(data, comp)
            last = ids[-1]
            info = dumps((len(ids), last, block_weight, comp, length_to_byte(low), length_to_byte(high)), 2)
            size = len(info) + len(data)
            out.append(pack_int(-size if first + limit >= count else size))
            out.append(info)
            out.append(data)
            pos += 4 + size
        self._postpos = pos
        terminfo = _TERMINFO(
            0,
            total,
            count,
            0 if min_length is None else length_to_byte(min_length),
            length_to_byte(max_length),
            max_weight,
            docnums[0],
            docnums[-1],
        )
        value = terminfo + pack_long(start) + pack_int(pos - start)
        self._record(self._prefix + btext, value)
        self._pending += pos - start
        if self._pending >= _FLUSH:
            self.flush()

    def _record(self, key: bytes, value: bytes) -> None:
        """`OrderedHashWriter.add`, its write kept for `flush`."""
        tindex = self._tindex
        if key <= tindex.lastkey:
            raise ValueError(f"Keys must increase: {tindex.lastkey!r}..{key!r}")
        at = self._trmpos
        tindex.index.append(at)
        record = _RECORD(len(key), len(value)) + key + value
        self._records.append(record)
        self._trmpos = at + len(record)
        h = tindex.hashfn(key)
        tindex.buckets[h & 255].append((h, at))
        tindex.lastkey = key

    def flush(self) -> None:
        """Write what is buffered (one write per file)."""
        if self._posts:
            self._postfile.write(b"".join(self._posts))
            self._posts.clear()
        if self._records:
            self._tindex.dbfile.write(b"".join(self._records))
            self._records.clear()
        self._pending = 0

    def close(self) -> None:
        self.flush()


def _deltas(ids: Sequence[int]) -> tuple[int, ...]:
    """`W3PostingsWriter._mini_ids`: each id minus the one before it."""
    if len(ids) == 1:
        return (ids[0],)
    return tuple(map(sub, ids, (0, *ids[:-1])))


def _mini_weights(stored: array[float]) -> Any:
    """`W3PostingsWriter._mini_weights` of the block's float32 weights: None if all 1.0, the one value if
    all equal, else all of them."""
    first = stored[0]
    if stored.count(first) == len(stored):
        return None if first == 1.0 else first
    return tuple(stored)


def _mini_values(values: Sequence[Any], fixed: int | None) -> Any:
    """`W3PostingsWriter._mini_values` (only non-empty values were ever buffered)."""
    if fixed is None or fixed < 0:
        return tuple([value for value in values if value])
    if fixed == 0:
        return None
    return b"".join([value for value in values if value])
