"""Rendering abstracts: LaTeX and markdown become readable Unicode, no word is lost, nothing unsafe stays."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from index.models import Rendered
from index.render.abstract import render, sanitize, to_plain
from index.render.sanitize import FORMAT_BLOCKS


def styled(rendered: Rendered, style: str) -> list[str]:
    return [rendered.text[s.start : s.end] for s in rendered.spans if s.style == style]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (r"$\mathcal{O}(\sqrt{n})$", "𝒪(√n)"),
        (r"$\alpha$ and $\ell$", "α and ℓ"),
        (r"$a \leq b \subseteq c \times d$", "a ≤ b ⊆ c × d"),
        (r"$x^2$", "x²"),
        (r"$x_i$", "xᵢ"),
        (r"$x_{ij}$", "xᵢⱼ"),
        (r"$x_{bc}$", "x_bc"),
        (r"$W^\top x^{-1}$", "Wᵀ x⁻¹"),
        (r"$\frac{1}{n+1}$", "1/(n+1)"),
        (r"$\mathbb{R}^n$", "ℝⁿ"),
        (r"100\% of R\&D", "100% of R&D"),
        ("50% of R&D", "50% of R&D"),
        ("a---b a--b", "a—b a–b"),
        ("Figure~1", "Figure 1"),
        (r"\foo{bar}", "bar"),
        (r"\Foo", "Foo"),
        (r"results \by the way", "results by the way"),
        (r"we \mbox{propose} it", "we propose it"),
        (r"see \url{https://x.org/~a_b}", "see https://x.org/~a_b"),
        (r"\href{https://x.org}{our code}", "our code (https://x.org)"),
        (r"$\text{loss} + \mathrm{d}x + \operatorname{argmax}$", "loss + dx + argmax"),
        (r"Caf\'e na\"ive", "Café naïve"),
        ("Tom &amp; Jerry &lt;3 it&#39;s", "Tom & Jerry <3 it's"),
        ("&#36;5 and &amp;", "$5 and &"),
        ("H<sub>2</sub>O is <i>wet</i>", "H2O is wet"),
        ("a<b and c>d", "a<b and c>d"),
        ("costs $5 and $10 per run", "costs $5 and $10 per run"),
        ("a $ b", "a $ b"),
        ("unbalanced {brace and \\textbf{bold", "unbalanced brace and bold"),
        ("  many \n\n spaces\t here ", "many spaces here"),
        ("[bold red]x[/]", "[bold red]x[/]"),
        (r"``quoted''", "“quoted”"),
        (r"the \emphcorrelation clustering", "the correlation clustering"),  # a crawl lost the braces
        (r"in $O(n\cdot\textpolylog n)$ space", "in O(n·polylog n) space"),
        (r"\emphasize", "emphasize"),  # an unknown macro that only starts like a style stays whole
    ],
)
def test_examples(raw: str, expected: str) -> None:
    assert render(raw).text == expected
    assert to_plain(raw) == expected


def test_citations_are_visible_and_marked() -> None:
    rendered = render(r"as shown by~\citet{feldman2020longtail}, and \cite{a,b}.")
    assert rendered.text == "as shown by [feldman2020longtail], and [a, b]."
    assert styled(rendered, "cite") == ["[feldman2020longtail]", "[a, b]"]
    assert render(r"x~\citet{feldman2020longtail}").text == "x [feldman2020longtail]"


def test_bold_span_covers_exactly_the_bold_word() -> None:
    rendered = render(r"\textbf{Bold} word")
    assert rendered.text == "Bold word"
    assert [(s.start, s.end, s.style) for s in rendered.spans] == [(0, 4, "bold")]


@pytest.mark.parametrize(
    ("raw", "style", "words"),
    [
        (r"a \textbf{b} {\bf c} **d**", "bold", ["b", "c", "d"]),
        (r"a \textit{b} \emph{c} *d* _e_ <i>f</i>", "italic", ["b", "c", "d", "e", "f"]),
        (r"$x$ and $y^2$", "math", ["x", "y²"]),
        (r"\texttt{code} and `more`", "code", ["code", "more"]),
        (r"\url{https://a.b}", "link", ["https://a.b"]),
    ],
)
def test_styles(raw: str, style: str, words: list[str]) -> None:
    assert styled(render(raw), style) == words


def test_markdown_leaves_math_and_identifiers_alone() -> None:
    assert render(r"snake_case_name and $a_i b_j$").text == "snake_case_name and aᵢ bⱼ"
    assert render("2*3*4").text == "2*3*4"


@pytest.mark.parametrize(
    "escape",
    [
        "\x1b[2J",
        "\x1b]52;c;ZXZpbA==\x07",
        "\x1b]0;title\x07",
        "\x1b[6n",
        "\x1bPq#0;2;0;0;0\x1b\\",
        "\x9b31m",
        "\x1bc",
    ],
)
def test_escape_sequences_are_removed_with_their_parameters(escape: str) -> None:
    for function in (lambda t: render(t).text, to_plain, sanitize):
        assert function(f"before{escape}after") == "beforeafter"
        assert function(f"before {escape}$x$ after").startswith("before ")


def test_invisible_and_bidi_characters_are_removed() -> None:
    hostile = "a\u202eb\u2066c\u2069d\u200be\ufefff\u200fg\u061ch\u00adi"
    assert sanitize(hostile) == "abcdefghi"
    assert render(hostile).text == "abcdefghi"
    assert sanitize("family 👨\u200d👩\u200d👧 ok") == "family 👨\u200d👩\u200d👧 ok"
    assert sanitize("x\u200dy") == "xy"


def test_format_characters_lie_in_the_scanned_blocks() -> None:
    """The sanitizer only scans a few blocks for category Cf; this Python's Unicode must agree."""
    outside = [
        hex(code)
        for code in range(0x110000)
        if unicodedata.category(chr(code)) == "Cf"
        and not any(low <= code < high for low, high in FORMAT_BLOCKS)
    ]
    assert outside == []


