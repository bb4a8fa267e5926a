"""A claim that opens on a framing move: what the move leads to is the contribution, not the move.

"This paper takes a first step towards understanding X", "we propose to take an alternative route and
leverage X", "we propose to trade position of A and B and apply X to Y": the move says how the authors see
their work. Said as a headline ("Taking step towards ...", "Taking an alternative route") it says nothing
of the paper, so the headline is what the move leads to: "Understanding X", "Leveraging X", "Applying X to Y".
A move with content of its own ("take a Bayesian approach", "take X into account") is no framing move.
"""

from __future__ import annotations

import re
from typing import Final

from index.headline.phrase import BACK_REFERENCE, base_form

# Words a framing move qualifies its step or route with; "take a Bayesian approach" says what is done.
_EMPTY_QUALITIES: Final = (
    "first|small|further|new|different|alternative|closer|fresh|orthogonal|complementary|middle-ground|"
    "significant|important|crucial|preliminary|initial|major|big|bold|novel|distinct|other|opposite|modest|"
    "concrete|decisive|necessary|natural|radically different|completely different|entirely different"
)
_MOVE: Final = re.compile(
    r"(?:to take|taking) (?:a |an |the |one |another )?"
    rf"(?:(?:{_EMPTY_QUALITIES}) ){{0,2}}"
    r"(?:(step|steps|look)|route|path|angle|perspective|viewpoint|stance|turn|approach|direction)"
    r"(?: (?:forward|forwards|further|back|ahead|closer))?"
    r"(?: (?:in|into|along) (?:this|that|the|an?|one) (?:[a-z-]+ )?direction)?,? "
)
# "trade position of PAD and face related work in a face system and apply X": swapping two parts is how the
# authors frame the work; the means named after it is what they do.
_SWAPS: Final = (
    "trade|swap|exchange|switch|reverse|interchange|trading|swapping|exchanging|switching|reversing"
)
_MEANS: Final = "apply|use|leverage|exploit|utilize|employ|transfer|adopt|introduce|incorporate|reuse|borrow"
_SWAP: Final = re.compile(
    rf"(?:to )?(?:{_SWAPS}) (?:the )?(?:positions?|roles?|places) "
    rf"of [^,;.]{{2,80}}? and [^,;.]{{2,80}}? and (?:then )?(?=(?:{_MEANS}) )"
)
# The same move said without its verb, as "we take" leaves it: "a first step towards X".
_STEP: Final = re.compile(
    rf"(?:a |an |the |one )?(?:(?:{_EMPTY_QUALITIES}) ){{0,2}}(steps?)(?: (?:forward|forwards|further|back))?"
    r"(?: (?:in|along) (?:this|that|the) (?:[a-z-]+ )?direction)?,? "
)
_SOLVED_BY: Final = re.compile(
    r"[a-z]+ing (?:this|that|these|the|such an?) (?:[a-z-]+ ){0,2}(?:gap|problem|challenge|question|issue|"
    r"limitation)s? by (?=[a-z]{3,}ing )"
)
_TOWARDS: Final = re.compile(r"(?:towards?|into|at|on) (?=\S+ \S)")
_BY: Final = re.compile(r"(?:in [^,;.]{3,60}? )?by (?=[a-z]{3,}ing )")
_WITH: Final = re.compile(r"with (?:the )?(?:introduction|development|design|release|proposal) of (?=\S+ \S)")
_AND: Final = re.compile(r"and (?:then )?(?:to )?([a-z]{3,}) (?=\S)")
_FINDS: Final = frozenset(("prove", "proves", "show", "shows", "demonstrate", "demonstrates"))
# "with the introduction of Charades-Ego, a large-scale dataset of X": the name and what it is.
_NAME_IS: Final = re.compile(r"([A-Z][\w-]*[A-Z0-9][\w-]*), (?:a|an) (?=\S+ \S)")
_NOT_VERBS: Final = frozenset(re.findall(r"\S+", "the its our their this these those other more thus"))
# The words a move starts with, and their first three letters: a set look-up turns most texts away, one
# `startswith` the rest, before any pattern runs.
_STARTS: Final = (
    "to take ",
    "taking ",
    *(f"{to}{verb} " for to in ("to ", "") for verb in _SWAPS.split("|")),
)
_HEADS: Final = frozenset(start[:3] for start in _STARTS)


def unframed(text: str) -> str:
    """`text` without the framing move it opens on, said as what the move leads to; else `text` itself."""
    if text[:3] in _HEADS and text.startswith(_STARTS):
        swap = _SWAP.match(text)
        if swap is not None:
            return "to " + text[swap.end() :]
        move = _MOVE.match(text)
    else:  # "a first step towards X", what "we take" leaves; " step" is found (no slice) before the pattern
        step = text.find(" step", 0, 30) >= 0 or text.startswith("step")
        move = _STEP.match(text) if step else None
    if move is None:
        return text
    at = move.end()
    towards = _TOWARDS.match(text, at) if move.group(1) else None  # a step towards X, a look into X
    if towards is not None and BACK_REFERENCE.match(text, towards.end()) is None:  # not "towards this"
        solved = _SOLVED_BY.match(text, towards.end())  # "towards bridging this gap by studying X"
        return text[(solved or towards).end() :]
    after = _BY.match(text, at)
    if after is not None:
        return text[after.end() :]
    if move.group(1) and text.startswith("to ", at) and text[at + 3 : at + 8] != "this ":
        return text[at:]  # "one step further to explore X": "to explore X", said as "Exploring X"
    introduced = _WITH.match(text, at)
    if introduced is not None:
        name = _NAME_IS.match(text, introduced.end())
        return f"{name.group(1)}: {text[name.end() :]}" if name is not None else text[introduced.end() :]
    conjoined = _AND.match(text, at)
    if conjoined is not None and conjoined.group(1) not in _NOT_VERBS:  # "take a new route and leverage X"
        verb = conjoined.group(1)
        if verb in _FINDS and text.startswith("that ", conjoined.end()):  # "a first step and prove that X"
            found = text[conjoined.end() + 5 :]  # the finding; a condition first ("by X-ing, Y") is none
            return text if found.startswith(("by ", "when ", "if ")) else found
        verb = base_form(verb) if verb.endswith("s") and not verb.endswith("ss") else verb
        return f"to {verb} {text[conjoined.end() :]}"
    return text
