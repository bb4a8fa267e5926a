"""How well each engine finds what ML papers are about: P@10 and nDCG@20, `papers` against FTS5 and tantivy.

Run by hand (it prints numbers and asserts nothing), on an index built beforehand with `papers index`:

    .venv/bin/python -m index.cli index --listings DIR --index-dir IX
    nice .venv/bin/python bench/bench_relevance.py --listings DIR --index-dir IX [--per-query]

Every engine ranks the same title-less abstracts (the listings; FTS5 and tantivy get the rendered abstract
the project indexes, `papers` its own index of them). A paper is relevant to a query when its real title (in
the JSONL corpus, matched by paper id) contains the query in some spelling: `Q-learning`, `Q learning` or
`Qlearning`, Greek letters as typed or spelled out, a plural `s`; for an acronym also its long form
(`GNN`: "graph neural network"). Three query sets, all hand-written here:
  terms          ML terms with short or symbolic parts (`Q-learning`, `k-NN`, `R-CNN`, `ℓ1`, `ε-greedy`),
                 typed as written; each peer gets each word as a quoted phrase (its own tokenizer splits it)
  topics         multi-word topics from titles (`policy gradient`), typed without quotes: all the words
  topics ""      the same topics quoted as phrases
Targets (issue 39): terms P@10 >= 0.65 and at least 0.05 above the better peer; unquoted topics P@10 >= 0.30
and above both peers.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.search_peers import Fts5, Fts5Query, Row  # noqa: E402
from index.listings.catalog import load_catalog  # noqa: E402
from index.listings.identity import paper_id  # noqa: E402
from index.render.abstract import to_plain  # noqa: E402
from index.search.index import SearchIndex  # noqa: E402
from index.search.sets import sole_set  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus"


@dataclass(frozen=True, slots=True)
class Query:
    """What is typed, and the title phrases that make a paper relevant (the typed text itself first)."""

    typed: str
    also: tuple[str, ...] = ()

    def phrases(self) -> tuple[str, ...]:
        return (self.typed, *self.also)


TERMS = (
    Query("Q-learning"),
    Query("k-means"),
    Query("k-NN", ("k-nearest neighbor", "k nearest neighbour")),
    Query("t-SNE"),
    Query("R-CNN"),
    Query("Faster R-CNN"),
    Query("U-Net"),
    Query("f-divergence"),
    Query("L1"),
    Query("ℓ1"),
    Query("L0"),
    Query("top-k"),
    Query("n-gram"),
    Query("k-center"),
    Query("k-median"),
    Query("k-means++"),
    Query("X-ray"),
    Query("2D"),
    Query("6D"),
    Query("2.5D"),
    Query("3D-aware"),
    Query("RGB-D"),
    Query("SE(3)"),
    Query("GPT-2"),
    Query("GPT-3"),
    Query("T5"),
    Query("BERT"),
    Query("seq2seq"),
    Query("Re-ID", ("re-identification",)),
    Query("M-estimator"),
    Query("U-statistics"),
    Query("PAC-Bayes"),
    Query("DP-SGD"),
    Query("ε-greedy"),
    Query("α-divergence"),
    Query("Q-function"),
    Query("min-max"),
    Query("mini-batch"),
    Query("non-convex"),
    Query("sim-to-real"),
    Query("e-commerce"),
    Query("co-training"),
    Query("on-policy"),
    Query("GNN", ("graph neural network",)),
    Query("GCN", ("graph convolutional network",)),
    Query("RL", ("reinforcement learning",)),
    Query("LLM", ("large language model",)),
    Query("NLP", ("natural language processing",)),
    Query("GAN", ("generative adversarial network",)),
    Query("VAE", ("variational autoencoder", "variational auto-encoder")),
    Query("MCMC", ("Markov chain Monte Carlo",)),
    Query("SGD", ("stochastic gradient descent",)),
    Query("PCA", ("principal component analysis",)),
    Query("SVM", ("support vector machine",)),
    Query("MDP", ("Markov decision process",)),
    Query("POMDP", ("partially observable Markov decision process",)),
    Query("SLAM", ("simultaneous localization and mapping",)),
    Query("VQA", ("visual question answering",)),
    Query("NER", ("named entity recognition",)),
    Query("LSTM", ("long short-term memory",)),
    Query("ViT", ("vision transformer",)),
    Query("NeRF", ("neural radiance field",)),
    Query("ADMM", ("alternating direction method of multipliers",)),
    Query("DQN", ("deep Q-network",)),
)
TOPICS = (
    "policy gradient",
    "covariate shift",
    "domain adaptation",
    "knowledge distillation",
    "contrastive learning",
    "federated learning",
    "neural architecture search",
    "active learning",
    "transfer learning",
    "gaussian process",
    "variational inference",
    "bayesian optimization",
    "adversarial examples",
    "adversarial training",
    "object detection",
    "semantic segmentation",
    "instance segmentation",
    "pose estimation",
    "image captioning",
    "machine translation",
    "question answering",
    "sentiment analysis",
    "relation extraction",
    "text classification",
    "speech recognition",
    "optical flow",
    "depth estimation",
    "anomaly detection",
    "matrix completion",
    "dictionary learning",
    "topic models",
    "causal inference",
    "continual learning",
    "data augmentation",
    "model compression",
    "knowledge graph",
    "collaborative filtering",
    "differential privacy",
    "imitation learning",
    "motion planning",
    "scene graph",
    "metric learning",
    "spectral clustering",
    "language models",
    "diffusion models",
    "point cloud",
)

_GREEK = {"α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon", "ℓ": "l"}


def _normal(text: str) -> str:
    """Titles and phrases compared alike: compatibility forms, case, a few Greek letters, accents."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = "".join(_GREEK.get(char, char) for char in text)
    return "".join(char for char in unicodedata.normalize("NFKD", text) if not unicodedata.combining(char))


