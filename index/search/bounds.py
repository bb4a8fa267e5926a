"""How much work one query may do: what a query may ask for, and the deadline its expansions check.

Every query, typed in the reader, restored with a session or run by `papers search`, answers within about
`QUERY_SECONDS` or stops with a notice that says why. Three kinds of work grow without bound on their own:
a long query's parse (Whoosh's analyzer is quadratic in a word's length), a fuzzy word's walk over the
lexicon (the Levenshtein automaton of `word~9` is exponential in the distance), and a wildcard with no
letters before its first `*` or `?` (a walk over every word of every field). The parser caps the first two
(`MAX_QUERY_CHARS`, `MAX_EDITS`) and refuses a wildcard that is nothing but wildcards; a `Budget` bounds
what is left: each expansion checks it as it walks, and the ranking gets what time remains.
"""

from __future__ import annotations

import time
from collections.abc import Callable

QUERY_SECONDS = 1.5
"""Seconds a query's expansions and ranking may take together, leaving room within the 2 s a query is
promised for parsing, the marks and "did you mean"."""
MAX_QUERY_CHARS = 1000
"""Characters of a query that are searched; the rest is cut at a space, with a notice. A 10k-character
word takes Whoosh's analyzer over 2 s alone; a thousand characters is far more than any real query."""
MAX_EDITS = 2
"""Typos a `word~N` may allow: more makes every short word match (and the automaton costs seconds)."""
MAX_EXPANSION = 2_000
"""Index words one wildcard, prefix or fuzzy word may stand for in one field: more is not a search."""
SCAN_CHECK = 2048
"""Lexicon entries walked between two looks at the clock."""


class QueryStopped(Exception):
    """The query ran past its budget. `reason` completes "search stopped: ..." for the user."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Budget:
    """One query's deadline and whether its caller still wants the answer (a newer keystroke, a quit).

    Args:
        seconds: how long the query may take from now.
        cancelled: asked at every check; True stops the query (the reader's worker was cancelled).
    """

    def __init__(self, seconds: float = QUERY_SECONDS, cancelled: Callable[[], bool] | None = None) -> None:
        self.seconds = seconds
        self.deadline = time.perf_counter() + seconds
        self._cancelled = cancelled

    def remaining(self) -> float:
        """Seconds left, never below a small floor (Whoosh's collector takes a positive limit)."""
        return max(0.01, self.deadline - time.perf_counter())

    def check(self, what: str) -> None:
        """Raise QueryStopped once the deadline has passed or the caller gave up; `what` names the work."""
        if self._cancelled is not None and self._cancelled():
            raise QueryStopped("a newer search or quitting cancelled it")
        if time.perf_counter() > self.deadline:
            raise QueryStopped(f"{what} took longer than {self.seconds:g} s")
