"""Session fixtures for the e2e tests: one sshd, two throwaway users and shared indexes per xdist worker.

Each pytest-xdist worker builds its own environment (users named after the worker and the test process id),
so `pytest -n 2` needs no coordination beyond the apt/useradd lock in harness.machine_lock.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import DATA, SEEDS, run_papers
from tests.e2e.harness import Environment, Unavailable, apt_install, make_readable


@pytest.fixture
def home(request: pytest.FixtureRequest) -> Iterator[Path]:
    """A scratch home for a reader run in tmux on this machine (`harness.local_reader_argv`), removed after
    the test; the test is skipped where tmux is missing and cannot be installed."""
    if shutil.which("tmux") is None:
        try:
            apt_install(["tmux"])
        except Unavailable as why:
            pytest.skip(f"tmux is not installed and cannot be installed here: {why}")
    module = request.module.__name__.rsplit(".", 1)[-1]
    scratch = Path(tempfile.mkdtemp(prefix=f"papers-{module}-"))
    yield scratch
    shutil.rmtree(scratch, ignore_errors=True)


@pytest.fixture(scope="session")
def e2e() -> Iterator[Environment]:
    tag = f"{os.environ.get('PYTEST_XDIST_WORKER', 'gw')}-{os.getpid()}"
    try:
        environment = Environment.open(tag)
    except Unavailable as why:
        pytest.skip(f"cannot run sshd and local users here: {why}")
    try:
        yield environment
    finally:
        environment.close()


@dataclass(frozen=True)
class SharedLibrary:
    """Listings and an index that root built and made world-readable, as an admin would."""

    listings: Path
    index_dir: Path

    def env(self) -> dict[str, str]:
        return {"PAPERS_LISTINGS": str(self.listings), "PAPERS_INDEX_DIR": str(self.index_dir)}

    def assignments(self) -> list[str]:
        return [f"{key}={value}" for key, value in self.env().items()]


def build_shared(environment: Environment, name: str, sources: list[Path]) -> SharedLibrary:
    """Copy listings into a shared folder and build the index there with `papers index`, as root."""
    listings = environment.scratch / f"{name}-listings"
    listings.mkdir()
    for source in sources:
        shutil.copy2(source, listings / source.name)
    index_dir = environment.scratch / f"{name}-index"
    # Session fixtures run outside the per-test isolated home, so root gets a private one here too.
    root_home = environment.scratch / f"{name}-root-xdg"
    env = {
        var: str(root_home / var.lower()) for var in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME")
    }
    env |= {"XDG_CONFIG_DIRS": str(root_home / "site"), "PAPERS_CONFIG": ""}
    help_text = run_papers("index", "--help", env=env).stdout
    shared_flag = ["--shared"] if "--shared" in help_text else []
    argv = ["index", "--listings", str(listings), "--index-dir", str(index_dir), *shared_flag]
    result = run_papers(*argv, env=env)
    assert result.returncode == 0, f"papers index failed:\n{result.stdout}\n{result.stderr}"
    assert "Traceback" not in result.stderr, result.stderr
    # Without --shared the files carry root's umask; an admin would do exactly this instead.
    make_readable(listings)
    make_readable(index_dir)
    return SharedLibrary(listings, index_dir)


@pytest.fixture(scope="session")
def seeds_library(e2e: Environment) -> SharedLibrary:
    return build_shared(e2e, "seeds", sorted(SEEDS.glob("*.txt")))


@pytest.fixture(scope="session")
def hostile_library(e2e: Environment) -> SharedLibrary:
    return build_shared(e2e, "hostile", sorted((DATA / "hostile").glob("*.txt")))
