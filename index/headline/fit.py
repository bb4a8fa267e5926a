"""Fitting a headline into its width: cutting at a word that does not dangle, dropping modifiers first."""

from __future__ import annotations

import re
from typing import Final

from index.headline.compress import GERUND_NOUNS, compressed, without_grading, without_listed
from index.headline.mend import ADJECTIVES as _ADJECTIVES
from index.headline.mend import DANGLING as _DANGLING
from index.headline.mend import IRREGULAR_PARTICIPLES as _IRREGULAR_PARTICIPLES
from index.headline.mend import RELATIONAL as _RELATIONAL
from index.headline.mend import first_question, mend, noun_end, open_clause, open_pair
from index.headline.phrase import JUNK, KINDS, trim
from index.headline.spaces import any_word, printable

# Where a cut reads well: before a short trailing clause (", a randomization mechanism motivated").
# (It starts with one character class, so the regex engine skips to candidates: a top-level "|" is slower.)
_TAIL: Final = re.compile(
    r"[,:;\s](?:(?:(?<=[,:;])|(?<=\s)[–—])\s+\S+(?:\s+\S+){0,3}|(?<=\s)(?:that|which)\s+\S+(?:\s+\S+)?)$"
)
# Words that start the next phrase: a relative clause, a purpose, a prepositional modifier or a verb
# (never "of", which binds its noun, nor "and", which may be half of "between A and B").
_BOUNDARY_WORDS: Final = frozenset(
    re.findall(
        r"\S+",
        "that which where whose while whereby before after for in on with using via by from through under "
        "across without within including at over against toward towards is are can could may might should "
        "will would must has have does do requires remains needs yields achieves outperforms improves "
        "enables allows leads shows based capable suitable applicable amenable",
    )
)
# A verb that joins two things, with no second thing after it yet: the cut must not fall before it.
_PAIRING_VERBS: Final = (
    "combin|integrat|fus|merg|coupl|pair|bridg|connect|align|compar|distinguish|separat|unif|synergiz"
)
_PAIRING: Final = re.compile(  # \b(?:combin|...) as `spaces.any_word` writes it: from first letters
    f"(?:{any_word(_PAIRING_VERBS, '')})[a-z]*" r"(?:\s(?!(?:with|and|to|from|between)\b)\S+){1,8}$"
)
_PAIRING_STEMS: Final = tuple(_PAIRING_VERBS.split("|"))  # a match has one: str scans before the search
_SECOND_HALF: Final = frozenset(("with", "and", "to", "from", "into"))
# A cut headline must not end on an adjective whose noun was cut off ("easily comparable approximate").
_ADJECTIVE_ENDINGS: Final = ("able", "ible", "ous", "ful", "less", "istic")
_NEEDS_COMPLEMENT = frozenset(("capable", "able", "suitable", "amenable", "applicable", "comparable"))
_INTENSIFIERS: Final = frozenset(("very", "much", "quite", "rather", "so", "too"))
_COPULAS: Final = frozenset(re.findall(r"\S+", "is are be been was were remains remain becomes become"))
_NOUNS_LIKE_ADJECTIVES = frozenset(("table", "variable", "variables", "observable", "observables", "unless"))
_PREPOSITIONS = frozenset(re.findall(r"\S+", "for of in on with into from by via under over between across"))
UNTITLED: Final = "Untitled paper"


def _adjective(word: str) -> bool:
    return word in _ADJECTIVES or (
        word.endswith(_ADJECTIVE_ENDINGS) and word not in _NOUNS_LIKE_ADJECTIVES and word.isalpha()
    )


def _drop_adjectives(words: list[str]) -> None:
    dropped = False
    while len(words) > 2:
        word = words[-1].lower().rstrip(",;:")
        if word == "prior" and words[-2].isalpha() and words[-2].islower() and words[-2] not in _DANGLING:
            break  # "as shape prior": a noun in ML, not "prior [work]"
        if word in _NEEDS_COMPLEMENT or word in _INTENSIFIERS:
            pass  # "capable [of ...]", "a very [...]": never whole
        elif _adjective(word) and words[-2].lower() not in _COPULAS:
            pass  # "when m is small" is a whole predicate, kept
        elif not (dropped and word.endswith("ly") and len(word) > 4 and word.isalpha()):  # "extremely"
            break
        words.pop()
        _drop_dangling(words)
        dropped = True
    if dropped and len(words) > 4 and words[-2] == "to" and words[-3] != words[-1]:  # not "end to end"
        del words[-2:]  # "framework to uncover [the explicit ...]": the purpose lost its object
        _drop_dangling(words)


