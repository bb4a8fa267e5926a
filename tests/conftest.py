"""Shared fixtures: every test runs with private XDG and PAPERS_* locations, never the developer's own."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from index.library import Library
from index.search import sets

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO / "seeds"
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(autouse=True)
def isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    """Point every per-user location at a fresh temporary home so tests cannot read or clobber real state."""
    home = tmp_path_factory.mktemp("home")
    for name, sub in (
        ("XDG_DATA_HOME", "data"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_CONFIG_DIRS", "site-config"),
    ):
        (home / sub).mkdir()
        monkeypatch.setenv(name, str(home / sub))
    for name in ("PAPERS_LISTINGS", "PAPERS_INDEX_DIR", "PAPERS_DATA_DIR", "NO_COLOR", "PAPERS_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    yield home


def run_papers(
    *args: str, env: dict[str, str] | None = None, input: str | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """Run the real `papers` command line in a subprocess, as a user would."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    return subprocess.run(
        [sys.executable, "-m", "index.cli", *args],
        capture_output=True,
        text=True,
        env=full_env,
        input=input,
        timeout=timeout,
        cwd=REPO,
    )


_PROGRESS = re.compile(
    r"^(papers: indexing these listings first .*|indexing: \d+/\d+ papers .*)\n", re.MULTILINE
)


def without_progress(stderr: str) -> str:
    """A command's stderr less the progress an index build prints once it has run a second: on a busy
    machine even the seeds' first build may take that long."""
    return _PROGRESS.sub("", stderr)


def set_index_dir(root: Path, *listings: Path) -> Path:
    """The index directory `papers --index-dir ROOT --listings ...` keeps for these listings (each set of
    listings has its own under the root: index/search/sets.py)."""
    return sets.set_dir(root, list(listings))


@pytest.fixture
def papers_cli() -> object:
    return run_papers


def build_index(listings: Path, tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    """An index over `listings` in a fresh temporary directory, built as `papers index` builds it."""
    index_dir = tmp_path_factory.mktemp(name)
    library = Library.open([listings], index_dir=index_dir, data_dir=tmp_path_factory.mktemp(f"{name}-state"))
    try:
        library.build_index()
    finally:
        library.close()
    return index_dir


@pytest.fixture(scope="session")
def seed_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One index over the seeds for the whole session (tests only read it), so each test starts instantly."""
    return build_index(SEEDS, tmp_path_factory, "seed-index")
