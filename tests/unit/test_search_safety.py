"""The index under real processes: SIGKILL mid-build, two processes at once, a read-only shared index."""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import CORPUS, REPO, SEEDS, run_papers, set_index_dir

# About 4.7k real papers: enough that a full build takes the two-process path and some seconds.
CORPUS_FILES = [
    CORPUS / "listings" / name
    for name in ("cvpr2019.txt", "eccv2020.txt", "ijcai2024.txt", "neurips2018.txt")
]


def _papers_popen(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "index.cli", *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
@pytest.mark.skipif(not all(path.exists() for path in CORPUS_FILES), reason="needs the shared corpus")
def test_build_killed_with_sigkill_leaves_a_usable_index_and_the_next_run_finishes(tmp_path: Path) -> None:
    index_dir = tmp_path / "ix"
    seeds = ("--listings", str(SEEDS), "--index-dir", str(index_dir))
    assert run_papers(*seeds, "index").returncode == 0

    listings = [arg for path in CORPUS_FILES for arg in ("--listings", str(path))]
    corpus = (*listings, "--index-dir", str(index_dir))
    corpus_dir = set_index_dir(index_dir, *CORPUS_FILES)  # each set of listings has its own index
    assert run_papers(*corpus, "index").returncode == 0
    build = _papers_popen(*corpus, "index", "--rebuild")
    deadline = time.monotonic() + 240
    # Kill once Whoosh has written part of the new build (its posting files exist), i.e. truly mid-way.
    while time.monotonic() < deadline and not list(corpus_dir.glob("build-2/*.trm")):
        assert build.poll() is None, build.communicate()
        time.sleep(0.05)
    time.sleep(0.3)
    assert build.poll() is None, "the build finished before it could be killed"
    build.send_signal(signal.SIGKILL)
    build.wait()
    _wait_for_no_process_using(index_dir)  # the forked indexing child dies with its parent
    assert os.readlink(corpus_dir / "current") == "build-1"  # the live index was never touched
    assert os.readlink(set_index_dir(index_dir, SEEDS) / "current") == "build-1"  # nor another set's

    previous = run_papers(*seeds, "search", "diffusion")
    assert previous.returncode == 0, previous.stderr
    assert previous.stdout.strip() and "Traceback" not in previous.stderr

    finished = run_papers(*corpus, "search", "diffusion", "--limit", "3")
    assert finished.returncode == 0, finished.stderr
    assert "Traceback" not in finished.stderr
    assert finished.stdout.count("\n") >= 3
    again = run_papers(*corpus, "index")
    assert "up to date" in again.stdout


def _wait_for_no_process_using(index_dir: Path, timeout: float = 2.0) -> None:
    """The kernel kills the child at once (PR_SET_PDEATHSIG); an orphan would go on indexing for seconds."""
    deadline = time.monotonic() + timeout
    while True:
        alive = []
        for proc in Path("/proc").iterdir():
            try:
                cmdline = (proc / "cmdline").read_bytes()
            except OSError:
                continue
            if proc.name.isdigit() and str(index_dir).encode() in cmdline and b"--rebuild" in cmdline:
                alive.append(proc.name)
        if not alive:
            return
        assert time.monotonic() < deadline, f"indexing processes outlived their killed parent: {alive}"
        time.sleep(0.1)


@pytest.mark.slow
@pytest.mark.parametrize("stale", [False, True], ids=["first-use", "stale"])
def test_two_processes_opening_a_missing_or_stale_index_both_succeed(tmp_path: Path, stale: bool) -> None:
    listings = tmp_path / "listings"
    listings.mkdir()
    seeds = sorted(SEEDS.glob("*.txt"))
    for seed in seeds[:2]:
        shutil.copy(seed, listings)
    args = ("--listings", str(listings), "--index-dir", str(tmp_path / "ix"))
    if stale:
        assert run_papers(*args, "index").returncode == 0
        shutil.copy(seeds[2], listings)
    procs = [_papers_popen(*args, "search", "diffusion models", "--json") for _ in range(2)]
    outputs = [proc.communicate(timeout=300) for proc in procs]
    for proc, (stdout, stderr) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, stderr
        assert "Traceback" not in stderr and "LockError" not in stderr
        assert stdout.strip().startswith("[") and '"id"' in stdout
    final = run_papers(*args, "index")
    assert "up to date" in final.stdout


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A world-readable directory outside pytest's private tmp, so another user can read what is in it."""
    path = Path(tempfile.mkdtemp(prefix="papers-shared-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _as_other_user() -> tuple[dict[str, str], list[str]]:
    """Run as `nobody` when we are root (chmod does not stop root); else rely on the chmod alone."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("XDG_", "PAPERS_"))}
    if os.geteuid() != 0:
        return env, []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: cannot act as another user")
    nobody = pwd.getpwnam("nobody")
    home = Path(tempfile.mkdtemp(prefix="papers-nobody-"))
    os.chown(home, nobody.pw_uid, nobody.pw_gid)
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / "cache"), XDG_DATA_HOME=str(home / "data"))
    return env, [setpriv, f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups"]


def test_read_only_index_is_searched_as_is_with_a_notice(shared_dir: Path) -> None:
    listings = shared_dir / "listings"
    listings.mkdir()
    for seed in sorted(SEEDS.glob("*.txt"))[:2]:
        shutil.copy(seed, listings)
    index_dir = shared_dir / "ix"
    assert run_papers("--listings", str(listings), "--index-dir", str(index_dir), "index").returncode == 0
    shutil.copy(sorted(SEEDS.glob("*.txt"))[2], listings)  # now the index is older than the listings
    for path in [shared_dir, listings, *listings.iterdir()]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    for root, dirs, files in os.walk(index_dir):
        for name in files:
            os.chmod(os.path.join(root, name), 0o444)
        for name in dirs:
            os.chmod(os.path.join(root, name), 0o555)
    index_dir.chmod(0o555)
    before = sorted(str(p) for p in index_dir.rglob("*"))
    env, prefix = _as_other_user()
    command = [sys.executable, "-m", "index.cli", "--listings", str(listings), "--index-dir", str(index_dir)]
    result = subprocess.run(
        [*prefix, *command, "search", "diffusion"],
        cwd=REPO,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    index_dir.chmod(0o755)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "older than the listings" in result.stderr
    assert result.stderr.count("older than") == 1
    assert result.stdout.strip()
    assert sorted(str(p) for p in index_dir.rglob("*")) == before  # nothing written, no lock file created


_UPDATER = """
import subprocess, sys
from pathlib import Path
listing, abstracts, *args = sys.argv[1:]
paragraphs = Path(abstracts).read_text(encoding="utf-8").split("\\n\\n")[1:]
for number, paragraph in enumerate(paragraphs[:12]):
    with open(listing, "a", encoding="utf-8") as handle:
        handle.write(f"\\n\\nUpdate {number}: " + paragraph.strip())
    done = subprocess.run([sys.executable, "-m", "index.cli", *args, "index"], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"update {number}: {done.stdout} {done.stderr}")
"""


@pytest.mark.slow
@pytest.mark.parametrize("follow", [True, False], ids=["command", "reader"])
def test_queries_while_another_process_commits_updates_answer_from_the_index_they_name(
    tmp_path: Path, follow: bool
) -> None:
    """One process searches without pause while another commits a dozen updates to the same index. Each
    answer is whole (hits that are this library's papers) or, for the reader, says the index was updated;
    none is empty, none is from the previous generation's snapshot, and no build is marked damaged (a reader
    once took the files a commit removes for files changed in place, and searched the new generation with
    the old snapshot)."""
    from index.library import IndexReplaced, Library

    listings = tmp_path / "listings"
    listings.mkdir()
    seeds = sorted(SEEDS.glob("*.txt"))
    for seed in seeds[:2]:
        shutil.copy(seed, listings)
    growing = listings / "growing.txt"
    growing.write_text(
        "NeurIPS 2026 Papers\n\nA first paper on diffusion models for graphs.\n", encoding="utf-8"
    )
    args = ("--listings", str(listings), "--index-dir", str(tmp_path / "ix"))
    assert run_papers(*args, "index").returncode == 0
    library = Library.open([listings], tmp_path / "ix", tmp_path / "data", reader=not follow)
    updater = subprocess.Popen(
        [sys.executable, "-c", _UPDATER, str(growing), str(seeds[2]), *args],
        cwd=REPO,
        stderr=subprocess.PIPE,
        text=True,
    )
    answers = replaced = 0
    try:
        while updater.poll() is None:
            try:
                view = library.view("diffusion models", limit=5)
            except IndexReplaced:
                assert not follow, "a command follows another process's update"
                replaced += 1
                library.build_index()  # what the reader does then (tui/browse/screen.py, `_index_lost`)
                continue
            ids = set(library.papers.ids)
            assert view.hits and all(hit.id in ids for hit in view.hits), view
            assert "diffusion" in library.papers.paper(view.hits[0].id).abstract.lower()
            answers += 1
    finally:
        library.close()
        _, stderr = updater.communicate(timeout=300)
    assert updater.returncode == 0, stderr
    assert answers > 20, (answers, replaced)
    assert not list((tmp_path / "ix").rglob("damaged")), "a build was marked damaged"
