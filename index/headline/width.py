"""Stage 4: a headline fitted to the room it has: trimmed of the punctuation a span carries, capitalised,
and, for a real title longer than the room, cut at a word boundary with an ellipsis."""

from __future__ import annotations

import re
from typing import Final

from index.headline.words import DANGLING, NOVELTY

TRAILING: Final = " .,;:!?–—-"
MARKUP: Final = re.compile(r"\[/?[A-Za-z@#][^\[\]]{0,40}\]|\[/\]")
"""What reads as a terminal markup tag ("[bold red]", "[/]", "[link=...]"): dropped whole from a span, since
a listing's text is shown literally and a tag in a headline is noise (a real title keeps what it says)."""
UNTITLED: Final = "Untitled"
APPOSITION: Final = re.compile(
    r"(?P<name>[A-Z][\w-]*(?: [A-Z][\w-]*){0,4}), (?:a|an|the) (?P<rest>\S.*)", re.ASCII | re.DOTALL
)
"""A name and what it is, as an abstract introduces them ("Deep Plastic Surgery, a robust ... framework"):
a title says it "Deep Plastic Surgery: robust ... framework"."""


def as_headline(span: str) -> str:
    """A span of an abstract as a headline: one-spaced, no trailing punctuation, capitalised first letter,
    and no bracket left open at either end ("(raw depth" -> "raw depth")."""
    if "[" in span:
        span = MARKUP.sub(" ", span)
    line = " ".join(span.split()).rstrip(TRAILING)
    if line and line[0] in "([\"'" and line.count(line[0]) > line.count(_closing(line[0])):
        line = line[1:]
    for opening in "([":
        if line.count(opening) > line.count(_closing(opening)) and line.rfind(opening) > 0:
            line = line[: line.rfind(opening)].rstrip(TRAILING)
    if line and line[-1] in ")]" and line.count(line[-1]) > line.count(_opening(line[-1])):
        line = line[:-1]
    line = _as_title_apposition(line)
    return line[:1].upper() + line[1:]


def _as_title_apposition(line: str) -> str:
    """ "Name, a novel Y" as "Name: Y" (the praise left behind); any other line as it is."""
    found = APPOSITION.fullmatch(line)
    if not found or ":" in found["name"]:
        return line
    words = found["rest"].split(" ")
    while len(words) > 1 and words[0].strip(",").lower() in NOVELTY:
        words.pop(0)
    if words[0].lower() == "and" and len(words) > 1:
        words.pop(0)
    return f"{found['name']}: {' '.join(words)}"


def fitted_title(title: str, longest: int) -> str:
    """A real title in `longest` characters: whole when it fits, else cut at a word boundary with "…",
    never after a dangling article or preposition."""
    line = " ".join(title.split())
    if not line:
        return UNTITLED
    if len(line) <= longest:
        return line
    words = line[:longest].split(" ")
    if len(words) > 1:
        words.pop()  # the last word was cut, or the ellipsis needs its cell
    while len(words) > 1 and words[-1].lower().strip(TRAILING) in DANGLING:
        words.pop()
    cut = " ".join(words).rstrip(TRAILING)[: longest - 1]
    return cut + "…"


def _closing(opening: str) -> str:
    return {"(": ")", "[": "]", '"': '"', "'": "'"}[opening]


def _opening(closing: str) -> str:
    return {")": "(", "]": "["}[closing]
