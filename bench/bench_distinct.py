"""Papers sharing a headline in a set of listings, before and after `shown_lines`, and what that costs.

Loads the listings as a full build makes their headlines (each paper's own line), counts the papers whose
line is alike another paper's (case and spacing aside, as `headline.distinct.key` compares), then times
`snapshot_encode.shown_lines` (what every snapshot write runs) and counts again. Prints numbers, asserts
nothing.

    .venv/bin/python bench/bench_distinct.py                 # the 56k title-less corpus listings
    .venv/bin/python bench/bench_distinct.py --examples 10   # and the largest groups, before and after
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from index.headline.distinct import key
from index.listings.catalog import load_catalog
from index.search.snapshot_encode import shown_lines

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "listings"
"""Beside the checkout, as the tests find it; pass the path from a worktree elsewhere."""


def sharing(lines: Sequence[str]) -> tuple[int, Counter[str]]:
    """Papers whose line another paper shows too, and each shared line's count."""
    counts = Counter(key(line) for line in lines)
    shared = Counter({line: count for line, count in counts.items() if count > 1})
    return sum(shared.values()), shared


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("listings", nargs="*", type=Path, default=[CORPUS])
    parser.add_argument("--examples", type=int, default=5, help="largest shared groups to print")
    args = parser.parse_args()
    began = time.perf_counter()
    catalog = load_catalog(args.listings)
    print(f"{len(catalog.papers)} papers, headlines made in {time.perf_counter() - began:.1f} s")
    lines = [paper.headline for paper in catalog.papers]
    before, groups = sharing(lines)
    print(f"before: {before} papers share their headline ({len(groups)} lines)")
    for line, count in groups.most_common(args.examples):
        print(f"  {count:4d} x {line}")
    began = time.perf_counter()
    shown = shown_lines(catalog)
    spent = time.perf_counter() - began
    after_lines = [shown.get(number, line) for number, line in enumerate(lines)]
    after, _ = sharing(after_lines)
    marked = sum(1 for line in shown.values() if line.endswith(")") and " (" in line)
    print(f"after: {after} papers share their headline; {len(shown)} lines changed, {marked} of them marked")
    print(f"shown_lines: {spent:.2f} s ({spent / max(len(shown), 1) * 1000:.2f} ms per changed line)")
    for line, _count in groups.most_common(min(args.examples, 2)):
        changed = [shown[n] for n, own in enumerate(lines) if key(own) == line and n in shown]
        print(f"  {line}: {changed[:8]}")


if __name__ == "__main__":
    main()
