"""bench/corpus250k.py writes a deterministic corpus of distinct papers; bench_build.py runs end to end."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from index.listings.catalog import load_catalog, no_headline
from index.listings.identity import paper_id
from tests.conftest import REPO, SEEDS

GENERATOR = REPO / "bench" / "corpus250k.py"
BENCH = REPO / "bench" / "bench_build.py"


def _generate(out: Path, *options: str) -> None:
    command = [sys.executable, str(GENERATOR), str(out), "--corpus", str(SEEDS), *options]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr


def test_the_generated_corpus_is_distinct_seed_format_and_the_same_every_time(tmp_path: Path) -> None:
    _generate(tmp_path / "one", "--papers", "300", "--per-file", "100")
    _generate(tmp_path / "two", "--papers", "300", "--per-file", "100")
    files = sorted(path.name for path in (tmp_path / "one").iterdir())
    assert files == sorted(path.name for path in (tmp_path / "two").iterdir())
    for name in files:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    catalog = load_catalog([tmp_path / "one"], no_headline)
    assert not catalog.notices
    assert len(catalog.papers) == catalog.paragraphs == 300  # distinct: no paragraph merged with another
    seeds = {paper.id for paper in load_catalog([SEEDS], no_headline).papers}
    assert seeds < {paper.id for paper in catalog.papers}  # the real abstracts come first, then recombined
    synthetic = [listing for listing in catalog.listings if listing.venue and "Synthetic" in listing.name]
    assert synthetic and all(len(listing.entries) <= 100 for listing in synthetic)
    assert all(paper_id(entry.abstract) not in seeds for listing in synthetic for entry in listing.entries)

    _generate(tmp_path / "other", "--papers", "300", "--per-file", "100", "--seed", "1")
    assert (tmp_path / "other" / files[-1]).read_bytes() != (tmp_path / "one" / files[-1]).read_bytes()


def test_bench_build_prints_every_figure_next_to_fts5(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(BENCH), "--corpus", str(SEEDS), "--skip-250k"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "TMPDIR": str(tmp_path)},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    table = result.stdout
    assert "== 49 papers" in table
    for label in ("full build", "add a 1000-paper listing", "(as a command, removing it)"):
        assert label in table
    assert table.count("| fts5 ") == 2 and table.count("| wall x") == 2
    assert list(tmp_path.iterdir()) == []  # everything lived in a temporary directory, removed at the end
