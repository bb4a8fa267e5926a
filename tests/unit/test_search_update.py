"""Keeping the index current: updates touch only changed papers; file changes are noticed cheaply."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

import index.headline
from index.search import layout, maintenance, snapshot_encode
from index.search.index import SearchIndex
from index.search.schema import SCHEMA_VERSION
from tests.unit.search_fixtures import PAPERS, make_catalog, merge_catalogs

A_ROWS = PAPERS[:4]
B_ROWS = PAPERS[3:6]  # shares diff-audio with A
C_ROWS = [
    (
        "vit",
        "Vision transformers at scale",
        "Patches of an image become tokens for a transformer encoder.",
        (),
        "ICLR",
        2021,
    )
]


def _listing(tmp_path: Path, name: str, rows: list[tuple[str, str, str, tuple[str, ...], str, int]]) -> Path:
    """A listing file on disk whose text changes with its rows, so the manifest's stamps see real edits."""
    path = tmp_path / f"{name}.txt"
    path.write_text(f"{name} 2026 Papers\n\n" + "\n\n".join(row[2] for row in rows) + "\n", encoding="utf-8")
    return path


def test_update_adds_changes_and_removes_only_what_moved(tmp_path: Path) -> None:
    a, b = _listing(tmp_path, "a", A_ROWS), _listing(tmp_path, "b", B_ROWS)
    first = merge_catalogs(make_catalog(A_ROWS, a, "A"), make_catalog(B_ROWS, b, "B"))
    index = SearchIndex.open(tmp_path / "ix")
    built = index.maintenance.update(first)  # first use: a full build
    assert built.rebuilt and built.added == 6

    # add listing C, change one paper of A, drop listing B (diff-audio stays: A still has it).
    changed_rows = [
        *A_ROWS[:1],
        ("mem", "Memorization revisited", "Verbatim recall of rare sequences.", (), "ICML", 2023),
    ]
    changed_rows += A_ROWS[2:]
    c = _listing(tmp_path, "c", C_ROWS)
    second = merge_catalogs(make_catalog(changed_rows, a, "A"), make_catalog(C_ROWS, c, "C"))
    report = index.maintenance.update(second)
    assert not report.rebuilt
    # diff-audio lost its B source, so its document (which records the listing name) changed too.
    assert (report.added, report.updated, report.removed) == (1, 2, 2)
    assert report.papers == 5

    assert list(index.search("transformer encoder").ids) == ["vit"]
    assert list(index.search("verbatim").ids) == ["mem"]
    assert list(index.search("memorization training").ids) == []  # the old abstract is gone
    assert list(index.search("influence").ids) == []  # gifs and act went with B
    assert list(index.search("source:b").ids) == []
    assert sorted(index.search("score-based").ids) == ["diff-audio"]
    assert index.stored_catalog() == second

    again = index.maintenance.update(second)
    assert (again.added, again.updated, again.removed, again.rebuilt) == (0, 0, 0, False)


def test_staleness_is_seen_by_stat_and_confirmed_by_content(tmp_path: Path) -> None:
    a = _listing(tmp_path, "a", A_ROWS)
    index = SearchIndex.open(tmp_path / "ix")
    assert index.maintenance.staleness([a]) == "no index yet"
    index.maintenance.update(make_catalog(A_ROWS, a, "A"))
    assert index.maintenance.staleness([a]) is None

    os.utime(a, ns=(1, 1))  # mtime moved, content did not: still current
    assert index.maintenance.staleness([a]) is None
    a.write_text(a.read_text(encoding="utf-8") + "\nA new abstract paragraph.\n", encoding="utf-8")
    assert "1 changed" in (index.maintenance.staleness([a]) or "")
    b = _listing(tmp_path, "b", B_ROWS)
    assert "1 added" in (index.maintenance.staleness([a, b]) or "")
    assert "1 removed" in (index.maintenance.staleness([b]) or "")
    # A directory means the listing files in it:
    assert "1 added" in (index.maintenance.staleness([tmp_path]) or "")


def test_schema_change_forces_a_full_build(tmp_path: Path) -> None:
    a = _listing(tmp_path, "a", A_ROWS)
    index = SearchIndex.open(tmp_path / "ix")
    index.maintenance.update(make_catalog(A_ROWS, a, "A"))
    build = layout.current_build(tmp_path / "ix")
    assert build is not None
    manifest = layout.read_manifest(build, 10**9)
    assert manifest is not None
    older = layout.Manifest(SCHEMA_VERSION - 1, manifest.generation, manifest.files, manifest.papers)
    layout.write_state(build, older, (build / f"snapshot-{manifest.generation}.bin").read_bytes(), {})
    reopened = SearchIndex.open(tmp_path / "ix")
    assert "format changed" in (reopened.maintenance.staleness([a]) or "")
    report = reopened.maintenance.update(make_catalog(A_ROWS, a, "A"))
    assert report.rebuilt and "format changed" in report.reason
    assert layout.current_build(tmp_path / "ix") != build


