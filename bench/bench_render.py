"""Time rendering and headlines over the real corpus: run by hand, prints numbers, asserts nothing.

With `--base DIR` (another checkout, e.g. `git archive 3409a54 | tar -x -C /tmp/render-base`) it also times
rendering against that checkout: each side in its own process, the two taking turns one round each, as
bench_headline.py does, and prints the ratio of the best rounds and the median of the paired rounds' ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.bench_headline import print_ratios, take_turns  # noqa: E402
from index.headline.pipeline import headlines  # noqa: E402
from index.render.abstract import needs_rendering, to_plain  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus" / "listings"


def read_abstracts(folder: Path, limit: int | None) -> list[str]:
    """Paragraphs after each file's header line: the listing format, read the simplest way."""
    abstracts: list[str] = []
    for path in sorted(folder.glob("*.txt")):
        paragraphs = path.read_text(encoding="utf-8", errors="replace").split("\n\n")
        abstracts.extend(p.strip() for p in paragraphs[1:] if p.strip())
        if limit is not None and len(abstracts) >= limit:
            return abstracts[:limit]
    return abstracts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--listings", type=Path, default=CORPUS, help="folder of listing .txt files")
    parser.add_argument("--limit", type=int, default=None, help="only the first N abstracts (quick runs)")
    parser.add_argument("--base", type=Path, help="another checkout to time rendering against")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per side with --base (default 5)")
    args = parser.parse_args()

    abstracts = read_abstracts(args.listings, args.limit)
    latex = sum(1 for a in abstracts if needs_rendering(a))

    # CPU time beside wall time: the machine is shared, and CPU time is what this code costs.
    start, cpu = time.perf_counter(), time.process_time()
    plain = [to_plain(a) for a in abstracts]
    render_s, render_cpu = time.perf_counter() - start, time.process_time() - cpu

    start, cpu = time.perf_counter(), time.process_time()
    headlines(plain)  # a batch at a time, as the index build makes them
    headline_s, headline_cpu = time.perf_counter() - start, time.process_time() - cpu

    n = max(len(abstracts), 1)
    print(f"abstracts:            {len(abstracts)} from {args.listings}")
    print(f"took the LaTeX path:  {latex} ({100 * latex / n:.1f}%)")
    print(f"render:    {render_s:.2f} s wall, {render_cpu:.2f} s CPU", end="; ")
    print(f"per 10k abstracts {render_cpu * 1e4 / n:.2f} s CPU")
    print(f"headline:  {headline_s:.2f} s wall, {headline_cpu:.2f} s CPU", end="; ")
    print(f"per abstract {headline_cpu * 1e6 / n:.1f} µs CPU")
    print(f"load average while running: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    if args.base is not None:
        with tempfile.TemporaryDirectory() as folder:
            data = Path(folder) / "abstracts.json"
            data.write_text(json.dumps(abstracts), encoding="utf-8")
            times = take_turns({"this tree": REPO, "base": args.base.resolve()}, data, args.rounds, "render")
        for name, rounds in times.items():
            best = min(rounds)
            print(f"render, {name:9}: best of {len(rounds)} rounds {best:.2f} s CPU, {best / n * 1e6:.1f} us")
        print_ratios(times)


if __name__ == "__main__":
    main()
