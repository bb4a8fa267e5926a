"""bench/bench_keystroke.py runs end to end on the seeds, every figure beside FTS5's (numbers unjudged)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from index.library import Library
from tests.conftest import REPO, SEEDS

BENCH = REPO / "bench" / "bench_keystroke.py"


def test_bench_keystroke_prints_every_figure_beside_fts5(tmp_path: Path) -> None:
    index_dir = tmp_path / "index"
    library = Library.open([SEEDS], index_dir=index_dir, data_dir=tmp_path / "data")
    library.update_index()
    library.close()
    options = ["--listings", str(SEEDS), "--index-dir", str(index_dir), "--reps", "1", "--whoosh-baseline"]
    result = subprocess.run(
        [sys.executable, str(BENCH), *options],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=tmp_path,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    table = result.stdout
    assert "== 49 papers" in table
    for work in (
        "keystroke, first pass (new session)",
        "keystroke, typed again",
        "keystroke, before (Whoosh collector)",
        "top-20 mix, 1 reps each",
        "top-20 mix without fuzzy (FTS5 has none)",
    ):
        assert work in table, work
    for line in table.splitlines():
        if line.startswith("keystroke") or "without fuzzy" in line:
            assert len(re.findall(r"\d+\.\d+x", line)) == 2, line  # p50 and p95 ratios to FTS5
    # The FTS5 database and the reader's data lived in a temporary directory under TMPDIR.
    assert sorted(path.name for path in tmp_path.iterdir()) == ["data", "index"]
