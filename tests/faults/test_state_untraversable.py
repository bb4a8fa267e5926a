"""A data folder the user cannot traverse is read-only mode, not a traceback: the CLI and the reader.

Root's chmod stops no one, so the commands run as `nobody` (setpriv) over a data folder inside a 0700
folder of root's: the folder a misconfigured `data_dir` or `$XDG_DATA_HOME` points into.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO, SEEDS
from tests.faults.conftest import nobody_argv

Completed = subprocess.CompletedProcess[str]


class Scratch:
    """World-traversable scratch space: a readable copy of the seed index, nobody's own home, and a data
    folder behind a 0700 folder of root's."""

    def __init__(self, root: Path, seed_index: Path) -> None:
        self.index = root / "index"
        shutil.copytree(seed_index, self.index, symlinks=True)  # `current` stays the link the index reads
        subprocess.run(["chmod", "-R", "a+rX", str(self.index)], check=True)
        self.home = root / "home"
        self.home.mkdir()
        shutil.chown(self.home, "nobody", "nogroup")
        self.private = root / "private"
        (self.private / "data").mkdir(parents=True)
        self.private.chmod(0o700)

    def papers(self, *args: str, data_home: Path | None = None, module: str = "index.cli") -> Completed:
        """`papers ARGS` (`python -m module ARGS`) as nobody over the seeds; the data folder is the
        unreachable one unless `data_home` says where $XDG_DATA_HOME points instead."""
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "XDG_CACHE_HOME": str(self.home / "cache"),
            "XDG_CONFIG_HOME": str(self.home / "config"),
            "XDG_CONFIG_DIRS": str(self.home / "site"),
            "XDG_DATA_HOME": str(data_home or self.home / "data"),
        }
        where = ["--listings", str(SEEDS), "--index-dir", str(self.index)]
        if data_home is None:
            where += ["--data-dir", str(self.private / "data")]
        argv = nobody_argv([sys.executable, "-m", module, *where, *args])
        return subprocess.run(argv, capture_output=True, text=True, env=env, cwd=REPO, timeout=120)


@pytest.fixture
def scratch(as_nobody: None, seed_index: Path) -> Iterator[Scratch]:
    root = Path(tempfile.mkdtemp(prefix="papers-faults-"))
    root.chmod(0o755)
    try:
        yield Scratch(root, seed_index)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def one_warning(done: Completed) -> str:
    """The one line about the data folder (an empty answer may add its own line, as it does anywhere)."""
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if "Permission denied" in line]
    assert len(lines) == 1 and lines[0].startswith("papers: warning: "), done.stderr
    return lines[0]


def one_line_error(done: Completed) -> str:
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("papers: "), done.stderr
    assert "Traceback" not in done.stderr
    return lines[0]


def test_cli_reads_and_refuses_writes(scratch: Scratch) -> None:
    paper = scratch.papers("list").stdout.split()[0]
    for write in (["star", paper], ["read", paper], ["tag", paper, "later"], ["saved", "add", "x", "graph"]):
        done = scratch.papers(*write)
        assert done.returncode == 1, (write, done.stderr)
        assert "Permission denied" in one_line_error(done), write
        assert done.stdout == ""
    done = scratch.papers("starred")
    assert done.returncode == 0, done.stderr
    assert "read-only" not in done.stdout
    one_warning(done)


def test_cli_with_xdg_data_home_unreachable(scratch: Scratch) -> None:
    done = scratch.papers("starred", data_home=scratch.private / "data")
    assert done.returncode == 0, done.stderr
    one_warning(done)
    done = scratch.papers("export", data_home=scratch.private / "data")
    assert done.returncode == 0 and json.loads(done.stdout)["papers"] == []


def test_reader_starts_read_only_and_refuses_changes(scratch: Scratch) -> None:
    done = scratch.papers("s r j", module="tests.faults.reader_keys")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["exit"] == 0
    assert any("Permission denied" in told for told in seen["start"]), seen
    assert "read-only" in seen["status"], seen
    for key in ("s", "r"):
        assert any("Read-only, nothing changed" in told for told in seen[key]), (key, seen)
