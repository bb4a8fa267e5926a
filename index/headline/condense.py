"""Condensing a gist: no asides, citations, filler adjectives, pointers back or leftover conjunctions."""

from __future__ import annotations

import re
from typing import Final

from index.headline.spaces import any_word, printable

_CITED_BY: Final = re.compile(r" by (?:\([^()]{0,80}\d{4}[a-z]?\)|\[[^\[\] ]{3,60}\]) ")
_SQUARE: Final = re.compile(r"\s*\[[^\[\]]{0,80}\]")
# The regex tries its 13 words at every position, 5x slower than first checking that one of them is there
# (in `condense`).
# Case-sensitive with both cases of the first letter, grouped by it, starting with a literal space: 5x
# faster than \b with IGNORECASE, which tries every position (a leading space is added for the first word).
# The lookahead of the first letters fails most spaces with one class test instead of ten alternatives.
_FILLER: Final = re.compile(
    r" (?=[FfNnSsUuPpHhEeCcDd])(?:[Ff](?:or the first time|irst)"
    r"|[Nn](?:ovel(?!(?i:\s+(?:classes|categories|objects|views|concepts)\b))"
    r"|ew(?!(?i:\s+(?:domains?|tasks?|classes|languages?|environments?|users|categories|concepts|prompts|"
    r"settings|data)\b)))|[Ss](?:imple yet (?:effective|efficient)|imple|ystematic|ignificantly)|[Uu]nified"
    r"|[Pp]rincipled|[Hh]ighly|[Ee]xtensive|[Cc]omprehensive|[Dd]esigned(?= for))\b"
    r"(?:\s*,|\s+(?i:and|or|yet|but))?(?=\s)"
)
# An aside between dashes ("methods - yet practical - for ...") interrupts the phrase a headline needs.
_ASIDE: Final = re.compile(r"\s+(?:-{1,2}|–|—)\s*[^-–—.;]{1,60}?\s*(?:-{1,2}|–|—)\s+|—[^—.;]{1,60}—")
# Whoever makes the claim is not what the paper is about: "We give ...", "This work leverages ...".
_CLAIMANT: Final = re.compile(
    r"^(?:(?:in this (?:paper|work)|here|to this end|finally)\s*,?\s+)?"
    r"(?:we|this (?:position )?(?:paper|work|article|study|note|thesis)|our (?:paper|work))\s+"
    r"(?:(?:\w+ly|also|further|then|first|here)\s+){0,2}"
    r"(?:(?:aim|seek|attempt|try|strive|want|set out)s?\s+(?:to|at)\s+)?"
    r"(?:[a-z]+\s+(?:on|to|at|with)\s+|[a-z]+\s+)",
    re.IGNORECASE,
)
# A determiner that points back to a sentence the headline does not show ("Our model ...", "These tasks").
_BACK_REFERENCE: Final = re.compile(r"^(?:our|their|its|these|those|this|such)\s+(?=\w)", re.IGNORECASE)
_INTERJECTION: Final = re.compile(r",\s+which\s[^,.;]{0,80},")
_BASED_ASIDE: Final = re.compile(
    r",\s+(?:based (?:up)?on|inspired by|motivated by|building on|following) "
    r"(?:this|these|that|such|the above)\s[^,.;]{1,40},"
)
_POINTER: Final = re.compile(r" (?:this|these|those|such) (?=[a-z]\w+ \w)")
_POINTED_FROM: Final = frozenset(("for", "of", "to", "in", "on", "with", "from", "under"))
# "..., which address these challenges": a clause that only points back says nothing here.
# Without its optional leading comma, so the engine jumps between spaces (`condense` adds the comma back).
_ADDRESSES_IT: Final = re.compile(
    r" (?:which|that) (?:\w+ly\s+)?(?:address|tackle|solve|overcome|mitigate|alleviate|resolve|fix|"
    r"handle|remedy|correct|remove|avoid)(?:e?s)?\s+(?:these|this|those|such|both|the above|all|them|it)\b"
    r"[^,;]{0,60}(?:\swhile\s[^,;]{0,100})?$"
)
# "a framework for X, particularly for Y": the narrower use is the one a reader looks for, and the comma
# would end the headline before it.
_NARROWER: Final = re.compile(
    r",\s+(?:particularly|especially|notably|in particular)\s+(?=(?:for|in|on|to)\s)"
)
# "the reasoning power of LLMs": the activity is what the headline needs; the word after it only measures.
# The activities found from their first letters (any_word), not from a `\b` tried at every position.
_ACTIVITIES: Final = (
    "reasoning|representation|modeling|modelling|generalization|generation|understanding|planning"
)
_MEASURE: Final = re.compile(
    f"({any_word(_ACTIVITIES)}) " + r"(?:power|capability|capabilities|ability|abilities|capacity)\b(?= of\s)"
)
# "algorithm–Regressor Elimination – with a regret ...": a name set off by dashes names the thing.
_NAMED_BETWEEN: Final = re.compile(
    r"^([a-z][\w-]*(?: [a-z][\w-]*){0,3})\s*[–—]\s*([A-Z][^–—.;,]{2,40}?)\s*[–—]\s+"
)
# "the MAML algorithm of Finn et al. as a method": whose it is matters less than what it becomes.
_OWNER: Final = re.compile(r"(?:^|,? )(?:of|by) [A-Z][\w'-]+(?: and [A-Z][\w'-]+)? et al\.?,?(?= )")
# "model, where we relax this assumption by allowing X" / "which builds on prior work by learning X": how
# the paper gets there is the part after "by", said of the thing itself ("model allowing X").
_BY_MEANS: Final = re.compile(
    r"(?:,? |^)(?:where we [a-z]+ (?:this|these|that|the|our) [a-z]+"
    r"|which builds on (?:prior|previous|earlier) work) by (?=[a-z]{3,}ing )"
)
# "learning what we call a neural scene decomposition": the thing, without the naming of it.
_WE_CALL: Final = re.compile(r" what (?:we|is) (?:call|called|term|termed|dub|dubbed) (?:an? |the )?")
# "an algorithm that achieves that, with a regret of X": the pointer says nothing, the regret does.
_DOES_THAT: Final = re.compile(
    r" (?:that|which) (?:achieves|does|accomplishes|solves|attains) (?:that|this|it)\b,?"
)
# "dataset to further encourage research in this direction": every resource hopes to; it says nothing.
_HOPES: Final = re.compile(
    r",? (?:in order )?to (?:further |also )?(?:encourage|facilitate|foster|spur|stimulate|support|promote|"
    r"enable|inspire|advance|benefit|accelerate) (?:further |future |more |follow-up )?"
    r"(?:research|work|studies|progress) (?:in|on|along) (?:this|these) "
    r"(?:direction|area|field|line|topic|problem)s?\b.{0,40}$"
)
_THIS_PAPER: Final = re.compile(r"\s*\b(?:to|in) this (?:study|paper|work)\b")
_CONDENSE_SPAN: Final = 400
# What a gist starts with that a headline does not: leading articles; then a conjunction left over once its
# subject and filler are gone ("and efficient encoding"); then "general" ("A general FD methodology": every
# contribution claims generality, the headline needs the room). One match: each part is optional, so the
# greedy path takes each in turn as three anchored patterns would, at one regex call instead of three.
_PREFIX: Final = re.compile(
    r"(?i:(?:(?:a|an|the|that)\s+)*(?:(?:and|or|but|yet|,)\s+)*)"
    r"(?:(?:general|generic)\s+(?!and\b|or\b)(?=\S+\s+\S))?"
)
# The ASCII characters `_PREFIX` can take a first character from, in any case it matches.
_PREFIX_FIRST: Final = "aAtToObByY,g"


