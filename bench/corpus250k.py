"""Write a ~250k-paper corpus in seed listing format by recombining sentences of the real corpus.

The real corpus (/work/shared/corpus/listings, 56k abstracts) is too small to show how the reader behaves on a
server holding several venue-years. This generator keeps its vocabulary, sentence lengths and LaTeX/PDF
oddities by building each new abstract from the sentences of real ones: a random base abstract keeps about
half of its sentences in place and the others are replaced by sentences drawn from the whole corpus. The
random generator has a fixed seed, so the same command writes the same bytes on every machine (the benches
compare runs), and every abstract written is distinct by paper id (the project's own `paper_id`), so 250k
abstracts are 250k papers.

Usage: python bench/corpus250k.py [OUT_DIR] [--papers N] [--per-file N] [--seed N] [--no-originals]

Output goes to a directory (default /tmp/papers-corpus250k), never into the repository: generated data is
not committed.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from index.listings.identity import paper_id

DEFAULT_CORPUS = Path("/work/shared/corpus/listings")
DEFAULT_OUT = Path("/tmp/papers-corpus250k")
DEFAULT_PAPERS = 250_000
DEFAULT_PER_FILE = 1_000
DEFAULT_SEED = 20261203
KEEP_BASE = 0.5
"""Share of a base abstract's sentences kept in place: enough for an abstract to read as one topic."""
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'])")
_VENUES = ("NeurIPS", "ICML", "ICLR", "CVPR", "ACL", "EMNLP", "AAAI", "IJCAI", "AISTATS", "UAI", "COLT")


def read_corpus(corpus: Path) -> list[tuple[str, list[str]]]:
    """(header, abstracts) per seed-format listing file of `corpus`, in file-name order."""
    listings: list[tuple[str, list[str]]] = []
    for path in sorted(corpus.glob("*.txt")):
        paragraphs = [" ".join(block.split()) for block in path.read_text(encoding="utf-8").split("\n\n")]
        paragraphs = [paragraph for paragraph in paragraphs if paragraph]
        if len(paragraphs) > 1:
            listings.append((paragraphs[0], paragraphs[1:]))
    return listings


def split_sentences(abstract: str) -> list[str]:
    """The sentences of one abstract; a crude split is fine, it only has to give plausible pieces."""
    return [piece for piece in _SENTENCE_BREAK.split(abstract) if piece]


def synthetic_abstracts(abstracts: Sequence[str], seed: int) -> Iterator[str]:
    """An endless, deterministic stream of recombined abstracts (duplicates are filtered by the caller)."""
    rng = random.Random(seed)
    split = [split_sentences(abstract) for abstract in abstracts]
    pool = [sentence for sentences in split for sentence in sentences]
    while True:
        base = split[rng.randrange(len(split))]
        sentences = [
            sentence if rng.random() < KEEP_BASE else pool[rng.randrange(len(pool))] for sentence in base
        ]
        if len(sentences) < 2:
            sentences.append(pool[rng.randrange(len(pool))])
        yield " ".join(sentences)


def write_listing(path: Path, header: str, abstracts: Sequence[str]) -> None:
    """One seed-format file: header line, blank line, one single-line paragraph per abstract."""
    path.write_text(header + "\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")


def generate(
    out_dir: Path,
    *,
    corpus: Path = DEFAULT_CORPUS,
    papers: int = DEFAULT_PAPERS,
    per_file: int = DEFAULT_PER_FILE,
    seed: int = DEFAULT_SEED,
    originals: bool = True,
) -> tuple[int, int]:
    """Write `papers` distinct abstracts into `out_dir` as seed-format listings.

    Args:
        out_dir: where the files go (created; existing files of the same names are replaced).
        corpus: the real listings to recombine.
        papers: how many distinct papers to write in all.
        per_file: papers per synthetic file (the real files keep their own sizes).
        seed: the random seed; the same seed gives the same files.
        originals: also write the real listings first (as `real_<name>.txt`), so the 56k corpus is a subset.

    Returns:
        (papers written, files written).
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    listings = read_corpus(corpus)
    seen: set[str] = set()
    files = 0
    if originals:
        for number, (header, abstracts) in enumerate(listings):
            fresh = _distinct(abstracts, seen, papers)
            if fresh:
                write_listing(out_dir / f"real_{number:04d}.txt", header, fresh)
                files += 1
    every = [abstract for _, abstracts in listings for abstract in abstracts]
    stream = synthetic_abstracts(every, seed)
    number = 0
    while len(seen) < papers:
        batch: list[str] = []
        while len(batch) < per_file and len(seen) < papers:
            abstract = next(stream)
            key = paper_id(abstract)
            if key not in seen:
                seen.add(key)
                batch.append(abstract)
        venue = _VENUES[number % len(_VENUES)]
        year = 1990 + number // len(_VENUES)
        write_listing(out_dir / f"synth_{number:04d}.txt", f"{venue} {year} Synthetic Papers", batch)
        files += 1
        number += 1
    return len(seen), files


def _distinct(abstracts: Sequence[str], seen: set[str], limit: int) -> list[str]:
    """The abstracts not seen yet (marking them seen), stopping once `limit` papers are seen."""
    fresh: list[str] = []
    for abstract in abstracts:
        if len(seen) >= limit:
            break
        key = paper_id(abstract)
        if key not in seen:
            seen.add(key)
            fresh.append(abstract)
    return fresh


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, write the corpus, print what was written."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("out_dir", nargs="?", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="real seed-format listings")
    parser.add_argument("--papers", type=int, default=DEFAULT_PAPERS)
    parser.add_argument("--per-file", type=int, default=DEFAULT_PER_FILE)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--no-originals", action="store_true", help="recombined abstracts only")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    count, files = generate(
        args.out_dir,
        corpus=args.corpus,
        papers=args.papers,
        per_file=args.per_file,
        seed=args.seed,
        originals=not args.no_originals,
    )
    elapsed = time.perf_counter() - started
    print(f"corpus250k: {count} papers in {files} files under {args.out_dir} ({elapsed:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
