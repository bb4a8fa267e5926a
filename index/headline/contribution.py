"""The clause of an abstract that states its contribution ("we propose X, a ..."): the reader's preview line
under a headline, as a mail reader shows the first line of a message that has no subject."""

from __future__ import annotations

import re
from typing import Final

CLAIM: Final = re.compile(
    r"\b(?:we|this (?:paper|work|article|study)|our (?:paper|work|method|approach))\s+"
    r"(?:\w+ly\s+)?(?:then\s+)?"
    r"(?:propose|present|introduce|develop|design|describe|devise|formulate|put forward|offer|provide"
    r"|study|investigate|explore|address|tackle|show|demonstrate|derive|establish|prove|build|construct)\w*\b",
    re.IGNORECASE,
)
"""Where an abstract starts saying what it does: the first such phrase, in the first of its sentences."""
SENTENCE_END: Final = re.compile(r"[.!?](?=\s+[A-Z(\[]|\s*$)")


def contribution(plain: str) -> tuple[int, int]:
    """Characters `[start, end)` of `plain` (a rendered abstract) that state the contribution: from the first
    "we propose"-like phrase to the end of its sentence; else the first sentence (an abstract that never
    says "we" still opens on what it is about)."""
    found = CLAIM.search(plain)
    start = found.start() if found else len(plain) - len(plain.lstrip())
    end = SENTENCE_END.search(plain, found.end() if found else start)
    return start, (end.start() if end else len(plain.rstrip()))
