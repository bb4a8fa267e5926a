"""`(cid:NNN)`: glyphs a PDF-to-text tool could not name, put back as the characters they stand for.

About 1.6k abstracts of the old NeurIPS proceedings (1987-2011) in the shared corpus hold them: the tool
writes a glyph's code in its font when the font has no Unicode table. The code means nothing alone (each
font numbers its own glyphs), so every entry below is read from what the corpus's contexts require and
named after the font encoding that has that glyph at that code:

- 173, Latin-1's soft hyphen: 4.4k times, always where a line was broken inside a word ("classi(cid:173)
  fication"). The halves are joined, keeping a hyphen only where the word was a compound (`_compound`).
- TeX's OT1 text ligatures, inside a word: 11 ff ("e(cid:11)ective"), 12 fi, 13 fl, 14 ffi.
- Type 1 fonts in the 8r encoding: 2 fi ("classi(cid:2)cation"), 3 fl ("in(cid:3)uenced"); MacRoman's 222 fi
  ("(cid:222)nds").
- TeX's math fonts, standing alone: cmmi 11 α ("a parameter (cid:11) which is the ratio of sample size"),
  15 ϵ ("(cid:15)-tube"), 22 μ ("0.5(cid:22)m"), 96 ℓ ("(cid:96)1 regularization"); cmsy 0 − ("O(103
  (cid:0) 104)"), 2 × ("an N(cid:2)N grid"), 6 ±, 28 ≪ ("d (cid:28) n"); OT1's 10 Ω (the minimax
  probability machine's "probability bound (cid:10)").
- Windows-1252's 147 and 148, the curly double quotes; Latin-1's 246 ö ("Nystr(cid:246)m").

A code used both ways (2, 11) is read as a letter when a lower-case letter touches it, else as the symbol.
Any other code is dropped, since guessing would put a wrong character in a word: 1, for one, is cmsy's ·
in "O(n (cid:1) d2)" but no · in "the noisy pixels by (cid:1) 1-norm penalization". `counts` tells `papers
stats` how many were mapped and how many dropped.
"""

from __future__ import annotations

import re
from typing import Final

SOFT_HYPHEN: Final = 173
# code -> (inside a word, standing alone); None: not seen that way in the corpus, so dropped.
_GLYPHS: Final[dict[int, tuple[str | None, str | None]]] = {
    0: ("−", "−"),
    2: ("fi", "×"),
    3: ("fl", None),
    6: ("±", "±"),
    10: ("Ω", "Ω"),
    11: ("ff", "α"),
    12: ("fi", None),
    13: ("fl", None),
    14: ("ffi", None),
    15: (None, "ϵ"),
    22: ("μ", "μ"),
    28: ("≪", "≪"),
    96: ("ℓ", "ℓ"),
    147: ("“", "“"),
    148: ("”", "”"),
    222: ("fi", None),
    246: ("ö", "ö"),
}
_CID: Final = re.compile(r"\(cid:(\d{1,6})\)")
# A soft hyphen and the rest of the word after it; the line break it stood at became one space, or none.
# The piece before it is read backwards from the match: a pattern starting with it would try every letter.
_BROKEN_WORD: Final = re.compile(r"\(cid:173\)(?:\s?([^\W\d_]+))?")

# Second halves that make compound adjectives ("memory-based", "real-valued", "two-dimensional"): where a
# line broke at such a compound's own hyphen, the hyphen stays. Over the corpus's 4.4k soft hyphens, joining
# or keeping a hyphen by `_compound` writes the spelling the rest of the corpus uses for the word in all
# but ~80 (175 when every one is joined), and splits no word the corpus writes whole but one OCR slip.
_COMPOUND_ENDS: Final = frozenset(
    re.findall(
        r"\S+",
        """based like free driven dependent independent specific valued dimensional order level scale time
        term case world shaped theoretic sensitive selective coded centered distributed width output""",
    )
)
_COMPOUND_STARTS: Final = frozenset({"self", "well"})


def counts(text: str) -> tuple[int, int]:
    """How many `(cid:NNN)` of `text` `repair` puts back (a 173 joins its word) and how many it drops."""
    if "(cid:" not in text:
        return 0, 0
    mapped = dropped = 0
    for match in _CID.finditer(text):
        if _glyph(text, match) is None:
            dropped += 1
        else:
            mapped += 1
    return mapped, dropped


def repair(text: str) -> str:
    """`text` with its `(cid:NNN)` artefacts put back or dropped (see the module docstring)."""
    if "(cid:" not in text:
        return text
    if "(cid:173)" in text:
        text = _BROKEN_WORD.sub(_joined, text)
    return _CID.sub(lambda match: _glyph(match.string, match) or "", text)


def _glyph(text: str, match: re.Match[str]) -> str | None:
    code = int(match.group(1))
    if code == SOFT_HYPHEN:
        return ""  # `repair` joins the word around it first; a stray one is only a hyphenation point
    forms = _GLYPHS.get(code)
    if forms is None:
        return None
    start, end = match.span()
    in_word = (start > 0 and text[start - 1].islower()) or (end < len(text) and text[end].islower())
    return forms[0] if in_word else forms[1]


def _joined(match: re.Match[str]) -> str:
    """The word a line break cut in two, whole again: "classi(cid:173) fication" is "classification"."""
    text, end, second = match.string, match.start(), match.group(1)
    start = end
    while start and text[start - 1].isalpha():
        start -= 1
    if start == end or second is None:
        return match.group(0).replace("(cid:173)", "", 1)  # no word on one side: only the artefact goes
    return f"-{second}" if _compound(text[start:end], second) else second


def _compound(first: str, second: str) -> bool:
    """Whether the break was at a compound's own hyphen: "Kullback-Leibler", "Q-learning", "HMM-based",
    "memory-based", "self-organizing"; not "classi-fication" or "in-dependent"."""
    if second[0].isupper() or len(first) == 1 or sum(c.isupper() for c in first) >= 2:
        return True
    lowered = first.lower()
    return lowered in _COMPOUND_STARTS or (len(first) >= 3 and second.lower() in _COMPOUND_ENDS)
