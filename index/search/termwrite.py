"""A field's posting lists written straight into a Whoosh 3 segment's files: the same bytes, less Python.

Whoosh writes each term through five objects: the field writer starts it, the postings writer buffers it and
writes each block (with a fresh block buffer, a `TermInfo.add_block`, three "minify" calls and three file
writes), the term info packs itself, and the ordered hash file appends its record with four more writes.
That is ~60 Python calls a term, and a term is mostly one short block: for the 10k terms of a 1k-paper
update, ~0.45 s, a quarter of the update, goes to calls rather than work. Here one function per term does
what those calls do, in the same order with the same values (pickled block data, zlib only at and above
Whoosh's `COMPRESSION_MIN_SIZE`, block info, term info, hash record), and each file gets one write per
megabyte. The files and their parts are whoosh3's (whoosh_private.py); a test compares the segment files
byte for byte with Whoosh's own writer.
"""

from __future__ import annotations

import zlib
from array import array
from collections.abc import Callable, Sequence
from operator import sub
from pickle import dumps
from typing import Any

from index.search.whoosh_private import (
    COMPRESSION_MIN_SIZE,
    POSTINGS_HEADER,
    FieldFiles,
    add_term_record,
    length_to_byte,
    pack_int,
    pack_long,
    pack_term_info,
)

_FLUSH = 1 << 20


class TermWriter:
    """One field's terms, in order, after `start_field`; `close` before `finish_field`.

    Args:
        fieldwriter: a W3 field writer (`whoosh_private.is_w3_field_writer`) whose field is just started.
        length_of: each document's length in this field (None or 0: unknown), for the blocks' length bounds;
            None when the codec keeps no length statistics.
    """

    def __init__(self, fieldwriter: Any, length_of: Callable[[int], int | None] | None) -> None:
        files = FieldFiles(fieldwriter)
        self._limit = files.block_limit
        self._compression = files.compression
        self._fixed = files.fixed_value_size
        self._length_of = length_of
        self._postfile = files.postings
        self._tindex = files.terms
        self._termfile = files.terms_file
        self._prefix = files.key_prefix
        self._postpos: int = self._postfile.tell()
        self._trmpos: int = self._termfile.tell()
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
        out.append(POSTINGS_HEADER)
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
            comp = self._compression if len(data) >= COMPRESSION_MIN_SIZE else 0
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
        terminfo = pack_term_info(
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
        record = add_term_record(self._tindex, key, value, self._trmpos)
        self._records.append(record)
        self._trmpos += len(record)

    def flush(self) -> None:
        """Write what is buffered (one write per file)."""
        if self._posts:
            self._postfile.write(b"".join(self._posts))
            self._posts.clear()
        if self._records:
            self._termfile.write(b"".join(self._records))
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
