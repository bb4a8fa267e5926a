"""LaTeX an export mangled (an eaten `\\t`, a dropped backslash or braces) renders as the author meant."""

from __future__ import annotations

import re

import pytest

from index.headline.pipeline import headline
from index.render.abstract import render, to_plain
from tests.conftest import CORPUS

LISTINGS = CORPUS / "listings"
# What each repair removes, as it shows in rendered text when the repair is missing.
LEFTOVER = re.compile(
    r"(?<![\w\\])(?:ext(?:bf|it|tt)(?=[\w{])|emph(?!as|atic)(?=\w)|(?:mathbb|mathcal|mathrm)(?=[A-Z]))"
    r"|(?<![\w\\])imes\b"
)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # `\t` read as a tab: "\textbf{X}" arrived as " extbf{X}", "$3\times 3$" as "$3 imes 3$".
        ("we propose $ extbf{DreamSparse}$, a framework", "we propose DreamSparse, a framework"),
        ("an algorithm called extit{Restart} in order", "an algorithm called Restart in order"),
        ("the exttt{SARAMIS} dataset and $ ext{ReLU}$", "the SARAMIS dataset and ReLU"),
        ("a $3 imes 3$ grid, Kendall's $ au$ and $( heta,\\phi)$", "a 3× 3 grid, Kendall's τ and (θ,ϕ)"),
        # The backslash dropped.
        ("the emph{mismatch}, the gap", "the mismatch, the gap"),
        ("{Brace} first, then extbf{Bold}", "Brace first, then Bold"),  # a "{" at the start stops no repair
        ("the problem of mph{imaging} here", "the problem of imaging here"),  # "\\e" read as an escape
        ("$O(alpha ln{K})$ and $ell_p$", "O(α lnK) and ℓₚ"),
        # The braces dropped.
        ("length-\\emphk decision lists over \\emphn variables", "length-k decision lists over n variables"),
        ("$\\mathbbR^n$ and $\\mathcalO(n)$, unless P\\neq \\mathrmNP", "ℝⁿ and 𝒪(n), unless P≠ NP"),
        ("the proposed \\emphPrefMRF approach", "the proposed PrefMRF approach"),
        ("now the \\emphde facto standard", "now the de facto standard"),
        # A macro in math is math even where a digit follows the closing dollar; prices stay prices.
        ("a 512$\\times$1024 image, $\\sim$13$\\times$ faster", "a 512×1024 image, ∼13× faster"),
        ("it costs $5 and $10 each", "it costs $5 and $10 each"),
    ],
)
def test_damaged_latex_renders(raw: str, expected: str) -> None:
    assert to_plain(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("we extend it to o(n) time", "we extend it to o(n) time"),  # prose that looks like a damaged name
        ("the next{step} and $o(n)$", "the nextstep and o(n)"),  # glued to a word, little o: not names
        ("$\\mathbbm{1}$ is the indicator", "𝟙 is the indicator"),  # a real macro, not \mathbb + "m"
        ("$\\textit{sim-to-real}$ and $d \\log(pm)$", "sim-to-real and d log(pm)"),  # words, not \sim or \pm
        ("the heta parameter", "the heta parameter"),  # outside math a bare name stays as written
    ],
)
def test_what_only_looks_damaged_is_left_alone(raw: str, expected: str) -> None:
    assert to_plain(raw) == expected


def test_a_repaired_style_keeps_its_span() -> None:
    rendered = render("we call it extbf{CelebA-Spoof} here")
    assert rendered.text == "we call it CelebA-Spoof here"
    assert [rendered.text[s.start : s.end] for s in rendered.spans if s.style == "bold"] == ["CelebA-Spoof"]


@pytest.mark.skipif(not LISTINGS.is_dir(), reason=f"the shared corpus is not at {LISTINGS}")
def test_no_damaged_name_survives_in_the_corpus() -> None:
    """Every corpus abstract carrying a damaged form the repairs know, rendered and headlined without it."""
    damaged = re.compile(
        r"(?<![\w\\])(?:ext(?:bf|it|tt)\{|emph\{)|\\(?:emph|mathbb|mathcal)[A-Z]|\$[^$]{0,40} imes"
    )
    nested = re.compile(r"\{[^{}$]*\$[^{}$]*\$\}")  # "$\textbf{5.18$\times$}$": dollars pair flat, not nested
    found = 0
    for path in sorted(LISTINGS.glob("*.txt")):
        for raw in path.read_text(encoding="utf-8", errors="replace").split("\n\n")[1:]:
            if damaged.search(raw) is None or nested.search(raw) is not None:
                continue
            found += 1
            plain = to_plain(raw)
            assert LEFTOVER.search(plain) is None, (path.name, raw[:60], LEFTOVER.findall(plain))
            assert LEFTOVER.search(headline(plain)) is None, (path.name, raw[:60])
    assert found > 200, found  # the shared corpus has ~250 such abstracts: the scan found them
