"""The project's own index (`index.search.SearchIndex`), driven the way the reader drives it."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.search_report import QueryTimes
from index.models import Catalog
from index.search.index import SearchIndex

REPO = Path(__file__).resolve().parent.parent

_OPEN_PROBE = """
import json, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from index.search.index import SearchIndex  # imported before the clock starts: `open` is what is timed
start = time.perf_counter()
ix = SearchIndex.open(Path(sys.argv[2]))
opened = time.perf_counter()
ix.search(sys.argv[3], limit=20)
done = time.perf_counter()
ix.maintenance.close()
print(json.dumps({"open": opened - start, "first_query": done - opened}))
"""


def open_seconds(index_dir: Path, cheap_query: str, runs: int) -> tuple[float, float]:
    """Median (open, open + first top-20 search) over `runs` fresh processes: what a reader start-up pays.

    The first search also loads the catalog snapshot and the id column, which a warm process had cached.
    """
    opens, totals = [], []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", _OPEN_PROBE, str(REPO), str(index_dir), cheap_query],
            capture_output=True,
            text=True,
            check=True,
            timeout=300,
        )
        numbers = json.loads(out.stdout)
        opens.append(numbers["open"])
        totals.append(numbers["open"] + numbers["first_query"])
    return statistics.median(opens), statistics.median(totals)


def build(index_dir: Path, catalog: Catalog) -> tuple[SearchIndex, float]:
    """A full build into an empty directory, timed by wall clock (the build forks a second process)."""
    start = time.perf_counter()
    ix = SearchIndex.open(index_dir)
    report = ix.maintenance.rebuild(catalog)
    seconds = time.perf_counter() - start
    if report.papers != len(catalog.papers):
        print(
            f"bench_search: whoosh built {report.papers} papers, catalog has {len(catalog.papers)}",
            file=sys.stderr,
        )
    return ix, seconds


def add(ix: SearchIndex, catalog: Catalog, expected: int) -> tuple[float, str | None]:
    """An incremental update to `catalog` (old listings + one new file); a note if it did more than add."""
    start = time.perf_counter()
    report = ix.maintenance.update(catalog)
    seconds = time.perf_counter() - start
    if report.rebuilt or report.added != expected or report.updated or report.removed:
        return seconds, (
            f"update did more than add {expected}: added {report.added}, updated {report.updated}, "
            f"removed {report.removed}, rebuilt={report.rebuilt} {report.reason}"
        )
    return seconds, None


def _forget_results(ix: SearchIndex) -> None:
    """Drop the per-query result cache so every repetition ranks afresh, as a new query from a user would.

    SearchIndex keeps the last 64 ranked queries until the next commit; 30 repetitions of one query would
    otherwise time a dictionary lookup plus highlighting. There is no public switch, hence the private name.
    """
    ranker: Any = getattr(ix, "_ranker", None)
    cache: Any = getattr(ranker, "_cache", None)
    if cache is not None:
        cache.clear()


def time_query(ix: SearchIndex, query: str, reps: int) -> tuple[QueryTimes, float]:
    """p50/p95 inputs for one query (cache cleared each time), and the p50 of a cached repeat in seconds."""
    everything = ix.search(query, limit=None, highlight_top=0)
    times = QueryTimes(hits=len(everything.ids), note=everything.notice)
    _forget_results(ix)
    ix.search(query, limit=20, highlight_top=20)  # warm-up: first use of the query's terms
    result = None
    for _ in range(reps):
        _forget_results(ix)
        start = time.perf_counter()
        result = ix.search(query, limit=20, highlight_top=20)
        times.seconds.append(time.perf_counter() - start)
    assert result is not None
    with_snippet = sum(1 for hit in result.hits if hit.snippet is not None)
    if with_snippet < min(20, times.hits or 0):
        extra = f"only {with_snippet} of the top {len(result.hits)} hits carried a snippet"
        times.note = f"{times.note}; {extra}" if times.note else extra
    cached = []
    for _ in range(min(reps, 5)):
        start = time.perf_counter()
        ix.search(query, limit=20, highlight_top=20)
        cached.append(time.perf_counter() - start)
    return times, statistics.median(cached)