def _dangles(word: str) -> bool:
    """Whether a headline must not end on this word: a function word, or punctuation alone."""
    return word.lower().strip(",;:") in _DANGLING or not word.strip(",;:–—-")


def _drop_dangling(words: list[str]) -> None:
    while len(words) > 1 and _dangles(words[-1]):
        words.pop()


def _drop_cut_phrase(words: list[str], following: list[str]) -> None:
    """Drop a short trailing phrase the cut went through ("for robust [subpopulation ...]"): half a phrase."""
    if not following or not following[0][:1].isalnum() or words[-1][-1:] in ",;:)":
        return
    if following[0].lower() in _DANGLING or following[0].lower() in ("is", "are", "and", "or"):
        return
    for back in range(1, min(4, len(words) - 3)):
        if words[-1 - back].lower() in _PREPOSITIONS:
            del words[-1 - back :]
            _drop_dangling(words)
            return


def _drop_open_halves(words: list[str], following: list[str]) -> None:
    """Drop what the cut left half-said: "not as [X but as Y]", "programs written [in ...]"."""
    for back in range(len(words) - 2, max(1, len(words) - 6), -1):
        if words[back] == "not" and words[back + 1] in ("as", "only", "just", "merely"):
            del words[back:]
            _drop_dangling(words)
            return
    if (
        len(words) > 4
        and following
        and following[0] in ("of", "between", "among")
        and words[-1].lower() in _RELATIONAL
        and not _adjective(words[-2].lower())
    ):  # "programs written in subset [of LaTeX]": a part of what?
        words.pop()
        before = len(words)
        _drop_dangling(words)
        following = ["in"] if len(words) < before else []  # a preposition went with it
    last = words[-1]
    if (
        len(words) > 3
        and following
        and following[0] in _PREPOSITIONS | {"to", "as", "at"}
        and last.islower()
        and (last.endswith("ed") or last in _IRREGULAR_PARTICIPLES)
        and words[-2].lower() not in _COPULAS
    ):
        words.pop()  # "graphics programs written [in a DSL]": the participle lost its complement
        _drop_dangling(words)


def _shortest_head(text: str, limit: int, words: list[str]) -> str:
    """The phrase cut that keeps most of what follows the head noun phrase, dropping its modifiers if needed:
    "HoloGene: INR framework for estimating 3D gene-expression fields" beats "HoloGene: anisotropic ..."."""
    whole = _phrase_cut(text, limit, words)
    start = 1 if words[0][-1:] == ":" else 0
    end = start
    while end < len(words) and words[end] not in _HEAD_END and words[end][-1:] not in ",;:":
        end += 1
    kept = whole.count(" ") + 1 if whole else 0
    if kept > end or end - start < 3 or end >= len(words) - 1:
        return whole  # the cut already keeps a complement, or the head has nothing to give up
    best, best_gain = whole, 0
    # A kind with its purpose ("framework to detect X") says what its modifiers would: they may all go.
    purpose = words[end] == "to" and words[end - 1] in KINDS and words[end + 1] != "which"
    for drop in range(1, min(3, end - start - (1 if purpose else 2)) + 1):  # "[text spotting] framework to"
        modifier = words[start + drop - 1]
        spelled = (
            start == drop == 1 and "-" in modifier and all(p.istitle() for p in modifier.split("-"))
        )  # "Dual-Regularized"
        if not modifier.replace("-", "").isalpha() or not (modifier.islower() or spelled):
            break  # a name, a number or a preposition is not a modifier to drop
        if modifier in _PREPOSITIONS:
            break
        after = words[start + drop]
        if after in ("and", "or") or (after.islower() and after.endswith(("ed", "ing"))):
            continue  # "fast [and practical]", "geometry [inspired]": a modifier goes whole or not at all
        shorter = " ".join(words[:start] + words[start + drop :])
        shorter = shorter if len(shorter) <= limit else _phrase_cut(shorter, limit)
        gain = shorter.count(" ") + 1 + drop - kept if shorter else 0
        if gain > best_gain and gain > drop:
            best, best_gain = shorter, gain
    return best


