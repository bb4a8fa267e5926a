"""Index build and update cost at 56k and 250k papers, each next to SQLite FTS5 doing the same work.

Run by hand (prints numbers, judges nothing):

    .venv/bin/python bench/bench_build.py                 # 56k build, add 1k, 250k build, reader at 250k
    .venv/bin/python bench/bench_build.py --skip-250k     # only the 56k figures (a few minutes)

Every figure comes from a fresh child process (this script re-run with `--probe`), so its peak RSS is its own
and nothing is shared through caches; all files live in one temporary directory removed at the end. The
FTS5 side reads the same listings with the project's own reader (so parsing is on both sides) and indexes
the raw abstracts in one transaction; ours also renders the abstracts, makes the headlines and writes the
snapshot the reader opens, which is the point of the comparison: what the whole `papers index` costs next
to the plainest full-text index of the same text. The machine is shared, so read the ratios, not the
seconds: both sides of a ratio ran minutes apart in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
CORPUS = Path("/work/shared/corpus/listings")
ADDED = 1_000
ADD_SEED = 7


def _usage() -> dict[str, float]:
    """Peak RSS (MB) of this process or of any child it waited for (the forked second indexer), and the
    CPU seconds of both: on a machine shared with other jobs CPU time is the steadier figure, wall time the
    real one."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    return {"rss_mb": max(_own_peak_kb(), children.ru_maxrss) / 1024, "cpu": cpu}


