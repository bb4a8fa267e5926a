"""How good and how fast "more like this" is: run by hand, prints numbers only.

`.venv/bin/python bench/bench_similar.py` builds throwaway indexes of the seeds and of the labelled corpus
sample (tests/data, see bench/make_similar_sample.py) and prints the mean same-topic share of the top 5
similar papers on each. `--index-dir DIR` also times `SearchIndex.similar` on 100 random papers of an index
built beforehand (for the 56k corpus: `papers index --listings /work/shared/corpus/listings --index-dir DIR`)
and, when that index holds the labelled sample's papers, measures the share among all of its papers: a hit's
topic then comes from its title in the corpus's JSONL, by the sample's title rules (a hit matching no rule
counts as another topic, so this is a lower bound).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.make_similar_sample import CORPUS, TOPICS  # noqa: E402
from index.listings.catalog import load_catalog  # noqa: E402
from index.listings.identity import paper_id as id_of  # noqa: E402
from index.search.index import SearchIndex  # noqa: E402
from index.search.sets import sole_set  # noqa: E402

DATA = REPO / "tests" / "data"
TOP = 5


def read_labels(path: Path) -> dict[str, frozenset[str]]:
    """Paper id -> its topics, from a tab-separated file whose second column lists them (comma-separated)."""
    labels: dict[str, frozenset[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            paper_id, topics, *_ = line.split("\t")
            labels[paper_id] = frozenset(topics.split(","))
    return labels


def same_topic_share(index: SearchIndex, labels: dict[str, frozenset[str]], top: int = TOP) -> float:
    """Mean share of each labelled paper's `top` similar papers that share a topic with it.

    Papers no other paper shares a topic with are left out: nothing could score for them.
    """
    shares = []
    for paper_id, topics in labels.items():
        if not any(topics & other for key, other in labels.items() if key != paper_id):
            continue
        hits = index.similar(paper_id, limit=top)
        shares.append(sum(1 for hit in hits if labels.get(hit.id, frozenset()) & topics) / top)
    return statistics.fmean(shares)


def share_on(listings: Path, labels: Path, workdir: Path) -> float:
    index = SearchIndex.open(workdir)
    try:
        index.maintenance.rebuild(load_catalog([listings]))
        return same_topic_share(index, read_labels(labels))
    finally:
        index.maintenance.close()


def share_in_corpus(index: SearchIndex, labels: dict[str, frozenset[str]], top: int = TOP) -> float | None:
    """The labelled papers' same-topic share among every paper of `index`, topics read from hit titles."""
    if not CORPUS.is_dir() or not all(index.resolve_id(paper_id) == paper_id for paper_id in labels):
        return None
    titles: dict[str, str] = {}
    for path in sorted(CORPUS.glob("*.jsonl")):
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                record = json.loads(line)
                titles[id_of(record["abstract"])] = str(record.get("title") or "")
    shares = []
    for paper_id, topics in labels.items():
        hits = index.similar(paper_id, limit=top)
        found = [
            {name for name, rule in TOPICS.items() if rule.search(titles.get(hit.id, ""))} for hit in hits
        ]
        shares.append(sum(1 for hit_topics in found if hit_topics & topics) / top)
    return statistics.fmean(shares)


def time_similar(index_dir: Path, queries: int, seed: int = 12) -> None:
    index = SearchIndex.open(index_dir)
    view = index.maintenance.load_snapshot()
    assert view is not None, f"no index in {index_dir}"
    chosen = random.Random(seed).sample(list(view.ids), queries)
    index.similar(chosen[0])  # the first call opens readers and caches
    times = []
    for paper_id in chosen:
        start = time.perf_counter()
        index.similar(paper_id, limit=20)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    print(
        f"similar at {len(view.ids)} papers, {queries} random ids, limit 20: "
        f"mean {statistics.fmean(times):.1f} ms, median {times[len(times) // 2]:.1f} ms, "
        f"p95 {times[int(len(times) * 0.95)]:.1f} ms, max {times[-1]:.1f} ms"
    )
    corpus = share_in_corpus(index, read_labels(DATA / "similar_labelled.tsv"))
    if corpus is not None:
        print(f"same-topic share of the top {TOP}, labelled sample among all {len(view.ids)}: {corpus:.3f}")
    index.maintenance.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-dir", type=Path, help="a prebuilt index to time similar on")
    parser.add_argument("--queries", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        seeds = share_on(REPO / "seeds", DATA / "seed_topics.tsv", Path(tmp) / "seeds")
        sample = share_on(
            DATA / "listings_similar" / "sample.txt", DATA / "similar_labelled.tsv", Path(tmp) / "sample"
        )
    print(f"same-topic share of the top {TOP}: seeds {seeds:.3f}, labelled sample {sample:.3f}")
    if args.index_dir is not None:
        time_similar(sole_set(args.index_dir), args.queries)  # `papers index` keeps a set under it


if __name__ == "__main__":
    main()