def _after(prefix: re.Pattern[str], text: str, letters: str) -> str:
    """The text without what an anchored pattern matches at its start: `sub` would try every position.

    `letters` are the ASCII characters the pattern can start with, in any case it matches: a text that starts
    with another ASCII character is not matched at all (a str test costs a tenth of a match call).
    """
    first = text[:1]
    match = prefix.match(text) if first in letters or not first.isascii() else None
    return text if match is None else text[match.end() :]


def without_parentheses(text: str) -> str:
    """The text without "(...)" groups (no nested ones, at most 200 characters) and the space before each.

    str.find finds them: a pattern for them starts with `\\s*`, so the regex engine would try every position.
    """
    out: list[str] = []
    done = 0
    opening = text.find("(")
    while opening >= 0:
        closing = text.find(")", opening + 1, opening + 202)
        inner = text.find("(", opening + 1, closing) if closing > 0 else -1
        if closing > 0 and inner < 0 and text[opening - 1 : opening] in _ORDERS and _big_o(text, opening):
            opening = text.find("(", closing)  # "O(n log n)-space": the bound, not an aside
        elif closing > 0 and inner < 0:
            start = opening
            while start > done and text[start - 1].isspace():
                start -= 1
            out.append(text[done:start])
            done = closing + 1
            opening = text.find("(", done)
        else:
            opening = text.find("(", inner if inner > 0 else opening + 1)
    return "".join(out) + text[done:] if out else text


