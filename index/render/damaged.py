"""LaTeX that lost part of itself before the listing reached us, put back so it renders instead of showing.

Exports and scrapes mangle TeX in three ways, all in the shared corpus (a few hundred abstracts):

- a string escape ate `\\t`: `\\textbf{X}` was read as a tab and "extbf{X}", `$3\\times 3$` as "$3 imes 3$";
- the backslash was dropped: "emph{mismatch}", "$ell_p$", "$O(alpha ln K)$", or with `\\e` "mph{imaging}";
- the braces were dropped: `\\mathbbR^n`, `\\emphk-junta`.

Only forms that are never prose are repaired: a damaged name followed by its brace, or a symbol's name
standing alone inside `$...$`. "extend", "o(n)", "$pm$" and "heta" outside math are left as written.
"""

from __future__ import annotations

import re
from typing import Final

# A name that takes an argument, its backslash (its `\t`, or with `\e` its "e") gone, its brace still there:
# what each such name is put back as, found from the "{" after it.
_EATEN_TAB: Final = re.findall(r"\S+", "ext extbf extit exttt extsc extsf extrm extup extsl extnormal")
_LOST_BACKSLASH: Final = re.findall(
    r"\S+", "emph mathbb mathcal mathbf mathrm mathsf mathfrak mathit boldsymbol sqrt frac"
)
_BRACED: Final = {
    **{name: "\\t" + name for name in _EATEN_TAB},
    **{name: "\\" + name for name in _LOST_BACKSLASH},
    "mph": "\\emph",
}
_LONGEST: Final = max(map(len, _BRACED))
# A style macro glued to its argument, braces gone: one letter (`\mathbbR^n`, `\emphk-junta`) or a word with
# a capital (`\emphPrefMRF`, `\mathrmNP`), which no real macro name has; not `\mathbbm`, the bbm package's
# indicator. A glued lower-case word (`\emphcorrelation`) is the LaTeX converter's to read (`latex.py`).
_GLUED: Final = re.compile(
    r"\\(?!mathbbm)(emph|textbf|textit|mathbb|mathcal|mathbf|mathrm|mathsf|mathfrak|mathit|boldsymbol)"
    r"([^\W\d_](?![^\W\d_])|[A-Z][\w-]*)"
)
# A math span, matched from its literal "$" (the engine jumps to it) and then checked not to be "\$".
_MATH: Final = re.compile(r"\$(?<!\\\$)([^$]{1,300})(?<!\\)\$")
# Inside math, a word that can only be a symbol's name: `\t`-eaten (`imes` was `\times`) or backslash-less.
_TAB_EATEN: Final = {"imes": "times", "heta": "theta", "au": "tau", "ilde": "tilde", "riangle": "triangle"}
# Not "sim", "times" or "pm": "$\textit{sim-to-real}$", "$d \log(pm)$".
_BARE: Final = frozenset(
    re.findall(r"\S+", "ell epsilon varepsilon alpha beta gamma delta lambda sigma theta tau infty geq leq")
)
# The space before a `\t`-eaten name is the tab that ate it, so it goes with the name. Only those names are
# matched, so the callback runs on a repair, not on every word of every formula.
_SYMBOL_WORD: Final = re.compile(
    rf"(\s?)(?<![\\A-Za-z])({'|'.join(sorted([*_TAB_EATEN, *_BARE], key=len, reverse=True))})(?![A-Za-z])"
)


def restore(text: str) -> str:
    """`text` with damaged LaTeX names given back their backslash, braces or eaten `\\t`.

    Each repair runs only where its character is (a "{", a backslash, a "$"): most abstracts have none.
    """
    if "{" in text:
        text = _braced(text)
    if "\\" in text:
        text = _GLUED.sub(r"\\\1{\2}", text)
    return _MATH.sub(_math, text) if "$" in text else text


def _braced(text: str) -> str:
    """The damaged names before each "{" put back; a "{" is rare enough to look at one by one."""
    pieces: list[str] = []
    done = 0
    brace = text.find("{")
    while brace >= 0:
        start = brace
        while start > max(done, brace - _LONGEST) and text[start - 1].isascii() and text[start - 1].isalpha():
            start -= 1
        whole = start == 0 or not (text[start - 1].isalnum() or text[start - 1] in "_\\")
        repaired = _BRACED.get(text[start:brace]) if whole else None
        if repaired is not None:
            pieces.append(text[done:start] + repaired)
            done = brace
        brace = text.find("{", brace + 1)
    return "".join(pieces) + text[done:] if pieces else text


def _math(match: re.Match[str]) -> str:
    return "$" + _SYMBOL_WORD.sub(_symbol, match.group(1)) + "$"


def _symbol(word: re.Match[str]) -> str:
    space, name = word.groups()
    full = _TAB_EATEN.get(name)
    return "\\" + full if full is not None else space + "\\" + name
