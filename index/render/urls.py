"""Web addresses in an abstract, held out of every LaTeX and markdown pass so they come out byte for byte.

A `~` in `https://x.org/~a` is a home directory, not TeX's tie; `--`, `_`, `*` and `%` are path characters,
not dashes, emphasis or comments. Each address is swapped for one private-use character before the passes
(which keep any character they do not know) and put back after them, so no rule ever sees its bytes, in
plain text, inside `\\url{...}` and `\\href{...}{...}` and inside markdown emphasis alike.
"""

from __future__ import annotations

import re
from typing import Final

# One placeholder per distinct address, past the style marks (markup.MARKS); an abstract with more addresses
# than placeholders keeps the rest unguarded.
_FIRST: Final = 0xE010
_LAST: Final = 0xE8FF
PLACEHOLDERS: Final = f"{chr(_FIRST)}-{chr(_LAST)}"
"""The placeholders as a regex class body: input is scrubbed of them, so a listing cannot forge one."""
_SLOTS: Final = re.compile(f"[{PLACEHOLDERS}]")

# What an address never holds: whitespace, the brackets and quotes that wrap it in prose, markdown or
# LaTeX (`<u>`, `[t](u)`, `\\url{u}`), the backslash of a TeX escape after it (`u\\_v` means `u_v`) and the
# backtick of a code span.
_BODY: Final = r"[^\s<>\"{}\[\]\\`]"
_SCHEMED: Final = re.compile(rf"(?:https?://|www\.){_BODY}+", re.IGNORECASE)
# A host without a scheme needs a path (`github.com/x`), so "e.g./i.e." never reads as one. It is found from
# the ".tld/" that ends its host (a regex trying every position for a host's start costs 4x the whole pass).
_HOST_PATH: Final = re.compile(r"\.[A-Za-z]{2,6}/")
_HOSTED: Final = re.compile(rf"(?:[A-Za-z0-9-]+\.)+[A-Za-z]{{2,6}}/{_BODY}*")
_HOST_CHARACTERS: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
_TRAILING: Final = ".,;:!?'\""
_CLOSERS: Final = {")": "(", "]": "["}


def spans(text: str) -> list[tuple[int, int]]:
    """Where the web addresses of `text` are, as (start, end), in order.

    An address ends before sentence punctuation, before a closing bracket it did not open and before the
    `*` or `_` that closes emphasis it was opened by (`*https://x.org*`); a `*` at its end is always that.
    """
    if "/" not in text:
        return []  # three abstracts in four; an address without a path has nothing any pass could change
    found: list[tuple[int, int]] = []
    if "://" in text or "www." in text or "WWW." in text:
        for match in _SCHEMED.finditer(text):
            found.append((match.start(), _trimmed_end(text, match.start(), match.end())))
    for match in _HOST_PATH.finditer(text):
        start = match.start()
        while start and text[start - 1] in _HOST_CHARACTERS:
            start -= 1
        # Not the middle of a word, an e-mail address or an address already found.
        if start and (text[start - 1].isalnum() or text[start - 1] in "_@/"):
            continue
        hosted = _HOSTED.match(text, start)
        if hosted is not None and not any(begin <= start < end for begin, end in found):
            found.append((start, _trimmed_end(text, start, hosted.end())))
    found.sort()
    return [(start, end) for start, end in found if text.find("/", start, end) >= 0]


def _trimmed_end(text: str, start: int, end: int) -> int:
    opener = text[start - 1] if start else ""
    while end > start:
        last = text[end - 1]
        unopened = last in _CLOSERS and text.count(_CLOSERS[last], start, end) < text.count(last, start, end)
        if not (last in _TRAILING or last == "*" or (last == "_" and opener == "_") or unopened):
            return end
        end -= 1
    return end


def protect(text: str) -> tuple[str, list[str]]:
    """`text` (scrubbed of `PLACEHOLDERS`) with each web address replaced by a placeholder character, and the
    addresses by placeholder number.

    The same address written twice (`\\href{u}{u}`) gets one placeholder, so a link whose label is its own
    address still reads as one.
    """
    found = spans(text)
    if not found:
        return text, []
    addresses: list[str] = []
    slot: dict[str, str] = {}
    pieces: list[str] = []
    pos = 0
    for start, end in found:
        address = text[start:end]
        mark = slot.get(address)
        if mark is None:
            if _FIRST + len(addresses) > _LAST:
                continue
            mark = slot[address] = chr(_FIRST + len(addresses))
            addresses.append(address)
        pieces.append(text[pos:start])
        pieces.append(mark)
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces), addresses


def restore(text: str, addresses: list[str]) -> str:
    """Put back the addresses `protect` took out of `text` (wherever the passes moved their placeholders)."""
    if not addresses:
        return text
    return _SLOTS.sub(lambda match: _address(addresses, match.group()), text)


def _address(addresses: list[str], mark: str) -> str:
    number = ord(mark) - _FIRST
    return addresses[number] if number < len(addresses) else ""
