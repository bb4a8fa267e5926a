"""Time the state store at corpus scale: run by hand, prints numbers only.

`.venv/bin/python bench/bench_state.py [--papers 56349]` in a temporary folder: single toggles (each its own
committed transaction, as the reader does them), one bulk "mark all read" group, the `starred_ids()` /
`read_ids()` lookups the search filters call, an undo of the bulk group, export + re-import, and the
reader's check for other processes' changes (`changed_elsewhere`, 4 times a second) with nothing changed,
next to what a check that re-read the marks would cost, and the reload after another connection commits.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from index.state.store import StateStore  # noqa: E402
from index.state.transfer import parse_export, to_json  # noqa: E402


def _timed(label: str, count: int, action: object) -> None:
    assert callable(action)
    start = time.perf_counter()
    action()
    seconds = time.perf_counter() - start
    per = f"  ({seconds / count * 1e3:.3f} ms each)" if count > 1 else ""
    print(f"{label:<38} {seconds:8.3f} s{per}")


def _sync(folder: Path, store: StateStore, ids: list[str], polls: int = 10_000) -> None:
    """The reader's poll: one PRAGMA data_version when nothing changed; a reload after another commit."""
    store.changed_elsewhere()
    start = time.perf_counter()
    changed = [store.changed_elsewhere() for _ in range(polls)]
    poll = (time.perf_counter() - start) / polls
    assert not any(changed)
    start = time.perf_counter()
    for _ in range(20):  # a naive poll: every mark read again (the cache bypassed)
        store._read(lambda conn: conn.execute("SELECT id, starred, read FROM paper_state").fetchall())
    reread = (time.perf_counter() - start) / 20
    print(f"{'changed_elsewhere(), nothing changed':<38} {poll * 1e6:8.1f} µs each ({polls} calls)")
    print(f"{'re-reading every mark instead':<38} {reread * 1e6:8.1f} µs each ({reread / poll:.0f}x)")
    with StateStore.open(folder) as other:
        other.star(ids[:1])
    start = time.perf_counter()
    assert store.changed_elsewhere()
    store.starred_ids(), store.read_ids()
    print(f"{'after another commit: check + reload':<38} {(time.perf_counter() - start) * 1e3:8.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--papers", type=int, default=56_349, help="how many paper ids (default: the corpus)")
    parser.add_argument("--toggles", type=int, default=1_000)
    args = parser.parse_args()
    ids = [f"{index:012x}" for index in range(args.papers)]
    with tempfile.TemporaryDirectory() as folder, StateStore.open(Path(folder)) as store:
        _timed(
            f"{args.toggles} single star toggles",
            args.toggles,
            lambda: [store.toggle_star(i) for i in ids[: args.toggles]],
        )
        _timed(f"mark {args.papers} read (one group)", 1, lambda: store.mark_read(ids))
        _timed("starred_ids() + read_ids()", 1, lambda: (store.starred_ids(), store.read_ids()))
        _timed("undo the bulk group", 1, store.undo)
        store.mark_read(ids)
        exported: list[str] = []
        _timed(
            "export JSON (all records)", 1, lambda: exported.append(to_json(store.records(), {}, time.time()))
        )
        print(f"{'export size':<38} {len(exported[0]) / 1e6:8.2f} MB")
        with tempfile.TemporaryDirectory() as other, StateStore.open(Path(other)) as fresh:
            _timed("parse + import into a fresh store", 1, lambda: fresh.merge(parse_export(exported[0])))
            _timed("import the same file again (no-op)", 1, lambda: fresh.merge(parse_export(exported[0])))
        _sync(Path(folder), store, ids)
        print(f"{'database size':<38} {sum(p.stat().st_size for p in Path(folder).iterdir()) / 1e6:8.2f} MB")


if __name__ == "__main__":
    main()
