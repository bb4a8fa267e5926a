"""Reader latency as a researcher feels it: through a real sshd and a tmux terminal, as an unprivileged user.

Run by hand as root: `.venv/bin/python bench/bench_ssh.py [--presses 50] [--seeds-only]`. It reuses the e2e
harness (tests/e2e/harness.py): private sshd on 127.0.0.1, a throwaway user, tmux panes at 80x24 and 120x40,
TERM=xterm-256color and TERM=linux, on the seeds and on the 56k-abstract corpus. The corpus index is built
once (about 1.5 minutes) into /tmp/papers-bench-ssh/ and reused by later runs (delete it to rebuild).

Measured, from the moment the keystroke (or the ssh command) is released until tmux's screen shows the result:
  first screen  ssh start -> the status line is drawn
  j             `j` -> the screen changes (the selection moved; colours included, via capture-pane -e)
  query key     one more letter in the search box -> the status line shows that query's hit count
Each number includes ssh, the pty and tmux, and the poll interval of capture-pane (a few ms).
Beside them: our engine's part of the same query keys in-process (`Library.view`, fresh library), SQLite
FTS5 doing that part on the same papers (all hits ranked), and our keystroke-to-screen p95 over FTS5's p95.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.bench_keystroke import build_fts5, fts5_keystrokes, timed  # noqa: E402
from index.library import Library  # noqa: E402
from tests.e2e.harness import LIST_FOCUSED, SEARCH_FOCUSED, STATUS_LINE, Environment, Tmux, make_readable  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus" / "listings"
SEEDS = REPO / "seeds"
CACHE = Path("/tmp/papers-bench-ssh")
QUERIES = ("reinforcem", "diffusion", "transformer", "calibration", "bandits", "segmentation", "adversarial")
"""Typed one after another in each session (Ctrl+U clears between them): 71 keystrokes, each a new query
(one word each: a trailing space would not change the query), so the p95 is a percentile and not the slowest
of ten; the first letter is the session's first search."""
SIZES = ((80, 24), (120, 40))
TERMS = ("xterm-256color", "linux")


def build_index(name: str, listings: Path) -> Path:
    """Build (or reuse) a world-readable index as root, like an admin would for everyone."""
    index_dir = CACHE / f"{name}-index"
    CACHE.mkdir(mode=0o755, exist_ok=True)
    CACHE.chmod(0o755)
    marker = CACHE / f"{name}.built"  # beside the index, which `papers index` may replace wholesale
    if not marker.exists():
        started = time.monotonic()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "index.cli",
                "index",
                "--listings",
                str(listings),
                "--index-dir",
                str(index_dir),
            ],
            check=True,
            cwd=REPO,
        )
        marker.touch()
        print(f"built {name} index in {time.monotonic() - started:.1f} s", file=sys.stderr)
    make_readable(index_dir)
    return index_dir


