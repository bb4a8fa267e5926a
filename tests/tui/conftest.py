"""Fixtures for the reader's pilot and snapshot tests: real Library objects over tmp data and index dirs."""

from __future__ import annotations

import asyncio
import inspect
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot

from index.library import Library
from tests.conftest import DATA, SEEDS, build_index


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run `async def` pilot tests in a fresh event loop (no async plugin needed for one call)."""
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    names = pyfuncitem._fixtureinfo.argnames
    asyncio.run(pyfuncitem.obj(**{name: pyfuncitem.funcargs[name] for name in names}))
    return True


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def library(seed_index: Path, data_dir: Path) -> Iterator[Library]:
    opened = Library.open([SEEDS], index_dir=seed_index, data_dir=data_dir)
    assert opened.index_ready, opened.notices
    yield opened
    opened.close()


@pytest.fixture(scope="session")
def multivenue_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_index(DATA / "multivenue", tmp_path_factory, "multivenue-index")


@pytest.fixture
def venues(multivenue_index: Path, tmp_path: Path) -> Iterator[Library]:
    """14 papers with titles, authors and links: NeurIPS 5, ICML 4, ICLR 3, AutoML Conf 2; 2022-2025;
    Oral, Poster, Spotlight, Workshop."""
    opened = Library.open([DATA / "multivenue"], index_dir=multivenue_index, data_dir=tmp_path / "data")
    assert opened.index_ready, opened.notices
    yield opened
    opened.close()


@pytest.fixture
def hostile_library(tmp_path: Path) -> Iterator[Library]:
    """Listings whose text looks like Rich/Textual markup or carries terminal escape sequences."""
    listings = tmp_path / "listings"
    listings.mkdir()
    for name in ("markup.txt", "escapes.txt"):
        shutil.copy(DATA / "hostile" / name, listings / name)
    opened = Library.open([listings], index_dir=tmp_path / "index", data_dir=tmp_path / "data")
    opened.build_index()
    yield opened
    opened.close()


async def settle(pilot: Pilot[None]) -> None:
    """Let debounce timers fire, searches finish in their threads, and their results reach the screen."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def eventually(pilot: Pilot[None], condition: Callable[[], bool], timeout: float = 10.0) -> bool:
    """Whether `condition` holds within `timeout` seconds, checked every 50 ms: for what a timer must do
    (a dwell marking a paper read), so a loaded machine whose loop stalls is given time, not a failure."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        await pilot.pause(0.05)
    return True
