"""What a claim is about: the phrase after its verb, up to the clause that starts something else."""

from __future__ import annotations

import re
from typing import Final

from index.headline.claims import VERBS
from index.headline.condense import by_means
from index.headline.framing import unframed
from index.headline.spaces import printable

# Every branch starts with one character class so the regex engine can skip ahead to a candidate: 4x faster.
# Each alternative after it starts with a literal or a class, never `\s*`: the engine tests that first
# character before entering the alternative (`\s*X` is `X|\s\s*X`, in the same order), 25% fewer instructions.
_AND_VERB: Final = (
    r"and\s+(?:we\s|(?:\w+ly\s+)?(?:"
    + "|".join(VERBS)
    + r"|analy[sz]e|evaluate|use|apply|train|compare|obtain|achieve|validate|conduct|test|make|report"
    r"|discuss|highlight|outline|suggest|conclude|assess|leverage|employ|perform|measure|quantify|extend"
    r"|adapt|generalize|show)\b)"
)
_CLAUSE_REST: Final = (
    r"(?:with which\s|in which\s|by which\s|whereby\s|whose\s"
    r"|\s\s*(?:with which|in which|by which|whereby|whose)\s|\s\s*(?:which|where|including|such as)\s"
    rf"|{_AND_VERB}|\s\s*{_AND_VERB})"
)
_CLAUSE_END: Final = re.compile(r"[\s,]" + _CLAUSE_REST)
# On a printable text, where the only whitespace is " ", the same matches from a literal start: 3x faster.
# Its `\s` written as " " too: every alternative then starts with a literal, which the engine checks before
# entering it (a class-first one is entered at every space), a quarter fewer instructions.
_CLAUSE_REST_SPACED: Final = _CLAUSE_REST.replace(r"\s", " ")
_CLAUSE_END_SPACE: Final = re.compile(" " + _CLAUSE_REST_SPACED)
_CLAUSE_END_COMMA: Final = re.compile("," + _CLAUSE_REST_SPACED)


def _clause_end(text: str, start: int, spaced: bool) -> re.Match[str] | None:
    """`_CLAUSE_END.search(text, start, 400)`; on a `spaced` text, the first of two literal-start searches."""
    if not spaced:
        return _CLAUSE_END.search(text, start, 400)
    space = _CLAUSE_END_SPACE.search(text, start, 400)
    comma = _CLAUSE_END_COMMA.search(text, start, 400) if "," in text else None
    if comma is None or (space is not None and space.start() < comma.start()):
        return space
    return comma


# After ", which": a verb saying what the thing does ("learns", "allows", "can"), not "is shown in".
_DOES_WHAT: Final = re.compile(r"(?:can |(?:\w+ly )?(?!is\b|was\b|has\b)[a-z]{3,}(?<!ss)s )(?!been\b)")

# "to encapsulate, evaluate [and compare X]"
_INFINITIVE: Final = re.compile(r"to (?<!\wto )[a-z]+(?:, [a-z]+)*$")


def object_of(text: str) -> str:
    """What a claim is about: the part after the verb, without a trailing `and prove ...` clause."""
    text = unframed(text)  # "taking a first step towards X": X
    text = by_means(text) if " by " in text else text  # its first test, without the call
    spaced = printable(text)  # and so is every text made from it below
    cut = _clause_end(text, 0, spaced)
    while (
        cut is not None
        and (
            (" and " in cut.group(0) and _INFINITIVE.search(text, 0, cut.start()))  # the str test first
            or (
                cut.group(0) == ", which "
                and _DOES_WHAT.match(text, cut.end())
                and "," not in text[: cut.start()]
            )
        )
    ):
        if (
            cut.group(0) == ", which "
        ):  # "X, which learns Y": what X does is the gist, kept as "X that learns Y"
            text = f"{text[: cut.start()]} that {text[cut.end() :]}"
        cut = _clause_end(text, cut.end(), spaced)  # "to disentangle and quantify X": one phrase
    if cut is None:
        return text
    words = len(text[: cut.start()].split())
    second = _SECOND_THING.match(text, cut.start()) if words < 5 else None
    if second is not None and words - (text[:2] in ("a ", "an") or text[:4] == "the ") < 4:
        return f"{text[: cut.start()]} and {text[second.end() :]}"  # "a condition and prove a theory": both
    finding = _FINDING.match(text, cut.start()) if words < 3 else None
    if finding is not None:  # "spaceIV and prove that it estimates X": "spaceIV estimates X"
        return object_of(f"{text[: cut.start()]} {text[finding.end() :]}")
    return text if words < 4 else text[: cut.start()]


_FINDING: Final = re.compile(
    r",?\s+and\s+(?:prove|show|demonstrate|verify)\s+that\s+(?:it|this|they)\s+(?=(?:[a-z]+ly\s+)?[a-z]{3,}s\s)"
)


# "propose X and prove a theory for Y": a short X and the second thing given make the contribution, where
# "and prove that ..." is a finding about X (the clause then stays as it is).
_SECOND_THING: Final = re.compile(
    r",?\s+and\s+(?:prove|derive|provide|develop|give|present|propose|introduce|establish|design|construct)\s+"
    r"(?=(?:a|an|new|several|two|three|efficient|[a-z]+-)\s)(?:an?\s+)?(?!(?:way|method)\s+to\b)"
)
