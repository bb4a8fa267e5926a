"""Regenerate the labelled similarity sample in tests/data from the corpus's JSONL titles: run by hand.

`.venv/bin/python bench/make_similar_sample.py` reads /work/shared/corpus/jsonl, keeps papers whose TITLE
matches exactly one topic rule below, takes `PER_TOPIC` of each topic in a fixed pseudo-random order (sorted
by paper id, which is a hash of the abstract) and writes

- tests/data/similar_labelled.tsv: paper id, topic, title (the labels; titles only to read them by eye)
- tests/data/listings_similar/sample.txt: the abstracts as a seed-format listing, without titles, so the
  index sees what it sees for the corpus (whose listings have no titles) and a title cannot leak the label.

The same corpus always gives the same files; `tests/unit/test_similar.py` measures on them.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from index.listings.identity import normalize_abstract, paper_id  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus" / "jsonl"
LABELS = REPO / "tests" / "data" / "similar_labelled.tsv"
LISTING = REPO / "tests" / "data" / "listings_similar" / "sample.txt"
PER_TOPIC = 25
MAX_ABSTRACT = 2000
"""Longer abstracts are skipped: they keep the stored sample small and are mostly PDF-extraction debris."""

TOPICS: dict[str, re.Pattern[str]] = {
    name: re.compile(pattern, re.IGNORECASE)
    for name, pattern in {
        "diffusion": r"\b(diffusion models?|denoising diffusion|latent diffusion|diffusion probabilistic"
        r"|score-based generative)\b",
        "reinforcement": r"\breinforcement learning\b",
        "graph": r"\b(graph neural networks?|GNNs?|graph convolutional networks?)\b",
        "translation": r"\b(machine translation|NMT)\b",
        "detection": r"\bobject detect(ion|ors?)\b",
        "bandits": r"\bbandits?\b",
        "pointcloud": r"\bpoint clouds?\b",
        "speech": r"\b(speech|ASR|speaker)\b",
    }.items()
}


def main() -> None:
    candidates: dict[str, list[tuple[str, str, str]]] = {topic: [] for topic in TOPICS}
    seen: set[str] = set()
    for path in sorted(CORPUS.glob("*.jsonl")):
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                record = json.loads(line)
                title = " ".join(str(record.get("title") or "").split())
                abstract = normalize_abstract(str(record["abstract"]))
                topics = [topic for topic, rule in TOPICS.items() if rule.search(title)]
                if len(topics) != 1 or len(abstract) > MAX_ABSTRACT:
                    continue
                key = paper_id(abstract)
                if key in seen:
                    continue
                seen.add(key)
                candidates[topics[0]].append((key, title, abstract))
    rows: list[tuple[str, str, str, str]] = []
    for topic, found in candidates.items():
        chosen = sorted(found)[:PER_TOPIC]
        if len(chosen) < PER_TOPIC:
            raise SystemExit(f"only {len(chosen)} papers for {topic}")
        rows.extend((key, topic, title, abstract) for key, title, abstract in chosen)
    rows.sort()  # listing order independent of topic, so neighbours in the file say nothing
    LABELS.write_text(
        "# id\ttopic\ttitle (from bench/make_similar_sample.py; the title rule chose the topic)\n"
        + "".join(f"{key}\t{topic}\t{title}\n" for key, topic, title, _ in rows),
        encoding="utf-8",
    )
    LISTING.parent.mkdir(parents=True, exist_ok=True)
    LISTING.write_text(
        "Labelled sample 2000 Papers\n\n" + "\n\n".join(abstract for *_, abstract in rows) + "\n",
        encoding="utf-8",
    )
    counts = ", ".join(f"{topic} {len(found)}" for topic, found in candidates.items())
    print(f"{len(rows)} papers written; candidates per topic: {counts}")
    for path in (LABELS, LISTING):
        print(f"{path.relative_to(REPO)}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
