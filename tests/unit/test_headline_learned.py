"""Headlines for untitled papers, end to end: they read as titles, keep the method's name, fit, and a real
title always wins. The cases are written for these tests or are the bundled seeds, none used in training."""

from __future__ import annotations

import json
import re

import pytest

from index.headline import model as model_module
from index.headline.pipeline import headline, headlines
from index.headline.words import CANNOT_END
from index.listings.catalog import load_catalog, no_headline
from index.render.abstract import to_plain
from tests.conftest import SEEDS


def seed_abstracts() -> list[str]:
    """The seeds' distinct papers' abstracts, rendered, in listing order (the catalog merges duplicates)."""
    return [to_plain(paper.abstract) for paper in load_catalog([SEEDS], no_headline).papers]


def test_every_seed_paper_gets_a_headline_that_reads_as_a_title() -> None:
    abstracts = seed_abstracts()
    assert len(abstracts) == 49
    lines = headlines(abstracts)
    for line in lines:
        assert 30 <= len(line) <= 80, line
        assert (line == line.strip() and line[0].isupper()) or line[0].isdigit(), line
        assert line.lower().split()[-1] not in CANNOT_END, line
        assert line.count("(") == line.count(")"), line
    assert len(set(lines)) == len(lines)  # 49 papers, 49 different headlines


def test_one_at_a_time_and_in_a_batch_give_the_same_headlines() -> None:
    abstracts = seed_abstracts()
    assert [headline(abstract) for abstract in abstracts] == headlines(abstracts)
    assert headlines(abstracts) == headlines(abstracts)


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        (
            "Retrieval over long documents is slow. We introduce StripeNet, a sparse attention scheme for "
            "long document retrieval that halves memory. StripeNet is simple.",
            "StripeNet",
        ),
        (
            "Tokenizers split rare words badly. We propose a byte-level tokenizer, dubbed ByteFuse, that "
            "merges frequent byte pairs on the fly. ByteFuse improves translation of rare words.",
            "ByteFuse",
        ),
    ],
)
def test_the_methods_name_is_kept_when_the_abstract_gives_one(abstract: str, name: str) -> None:
    line = headline(abstract)
    assert name in line, line


def test_a_title_wins_and_is_cleaned() -> None:
    abstract = seed_abstracts()[0]
    assert headline(abstract, title="  Weak-to-Strong\n  Correction\x1b[2J ") == "Weak-to-Strong Correction"
    long_title = "A Study of " + " ".join(["very"] * 30) + " long titles"
    cut = headline(abstract, title=long_title)
    assert len(cut) <= 80 and cut.endswith("…") and cut.startswith("A Study of very")
    assert headline(abstract, title="   ") == headline(abstract)
    assert headline("x", title="[Re] Reproducing [bold]robust training[/]") == (
        "[Re] Reproducing [bold]robust training[/]"
    )
    assert headline(abstract, title="The {BERT} of \\emph{graphs}") == "The BERT of graphs"


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
    for line in headlines(seed_abstracts()[:10], max_len=40):
        assert len(line) <= 40, line


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
    assert re.search(r"\w{3}", line), line


def test_ligatures_and_latex_never_reach_a_headline() -> None:
    plain = to_plain(
        "We propose a ﬂexible classiﬁer for $\\mathcal{O}(\\sqrt{n})$ \\textbf{Gaussian} data streams."
    )
    line = headline(plain)
    assert "ﬂ" not in line and "ﬁ" not in line and "\\" not in line and "$" not in line, line


def test_the_shipped_weights_are_small_and_their_figures_recorded() -> None:
    assert model_module.WEIGHTS.stat().st_size <= 10 * 1024 * 1024
    figures = json.loads(model_module.WEIGHTS.with_name("model.json").read_text(encoding="utf-8"))
    assert set(figures["held_out"]) == {"iccv", "naacl", "uai"}
    assert not set(figures["held_out"]) & set(figures["trained_on"])
    assert 0 < figures["held_out_rouge_1"] < 1