_HEAD_END: Final = _BOUNDARY_WORDS | {"to", "of"}
_BEFORE_LAST: Final = _PREPOSITIONS | {"atop", "using", "like"}


def _without_hyphenated(text: str, limit: int, split: list[str]) -> str:
    """The whole phrase without one or two compound modifiers ("uncertainty-aware"), if that makes it fit:
    a compound modifier narrows a noun the headline still names; a cut loses the noun and what follows."""
    if len(text) > limit + 40 or "-" not in text:
        return ""
    words = split[:]  # the caller's, which it reads again
    spare = len(text) - limit
    dropped = 0
    for index in range(len(words) - 2, 1, -1):
        word, after = words[index], words[index + 1]
        if "-" not in word:
            continue  # (first, by memchr: most words are not compounds)
        if index == len(words) - 2 and words[index - 1] in _BEFORE_LAST:
            continue  # "built atop [vision-language] models": a bare last noun after its preposition is vague
        if (
            all(len(part) > 2 and part.isalpha() for part in word.split("-"))
            and not _adjective(after)
            and word.islower()
            and after.replace("-", "").isalpha()
            and after.islower()
            and after not in _HEAD_END
            and words[index - 1].lower() not in ("and", "or", "both")
            and after
            not in words[:index]  # "complex networks ... than real-value networks": it tells them apart
        ):
            before = words[index - 1]
            if before[-1:] == "," and "-" in before and before[:-1].islower():
                index -= 1  # "[machine-generated,] conflict-induced dataset": the list goes from its front
                word = before
            spare -= len(word) + 1
            del words[index]
            dropped += 1
            if spare <= 0:
                return " ".join(words)
            if dropped == 2:
                break
    return ""


def _participle(last: str, following: str) -> bool:
    """Whether `following` opens a participial modifier ("engine [explaining variation ...]")."""
    return (
        len(following) > 5
        and following.endswith("ing")
        and following.isalpha()
        and following.islower()
        and following not in GERUND_NOUNS
        and last.isalpha()
        and not last.endswith(("al", "ic", "ive", "ous", "ful", "able", "ible", "ary", "less"))  # adjectives
        and last.lower() not in _DANGLING
        and last.lower() not in _COPULAS
    )


_CUT_EDGE: Final = " ,;:–—-"
_MAY_START: Final = _BOUNDARY_WORDS | {"and", "to"}  # what `_phrase_cut` tests `following` for, bar "-ing"


def _phrase_cut(text: str, limit: int, split: list[str] | None = None) -> str:
    """The longest prefix that ends where a phrase does: before a relative clause, a purpose, a modifier.

    A cut there drops whole phrases ("GenZ: hybrid model [that turns ...]") instead of half of one ("...
    between gender representation [and ...]"). Empty when no such cut keeps enough. Words are scanned from
    the limit backwards, stopping at the first good cut: the longest is the one wanted."""
    span = text[: limit + 40]
    if split is None:
        words = span.split(" ")  # the words up to the limit, and the one after them
    elif len(text) <= limit + 40:
        words = split  # the caller's `text.split(" ")`, only read here
    else:  # the caller's up to the span's end: no new string for each word
        words = [*split[: span.count(" ")], span[span.rfind(" ") + 1 :]]
    # A cut after a word starting past the limit is too long: only earlier words (or punctuation) are tried.
    inside = span.count(" ", 0, limit - 1) + 1  # words[count - 1] starts before the limit: count <= inside
    top = len(words) - 1
    while top > inside and words[top - 1].strip(_CUT_EDGE):
        top -= 1
    for count in range(top, 2, -1):
        following = words[count]
        last = words[count - 1]
        if count > inside and last.strip(_CUT_EDGE):
            continue
        mark = last[-1:]
        if mark in ",;:":  # (also "", which the comma's branch takes)
            if mark == ":":
                continue  # "Field: [what the paper does]": the label alone says nothing
            # a comma ends a phrase
        elif following not in _MAY_START and following[-3:] != "ing":
            continue  # (one set test first: most words start no phrase; a slice, no method call)
        elif (
            following not in _BOUNDARY_WORDS
            and not (following == "and" and noun_end(last, words[count - 2]))  # "queries [and budgets]"
            and not (following == "to" and count + 1 < len(words) and words[count + 1].isalpha())
            and not (following.endswith("ing") and _participle(last, following))
        ):
            continue
        kept = " ".join(words[:count])
        if mark in _CUT_EDGE:  # (also ""; else `kept` ends in `last`, which ends in no edge mark: kept whole)
            kept = kept.rstrip(_CUT_EDGE)
            last = last.rstrip(_CUT_EDGE) or kept.rsplit(" ", 1)[-1]  # the last word kept (no split list)
        if len(kept) > limit:
            continue
        if len(kept) < limit * 0.45:
            return ""
        if _bad_cut(kept, last, following, comma=mark in ",;:"):
            continue
        return kept
    return ""


