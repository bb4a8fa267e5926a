"""Time `papers list` on the 56k corpus from a current index against parsing the listings: run by hand.

`.venv/bin/python bench/bench_list.py --index-dir DIR` runs `papers list` as a subprocess twice: with DIR (a
current index of the corpus: its snapshot holds the headlines) and with an empty index directory, which
makes it parse every listing and synthesize every headline (what it always did before). It prints seconds
for each, their ratio, and whether the outputs are identical. Without `--index-dir` it builds a throwaway
index first (~2.5 min). `--json` and `--stats` time `papers list --json` and `papers stats` the same way.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus" / "listings"
PAPERS = Path(sys.executable).with_name("papers")


def run(listings: Path, index_dir: Path, *command: str) -> tuple[float, bytes]:
    """Seconds one `papers` command takes, and its output."""
    start = time.perf_counter()
    done = subprocess.run(
        [str(PAPERS), "--listings", str(listings), "--index-dir", str(index_dir), *command],
        capture_output=True,
        check=True,
    )
    return time.perf_counter() - start, done.stdout


def compare(listings: Path, index_dir: Path, empty: Path, *command: str) -> None:
    indexed_s, indexed = run(listings, index_dir, *command)
    parsed_s, parsed = run(listings, empty, *command)
    if indexed == parsed:
        same = "identical output"
    else:
        differ = sum(a != b for a, b in zip(indexed.splitlines(), parsed.splitlines(), strict=False))
        same = f"OUTPUT DIFFERS in {differ} lines (an index built before a headline change?)"
    print(
        f"papers {' '.join(command)}: {indexed_s:.2f} s from the index, {parsed_s:.2f} s parsing "
        f"({parsed_s / indexed_s:.1f}x); {same}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listings", type=Path, default=CORPUS)
    parser.add_argument("--index-dir", type=Path, help="a current index of --listings (else one is built)")
    parser.add_argument("--json", action="store_true", help="also time `papers list --json`")
    parser.add_argument("--stats", action="store_true", help="also time `papers stats`")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        index_dir = args.index_dir
        if index_dir is None:
            index_dir = Path(tmp) / "index"
            seconds, _ = run(args.listings, index_dir, "index")
            print(f"built the index in {seconds:.0f} s")
        else:
            run(args.listings, index_dir, "index")  # brings it up to date, if it was not
        empty = Path(tmp) / "no-index"
        compare(args.listings, index_dir, empty, "list")
        if args.json:
            compare(args.listings, index_dir, empty, "list", "--json")
        if args.stats:
            compare(args.listings, index_dir, empty, "stats")


if __name__ == "__main__":
    main()
