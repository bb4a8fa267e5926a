"""The reader's own first build, headless: time to the first screen, to search working, peak RSS; beside
`papers index` on the same listings in the same run (the baseline).

Run by hand: `.venv/bin/python bench/bench_first_build.py [LISTINGS ...]` (default: the shared 56k corpus,
then the 250k corpus that `bench/corpus250k.py` writes to /tmp/papers-corpus250k, when it exists). Each run
is a fresh process with an empty index directory, so nothing is reused; RSS is the reader's and, separately,
its second indexing process's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULTS = (REPO.parent / "shared" / "corpus" / "listings", Path("/tmp/papers-corpus250k"))
QUERY = "diffusion"
LIMIT = 1800.0
"""Seconds before a first build counts as hung."""


async def _reader_first_build(listings: Path, work: Path) -> dict[str, float | int | str]:
    """One reader on `listings` with no index: when the list shows, when search answers, what it found."""
    sys.path.insert(0, str(REPO))
    from index.library import Library
    from tests.tui.helpers import browse, reader, status_text

    started = time.perf_counter()
    library = Library.open([listings], index_dir=work / "index", data_dir=work / "data", reader=True)
    try:
        app = reader(library)
        async with app.run_test(size=(120, 40)) as pilot:
            while not browse(app).paper_list.ids:
                await pilot.pause(0.05)
            first_screen = time.perf_counter() - started
            progress_seen = ""
            while not library.index_ready or "indexing" in status_text(app):
                status = status_text(app)
                if "unavailable" in status:
                    return {"error": status}
                if "indexing" in status:
                    progress_seen = status
                if time.perf_counter() - started > LIMIT:
                    return {"error": f"no index after {LIMIT:.0f} s"}
                await pilot.pause(0.5)
            ready = time.perf_counter() - started
            await pilot.press("slash", *QUERY, "enter")
            while browse(app).outcome.query != QUERY:
                await pilot.pause(0.05)
            return {
                "papers": len(library.papers),
                "first_screen_s": round(first_screen, 2),
                "search_ready_s": round(ready, 1),
                "hits": len(browse(app).paper_list.ids),
                "progress_seen": "indexing" in progress_seen,
                "left_behind": sorted(
                    p.name
                    for p in (work / "index").iterdir()
                    if p.name.startswith("build-") and not p.is_symlink()
                ),
            }
    finally:
        library.close()


def _child(listings: Path) -> None:
    with tempfile.TemporaryDirectory() as work:
        result = asyncio.run(_reader_first_build(listings, Path(work)))
        live = Path(work) / "index" / "current"
        if live.exists():
            result["left_behind"] = [
                name for name in result.get("left_behind", []) if name != live.readlink().name
            ]
    result["reader_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    result["child_rss_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    print(json.dumps(result))


def _papers_index(listings: Path) -> tuple[float, int]:
    """`papers index` into an empty directory: seconds and peak RSS (MB) of the command."""
    with tempfile.TemporaryDirectory() as work:
        command = [sys.executable, "-m", "index.cli", "--listings", str(listings), "--index-dir", f"{work}/i",
                   "--data-dir", f"{work}/d", "index"]  # fmt: skip
        started = time.perf_counter()
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        subprocess.run(command, check=True, capture_output=True, cwd=REPO, timeout=LIMIT)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        return time.perf_counter() - started, max(peak, before) // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("listings", nargs="*", type=Path)
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child)
        return
    for listings in args.listings or [path for path in DEFAULTS if path.exists()]:
        seconds, rss = _papers_index(listings)
        run = subprocess.run(
            [sys.executable, __file__, "--child", str(listings)], capture_output=True, text=True, cwd=REPO
        )
        lines = run.stdout.strip().splitlines()
        reader = json.loads(lines[-1]) if run.returncode == 0 and lines else {"error": run.stderr[-400:]}
        print(f"{listings}")
        print(f"  papers index (baseline):  {seconds:6.1f} s, peak RSS {rss} MB")
        if "error" in reader:
            print(f"  reader first build FAILED: {reader['error']}")
            continue
        print(f"  reader first screen:      {reader['first_screen_s']:6.2f} s ({reader['papers']} papers)")
        print(
            f"  reader search working:    {reader['search_ready_s']:6.1f} s "
            f"({reader['search_ready_s'] / seconds:.2f}x papers index), '{QUERY}' -> {reader['hits']}"
        )
        print(
            f"  progress shown: {reader['progress_seen']}; left behind: {reader['left_behind'] or 'nothing'}"
        )
        print(
            f"  peak RSS: reader {reader['reader_rss_mb']} MB, its second indexing process "
            f"{reader['child_rss_mb']} MB"
        )


if __name__ == "__main__":
    main()
