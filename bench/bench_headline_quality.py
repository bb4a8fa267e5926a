"""How close synthesised headlines come to the real titles, on whole venues no headline code was tuned on.

Run by hand: `.venv/bin/python bench/bench_headline_quality.py [--oracle 1000]`. It reads the corpus's
JSONL (`../shared/corpus/jsonl/`, real titles beside their abstracts), keeps the held-out venues (one each
from vision, NLP and ML: `index.headline.train.HELD_OUT`, never trained on), and prints ROUGE-1
and ROUGE-L F1 against the real titles, per venue and overall, in one run, for:

- the learned model (`index.headline.pipeline.headlines`, a batch at a time as the index build
  makes them: what the reader shows for a title-less paper),
- the first "we propose" sentence cut at 90 characters (the lead sentence when there is none),
- the lead sentence cut at 90 characters,
- with `--oracle N`: the best contiguous span of 3-15 words of each abstract, on N papers spread over the
  venues: an upper bound for any extractive headline.

ROUGE here is the issue's (`index.headline.rouge`): lowercased words (letters and digits),
stopwords kept, F1 of unigram overlap (ROUGE-1) and of the longest common subsequence (ROUGE-L). Also
printed: headline time per paper.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from index.headline.pipeline import headlines  # noqa: E402
from index.headline.rouge import lead_sentence, proposing_sentence, rouge_1, rouge_l  # noqa: E402
from index.headline.rouge import rouge_words as words  # noqa: E402
from index.headline.train import HELD_OUT  # noqa: E402
from index.render.abstract import to_plain  # noqa: E402

JSONL = REPO.parent / "shared" / "corpus" / "jsonl"


def best_span(plain: str, reference: Sequence[str]) -> str:
    """The contiguous 3-15-word span of the abstract with the highest ROUGE-1 against the title."""
    tokens = words(plain)
    best, best_score = "", -1.0
    for start in range(len(tokens)):
        for end in range(start + 3, min(start + 15, len(tokens)) + 1):
            score = rouge_1(tokens[start:end], reference)
            if score > best_score:
                best, best_score = " ".join(tokens[start:end]), score
    return best


def held_out_papers() -> dict[str, list[tuple[str, str]]]:
    """(plain abstract, plain title) of every held-out paper with both, by venue."""
    papers: dict[str, list[tuple[str, str]]] = {}
    for venue in HELD_OUT:
        rows = papers.setdefault(venue, [])
        with (JSONL / f"{venue}.jsonl").open(encoding="utf-8") as lines:
            for line in lines:
                record = json.loads(line)
                abstract, title = record.get("abstract") or "", record.get("title") or ""
                if abstract.strip() and title.strip():
                    rows.append((to_plain(abstract), to_plain(title)))
    return papers


def score(
    system: Callable[[str, list[str]], str], papers: Sequence[tuple[str, str]]
) -> tuple[float, float, float]:
    """Mean ROUGE-1, mean ROUGE-L, and seconds per paper."""
    ones, ells = [], []
    started = time.process_time()
    made = []
    for plain, title in papers:
        made.append(system(plain, words(title)))
    seconds = (time.process_time() - started) / max(len(papers), 1)
    for line, (_, title) in zip(made, papers, strict=True):
        reference = words(title)
        ones.append(rouge_1(words(line), reference))
        ells.append(rouge_l(words(line), reference))
    return statistics.fmean(ones), statistics.fmean(ells), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oracle", type=int, default=0, help="also the best 3-15-word span, on N papers")
    args = parser.parse_args()
    by_venue = held_out_papers()
    everything = [paper for venue in HELD_OUT for paper in by_venue[venue]]
    plains = [plain for plain, _ in everything]
    started = time.process_time()
    learned = dict(zip(plains, headlines(plains), strict=True))  # a batch at a time, as the index build does
    model_seconds = (time.process_time() - started) / len(plains)
    systems: dict[str, Callable[[str, list[str]], str]] = {
        "learned model": lambda plain, _title: learned[plain]
    }
    systems['"we propose" sentence, 90 chars'] = lambda plain, _title: proposing_sentence(plain)
    systems["lead sentence, 90 chars"] = lambda plain, _title: lead_sentence(plain)
    sizes = ", ".join(f"{venue} {len(by_venue[venue])}" for venue in HELD_OUT)
    print(f"held-out venues: {sizes} ({len(everything)} papers); ROUGE F1 against the real titles")
    columns = "  ".join(f"{venue:>11}" for venue in HELD_OUT)
    print(f"{'system':34} {'ROUGE-1':>8} {'ROUGE-L':>8}  {columns}  {'per paper':>10}")
    for name, system in systems.items():
        one, ell, seconds = score(system, everything)
        if name == "learned model":
            seconds = model_seconds
        per_venue = "  ".join(f"{score(system, by_venue[venue])[0]:11.3f}" for venue in HELD_OUT)
        print(f"{name:34} {one:8.3f} {ell:8.3f}  {per_venue}  {seconds * 1e6:8.0f} µs")
    if args.oracle:
        step = max(1, len(everything) // args.oracle)
        sample = everything[::step][: args.oracle]
        one, ell, _ = score(best_span, sample)
        label = "best 3-15-word span (oracle)"
        print(f"{label:34} {one:8.3f} {ell:8.3f}  (every {step}th paper: {len(sample)})")
    print("(per-venue columns: ROUGE-1)")


if __name__ == "__main__":
    main()