def test_new_headline_code_makes_an_index_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The index caches headlines: a bumped HEADLINE_VERSION changes SCHEMA_VERSION, so it is rebuilt."""
    listing = tmp_path / "a.txt"
    listing.write_text(
        "a 2026 Papers\n\n" + "\n\n".join(row[2] for row in PAPERS[:3]) + "\n", encoding="utf-8"
    )
    SearchIndex.open(tmp_path / "ix").maintenance.update(make_catalog(PAPERS[:3], listing, "A"))
    assert SearchIndex.open(tmp_path / "ix").maintenance.staleness([listing]) is None

    monkeypatch.setattr(index.headline, "HEADLINE_VERSION", index.headline.HEADLINE_VERSION + 1)
    spec = importlib.util.find_spec("index.search.schema")
    assert spec is not None and spec.loader is not None
    fresh = importlib.util.module_from_spec(spec)  # the schema module as newer headline code would load it
    spec.loader.exec_module(fresh)
    assert fresh.SCHEMA_VERSION != maintenance.SCHEMA_VERSION
    monkeypatch.setattr(maintenance, "SCHEMA_VERSION", fresh.SCHEMA_VERSION)
    assert "format changed" in (SearchIndex.open(tmp_path / "ix").maintenance.staleness([listing]) or "")


def test_an_interrupted_update_is_redone(tmp_path: Path) -> None:
    """Whoosh committed but the manifest was never written (killed in between): the next update catches up."""
    a = _listing(tmp_path, "a", A_ROWS)
    index = SearchIndex.open(tmp_path / "ix")
    index.maintenance.update(make_catalog(A_ROWS, a, "A"))
    build = layout.current_build(tmp_path / "ix")
    assert build is not None
    bigger = make_catalog(PAPERS[:6], a, "A")
    index.maintenance.update(bigger)
    newest = max(int(p.stem.split("-")[1]) for p in build.glob("manifest-*.bin"))
    (build / f"manifest-{newest}.bin").unlink()  # as if killed right after Whoosh's commit
    # ...and the old generation's state is what a kill at that moment leaves behind:
    reopened = SearchIndex.open(tmp_path / "ix")
    interrupted = ("an earlier update was interrupted", "the index has no manifest")
    assert reopened.maintenance.staleness([a]) in interrupted
    report = reopened.maintenance.update(bigger)
    assert report.papers == 6
    assert reopened.maintenance.staleness([a]) is None
    assert sorted(reopened.search("influence").ids) == ["act", "gifs"]


def test_previous_build_is_kept_and_older_ones_removed(tmp_path: Path) -> None:
    index = SearchIndex.open(tmp_path / "ix")
    for _ in range(3):
        index.maintenance.rebuild(make_catalog(A_ROWS))
    builds = sorted(p.name for p in (tmp_path / "ix").glob("build-*"))
    assert builds == ["build-2", "build-3"]
    assert os.readlink(tmp_path / "ix" / "current") == "build-3"


def test_an_empty_catalog_gives_an_empty_index_that_answers(tmp_path: Path) -> None:
    index = SearchIndex.open(tmp_path / "ix")
    index.maintenance.rebuild(make_catalog([]))
    assert index.search("diffusion").ids == ()
    assert index.search("").ids == ()


def test_a_snapshot_of_an_older_format_is_re_encoded_without_a_rebuild(tmp_path: Path) -> None:
    a = _listing(tmp_path, "a", A_ROWS)
    catalog = make_catalog(A_ROWS, a, "A")
    SearchIndex.open(tmp_path / "ix").maintenance.update(catalog)
    build = layout.current_build(tmp_path / "ix")
    manifest = layout.read_manifest(build, 10**9) if build else None
    assert build is not None and manifest is not None
    payload = snapshot_encode.encode(catalog)
    # The format number leads the header.
    older = (snapshot_encode.FORMAT - 1).to_bytes(8, "little") + payload[8:]
    layout.write_state(build, manifest, older, layout.read_hashes(build, manifest.generation))
    reopened = SearchIndex.open(tmp_path / "ix")
    assert "older format" in (reopened.maintenance.staleness([a]) or "")
    report = reopened.maintenance.update(catalog)
    assert not report.rebuilt and report.added == report.updated == report.removed == 0
    assert layout.current_build(tmp_path / "ix") == build
    fresh = SearchIndex.open(tmp_path / "ix")
    assert fresh.maintenance.staleness([a]) is None
    assert fresh.stored_catalog() == catalog


def test_a_skipped_binary_listing_does_not_leave_the_index_stale_forever(tmp_path: Path) -> None:
    """A binary file in a shared listings folder is skipped when read; the index must still count it as
    seen, or every start reports the index as older than the listings."""
    import shutil

    from tests.conftest import SEEDS

    listings = tmp_path / "listings"
    shutil.copytree(SEEDS, listings)
    (listings / "junk.txt").write_bytes(bytes(range(256)) * 64)
    index = SearchIndex.open(tmp_path / "index")
    try:
        report = index.maintenance.ensure_current([listings])
        assert report is not None and report.papers == 49
        assert index.maintenance.staleness([listings]) is None
        assert index.maintenance.ensure_current([listings]) is None
    finally:
        index.maintenance.close()
