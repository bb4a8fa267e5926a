"""A spliced update must equal a full rebuild, and read only the listing files that moved."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from index.config import Config
from index.library import Library
from index.listings import reader
from index.listings.catalog import load_catalog, no_headline
from index.models import Paper
from index.search import build as whoosh_build
from index.search import layout, maintenance
from index.search import splice as splice_module
from index.search.answers import UpdateReport
from index.search.index import SearchIndex
from tests.conftest import REPO, SEEDS

QUERIES = ["learning", "model", "graph", "language", "diffusion", "robust", "data", "source:a", "venue:alpha"]


def _abstracts() -> list[str]:
    return [paper.abstract for paper in load_catalog([SEEDS], no_headline).papers]


def _write(path: Path, header: str, abstracts: list[str]) -> Path:
    path.write_text(f"{header}\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def listings(tmp_path: Path) -> Path:
    """Three listings; b repeats two of a's abstracts under another venue, c repeats one under a's."""
    seeds = _abstracts()
    folder = tmp_path / "listings"
    folder.mkdir()
    _write(folder / "a.txt", "Alpha 2024 Papers", seeds[0:12])
    _write(folder / "b.txt", "Beta 2025 Papers", [seeds[3], *seeds[12:20], seeds[5]])
    _write(folder / "c.txt", "Alpha 2024 Papers", [*seeds[20:28], seeds[7]])
    return folder


@pytest.fixture
def read_files(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The names of the listing files the spliced update read (the full path reads through another name)."""
    seen: list[str] = []
    original = reader.read_listing

    def counting(path: Path) -> object:
        seen.append(path.name)
        return original(path)

    monkeypatch.setattr(splice_module, "read_listing", counting)
    yield seen


def _update(listings: Path, index_dir: Path) -> UpdateReport:
    index = SearchIndex.open(index_dir)
    try:
        report = index.maintenance.ensure_current([listings])
    finally:
        index.maintenance.close()
    assert report is not None
    return report


def _assert_same_as_a_full_build(listings: Path, index_dir: Path, tmp_path: Path) -> None:
    """The spliced index holds what a fresh build of the same listings holds: catalog, hashes, answers."""
    fresh_dir = tmp_path / f"fresh-{len(list(tmp_path.glob('fresh-*')))}"
    assert _update(listings, fresh_dir).rebuilt
    spliced, fresh = SearchIndex.open(index_dir), SearchIndex.open(fresh_dir)
    try:
        assert spliced.maintenance.staleness([listings]) is None
        assert spliced.stored_catalog() == fresh.stored_catalog() == load_catalog([listings])
        assert _hashes(index_dir) == _hashes(fresh_dir)
        for query in QUERIES:
            assert sorted(spliced.search(query).ids) == sorted(fresh.search(query).ids), query
    finally:
        spliced.maintenance.close()
        fresh.maintenance.close()


def _hashes(index_dir: Path) -> dict[str, bytes]:
    build = layout.current_build(index_dir)
    assert build is not None
    manifest = layout.read_manifest(build, 10**9)
    assert manifest is not None
    return layout.read_hashes(build, manifest.generation)


def test_adding_changing_and_removing_files_equals_a_full_build(
    listings: Path, tmp_path: Path, read_files: list[str]
) -> None:
    index_dir = tmp_path / "ix"
    assert _update(listings, index_dir).rebuilt
    seeds = _abstracts()

    # Added in the middle of the sort order, repeating one of a's papers (its sources change) and one of b's.
    _write(listings / "ab.txt", "Gamma 2026 Papers", [*seeds[28:34], seeds[1], seeds[14]])
    report = _update(listings, index_dir)
    assert not report.rebuilt and (report.added, report.updated, report.removed) == (6, 2, 0)
    assert read_files == ["ab.txt"]
    _assert_same_as_a_full_build(listings, index_dir, tmp_path)

    # Changed: a paper dropped (still in b, so only its sources change), one dropped for good, one added.
    read_files.clear()
    _write(listings / "a.txt", "Alpha 2024 Papers", [*seeds[0:3], *seeds[4:11], seeds[34]])
    report = _update(listings, index_dir)
    assert not report.rebuilt and (report.added, report.removed) == (1, 1)
    assert read_files == ["a.txt"]
    _assert_same_as_a_full_build(listings, index_dir, tmp_path)

    # Removed: b's own papers go (7, and the one a dropped), those shared with a and ab lose a source.
    read_files.clear()
    (listings / "b.txt").unlink()
    report = _update(listings, index_dir)
    assert not report.rebuilt and (report.updated, report.removed) == (2, 8)
    assert read_files == []
    _assert_same_as_a_full_build(listings, index_dir, tmp_path)


