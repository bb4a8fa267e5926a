"""How good and how fast "for you" is at 56k papers, against the same profile run by Whoosh and by FTS5.

Run by hand (prints numbers, asserts nothing), on an index built beforehand:
    papers index --listings /work/shared/corpus/listings --index-dir /tmp/fy56k
    .venv/bin/python bench/bench_foryou.py --index-dir /tmp/fy56k [--runs 20] [--no-fts5]
Prints, for 10 and 50 stars of one topic: the first call on a freshly opened index (cold: posting lists
decoded, seeds made), then p50/p95 of repeated calls as the reader makes them (warm: other read marks each
time; and with one new star each time). Baselines in the same run score the same profile (the centroid's
terms and weights) as one boosted OR query through Whoosh's BM25F and through SQLite FTS5's bm25 (FTS5 has no
per-term weights: plain OR). Then the top-20 topic share at 56k for three title rules (see
tests/unit/test_foryou_corpus.py). FTS5 is built in a temporary directory and removed afterwards.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from whoosh import query as wq  # noqa: E402

from index.listings.identity import paper_id  # noqa: E402
from index.search.index import SearchIndex  # noqa: E402
from index.search.profile import _centroid, _unit  # noqa: E402
from index.search.sets import sole_set  # noqa: E402

JSONL = REPO.parent / "shared" / "corpus" / "jsonl"
WHOOSH_RUNS = 3
TOPICS = {
    "reinforcement learning": re.compile(r"reinforcement learning", re.IGNORECASE),
    "machine translation": re.compile(r"machine translation", re.IGNORECASE),
    "bandits": re.compile(r"bandit", re.IGNORECASE),
}


def titles() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in sorted(JSONL.glob("*.jsonl")):
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                record = json.loads(line)
                found[paper_id(record["abstract"])] = record["title"]
    return found


def percentiles(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(ordered):6.1f} ms  p95 {p95:6.1f} ms  (n={len(ordered)})"


def timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def profile_terms(index: SearchIndex, stars: list[str]) -> dict[str, float]:
    """The centroid for these stars, as for_you builds it (for the baselines)."""
    searcher = index.maintenance.searcher
    profile = index._profile
    made = profile.seeds(searcher, stars, index._indexed_text, index._similarity.key_terms)
    postings = profile.postings(searcher)
    return _centroid([vector for _id, seed in made if (vector := _unit(seed.terms, postings))])


def fts5_table(index: SearchIndex, work: Path) -> sqlite3.Connection:
    view = index.maintenance.load_snapshot()
    assert view is not None
    conn = sqlite3.connect(work / "fts5.db")
    start = time.perf_counter()
    with conn:
        conn.execute(
            "CREATE VIRTUAL TABLE papers USING fts5(id UNINDEXED, abstract, tokenize='porter unicode61')"
        )
        conn.executemany(
            "INSERT INTO papers VALUES (?, ?)", ((pid, index.plain_abstract(pid)) for pid in view.ids)
        )
    conn.execute("INSERT INTO papers(papers) VALUES('optimize')")
    conn.commit()
    print(f"fts5 table of {len(view.ids)} abstracts built in {time.perf_counter() - start:.0f} s")
    return conn


def latency(
    index_dir: Path, stars: list[str], pool: list[str], runs: int, fts5: sqlite3.Connection | None
) -> None:
    index = SearchIndex.open(index_dir)
    view = index.maintenance.load_snapshot()
    assert view is not None
    everyone = list(view.ids)
    chooser = random.Random(len(stars))
    cold = timed(lambda: index.for_you(stars, frozenset(stars), 20))
    warm, new_star, whoosh_or, fts = [], [], [], []
    for _run in range(runs):
        read = frozenset(chooser.sample(everyone, 200))
        warm.append(timed(lambda read=read: index.for_you(stars, read | set(stars), 20)))
        extra = [*stars, chooser.choice(pool)]
        new_star.append(timed(lambda extra=extra: index.for_you(extra, frozenset(extra), 20)))
    terms = profile_terms(index, stars)
    boosted = wq.Or([wq.Term("abstract", term, boost=weight) for term, weight in terms.items()])
    searcher = index.maintenance.searcher
    for _run in range(WHOOSH_RUNS):  # ~10 s each: a few show the order of magnitude
        whoosh_or.append(timed(lambda: searcher.search(boosted, limit=20, optimize=False)))
    match = " OR ".join(f'"{term}"' for term in terms)
    sql = "SELECT id FROM papers WHERE papers MATCH ? ORDER BY rank LIMIT 20"
    for _run in range(runs if fts5 is not None else 0):
        assert fts5 is not None
        fts.append(timed(lambda: fts5.execute(sql, (match,)).fetchall()))
    print(f"{len(stars)} stars, {len(everyone)} papers:")
    print(f"  for_you cold (first call after opening)   {cold:6.1f} ms")
    print(f"  for_you warm (200 other read marks)       {percentiles(warm)}")
    print(f"  for_you warm + one new star               {percentiles(new_star)}")
    print(f"  baseline: Whoosh boosted OR of the {len(terms)} profile terms  {percentiles(whoosh_or)}")
    if fts:
        print(f"  baseline: FTS5 bm25 OR of the same terms       {percentiles(fts)}")
    index.maintenance.close()


def shares(index_dir: Path, found: dict[str, str], draws: int = 3) -> None:
    index = SearchIndex.open(index_dir)
    view = index.maintenance.load_snapshot()
    assert view is not None
    for topic, rule in TOPICS.items():
        papers = [pid for pid in view.ids if rule.search(found.get(pid, ""))]
        measured = []
        for draw in range(draws):
            stars = random.Random(draw).sample(papers, 10)
            hits = index.for_you(stars, frozenset(stars), 20)
            measured.append(sum(1 for hit in hits if rule.search(found.get(hit.id, ""))) / 20)
        base = len(papers) / len(view.ids)
        print(f"  {topic}: top-20 share {statistics.fmean(measured):.2f} {measured} (random: {base:.3f})")
    index.maintenance.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--index-dir", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--no-fts5", action="store_true", help="skip the FTS5 baseline (saves its build)")
    args = parser.parse_args()
    args.index_dir = sole_set(args.index_dir)  # `papers index --index-dir` keeps a set under the root
    found = titles()
    index = SearchIndex.open(args.index_dir)
    view = index.maintenance.load_snapshot()
    assert view is not None, f"no index in {args.index_dir}"
    rule = TOPICS["reinforcement learning"]
    topic = [pid for pid in view.ids if rule.search(found.get(pid, ""))]
    with tempfile.TemporaryDirectory() as work:
        fts5 = None if args.no_fts5 else fts5_table(index, Path(work))
        index.maintenance.close()
        for count in (10, 50):
            stars = random.Random(count).sample(topic, count)
            latency(args.index_dir, stars, topic, args.runs, fts5)
        if fts5 is not None:
            fts5.close()
    print("10 stars of one topic (title rule), top 20 at the full corpus:")
    shares(args.index_dir, found)


if __name__ == "__main__":
    main()
