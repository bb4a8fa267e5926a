"""The index writer: our segment writer (fastwrite.py, termwrite.py) against Whoosh's own, at 56k and 250k.

Run by hand (prints numbers and ratios, judges nothing):

    nice .venv/bin/python bench/bench_writer.py                     # 56k, then a generated 250k corpus
    nice .venv/bin/python bench/bench_writer.py --big /tmp/c250k    # a 250k corpus made by corpus250k.py
    nice .venv/bin/python bench/bench_writer.py --skip-250k         # 56k only

Both writers run the same two-process build (build.py: this process indexes one half, a forked child the
other, one commit names both segments) and the same update (a new 1k-paper listing); "whoosh" swaps
`build.py`'s writer for Whoosh's `SegmentWriter` with only MpWriter's commit steps added, which is what the
build would be without the rewrite. Every figure is a fresh process (`--probe`): wall and CPU seconds of
the whole `ensure_current` (parsing, rendering, headlines, snapshot included, as `papers index` does), and
peak RSS of the parent and of the forked child apart (they run at once: their sum bounds the machine's
peak). The two writers alternate at each size so that a busy neighbour weighs on both.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.bench_build import ADDED, linked_copy, sized_main, write_new_listing  # noqa: E402

WRITERS = ("ours", "whoosh")


def _use_whooshs_writer() -> None:
    """Make build.py write with Whoosh's `SegmentWriter` (plus MpWriter's commit steps for the two halves)."""
    from whoosh.writing import SegmentWriter

    from index.search import build

    class WhooshWriter(SegmentWriter):  # type: ignore[misc]
        def __init__(self, ix: Any, lock: bool = True, **kwargs: Any) -> None:
            super().__init__(ix, _lk=lock, **kwargs)

        def finish_segment(self) -> Any:
            return self._finalize_segment() if self._added else None

        def commit_segments(self, segments: list[Any]) -> None:
            if not self._added:
                self._close_segment()
            self._commit_toc(segments)
            self._finish()

    build.FastSegmentWriter = WhooshWriter  # type: ignore[misc]


def _peaks() -> dict[str, float]:
    import resource

    with open("/proc/self/status", encoding="ascii") as status:
        own = next(int(row.split()[1]) for row in status if row.startswith("VmHWM:"))
    self_usage = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = self_usage.ru_utime + self_usage.ru_stime + children.ru_utime + children.ru_stime
    return {"parent_mb": own / 1024, "child_mb": children.ru_maxrss / 1024, "cpu": cpu}


def probe(writer: str, listings: Path, index_dir: Path) -> dict[str, Any]:
    """`ensure_current` once with `writer`: a full build on an empty `index_dir`, else an update."""
    if writer == "whoosh":
        _use_whooshs_writer()
    from index.search.maintenance import IndexMaintenance

    start = time.perf_counter()
    maintenance = IndexMaintenance.open(index_dir)
    report = maintenance.ensure_current([listings])
    seconds = time.perf_counter() - start
    maintenance.close()
    assert report is not None, "the index was already current"
    return {"seconds": seconds, "papers": report.papers, "added": report.added, **_peaks()}


def run_probe(writer: str, listings: Path, index_dir: Path) -> dict[str, Any]:
    command = [sys.executable, __file__, "--probe", writer, str(listings), str(index_dir)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=REPO, check=False)
    if result.returncode != 0:
        raise SystemExit(f"bench_writer: probe {writer} failed:\n{result.stderr}")
    answer: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return answer


def _line(label: str, figures: dict[str, dict[str, Any]]) -> None:
    ours, whoosh = figures["ours"], figures["whoosh"]
    for name in WRITERS:
        got = figures[name]
        print(
            f"{label:<16} {name:<7} {got['seconds']:>8.2f} s cpu {got['cpu']:>8.2f} s"
            f"  peak parent {got['parent_mb']:>6.0f} MB child {got['child_mb']:>6.0f} MB"
            f" sum {got['parent_mb'] + got['child_mb']:>6.0f} MB",
            flush=True,
        )
    peak = max(ours["parent_mb"], ours["child_mb"]), max(whoosh["parent_mb"], whoosh["child_mb"])
    summed = ours["parent_mb"] + ours["child_mb"], whoosh["parent_mb"] + whoosh["child_mb"]
    print(
        f"{label:<16} ours/whoosh: wall x{ours['seconds'] / whoosh['seconds']:.2f}"
        f" cpu x{ours['cpu'] / whoosh['cpu']:.2f} peak x{peak[0] / peak[1]:.2f}"
        f" sum x{summed[0] / summed[1]:.2f}"
        f" (saves {100 * (1 - ours['seconds'] / whoosh['seconds']):.0f}% of wall,"
        f" {100 * (1 - peak[0] / peak[1]):.0f}% of peak, {100 * (1 - summed[0] / summed[1]):.0f}% of sum)",
        flush=True,
    )


def bench_size(listings: Path, work: Path, name: str, new_listing: Path) -> None:
    builds: dict[str, dict[str, Any]] = {}
    for writer in WRITERS:
        builds[writer] = run_probe(writer, listings, work / f"ix-{name}-{writer}")
    print(f"== {builds['ours']['papers']} papers ({listings})", flush=True)
    _line("full build", builds)
    shutil.copy(new_listing, listings / new_listing.name)
    updates: dict[str, dict[str, Any]] = {}
    for writer in WRITERS:
        updates[writer] = run_probe(writer, listings, work / f"ix-{name}-{writer}")
        assert updates[writer]["added"] == ADDED, updates[writer]
    _line(f"add {ADDED} papers", updates)
    (listings / new_listing.name).unlink()


def bench(corpus: Path, big: Path | None, big_papers: int, work: Path) -> None:
    extra = work / "extra"
    extra.mkdir()
    new_listing = extra / "newconf2031.txt"
    write_new_listing(new_listing, corpus, ADDED)
    bench_size(linked_copy(corpus, work / "small"), work, "small", new_listing)
    if big_papers <= 0:
        return
    if big is None:
        big = work / "big-generated"
        subprocess.run(
            [sys.executable, str(REPO / "bench" / "corpus250k.py"), str(big), "--papers", str(big_papers)],
            check=True,
            capture_output=True,
        )
    bench_size(linked_copy(big, work / "big"), work, "big", new_listing)


def main(argv: Sequence[str] | None = None) -> int:
    return sized_main(argv, __doc__, bench, lambda args: probe(args[0], Path(args[1]), Path(args[2])))


if __name__ == "__main__":
    sys.exit(main())