def title_pattern(phrases: Sequence[str]) -> re.Pattern[str]:
    """A title holding any of `phrases`, each part joined by a hyphen, a space or nothing, maybe plural."""
    options = []
    for phrase in phrases:
        parts = [re.escape(part) for part in re.split(r"[-\s]+", _normal(phrase)) if part]
        options.append(r"[-\s]?".join(parts))
    return re.compile(r"(?<![a-z0-9])(?:" + "|".join(options) + r")(?:s|es)?(?![a-z0-9+#])")


def _say(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def titles_by_id(jsonl: Path) -> dict[str, str]:
    found: dict[str, str] = {}
    for path in sorted(jsonl.glob("*.jsonl")):
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                found[paper_id(record["abstract"])] = _normal(record.get("title") or "")
    return found


class Tantivy:
    """The abstracts in a tantivy index in RAM (English stemming, BM25, positions for phrases)."""

    def __init__(self, rows: Sequence[Row]) -> None:
        import tantivy  # the `bench` extra

        builder = tantivy.SchemaBuilder()
        builder.add_text_field("id", stored=True, tokenizer_name="raw")
        builder.add_text_field("abstract", tokenizer_name="en_stem")
        self.index = tantivy.Index(builder.build())
        writer = self.index.writer(heap_size=200_000_000, num_threads=1)
        for row in rows:
            writer.add_document(tantivy.Document(id=row.id, abstract=row.abstract))
        writer.commit()
        writer.wait_merging_threads()
        self.index.reload()
        self.searcher = self.index.searcher()

    def search(self, text: str, limit: int) -> list[str]:
        parsed = self.index.parse_query(text, ["abstract"], conjunction_by_default=True)
        hits = self.searcher.search(parsed, limit).hits
        return [self.searcher.doc(address)["id"][0] for _score, address in hits]


def peer_query(typed: str, quoted: bool) -> str:
    """What a peer is given: each typed word as a quoted phrase (the peer's tokenizer splits `Q-learning`,
    `SE(3)` as it splits text), or the whole phrase quoted."""
    if quoted:
        return '"' + " ".join(re.findall(r"\w+", typed)) + '"'
    words = [" ".join(re.findall(r"\w+", word)) for word in typed.split()]
    return " ".join(f'"{word}"' for word in words if word)


def metrics(ranked: Sequence[str], relevant: set[str]) -> tuple[float, float]:
    """(P@10, nDCG@20) with binary gains."""
    p10 = sum(1 for paper in ranked[:10] if paper in relevant) / 10
    dcg = sum(1 / math.log2(rank + 2) for rank, paper in enumerate(ranked[:20]) if paper in relevant)
    ideal = sum(1 / math.log2(rank + 2) for rank in range(min(20, len(relevant))))
    return p10, (dcg / ideal if ideal else 0.0)


ENGINES = ("papers", "fts5", "tantivy")


def run_set(
    name: str,
    queries: Sequence[tuple[str, str, set[str]]],
    engines: dict[str, Callable[[str, str], list[str]]],
    per_query: bool,
) -> dict[str, tuple[float, float]]:
    """Mean P@10 and nDCG@20 per engine over one query set (printed per query with `per_query`)."""
    totals = {engine: [0.0, 0.0] for engine in engines}
    lines = []
    for typed, peer, relevant in queries:
        cells = [typed[:28].ljust(28), f"{len(relevant):5d}"]
        for engine, search in engines.items():
            p10, ndcg = metrics(search(typed, peer), relevant)
            totals[engine][0] += p10
            totals[engine][1] += ndcg
            cells.append(f"{p10:4.1f} {ndcg:5.2f}")
        lines.append("  ".join(cells))
    if per_query:
        print(f"\n{name}: query, relevant, then P@10 nDCG@20 for " + ", ".join(engines))
        print("\n".join(lines))
    return {engine: (p / len(queries), n / len(queries)) for engine, (p, n) in totals.items()}


def report(results: dict[str, dict[str, tuple[float, float]]], papers: int, stopped: Sequence[str]) -> None:
    """The table of every set and engine, and whether the targets are met."""
    print(f"\n{papers:,} abstracts; relevant = real title holds the query (see the docstring)")
    if stopped:
        print(f"papers stopped (ran out of time) on: {', '.join(stopped)}")
    print(f"{'set':<18}" + "".join(f"{engine + ' P@10 / nDCG@20':>26}" for engine in ENGINES))
    for name, figures in results.items():
        print(f"{name:<18}" + "".join(f"{figures[e][0]:>17.3f} / {figures[e][1]:.3f}" for e in ENGINES))
    term = next(iter(results.values()))
    topic = list(results.values())[1]
    term_peer = max(term["fts5"][0], term["tantivy"][0])
    topic_peer = max(topic["fts5"][0], topic["tantivy"][0])
    term_pass = term["papers"][0] >= max(0.65, term_peer + 0.05)
    topic_pass = topic["papers"][0] >= 0.30 and topic["papers"][0] > topic_peer
    print(
        f"targets: terms P@10 {term['papers'][0]:.3f} >= 0.65 and >= {term_peer + 0.05:.3f}: "
        f"{'PASS' if term_pass else 'MISS'}; topics P@10 {topic['papers'][0]:.3f} >= 0.30 and > "
        f"{topic_peer:.3f}: {'PASS' if topic_pass else 'MISS'}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--listings", type=Path, default=CORPUS / "listings")
    parser.add_argument("--jsonl", type=Path, default=CORPUS / "jsonl")
    parser.add_argument("--index-dir", type=Path, required=True, help="an index built with `papers index`")
    parser.add_argument("--per-query", action="store_true", help="print every query's figures")
    args = parser.parse_args(argv)

    _say("reading listings and titles")
    catalog = load_catalog([args.listings])
    titles = titles_by_id(args.jsonl)
    papers = [paper for paper in catalog.papers if paper.id in titles]
    if not papers:
        raise SystemExit(f"bench_relevance: no paper of {args.listings} has a title in {args.jsonl}")
    _say(f"{len(papers)} papers with a real title of {len(catalog.papers)}; rendering abstracts")
    rows = [Row(paper.id, "", to_plain(paper.abstract), "", paper.year) for paper in catalog.papers]

    ix = SearchIndex.open(sole_set(args.index_dir))
    stale = ix.maintenance.staleness([args.listings])
    if stale is not None:
        raise SystemExit(f"bench_relevance: the index in {args.index_dir} is not current ({stale})")
    with tempfile.TemporaryDirectory(prefix="papers-relevance-") as work:
        _say("building FTS5 and tantivy over the rendered abstracts")
        fts5 = Fts5(Path(work) / "fts5.db")
        fts5.build(rows)
        tantivy = Tantivy(rows)

        # Ranked warm, as a reader's session is after its warm-up: a cold first query on a loaded machine
        # may run out of its time and answer nothing, which is speed (bench_keystroke), not relevance.
        ix.warm()
        stopped: list[str] = []

        def ours(typed: str, _peer: str) -> list[str]:
            result = ix.search(typed, limit=20, highlight_top=0)
            if result.notice and "stopped" in result.notice:
                stopped.append(typed)
            return list(result.ids)

        def theirs_fts5(_typed: str, peer: str) -> list[str]:
            try:
                return [found for found, _snippet, _text in fts5.search(Fts5Query(peer), 20)]
            except Exception:  # an FTS5 syntax error is a miss, as a user would see it
                return []

        def theirs_tantivy(_typed: str, peer: str) -> list[str]:
            return tantivy.search(peer, 20)

        engines = {"papers": ours, "fts5": theirs_fts5, "tantivy": theirs_tantivy}

        def relevant(phrases: Sequence[str]) -> set[str]:
            pattern = title_pattern(phrases)
            return {paper.id for paper in papers if pattern.search(titles[paper.id])}

        terms = [(q.typed, peer_query(q.typed, False), relevant(q.phrases())) for q in TERMS]
        topics = [(t, peer_query(t, False), relevant([t])) for t in TOPICS]
        quoted = [(f'"{t}"', peer_query(t, True), relevant([t])) for t in TOPICS]
        _say("ranking")
        results = {
            f"terms ({len(terms)})": run_set("terms", terms, engines, args.per_query),
            f"topics ({len(topics)})": run_set("topics", topics, engines, args.per_query),
            f'topics "" ({len(quoted)})': run_set("quoted topics", quoted, engines, args.per_query),
        }
        fts5.close()
    ix.maintenance.close()
    report(results, len(catalog.papers), stopped)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
