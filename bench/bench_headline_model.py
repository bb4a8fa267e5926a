"""The learned headline model's time for the whole corpus on one core, in batches and singly: prints numbers.

    .venv/bin/python bench/bench_headline_model.py [--count N]

CPU time in one process (so one core) to make the headline of every paper of the corpus's listings
(`../shared/corpus/listings/`, 56,349 abstracts, rendered first and not timed): the learned model a batch at
a time (`index.headline.pipeline.headlines`, as an index build does), and one paper at a time for
the first 2000 (as the reader does for a paper shown before the index has its headline), with the ratio.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from index.headline.model import shipped  # noqa: E402
from index.headline.pipeline import headline, headlines  # noqa: E402
from index.render.abstract import to_plain  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus" / "listings"
ONE_AT_A_TIME = 2000


def corpus_plains(count: int) -> list[str]:
    raws: list[str] = []
    for path in sorted(CORPUS.glob("*.txt")):
        paragraphs = path.read_text(encoding="utf-8", errors="replace").split("\n\n")[1:]
        raws.extend(paragraph for paragraph in paragraphs if paragraph.strip())
    return [to_plain(raw) for raw in raws[:count]]


def cpu(work: Callable[[], object]) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--count", type=int, default=10**9, help="the first N abstracts only")
    args = parser.parse_args()
    plains = corpus_plains(args.count)
    shipped()  # loading the weights (once per process) is not a headline's cost
    batch = cpu(lambda: headlines(plains))
    each = batch / len(plains) * 1e6
    print(f"{len(plains)} abstracts, learned model in batches: {batch:.2f} s CPU, {each:.0f} µs a paper")
    few = plains[:ONE_AT_A_TIME]
    single = cpu(lambda: [headline(plain) for plain in few]) / len(few) * 1e6
    ratio = single / each
    print(f"learned model one at a time ({len(few)}): {single:.0f} µs a paper; {ratio:.2f}x a batch's time")


if __name__ == "__main__":
    main()
