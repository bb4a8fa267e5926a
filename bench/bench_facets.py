"""How long a facet recount takes per keystroke at 56k papers: `Library.facets` over a view's ids.

Run by hand (prints numbers, asserts nothing), on an index of the corpus built beforehand:
    papers index --listings /work/shared/corpus/listings --index-dir /tmp/fy56k
    .venv/bin/python bench/bench_facets.py --index-dir /tmp/fy56k [--runs 50]
Times facets over every paper (the empty query's View is counted once per index generation; its ids as a
plain sequence are counted each time), over real query results of about 10k and 100 papers, and over random
id sets of those sizes (these share the snapshot's string objects, so they hash faster). A baseline in the
same run counts the same ids by decoding each paper (what facets would cost without the snapshot's list
columns), and the query itself is timed for scale.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from index.library import Library  # noqa: E402
from index.search.snapshot import Snapshot  # noqa: E402

LISTINGS = REPO.parent / "shared" / "corpus" / "listings"


def percentiles(call: Callable[[], object], runs: int) -> str:
    times = []
    for _run in range(runs):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return f"p50 {statistics.median(times):7.2f} ms  p95 {p95:7.2f} ms"


def decoded(library: Library, ids: Sequence[str]) -> Counter[object]:
    """The baseline: every paper's record decoded from the snapshot (uncached, as on first sight), then
    counted."""
    snapshot = library.papers.source
    assert isinstance(snapshot, Snapshot)
    position = {paper_id: number for number, paper_id in enumerate(snapshot.ids)}
    counts: Counter[object] = Counter()
    for paper_id in ids:
        paper = snapshot._decode_paper(position[paper_id])
        counts.update([("venue", paper.venue), ("year", paper.year), ("status", paper.status)])
    return counts


def closest_query(library: Library, size: int, candidates: Sequence[str]) -> tuple[str, int]:
    found = [(abs(library.view(query).total - size), query) for query in candidates]
    _gap, query = min(found)
    return query, library.view(query).total


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--index-dir", type=Path, required=True)
    parser.add_argument("--listings", type=Path, default=LISTINGS)
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        library = Library.open([args.listings], args.index_dir, Path(data))
        try:
            run(library, args.runs)
        finally:
            library.close()


def run(library: Library, runs: int) -> None:
    assert library.index_ready, "no current index there: run `papers index` first"
    every = library.view("")
    library.discovery.facets(every)  # the position map, once per snapshot
    chooser = random.Random(1)
    large, large_n = closest_query(library, 10_000, ["network", "learning data", "model", "deep", "neural"])
    small, small_n = closest_query(library, 100, ["quaternion", "hyperbolic", "spiking", "knot", "origami"])
    cases = [
        (f"all {every.total} papers, as ids", every.ids),
        (f"{large!r}: {large_n} papers", library.view(large).ids),
        (f"{small!r}: {small_n} papers", library.view(small).ids),
        ("10,000 random ids", chooser.sample(list(every.ids), 10_000)),
        ("100 random ids", chooser.sample(list(every.ids), 100)),
    ]
    print(f"facets per keystroke at {every.total} papers, {runs} runs each:")
    facets = library.discovery.facets
    print(f"  {'the empty query (its View)':<34} {percentiles(lambda: facets(every), runs)}")
    for label, ids in cases:
        print(f"  {label:<34} {percentiles(lambda ids=ids: facets(ids), runs)}")
    print("baseline, decoding each paper's record instead of reading the list columns:")
    for label, ids in cases[:3]:
        print(f"  {label:<34} {percentiles(lambda ids=ids: decoded(library, ids), 3)}")
    print("for scale, the query itself (Library.view):")
    for query in ("", large, small):
        print(f"  {query!r:<34} {percentiles(lambda query=query: library.view(query), 10)}")


if __name__ == "__main__":
    main()
