"""An index per set of listings: switching sets reuses each one's index, the least recently used go past the
budget, and every command that needs the index builds it the way `papers index` does, saying so."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from index.library import Library
from tests.conftest import CORPUS, DATA, REPO, SEEDS, run_papers, set_index_dir

# About 4.7k real papers: a build that takes some seconds, so the command says what it is waiting for.
CORPUS_FILES = [
    CORPUS / "listings" / name
    for name in ("cvpr2019.txt", "eccv2020.txt", "ijcai2024.txt", "neurips2018.txt")
]
OTHER = DATA / "listings"


def _fingerprint(set_dir: Path) -> dict[str, tuple[int, int]]:
    """Every file of a set's index with its inode and mtime: a rebuild or an update changes some."""
    return {
        str(path.relative_to(set_dir)): (path.lstat().st_ino, path.lstat().st_mtime_ns)
        for path in sorted(set_dir.rglob("*"))
        if path.name != "in-use"  # touched on every open: it is the set's last use
    }


def _papers(root: Path, *listings: Path) -> tuple[str, ...]:
    where = [arg for path in listings for arg in ("--listings", str(path))]
    return (*where, "--index-dir", str(root))


def test_switching_sets_reuses_each_sets_index_untouched(tmp_path: Path) -> None:
    root = tmp_path / "ix"
    first = run_papers(*_papers(root, SEEDS), "search", "graph", "--json")
    assert first.returncode == 0, first.stderr
    seeds_dir = set_index_dir(root, SEEDS)
    before = _fingerprint(seeds_dir)
    assert (seeds_dir / "current").is_symlink()

    other = run_papers(*_papers(root, OTHER), "search", "graph", "--json")
    assert other.returncode == 0, other.stderr
    assert (set_index_dir(root, OTHER) / "current").is_symlink(), "the other set got its own index"
    assert _fingerprint(seeds_dir) == before, "building another set touched this one"

    again = run_papers(*_papers(root, SEEDS), "search", "graph", "--json")
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout
    assert _fingerprint(seeds_dir) == before, "coming back rebuilt or updated the index"
    assert "up to date" in run_papers(*_papers(root, SEEDS), "index").stdout


def test_the_same_listings_in_another_order_or_spelling_are_one_set(tmp_path: Path) -> None:
    root = tmp_path / "ix"
    files = sorted(SEEDS.glob("*.txt"))
    built = run_papers(*_papers(root, files[0], files[1]), "index")
    assert built.stdout.startswith("full build"), built.stdout
    relative = [Path(os.path.relpath(path, REPO)) for path in (files[1], files[0])]  # run_papers' cwd
    where = [arg for path in relative for arg in ("--listings", str(path))]
    again = run_papers("--index-dir", str(root), *where, "index")
    assert "up to date" in again.stdout, again.stdout + again.stderr
    assert len(list((root / "sets").iterdir())) == 1


def _copies(tmp_path: Path, names: str) -> dict[str, Path]:
    """One listing folder per name, each holding the same seeds, so their indexes are the same size."""
    made = {}
    for name in names:
        folder = tmp_path / "listings" / name
        shutil.copytree(SEEDS, folder)
        made[name] = folder
    return made


def _size(path: Path) -> int:
    return sum(item.stat().st_size for item in path.rglob("*") if item.is_file())


def _with_budget(tmp_path: Path, gigabytes: float) -> dict[str, str]:
    config = tmp_path / "config.toml"
    config.write_text(f"index_budget_gb = {gigabytes!r}\n")
    return {"PAPERS_CONFIG": str(config)}


def test_the_least_recently_used_set_goes_past_the_budget(tmp_path: Path) -> None:
    root = tmp_path / "ix"
    sets = _copies(tmp_path, "abc")
    assert run_papers(*_papers(root, sets["a"]), "index").returncode == 0
    one = _size(set_index_dir(root, sets["a"]))
    env = _with_budget(tmp_path, 2.5 * one / 1024**3)  # two sets fit, three do not
    assert run_papers(*_papers(root, sets["b"]), "index", env=env).returncode == 0
    used = run_papers(*_papers(root, sets["a"]), "search", "graph", env=env)  # a is now the more recent
    assert used.returncode == 0, used.stderr
    built = run_papers(*_papers(root, sets["c"]), "search", "graph", env=env)
    assert built.returncode == 0, built.stderr
    assert set_index_dir(root, sets["a"]).is_dir()
    assert not set_index_dir(root, sets["b"]).exists(), "the least recently used set stayed"
    assert set_index_dir(root, sets["c"]).is_dir()
    assert not [path for path in (root / "sets").iterdir() if path.name.startswith(".")]


