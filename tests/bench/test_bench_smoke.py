"""bench/bench_search.py runs end to end on the seeds and prints its table (numbers unjudged)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO, SEEDS

BENCH = REPO / "bench" / "bench_search.py"
QUERIES = (
    "diffusion",
    "graph neural",
    '"gradient descent"',
    "diffu*",
    "difusion~",
    "title:graph",
    "year:[2018 TO 2020] learning",
    "6 words",
)


def test_bench_search_prints_the_table_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "numbers.json"
    options = ["--corpus", str(SEEDS), "--subset", "49", "--reps", "1", "--add", "20", "--open-runs", "1"]
    result = subprocess.run(
        [sys.executable, str(BENCH), *options, "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    table = result.stdout
    assert "== full corpus: 49 papers" in table
    for column in ("whoosh", "fts5", "naive", "whoosh/fts5", "whoosh/naive", "target", "verdict"):
        assert column in table
    for metric in ("full build", "add 20 papers (update)", "index size on disk", "open + 1st query"):
        assert metric in table
    for query in QUERIES:
        assert f"\n{query} " in table, query
    # 49 papers are far below the 56k the targets are set for, so verdicts are only indicative.
    assert "(PASS)" in table or "(MISS)" in table

    numbers = json.loads(out.read_text(encoding="utf-8"))
    [run] = numbers["runs"]
    assert run["papers"] == 49
    assert run["added"] == 20
    assert run["whoosh"]["add_note"] is None, run["whoosh"]["add_note"]
    for engine in ("whoosh", "fts5"):
        for key in ("build_s", "add_s", "size_mb", "open_s", "open_query_s"):
            assert run[engine][key] > 0, (engine, key)
    assert run["whoosh"]["queries"]["diffusion"]["hits"] > 0
    assert run["fts5"]["queries"]["diffusion"]["hits"] > 0
    assert "difusion~" not in run["fts5"]["queries"]
    # Nothing was left behind: every index lived in a temporary directory under TMPDIR.
    assert sorted(path.name for path in tmp_path.iterdir()) == ["numbers.json"]