def _own_peak_kb() -> int:
    """This process's peak RSS since it started (VmHWM). Not RUSAGE_SELF: Linux carries ru_maxrss over
    exec, so every probe would report at least this bench's own size when it was started."""
    with open("/proc/self/status", encoding="ascii") as status:
        for row in status:
            if row.startswith("VmHWM:"):
                return int(row.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


# ----- probes: each runs in its own process and prints one JSON line -------------------------------------


def probe_whoosh_index(listings: Path, index_dir: Path) -> dict[str, Any]:
    """What `papers index` does, from opening the index to the last file written (the interpreter's start and
    imports are in the "as a command" figure instead)."""
    from index.search.index import SearchIndex

    start = time.perf_counter()
    index = SearchIndex.open(index_dir)
    report = index.maintenance.ensure_current([listings])
    seconds = time.perf_counter() - start
    index.maintenance.close()
    assert report is not None, "the index was already current"
    return {"seconds": seconds, "papers": report.papers, "added": report.added, **_usage()}


def _fts5_rows(listings: Path) -> list[tuple[str, str]]:
    from index.listings.catalog import load_catalog, no_headline

    catalog = load_catalog([listings], no_headline)
    return [(paper.id, paper.abstract) for paper in catalog.papers]


def probe_fts5_build(listings: Path, db: Path) -> dict[str, Any]:
    """Parse the same listings, then one FTS5 table over the abstracts in one transaction, optimized."""
    start = time.perf_counter()
    rows = _fts5_rows(listings)
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(
            "CREATE VIRTUAL TABLE papers USING fts5(id UNINDEXED, abstract, tokenize='porter unicode61')"
        )
        conn.executemany("INSERT INTO papers VALUES (?, ?)", rows)
    conn.execute("INSERT INTO papers(papers) VALUES('optimize')")
    conn.commit()
    conn.close()
    return {"seconds": time.perf_counter() - start, "papers": len(rows), **_usage()}


def probe_fts5_add(listing: Path, db: Path) -> dict[str, Any]:
    """Parse the one new listing and append its papers to the existing table in one transaction."""
    start = time.perf_counter()
    rows = _fts5_rows(listing)
    conn = sqlite3.connect(db)
    with conn:
        conn.executemany("INSERT INTO papers VALUES (?, ?)", rows)
    conn.close()
    return {"seconds": time.perf_counter() - start, "papers": len(rows), **_usage()}


def probe_reader(listings: Path, index_dir: Path, data_dir: Path) -> dict[str, Any]:
    """The reader headless (Textual run_test, 120x40): from before importing the library to the first frame
    written to the terminal, the screen a user sees. `settled` is when the process went idle, after the search
    warm-up the reader runs in a worker once that frame is out (Textual's `pilot.pause()` waits for that)."""

    async def measure() -> dict[str, Any]:
        start = time.perf_counter()
        from index.library import Library
        from tui.app import make_app

        library = Library.open([listings], index_dir=index_dir, data_dir=data_dir)
        assert library.index_ready, "the index was built just before; it should be current"
        app = make_app(library, debounce=0, mark_read_delay=0)
        frames: list[float] = []
        display = app._display

        def first_frame(screen: Any, update: Any) -> None:
            frames.append(time.perf_counter() - start)
            display(screen, update)

        app._display = first_frame  # type: ignore[method-assign]
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            settled = time.perf_counter() - start
            listed = len(app.screen.paper_list.ids)  # type: ignore[attr-defined]
        library.close()
        return {"seconds": frames[0], "settled": settled, "papers": listed, **_usage()}

    return asyncio.run(measure())


def probe_fts5_reader(db: Path) -> dict[str, Any]:
    """FTS5's first screen: open the database, count the papers, fetch 40 rows' ids and first lines."""
    start = time.perf_counter()
    conn = sqlite3.connect(db)
    count = conn.execute("SELECT count(*) FROM papers").fetchone()[0]
    conn.execute("SELECT id, substr(abstract, 1, 100) FROM papers LIMIT 40").fetchall()
    seconds = time.perf_counter() - start
    conn.close()
    return {"seconds": seconds, "papers": count, **_usage()}


PROBES = {
    "whoosh-index": lambda a: probe_whoosh_index(Path(a[0]), Path(a[1])),
    "fts5-build": lambda a: probe_fts5_build(Path(a[0]), Path(a[1])),
    "fts5-add": lambda a: probe_fts5_add(Path(a[0]), Path(a[1])),
    "reader": lambda a: probe_reader(Path(a[0]), Path(a[1]), Path(a[2])),
    "fts5-reader": lambda a: probe_fts5_reader(Path(a[0])),
}


def run_probe(name: str, *args: Path) -> dict[str, Any]:
    """Run one probe in a fresh interpreter and return its JSON answer."""
    command = [sys.executable, __file__, "--probe", name, *map(str, args)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=REPO, check=False)
    if result.returncode != 0:
        raise SystemExit(f"bench_build: probe {name} failed:\n{result.stderr}")
    answer: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return answer


# ----- the inputs ------------------------------------------------------------------------------------------


def linked_copy(corpus: Path, target: Path) -> Path:
    """A directory of symlinks to the corpus files, so a listing can be added without touching the corpus."""
    target.mkdir(parents=True)
    for path in sorted(corpus.glob("*.txt")):
        (target / path.name).symlink_to(path.resolve())
    return target


def write_new_listing(path: Path, corpus: Path, count: int) -> None:
    """`count` recombined abstracts (see corpus250k.py), none of them in the corpus: a new venue's listing."""
    sys.path.insert(0, str(REPO / "bench"))
    import corpus250k

    from index.listings.identity import paper_id

    every = [abstract for _, abstracts in corpus250k.read_corpus(corpus) for abstract in abstracts]
    known = {paper_id(abstract) for abstract in every}
    fresh: list[str] = []
    for abstract in corpus250k.synthetic_abstracts(every, ADD_SEED):
        key = paper_id(abstract)
        if key not in known:
            known.add(key)
            fresh.append(abstract)
            if len(fresh) == count:
                break
    corpus250k.write_listing(path, "Newconf 2031 Papers", fresh)


# ----- the report -----------------------------------------------------------------------------------------


def _ratio(ours: float, theirs: float) -> str:
    return f"x{ours / theirs:>6.1f}" if theirs > 0 else "     -"


def line(label: str, ours: dict[str, Any], fts5: dict[str, Any], target: str) -> None:
    """One figure: ours (wall, CPU, peak RSS) | FTS5's | wall and CPU ratios | the target."""
    print(
        f"{label:<24} {ours['seconds']:>7.2f} s cpu {ours['cpu']:>7.2f} s {ours['rss_mb']:>5.0f} MB"
        f" | fts5 {fts5['seconds']:>6.2f} s cpu {fts5['cpu']:>6.2f} s {fts5['rss_mb']:>4.0f} MB"
        f" | wall {_ratio(ours['seconds'], fts5['seconds'])} cpu {_ratio(ours['cpu'], fts5['cpu'])}"
        f" | target {target}",
        flush=True,
    )


def command_seconds(listings: Path, index_dir: Path) -> float:
    """The whole `papers index` command as a user types it, start-up included."""
    command = [sys.executable, "-m", "index.cli", "--listings", str(listings), "--index-dir", str(index_dir)]
    start = time.perf_counter()
    subprocess.run([*command, "index"], check=True, cwd=REPO, capture_output=True)
    return time.perf_counter() - start


def bench(corpus: Path, big: Path | None, big_papers: int, work: Path) -> None:
    small = linked_copy(corpus, work / "small")
    ix, db = work / "ix-small", work / "small.sqlite"
    ours = run_probe("whoosh-index", small, ix)
    print(f"== {ours['papers']} papers ({corpus})", flush=True)
    line("full build", ours, run_probe("fts5-build", small, db), "<= 60 s")

    extra = work / "extra"
    extra.mkdir()
    write_new_listing(extra / "newconf2031.txt", corpus, ADDED)
    shutil.copy(extra / "newconf2031.txt", small / "newconf2031.txt")
    ours = run_probe("whoosh-index", small, ix)
    # A listing that outweighs what is already indexed is a full build, not an update (IndexMaintenance):
    # with a small --corpus the figure below is then a rebuild, and the table says so.
    rebuilt = ours["added"] == ours["papers"]
    assert ours["added"] == ADDED or rebuilt, ours
    label = f"add a {ADDED}-paper listing" + (" (a rebuild)" if rebuilt else "")
    line(label, ours, run_probe("fts5-add", extra / "newconf2031.txt", db), "<= 2 s")
    (small / "newconf2031.txt").unlink()
    print(f"{'  (as a command, removing it)':<28} {command_seconds(small, ix):>8.2f} s", flush=True)

    if big_papers <= 0:
        return
    if big is None:
        big = work / "big"
        subprocess.run(
            [sys.executable, str(REPO / "bench" / "corpus250k.py"), str(big), "--papers", str(big_papers)],
            check=True,
            capture_output=True,
        )
    ix, db = work / "ix-big", work / "big.sqlite"
    ours = run_probe("whoosh-index", big, ix)
    print(f"== {ours['papers']} papers ({big})", flush=True)
    line("full build", ours, run_probe("fts5-build", big, db), "peak RSS <= 2048 MB")
    data = work / "data"
    data.mkdir()
    reader = run_probe("reader", big, ix, data)
    line("reader first screen", reader, run_probe("fts5-reader", db), "<= 1.5 s, <= 800 MB")
    print(f"{'  (idle after the search warm-up)':<28} {reader['settled']:>8.2f} s", flush=True)


def papers_argv(listings: Path, index_dir: Path, *command: str, data_dir: Path | None = None) -> list[str]:
    """The `papers` command line of this interpreter for these listings and index (and data) directory."""
    data = ("--data-dir", str(data_dir)) if data_dir is not None else ()
    where = ("--listings", str(listings), "--index-dir", str(index_dir), *data)
    return [sys.executable, "-m", "index.cli", *where, *command]


def sized_main(
    argv: Sequence[str] | None,
    doc: str | None,
    run: Callable[[Path, Path | None, int, Path], None],
    probe: Callable[[list[str]], dict[str, Any]],
) -> int:
    """The command line the build benches share: the 56k corpus, then a 250k one (`run`), each figure taken
    in a fresh process (`--probe`, answered by `probe` as one JSON line)."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument(
        "--corpus", type=Path, default=CORPUS, help="seed-format listings (default: 56k corpus)"
    )
    parser.add_argument("--big", type=Path, help="an existing 250k corpus (default: generate one)")
    parser.add_argument("--big-papers", type=int, default=250_000, help="papers in the generated big corpus")
    parser.add_argument("--skip-250k", action="store_true", help="only the 56k figures")
    parser.add_argument("--probe", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.probe:
        print(json.dumps(probe(args.probe)))
        return 0
    work = Path(tempfile.mkdtemp(prefix="papers-bench-"))
    try:
        run(args.corpus, args.big, 0 if args.skip_250k else args.big_papers, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    return sized_main(argv, __doc__, bench, lambda probe: PROBES[probe[0]](probe[1:]))


if __name__ == "__main__":
    sys.exit(main())