def test_a_set_another_process_has_open_is_never_evicted(tmp_path: Path) -> None:
    root = tmp_path / "ix"
    sets = _copies(tmp_path, "ab")
    assert run_papers(*_papers(root, sets["a"]), "index").returncode == 0
    env = _with_budget(tmp_path, 0)  # nothing but the set just written fits
    with Library.open([sets["a"]], index_dir=root, data_dir=tmp_path / "data") as reading:
        assert reading.index_ready
        built = run_papers(*_papers(root, sets["b"]), "index", env=env)
        assert built.returncode == 0, built.stderr
        assert set_index_dir(root, sets["a"]).is_dir(), "evicted while a reader had it open"
        assert reading.view("graph").ids
    again = run_papers(*_papers(root, sets["b"]), "index", "--rebuild", env=env)  # the next write
    assert again.returncode == 0, again.stderr
    assert not set_index_dir(root, sets["a"]).exists(), "closed and over the budget: it goes"


def test_an_index_of_the_old_layout_is_removed_once_a_set_is_built(tmp_path: Path) -> None:
    root = tmp_path / "ix"
    legacy = root / "build-4"
    legacy.mkdir(parents=True)
    (legacy / "_MAIN_1.toc").write_bytes(b"an index an older papers kept in the root")
    (root / "current").symlink_to("build-4")
    assert run_papers(*_papers(root, SEEDS), "index").returncode == 0
    assert sorted(path.name for path in root.iterdir()) == ["sets"]


def test_listings_swapped_under_the_same_paths_are_built_afresh_not_updated(tmp_path: Path) -> None:
    folder = tmp_path / "listings"
    folder.mkdir()
    shutil.copy(sorted(SEEDS.glob("*.txt"))[0], folder / "a.txt")
    root = tmp_path / "ix"
    assert run_papers(*_papers(root, folder), "index").stdout.startswith("full build")
    (folder / "a.txt").unlink()
    shutil.copy(sorted(SEEDS.glob("*.txt"))[1], folder / "b.txt")
    swapped = run_papers(*_papers(root, folder), "index")
    assert swapped.stdout.startswith("full build (only 0% of the listings are as indexed)"), swapped.stdout
    shutil.copy(sorted(SEEDS.glob("*.txt"))[2], folder / "c.txt")
    grown = run_papers(*_papers(root, folder), "index")
    assert grown.stdout.startswith("update:"), grown.stdout


@pytest.mark.slow
@pytest.mark.skipif(not all(path.exists() for path in CORPUS_FILES), reason="needs the shared corpus")
@pytest.mark.parametrize("command", [("list",), ("search", "graph")])
def test_a_command_that_needs_the_index_builds_it_as_papers_index_does_and_says_so(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    root = tmp_path / "ix"
    where = _papers(root, *CORPUS_FILES)
    implicit = run_papers(*where, *command)
    lines = implicit.stderr.splitlines()
    announced = "papers: indexing these listings first (`papers index` does it ahead of time)..."
    assert lines[0] == announced, lines
    assert any(line.startswith("indexing: ") and "(100%)" in line for line in lines), lines
    assert "Traceback" not in implicit.stderr
    assert implicit.returncode == 0, implicit.stderr
    # The same build as `papers index`: the same files of the same sizes (both processes' segments).
    explicit_root = tmp_path / "explicit"
    assert run_papers(*_papers(explicit_root, *CORPUS_FILES), "index").stdout.startswith("full build")
    layout = {
        tuple(sorted((path.suffix, path.stat().st_size) for path in (dir_ / "current").resolve().iterdir()))
        for dir_ in (set_index_dir(root, *CORPUS_FILES), set_index_dir(explicit_root, *CORPUS_FILES))
    }
    assert len(layout) == 1
    quick = run_papers(*where, *command)
    assert quick.stdout == implicit.stdout and "indexing" not in quick.stderr
