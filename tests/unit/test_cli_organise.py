"""`papers tag/untag/tags/note/saved` and tags/notes in export/import, driven through the real CLI."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from index.listings.catalog import load_catalog
from tests.conftest import SEEDS, run_papers, without_progress

CATALOG = load_catalog([SEEDS])
FIRST, SECOND, THIRD = CATALOG.papers[0], CATALOG.papers[1], CATALOG.papers[2]


def _env(tmp_path: Path) -> dict[str, str]:
    return {"PAPERS_DATA_DIR": str(tmp_path / "data"), "PAPERS_INDEX_DIR": str(tmp_path / "index")}


def _ok(*args: str, env: dict[str, str], input: str | None = None) -> str:
    result = run_papers(*args, env=env, input=input)
    assert result.returncode == 0, result.stderr
    assert without_progress(result.stderr) == "", result.stderr
    return result.stdout


def _nothing(*args: str, env: dict[str, str]) -> str:
    """An empty answer: nothing on stdout, one line on stderr saying so, exit 0."""
    result = run_papers(*args, env=env)
    assert (result.returncode, result.stdout) == (0, ""), result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith("papers: ")
    return line


def _one_line_error(*args: str, env: dict[str, str], code: int = 1) -> str:
    result = run_papers(*args, env=env)
    assert result.returncode == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_tag_untag_and_tags_with_counts(tmp_path: Path) -> None:
    env = _env(tmp_path)
    out = _ok("tag", FIRST.id, "Later", "ml", env=env)
    assert out == f"tagged  {FIRST.id}  {FIRST.headline}  [tags: later, ml]\n"
    _ok("tag", SECOND.id[:8], "later", env=env)  # a unique prefix, as `papers show` takes
    assert "(already)" in _ok("tag", FIRST.id, "LATER", env=env)
    assert _ok("tags", env=env) == "2  later\n1  ml\n"
    assert json.loads(_ok("tags", "--json", env=env)) == [
        {"name": "later", "count": 2},
        {"name": "ml", "count": 1},
    ]
    assert _ok("tags", FIRST.id, env=env) == "later\nml\n"
    out = _ok("untag", FIRST.id, "later", env=env)
    assert out.startswith(f"untagged  {FIRST.id}") and out.endswith("[tags: ml]\n")
    assert json.loads(_ok("tags", FIRST.id, "--json", env=env)) == ["ml"]
    assert json.loads(_ok("tags", THIRD.id, "--json", env=env)) == []


def test_bad_tag_names_and_ids_are_one_line_and_change_nothing(tmp_path: Path) -> None:
    env = _env(tmp_path)
    line = _one_line_error("tag", FIRST.id, "fine", "two words", env=env)
    assert line.startswith("papers: tag 'two words' contains whitespace")
    assert "starts with -" in _one_line_error("tag", FIRST.id, "--", "-x", env=env)
    assert "000000000000" in _one_line_error("tag", "000000000000", "fine", env=env)
    assert _nothing("tags", env=env) == "papers: no tags yet (papers tag ID NAME, or t in the reader)"
    assert run_papers("tag", FIRST.id, env=env).returncode == 2  # no NAME: a usage error


def test_note_show_set_clear_and_stdin(tmp_path: Path) -> None:
    env = _env(tmp_path)
    assert _nothing("note", FIRST.id, env=env) == f"papers: {FIRST.id} has no note"
    assert _ok("note", FIRST.id, "compare", "with", "table", "2", env=env).startswith(f"noted  {FIRST.id}")
    assert _ok("note", FIRST.id, env=env) == "compare with table 2\n"
    _ok("note", FIRST.id, "-", env=env, input="line one\nline two\n")
    assert _ok("note", FIRST.id, env=env) == "line one\nline two\n"
    assert _ok("note", FIRST.id, "--clear", env=env).startswith(f"note cleared  {FIRST.id}")
    assert _nothing("note", FIRST.id, env=env) == f"papers: {FIRST.id} has no note"
    assert "not both" in _one_line_error("note", FIRST.id, "text", "--clear", env=env)


def test_saved_searches_list_with_unread_counts(tmp_path: Path) -> None:
    env = _env(tmp_path)
    assert "no saved searches yet" in _nothing("saved", "list", env=env)
    assert json.loads(_ok("saved", "list", "--json", env=env)) == []
    assert _ok("saved", "add", "later, unread", "tag:later is:unread", env=env).startswith(
        "saved: later, unread"
    )
    assert _ok("saved", "add", "everything", "", env=env).startswith("saved: everything")
    _ok("tag", FIRST.id, "later", env=env)
    _ok("tag", SECOND.id, "later", env=env)
    _ok("read", SECOND.id, env=env)
    result = run_papers("saved", "list", "--json", env=env)
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert rows == [
        {"name": "everything", "query": "", "unread": len(CATALOG.papers) - 1},
        {"name": "later, unread", "query": "tag:later is:unread", "unread": 1},
    ]
    text = run_papers("saved", "list", env=env).stdout.splitlines()
    assert text[1].split() == ["later,", "unread", "1", "unread", "tag:later", "is:unread"]
    assert _ok("saved", "rm", "everything", env=env) == "deleted: everything\n"
    line = _one_line_error("saved", "rm", "everything", env=env)
    assert "no saved search named 'everything'" in line and "later, unread" in line
    assert "ACTION" in run_papers("saved", env=env).stderr  # a usage error, exit 2


def test_search_with_tag_and_note_filters(tmp_path: Path) -> None:
    env = _env(tmp_path)
    _ok("tag", FIRST.id, "later", env=env)
    _ok("tag", THIRD.id, "later", env=env)
    _ok("note", THIRD.id, "the Dataset is public", env=env)
    found = json.loads(run_papers("search", "tag:later", "--json", env=env).stdout)
    assert sorted(hit["id"] for hit in found) == sorted([FIRST.id, THIRD.id])
    found = json.loads(run_papers("search", "note:dataset tag:LATER", "--json", env=env).stdout)
    assert [hit["id"] for hit in found] == [THIRD.id]
    found = json.loads(run_papers("search", "tag:later -note:dataset", "--json", env=env).stdout)
    assert [hit["id"] for hit in found] == [FIRST.id]


def test_export_and_import_carry_tags_notes_and_saved_searches_newest_wins(tmp_path: Path) -> None:
    laptop, server = _env(tmp_path / "laptop"), _env(tmp_path / "server")
    _ok("tag", FIRST.id, "later", "ml", env=laptop)
    _ok("note", FIRST.id, "read §3", env=laptop)
    _ok("saved", "add", "later", "tag:later", env=laptop)
    export = tmp_path / "laptop.json"
    export.write_text(_ok("export", env=laptop))
    document = json.loads(export.read_text())
    paper = next(p for p in document["papers"] if p["id"] == FIRST.id)
    assert [(tag["name"], tag["tagged"]) for tag in paper["tags"]] == [("later", True), ("ml", True)]
    assert paper["note"]["text"] == "read §3" and isinstance(paper["note"]["at"], float)
    assert [s["name"] for s in document["saved_searches"]] == ["later"]

    out = _ok("import", str(export), env=server)
    assert "1 paper read, 1 changed; 1 saved searches read, 1 changed" in out
    assert _ok("tags", env=server) == "1  later\n1  ml\n"
    assert _ok("note", FIRST.id, env=server) == "read §3\n"
    assert "0 changed; 1 saved searches read, 0 changed" in _ok("import", str(export), env=server)

    # Removals made later on the server travel back; the laptop's older export cannot undo them.
    _ok("untag", FIRST.id, "ml", env=server)
    _ok("note", FIRST.id, "--clear", env=server)
    _ok("saved", "rm", "later", env=server)
    back = tmp_path / "server.json"
    back.write_text(_ok("export", env=server))
    _ok("import", str(back), env=laptop)
    _ok("import", str(export), env=laptop)
    assert _ok("tags", env=laptop) == "1  later\n"
    assert "has no note" in _nothing("note", FIRST.id, env=laptop)
    assert "no saved searches yet" in _nothing("saved", "list", env=laptop)


def test_a_version_1_export_still_imports(tmp_path: Path) -> None:
    env = _env(tmp_path)
    old = tmp_path / "old.json"
    papers = [{"id": FIRST.id, "starred": True, "starred_at": 1.5, "read": False, "read_at": None}]
    old.write_text(json.dumps({"format": "papers-state", "version": 1, "exported_at": 2.0, "papers": papers}))
    assert "1 changed" in _ok("import", str(old), env=env)
    assert [row["id"] for row in json.loads(_ok("starred", "--json", env=env))] == [FIRST.id]


def test_a_bad_tag_in_an_import_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    env = _env(tmp_path)
    bad = tmp_path / "bad.json"
    tags = [{"name": "fine", "tagged": True, "at": 1.0}, {"name": "two words", "tagged": True, "at": 1.0}]
    papers = [{"id": FIRST.id, "tags": tags}]
    bad.write_text(json.dumps({"format": "papers-state", "version": 2, "papers": papers}))
    line = _one_line_error("import", str(bad), env=env)
    assert "paper 1: tag 2: tag 'two words' contains whitespace" in line and "nothing was imported" in line
    assert "no tags yet" in _nothing("tags", env=env)


def test_markdown_and_csv_exports_show_tags_and_notes(tmp_path: Path) -> None:
    env = _env(tmp_path)
    _ok("star", FIRST.id, env=env)
    _ok("tag", FIRST.id, "later", env=env)
    _ok("tag", SECOND.id, "later", env=env)
    _ok("note", FIRST.id, "- check *appendix*", env=env)
    markdown = _ok("export", "--format", "markdown", env=env)
    item = next(line for line in markdown.splitlines() if FIRST.id in line)
    assert item.endswith("· tags: later") and "  > - check *appendix*" in markdown
    reading_list = _ok("export", "--format", "markdown", "--tag", "Later", env=env)
    assert reading_list.startswith("# Papers tagged later (2, ")
    assert FIRST.id in reading_list and SECOND.id in reading_list
    rows = {row["id"]: row for row in csv.DictReader(io.StringIO(_ok("export", "--format", "csv", env=env)))}
    assert rows[FIRST.id]["tags"] == "later" and rows[FIRST.id]["note"] == "'- check *appendix*"
    tagged = json.loads(_ok("export", "--tag", "later", env=env))
    assert sorted(p["id"] for p in tagged["papers"]) == sorted([FIRST.id, SECOND.id])