def _bad_cut(kept: str, last: str, following: str, *, comma: bool) -> bool:
    """Whether a cut after `last` leaves something dangling: a function word, half a pair, a fragment."""
    last = last.lower()
    if (
        last in _DANGLING
        or _adjective(last)
        or last in _RELATIONAL
        or open_pair(kept[-40:])
        or ("wh" in kept[-60:] and open_clause(kept))  # its clause starts "which", "where" or "whose"
    ):
        return True  # "to investigate the interplay [between ...]": a relation without its terms
    if ("(" in kept or ")" in kept) and kept.count("(") != kept.count(")"):  # memchr first: most have none
        return True
    if ("[" in kept or "]" in kept) and kept.count("[") != kept.count("]"):
        return True
    mark = kept.rfind(", ") if "," in kept else -1  # no list from a split; each mark by memchr first
    if ";" in kept and (semicolon := kept.rfind("; ")) > mark:
        mark = semicolon
    if ":" in kept and (colon := kept.rfind(": ")) > mark:
        mark = colon
    if mark >= 0 and ((segment := kept[mark + 2 :]).count(" ") <= 1 or segment.endswith(("i.e.", "e.g."))):
        return True  # "..., focusing [on ...]", "..., unmodified [...]": a fragment, not an appositive
    if (  # "a mechanism motivated [by ...]": the participle lost its complement
        (last[-2:] == "ed" or last in _IRREGULAR_PARTICIPLES)
        and not comma
        and kept.rsplit(" ", 2)[-2].lower() not in _COPULAS
    ):
        return True
    # Last, the one regex search (~16k instructions), only where a str scan (~0.5k a verb) found its verb:
    # "framework that combines dynamic routing [with ...]": what it combines it with is lost
    if following not in _SECOND_HALF:
        return False
    tail = kept[-90:]
    return any(map(tail.__contains__, _PAIRING_STEMS)) and _PAIRING.search(tail) is not None


def fit(text: str, max_len: int, *, ellipsis: bool) -> str:
    """Cut at a word boundary without a dangling `of`/`and`/`the`; a single endless token is cut hard.

    "[Algorithm for] intent inference via goal disambiguation with assistive robotic arm": without the
    kind of thing, when the room it frees keeps two more words of what the paper does.
    """
    line = _fit(text, max_len, ellipsis=ellipsis)
    if ellipsis or len(text) <= max_len or text[:1] not in _KIND_INITIALS or not text.startswith(_KINDS_FOR):
        return line
    if (kind := _KIND_FOR.match(text)) is None:
        return line
    rest = text[kind.end() + (4 if text.startswith("the ", kind.end()) else 0) :]  # "for [the] analysis"
    kindless = _fit(rest[:1].upper() + rest[1:], max_len, ellipsis=False)
    return kindless if len(kindless.split()) >= len(line.split()) else line


_KINDS_FOR: Final = ("Algorithm", "Method", "Approach", "Technique", "Framework")
_KIND_INITIALS: Final = "".join(kind[0] for kind in _KINDS_FOR)  # tested by `fit` before the five startswith
_KIND_FOR: Final = re.compile(rf"^(?:{'|'.join(_KINDS_FOR)})s? for (?=[a-z])")