def _poll(pane: Tmux, done: Callable[[str], bool], timeout: float = 10, colours: bool = False) -> float:
    """Seconds until `done(screen)`; captures back to back, so resolution is one capture-pane call."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        args = ["capture-pane", "-p", "-t", pane.name, *(["-e"] if colours else [])]
        if done(pane.tmux(*args).stdout):
            return time.monotonic() - started
    raise TimeoutError(f"no repaint within {timeout}s; screen:\n{pane.capture()}")


def _settle(pane: Tmux) -> str:
    """Wait until the screen (with colours) stops changing, so the next keystroke starts from rest."""
    return pane.settle(quiet=0.15, timeout=5, colours=True)


def measure(
    env: Environment, name: str, listings: Path, index_dir: Path, presses: int, queries: int
) -> list[list[str]]:
    alice = env.users[0]
    # A long read delay keeps "mark as read" from repainting the status line in the middle of a measurement.
    config = env.scratch / "bench-config.toml"
    config.write_text("mark_read_delay = 3600\n")
    config.chmod(0o644)
    variables = {
        "PAPERS_LISTINGS": str(listings),
        "PAPERS_INDEX_DIR": str(index_dir),
        "PAPERS_CONFIG": str(config),
    }
    rows = []
    for width, height in SIZES:
        for term in TERMS:
            label = f"{name}-{width}x{height}-{term}".replace("-256color", "")
            pane = env.tmux(label)
            # A fresh data dir per run: the reader restores the last query, which would skew the next run.
            fresh = {**variables, "PAPERS_DATA_DIR": str(alice.home / f"bench-state-{label}")}
            started = pane.start(env.reader_argv(alice, fresh, term=term), width=width, height=height)
            pane.wait_for(STATUS_LINE, 300)
            first = time.monotonic() - started
            pane.settle(quiet=1.0)
            pane.send_keys("/")
            pane.wait_for(SEARCH_FOCUSED)
            pane.send_keys("Enter")  # empty query: leave the search box, focus on the list
            pane.wait_for(LIST_FOCUSED)
            j_times = []
            for press in range(presses):
                key = "j" if (press // 20) % 2 == 0 else "k"
                before = _settle(pane)
                pane.send_keys(key)
                j_times.append(_poll(pane, lambda screen, before=before: screen != before, colours=True))
            _settle(pane)
            pane.send_keys("/")
            pane.wait_for(SEARCH_FOCUSED)
            query_times = []
            for query in QUERIES[:queries]:
                _settle(pane)
                pane.send_keys("C-u")  # clear the box: the status line shows every paper again
                for end in range(1, len(query) + 1):
                    _settle(pane)
                    pane.type(query[end - 1])
                    shown = re.compile(rf'"{query[:end]}" → \d+')
                    found = _poll(pane, lambda screen, shown=shown: shown.search(screen) is not None)
                    query_times.append(found)
            pane.send_keys("C-q")
            pane.wait_exit(30)
            pane.kill()
            rows.append(
                [
                    name,
                    f"{width}x{height}",
                    term,
                    f"{first * 1000:.0f}",
                    *_p50_p95(j_times),
                    *_p50_p95(query_times),
                ]
            )
            print(" ".join(rows[-1]), file=sys.stderr)
    return rows


_FTS5: dict[Path, list[float]] = {}


def typed(queries: int) -> list[str]:
    """What the search box holds after each keystroke of the first `queries` QUERIES."""
    return [query[:end] for query in QUERIES[:queries] for end in range(1, len(query) + 1)]


def engine_reference(listings: Path, index_dir: Path, queries: int) -> list[str]:
    """Our engine's part of the same keys, in this process: `Library.view` for each of them on a fresh
    library warmed as the reader warms it at start (p50, p95 ms): the rest of a key's latency is debounce,
    ssh, tmux and drawing."""
    with tempfile.TemporaryDirectory(prefix="papers-bench-ssh-engine-") as tmp:
        library = Library.open([listings], index_dir=index_dir, data_dir=Path(tmp))
        library.warm_search()
        samples = [timed(lambda text=text: library.view(text)) for text in typed(queries)]
        library.close()
    ordered = sorted(samples)
    p50, p95 = statistics.median(ordered) * 1000, ordered[round(0.95 * (len(ordered) - 1))] * 1000
    return [f"{p50:.1f}", f"{p95:.1f}"]


def fts5_reference(listings: Path, key_p95_ms: str, queries: int) -> list[str]:
    """SQLite FTS5 doing the engine's part of the same keystrokes (each prefix of the QUERIES typed, all hits
    ranked by bm25) on the same papers, in this run: p50, p95 and our keystroke-to-screen p95 over FTS5's p95.

    FTS5 has no terminal, so this is the floor a reader built on it would add ssh, tmux and drawing to.
    """
    if listings not in _FTS5:
        with tempfile.TemporaryDirectory(prefix="papers-bench-ssh-fts5-") as tmp:
            db, _rows, _build_s = build_fts5(listings, Path(tmp) / "fts5.db")
            keys = typed(queries)
            fts5_keystrokes(db, keys)  # warm-up: the reader's index is warmed at start too
            _FTS5[listings] = fts5_keystrokes(db, keys)
            db.close()
    samples = sorted(_FTS5[listings])
    p50, p95 = statistics.median(samples) * 1000, samples[round(0.95 * (len(samples) - 1))] * 1000
    return [f"{p50:.2f}", f"{p95:.2f}", f"{float(key_p95_ms) / max(p95, 0.01):.0f}x"]


def _p50_p95(samples: list[float]) -> list[str]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return [f"{statistics.median(ordered) * 1000:.0f}", f"{p95 * 1000:.0f}"]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--presses", type=int, default=50, help="j/k presses per configuration (default 50)")
    parser.add_argument("--seeds-only", action="store_true", help="skip the 56k corpus")
    parser.add_argument(
        "--queries", type=int, default=len(QUERIES), help=f"words typed per configuration (1-{len(QUERIES)})"
    )
    args = parser.parse_args()
    libraries = [("seeds", SEEDS)] + ([] if args.seeds_only else [("corpus", CORPUS)])
    indexes = {name: build_index(name, path) for name, path in libraries}
    env = Environment.open(f"bench-{os.getpid()}")
    try:
        rows = []
        for name, path in libraries:
            found = measure(env, name, path, indexes[name], args.presses, args.queries)
            engine = engine_reference(path, indexes[name], args.queries)
            rows += [[*row, *engine, *fts5_reference(path, row[-1], args.queries)] for row in found]
    finally:
        env.close()
    header = [
        "library",
        "size",
        "TERM",
        "first screen ms",
        "j p50",
        "j p95",
        "query key p50",
        "query key p95",
        "engine p50",
        "engine p95",
        "FTS5 search p50",
        "FTS5 p95",
        "key/FTS5 p95",
    ]
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(str(cell).rjust(width) for cell, width in zip(row, widths, strict=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
