"""Benchmark inputs for bench_search: the first N papers of a corpus, and a new 1k-paper listing to add.

Everything is written as seed-format listing files in a temporary directory, so every engine (and the
project's own catalog loader) reads exactly the same papers the way a user's listings would be read.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from index.listings.identity import paper_id
from index.listings.reader import expand_paths, read_listing


@dataclass(frozen=True, slots=True)
class Added:
    """The listing file that the incremental-update measurement adds, and where its abstracts came from."""

    path: Path
    count: int
    origin: str


def corpus_files(corpus: Path) -> list[Path]:
    """The listing files under `corpus` (a file or a directory), in the order the project reads them."""
    files, notices = expand_paths([corpus])
    if not files:
        reason = "; ".join(str(notice) for notice in notices) or f"{corpus}: no listing files"
        raise SystemExit(f"bench_search: {reason}")
    return files


def write_listing(path: Path, header: str, abstracts: Sequence[str]) -> None:
    """One seed-format file: header line, blank line, one single-line paragraph per abstract."""
    paragraphs = [" ".join(abstract.split()) for abstract in abstracts]
    path.write_text(header + "\n\n" + "\n\n".join(paragraphs) + "\n", encoding="utf-8")


def write_subset(files: Sequence[Path], papers: int, out_dir: Path) -> tuple[list[Path], int, bool]:
    """Copy the first `papers` distinct papers of `files` (listing order) into seed-format files in `out_dir`.

    Returns:
        The files written, how many distinct papers they hold, and whether the corpus had more than that
        (when it did not, the subset is the whole corpus and need not be benched twice).
    """
    seen: set[str] = set()
    written: list[Path] = []
    truncated = False
    for number, path in enumerate(files):
        listing, _ = read_listing(path)
        if listing is None:
            continue
        abstracts: list[str] = []
        for entry in listing.entries:
            key = paper_id(entry.abstract)
            if key not in seen and len(seen) >= papers:
                truncated = True
                break
            seen.add(key)
            abstracts.append(entry.abstract)
        if abstracts:
            # The number prefix keeps the copies in the original order whatever their names sort to.
            target = out_dir / f"{number:04d}_{path.stem}.txt"
            write_listing(target, listing.name, abstracts)
            written.append(target)
        if truncated:
            break
    return written, len(seen), truncated


def _jsonl_abstracts(jsonl_dir: Path) -> Iterator[tuple[str, str]]:
    """(abstract, venue) for every record of the JSONL corpus, file by file; unreadable lines are skipped."""
    for path in sorted(jsonl_dir.glob("*.jsonl")):
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                abstract = record.get("abstract") if isinstance(record, dict) else None
                if isinstance(abstract, str) and abstract.strip():
                    yield abstract, str(record.get("venue") or path.stem)


def _spliced(abstracts: Sequence[str]) -> Iterator[str]:
    """New abstracts of real length and vocabulary: half of one indexed abstract + half of another.

    Only used when the JSONL corpus has no paper left that is not already indexed (the full-corpus run).
    """
    for offset in range(1, len(abstracts)):
        for number in range(len(abstracts)):
            first = abstracts[number].split()
            second = abstracts[(number + offset) % len(abstracts)].split()
            yield " ".join(first[: len(first) // 2] + second[len(second) // 2 :])


def write_added(
    out_dir: Path, indexed: set[str], count: int, jsonl_dir: Path | None, indexed_abstracts: Sequence[str]
) -> Added:
    """A listing of `count` papers that are not in `indexed` (a set of paper ids), for the +1k update.

    Real abstracts from the JSONL corpus come first; if it has too few unseen ones, the rest are spliced.
    """
    chosen: list[str] = []
    taken = set(indexed)
    venues: dict[str, int] = {}
    if jsonl_dir is not None and jsonl_dir.is_dir():
        for abstract, venue in _jsonl_abstracts(jsonl_dir):
            key = paper_id(abstract)
            if key in taken:
                continue
            taken.add(key)
            chosen.append(abstract)
            venues[venue] = venues.get(venue, 0) + 1
            if len(chosen) >= count:
                break
    real = len(chosen)
    if len(chosen) < count:
        for abstract in _spliced(indexed_abstracts):
            key = paper_id(abstract)
            if key in taken:
                continue
            taken.add(key)
            chosen.append(abstract)
            if len(chosen) >= count:
                break
    parts = (
        [f"{real} unseen JSONL papers ({', '.join(f'{v} {n}' for v, n in venues.items())})"] if real else []
    )
    if len(chosen) > real:
        parts.append(f"{len(chosen) - real} spliced from indexed abstracts (no unseen real papers left)")
    path = out_dir / "zz_bench_added.txt"
    write_listing(path, "Bench Additions 2099 Papers", chosen)
    return Added(path=path, count=len(chosen), origin="; ".join(parts) or "none")
