"""Spelling out an acronym the abstract defines, when the headline has the room for its words."""

from __future__ import annotations

import re

from index.headline.compress import ABBREVIATIONS

# Two capitals in a row: where an acronym may stand (a literal class, so the engine skips ahead to it).
CAPITALS = re.compile(r"[A-Z][A-Z]")
# Known to every reader of the field, and shortened on purpose to make room (`compress.ABBREVIATIONS`).
_KNOWN = frozenset(ABBREVIATIONS.values()) | frozenset(
    re.findall(r"\S+", "AI ML NLP CV RL GPU CPU LLMs GNNs CNNs RNNs DNNs GANs VAEs MDP MDPs SGD PCA SVM BERT")
)
_SKIPPED = frozenset(("of", "and", "for", "the", "to", "in", "on", "with"))


def spelled_out(line: str, text: str, max_len: int, first: re.Match[str] | None = None) -> str:
    """The line with its first undefined acronym in the words the abstract defines it by, if that fits.

    "Feature selection method based on SSA": the abstract says "salp swarm algorithm (SSA)" once, the list
    row never does; a reader who skims headlines knows the words, not the letters. `first` is
    `CAPITALS.search(line)` when the caller has it already.
    """
    found = CAPITALS.search(line) if first is None else first
    while found is not None:
        start, end = found.start(), found.end()
        while start and (line[start - 1].isalnum() or line[start - 1] == "-"):
            start -= 1
        while end < len(line) and (line[end].isalnum() or line[end] == "-"):
            end += 1
        found = CAPITALS.search(line, end)
        acronym = line[start:end]
        letters = acronym[:-1] if acronym.endswith("s") and acronym[-2:-1].isupper() else acronym
        if acronym in _KNOWN or not acronym.isalpha() or not 2 <= len(letters) <= 6:
            continue  # a known one, a name with digits or hyphens ("GPT-4", "Pre-LN"), or a long name
        if max_len - len(line) < 2 * len(letters):
            continue  # no room for a word per letter
        defined = text.find(f"({acronym})")
        words = _initials_before(text, defined, letters.lower()) if defined > 0 else ""
        if not words or len(line) - len(acronym) + len(words) > max_len or words.lower() in line.lower():
            continue
        if start == 0:
            words = words[:1].upper() + words[1:]
        elif words[1:].islower() and _starts_sentence(text, text.rfind(words, 0, defined)):
            words = words[:1].lower() + words[1:]  # "Language models (LMs) are ...": capital only to start it
        return line[:start] + words + line[end:]
    return line


def _initials_before(text: str, at: int, letters: str) -> str:
    """The words just before `at` whose initials (and those of their hyphenated parts) spell `letters`.

    Initials only, scanned back a word at a time: "salp swarm algorithm (SSA)", "Anti-unification (AU)".
    A full Schwartz-Hearst match (`topic.expansion_of`) costs ten times more for the few lines that use it.
    """
    words = text[max(0, at - 160) : at].split()
    initials = ""
    for count in range(1, min(len(words), len(letters) + 3) + 1):
        word = words[-count]
        if word.lower() in _SKIPPED:
            continue
        if not word[:1].isalpha():
            return ""
        initials = "".join(part[:1] for part in word.split("-") if part).lower() + initials
        if initials == letters:
            return " ".join(words[-count:])
        if not letters.endswith(initials):
            return ""
    return ""


def _starts_sentence(text: str, at: int) -> bool:
    """Whether `at` starts the text or a sentence in it: a capital there may be only the sentence's."""
    return at == 0 or (at > 1 and text[at - 2 : at] in (". ", "? ", "! "))