def test_pathological_input_does_not_crash() -> None:
    deep = "{" * 5000 + "core" + "}" * 5000
    assert render(deep).text == "core"
    assert "word" in render("$" * 1001 + " word " + "\\" * 999).text
    assert render("x" * 25_000).text == "x" * 25_000
    assert render("*_" * 5000 + "end").text.endswith("end")


# --- properties -------------------------------------------------------------------------------------------

CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
WORD = st.from_regex(r"[A-Za-z0-9]{1,8}", fullmatch=True)
# Plain text that cannot glue onto a construct: no TeX or markdown specials and no controls (an escape
# sequence rightly takes the characters after it), but any other Unicode.
FILLER = st.text(
    alphabet=st.characters(blacklist_characters="\\$%{}^_*&<>~`#'\"", blacklist_categories=("Cs", "Cc")),
    max_size=12,
)
CONSTRUCTS = [
    "{}",
    r"\textbf{{{}}}",
    r"\emph{{{}}}",
    r"{{\bf {}}}",
    "${}$",
    "$x^{{{}}}$",
    "$\\mathcal{{{}}}$",
    r"\cite{{{}}}",
    r"~\citet{{{}}}",
    r"\foo{{{}}}",
    r"\mbox{{{}}}",
    r"\url{{{}}}",
    r"\href{{{0}}}{{{0}}}",
    "*{}*",
    "**{}**",
    "_{}_",
    "<i>{}</i>",
    "&amp;{}",
    "{}--",
    "{}~",
    "\\%{}",
    "{}%",
]


@st.composite
def documents(draw: st.DrawFn) -> str:
    pieces = []
    for _ in range(draw(st.integers(1, 12))):
        kind = draw(st.integers(0, 2))
        if kind == 0:
            pieces.append(draw(FILLER))
        elif kind == 1:
            pieces.append(draw(WORD))
        else:
            pieces.append(draw(st.sampled_from(CONSTRUCTS)).format(draw(WORD)))
        pieces.append(draw(st.sampled_from([" ", "  ", "\n", ""])))
    return "".join(pieces)


def words_outside_command_names(raw: str) -> list[str]:
    without_commands = re.sub(r"\\[A-Za-z]+", " ", raw)
    without_entities = re.sub(r"&[a-z]+;", " ", without_commands)
    return re.findall(r"[A-Za-z0-9]+", re.sub(r"</?i>", " ", without_entities))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_no_word_is_lost(raw: str) -> None:
    shown = unicodedata.normalize("NFKC", render(raw).text)  # 𝒪 and ² count as O and 2
    for word in words_outside_command_names(raw):
        assert word in shown, (word, raw, shown)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), documents(), st.text(alphabet="\x1b[]0123;Pc\\\x07\x9b\x9d$_*{}ab ")))
def test_output_is_always_display_safe(raw: str) -> None:
    rendered = render(raw)
    for text in (rendered.text, to_plain(raw), sanitize(raw)):
        assert CONTROL.search(text) is None
        assert not any(unicodedata.category(c) in ("Cf", "Cs") and c != "\u200d" for c in text)
        assert text == text.strip()
        assert "  " not in text
    assert to_plain(raw) == rendered.text
    assert re.search("[\ue000-\ue00f]", rendered.text) is None, "a style mark leaked into the text"
    last = (-1, 0)
    for span in rendered.spans:
        assert 0 <= span.start < span.end <= len(rendered.text)
        assert (span.start, -span.end) >= last
        last = (span.start, -span.end)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("\\${}[]^_*&%~<>-`'ab1 \n")), max_size=60))
def test_render_never_raises_on_latex_soup(raw: str) -> None:
    assert isinstance(render(raw).text, str)
