"""Per-keystroke search as the reader runs it, next to SQLite FTS5 doing the same work in the same run.

Run by hand (it prints numbers and asserts nothing), on an index built beforehand with `papers index`:

    .venv/bin/python -m index.cli index --listings DIR --index-dir IX      # once per corpus
    .venv/bin/python bench/bench_keystroke.py --listings DIR --index-dir IX [--whoosh-baseline]

Measured in one fresh process, so nothing is warm that a new reader session would not have warm:
  keystrokes   every prefix of a dozen typed queries through `Library.view(prefix, typing=True)` (the last
               word a prefix while it is typed, every hit ranked and counted, "did you mean" when nothing
               is found): what the reader's search worker runs on each key. First pass = a new session
               typing them; second pass = typing them again.
  top-20 mix   bench_search's query mix through `SearchIndex.search(q, limit=20, highlight_top=20)`, result
               cache cleared before each repetition (as bench_search does), on a SearchIndex opened apart:
               "first use" is each query's first run there (its posting lists not read yet).
FTS5 (with `prefix='1 2 3'`) gets the same papers (rendered abstracts) in a temporary file and the same
prefixes as `"w1" "w2"*`: all hits ranked by bm25 for a keystroke, the top 20 with snippet() and highlight()
for the mix. tantivy (the `bench` extra; skipped when it is not installed) gets the same keystrokes: finished
words as terms, the last word as every term starting with it, all hits ranked by BM25 and counted. Ratios
are ours/peer.
With --whoosh-baseline the keystrokes are also run the way they were before the array ranker: Whoosh's own
collector, and Whoosh's `terms_within` for "did you mean".
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.bench_search import QUERY_MIX  # noqa: E402
from bench.search_peers import Fts5, Fts5Query, Row, Tantivy  # noqa: E402
from bench.search_report import percentile  # noqa: E402
from index.library import Library  # noqa: E402
from index.listings.catalog import load_catalog  # noqa: E402
from index.render.abstract import to_plain  # noqa: E402
from index.search.index import SearchIndex  # noqa: E402
from index.search.nearwords import NearWords  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus" / "listings"
TYPED = (
    "reinforcement learning",
    "diffusion models",
    "graph neural networks",
    "large language models",
    "contrastive learning",
    "federated learning privacy",
    "vision transformer",
    "bayesian optimization",
    "adversarial robustness",
    "neural radiance fields",
    "knowledge distillation",
    "causal inference",
)
_FTS_WORD = re.compile(r"\w+")


def _say(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def prefixes() -> list[str]:
    """Every prefix of every typed query, in typing order (a space is a keystroke too)."""
    return [typed[:end] for typed in TYPED for end in range(1, len(typed) + 1)]


def fts5_match(text: str) -> str | None:
    """A typed prefix as FTS5 MATCH: its words, each quoted (AND), the last one a prefix (`"w"*`) while it
    is being typed (no space after it), or None when it has none."""
    words = _FTS_WORD.findall(text.lower())
    if not words:
        return None
    last = "*" if last_is_prefix(text) else ""
    return " ".join(f'"{word}"' for word in words) + last


def last_is_prefix(text: str) -> bool:
    return bool(text) and not text[-1].isspace()


def short_prefix(text: str) -> bool:
    """Whether the word being typed has 1-3 letters: the keystrokes whose completions are many."""
    words = _FTS_WORD.findall(text)
    return bool(words) and last_is_prefix(text) and len(words[-1]) <= 3


def timed(run: Callable[[], object], items: int = 1) -> float:
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) / items


def stats(samples: Sequence[float]) -> tuple[float, float, float]:
    """p50, p95 and max in milliseconds."""
    return percentile(samples, 50) * 1000, percentile(samples, 95) * 1000, max(samples) * 1000


def row(label: str, ours: Sequence[float], theirs: Sequence[float] | None, target: str) -> list[str]:
    p50, p95, top = stats(ours)
    cells = [label, f"{p50:.1f} / {p95:.1f} / {top:.0f}"]
    if theirs:
        f50, f95, fmax = stats(theirs)
        cells += [f"{f50:.1f} / {f95:.1f} / {fmax:.0f}", f"{p50 / f50:.2f}x", f"{p95 / f95:.2f}x"]
    else:
        cells += ["-", "-", "-"]
    return [*cells, target]


def keystrokes(library: Library, typed: Sequence[str]) -> list[float]:
    return [timed(lambda text=text: library.view(text, "all", "relevance", typing=True)) for text in typed]


def tantivy_keystrokes(peer: Tantivy, typed: Sequence[str]) -> list[float]:
    return [
        timed(lambda text=text: peer.keystroke(_FTS_WORD.findall(text.lower()), last_is_prefix(text)))
        for text in typed
    ]


def whoosh_baseline(listings: Path, index_dir: Path, work: Path, typed: Sequence[str]) -> list[float]:
    """The keystrokes the way they ran before the array ranker: Whoosh's collector and `terms_within`."""
    _say("keystrokes through Whoosh's collector (array ranker off)")
    plain = Library.open([listings], index_dir=index_dir, data_dir=work / "data2")
    plain._search_index()._ranker.fast_ranker = lambda searcher: None  # type: ignore[method-assign]
    near = NearWords(plain._search_index().maintenance.searcher.reader(), "abstract")
    near._swaps = None  # "did you mean" asks Whoosh's terms_within, as before
    plain._search_index()._near = near
    return keystrokes(plain, typed)


