"""Rendering keeps web addresses byte for byte and mends the words PDF extraction broke."""

from __future__ import annotations

import pytest

from index.render import pdf_glyphs, urls
from index.render.abstract import render, to_plain


def styled(raw: str, style: str) -> list[str]:
    rendered = render(raw)
    return [rendered.text[s.start : s.end] for s in rendered.spans if s.style == style]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # every rule that would otherwise run inside an address: the tie, dashes, emphasis, comments, math
        ("see https://www.cs.x.edu/~rbg/rcnn.", "see https://www.cs.x.edu/~rbg/rcnn."),
        ("at https://github.com/a/Re-ID--AAAI2022 a--b", "at https://github.com/a/Re-ID--AAAI2022 a–b"),
        ("https://x.org/_a_/b_c_ and _this_", "https://x.org/_a_/b_c_ and this"),
        ("https://x.org/*a*/**b** and *this*", "https://x.org/*a*/**b** and this"),
        ("https://x.org/100%25~x and 5% more", "https://x.org/100%25~x and 5% more"),
        ("https://x.org/$a$/b and $c$", "https://x.org/$a$/b and c"),
        ("https://x.org/a---b``quoted''", "https://x.org/a---b“quoted”"),
        # inside LaTeX links: `\url` is verbatim, `\href` shows its label and its address
        (r"see \url{https://x.org/~a%20b_c--d}", "see https://x.org/~a%20b_c--d"),
        (r"\href{https://x.org/~a}{our code}", "our code (https://x.org/~a)"),
        (r"\href{https://x.org/~a_b}{https://x.org/~a_b}.", "https://x.org/~a_b."),
        (r"\url{https://x.org/a\_b\%20}", "https://x.org/a_b%20"),  # TeX escapes in the argument
        (r"https://x.org/a\_b", "https://x.org/a_b"),  # a TeX escape is not part of a bare address
        # where an address ends: emphasis around it, brackets, punctuation, markdown links
        ("*https://x.org/a_b*. Next", "https://x.org/a_b. Next"),
        ("_https://x.org/a~b_, next", "https://x.org/a~b, next"),
        ("(see https://en.x.org/wiki/A_(b)) and (https://x.org/~c)", None),
        ("[code](https://x.org/~a_b_) here", "[code](https://x.org/~a_b_) here"),
        ("(www.x.com/~jojic/aihs). y", "(www.x.com/~jojic/aihs). y"),
        ("cs.wisc.edu/~y/Sub-GC.html, e.g./i.e. x~y", "cs.wisc.edu/~y/Sub-GC.html, e.g./i.e. x y"),
    ],
)
def test_web_addresses_come_out_byte_for_byte(raw: str, expected: str | None) -> None:
    assert render(raw).text == to_plain(raw) == (raw if expected is None else expected)


def test_an_address_keeps_its_styles_around_it_and_a_listing_cannot_forge_one() -> None:
    assert styled("*https://x.org/a_b*", "italic") == ["https://x.org/a_b"]
    assert styled(r"\url{https://x.org/~a}", "link") == ["https://x.org/~a"]
    forged = "\ue010 and \ue011 https://x.org/~a"
    assert render(forged).text == "and https://x.org/~a"
    many = render(" ".join(f"https://x.org/~{n}" for n in range(3000))).text
    # More addresses than placeholders: the first thousands are kept, the rest read as any text would be.
    assert many.startswith("https://x.org/~0 https://x.org/~1 ") and many.endswith(" https://x.org/ 2999")


def test_address_spans_are_addresses_with_a_path() -> None:
    text = "a https://x.org/b. www.y.org/~c, www.z.org z.com and github.com/c/d) me@x.com/e and/or"
    assert [text[start:end] for start, end in urls.spans(text)] == [
        "https://x.org/b",
        "www.y.org/~c",
        "github.com/c/d",
    ]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # 173, the soft hyphen at a line break, is dropped and the word joined; a compound keeps its hyphen
        ("pattern classi(cid:173) fication works", "pattern classification works"),
        ("classi(cid:173)fication", "classification"),
        ("out(cid:173)\nput", "output"),
        ("real(cid:173) time and memory(cid:173) based", "real-time and memory-based"),
        (
            "Kullback(cid:173) Leibler, Q(cid:173) learning, HMM(cid:173) based",
            "Kullback-Leibler, Q-learning, HMM-based",
        ),
        ("self(cid:173) organizing in(cid:173) dependent", "self-organizing independent"),
        ("integers-(cid:173) exponential (cid:173)", "integers- exponential"),
        # ligatures inside words, symbols standing alone, by the fonts the corpus's contexts show
        ("e(cid:11)ective o(cid:11) di(cid:14)cult (cid:12)nite (cid:13)exible in(cid:3)uenced", None),
        ("classi(cid:2)cation (cid:222)nds", "classification finds"),
        ("a parameter (cid:11) and a (cid:15)-tube", "a parameter α and a ϵ-tube"),
        ("an N(cid:2)N grid, d (cid:28) n", "an N×N grid, d ≪ n"),
        ("(cid:6)1 and 10(cid:0)3", "±1 and 10−3"),
        ("(cid:96)1 at 0.5(cid:22)m bound (cid:10)", "ℓ1 at 0.5μm bound Ω"),
        ("(cid:147)picky(cid:148) Nystr(cid:246)m", "“picky” Nyström"),
        # unknown codes go, and so do codes the corpus uses for more than one glyph
        ("a (cid:4242) b(cid:99)c (cid:12) d", "a bc d"),
        ("O(n (cid:1) d2) and by (cid:1) 1-norm", "O(n d2) and by 1-norm"),
        # and the rest of rendering still runs
        (r"$\alpha$-classi(cid:12)ers via \url{https://x.org/~a}", "α-classifiers via https://x.org/~a"),
    ],
)
def test_pdf_glyphs_become_characters_or_go(raw: str, expected: str | None) -> None:
    mended = "effective off difficult finite flexible influenced"
    assert render(raw).text == to_plain(raw) == (mended if expected is None else expected)


def test_glyph_counts_tell_mapped_from_dropped() -> None:
    assert pdf_glyphs.counts("plain text") == (0, 0)
    assert pdf_glyphs.counts("classi(cid:173) fication e(cid:11)ect (cid:4242) (cid:12)") == (2, 2)
