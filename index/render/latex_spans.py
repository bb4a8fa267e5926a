"""Find the few stretches of an abstract that really are LaTeX, so only they go through the slow parser."""

from __future__ import annotations

import re
from collections.abc import Callable

# pylatexenc reads one character per token (about 5 µs each); handing it only `$k$` and `\emph{...}` instead
# of whole abstracts is what makes indexing 56k abstracts take seconds rather than minutes.
_START = re.compile(r"[\\${]")
_NAME = re.compile(r"[A-Za-z]+|.", re.DOTALL)
_DOLLAR = re.compile(r"(?<!\\)\$")
_DISPLAY = re.compile(r"(?<!\\)\$\$")
_LITERAL = {"%": "%", "&": "&", "$": "$", "#": "#", "_": "_", "{": "{", "}": "}"}

ArgSpec = Callable[[str], "str | None"]


def split(text: str, argspec: ArgSpec) -> list[tuple[bool, str]]:
    """Cut `text` into (is_latex, piece) runs; joined back together they are exactly `text`.

    Args:
        text: prepared abstract text.
        argspec: pylatexenc's argument spec of a macro ("[{" and so on), None for macros it does not know.
    """
    pieces: list[tuple[bool, str]] = []
    pos = 0
    while (match := _START.search(text, pos)) is not None:
        start = match.start()
        end = _end(text, start, argspec)
        if start > pos:
            pieces.append((False, text[pos:start]))
        pieces.append((True, text[start:end]))
        pos = end
    if pos < len(text):
        pieces.append((False, text[pos:]))
    return pieces


def literal(piece: str) -> str | None:
    """The character an escape such as `\\%` stands for, so the commonest macros skip the parser too."""
    if len(piece) == 2 and piece[0] == "\\":
        return _LITERAL.get(piece[1])
    return None


def _end(text: str, start: int, argspec: ArgSpec) -> int:
    char = text[start]
    if char == "$":
        if text.startswith("$$", start):
            close = _DISPLAY.search(text, start + 2)
            return len(text) if close is None else close.end()
        close = _DOLLAR.search(text, start + 1)
        return len(text) if close is None else close.end()
    if char == "{":
        return _group_end(text, start, "{", "}")
    return _macro_end(text, start, argspec)


def _group_end(text: str, start: int, opening: str, closing: str) -> int:
    """Index just past the delimiter that balances the one at `start`, or the end for an unbalanced group."""
    depth = 0
    index = start
    length = len(text)
    while index < length:
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == opening:
            depth += 1
        elif char == closing:
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return length


def _macro_end(text: str, start: int, argspec: ArgSpec) -> int:
    name_match = _NAME.match(text, start + 1)
    if name_match is None:
        return start + 1
    name = name_match.group(0)
    pos = name_match.end()
    if name in ("(", "["):
        close = text.find("\\)" if name == "(" else "\\]", pos)
        return len(text) if close < 0 else close + 2
    if name == "begin":
        env = re.match(r"\s*\{([^{}]{1,40})\}", text[pos:])
        if env is not None:
            close = text.find(f"\\end{{{env.group(1)}}}", pos)
            if close >= 0:
                return close + len(env.group(1)) + 6
    if name == "verb" and pos < len(text):
        close = text.find(text[pos], pos + 1)
        return len(text) if close < 0 else close + 1
    spec = argspec(name)
    if spec is None:
        # An unknown macro takes the braced groups glued to it: `\foo{bar}` is one piece, `\by foo` is not.
        while pos < len(text) and text[pos] == "{":
            pos = _group_end(text, pos, "{", "}")
        return pos
    for kind in spec:
        pos = _argument_end(text, pos, kind)
    return pos


def _argument_end(text: str, pos: int, kind: str) -> int:
    skipped = pos
    while skipped < len(text) and text[skipped] in " \t\n":
        skipped += 1
    if skipped >= len(text):
        return pos
    char = text[skipped]
    if kind == "*":
        return skipped + 1 if char == "*" else pos
    if kind == "[":
        return _group_end(text, skipped, "[", "]") if char == "[" else pos
    if char == "{":
        return _group_end(text, skipped, "{", "}")
    if char == "\\":
        name = _NAME.match(text, skipped + 1)
        return skipped + 1 if name is None else name.end()
    if char in "}$":
        return pos
    return skipped + 1
