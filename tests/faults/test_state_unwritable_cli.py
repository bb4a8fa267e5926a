"""Every `papers` write on state it cannot save says one line and exits 1; nothing already saved is lost.

The store is made unwritable for real: its folder on a tmpfs remounted read-only, a `state.db` written by a
newer `papers` (its `PRAGMA user_version` ahead of ours), and a tmpfs filled to the last byte.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.conftest import SEEDS, run_papers
from tests.faults.conftest import Mounts

WRITES: list[tuple[str, ...]] = [
    ("star", "{a}"),
    ("unstar", "{b}"),
    ("read", "{a}"),
    ("unread", "{b}"),
    ("tag", "{a}", "later"),
    ("untag", "{b}", "kept"),
    ("note", "{a}", "a new note"),
    ("note", "{b}", "--clear"),
    ("saved", "add", "fresh", "diffusion"),
    ("saved", "rm", "kept"),
    ("import", "{export}"),
]


def papers_in(data_dir: Path, index_dir: Path, *args: str) -> tuple[int, str, str]:
    done = run_papers(
        "--listings", str(SEEDS), "--data-dir", str(data_dir), "--index-dir", str(index_dir), *args
    )
    return done.returncode, done.stdout, done.stderr


def two_ids(data_dir: Path, index_dir: Path) -> tuple[str, str]:
    code, out, err = papers_in(data_dir, index_dir, "list")
    assert code == 0, err
    first, second = (line.split()[0] for line in out.splitlines()[:2])
    return first, second


def saved_state(data_dir: Path, index_dir: Path, tmp_path: Path) -> dict[str, str]:
    """Star, read, tag and note paper b, save a search; export it all (the import the test replays)."""
    a, b = two_ids(data_dir, index_dir)
    for args in (
        ("star", b),
        ("read", b),
        ("tag", b, "kept"),
        ("note", b, "kept note"),
        ("saved", "add", "kept", "graph"),
    ):
        code, _, err = papers_in(data_dir, index_dir, *args)
        assert code == 0, err
    code, exported, err = papers_in(data_dir, index_dir, "export", "--all")
    assert code == 0, err
    export = tmp_path / "export.json"
    export.write_text(exported.replace('"kept"', '"imported"'))
    return {"a": a, "b": b, "export": str(export)}


def assert_state_kept(data_dir: Path, index_dir: Path, b: str) -> None:
    """What the user had before the fault is all still there, read back through the CLI."""
    code, out, _ = papers_in(data_dir, index_dir, "starred")
    assert code == 0 and b in out
    code, out, _ = papers_in(data_dir, index_dir, "export", "--all")
    assert code == 0
    assert b in out and "kept note" in out and '"kept"' in out


def assert_each_write_refused(data_dir: Path, index_dir: Path, names: dict[str, str], why: str) -> None:
    for template in WRITES:
        args = [word.format(**names) for word in template]
        code, out, err = papers_in(data_dir, index_dir, *args)
        lines = err.strip().splitlines()
        assert code == 1, (args, code, out, err)
        assert len(lines) == 1 and lines[0].startswith("papers: "), (args, err)
        assert why in lines[0], (args, err)
        assert "Traceback" not in err and out == "", (args, out, err)


@pytest.fixture
def index_dir(seed_index: Path) -> Path:
    return seed_index


def test_read_only_mount(mounts: Mounts, index_dir: Path, tmp_path: Path) -> None:
    data_dir = mounts.tmpfs("state")
    names = saved_state(data_dir, index_dir, tmp_path)
    mounts.remount_ro(data_dir)
    assert_each_write_refused(data_dir, index_dir, names, "cannot be written")
    assert_state_kept(data_dir, index_dir, names["b"])


def test_state_from_a_newer_papers(index_dir: Path, tmp_path: Path) -> None:
    data_dir = tmp_path / "state"
    names = saved_state(data_dir, index_dir, tmp_path)
    with closing(sqlite3.connect(data_dir / "state.db")) as conn:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        conn.execute(f"PRAGMA user_version = {version + 1}")
    assert_each_write_refused(data_dir, index_dir, names, "newer papers")
    assert_state_kept(data_dir, index_dir, names["b"])
    with closing(sqlite3.connect(data_dir / "state.db")) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == version + 1


def test_full_disk(mounts: Mounts, index_dir: Path, tmp_path: Path) -> None:
    data_dir = mounts.tmpfs("state", "2m")
    names = saved_state(data_dir, index_dir, tmp_path)
    mounts.fill(data_dir)
    assert_each_write_refused(data_dir, index_dir, names, "full")
    assert_state_kept(data_dir, index_dir, names["b"])
