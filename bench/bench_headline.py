"""Headline time per paper against another checkout (a base commit): prints numbers, asserts nothing.

The machine is shared, so each side runs in its own process, alternately, and the best round counts: the
least-disturbed CPU time is the closest to what the code costs. Both sides get the same plain abstracts.

    git archive c619c72 | tar -x -C /tmp/hl-base
    .venv/bin/python bench/bench_headline.py --base /tmp/hl-base --count 5000 --instructions 500

An install compiles this tree's rules with mypyc (hatch_build.py); PAPERS_PURE_PYTHON=1 times its
sources instead. The base runs as it was: pure Python.

CPU time on a shared machine swings by 30%; `--instructions N` also counts instructions under callgrind
(one round minus no round, so start-up and imports cancel, over N abstracts spread through the sample),
which repeats to within a percent. Instructions are a proxy that flatters Python-level code: a bytecode
costs more cycles than a regex engine's step (indirect-branch mispredictions, instruction-cache misses;
`valgrind --tool=callgrind --branch-sim=yes --cache-sim=yes` counts both), so trust CPU time for the verdict.
"""

from __future__ import annotations

import argparse
import json
import re
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


def _load_headline(root: Path) -> Callable[[str], str]:
    """`headline` from a checkout: the subpackage layout of today or the flat module of older commits."""
    sys.path.insert(0, str(root))
    try:
        from index.headline.synthesis import headline
    except ImportError:
        from index.headline import headline  # type: ignore[attr-defined,no-redef]
    return headline


def worker(root: Path, data: Path, rounds: int) -> None:
    """Print the CPU seconds of each round of headlines over the abstracts in `data`, one per line."""
    headline = _load_headline(root)
    abstracts: list[str] = json.loads(data.read_text(encoding="utf-8"))
    for abstract in abstracts[:50]:
        headline(abstract)  # warm the regex caches
    for _ in range(rounds):
        start = time.process_time()
        for abstract in abstracts:
            headline(abstract)
        print(time.process_time() - start, flush=True)


def _run(root: Path, data: Path, rounds: int) -> list[float]:
    out = subprocess.run(
        [sys.executable, __file__, "--worker", str(root), "--data", str(data), "--rounds", str(rounds)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [float(line) for line in out.split()]


def _instructions(root: Path, data: Path, rounds: int) -> int:
    """Instructions a worker executes under callgrind: counts, unlike CPU time, ignore the other tenants."""
    with tempfile.TemporaryDirectory() as folder:
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/cg.out", sys.executable]
        command += [__file__, "--worker", str(root), "--data", str(data), "--rounds", str(rounds)]
        out = subprocess.run(
            command,
            check=True,
            capture_output=True,
            text=True,
        ).stderr
    return int(re.findall(r"Collected : (\d+)", out)[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--base", type=Path, help="another checkout to compare with (e.g. /tmp/hl-base)")
    parser.add_argument("--count", type=int, default=5000, help="corpus abstracts to time")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per process")
    parser.add_argument("--repeat", type=int, default=3, help="processes per side, alternating")
    parser.add_argument("--listings", type=Path, default=CORPUS)
    parser.add_argument(
        "--instructions",
        type=int,
        metavar="N",
        help="also count instructions under valgrind over N abstracts",
    )
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--data", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        worker(args.worker, args.data, args.rounds)
        return

    sys.path.insert(0, str(REPO))
    from index.headline import is_compiled
    from index.render.abstract import to_plain

    print(f"this tree runs its headline rules {'compiled (mypyc)' if is_compiled() else 'as pure Python'}")

    plain = [to_plain(raw) for raw in spread_sample(args.listings, args.count)]
    sides = {"this tree": REPO} | ({"base": args.base.resolve()} if args.base is not None else {})
    best: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "abstracts.json"
        data.write_text(json.dumps(plain), encoding="utf-8")
        for _ in range(args.repeat):
            for name, root in sides.items():
                times = _run(root, data, args.rounds)
                best[name] = min([best.get(name, float("inf")), *times])
    for name, seconds in best.items():
        print(
            f"{name:10} {len(plain)} headlines: best round {seconds:.3f} s CPU, "
            f"{seconds / len(plain) * 1e6:.1f} us per headline"
        )
    if "base" in best:
        print(f"ratio this tree / base: {best['this tree'] / best['base']:.3f}")
    if args.instructions:  # one round minus no round: the headlines alone, without start-up and imports
        counts: dict[str, float] = {}
        with tempfile.TemporaryDirectory() as folder:
            data = Path(folder) / "abstracts.json"
            step = max(1, len(plain) // args.instructions)  # spread like the sample, not its first venues
            data.write_text(json.dumps(plain[step // 2 :: step][: args.instructions]), encoding="utf-8")
            for name, root in sides.items():
                spent = _instructions(root, data, 1) - _instructions(root, data, 0)
                counts[name] = spent / args.instructions
                print(f"{name:10} {counts[name] / 1e3:.0f}k instructions per headline (callgrind)")
        if "base" in counts:
            print(f"instruction ratio this tree / base: {counts['this tree'] / counts['base']:.3f}")


if __name__ == "__main__":
    main()