def _big_o(text: str, opening: int) -> bool:
    """Whether the "(" after an O, Ω, Θ or Õ is a bound's argument: "O(n)", glued to a lone letter.

    The caller tests the letter first: a call per parenthesis costs more than the test.
    """
    return opening < 2 or not text[opening - 2].isalnum()


_ORDERS: Final = frozenset("OΩΘÕ")


def without_owner(text: str) -> str:
    """The text without "of Finn et al.": whose method it is matters less than what it becomes."""
    return _OWNER.sub("", text) if " et al" in text else text


def by_means(text: str) -> str:
    """ "model, where we relax this assumption by allowing X": "model allowing X"."""
    if " by " in text and (" where we " in text or " builds on " in text):
        return _BY_MEANS.sub(" ", text, count=1)
    return text


def addressed_at(text: str) -> int:
    """Where ", which address these challenges" (its comma too) starts at the end of the text, or -1: the
    clause only points back."""
    start = max(0, len(text) - 240)
    tail = _ADDRESSES_IT.search(text, start)  # the leftmost ", which" is a comma before the leftmost " which"
    if tail is None:
        return -1
    cut = tail.start()
    return cut - 1 if cut > start and text[cut - 1] == "," else cut


def without_claimant(text: str) -> str:
    """What a sentence says, without "We give"/"This work leverages": headlines never start with "We"."""
    return _after(_BACK_REFERENCE, _after(_CLAIMANT, text, "iIhHtTfFwWoO"), "oOtTiIsS")


_ORPHAN_AND: Final = re.compile(r" (?:and|or) ?\x00")


def _without_pointer(match: re.Match[str]) -> str:
    """ "for [this] X" -> "for X", when the word before it is a preposition; otherwise unchanged."""
    before = match.string[max(0, match.start() - 6) : match.start()].rsplit(" ", 1)[-1]
    return " " if before in _POINTED_FROM else match.group(0)


def _without_filler(match: re.Match[str]) -> str:
    """Nothing for a filler word, and no "and" left before it: "task-independent [and principled] X"."""
    start = match.start()
    if match.string.endswith((" and", " or"), 0, start):
        return "\x00"  # marks a conjunction left without its second half, removed below
    return ""


def _aside_unless_list(match: re.Match[str]) -> str:
    """ ", which X," goes as an aside, unless its comma opens a list ("its grammatical, sentential and")."""
    after = match.string[match.end() : match.end() + 60]
    return match.group(0) if _LIST_GOES_ON.match(after) else ""


_LIST_GOES_ON: Final = re.compile(r"\s*[\w-]+(?:,\s*[\w-]+)*,?\s+(?:and|or)\s")


