"""Time the state and export commands at scale against another checkout: run by hand, prints, asserts nothing.

    git worktree add /tmp/cli-base 3fd3500
    .venv/bin/python bench/bench_cli.py --base /tmp/cli-base            # the 56k title-less listings
    .venv/bin/python bench/bench_cli.py --base /tmp/cli-base --listings ../shared/corpus/jsonl

Each side runs `python -m index.cli` from its own tree (PYTHONPATH), with this venv's packages, over its own
index of the same listings (built first: the two may differ in schema) and its own copy of one data
directory with a few starred papers. The sides take turns, one command each, so a drift of the shared
machine's speed lands on both; the best of `--rounds` counts. Printed: seconds per command for each side
and base / this, the speed-up.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus" / "listings"
STARS = 5
"""Papers starred before timing: `starred` and the exports of the starred papers have something to list."""


class Side:
    """One checkout: its tree, its index of the listings and its data directory."""

    def __init__(self, name: str, tree: Path, scratch: Path, listings: Path) -> None:
        self.name = name
        self.tree = tree
        self.listings = listings
        self.index_dir = scratch / f"{name}-index"
        self.data_dir = scratch / f"{name}-data"

    def run(self, *command: str, check: bool = True) -> tuple[float, str]:
        """Seconds one command takes as a user runs it (a fresh process), and its standard output."""
        argv = [sys.executable, "-m", "index.cli", *command, "--listings", str(self.listings)]
        argv += ["--index-dir", str(self.index_dir), "--data-dir", str(self.data_dir)]
        env = {**os.environ, "PYTHONPATH": str(self.tree), "PAPERS_CONFIG": os.devnull}
        start = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=self.tree, check=False)
        seconds = time.perf_counter() - start
        if check and done.returncode != 0:
            raise SystemExit(f"{self.name}: papers {' '.join(command)} failed: {done.stderr.strip()}")
        return seconds, done.stdout


def commands(paper_id: str) -> list[tuple[str, ...]]:
    """What is timed: the state and export commands the issue names, then the ones that were fast already."""
    return [
        ("star", paper_id),
        ("starred",),
        ("export", "--format", "json"),
        ("export", "--format", "markdown"),
        ("export", "--format", "csv"),
        ("export", "--format", "bibtex"),
        ("export", "--starred", "--format", "bibtex"),
        ("show", paper_id),
        ("stats",),
        ("search", "graph"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="the other checkout's tree")
    parser.add_argument("--listings", type=Path, default=CORPUS)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        sides = [
            Side("base", args.base.resolve(), scratch, args.listings),
            Side("this", REPO, scratch, args.listings),
        ]
        for side in sides:
            seconds, _ = side.run("index")
            print(f"{side.name}: index built in {seconds:.1f} s", flush=True)
        ids = [line.split()[0] for line in sides[1].run("list")[1].splitlines()[:STARS]]
        sides[1].run("star", *ids)
        shutil.copytree(sides[1].data_dir, sides[0].data_dir)
        best: dict[tuple[str, tuple[str, ...]], float] = {}
        for _round in range(args.rounds):
            for command in commands(ids[0]):
                for side in sides:
                    seconds, _ = side.run(*command)
                    key = (side.name, command)
                    best[key] = min(best.get(key, seconds), seconds)
        print(f"\n{'command':<40} {'base s':>8} {'this s':>8} {'base/this':>10}")
        for command in commands(ids[0]):
            base, this = best[("base", command)], best[("this", command)]
            print(f"{'papers ' + ' '.join(command):<40} {base:8.2f} {this:8.2f} {base / this:9.1f}x")


if __name__ == "__main__":
    main()