def tantivy_run(
    rows: Sequence[Row], typed: Sequence[str]
) -> tuple[Tantivy | None, float, list[float], list[float]]:
    """tantivy over `rows`: it, its build seconds and two passes of `typed`; (None, ...) if not installed."""
    try:
        peer = Tantivy()
    except ImportError:
        _say("tantivy is not installed (pip install -e '.[bench]'): that peer is left out")
        return None, 0.0, [], []
    _say("tantivy: build, then the same keystrokes")
    built = peer.build(rows)
    return peer, built, tantivy_keystrokes(peer, typed), tantivy_keystrokes(peer, typed)


def agreement(library: Library, db: Fts5, peer: Tantivy | None, typed: Sequence[str]) -> str:
    """Hit counts of a few keystrokes from each engine: the same work, not merely the same speed."""
    cells = []
    for text in typed:
        ours = library.view(text, "all", "relevance", typing=True).total
        match = fts5_match(text)
        fts = db.count(Fts5Query(match)) if match else -1
        theirs = peer.keystroke(_FTS_WORD.findall(text.lower()), last_is_prefix(text)) if peer else -1
        cells.append(f"{text!r}: {ours}/{fts}/{theirs}")
    return "hits ours/FTS5/tantivy: " + ", ".join(cells)


def fts5_keystrokes(db: Fts5, typed: Sequence[str]) -> list[float]:
    sql = "SELECT id FROM papers WHERE papers MATCH ? ORDER BY rank"
    samples = []
    for text in typed:
        match = fts5_match(text)
        if match is None:
            samples.append(timed(lambda: db.conn.execute("SELECT id FROM papers").fetchall()))
        else:
            samples.append(timed(lambda match=match: db.conn.execute(sql, (match,)).fetchall()))
    return samples


def mix(index: SearchIndex, reps: int) -> tuple[list[float], list[float]]:
    """(first use of each query, every later repetition with the result cache cleared) in seconds."""
    first, later = [], []
    for query in QUERY_MIX:
        first.append(timed(lambda q=query.whoosh: index.search(q, limit=20, highlight_top=20)))
        for _ in range(reps):
            # A new query each time, as bench_search times it (no public switch).
            index._ranker._cache.clear()
            later.append(timed(lambda q=query.whoosh: index.search(q, limit=20, highlight_top=20)))
    return first, later


def fts5_mix(db: Fts5, reps: int) -> tuple[list[float], list[float], list[str]]:
    first, later, missing = [], [], []
    for query in QUERY_MIX:
        if query.fts5 is None:
            missing.append(query.name)
            continue
        fts5_query: Fts5Query = query.fts5
        first.append(timed(lambda q=fts5_query: db.search(q)))
        later += [timed(lambda q=fts5_query: db.search(q)) for _ in range(reps)]
    return first, later, missing


def build_fts5(listings: Path, path: Path) -> tuple[Fts5, list[Row], float]:
    catalog = load_catalog([listings])
    rows = [
        Row(paper.id, paper.headline, to_plain(paper.abstract), "\n".join(paper.authors), paper.year)
        for paper in catalog.papers
    ]
    db = Fts5(path, prefix="1 2 3")
    return db, rows, db.build(rows)


Passes = tuple[list[float], list[float]]
"""A first and a second pass of the keystrokes, in seconds."""


