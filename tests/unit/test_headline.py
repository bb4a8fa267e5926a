"""Headlines for untitled papers: short, sane, deterministic, and naming what each seed paper contributes."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from index.headline import headline
from index.render import to_plain

REPO = Path(__file__).resolve().parents[2]
SEEDS = REPO / "seeds"
FIXTURE = REPO / "tests" / "data" / "seed_headlines.txt"


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


if __name__ == "__main__":
    FIXTURE.write_text("\n".join(fixture_lines()) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE}", file=sys.stderr)