def test_a_touched_file_is_read_again_and_a_listing_with_warnings_always_is(
    listings: Path, tmp_path: Path, read_files: list[str]
) -> None:
    index_dir = tmp_path / "ix"
    (listings / "empty.txt").write_text("Empty 2024 Papers\n", encoding="utf-8")  # a notice: "no papers"
    _update(listings, index_dir)
    os.utime(listings / "c.txt", ns=(1, 1))  # same bytes, another mtime
    text = (listings / "c.txt").read_text(encoding="utf-8")
    (listings / "d.txt").write_text(text.replace("Alpha", "Delta", 1), encoding="utf-8")
    report = _update(listings, index_dir)
    assert not report.rebuilt and report.added == 0 and report.updated == 9  # c's papers: d is a new source
    assert sorted(read_files) == ["c.txt", "d.txt", "empty.txt"]
    _assert_same_as_a_full_build(listings, index_dir, tmp_path)


def test_same_size_rewrites_are_seen_by_their_mtime(listings: Path, tmp_path: Path) -> None:
    """Size and mtime_ns decide what is unchanged, as for make and rsync: a rewrite of the same size is
    read again once its mtime moved; with its mtime put back it is not seen (nor by `staleness`), and
    `papers index --rebuild` is the way to re-read everything."""
    index_dir = tmp_path / "ix"
    _update(listings, index_dir)
    path = listings / "c.txt"
    before = path.stat()
    text = path.read_text(encoding="utf-8")
    swapped = text.replace("the", "teh", 1)
    assert swapped != text and len(swapped) == len(text)
    path.write_text(swapped, encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    index = SearchIndex.open(index_dir)
    assert index.maintenance.staleness([listings]) is None  # the documented blind spot
    index.maintenance.close()

    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 1))
    report = _update(listings, index_dir)
    assert not report.rebuilt and report.added == 1 and report.removed == 1
    _assert_same_as_a_full_build(listings, index_dir, tmp_path)


def test_the_full_path_is_taken_when_the_splice_does_not_apply(
    listings: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index_dir = tmp_path / "ix"
    _update(listings, index_dir)
    monkeypatch.setattr(maintenance, "splice", lambda *args: None)
    _write(listings / "z.txt", "Zeta 2026 Papers", _abstracts()[30:33])
    report = _update(listings, index_dir)
    assert not report.rebuilt and report.added == 3
    _assert_same_as_a_full_build(listings, index_dir, tmp_path)


def test_the_tricky_listings_splice_to_what_a_full_build_makes(tmp_path: Path, read_files: list[str]) -> None:
    """Encodings, JSON whose metadata fills gaps across copies, duplicates everywhere, files with warnings."""
    listings = tmp_path / "listings"
    shutil.copytree(REPO / "tests" / "data" / "listings", listings)
    index_dir = tmp_path / "ix"
    assert _update(listings, index_dir).rebuilt
    records = (listings / "records.jsonl").read_text(encoding="utf-8")
    (listings / "m-copy.jsonl").write_text(records.replace('"ICLR"', '"ICML"'), encoding="utf-8")
    (listings / "lf.txt").unlink()
    os.utime(listings / "crlf.txt", ns=(1, 1))
    report = _update(listings, index_dir)
    assert not report.rebuilt
    assert "m-copy.jsonl" in read_files and "crlf.txt" in read_files and "no_header.txt" not in read_files
    _assert_same_as_a_full_build(listings, index_dir, tmp_path)


def test_a_rebuild_reads_the_listings_without_making_headlines_first(
    listings: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`papers index --rebuild`: the build makes the headlines in its two processes; making them all while
    reading (tens of seconds at 56k) before the build starts would only be thrown away."""
    given: list[str] = []
    original = whoosh_build.build

    def recording(directory: Path, papers: Sequence[Paper], *args: Any, **kwargs: Any) -> list[str]:
        given.extend(paper.headline for paper in papers)
        return original(directory, papers, *args, **kwargs)

    monkeypatch.setattr(whoosh_build, "build", recording)
    library = Library([listings], tmp_path / "ix", tmp_path / "data", config=Config())
    try:
        report = library.update_index(rebuild=True)
        assert report is not None and report.rebuilt
        assert given and not any(given)
        snapshot = SearchIndex.open(library.set_index_dir).stored_catalog()
        assert snapshot == load_catalog([listings])  # with the headlines a parse makes
    finally:
        library.close()
