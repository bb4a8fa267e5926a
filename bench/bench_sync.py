"""What noticing other processes' changes costs the reader: run by hand, prints numbers only.

`.venv/bin/python bench/bench_sync.py [--idle 20] [--stars 20] [--read-marks 0]` builds the seeds' index in a
temporary folder, opens the reader headless (`App.run_test`) and measures, in the same run:

- the reader's CPU while idle for `--idle` seconds with the check (`Marking.sync`, 4 times a second) and,
  as the peer, with the check's timer never firing;
- for `--stars` stars made by another connection, the time until the reader's rows have them (the median
  and the worst), and the longest the reader's event loop stalled meanwhile (what a key typed then would
  wait); with `--read-marks` 56349 the store holds that many read marks, so each reload runs in the worker
  (`INLINE_RELOAD`), and the peer is the same reload on the UI thread.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from index.library import Library  # noqa: E402
from index.state.store import StateStore  # noqa: E402
from tui.app import make_app  # noqa: E402
from tui.browse import marking  # noqa: E402
from tui.browse.screen import BrowseScreen  # noqa: E402


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _stalls(longest: list[float]) -> None:
    """Tick every 10 ms and keep the longest overshoot: how long the event loop could not run a key."""
    while True:
        started = time.monotonic()
        await asyncio.sleep(0.01)
        longest[0] = max(longest[0], time.monotonic() - started - 0.01)


async def _run(
    library: Library, data_dir: Path, idle: float, stars: range
) -> tuple[float, list[float], float, float]:
    """The reader's CPU over `idle` seconds, the delay until each of `stars` foreign stars shows, the
    longest event-loop stall while they arrived, and the longest over as long with nothing arriving (on a
    shared machine, what other processes' load alone costs)."""
    app = make_app(library, debounce=0, mark_read_delay=0)
    delays: list[float] = []
    longest = [0.0]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(1)
        await app.workers.wait_for_complete()
        screen = app.screen
        assert isinstance(screen, BrowseScreen)
        before = _cpu()
        await pilot.pause(idle)
        spent = _cpu() - before
        ticker = asyncio.create_task(_stalls(longest))
        await pilot.pause(0.3 * len(stars))
        quiet, longest[0] = longest[0], 0.0
        with StateStore.open(data_dir) as other:
            for number in stars:
                paper_id = library.papers[number].id
                other.star([paper_id])
                started = time.monotonic()
                while paper_id not in screen.marking.starred and time.monotonic() - started < 10:
                    await pilot.pause(0.005)
                delays.append(time.monotonic() - started)
                await pilot.pause(0.1)
        ticker.cancel()
    return spent, delays, longest[0], quiet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--idle", type=float, default=20.0, help="seconds of idle reader per measurement")
    parser.add_argument("--stars", type=int, default=20, help="stars made by another connection")
    parser.add_argument("--read-marks", type=int, default=0, help="read marks in the store beforehand")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        library = Library.open([REPO / "seeds"], index_dir=root / "index", data_dir=root / "data")
        library.build_index()
        if args.read_marks:
            library.marks.mark_read(f"{number:012x}" for number in range(args.read_marks))
        try:
            spent, delays, stall, quiet = asyncio.run(
                _run(library, library.data_dir, args.idle, range(args.stars))
            )
            interval, inline = marking.SYNC_SECONDS, marking.INLINE_RELOAD
            marking.SYNC_SECONDS = 1e9  # the peer: the same reader whose check never runs
            try:
                unchecked, _, _, _ = asyncio.run(_run(library, library.data_dir, args.idle, range(0)))
            finally:
                marking.SYNC_SECONDS = interval
            marking.INLINE_RELOAD = 1 << 62  # the peer: every reload on the UI thread
            try:
                _, inline_delays, inline_stall, inline_quiet = asyncio.run(
                    _run(library, library.data_dir, 0, range(args.stars, 2 * args.stars))
                )
            finally:
                marking.INLINE_RELOAD = inline
        finally:
            library.close()
    delays.sort()
    print(f"{'idle CPU, checking every 0.25 s':<40} {spent:8.3f} s over {args.idle:.0f} s")
    print(f"{'idle CPU, never checking (peer)':<40} {unchecked:8.3f} s over {args.idle:.0f} s")
    print(f"{'  difference per second':<40} {(spent - unchecked) / args.idle * 1e3:8.2f} ms CPU")
    inline_delays.sort()
    for label, shown, stalled, baseline in (
        ("as built", delays, stall, quiet),
        ("reload on the UI thread", inline_delays, inline_stall, inline_quiet),
    ):
        if shown:
            median, worst = shown[len(shown) // 2], shown[-1]
            print(
                f"foreign star on screen, {label}: median {median * 1e3:.0f} ms, worst {worst * 1e3:.0f} ms "
                f"({len(shown)} stars); longest event-loop stall {stalled * 1e3:.0f} ms "
                f"(with nothing arriving: {baseline * 1e3:.0f} ms)"
            )


if __name__ == "__main__":
    main()
