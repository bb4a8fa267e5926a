"""Headlines for untitled papers: short, sane, deterministic, and naming what each seed paper contributes."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from index.headline.synthesis import headline
from index.render.abstract import to_plain

REPO = Path(__file__).resolve().parents[2]
SEEDS = REPO / "seeds"
FIXTURE = REPO / "tests" / "data" / "seed_headlines.txt"
CORPUS = REPO.parent / "shared" / "corpus" / "listings"
CORPUS_FIXTURE = REPO / "tests" / "data" / "corpus_headlines_sample.txt"


def seed_abstracts() -> list[str]:
    """Distinct seed abstracts in first-seen order across the sorted files (header line, then paragraphs)."""
    seen: set[str] = set()
    abstracts: list[str] = []
    for path in sorted(SEEDS.glob("*.txt")):
        for paragraph in path.read_text(encoding="utf-8").split("\n\n")[1:]:
            plain = to_plain(paragraph)
            key = " ".join(plain.lower().split())
            if key and key not in seen:
                seen.add(key)
                abstracts.append(plain)
    return abstracts


def fixture_lines() -> list[str]:
    return [f"{abstract[:60]} => {headline(abstract)}" for abstract in seed_abstracts()]


def corpus_sample(count: int = 40, seed: int = 2026) -> list[str]:
    """A fixed-seed sample of real corpus abstracts: a listing file, then one paragraph after its header."""
    rng = random.Random(seed)
    files = sorted(CORPUS.glob("*.txt"))
    abstracts: list[str] = []
    while len(abstracts) < count:
        paragraphs = rng.choice(files).read_text(encoding="utf-8", errors="replace").split("\n\n")[1:]
        paragraphs = [p for p in paragraphs if p.strip()]
        if paragraphs:
            abstracts.append(to_plain(rng.choice(paragraphs)))
    return abstracts


def corpus_lines() -> list[str]:
    return [f"{abstract[:60]} => {headline(abstract)}" for abstract in corpus_sample()]


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not at {CORPUS}")
def test_corpus_sample_headlines_match_the_reviewed_fixture() -> None:
    """40 real abstracts from all kinds of venues; regenerate with `python tests/unit/test_headline.py`."""
    assert corpus_lines() == CORPUS_FIXTURE.read_text(encoding="utf-8").splitlines()


def test_seed_headlines_match_the_reviewed_fixture() -> None:
    """Any change to a seed headline shows up here; regenerate with `python tests/unit/test_headline.py`."""
    assert fixture_lines() == FIXTURE.read_text(encoding="utf-8").splitlines()


def test_every_seed_paper_gets_a_sane_headline() -> None:
    abstracts = seed_abstracts()
    assert len(abstracts) == 49
    for abstract in abstracts:
        line = headline(abstract)
        assert 10 <= len(line) <= 80, line
        assert line == line.strip()
        assert re.match(r"[\w“‘]", line) and re.search(r"[\w)’”…?]$", line), line
        assert not re.search(r"\b(?:of|and|the|for|with|a|an|to|in)$", line), line
        assert headline(abstract) == line


@pytest.mark.parametrize(
    ("needle", "names"),
    [
        ("validity-adjusted correction", ["VAC"]),
        ("LIBERO-PeRM", ["LIBERO-PeRM"]),
        ("generalized influence functions", ["GIFs", "p-LiSSA"]),
        ("JRS-Rem", ["JRS-Rem"]),
        ("FuncFormer", ["FuncFormer"]),
        ("We present GenZ", ["GenZ"]),
        ("Z-learner", ["Z-learner"]),
    ],
)
def test_named_contributions_lead_their_headlines(needle: str, names: list[str]) -> None:
    abstract = next(a for a in seed_abstracts() if needle in a)
    line = headline(abstract)
    for name in names:
        assert name in line, line
    assert line.startswith(names[0])


def test_a_title_wins_and_is_cleaned() -> None:
    abstract = seed_abstracts()[0]
    assert headline(abstract, title="  Weak-to-Strong\n  Correction\x1b[2J ") == "Weak-to-Strong Correction"
    long_title = "A Study of " + " ".join(["very"] * 30) + " long titles"
    cut = headline(abstract, title=long_title)
    assert len(cut) <= 80 and cut.endswith("…") and cut.startswith("A Study of very")
    assert headline(abstract, title="   ") == headline(abstract)


@pytest.mark.parametrize(
    "abstract",
    ["", "   ", "x", "Hello.", "((( ]]] ---", "a" * 25_000, "We propose " + "A" * 25_000, "word " * 5_000],
)
def test_degenerate_input_gives_a_short_nonempty_headline(abstract: str) -> None:
    line = headline(abstract)
    assert 0 < len(line) <= 80
    assert line == line.strip()
    assert line[0].isalnum()


def test_max_len_is_respected() -> None:
    for abstract in seed_abstracts()[:10]:
        assert len(headline(abstract, max_len=40)) <= 40


@pytest.mark.parametrize(
    ("abstract", "unwanted"),
    [
        (
            "It is well known that the nearest neighbour rule (NN) needs many samples. Here we consider NN "
            "on randomly projected data, and we show that, if the input domain has a small metric size, "
            "fewer do.",
            ", and we",
        ),
        (
            "Solving (mixed) integer (linear) programs, (M)I(L)Ps for short, is a fundamental task. On "
            "the positive side, we show that our result can be generalised from MILP to MIP with convex "
            "objectives.",
            "for short",
        ),
        (
            "Reinforcement learning (RL) folklore suggests that history helps. In this paper, we introduce a "
            "theoretical framework to examine the behaviour of RL algorithms that use historical data.",
            "suggests",
        ),
        (
            "CMinHash promises a new direction for MinHash algorithms. We present a new approach that gives "
            "explicit and easily comparable approximate variance expressions, and use it on one estimator.",
            "approach that gives",
        ),
    ],
)
def test_a_headline_leaves_out_what_only_links_a_sentence(abstract: str, unwanted: str) -> None:
    line = headline(abstract)
    assert unwanted not in line, line
    assert len(line.split()) >= 3, line


@pytest.mark.parametrize(
    "abstract",
    [
        "[bold red]Markup injection[/] is a risk for terminal apps that show untrusted text from listings.",
        "[bold red]Markup injection[/] is a risk. We propose SafeView, a renderer escaping [b]markup[/b].",
        "Terminal apps [link=http://x]show[/link] text. We study [bold]how markup[/bold] leaks into UIs.",
    ],
)
def test_literal_markup_is_dropped_whole_never_cut_in_half(abstract: str) -> None:
    line = headline(abstract)
    assert "[" not in line and "]" not in line, line
    assert "Markup" in line or "markup" in line, line


def test_a_bracketed_title_prefix_stays_whole() -> None:
    assert headline("x", title="[Re] Reproducing [bold]robust training[/]") == (
        "[Re] Reproducing [bold]robust training[/]"
    )


if __name__ == "__main__":
    FIXTURE.write_text("\n".join(fixture_lines()) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE}", file=sys.stderr)
    if CORPUS.is_dir():
        CORPUS_FIXTURE.write_text("\n".join(corpus_lines()) + "\n", encoding="utf-8")
        print(f"wrote {CORPUS_FIXTURE}", file=sys.stderr)
