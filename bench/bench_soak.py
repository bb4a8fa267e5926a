"""Memory over a long session: an hour of simulated key traffic in the reader, RSS sampled as it goes.

Run by hand: `.venv/bin/python bench/bench_soak.py` (the shared 56k corpus; `--corpus seeds` for a quick
look). The reader runs headless under Textual's `run_test` pilot and receives an hour of use as keys, one a
second by default (3,600 keys), as fast as it can take them: moving with j/k, queries typed and cleared,
stars and unstars, papers opened and closed, filters, sorts and "more like this". RSS is read from
/proc/self/statm every `--every` keys, with the number of live Python objects beside it.

A warm-up (`--warmup` keys, default 600: ten minutes of use) comes first and is shown but not judged:
Textual's bounded render caches (lru_cache(1024) and friends) fill during it, growth that stops by itself.

Baseline: an idle reader on the same listings in its own process, sampled at the same moments of the same
wall-clock time (it gets no keys; its timers and workers run as usual). Each run is a separate process, so
neither inherits the other's heap. The verdict compares the mean RSS of the last 10% of the hour's samples
with its first 10%: "flat" when the growth is under `--threshold` percent.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus" / "listings"
PAGE = os.sysconf("SC_PAGE_SIZE")
WORDS = [
    "diffusion",
    "graph",
    "transformer",
    "reinforcement",
    "language",
    "vision",
    "robust",
    "federated",
    "causal",
    "retrieval",
    "protein",
    "molecule",
    "agent",
    "reasoning",
    "sparse",
    "kernel",
    "bayesian",
    "contrastive",
    "adversarial",
    "benchmark",
    "quantization",
    "distillation",
    "privacy",
    "fairness",
    "speech",
    "video",
    "segmentation",
    "tabular",
    "optimizer",
    "convergence",
    "attention",
    "memory",
    "planning",
    "uncertainty",
    "calibration",
    "embedding",
    "tokenizer",
    "alignment",
]
"""Query words, cycled so the reader sees more distinct queries than any of its caches can hold."""

Sample = list[float]
"""[keys pressed, seconds, RSS MB, live Python objects]"""


def rss_mb() -> float:
    """Resident set size of this process, from /proc/self/statm (field 2, in pages)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE / 2**20


def key_traffic() -> Iterator[str]:
    """An endless, deterministic stream of key presses, in cycles of about one minute of use."""
    queries = itertools.cycle(WORDS)
    for cycle in itertools.count():
        yield "slash"
        yield from next(queries)  # typed letter by letter: every prefix is a search
        yield "enter"  # to the list
        yield from ["j"] * 8 + ["k"] * 3
        yield from ["enter", "j", "j", "space", "h"]  # open the paper, scroll, page, back
        yield from ["s", "j", "s", "k", "s"]  # star two, unstar one
        if cycle % 3 == 0:
            yield from ["m", "j", "j", "escape"]  # more like this, and back
        if cycle % 4 == 1:
            yield from ["o", "j", "3", "k", "1"]  # sort, starred only, all again
        if cycle % 5 == 2:
            yield from ["u", "n", "N"]  # undo, next/previous unread
        yield from ["slash", "escape", "enter"]  # clear the query, back to the list
        yield from ["j", "G", "g"] + ["j"] * 6


async def soak(args: argparse.Namespace, idle_seconds: float | None) -> dict[str, Any]:
    """Run the reader through warm-up + hour keys (or idle for `idle_seconds`); return the samples."""
    from index.library import Library
    from tui.app import make_app

    data_dir = tempfile.TemporaryDirectory(prefix="bench-soak-data-")
    library = Library.open([args.corpus], index_dir=args.index_dir, data_dir=Path(data_dir.name))
    assert library.index_ready, "the index was built just before; it should be current"
    app = make_app(library, debounce=0)
    samples: list[Sample] = []
    steps = args.warmup + args.keys
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        start = time.perf_counter()

        def sample(step: int) -> None:
            samples.append([step, time.perf_counter() - start, rss_mb(), len(gc.get_objects())])

        sample(0)
        traffic = key_traffic()
        for step in range(1, steps + 1):
            if idle_seconds is None:
                await pilot.press(next(traffic))
                if app.workers:  # a search is running: the next key waits for it, as a reader's eyes do
                    await app.workers.wait_for_complete()
            else:
                # The idle reader: the same moments of the same wall-clock time, with no key at all.
                await asyncio.sleep(max(0.0, start + idle_seconds * step / steps - time.perf_counter()))
            if step % args.every == 0 or step in (args.warmup, steps):
                sample(step)
        starred = library.marks.counts()[2]
    library.close()
    data_dir.cleanup()
    return {"samples": samples, "starred_at_end": starred}


def _ensure_index(listings: Path, index_dir: Path) -> None:
    """Build or update the index in a child process, so no run below carries the build's memory."""
    command = [sys.executable, "-m", "index.cli", "--listings", str(listings), "--index-dir", str(index_dir)]
    start = time.perf_counter()
    subprocess.run([*command, "index"], check=True, cwd=REPO, capture_output=True)
    print(f"(index made current in {time.perf_counter() - start:.1f} s, in a separate process)")


