"""No two papers of one set of listings show the same headline.

The model picks each paper's line on its own, so papers on one topic can share it (56 papers of the corpus
read "Generative adversarial networks"). Over the whole set, each group of papers sharing a line (compared
without case) keeps it for the paper with the smallest id; each other paper of the group takes its own next
line that no paper of the set shows (`pipeline.choices`: the method's name before the line, or the
next-best span the model scored), and failing that its line marked "(2)", "(3)" in id order. The result
depends only on the set's (id, line) pairs and the abstracts, never on the order papers were made or
updated in, so a full build, an update and a splice of the same listings show the same lines.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Final

from index.headline.width import fitted_title

LONGEST: Final = 80
"""The longest line shown, marks included (as `pipeline.headline`'s `max_len`)."""

Alternatives = Callable[[list[int]], list[list[str]]]
"""For paper numbers, each one's other lines, best first (empty when it has a real title to keep)."""


def key(line: str) -> str:
    """What two lines are compared by: case and spacing do not tell papers apart on screen."""
    return " ".join(line.casefold().split())


def distinct(ids: Sequence[str], lines: Sequence[str], alternatives: Alternatives) -> dict[int, str]:
    """The lines to show in place of `lines[number]` so that no two papers' lines are alike, by number.

    Args:
        ids: each paper's id (the stable order within a group).
        lines: each paper's own headline, as the model or its title made it.
        alternatives: each paper's other lines, asked once for only the papers that must change.
    """
    groups: defaultdict[str, list[int]] = defaultdict(list)
    for number, line in enumerate(lines):
        groups[key(line)].append(number)
    movers = [
        number
        for _, members in sorted(groups.items())
        if len(members) > 1
        for number in sorted(members, key=ids.__getitem__)[1:]
    ]
    if not movers:
        return {}
    taken = set(groups)
    offered = alternatives(movers)
    shown: dict[int, str] = {}
    marked: list[int] = []
    for number, others in zip(movers, offered, strict=True):
        for other in others:
            if key(other) not in taken:
                taken.add(key(other))
                shown[number] = other
                break
        else:
            marked.append(number)
    last: dict[str, int] = {}
    for number in marked:  # movers are in id order within a group, so the marks are too
        line = lines[number]
        count = last.get(key(line), 1)
        while True:
            count += 1
            mark = f" ({count})"
            made = fitted_title(line, LONGEST - len(mark)) + mark
            if key(made) not in taken:
                break
        last[key(line)] = count
        taken.add(key(made))
        shown[number] = made
    return shown
