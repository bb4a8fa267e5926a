"""`papers star/unstar/read/unread/starred/export/import` driven as a user would, through the real CLI."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from index.listings.catalog import load_catalog
from index.state.db import DB_NAME
from tests.conftest import SEEDS, run_papers, without_progress

CATALOG = load_catalog([SEEDS])
FIRST, SECOND, THIRD = CATALOG.papers[0], CATALOG.papers[1], CATALOG.papers[2]


def _ok(*args: str, env: dict[str, str] | None = None) -> str:
    result = run_papers(*args, env=env)
    assert result.returncode == 0, result.stderr
    assert without_progress(result.stderr) == "", result.stderr
    return result.stdout


def _one_line_error(*args: str, env: dict[str, str] | None = None, code: int = 1) -> str:
    result = run_papers(*args, env=env)
    assert result.returncode == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def _starred_ids(*args: str) -> list[str]:
    return [row["id"] for row in json.loads(_ok("starred", "--json", *args))]


def test_star_then_starred_shows_it_newest_first_and_unstar_removes_it(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "data")]
    out = _ok("star", FIRST.id, *data)
    assert out.startswith(f"starred  {FIRST.id}  ")
    _ok("star", SECOND.id[:8], *data)  # a unique prefix, as `papers show` accepts
    rows = json.loads(_ok("starred", "--json", *data))
    assert [row["id"] for row in rows] == [SECOND.id, FIRST.id]
    assert rows[1]["headline"] == FIRST.headline and rows[1]["venue"] == FIRST.venue
    text = _ok("starred", *data).splitlines()
    assert [line.split()[0] for line in text] == [SECOND.id, FIRST.id]
    assert FIRST.headline in text[1]
    assert "(already)" in _ok("star", FIRST.id, *data)
    _ok("unstar", SECOND.id, *data)
    assert _starred_ids(*data) == [FIRST.id]


def test_unknown_id_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "data")]
    line = _one_line_error("star", FIRST.id, "000000000000", *data)
    assert line.startswith("papers: ") and "000000000000" in line and "unknown" in line
    assert _starred_ids(*data) == []  # the valid id was not starred either
    assert "zzz" in _one_line_error("read", "zzz", *data)


def test_read_marks_and_their_export(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "data")]
    _ok("read", FIRST.id, SECOND.id, *data)
    _ok("unread", SECOND.id, *data)
    exported = json.loads(_ok("export", "--read", *data))
    assert [paper["id"] for paper in exported["papers"]] == [FIRST.id]
    everything = {paper["id"]: paper for paper in json.loads(_ok("export", *data))["papers"]}
    # The unread is exported as a tombstone with its time, so it propagates on import.
    assert everything[SECOND.id]["read"] is False and everything[SECOND.id]["read_at"] is not None


def test_export_formats(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "data")]
    _ok("star", FIRST.id, SECOND.id, *data)
    _ok("unstar", SECOND.id, *data)
    _ok("read", THIRD.id, *data)

    document = json.loads(_ok("export", "--format", "json", *data))
    assert document["format"] == "papers-state" and document["version"] == 2
    assert isinstance(document["exported_at"], float)
    papers = {paper["id"]: paper for paper in document["papers"]}
    assert set(papers) == {FIRST.id, SECOND.id, THIRD.id}
    assert papers[FIRST.id]["starred"] is True and papers[FIRST.id]["headline"] == FIRST.headline
    assert papers[FIRST.id]["venue"] == FIRST.venue
    assert papers[SECOND.id]["starred"] is False and papers[SECOND.id]["starred_at"] is not None
    assert [paper["id"] for paper in json.loads(_ok("export", "--starred", *data))["papers"]] == [FIRST.id]

    markdown = _ok("export", "--format", "markdown", *data)
    assert markdown.startswith("# Starred papers (1, exported ")
    assert f"`{FIRST.id}`" in markdown and SECOND.id not in markdown
    item = next(line for line in markdown.splitlines() if FIRST.id in line)
    assert item.startswith("- **") and (FIRST.venue or "") in item
    sentence = markdown.splitlines()[markdown.splitlines().index(item) + 1]
    assert sentence.startswith("  ") and len(sentence.strip()) > 20

    rows = list(csv.DictReader(io.StringIO(_ok("export", "--format", "csv", *data))))
    assert {row["id"]: (row["starred"], row["read"]) for row in rows} == {
        FIRST.id: ("1", "0"),
        SECOND.id: ("0", "0"),
        THIRD.id: ("0", "1"),
    }
    assert rows[0]["starred_at"] == "" or rows[0]["starred_at"].endswith("Z")


def test_import_moves_state_between_machines_newest_wins(tmp_path: Path) -> None:
    laptop, server = ["--data-dir", str(tmp_path / "laptop")], ["--data-dir", str(tmp_path / "server")]
    _ok("star", FIRST.id, SECOND.id, *laptop)
    _ok("read", THIRD.id, *laptop)
    export = tmp_path / "laptop.json"
    export.write_text(_ok("export", *laptop))

    assert "3 changed" in _ok("import", str(export), *server)
    assert sorted(_starred_ids(*server)) == sorted([FIRST.id, SECOND.id])
    assert "0 changed" in _ok("import", str(export), *server)  # idempotent

    # Unstarring on the server later travels back to the laptop as a tombstone.
    _ok("unstar", FIRST.id, *server)
    back = tmp_path / "server.json"
    back.write_text(_ok("export", *server))
    _ok("import", str(back), *laptop)
    assert _starred_ids(*laptop) == [SECOND.id]
    # The laptop's own older export cannot undo that.
    _ok("import", str(export), *laptop)
    assert _starred_ids(*laptop) == [SECOND.id]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"{not json", "not valid JSON"),
        (b'{"format": "something-else"}', "not a papers export"),
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        (b'{"format": "papers-state", "version": 1, "papers": [{"id": "bad"}]}', "paper 1"),
        (None, "cannot read"),
    ],
)
def test_a_bad_import_file_is_one_line_naming_it_and_changes_nothing(
    tmp_path: Path, content: bytes | None, expected: str
) -> None:
    data = ["--data-dir", str(tmp_path / "data")]
    _ok("star", FIRST.id, *data)
    before = _ok("export", *data)
    bad = tmp_path / "bad export.json"
    if content is not None:
        bad.write_bytes(content)
    line = _one_line_error("import", str(bad), *data)
    assert str(bad) in line and expected in line
    assert json.loads(_ok("export", *data))["papers"] == json.loads(before)["papers"]


def test_two_users_through_xdg_data_home(tmp_path: Path) -> None:
    alice, bob = {"XDG_DATA_HOME": str(tmp_path / "alice")}, {"XDG_DATA_HOME": str(tmp_path / "bob")}
    _ok("star", FIRST.id, env=alice)
    assert json.loads(_ok("starred", "--json", env=bob)) == []
    assert [row["id"] for row in json.loads(_ok("starred", "--json", env=alice))] == [FIRST.id]
    data_dir = tmp_path / "alice" / "papers"
    assert data_dir.stat().st_mode & 0o777 == 0o700
    assert (data_dir / DB_NAME).stat().st_mode & 0o777 == 0o600


def test_a_corrupt_database_is_one_warning_then_works(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / DB_NAME).write_bytes(b"this is not sqlite at all" * 100)
    result = run_papers("starred", "--data-dir", str(data_dir))
    assert result.returncode == 0 and result.stdout == ""
    warning, empty = result.stderr.splitlines()  # the one warning, then the answer: nothing starred
    assert "moved aside" in warning and empty.startswith("papers: no starred papers yet")
    assert "Traceback" not in result.stderr
    _ok("star", FIRST.id, "--data-dir", str(data_dir))
    assert _starred_ids("--data-dir", str(data_dir)) == [FIRST.id]


def test_an_unwritable_data_dir_still_reads_but_refuses_changes_in_one_line(tmp_path: Path) -> None:
    # A regular file where the data dir's parent should be: the folder cannot be created, even by root.
    blocker = tmp_path / "home-is-a-file"
    blocker.write_text("")
    data = ["--data-dir", str(blocker / "papers")]
    line = _one_line_error("star", FIRST.id, *data)
    assert "cannot save stars or read marks" in line and str(blocker) in line
    result = run_papers("starred", *data)
    assert result.returncode == 0 and result.stdout == ""
    warning, empty = result.stderr.splitlines()
    assert "read-only" in warning and empty.startswith("papers: no starred papers yet")


def test_state_outlives_listing_changes(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "data")]
    _ok("star", FIRST.id, *data)
    # The same listings under another folder and file names: the star follows the paper, not the file.
    renamed = tmp_path / "renamed"
    renamed.mkdir()
    for index, path in enumerate(sorted(SEEDS.glob("*.txt"))):
        shutil.copy(path, renamed / f"listing-{index}.txt")
    rows = json.loads(_ok("starred", "--json", "--listings", str(renamed), *data))
    assert rows[0]["id"] == FIRST.id and rows[0]["headline"] == FIRST.headline
    # Listings without the paper: the star is kept and shown as not listed.
    other = tmp_path / "other.txt"
    other.write_text("Other venue 2025\n\nA different abstract about nothing in the seeds.\n")
    text = _ok("starred", "--listings", str(other), *data)
    assert FIRST.id in text and "not in the current listings" in text
    assert _starred_ids(*data) == [FIRST.id]


def test_star_then_search_is_starred_shows_exactly_that_paper(tmp_path: Path) -> None:
    env = {"PAPERS_DATA_DIR": str(tmp_path / "data"), "PAPERS_INDEX_DIR": str(tmp_path / "index")}
    _ok("star", SECOND.id, env=env)
    result = run_papers("search", "is:starred", "--json", env=env)
    assert result.returncode == 0, result.stderr
    hits = json.loads(result.stdout)
    assert [hit["id"] for hit in hits] == [SECOND.id]
    assert hits[0]["starred"] is True