def _fit(text: str, max_len: int, *, ellipsis: bool) -> str:
    question = text[-1:] == "?"  # (a slice and a compare: no method call)
    if not printable(text) or "  " in text:  # (a space at either end: `trim` strips it as the join would)
        text = " ".join(text.split())  # else one-spaced already: no list of words to build and join
    text = trim(text) if text[:1] in JUNK or text[-1:] in JUNK else text  # (it strips only JUNK off its ends)
    if question and text:
        text += "?"  # the one closing mark that carries meaning
    if not text:
        return UNTITLED
    if len(text) <= max_len:
        if " " not in text or not _dangles(text[text.rfind(" ") + 1 :]):  # the last word, without a split
            return text
        words = text.split(" ")
        before = len(words)
        _drop_dangling(words)  # a clause cut upstream ("... problem and its") dangles as badly as a short one
        return text if len(words) == before else " ".join(words).rstrip(" ,;:–—-")
    stop = -1 if ellipsis or "." not in text else text.find(". ", 20, max_len)  # a sentence end kept: ". the"
    if stop > 0 and text[stop - 3 : stop].isalpha() and not text.endswith(("etc", "esp", "rox"), 0, stop):
        return fit(text[:stop], max_len, ellipsis=False)
    if question and not ellipsis and (first := first_question(text, max_len)):
        return first  # "Can we observe Time's Arrow in a sequence – is it possible ...?": the first asks it
    terse = text if ellipsis else compressed(text, max_len)
    if not ellipsis and len(terse) <= max_len:
        return terse  # headline style drops articles, adverbs and wordiness before the end of a phrase
    if not ellipsis:  # one split for the tries below: none of them changes the list
        words, room = terse.split(" "), max_len - question
        # (each try's first test, here: most lines are too long for one, or have no compound)
        whole = without_grading(terse, room, words) if len(terse) <= room + 30 else ""
        whole = whole or (_without_hyphenated(terse, room, words) if "-" in terse else "")
        if not whole and "," in terse:
            whole = without_listed(terse, room)
        if whole := whole or _shortest_head(terse, room, words):
            return whole + "?" if question and whole[-1:] != "?" else whole  # a whole question kept its own
    if " " not in text[:max_len]:
        return trim(text[: max_len - 1]) + "…"
    limit = max_len - 1 if ellipsis else max_len
    text = text if ellipsis else terse  # a made-up headline has already dropped its articles for room
    words = text[: limit + 1].split(" ")
    if len(words) > 1:
        words = words[:-1] if len(text) > limit else words  # (the words join to `text[: limit + 1]`)
    _drop_dangling(words)
    _drop_cut_phrase(words, text[len(" ".join(words)) :].split(" ", 2)[1:2])
    if len(words) > 1 and words[-1].endswith("ing") and words[-2].lower() in _DANGLING:
        words.pop()  # "by removing": a preposition whose object was cut off
        _drop_dangling(words)
    if not ellipsis:  # a title shows its cut with "…"; a made-up headline must read as whole
        mend(words, text[len(" ".join(words)) + 1 :], _drop_dangling)
        _drop_adjectives(words)
        _drop_open_halves(words, text[len(" ".join(words)) :].split(" ", 2)[1:2])
    while len(words) > 1 and (end := words[-1]).count("[") + end.count("(") > end.count("]") + end.count(")"):
        words.pop()  # half a bracket group
    cut = " ".join(words).rstrip(" ,;:–—-")
    # A tail match starts no earlier than the space before the fifth word from the end (" – a b c d"; the
    # cut is one-spaced): the search starts there, not at every character (its pattern starts with a class).
    last_six = cut.rsplit(" ", 5)
    tail = _TAIL.search(cut, len(last_six[0]) if len(last_six) == 6 else 0)
    if tail is not None and tail.start() >= 30:
        cut = cut[: tail.start()]
        words = cut.split(" ")
        _drop_dangling(words)
        if not ellipsis:
            _drop_adjectives(words)
        cut = " ".join(words).rstrip(" ,;:–—-")
    cut = cut[:limit]
    return cut + "…" if ellipsis else cut
