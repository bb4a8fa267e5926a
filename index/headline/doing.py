"""What a named contribution does, said in place of its spelled-out name when both do not fit a line.

"Mr-BERT: Metaphor-relation BERT model" only spells the acronym out: the reader learns nothing the label
did not say. The claim went on ("..., which explicitly models the relation between a verb and its
contexts"), but the expansion took the room. Of the two, what the thing does tells the reader more.
"""

from __future__ import annotations

import re
from typing import Final

from index.headline.condense import condense
from index.headline.fit import fit
from index.headline.phrase import KINDS
from index.headline.quality import acronym_only, ends_dangling, generic

# "+model, which explicitly models X", "+framework to enable X", "+approach in which X": the kind of thing,
# then a clause saying what it does or is for. "+that learns X", "+to extract X": the clause alone.
_KIND_DOES: Final = re.compile(
    r"(?:((?:framework|method|model|approach|algorithm|architecture|network|system|technique|module|"
    r"estimator|paradigm|scheme|strategy)s?),?\s+)?"
    r"(?:(which|that)\s+(?=(?:[a-z]+ly\s+)?[a-z]{3,}s\s)|(to)\s+(?=[a-z]{3,}\s)|(for|aiming to|aiming at)\s+)"
)
# A clause that only points back ("to tackle this challenge") says nothing on a line of its own.
_POINTS_BACK: Final = re.compile(r"\b(?:this|these|those|such|them|it)\b")
# "its grammatical, sentential and semantic contexts": modifiers in a list before the noun they share.
_SHARED_NOUN: Final = re.compile(
    r"(?<= )[a-z-]+, (?:[a-z-]+, )*[a-z-]+,? (?:and|or) [a-z-]+ (?=[a-z-]+(?: |$))"
)
# The head nouns a spelled-out name ends on that say what kind of thing it is ("... Network").
_KINDS: Final = KINDS | frozenset(
    re.findall(
        r"\S+",
        "architecture module transformer estimator sampler optimizer learner encoder decoder generator "
        "classifier detector",
    )
)


def doing_line(label: str, expansion: str, description: str, max_len: int) -> str:
    """`LABEL: kind that does X` from a "+" description, or "" when it says nothing the line can show."""
    match = _KIND_DOES.match(description, 1)
    if match is None:
        return ""
    kind, which, to, other = match.groups()
    clause = description[match.end() :]
    if _POINTS_BACK.search(clause, 0, 60):
        return ""
    joint = "that" if which else to or other
    if kind is None:
        head = expansion.rsplit(" ", 1)[-1].lower()
        kind = head if head.rstrip("s") in _KINDS else ""  # "... Network": the kind it is, lower-cased
    if not kind and not which:
        return ""  # "DCD: Diagnosis to address X": the last word of a name is not always a kind of thing
    phrase = f"{kind} {joint} {clause}" if kind else clause  # "FedSeIT: selectively combines X"
    phrase = condense(phrase)
    line = fit(f"{label}: {phrase}", max_len, ellipsis=False)
    body = line[len(label) + 2 :]
    if f"{line.rsplit(' ', 1)[-1]}, " in phrase:  # "its grammatical, [sentential and semantic contexts]"
        shared = _SHARED_NOUN.sub("", phrase, count=1)  # half a list: the list goes, its noun stays
        line = fit(f"{label}: {shared}", max_len, ellipsis=False) if shared != phrase else ""
        body = line[len(label) + 2 :]
    lead = f"{kind} " if kind else clause.split(" ", 1)[0]
    if not body.startswith(lead) or len(body.split()) < 4:  # the cut lost the kind or what it does
        return ""
    if ends_dangling(line) or generic(line) or acronym_only(line):
        return ""
    return line


class AcronymOnly(dict[str, bool]):
    """`acronym_only` of each line asked about, for one named headline, whose lines are asked about twice."""

    def __missing__(self, line: str) -> bool:
        self[line] = found = acronym_only(line)
        return found
