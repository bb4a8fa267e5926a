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
    r"(?:(which|that)\s+(?=(?:[a-z]+ly\s+)?[a-z]{3,}s\s|can\s[a-z]{3,}\s)|(to)\s+(?=[a-z]{3,}\s)"
    r"|(for|aiming to|aiming at)\s+)"
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
        "classifier detector mechanism loss layer operator kernel machine pipeline benchmark dataset "
        "procedure strategy scheme",
    )
)
# Head nouns that name a process, said with the word before them: "feature selection", "gradient descent".
_PROCESSES: Final = frozenset(
    re.findall(
        r"\S+",
        "attention descent back-propagation backpropagation search regression augmentation decomposition "
        "clustering selection embedding embeddings",
    )
)
# Words before a process noun that do not name the process: "Concatenation of Embeddings", "X aware Y".
_NOT_MODIFIERS: Final = frozenset(
    re.findall(r"\S+", "of and or for with in on to by aware based driven guided")
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
    alone = which is not None and clause[:4] != "can "  # "FedSeIT: selectively combines X" reads alone
    kind = _kind_named(expansion, process=not which) if kind is None else kind
    if not kind and not alone:
        return ""  # "DCD: Diagnosis to address X": the last word of a name is not always a kind of thing
    line = _line(label, kind, joint, clause, max_len)
    return _line(label, "", joint, clause, max_len) if not line and alone and kind else line


def _kind_named(expansion: str, process: bool) -> str:
    """The kind of thing a spelled-out name says it is, lower-cased: "... Network", "... Gradient Descent".

    A `process` ("feature selection", "gradient descent") only before a purpose: "which converts X" says
    what the thing does by itself, and "search that converts X" says less in more room.
    """
    words = expansion.split(" ")
    head = words[-1].lower()
    if process and head in _PROCESSES and len(words) > 1 and words[-2].isalpha():
        before = words[-2] if words[-2].isupper() else words[-2].lower()
        return "" if before in _NOT_MODIFIERS else f"{before} {head}"
    return head if head.rstrip("s") in _KINDS else ""


def _line(label: str, kind: str, joint: str, clause: str, max_len: int) -> str:
    """`LABEL: kind that does X`, or "" where the cut loses the kind or what it does."""
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
