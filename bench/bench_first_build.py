"""The reader's own first build, headless: time to the first screen, to search working, peak RSS; beside
`papers index` on the same listings in the same run (the baseline).

Run by hand: `.venv/bin/python bench/bench_first_build.py [LISTINGS ...]` (default: the shared 56k corpus,
then the 250k corpus that `bench/corpus250k.py` writes to /tmp/papers-corpus250k, when it exists). Each run
is a fresh process with an empty index directory, so nothing is reused; RSS is the reader's and, separately,
its second indexing process's. `--screen-only` stops once every paper is listed (seconds, not minutes), with
reading every listing (what the reader did before its first paint until it painted the first files first)
as the baseline.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULTS = (REPO.parent / "shared" / "corpus" / "listings", Path("/tmp/papers-corpus250k"))
QUERY = "diffusion"
LIMIT = 1800.0
"""Seconds before a first build counts as hung."""


async def _reader_first_build(listings: Path, work: Path, screen_only: bool) -> dict[str, float | int | str]:
    """One reader on `listings` with no index: when the list shows (counted from before the reader's modules
    are imported, as bench_tui counts), when search answers, what it found."""
    started = time.perf_counter()
    sys.path.insert(0, str(REPO))
    from index.library import Library
    from tests.tui.helpers import browse, reader, status_text

    library = Library.open([listings], index_dir=work / "index", data_dir=work / "data", reader=True)
    try:
        app = reader(library)
        async with app.run_test(size=(120, 40)) as pilot:
            while not browse(app).paper_list.ids:  # pause(0.05) sleeps; a bare pause() waits for idle
                await pilot.pause(0.05)
            first_screen = time.perf_counter() - started
            first_rows = len(browse(app).paper_list.ids)
            while not library.papers_complete or len(browse(app).paper_list.ids) < len(library.papers):
                await pilot.pause(0.05)
            all_listed = time.perf_counter() - started
            if screen_only:
                return {
                    "papers": len(library.papers),
                    "first_screen_s": round(first_screen, 2),
                    "first_rows": first_rows,
                    "all_listed_s": round(all_listed, 2),
                }
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
                "first_rows": first_rows,
                "all_listed_s": round(all_listed, 2),
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


def _child(listings: Path, screen_only: bool) -> None:
    with tempfile.TemporaryDirectory() as work:
        result = asyncio.run(_reader_first_build(listings, Path(work), screen_only))
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


def _terminal_first_screen(listings: Path) -> tuple[float, float]:
    """The installed `papers` in a 120x40 tmux terminal, no index: seconds to the status line drawn, then to
    the status line counting every paper. A real terminal, because a headless pilot's pause waits up to a
    second for the process to go idle, which it never is while the listings are read."""
    papers = REPO / ".venv" / "bin" / "papers"
    expected = len(_catalog_ids(listings))
    with tempfile.TemporaryDirectory() as work:
        session = f"bench-first-{Path(work).name}"
        command = f"{papers} --listings {listings} --index-dir {work}/i --data-dir {work}/d"
        started = time.monotonic()
        subprocess.run(
            ["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "40", command], check=True
        )
        try:
            first = _poll_screen(session, lambda screen: bool(re.search(r"\d+ papers · ", screen))) - started
            every = _poll_screen(session, lambda screen: f"{expected} papers · " in screen) - started
        finally:
            subprocess.run(["tmux", "kill-session", "-t", session], check=False)
            time.sleep(3)  # the reader's hangup path saves and exits (tui/terminal.py), its build with it
    return first, every


def _catalog_ids(listings: Path) -> list[str]:
    sys.path.insert(0, str(REPO))
    from index.listings.catalog import load_catalog, no_headline

    return [paper.id for paper in load_catalog([listings], no_headline).papers]


def _poll_screen(session: str, done: Callable[[str], bool], timeout: float = 60) -> float:
    """The monotonic time at which `done(screen)` first holds, capturing back to back."""
    limit = time.monotonic() + timeout
    while time.monotonic() < limit:
        screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True)
        if done(screen.stdout):
            return time.monotonic()
    raise TimeoutError(f"the reader did not draw that within {timeout:.0f} s")


def _read_every_listing(listings: Path) -> float:
    """Seconds to read and merge every listing in a fresh process: the old reader's floor before a paint."""
    code = (
        "import pathlib, sys, time; sys.path.insert(0, '.')\n"
        "from index.listings.catalog import load_catalog, no_headline\n"
        f"t = time.perf_counter(); load_catalog([pathlib.Path({str(listings)!r})], no_headline)\n"
        "print(time.perf_counter() - t)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    return float(run.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("listings", nargs="*", type=Path)
    parser.add_argument("--screen-only", action="store_true", help="stop once every paper is listed")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.screen_only)
        return
    for listings in args.listings or [path for path in DEFAULTS if path.exists()]:
        reading = _read_every_listing(listings)
        seconds, rss = (0.0, 0) if args.screen_only else _papers_index(listings)
        flags = ["--screen-only"] if args.screen_only else []
        command = [sys.executable, __file__, "--child", str(listings), *flags]
        run = subprocess.run(command, capture_output=True, text=True, cwd=REPO)
        lines = run.stdout.strip().splitlines()
        reader = json.loads(lines[-1]) if run.returncode == 0 and lines else {"error": run.stderr[-400:]}
        print(f"{listings}")
        print(f"  reading every listing (the old floor before a paint): {reading:6.2f} s")
        if not args.screen_only:
            print(f"  papers index (baseline):  {seconds:6.1f} s, peak RSS {rss} MB")
        if "error" in reader:
            print(f"  reader first build FAILED: {reader['error']}")
            continue
        print(
            f"  reader first screen:      {reader['first_screen_s']:6.2f} s ({reader['first_rows']} rows of "
            f"{reader['papers']} papers; {reader['first_screen_s'] / reading:.2f}x reading every listing)"
        )
        print(f"  every paper listed:       {reader['all_listed_s']:6.2f} s")
        if args.screen_only:
            first, every = _terminal_first_screen(listings)
            print(
                f"  in a tmux terminal:       first screen {first:5.2f} s ({first / reading:.2f}x reading "
                f"every listing), every paper counted {every:5.2f} s"
            )
            continue
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
