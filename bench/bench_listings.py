"""Time reading, id+merge and headline+render over the real corpus: run by hand, prints numbers only.

`.venv/bin/python bench/bench_listings.py` reads /work/shared/corpus/listings (seed-format text) and
/work/shared/corpus/jsonl (JSON Lines exports) separately, then both together, and prints seconds per
10,000 papers for each phase plus the peak memory of the read. `--repeat N` takes the best of N runs.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from index.listings.catalog import made_headlines  # noqa: E402
from index.listings.identity import merge  # noqa: E402
from index.listings.reader import read_listings  # noqa: E402
from index.models import Entry, Listing  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus"


T = TypeVar("T")


def _best(repeat: int, work: Callable[[], T]) -> tuple[float, T]:
    best: float = float("inf")
    result: T | None = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    assert result is not None
    return best, result


def _no_headline(entry: Entry) -> str:
    return ""


def bench(label: str, paths: list[Path], repeat: int) -> None:
    read_s, (listings, notices) = _best(repeat, lambda: read_listings(paths))
    merge_s, catalog = _best(repeat, lambda: merge(listings, _no_headline))
    headline_s, _ = _best(1, lambda: made_headlines(catalog.papers))  # in batches, as loading makes them
    tracemalloc.start()
    kept: list[Listing] = read_listings(paths)[0]
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    size_mb = sum(path.stat().st_size for folder in paths for path in folder.iterdir()) / 1e6
    papers = len(catalog.papers)
    per = 10_000 / max(catalog.paragraphs, 1)
    print(
        f"{label}: {len(listings)} files, {size_mb:.0f} MB, {catalog.paragraphs} paragraphs, "
        f"{papers} papers, {catalog.duplicates} duplicates, {len(notices)} notices"
    )
    print(f"  read             {read_s:6.2f} s   {read_s * per:5.3f} s / 10k")
    print(f"  id+merge         {merge_s:6.2f} s   {merge_s * per:5.3f} s / 10k")
    print(f"  read+merge       {read_s + merge_s:6.2f} s   {(read_s + merge_s) * per:5.3f} s / 10k")
    print(f"  headline+render  {headline_s:6.2f} s   {headline_s * per:5.3f} s / 10k")
    print(f"  peak memory of the read: {peak / 1e6:.0f} MB ({peak / max(catalog.paragraphs, 1):.0f} B/paper)")
    del kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=1, help="best of N runs for read and merge")
    args = parser.parse_args()
    text, jsonl = CORPUS / "listings", CORPUS / "jsonl"
    bench("text listings", [text], args.repeat)
    bench("jsonl exports", [jsonl], args.repeat)
    bench("both together", [text, jsonl], args.repeat)


if __name__ == "__main__":
    main()
