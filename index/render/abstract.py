"""LaTeX, markdown and HTML in abstracts to display-safe Unicode text with style spans."""

from __future__ import annotations

import re

from index.models import Rendered, Span, SpanStyle
from index.render import latex_spans, pdf_glyphs, urls
from index.render.damaged import restore
from index.render.latex import argspec, convert
from index.render.markup import (
    MARK_STYLE,
    MARKS,
    escape_stray_specials,
    html_to_marks,
    ligatures,
    markdown_to_marks,
)
from index.render.sanitize import sanitize, strip_controls

__all__ = ["needs_rendering", "render", "sanitize", "to_plain"]

# Private-use characters the passes give meaning to: style marks and address placeholders. A listing's own are
# dropped first, so it can forge neither a span nor an address.
_OURS = f"{MARKS.pattern[1:-1]}{urls.PLACEHOLDERS}"
_FORGED = re.compile(f"[{_OURS}]")
# Anything that could change under rendering. Most abstracts have none of it and skip pylatexenc, which is
# what keeps indexing 56k abstracts fast.
_SPECIAL = re.compile(r"[$\\*_&<{}~%`\x00-\x08\x0e-\x1f\x7f-\x9f" + _OURS + "]")
_MARK_SPLIT = re.compile("([\ue000-\ue00f])")
_FALLBACK_MACRO = re.compile(r"\\([A-Za-z]+)\*?(?=\{)|\\([A-Za-z]+)|\\(.)")


def needs_rendering(raw: str) -> bool:
    """False when rendering would only sanitize and re-space: the common case, kept off pylatexenc."""
    return _SPECIAL.search(raw) is not None or "--" in raw or "''" in raw


def to_plain(raw: str) -> str:
    """The display text of `raw` without spans, for the search index and the command line."""
    raw = pdf_glyphs.repair(raw)
    return _render(raw).text if needs_rendering(raw) else sanitize(raw)


def render(raw: str) -> Rendered:
    """Render an abstract (or any LaTeX/markdown snippet) to one line of text plus style spans.

    Never raises and never drops a word: whatever pylatexenc cannot parse is kept as written.

    Args:
        raw: the text as found in a listing, untrusted.

    Returns:
        Plain text with collapsed whitespace and spans that index into it.
    """
    raw = pdf_glyphs.repair(raw)
    return _render(raw) if needs_rendering(raw) else Rendered(sanitize(raw))


def _render(raw: str) -> Rendered:
    # Web addresses sit out every pass below (urls.py): no LaTeX or markdown rule may touch their bytes.
    text, addresses = urls.protect(_FORGED.sub("", strip_controls(raw)))
    text = restore(text)
    text = html_to_marks(text)
    text = markdown_to_marks(escape_stray_specials(text))
    pieces: list[str] = []
    for is_latex, piece in latex_spans.split(text, argspec):
        if not is_latex:
            pieces.append(ligatures(piece))
        else:
            pieces.append(latex_spans.literal(piece) or _convert(piece))
    return _collect(urls.restore(strip_controls("".join(pieces)), addresses))


def _convert(piece: str) -> str:
    try:
        return convert(piece)
    except Exception:  # pylatexenc on hostile input: RecursionError, parse errors
        return _fallback(piece)


def _fallback(text: str) -> str:
    """Readable text without a parser: macro names become words unless an argument follows, braces go."""

    def macro(match: re.Match[str]) -> str:
        if match.group(1) is not None:
            return ""
        return match.group(2) or (match.group(3) if match.group(3) in "%&$#_{}" else " ")

    return _FALLBACK_MACRO.sub(macro, text).replace("{", "").replace("}", "").replace("$", "")


def _collect(marked: str) -> Rendered:
    """Turn style marks into spans while collapsing whitespace, so every offset points into the final text."""
    out: list[str] = []
    length = 0
    space = False
    open_at: dict[SpanStyle, list[int]] = {}
    spans: list[Span] = []
    for chunk in _MARK_SPLIT.split(marked):
        mark = MARK_STYLE.get(chunk)
        if mark is not None:
            style, opening = mark
            if opening:
                open_at.setdefault(style, []).append(length + (1 if space and length else 0))
            elif open_at.get(style):
                spans.append(Span(open_at[style].pop(), length, style))
            continue
        words = chunk.split()
        if not words:
            space = space or bool(chunk)
            continue
        if (space or chunk[0].isspace()) and length:
            out.append(" ")
            length += 1
        joined = " ".join(words)
        out.append(joined)
        length += len(joined)
        space = chunk[-1].isspace()
    for style, starts in open_at.items():
        spans.extend(Span(start, length, style) for start in starts)
    text = "".join(out)
    kept = {_trim(text, s) for s in spans if s.start < s.end and text[s.start : s.end].strip()}
    return Rendered(text, tuple(sorted(kept, key=lambda s: (s.start, -s.end, s.style))))


def _trim(text: str, span: Span) -> Span:
    start, end = span.start, span.end
    while text[start] == " ":
        start += 1
    while text[end - 1] == " ":
        end -= 1
    return Span(start, end, span.style)
