"""Mending a cut that broke a phrase: a relative clause without its verb, a modifier without its noun."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

# "approach in which models [... are constructed]": a clause whose verb the cut lost says nothing.
_CLAUSE_OPENERS: Final = ("where", "whereby", "whose", "wherein")
_CLAUSE_PREPOSITIONS: Final = ("in", "by", "with", "through", "under", "for", "on")
# "in which models for structured data": up to five words and none of them a verb's helper yet.
_WHICH_CLAUSE: Final = r" which(?: (?!(?:is|are|was|were|can|has|have)\b)[^\s,]+){1,5}"
# Flat, each alternative starting with its word: the engine tests that word's letter before entering it.
_OPEN_CLAUSE: Final = re.compile(
    " (?:"
    + "|".join(
        [rf"{word}{_WHICH_CLAUSE}$" for word in _CLAUSE_PREPOSITIONS]
        + [rf"{word}(?: \S+){{1,2}}$" for word in _CLAUSE_OPENERS]
    )
    + ")"
)
# A word followed by a lower-case content word in the text is its modifier ("joint false-negative
# [guarantees]"); adjectival endings tell a modifier from a head noun without a dictionary.
_MODIFIER_ENDINGS: Final = ("ive", "ic", "ous", "ful")
# Words after which the next is never the noun a modifier was for: function words and verbs' helpers.
_FUNCTION: Final = frozenset(
    re.findall(
        r"\S+",
        "a an the of and or for with in on to by from as at via that which is are be was were has have can "
        "into over under between using while where when than but nor so if its their our this these such",
    )
)

# A pair whose second half the cut would lose: "between A [and B]", "both A [and B]", "from A [to B]".
_OPEN_PAIR: Final = re.compile(r"\b(?:between|both|either|neither|whether|not (?:as|only|just|merely))\b")


def first_question(text: str, max_len: int) -> str:
    """The first of two questions joined by a dash or a semicolon, when it alone fits: "" otherwise."""
    for mark in ("–", "—", " - ", "; "):
        at = text.find(mark)
        if 20 <= at < max_len:
            return text[:at].rstrip(" ,;:") + "?"
    return ""


def open_pair(tail: str) -> bool:
    """ "between A [and B]" with no second half yet; "between A and B" is whole, "not as X but as Y" too."""
    if "both" not in tail and "ther" not in tail and "betw" not in tail and "not " not in tail:
        return False  # four str scans for what every pair word has: \b first, the pattern tries every place
    pair = _OPEN_PAIR.search(tail)  # the last pair, by searches: most tails have none, and no list is built
    if pair is None:
        return False
    later = _OPEN_PAIR.search(tail, pair.end())
    while later is not None:
        pair, later = later, _OPEN_PAIR.search(tail, later.end())
    closing = " but " if pair.group(0).startswith("not") else (" and ", " or ", " nor ")
    return not any(word in tail[pair.end() :] for word in closing)


def open_clause(kept: str) -> bool:
    """Whether a cut ends a word or two into a relative clause ("approach in which models [are ...]")."""
    return _OPEN_CLAUSE.search(kept, max(0, len(kept) - 60)) is not None


def mend(words: list[str], rest: str, drop: Callable[[list[str]], None]) -> None:
    """Drop the half-said end of a cut: a relative clause without its verb, a modifier without its noun.

    Args:
        words: the words the cut kept, changed in place.
        rest: the text that followed the cut.
        drop: the caller's `words -> None` that drops function words left at the end.
    """
    following = rest.split(" ", 1)[0]
    if not following:
        return
    for back in range(len(words) - 1, max(2, len(words) - 4), -1):
        word = words[back].lower()
        opener = word in _CLAUSE_OPENERS or (
            word == "which" and words[back - 1].lower() in _CLAUSE_PREPOSITIONS
        )
        if opener:  # "approach in which models": the clause goes whole
            del words[back - (word == "which") :]
            drop(words)
            return
    last = words[-1]
    modifier = (
        following.isalpha()
        and following.islower()
        and following not in _FUNCTION
        and last.lower().endswith(_MODIFIER_ENDINGS)
        and ("-" in last or "/" in last)
    )
    if modifier and len(words) > 5:  # "achieving joint false-positive/false-negative [guarantees]"
        for back in range(len(words) - 2, len(words) - 4, -1):
            if words[back].endswith("ing") and words[back].islower():
                del words[back:]  # the participle's object lost its noun: the participle goes with it
                drop(words)
                return


# Words that qualify a noun: a cut right after one lost the noun.
ADJECTIVES: Final = frozenset(
    re.findall(
        r"\S+",
        "approximate explicit implicit efficient effective robust general various several different many "
        "more most new novel key high low large small better best accurate simple scalable joint prior "
        "existing single multiple specific particular arbitrary respective underlying",
    )
)
# Nouns that mean nothing without their "of"/"between" phrase: a cut must not end on one.
RELATIONAL: Final = frozenset(
    re.findall(
        r"\S+",
        "interplay relationship relationships relation relations impact effect effects role stability "
        "ability capability gap trade-off tradeoff difference differences connection connections link "
        "influence importance use usage behavior behaviour dynamics nature properties structure extent "
        "degree subset superset part portion number variety range series collection combination family",
    )
)
# Participles not in "-ed": a cut right after one ("programs written [in ...]") lost its complement.
IRREGULAR_PARTICIPLES: Final = frozenset(
    re.findall(r"\S+", "written given driven taken drawn shown known seen made built found held run set")
)
# Prepositions of place, which need their object as much as "of" does: "interactions inside [...]".
PLACES: Final = "inside outside beyond behind around beneath amid"
# Words a cut headline must not end on.
DANGLING: Final = frozenset(
    re.findall(
        r"\S+",
        "a an the of and or for with in on to by from as at via that which its their our is are be into "
        "over under between using while where when both either not than this these such each any whose "
        "who can to through based without within across including toward towards against among per e.g "
        "i.e but nor so requires require based if has have had how what why given whether before after "
        f"until unless whereas because since during till aiming {PLACES}",  # "aiming [at ...]"
    )
)
# How a noun phrase may end: plurals, nominal suffixes and the kinds of thing papers contribute.
_NOUN_ENDINGS: Final = tuple(
    re.findall(
        r"\S+",
        "s tion sion ment ness ity ure er or ism ance ence work model method approach algorithm system graph "
        "data task set loss",
    )
)


def noun_end(word: str, before: str) -> bool:
    """Whether a word can end a noun phrase: a cut after it before "and" drops a whole second conjunct.

    An adjective ("lexical [and syntactic errors]") or a verb ("discovering [and reasoning about X]")
    shares what follows with the second conjunct and cannot end the line.
    """
    if before in ("to", "that", "which", "who") or before.endswith("ly"):
        return False  # "to model [and solve X]", "that automatically removes [and ...]": verbs
    if not word.isalpha():
        return (word[:-1].isalnum() and word[-1:] == ")") or word.isupper()
    return (not word.islower() and not word.istitle()) or (
        word.endswith(_NOUN_ENDINGS) and word.lower() not in ADJECTIVES and not word.endswith(("ous", "ss"))
    )