def condense(text: str) -> str:
    """The phrase without asides, filler adjectives, leading articles or leftover conjunctions."""
    if len(text) > _CONDENSE_SPAN:  # what a headline can show, plus room for what condensing removes
        cut = text.rfind(" ", 0, _CONDENSE_SPAN)
        text = text[: cut if cut > 0 else _CONDENSE_SPAN]
    # One-character tests are memchr scans, several times cheaper than a word's: they go first, once each.
    paren, square = "(" in text, "[" in text
    if (paren and " by (" in text) or (square and " by [" in text):  # "proposed by [papini2018] for RL":
        text = _CITED_BY.sub(" ", text)  # the citation and its "by" go
    if paren:
        text = without_parentheses(text)
    if square:
        text = _SQUARE.sub("", text)  # citations and literal markup ("[bold red]"): neither is a headline
    comma = ", " in text  # after the asides: "X,(Y) Z" becomes "X, Z"
    if comma and ", which " in text:
        text = _INTERJECTION.sub(_aside_unless_list, text)
    if comma:
        text = _BASED_ASIDE.sub("", text)  # "a method, based upon this idea, for X"
    text = text.strip(" ,;:")
    # Each test once: the subs below only take words out, so a word absent here stays absent.
    clause = " that " in text or " which " in text
    if clause and ("s th" in text or "s it" in text):  # each of its verbs ends in "s", before that|this|it
        text = _DOES_THAT.sub("", text, count=1)
    if " what " in text:
        text = _WE_CALL.sub(" ", text)
    this = " this " in text
    if this:
        if " this paper" in text or " this work" in text or " this study" in text:  # (a match has one)
            text = _THIS_PAPER.sub("", text)  # its leading \s* has the engine try every position
        comma = comma or ", " in text  # "X,in this paper Y" becomes "X, Y": the one sub here that makes one
    if this or " these " in text or " those " in text or " such " in text:
        if " research " in text:
            text = _HOPES.sub("", text, count=1)
        text = _POINTER.sub(_without_pointer, text)  # "scheme for [this] convex formulation": this what?
    if clause and (" that " in text or " which " in text):  # most texts have no clause to drop
        cut = addressed_at(text)
        text = text if cut < 0 else text[:cut]
    # (" of" first: a match has it, and more than half the texts do not, which spares them three scans)
    if " of" in text and ("abilit" in text or "capa" in text or "power" in text):
        text = _MEASURE.sub(r"\1", text)
    text = without_owner(text)
    if comma and ("ly " in text or "particular " in text):  # no sub since the asides made a ", "
        text = _NARROWER.sub(" ", text)
    ascii = text.isascii()  # (a flag: no scan) the subs put in no character that is not in the text
    if " -" in text or (not ascii and (" –" in text or "—" in text)):
        text = _ASIDE.sub(" ", text)
    lowered = text.lower()
    # Whether a word `_FILLER` removes is in the text: an `or` chain, commonest first, inline (no call).
    if (
        "new" in lowered
        or "first" in lowered
        or "novel" in lowered
        or "simple" in lowered
        or "designed" in lowered
        or "unified" in lowered
        or "highly" in lowered
        or "significantly" in lowered
        or "extensive" in lowered
        or "comprehensive" in lowered
        or "systematic" in lowered
        or "principled" in lowered
    ):
        text = _FILLER.sub(_without_filler, " " + text).lstrip(" ")
    if "\x00" in text:
        text = _ORPHAN_AND.sub(" ", text).replace("\x00", "")
    text = _after(_PREFIX, text, _PREFIX_FIRST)
    if not ascii and ("–" in text or "—" in text):
        text = _NAMED_BETWEEN.sub(r"\2: \1 ", text, count=1)
    if not printable(text) or "  " in text or text[:1] == " " or text[-1:] == " ":
        text = " ".join(text.split())  # else one-spaced already: no list of words to build and join
    return text.strip(" ,;:.–—-")
