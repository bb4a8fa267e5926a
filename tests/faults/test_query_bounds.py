"""Pathological queries answer with a notice instead of spinning, and a running search never holds up a quit.

The queries are the ones a hostile or careless user types: a fuzzy word with nine typos (its Levenshtein
automaton alone ran for minutes), wildcards that stand for every word (`*`, `?*`) or thousands (`*a*`), a
thousand fuzzy words, ten thousand characters. They run over a slice of the shared corpus (~4.7k papers,
enough that each took seconds before it was bounded) through the CLI as a subprocess and through the reader,
and the reader is quit with `q` while a search or a build is running, in a real process on a pty.

Ceilings are generous (a loaded 2-core machine starts a CLI in seconds): what is asserted is the notice and
that the answer comes at all; the 2 s target is measured by bench/bench_query_bounds.py.
"""

from __future__ import annotations

import asyncio
import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from index.library import Library
from tests.conftest import CORPUS, REPO, run_papers
from tests.tui.conftest import settle
from tests.tui.helpers import browse, note_text, reader

LISTINGS = CORPUS / "listings" if (CORPUS / "listings").is_dir() else None
"""The shared corpus beside the repository."""
pytestmark = pytest.mark.skipif(LISTINGS is None, reason="the shared corpus is not here")

SLICE = ("aaai2021", "aaai2022", "acl2021", "acl2022")
"""~4.7k papers: a lexicon big enough that an unbounded walk takes seconds, an index built in ~20 s."""
CEILING = 30.0
"""Seconds a CLI search may take here, start-up included, before the test calls it a hang."""

THOUSAND_FUZZY = " ".join(f"word{n:03d}~2" for n in range(1000))
LONG = " ".join(["representation", "learning", "graph", "network"] * 700)[:10_000]

PATHOLOGICAL = [
    ("representationlearning~9", "at most 2 typos"),
    ("*", "* alone stands for every word"),
    ("?*", "?* alone stands for every word"),
    ("*a*", "search stopped"),
    (THOUSAND_FUZZY, "only the first 1,000 characters"),  # and, on a slow machine, "search stopped"
    (LONG, "only the first 1,000 characters"),
]


def _corpus() -> Path:
    assert LISTINGS is not None
    return LISTINGS


@pytest.fixture(scope="module")
def corpus_slice(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The slice's listings (linked into a folder of their own) and an index built of them."""
    root = tmp_path_factory.mktemp("slice")
    listings = root / "listings"
    listings.mkdir()
    for name in SLICE:
        (listings / f"{name}.txt").symlink_to(_corpus() / f"{name}.txt")
    done = run_papers("--listings", str(listings), "--index-dir", str(root / "index"), "index", timeout=600)
    assert done.returncode == 0, done.stderr
    return listings, root / "index"


@pytest.fixture
def slice_library(corpus_slice: tuple[Path, Path], tmp_path: Path) -> Iterator[Library]:
    listings, index_dir = corpus_slice
    opened = Library.open([listings], index_dir=index_dir, data_dir=tmp_path / "data")
    assert opened.index_ready, opened.notices
    yield opened
    opened.close()


@pytest.mark.parametrize(("query", "notice"), PATHOLOGICAL, ids=lambda value: value[:24])
def test_a_pathological_query_answers_from_the_cli_with_a_notice(
    corpus_slice: tuple[Path, Path], tmp_path: Path, query: str, notice: str
) -> None:
    listings, index_dir = corpus_slice
    argv = ("--listings", str(listings), "--index-dir", str(index_dir), "--data-dir", str(tmp_path), "search")
    started = time.monotonic()
    done = run_papers(*argv, query, timeout=CEILING)
    assert done.returncode == 0, done.stderr
    assert notice in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert time.monotonic() - started < CEILING


def test_a_capped_query_still_searches_the_rest(slice_library: Library) -> None:
    """`word~9` is searched as `word~2`, and `graph *` as `graph`: the bound takes only the bad part."""
    expected = slice_library.view("learnin~2").ids  # first: a cold first walk may run out of time under load
    capped = slice_library.view("learnin~9")
    assert capped.ids == expected and len(expected) > 100, capped.notice
    assert "at most 2 typos" in (capped.notice or "")
    rest = slice_library.view("graph *")
    assert rest.ids == slice_library.view("graph").ids and rest.ids
    assert "* alone" in (rest.notice or "")


def test_the_reader_shows_the_notice_and_quits_at_once(slice_library: Library) -> None:
    asyncio.run(_notice_then_quit(slice_library))


async def _notice_then_quit(slice_library: Library) -> None:
    app = reader(slice_library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"*a*")
        await settle(pilot)
        assert "search stopped" in note_text(app), note_text(app)
        assert list(browse(app).paper_list.ids) == []
        await pilot.press("ctrl+u", *"representationlearning~9", "enter")
        await settle(pilot)
        assert "at most 2 typos" in note_text(app), note_text(app)
        browse(app).searches.run("*former", "all", "relevance")  # still running when `q` is pressed
        started = time.monotonic()
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running
    assert time.monotonic() - started < 10


def test_a_restored_query_runs_under_the_same_bounds(slice_library: Library) -> None:
    slice_library.session.set("query", "representationlearning~9")
    asyncio.run(_restored(slice_library))


async def _restored(slice_library: Library) -> None:
    app = reader(slice_library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert browse(app).search_bar.value == "representationlearning~9"
        assert "at most 2 typos" in note_text(app), note_text(app)


def _read_until(fd: int, wanted: bytes, seconds: float) -> bytes:
    """What the pty gives until `wanted` shows (or `seconds` pass)."""
    seen = b""
    deadline = time.monotonic() + seconds
    while wanted not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
    return seen


def test_q_ends_the_real_reader_while_its_first_build_runs(tmp_path: Path) -> None:
    """A first build of the slice takes ~20 s in a worker thread; `q` ends the process well before that."""
    listings = tmp_path / "listings"
    listings.mkdir()
    for name in SLICE:
        (listings / f"{name}.txt").symlink_to(_corpus() / f"{name}.txt")
    parent, child = os.openpty()
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="120", LINES="40")
    argv = [sys.executable, "-m", "tui", "--listings", str(listings)]
    argv += ["--index-dir", str(tmp_path / "index"), "--data-dir", str(tmp_path / "data")]
    process = subprocess.Popen(argv, stdin=child, stdout=child, stderr=child, cwd=REPO, env=env)
    os.close(child)
    try:
        painted = _read_until(parent, b"indexing", 60)
        assert b"indexing" in painted.lower() or painted, "the reader never painted"
        time.sleep(1)  # the build worker is under way
        started = time.monotonic()
        os.write(parent, b"q")
        while process.poll() is None and time.monotonic() - started < 10:
            _read_until(parent, b"\0", 0.1)  # keep the pty drained so the app can write its last frame
        assert process.poll() == 0, "the reader is still running 10 s after q"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(parent)
