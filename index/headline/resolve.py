"""Lines that lean on another sentence: a name defined outside any claim, a purpose pointing back."""

from __future__ import annotations

import re
from typing import Final

from index.headline.condense import addressed_at, condense
from index.headline.fit import fit
from index.headline.naming import COINED
from index.headline.phrase import as_headline
from index.headline.topic import topic

# "Averaged-DQN is a simple extension to DQN, ...": a coined name the abstract defines as something new.
_DEFINES: Final = re.compile(r"([A-Z][\w-]*) is an? (?:simple|new|novel)\b(?: yet \w+)?\s+([^.;]{10,})")


def defined(sentences: list[str]) -> tuple[str, str, str] | None:
    """(name, "", what it is) for an early sentence that defines a coined name, when no claim names one."""
    for sentence in sentences[:3]:  # the name starts the sentence: " is a" is looked for in its first words
        found = _DEFINES.match(sentence) if " is a" in sentence[1:40] else None  # (a slice: no bounded find)
        if found is not None and COINED.match(found.group(1)):
            return found.group(1), "", "a " + found.group(2)
    return None


# The nouns a purpose pointing back ends with: a line ending with none needs no regex search.
POINTED_ENDS: Final = frozenset(
    re.findall(
        r"\S+",
        "problem problems task tasks issue issues challenge challenges limitation limitations gap gaps goal "
        "goals concern concerns difficulty difficulties",
    )
)
# "... framework to solve this problem", "... for solving it": a purpose that points back to a sentence the
# line does not show.
_POINTS_BACK_AT_END: Final = re.compile(
    r" (?:to (?:[a-z]+ ){1,2}?|for (?:[a-z]+ing )?|toward )"
    rf"(?:(?:this|these|such|those) (?:{'|'.join(sorted(POINTED_ENDS))})|it)$"
)
# "We study the problem of X, where ...": the field, when the first sentence's subject names none.
_FIELD_PROBLEM: Final = re.compile(r"problem of ([^,.;()]{5,60}?)(?=[,.;(]| where| in which| that| with|$)")


def points_back(line: str) -> bool:
    """Whether a line may end on a purpose pointing back: the cheap test before `pointed_field` searches."""
    last = line[line.rfind(" ") + 1 :]
    return last == "it" or (last in POINTED_ENDS and (" th" in line or " such " in line))


def pointed_field(line: str, max_len: int, text: str) -> str:
    """ "Contrastive framework to solve this problem" -> "... for <the field the first sentence names>"."""
    back = _POINTS_BACK_AT_END.search(line)
    if back is None or back.start() < 12:
        return line
    first = text[: text.find(". ") + 1] or text
    field = topic(first, short=True).split(" for ", 1)[-1]
    problem = _FIELD_PROBLEM.search(first) if not field and "problem of " in first else None
    field = problem.group(1) if problem is not None else field
    of = field.find("roblem of ", 0, 14)  # "[The] problem of fair classification": the field is what follows
    field = field[of + 10 :] if of >= 0 else field
    words = field.split(" ")
    if len(words) < 2 or field.lower() in line.lower() or (words[-1][-1:] == "s" and words[-2][-3:] == "ing"):
        return line  # a single word says no field; "Multi-task learning learns" ends with its verb
    field = field if field[1:2].isupper() else lower_first(field)
    return fit(f"{line[: back.start()]} for {field}", max_len, ellipsis=False)


def lower_first(field: str) -> str:
    """ "Attribute-based ZSL" -> "attribute-based ZSL": the field in running text, its acronyms kept."""
    return " ".join(word if _acronym_in(word) else word.lower() for word in field.split(" "))


def _acronym_in(word: str) -> bool:
    """Whether a word keeps its capitals in running text: "ZSL", "RGB-D", not "Multi-Label" or "Image"."""
    return sum(c.isupper() for c in word) > 1 and not all(part.istitle() for part in word.split("-"))


def addressing(gist: str, first: str, max_len: int) -> tuple[str, bool]:
    """The condensed gist; "X, which address these challenges" says "X for <the field>" when there is room.

    The clause that points back goes (condense drops it), and with it what X is for: the first sentence's
    subject names the field the challenges belong to. With the line, whether `as_headline` leaves it as it is
    (it left the condensed gist alone): the caller need not ask again.
    """
    condensed = condense(gist)
    line = as_headline(condensed)
    if (" which " not in gist and " that " not in gist) or gist.rstrip(" .").endswith(line[-12:]):
        return line, line is condensed  # no relative clause, or the line still ends as the gist: none dropped
    if addressed_at(gist.rstrip(".")) < 0:
        return line, line is condensed
    field = topic(first)
    if not field or len(line) + len(field) + 5 > max_len or field.lower() in line.lower():
        return line, line is condensed
    return f"{line} for {field if field[1:2].isupper() else lower_first(field)}", False


def close_quote(line: str, text: str) -> str:
    """'namely "Learning from a Learner': the quote the abstract closes right there, else no quote at all.

    Trimming strips a closing quote as edge punctuation; half a quotation reads as a cut.
    """
    opening = line.rfind('"')
    quoted = line[opening:]
    if opening > 0 and len(quoted) > 3 and f'{quoted}"' in text:
        return f'{line}"'
    return line.replace('"', "")
