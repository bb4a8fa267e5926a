"""Reader responsiveness, headless: time to first screen, per-key cost of `j` and of typing a query, peak RSS.

Run by hand: `.venv/bin/python bench/bench_tui.py` (seeds, then the shared 56k corpus; the index is built
once into a cache dir under /tmp and reused). One process per listing set so RSS is not shared.
Numbers come from Textual's `run_test` harness, which adds its own per-key floor (see perf-anchors table T).
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus" / "listings"
sys.path.insert(0, str(REPO))

from bench.bench_build import papers_argv  # noqa: E402

QUERY = "generative"  # ten letters: every keystroke is a real search


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def _ensure_index(listings: Path, index_dir: Path) -> None:
    """Build the index in a child process, so the peak RSS printed below is the reader's alone."""
    command = papers_argv(listings, index_dir, "index")
    start = time.perf_counter()
    subprocess.run(command, check=True, cwd=REPO, capture_output=True)
    print(f"  (index made current in {time.perf_counter() - start:.1f} s, in a separate process)")


async def _measure(listings: Path, index_dir: Path) -> None:
    t0 = time.perf_counter()
    from index.library import Library
    from tui.app import make_app

    library = Library.open(
        [listings], index_dir=index_dir, data_dir=Path(tempfile.mkdtemp(prefix="bench-data-"))
    )
    t_open = time.perf_counter() - t0
    assert library.index_ready, "the index was built just before; it should be current"
    app = make_app(library, debounce=0, mark_read_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        t_first = time.perf_counter() - t0
        screen = app.screen
        papers = len(screen.paper_list.ids)  # type: ignore[attr-defined]
        keys = []
        for _ in range(200):
            start = time.perf_counter()
            await pilot.press("j")
            keys.append(time.perf_counter() - start)
        await pilot.press("slash")
        typing = []
        for letter in QUERY:
            start = time.perf_counter()
            await pilot.press(letter)
            await app.workers.wait_for_complete()
            await pilot.pause()
            typing.append(time.perf_counter() - start)
        hits = len(screen.paper_list.ids)  # type: ignore[attr-defined]
    library.close()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  papers listed          {papers}")
    print(f"  Library.open           {_ms(t_open)}")
    print(f"  first screen           {_ms(t_first)}  (from before importing the library)")
    print(f"  j x200 per key         p50 {_ms(statistics.median(keys))}  max {_ms(max(keys))}")
    print(
        f"  typing '{QUERY}'   p50 {_ms(statistics.median(typing))}  max {_ms(max(typing))}"
        f"  (keystroke to updated list, debounce off; {hits} hits at the end)"
    )
    print(f"  peak RSS               {rss_mb:.0f} MB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "listings", nargs="?", type=Path, help="one listing directory (default: seeds, then corpus)"
    )
    parser.add_argument(
        "--index-dir", type=Path, help="index cache (default: /tmp/papers-bench-index-<name>)"
    )
    args = parser.parse_args()
    if args.listings is None:
        for target in (REPO / "seeds", CORPUS):
            if target.exists():
                subprocess.run([sys.executable, __file__, str(target)], check=False)
        return 0
    index_dir = args.index_dir or Path(tempfile.gettempdir()) / f"papers-bench-index-{args.listings.name}"
    print(f"{args.listings}:")
    _ensure_index(args.listings, index_dir)
    asyncio.run(_measure(args.listings, index_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
