"""Headline time per paper against another checkout (a base commit): prints numbers, asserts nothing.

Each side makes the headlines of the same plain abstracts the way an index build does: the learned model
(`index.headline.pipeline.headlines`) a batch at a time, or, in a checkout from before it, the
hand-written rules (`index.headline.synthesis.headline`) one paper at a time. `bench_headline_model.py`
times this tree alone over the whole corpus, in batches and one at a time.

The machine is shared and its CPU speed drifts by a quarter over seconds, so each side runs in its own
process and the two take turns, one round each: the best round of each side counts (the least-disturbed CPU
time is the closest to what the code costs), and so does the median of the rounds' ratios (each pair of
rounds ran seconds apart). Both sides get the same plain abstracts.

    git archive 3393dca | tar -x -C /tmp/hl-base
    .venv/bin/python bench/bench_headline.py --base /tmp/hl-base --count 5000 --instructions 500

CPU time on a shared machine swings by 30%; `--instructions N` also runs N abstracts spread through the
sample under callgrind with its branch and cache simulation (one round minus no round, so start-up and
imports cancel), whose counts repeat to within a percent: instructions, branch mispredictions, and L1
instruction- and data-cache misses. Instructions alone flatter Python-level code, since a bytecode costs
more cycles than a regex engine's step (indirect-branch mispredictions, instruction-cache misses): read the
four together, and CPU time for the verdict.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus" / "listings"


def spread_sample(folder: Path, count: int) -> list[str]:
    """Every k-th paragraph of the corpus in sorted-file order: spread over venues and years, and fixed."""
    raws: list[str] = []
    for path in sorted(folder.glob("*.txt")):
        paragraphs = path.read_text(encoding="utf-8", errors="replace").split("\n\n")[1:]
        raws.extend(p for p in paragraphs if p.strip())
    step = max(1, len(raws) // count)
    return raws[step // 2 :: step][:count]


def _load(root: Path, stage: str) -> Callable[[list[str]], object]:
    """The stage from a checkout, over a list of texts: headlines (see the module's docstring) or, for
    "render", `to_plain` of each, from today's subpackages or an older flat module."""
    sys.path.insert(0, str(root))
    if stage == "render":
        try:
            from index.render.abstract import to_plain
        except ImportError:
            from index.render import to_plain  # type: ignore[attr-defined,no-redef]
        return lambda texts: [to_plain(text) for text in texts]
    try:
        from index.headline.pipeline import headlines
    except ImportError:  # a checkout from before the learned model: its rules, one paper at a time
        from index.headline.synthesis import headline  # type: ignore[import-not-found]

        return lambda texts: [headline(text) for text in texts]
    return headlines


def worker(root: Path, data: Path, rounds: int | None, stage: str = "headline") -> None:
    """Print the CPU seconds of each round of the stage over the texts in `data`, one per line: `rounds` of
    them, or (None) one for each line read from stdin, so that two workers can take turns."""
    run = _load(root, stage)
    texts: list[str] = json.loads(data.read_text(encoding="utf-8"))
    run(texts[:50])  # warm the regex caches and load the model's weights
    for _ in range(rounds) if rounds is not None else sys.stdin:
        start = time.process_time()
        run(texts)
        print(time.process_time() - start, flush=True)


def take_turns(
    sides: dict[str, Path], data: Path, rounds: int, stage: str = "headline"
) -> dict[str, list[float]]:
    """CPU seconds of each side's rounds, the sides' workers running one round each in turn."""
    command = [sys.executable, __file__, "--data", str(data), "--stage", stage, "--worker"]
    workers = {
        name: subprocess.Popen(
            [*command, str(root)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        for name, root in sides.items()
    }
    times: dict[str, list[float]] = {name: [] for name in sides}
    try:
        for _ in range(rounds):
            for name, process in workers.items():
                assert process.stdin is not None and process.stdout is not None
                process.stdin.write("\n")
                process.stdin.flush()
                times[name].append(float(process.stdout.readline()))
    finally:
        for process in workers.values():
            process.communicate()
    return times


# callgrind's summary lines, with each event's total as the first number: what a headline costs the CPU.
_EVENTS = {
    "instructions": "I   refs",
    "branch mispredictions": "Mispredicts",
    "L1i misses": "I1  misses",
    "L1d misses": "D1  misses",
}


def _simulated(root: Path, data: Path, rounds: int) -> dict[str, int]:
    """Event counts of a worker under callgrind: counts, unlike CPU time, ignore the other tenants."""
    with tempfile.TemporaryDirectory() as folder:
        command = ["valgrind", "--tool=callgrind", "--branch-sim=yes", "--cache-sim=yes"]
        command += [f"--callgrind-out-file={folder}/cg.out", sys.executable, __file__, "--worker", str(root)]
        command += ["--data", str(data), "--rounds", str(rounds)]
        out = subprocess.run(command, check=True, capture_output=True, text=True).stderr
    return {
        event: int(re.findall(rf"{label}:\s+([\d,]+)", out)[-1].replace(",", ""))
        for event, label in _EVENTS.items()
    }


def print_ratios(times: dict[str, list[float]]) -> None:
    """This tree's CPU time over the base's: best round over best round, and the median of paired rounds."""
    ratios = sorted(ours / base for ours, base in zip(times["this tree"], times["base"], strict=True))
    best = min(times["this tree"]) / min(times["base"])
    print(f"ratio this tree / base: {best:.3f} (best rounds), {statistics.median(ratios):.3f} (median of")
    print(f"  the rounds' ratios, which range {ratios[0]:.3f}-{ratios[-1]:.3f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--base", type=Path, help="another checkout to compare with (e.g. /tmp/hl-base)")
    parser.add_argument("--count", type=int, default=5000, help="corpus abstracts to time")
    parser.add_argument("--rounds", type=int, help="rounds per side, taken in turns (default 15)")
    parser.add_argument("--listings", type=Path, default=CORPUS)
    parser.add_argument(
        "--instructions",
        type=int,
        metavar="N",
        help="also count instructions under valgrind over N abstracts",
    )
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--data", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--stage", default="headline", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        worker(args.worker, args.data, args.rounds, args.stage)
        return

    sys.path.insert(0, str(REPO))
    from index.render.abstract import to_plain

    plain = [to_plain(raw) for raw in spread_sample(args.listings, args.count)]
    sides = {"this tree": REPO} | ({"base": args.base.resolve()} if args.base is not None else {})
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "abstracts.json"
        data.write_text(json.dumps(plain), encoding="utf-8")
        times = take_turns(sides, data, args.rounds or 15)
    for name, rounds in times.items():
        print(
            f"{name:10} {len(plain)} headlines: best of {len(rounds)} rounds {min(rounds):.3f} s CPU, "
            f"{min(rounds) / len(plain) * 1e6:.1f} us per headline"
        )
    if "base" in times:
        print_ratios(times)
    if args.instructions:  # one round minus no round: the headlines alone, without start-up and imports
        counts: dict[str, dict[str, float]] = {}
        with tempfile.TemporaryDirectory() as folder:
            data = Path(folder) / "abstracts.json"
            step = max(1, len(plain) // args.instructions)  # spread like the sample, not its first venues
            data.write_text(json.dumps(plain[step // 2 :: step][: args.instructions]), encoding="utf-8")
            for name, root in sides.items():
                one, none = _simulated(root, data, 1), _simulated(root, data, 0)
                counts[name] = {event: (one[event] - none[event]) / args.instructions for event in _EVENTS}
        print(f"per headline, under callgrind ({args.instructions} abstracts):")
        for event in _EVENTS:
            line = "".join(f"  {name} {counts[name][event] / 1e3:7.1f}k" for name in counts)
            ratio = (
                f"  ratio {counts['this tree'][event] / counts['base'][event]:.3f}"
                if "base" in counts
                else ""
            )
            print(f"  {event:22}{line}{ratio}")


if __name__ == "__main__":
    main()