def keystroke_rows(typed: Sequence[str], ours: Passes, fts5: Passes, tantivy: Passes) -> list[list[str]]:
    """The keystroke rows: both passes against FTS5, split by the length of the word being typed, and
    against tantivy when it ran."""
    short = [number for number, text in enumerate(typed) if short_prefix(text)]
    longer = [number for number in range(len(typed)) if number not in short]
    (cold, warm), (fts_cold, fts_warm), (tan_cold, tan_warm) = ours, fts5, tantivy
    rows = [
        row("keystroke, first pass (new session)", cold, fts_cold, "p95 <= 30 ms at 56k, <= 100 ms at 250k"),
        row("keystroke, typed again", warm, fts_warm, ""),
        row("  last word 1-3 letters", part(cold, short), part(fts_cold, short), ""),
        row("  the other keystrokes", part(cold, longer), part(fts_cold, longer), ""),
    ]
    if tan_cold:
        rows += [
            row("keystroke vs tantivy, first pass", cold, tan_cold, ""),
            row("keystroke vs tantivy, typed again", warm, tan_warm, ""),
        ]
    return rows


def part(samples: Sequence[float], numbers: Sequence[int]) -> list[float]:
    return [samples[number] for number in numbers] if samples else []


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(r[col]) for r in [header, *rows]) for col in range(len(header))]
    lines = [
        "  ".join(cell.ljust(widths[col]) for col, cell in enumerate(r)).rstrip() for r in [header, *rows]
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listings", type=Path, default=CORPUS, help="listing folder (default: %(default)s)")
    parser.add_argument("--index-dir", type=Path, required=True, help="an index of --listings, built already")
    parser.add_argument("--reps", type=int, default=20, help="repetitions per query of the top-20 mix")
    parser.add_argument("--whoosh-baseline", action="store_true", help="also time Whoosh's own collector")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="papers-bench-keys-") as tmp:
        work = Path(tmp)
        _say("opening the library (the index must be current: build it with `papers index` first)")
        library = Library.open([args.listings], index_dir=args.index_dir, data_dir=work / "data")
        if not library.index_ready:
            raise SystemExit(
                f"{args.index_dir} is not a current index of {args.listings}; run `papers index`"
            )
        papers = len(library.papers.ids)
        typed = prefixes()
        _say(f"{papers:,} papers; {len(typed)} keystrokes, first pass")
        cold = keystrokes(library, typed)
        warm = keystrokes(library, typed)
        _say("top-20 mix, on an index opened apart (its own caches: first use is cold)")
        apart = SearchIndex.open(library.set_index_dir)
        mix_first, mix_later = mix(apart, args.reps)
        apart.maintenance.close()
        baseline = whoosh_baseline(args.listings, args.index_dir, work, typed) if args.whoosh_baseline else []
        _say("FTS5: build, then the same keystrokes and mix")
        db, rows, build_s = build_fts5(args.listings, work / "fts5.db")
        fts_cold = fts5_keystrokes(db, typed)
        fts_warm = fts5_keystrokes(db, typed)
        _fts_first, fts_later, missing = fts5_mix(db, args.reps)
        peer, tan_build_s, tan_cold, tan_warm = tantivy_run(rows, typed)
        agreed = agreement(library, db, peer, ("g", "gra", "grap", "graph neu", "diffusion mod", "reinfo"))
        db.close()
    rows_out = keystroke_rows(typed, (cold, warm), (fts_cold, fts_warm), (tan_cold, tan_warm))
    if baseline:
        rows_out.append(row("keystroke, before (Whoosh collector)", baseline, fts_cold, ""))
    rows_out += [
        row("top-20 mix, first use", mix_first, None, ""),
        row(f"top-20 mix, {args.reps} reps each", mix_later, None, "p95 <= 20 ms"),
    ]
    no_fuzzy = [name for name in (q.name for q in QUERY_MIX) if name not in missing]
    ours_common = [
        value
        for number, query in enumerate(QUERY_MIX)
        if query.name in no_fuzzy
        for value in mix_later[number * args.reps : (number + 1) * args.reps]
    ]
    rows_out.append(row("top-20 mix without fuzzy (FTS5 has none)", ours_common, fts_later, ""))
    built = f"FTS5 built in {build_s:.1f} s" + (f", tantivy in {tan_build_s:.1f} s" if peer else "")
    print(f"== {papers:,} papers ({args.listings}); index {args.index_dir}; {built} ==")
    header = [
        "work",
        "ours p50 / p95 / max ms",
        "peer (FTS5 or tantivy) p50 / p95 / max ms",
        "p50 ratio",
        "p95 ratio",
        "target",
    ]
    print(table(header, rows_out))
    load = os.getloadavg()[0]
    short = sum(map(short_prefix, typed))
    print(f"{len(typed)} keystrokes per pass ({short} with a 1-3 letter last word); ratios: ours/peer")
    print(f"(> 1: slower); load average {load:.2f}")
    print(agreed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
