"""Our Whoosh index against SQLite FTS5 and a naive scan, on a 5k subset and the full corpus, in one run.

Run by hand (it prints numbers and asserts nothing): `.venv/bin/python bench/bench_search.py [--quick]`.
Every index goes to a temporary directory that is removed afterwards; the corpus is only read.
At 250k: `.venv/bin/python bench/corpus250k.py /tmp/papers-corpus250k` then `--corpus /tmp/papers-corpus250k
--subset 0` (the Whoosh build alone takes 15-20 minutes there). Query timings repeat each query after a
warm-up, so they are the warm figures (the generation's posting arrays read); per-keystroke search, first
uses and 250k without rebuilding are bench/bench_keystroke.py's, on an index built once with `papers index`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sqlite3
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench import search_corpus, search_whoosh  # noqa: E402
from bench.search_peers import Fts5, Fts5Query, Naive, NaiveQuery, Row, file_tree_mb, fts5_open_seconds  # noqa: E402
from bench.search_report import ENGINES, TARGETS, QueryTimes, legend, mix_ms, render_run  # noqa: E402
from index.listings.catalog import load_catalog  # noqa: E402
from index.models import Catalog  # noqa: E402
from index.render.abstract import to_plain  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus" / "listings"
JSONL = REPO.parent / "shared" / "corpus" / "jsonl"
CHEAP_QUERY = "quaternion"
"""A rare word: `open + 1st query` should time opening, not ranking thousands of hits."""


@dataclass(frozen=True, slots=True)
class Mix:
    """One query of the mix as typed into the reader, and its translation per peer (None: inexpressible)."""

    name: str
    whoosh: str
    fts5: Fts5Query | None
    naive: NaiveQuery | None


SIX_WORDS = "convex optimization for deep reinforcement learning"
QUERY_MIX = (
    Mix("diffusion", "diffusion", Fts5Query("diffusion"), NaiveQuery(("diffusion",))),
    Mix("graph neural", "graph neural", Fts5Query("graph neural"), NaiveQuery(("graph", "neural"))),
    Mix(
        '"gradient descent"',
        '"gradient descent"',
        Fts5Query('"gradient descent"'),
        NaiveQuery(("gradient descent",)),
    ),
    Mix("diffu*", "diffu*", Fts5Query("diffu*"), NaiveQuery(("diffu",))),
    Mix("difusion~", "difusion~", None, None),
    Mix("title:graph", "title:graph", Fts5Query("headline:graph"), NaiveQuery(("graph",), title_only=True)),
    Mix(
        "year:[2018 TO 2020] learning",
        "year:[2018 TO 2020] learning",
        Fts5Query("learning", (2018, 2020)),
        NaiveQuery(("learning",), years=(2018, 2020)),
    ),
    Mix("6 words", SIX_WORDS, Fts5Query(SIX_WORDS), NaiveQuery(tuple(SIX_WORDS.split()))),
)
COMMON = [mix.name for mix in QUERY_MIX if mix.fts5 is not None and mix.naive is not None]
ALL = [mix.name for mix in QUERY_MIX]


def _say(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _rows(catalog: Catalog, only: set[str] | None = None) -> list[Row]:
    return [
        Row(paper.id, paper.headline, to_plain(paper.abstract), "\n".join(paper.authors), paper.year)
        for paper in catalog.papers
        if only is None or paper.id in only
    ]


def _with_listing(catalog: Catalog, extra: Catalog) -> Catalog:
    """What load_catalog would return for both, without re-reading (and re-rendering) 56k papers.

    Valid because `extra` holds only papers `catalog` lacks (nothing to merge) and lives in a directory of
    its own, so its files sort wholly before or wholly after the others, as load_catalog orders them.
    """
    before = min(os.path.abspath(listing.path) for listing in extra.listings) < min(
        os.path.abspath(listing.path) for listing in catalog.listings
    )
    first, second = (extra, catalog) if before else (catalog, extra)
    return Catalog(
        listings=first.listings + second.listings,
        papers=first.papers + second.papers,
        notices=first.notices + second.notices,
    )


def _time(run_query: Any, reps: int) -> list[float]:
    run_query()  # warm-up
    seconds = []
    for _ in range(reps):
        start = time.perf_counter()
        run_query()
        seconds.append(time.perf_counter() - start)
    return seconds


def _summarise(figures: dict[str, Any], queries: dict[str, QueryTimes]) -> None:
    figures["mix_p50_ms"] = mix_ms(queries, COMMON, 50)
    figures["mix_p95_ms_common"] = mix_ms(queries, COMMON, 95)
    figures["mix_p95_ms"] = mix_ms(queries, ALL, 95) if all(name in queries for name in ALL) else None
    figures["queries"] = {name: times.summary() for name, times in queries.items()}


def _bench_whoosh(
    label: str, catalog: Catalog, bigger: Catalog, added: int, args: argparse.Namespace, work: Path
) -> tuple[dict[str, Any], dict[str, QueryTimes]]:
    """Build, size, open, query, then add: queries run on exactly the papers that were built."""
    _say(f"{label}: whoosh full build")
    figures: dict[str, Any] = {}
    queries: dict[str, QueryTimes] = {}
    ix, figures["build_s"] = search_whoosh.build(work / "whoosh", catalog)
    figures["size_mb"] = file_tree_mb(work / "whoosh")
    figures["open_s"], figures["open_query_s"] = search_whoosh.open_seconds(
        work / "whoosh", CHEAP_QUERY, args.open_runs
    )
    _say(f"{label}: whoosh queries")
    cached = {}
    for mix in QUERY_MIX:
        queries[mix.name], cached[mix.name] = search_whoosh.time_query(ix, mix.whoosh, args.reps)
    figures["cached_repeat_p50_ms"] = {name: value * 1000 for name, value in cached.items()}
    _say(f"{label}: whoosh update adding {added} papers")
    figures["add_s"], figures["add_note"] = search_whoosh.add(ix, bigger, added)
    ix.maintenance.close()
    return figures, queries


def _bench_fts5(
    label: str, rows: list[Row], added_rows: list[Row], args: argparse.Namespace, work: Path
) -> tuple[dict[str, Any], dict[str, QueryTimes]]:
    _say(f"{label}: fts5 build and queries")
    figures: dict[str, Any] = {}
    queries: dict[str, QueryTimes] = {}
    db = Fts5(work / "fts5.db")
    figures["build_s"] = db.build(rows)
    figures["size_mb"] = file_tree_mb(work / "fts5.db")
    figures["open_s"], figures["open_query_s"] = fts5_open_seconds(work / "fts5.db", CHEAP_QUERY)
    for mix in QUERY_MIX:
        fts5_query = mix.fts5
        if fts5_query is not None:
            times = QueryTimes(hits=db.count(fts5_query))
            times.seconds = _time(lambda q=fts5_query: db.search(q), args.reps)
            queries[mix.name] = times
    figures["add_s"] = db.add(added_rows)
    db.close()
    return figures, queries


def _bench_naive(
    label: str, rows: list[Row], args: argparse.Namespace
) -> tuple[dict[str, Any], dict[str, QueryTimes]]:
    _say(f"{label}: naive scan")
    start = time.perf_counter()
    naive = Naive(rows)
    figures: dict[str, Any] = {"prep_s": time.perf_counter() - start}
    queries: dict[str, QueryTimes] = {}
    for mix in QUERY_MIX:
        naive_query = mix.naive
        if naive_query is not None:
            times = QueryTimes(hits=naive.search(naive_query)[1])
            times.seconds = _time(lambda q=naive_query: naive.search(q), args.reps)
            queries[mix.name] = times
    return figures, queries


def bench_size(
    label: str, paths: list[Path], args: argparse.Namespace, work: Path
) -> tuple[dict[str, Any], dict[str, dict[str, QueryTimes]]]:
    """Every measurement for one corpus size; returns the JSON-ready figures and the raw query timings."""
    run: dict[str, Any] = {"label": label, "paths": ", ".join(str(path) for path in paths)}
    start = time.perf_counter()
    catalog = load_catalog(paths)
    run["prep"] = {"catalog_s": time.perf_counter() - start}
    run["papers"] = len(catalog.papers)
    _say(f"{label}: {len(catalog.papers):,} papers loaded; rendering abstracts for the peers")
    start = time.perf_counter()
    rows = _rows(catalog)
    run["prep"]["render_s"] = time.perf_counter() - start
    indexed = {paper.id for paper in catalog.papers}
    (work / "added").mkdir()
    added = search_corpus.write_added(
        work / "added", indexed, args.add, args.jsonl, [paper.abstract for paper in catalog.papers]
    )
    run["added"], run["added_origin"] = added.count, added.origin
    bigger = _with_listing(catalog, load_catalog([added.path]))
    new_ids = {paper.id for paper in bigger.papers} - indexed
    queries: dict[str, dict[str, QueryTimes]] = {}
    run["whoosh"], queries["whoosh"] = _bench_whoosh(label, catalog, bigger, len(new_ids), args, work)
    run["fts5"], queries["fts5"] = _bench_fts5(label, rows, _rows(bigger, new_ids), args, work)
    run["naive"], queries["naive"] = _bench_naive(label, rows, args)
    for engine in ENGINES:
        _summarise(run[engine], queries[engine])
    return run, queries


def _sizes(args: argparse.Namespace, work: Path) -> list[tuple[str, list[Path]]]:
    """(label, listing paths) per size: the first N papers (copied to `work`), then the whole corpus."""
    files = search_corpus.corpus_files(args.corpus)
    sizes: list[tuple[str, list[Path]]] = []
    if args.subset > 0:
        subset_dir = work / "subset"
        subset_dir.mkdir()
        _written, count, truncated = search_corpus.write_subset(files, args.subset, subset_dir)
        if truncated:
            sizes.append((f"subset (first {count:,} papers)", [subset_dir]))
    if not args.quick or not sizes:
        sizes.append(("full corpus", [args.corpus]))
    return sizes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--corpus", type=Path, default=CORPUS, help="listing file or folder (default: %(default)s)"
    )
    parser.add_argument("--subset", type=int, default=5000, help="also bench the first N papers (0: skip)")
    parser.add_argument("--quick", action="store_true", help="the subset only (for development)")
    parser.add_argument("--reps", type=int, default=30, help="timed repetitions per query, after one warm-up")
    parser.add_argument(
        "--add", type=int, default=1000, help="papers in the listing added for the update timing"
    )
    parser.add_argument("--jsonl", type=Path, default=JSONL, help="where unseen papers to add come from")
    parser.add_argument("--open-runs", type=int, default=3, help="fresh processes timing open (median)")
    parser.add_argument("--json", type=Path, default=None, metavar="OUT", help="also write the numbers here")
    args = parser.parse_args(argv)
    if args.reps < 1 or args.add < 1 or args.open_runs < 1:
        parser.error("--reps, --add and --open-runs must be at least 1")
    if args.json is not None and not args.json.parent.is_dir():
        parser.error(f"--json {args.json}: folder {args.json.parent} does not exist")

    machine = {
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "cpus": os.cpu_count(),
        "loadavg_start": os.getloadavg(),
    }
    runs = []
    with tempfile.TemporaryDirectory(prefix="papers-bench-search-") as tmp:
        work = Path(tmp)
        for number, (label, paths) in enumerate(_sizes(args, work)):
            size_dir = work / f"size-{number}"
            size_dir.mkdir()
            run, queries = bench_size(label, paths, args, size_dir)
            runs.append(run)
            print(render_run(run, queries, ALL), end="\n\n", flush=True)
    machine["loadavg_end"] = os.getloadavg()
    print(legend(max(int(run["papers"]) for run in runs)))
    print(
        f"reps {args.reps} after 1 warm-up; python {machine['python']}, sqlite {machine['sqlite']}, "
        f"{machine['cpus']} cpus, load avg at start {machine['loadavg_start'][0]:.2f}, "
        f"at end {machine['loadavg_end'][0]:.2f}"
    )
    if args.json is not None:
        payload = {
            "machine": machine,
            "reps": args.reps,
            "targets": {target.key: target.limit for target in TARGETS},
            "runs": runs,
        }
        args.json.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