def _child(args: argparse.Namespace, mode: str, idle_seconds: float | None = None) -> dict[str, Any]:
    """One run in a fresh interpreter; its samples come back as JSON."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        command = [sys.executable, __file__, "--corpus", str(args.corpus), "--index-dir", str(args.index_dir)]
        command += ["--keys", str(args.keys), "--warmup", str(args.warmup), "--every", str(args.every)]
        command += ["--child", mode, "--out", out.name]
        if idle_seconds is not None:
            command += ["--idle-seconds", str(idle_seconds)]
        subprocess.run(command, check=True, cwd=REPO)
        result: dict[str, Any] = json.loads(Path(out.name).read_text())
        return result


def _growth(samples: list[Sample], warmup: int) -> tuple[float, float]:
    """RSS growth (MB, %) from the mean of the first 10% of the judged samples to the mean of the last 10%."""
    rss = [row[2] for row in samples if row[0] >= warmup]
    count = max(1, len(rss) // 10)
    first, last = statistics.fmean(rss[:count]), statistics.fmean(rss[-count:])
    return last - first, 100 * (last - first) / first


def report(args: argparse.Namespace, active: dict[str, Any], idle: dict[str, Any]) -> None:
    runs: list[Sample] = active["samples"]
    baseline = {int(row[0]): row for row in idle["samples"]}
    wall = runs[-1][1]
    total = args.warmup + args.keys
    print(
        f"\n{args.warmup} warm-up keys + {args.keys} keys ({args.keys / args.rate / 60:.0f} min of use at "
        f"{args.rate:g} key/s) in {wall:.0f} s, {total / wall:.1f} keys/s; stars at the end: "
        f"{active['starred_at_end']}"
    )
    header = ("keys", "seconds", "RSS MB", "objects", "idle RSS MB", "idle objects")
    print("{:>6} {:>8} {:>8} {:>9}   {:>11} {:>12}".format(*header))
    for step, seconds, rss, objects in runs:
        idle_row = baseline.get(int(step))
        idle_cols = f"{idle_row[2]:>11.1f} {int(idle_row[3]):>12}" if idle_row else ""
        mark = "  <- warm-up ends (judged from here)" if step == args.warmup and args.warmup else ""
        print(f"{int(step):>6} {seconds:>8.1f} {rss:>8.1f} {int(objects):>9}   {idle_cols}{mark}")
    grew_mb, grew_pct = _growth(runs, args.warmup)
    idle_mb, idle_pct = _growth(idle["samples"], args.warmup)
    judged = [row for row in runs if row[0] >= args.warmup]
    peak_ratio = max(row[2] for row in runs) / max(row[2] for row in idle["samples"])
    print(
        f"\nRSS growth after the warm-up (mean of its first 10% of samples -> last 10%): {grew_mb:+.1f} MB "
        f"({grew_pct:+.1f}%); idle baseline {idle_mb:+.1f} MB ({idle_pct:+.1f}%)"
    )
    print(
        f"live objects after the warm-up: {int(judged[-1][3] - judged[0][3]):+d}; "
        f"peak RSS active/idle: {peak_ratio:.2f}x"
    )
    verdict = "flat" if grew_pct < args.threshold else "GROWING"
    print(f"verdict: {verdict} (threshold {args.threshold:g}% growth)")


def main() -> int:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument(
        "--corpus", type=Path, default=CORPUS, help="listings (default: %(default)s; or seeds)"
    )
    parser.add_argument("--seconds", type=float, default=3600, help="simulated use (default: an hour)")
    parser.add_argument("--rate", type=float, default=1.0, help="keys per simulated second (default: 1)")
    parser.add_argument("--keys", type=int, help="number of judged keys (default: seconds x rate)")
    parser.add_argument("--warmup", type=int, default=600, help="keys before the judged hour (default: 600)")
    parser.add_argument("--every", type=int, default=100, help="sample every N keys (default: 100)")
    parser.add_argument("--threshold", type=float, default=5.0, help="'flat' below it, %% (default 5)")
    parser.add_argument("--index-dir", type=Path, help="default /tmp/papers-bench-index-<name>")
    parser.add_argument("--child", choices=["active", "idle"], help=argparse.SUPPRESS)
    parser.add_argument("--idle-seconds", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if str(args.corpus) == "seeds":
        args.corpus = REPO / "seeds"
    args.corpus = args.corpus.resolve()
    args.keys = args.keys or round(args.seconds * args.rate)
    args.index_dir = args.index_dir or Path(tempfile.gettempdir()) / f"papers-bench-index-{args.corpus.name}"
    if args.child:
        result = asyncio.run(soak(args, args.idle_seconds if args.child == "idle" else None))
        args.out.write_text(json.dumps(result))
        return 0
    print(f"{args.corpus}:")
    _ensure_index(args.corpus, args.index_dir)
    active = _child(args, "active")
    idle = _child(args, "idle", idle_seconds=active["samples"][-1][1])
    report(args, active, idle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
