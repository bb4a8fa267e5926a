"""The slowest queries of a pathological set, before and after bounding them, timed in the same run.

Run by hand (it prints numbers and asserts nothing), nice'd, on an index built beforehand with `papers index`:

    nice .venv/bin/python bench/bench_query_bounds.py --listings DIR --index-dir IX [--base REV] [--timeout S]

Each query runs in a fresh process per code version (this checkout, and `--base`, checked out into a
temporary `git worktree`): open the index with `SearchIndex.open` (which never writes, so both versions share
one index), warm it with one ordinary query, then time what `Library.view` asks of the index for the query:
`match`, and "did you mean" when it found little. A run past `--timeout` seconds is killed and reported as
such. The target: every query answers (or says why it stopped) within 2 s at 250k papers.
At 250k: `.venv/bin/python bench/corpus250k.py /tmp/papers-corpus250k`, `papers index` it, then
`--listings /tmp/papers-corpus250k`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

QUERIES = {
    "*": "*",
    "?*": "?*",
    "*a*": "*a*",
    "*former": "*former",
    "representationlearning~9": "representationlearning~9",
    "1000 x word~2": "",  # a thousand distinct words of the listings, each `~2` (`fuzzy_words`)
    "10k characters": " ".join(["representation", "learning", "graph", "network"] * 700)[:10_000],
    "year:abc": "year:abc",
}

_TIMED = """
import json, os, sys, threading, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from index.search.index import SUGGEST_BELOW, SearchIndex
index = SearchIndex.open(Path(sys.argv[2]))
index.match("diffusion models")
query, limit = sys.argv[3], float(sys.argv[4])
threading.Timer(limit, lambda: (print(json.dumps([None, 0, "killed"]), flush=True), os._exit(0))).start()
started = time.perf_counter()
matched = index.match(query)
if len(matched.ids) < SUGGEST_BELOW:
    index.suggest(matched)
print(json.dumps([time.perf_counter() - started, len(matched.ids), matched.notice]), flush=True)
os._exit(0)
"""


def fuzzy_words(listings: Path, count: int = 1000) -> str:
    """`count` distinct words of five letters or more from the listings, each allowed two typos."""
    words: dict[str, None] = {}
    for path in sorted(listings.glob("*.txt")):
        for word in path.read_text(encoding="utf-8").split():
            if len(word) >= 5 and word.isalpha() and word.islower():
                words.setdefault(word)
            if len(words) >= count:
                return " ".join(f"{word}~2" for word in words)
    return " ".join(f"{word}~2" for word in words)


def timed(repo: Path, index_dir: Path, query: str, timeout: float) -> tuple[float | None, int, str]:
    """Seconds `repo`'s code takes to answer `query` (None: stopped at `timeout`, counted from when the query
    starts, so a slow start-up on a loaded machine is not charged to it), its hits and its notice."""
    argv = [sys.executable, "-c", _TIMED, str(repo), str(index_dir), query, str(timeout)]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout + 600, cwd=repo)
    except subprocess.TimeoutExpired:
        return None, 0, "start-up and warm-up took over 10 minutes"
    if done.returncode != 0 or not done.stdout.strip():
        return None, 0, f"failed: {done.stderr.strip().splitlines()[-1:]}"
    seconds, hits, notice = json.loads(done.stdout.strip().splitlines()[-1])
    if seconds is None:
        return None, 0, f"killed after {timeout:g} s"
    return float(seconds), int(hits), str(notice or "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listings", type=Path, required=True, help="the listings the index was built from")
    parser.add_argument("--index-dir", type=Path, required=True, help="an index built with `papers index`")
    parser.add_argument("--base", default="19e1cb3", help="the revision to compare against")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a query is killed")
    args = parser.parse_args()
    QUERIES["1000 x word~2"] = fuzzy_words(args.listings)
    with tempfile.TemporaryDirectory(prefix="bench-bounds-") as scratch:
        base = Path(scratch) / "base"
        subprocess.run(
            ["git", "-C", str(REPO), "worktree", "add", "--detach", str(base), args.base], check=True
        )
        try:
            print(f"{args.listings} ({args.index_dir}); base {args.base}, timeout {args.timeout:g} s")
            print(f"{'query':<26} {'base s':>9} {'hits':>6} {'this s':>9} {'hits':>6}  notice (this)")
            for name, query in QUERIES.items():
                before, found_before, _ = timed(base, args.index_dir, query, args.timeout)
                after, found, said = timed(REPO, args.index_dir, query, args.timeout)
                shown = [
                    f"{value:9.2f}" if value is not None else f">{args.timeout:8g}"
                    for value in (before, after)
                ]
                print(
                    f"{name:<26} {shown[0]} {found_before:6d} {shown[1]} {found:6d}  {said[:90]}", flush=True
                )
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(base)], check=False)


if __name__ == "__main__":
    main()
