"""An update after a few listing files were added, changed or removed: the stored snapshot spliced.

Re-reading, re-merging and re-hashing every listing and re-encoding the whole snapshot would be half of a
3.4 s update (bench_build.py) that adds a 1k-paper listing to 56k papers. Here only the files that moved
are read; every other file's entries, with their paper ids, come from the stored snapshot, and only the papers
a moved file touches (its papers now, and the papers of what it held before) are merged again
(`merge_keyed`), hashed and given headlines (`carry_headlines`). Every other paper is exactly the stored one:
all its entries are in files that did not move, in the same order, so merging would make it again. Its record
is copied as stored bytes.

Which files did not move: the same path with the size and mtime_ns the manifest recorded (the test make and
rsync trust; `staleness` uses the same one, so a file rewritten with its size and mtime put back is not seen
by either: `papers index --rebuild` re-reads everything), and a stored listing that had no notices (a file
with warnings is re-read, so its warnings are spelled as this run names it). A touched file is re-read even
when its digest did not change. Anything unexpected (a damaged snapshot, listings stored in another order,
a hash missing) answers None and the caller takes the full path, which is always right.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path
from typing import Any, TypeVar

from index.listings.catalog import distinct_headlines, no_headline
from index.listings.identity import merge_keyed, paper_id
from index.listings.reader import expand_paths, read_listing
from index.models import Catalog, Entry, Listing, Notice, Paper, Source
from index.search.carry import carry_headlines
from index.search.layout import FileStamp
from index.search.snapshot import Snapshot
from index.search.snapshot_encode import Chunk, encode_entry, encode_record, encode_spliced

_T = TypeVar("_T")


@dataclass(slots=True)
class Spliced:
    """What one incremental update writes: the Whoosh changes, the snapshot's pieces and the new hashes.

    The full path's update (a whole catalog re-read) fills one too, with no `parts` or `files`: it writes the
    snapshot from its catalog and its stamps from the catalog's files.
    """

    changed: list[Paper]
    """Papers whose document is new or differs from the indexed one."""
    new_ids: set[str]
    removed: list[str]
    plains: dict[str, str]
    """Rendered abstracts made for new headlines, so the indexer does not render them again."""
    hashes: dict[str, bytes]
    parts: list[Chunk]
    files: tuple[str, ...]
    papers: int


@dataclass(slots=True)
class _Part:
    """One listing file of the new catalog: stored (`row`, the raw listings item) or read now (`listing`)."""

    ids: list[str]
    row: Any = None
    listing: Listing | None = None


def splice(
    stored: Snapshot,
    recorded: Sequence[FileStamp],
    listing_paths: Sequence[Path],
    hashes: Mapping[str, bytes],
) -> Spliced | None:
    """The update that brings `stored` (with its manifest's `recorded` stamps and content `hashes`) up to the
    listing files `listing_paths` names now; None when it cannot be done by splicing.

    Raises:
        SnapshotDamaged: a stored record or listing could not be decoded.
    """
    files, path_notices = expand_paths(listing_paths)
    raw = stored.raw_listings()
    by_path = {row[0]: row for row in raw}
    stamps = {stamp.path: stamp for stamp in recorded}
    old_ids = stored.ids
    parts: list[_Part] = []
    notices: list[Notice] = list(path_notices)
    kept: list[str] = []
    for path in files:
        absolute = os.path.abspath(path)
        row = by_path.get(absolute)
        if row is not None and not row[6] and _unmoved(absolute, stamps.get(absolute)):
            parts.append(_Part(_entry_ids(row[5], old_ids), row=row))
            kept.append(absolute)
            continue
        listing, found = read_listing(path)
        notices.extend(found)
        if listing is not None:
            parts.append(_Part([paper_id(entry.abstract) for entry in listing.entries], listing=listing))
    kept_set = set(kept)
    if [row[0] for row in raw if row[0] in kept_set] != kept:
        return None  # stored in another order than files are read now: merging would differ
    affected: set[str] = set()
    for part in parts:
        if part.listing is not None:
            affected.update(part.ids)
    for row in raw:
        if row[0] not in kept_set:
            affected.update(_entry_ids(row[5], old_ids))
    return _assemble(stored, parts, affected, notices, hashes, tuple(str(path) for path in files))


def _unmoved(path: str, recorded: FileStamp | None) -> bool:
    try:
        info = os.stat(path)
    except OSError:
        return False
    return recorded is not None and (info.st_size, info.st_mtime_ns) == (recorded.size, recorded.mtime_ns)


def _entry_ids(items: list[Any], ids: Sequence[str]) -> list[str]:
    """The paper ids of a stored listing's entries (nearly always all paper numbers: one C call)."""
    try:
        return _pick(ids, items)
    except TypeError:  # some entry is a tuple
        return [_entry_id(item, ids) for item in items]


def _entry_id(item: Any, ids: Sequence[str]) -> str:
    """The paper id of a stored entry: its paper's, or its abstract's when stored whole."""
    if isinstance(item, int):
        return ids[item]
    key: str = ids[item[0]] if len(item) == 2 else paper_id(item[0])
    return key


def _pick(values: Sequence[_T], at: Sequence[int]) -> list[_T]:
    """`[values[i] for i in at]` at C speed (the splice picks 56k of each column this way)."""
    if len(at) > 1:
        return list(itemgetter(*at)(values))
    return [values[at[0]]] if at else []


def _assemble(
    stored: Snapshot,
    parts: list[_Part],
    affected: set[str],
    notices: list[Notice],
    old_hashes: Mapping[str, bytes],
    files: tuple[str, ...],
) -> Spliced | None:
    """Merge the affected papers again and lay out the new snapshot around the stored records."""
    old_count = len(stored.ids)
    old_at = dict(zip(stored.ids, range(old_count), strict=True))
    order = list(dict.fromkeys(itertools.chain.from_iterable(part.ids for part in parts)))
    number = dict(zip(order, range(len(order)), strict=True))
    # The affected papers' entries in listing order, stored ones decoded (and kept to be encoded again).
    decoded: dict[tuple[int, int], Entry] = {}
    keyed: list[tuple[str, Entry]] = []
    for at, part in enumerate(parts):
        if part.listing is not None:
            keyed.extend(zip(part.ids, part.listing.entries, strict=True))
            continue
        for k, key in enumerate(part.ids):
            if key in affected:
                entry = decoded[(at, k)] = stored.raw_entry(part.row[5][k])
                keyed.append((key, entry))
    previous = {key: stored.made[old_at[key]] for key in affected if key in old_at}
    merged = merge_keyed(keyed, no_headline, previous)
    catalog, fresh_hashes, plains = carry_headlines(Catalog((), merged), previous, old_hashes)
    fresh = catalog.papers
    papers = {paper.id: paper for paper in fresh}
    removed = [key for key in old_hashes if key not in number]
    hashes = dict(old_hashes)
    hashes.update(fresh_hashes)
    for key in removed:
        del hashes[key]
    if len(hashes) != len(order):
        return None  # an unchanged paper without a stored hash: the full path re-hashes everything
    changed = [paper for paper in fresh if old_hashes.get(paper.id) != fresh_hashes[paper.id]]

    wheres = list(stored.wheres)
    where_at = {where: at for at, where in enumerate(wheres)}

    def source_row(source: Source) -> tuple[int, int, int]:
        key = (source.path, source.listing)
        ref = where_at.get(key)
        if ref is None:
            ref = where_at[key] = len(wheres)
            wheres.append(key)
        return (ref, source.paragraph, source.line)

    # Each column is the stored one with the fresh papers' values after it, picked in the new order.
    extra = {paper.id: old_count + n for n, paper in enumerate(fresh)}
    src = [extra[key] if key in extra else old_at[key] for key in order]
    fresh_records = [encode_record(paper, source_row) for paper in fresh]
    made = _pick([*stored.made, *(paper.headline for paper in fresh)], src)

    def paper_at(at: int) -> Paper:
        return fresh[src[at] - old_count] if src[at] >= old_count else stored.paper(src[at])

    columns = (
        order,
        made,
        _pick([*stored.venues, *(paper.venue for paper in fresh)], src),
        _pick([*stored.years, *(paper.year for paper in fresh)], src),
        _pick([*stored.statuses, *(paper.status for paper in fresh)], src),
        wheres,
        notices,
    )
    lengths = _pick([*stored.record_lengths(), *map(len, fresh_records)], src)
    listings = [_listing_row(at, part, papers, number, decoded, source_row) for at, part in enumerate(parts)]
    chunks = _chunks(stored, src, fresh_records)
    return Spliced(
        changed=changed,
        new_ids={paper.id for paper in changed if paper.id not in old_hashes},
        removed=removed,
        plains=plains,
        hashes=hashes,
        parts=list(
            encode_spliced(columns, lengths, chunks, listings, distinct_headlines(order, made, paper_at))
        ),
        files=files,
        papers=len(order),
    )


def _chunks(stored: Snapshot, src: list[int], fresh: list[bytes]) -> list[Chunk]:
    """The records in the new order: each run of consecutive stored ones as one slice of the old snapshot,
    each fresh one (`src` past the stored count) as encoded now."""
    old_count = len(stored.ids)
    chunks: list[Chunk] = []
    total = len(src)
    start = 0
    while start < total:
        first = src[start]
        if first >= old_count:
            chunks.append(fresh[first - old_count])
            start += 1
            continue
        stop = start + 1
        while stop < total and src[stop] == src[stop - 1] + 1 and src[stop] < old_count:
            stop += 1
        chunks.append(stored.records(first, first + stop - start))
        start = stop
    return chunks


def _listing_row(
    at: int,
    part: _Part,
    papers: Mapping[str, Paper],
    number: Mapping[str, int],
    decoded: Mapping[tuple[int, int], Entry],
    source_row: Any,
) -> tuple[Any, ...]:
    """One listing as the snapshot stores it: a stored one renumbered, affected entries encoded again."""
    if part.listing is not None:
        listing = part.listing
        entries = [
            encode_entry(entry, papers[key], number[key], source_row)
            for key, entry in zip(part.ids, listing.entries, strict=True)
        ]
        notices = [(n.path, n.message, n.line) for n in listing.notices]
        return (listing.path, listing.name, listing.venue, listing.year, listing.format, entries, notices)
    path, name, venue, year, fmt, items, notices = part.row
    if all(item.__class__ is int for item in items) and not any(key in papers for key in part.ids):
        return (path, name, venue, year, fmt, [number[key] for key in part.ids], notices)
    renumbered: list[Any] = []
    for k, (key, item) in enumerate(zip(part.ids, items, strict=True)):
        paper = papers.get(key)
        if paper is not None:
            renumbered.append(encode_entry(decoded[(at, k)], paper, number[key], source_row))
        elif isinstance(item, int):
            renumbered.append(number[key])
        elif len(item) == 2:
            renumbered.append((number[key], item[1]))
        else:
            renumbered.append(item)
    return (path, name, venue, year, fmt, renumbered, notices)
