"""Finding the contribution a paper names ("We propose FuncFormer, a ...") and what a claim is about."""

from __future__ import annotations

import re
from itertools import compress
from typing import Final

from index.headline.claims import VERBS
from index.headline.claims import claims as find_claims
from index.headline.condense import condense
from index.headline.objects import object_of
from index.headline.phrase import BACK_REFERENCE as BACK_REFERENCE  # synthesis reads it here too
from index.headline.phrase import capitalize, gerund
from index.headline.quality import acronym_only, generic
from index.headline.spaces import any_word
from index.headline.topic import expansion_of, is_generic

# "We extend this line of work ..., by showing X": what "this" points back to is not on the line; X is.

_ROOM: Final = 72

_MEANS_WORDS: Final = frozenset(("using", "via", "with", "by", "through", "employing", "leveraging"))

_WE_CALL: Final = re.compile(
    r"\bwe call (?:the|our) (?:proposed |new )?(?:[\w-]+ ){0,4}?([A-Z][a-z]+[A-Z][\w-]*)\.?$"
)
_FOLLOW_UP: Final = re.compile(
    r"^(" + r"[A-Za-z0-9]{0,20}[A-Z][A-Za-z0-9]{0,30}(?:[-.][A-Za-z0-9]{1,30}){0,3}" + r")\s+"
    r"(?:comprises|contains|consists|includes|provides|covers|spans|is|achieves|uses|enables|offers)\b"
)

_YIELD: Final = re.compile(
    r"\b(?:yield|lead to|result in|give rise to)s?\s+(?=[a-z-]+(?:\s+[a-z-]+){0,5}\s+\()"
)

# A coined name: capitals after the first letter (FuncFormer, GenZ, LIBERO-PeRM), a capital-hyphen stem
# (Z-learner), or an acronym with an optional lower-case part (p-LiSSA, GIFs, VLM).
_NAME: Final = r"(?:[A-Za-z0-9]{0,20}[A-Z][A-Za-z0-9]{0,30}(?:[-.][A-Za-z0-9]{1,30}){0,3})"

COINED: Final = re.compile(
    r"^(?:[A-Za-z0-9]*[a-z0-9][A-Z]|[A-Z]{2}|[A-Z]-|[A-Za-z0-9]+-[A-Z]|[A-Z][A-Za-z]*[0-9])"
)

# The name is taken whole and never given back, (?>...): a shorter one ends before one of its characters
# [A-Za-z0-9.-], where the lookahead fails too. Only the retries go ("Vision-based model": ~70 of them).
_NAMED_AFTER: Final = re.compile(
    r"^(?:(?:the|a|an)\s+)?(?:(?:novel|new|notion of|concept of)\s+)*((?>"
    + _NAME
    + r"))(?=\s*(?:[,:(]|—|–|$|\s+(?:which|that|to|for|as)\b))"
)

_CALLED_WORDS: Final = ("called", "dubbed", "named", "termed", "coined", "denoted")
# Whether any of them is in the text, in one scan: each ends in "ed", a literal the regex engine jumps to,
# and only there are the words looked behind for (six str scans cost three times more).
# One lookbehind first for the letter before "ed" (l, b, m, n or t): after any other, the six are not tried.
_ANY_CALLED: Final = re.compile(
    "ed(?<=["
    + "".join(sorted({word[-3] for word in _CALLED_WORDS}))
    + "]ed)(?:"
    + "|".join(f"(?<={word})" for word in _CALLED_WORDS)
    + ")"
)

_YIELD_WORDS: Final = ("yield", "lead to", "result in", "give rise")

# The capitalized words that make a called name: "DualNet", "Composite Adversarial Attack".
_CAPITALIZED: Final = re.compile(r"[A-Z0-9][^\s]*(?:\s+[A-Z0-9][^\s]*)*")

# The words from their first letters (any_word), not from a `\b` the engine tries at every position.
_CALLED: Final = re.compile(
    f"(?:{any_word('|'.join(_CALLED_WORDS))})" + r"\s+(?:the\s+|as\s+)?[`'‘“\"]?([^`'’”\",.;:()]{2,60})"
)

_TITLED: Final = re.compile(
    r"((?:[A-Z][a-z]+(?:-[A-Za-z]+)?\s){1,3}[A-Z][a-z]+(?:-[A-Za-z]+)?)(?=,\s+(?:a|an)\s)"
)

# "a ... approach, namely DisCup, which ...": the kind first, then the name it goes by.
_KIND_THEN_NAME: Final = re.compile(
    r"(?:(?:a|an|the)\s+)?(?:novel\s+|new\s+)?([^,.;()]{3,60}?),\s+(?:namely\s+|called\s+|dubbed\s+|named\s+)?("
    + _NAME
    + r")(?=\s*(?:[,.;:(]|$|\s+(?:which|that)\b))"
)

# How a name after the kind starts, tried at the first comma before the whole pattern's lazy backtracking.
_NAME_NEXT: Final = re.compile(r",\s+(?:namely\s+|called\s+|dubbed\s+|named\s+)?[A-Za-z0-9]{0,20}[A-Z]")

_WHICH_DOES: Final = re.compile(
    r"\s*(?:\([^()]{0,40}\))?\s*,?\s*(?:(?:which|that)\s+|(?=(?:to|for)\s))([^.;]{3,200})"
)

# What may stand between a claim's verb and the name it coins: articles, filler, the kind of thing it is.
_LEAD: Final = re.compile(
    r"\s*(?:(?:a|an|the|novel|new|simple|general|generic|unified|efficient|effective|first|so-called|called|"
    r"named|termed|dubbed|framework|method|model|approach|algorithm|system|technique)\b[\s,:]*)*"
)

# The kind of thing a lead before a spelled-out name says it is: "a framework, Sequential Fusion ...".
_LEAD_KIND: Final = re.compile(r"\b(?:framework|method|model|approach|algorithm|system|technique)\b")
# A name followed by what it does or what it is for: that goes into the headline with it.
_CONTINUES: Final = re.compile(
    r"\s*,?\s+(?:on|for|in|of|with|under|that|to|by|via|using|based on|as|from|through|which|where)\s"
)

# An acronym followed by the noun it qualifies ("(PAC) bound for X"): a compound, not a named contribution.
_MODIFIES: Final = re.compile(
    r" (?!(?:is|are|was|were|has|have|can|and|or|task|problem|setting|benchmark|dataset|corpus|framework|"
    r"method|model|approach|algorithm|architecture|network|system|pipeline|technique|scheme|module|loss|"
    r"layer|strategy|paradigm|library|toolkit|tool|platform|game|protocol|language|estimator|learner)s?\b)"
    r"[a-z]{3,}s?\b(?! (?:is|are)\b)"
)

_ACRONYM: Final = re.compile(r"\(([A-Za-z][A-Za-z0-9-]{0,20}[A-Z][A-Za-z0-9-]{0,10}|[A-Z]{2,}s?)\)")

_SAYS_HOW: Final = re.compile(any_word("that|which|for|to|by|via|with|on|of"))

_SHOWN_TO: Final = re.compile(
    r" (?:is|are) (?:shown|proven|designed|proposed|used) to ([a-z]{3,})\b"
)  # a passive aim

_OUR_THING: Final = re.compile(
    r"(?:(?:Specifically|In particular|To this end|Here|Finally|Moreover|Furthermore),\s+)?"
    r"(?:(?:Our|The|This)\s+(?:approach|method|model|framework|system|technique)"
    r"(?: ?\([^()]{1,20}\))?,? (?=[a-z]))?"
)


def _after_subject(rest: str) -> str:
    """ "Our approach, includes the design of X" -> "includes the design of X": the subject was the name."""
    match = _OUR_THING.match(rest)
    rest = rest if match is None else rest[match.end() :]
    shown = _SHOWN_TO.search(rest, 0, 120)  # "a model called X is shown to enforce Y": "model enforcing Y"
    return rest if shown is None else f"{rest[: shown.start()]} {gerund(shown.group(1))}{rest[shown.end() :]}"


def named_contribution(
    whole: str,
    sentences: list[str],
    claims: list[list[tuple[str, int]]],
    best: tuple[int, str, int] | None,
) -> tuple[str, str, str] | None:
    """(label, expansion, description) of a named contribution, looked for where the paper states it.

    A name spelled out after it ("WEFE, the word embeddings fairness ...", "X (...)") gives its expansion.
    """
    found = _named_contribution(whole, sentences, claims, best)
    if found is None or found[1]:
        return found
    label, _, description = found
    opening = whole.find(f"{label} (")
    closing = whole.find(")", opening, opening + 120) if opening >= 0 else -1
    inner = whole[opening + len(label) + 2 : closing] if closing > 0 else ""
    spelled = inner[:1].lower() == label[:1].lower() and " " in inner
    if spelled and expansion_of(label, inner) == inner:  # "PromCSE (Prompt-based ... Embeddings)"
        if description[:6] != "which ":
            return label, inner, description
        if not acronym_only(f"{label}: {inner}"):  # "..., which only trains X": the expansion says more
            return label, inner, ""
    if not description or description.startswith(("+", "which ")):
        return found
    words = description.split(" ")
    skip = words[0] in ("the", "a", "an")
    letters = [c.lower() for c in label if c.isalpha()]
    initials = [w[0].lower() for w in words[skip : skip + len(letters)] if w[:1].isalpha()]
    if len(letters) > 2 and initials == letters:
        end = skip + len(letters)
        rest = " ".join(words[end:])
        rest = rest if words[end - 1].endswith(",") else rest.replace(", ", " ", 1)  # "framework, to X"
        return label, " ".join(words[skip:end]).rstrip(","), rest
    return found


def _named_contribution(
    whole: str,
    sentences: list[str],
    claims: list[list[tuple[str, int]]],
    best: tuple[int, str, int] | None,
) -> tuple[str, str, str] | None:
    # _YIELD needs a "(" after the word: one after the last "(" names nothing, and that text needs no scan.
    last = whole.rfind("(")
    yields = last > 0 and (  # _YIELD_WORDS in an or-chain of C calls: no comprehension frame, 15% cheaper
        whole.find("yield", 0, last) >= 0
        or whole.find("lead to", 0, last) >= 0
        or whole.find("result in", 0, last) >= 0
        or whole.find("give rise", 0, last) >= 0
    )
    calls = _CALLED_WORDS if _ANY_CALLED.search(whole) else ()
    # Only a claim, a "yields ..." or a "called ..." can name a contribution: other sentences need no look.
    order = list(range(len(sentences))) if yields or calls else list(compress(range(len(claims)), claims))
    first = 0 if best is None else best[0]  # where the paper states itself: any name found there counts
    if best is not None:
        order.remove(first)
        order.insert(0, first)
    for index in order:
        sentence = sentences[index]
        made = claims[index]  # empty for most sentences when all are looked at: no list built for them
        at = []  # a loop, not a comprehension: no frame for the one or two claims of a sentence
        for verb, end in made:
            if VERBS[verb] >= 3 or (best and best[2] == end):
                at.append(end)
        if yields and any(map(sentence.__contains__, _YIELD_WORDS)):  # what _YIELD finds has one
            at += [m.end() for m in _YIELD.finditer(sentence)]
        if len(at) > 1:  # most sentences have one place to look at or none: no sorted() call for them
            at.sort()
        for start in at:
            lead = sentence[start : start + 1]  # no ASCII letter but t, s, o (either case) starts one
            if (lead in "tTsSoO" or not lead.isascii()) and BACK_REFERENCE.match(sentence, start):
                continue  # "we demonstrate our method on ... (MRI) data": the method was named before
            window = sentence[start : start + 300]  # lower() has an ASCII fast path, islower() none
            if window.lower() == window:  # every name `_name_at` finds needs a capital letter early on
                continue  # there is none: no call
            found = _name_at(sentence, start)
            if found is not None:
                return found
        # The sentence after the one stating the paper, when there is one: a name may follow up there. (Only
        # then are the tests below made: the other sentences skip them all at one test.)
        if index == first and best and index + 1 < len(sentences):
            after = sentences[index + 1]
            # A coined name it starts with is coined from its start on: most "The ..." sentences fail that,
            # as does a first word of ASCII letters with no capital past the first (str tests, no regex call).
            head = after.partition(" ")[0]
            plain = head.isalpha() and head.isascii() and head[1:].islower()
            follow = _FOLLOW_UP.match(after) if after and not plain and COINED.match(after) else None
            if follow is not None and COINED.match(follow.group(1)):
                return follow.group(1), "", ""
            call = _WE_CALL.search(after) if " call " in after else None
            if call is not None:  # "..., we call the proposed framework TextDragon."
                return call.group(1), "", ""
        called = _CALLED.search(sentence) if calls and _ANY_CALLED.search(sentence) else None  # one of them
        if called is not None and (index == first or COINED.match(called.group(1))):
            name = called.group(1).strip(" `'‘’")
            end = called.end()
            capitals = _CAPITALIZED.match(name) if COINED.match(name) else None
            if capitals is not None and capitals.group(0) != name:  # "DualNet [aiming at ...]"
                end = called.start(1) + called.group(1).find(name) + len(capitals.group(0))
                name = capitals.group(0)
            opening = sentence.find("(", end, end + 2)
            short = _ACRONYM.match(sentence, opening) if opening >= 0 else None
            what = _description(sentence, end)
            claim: list[tuple[int, str, int]] = []
            if not what or _PARTS.match(what):  # the claim read only when the words after the name fall short
                rest = sentence[: called.start()].rstrip(" ,") + sentence[end:].lstrip("`'’”\"")
                rest = _after_subject(rest)  # "Our approach, called X, includes ...": what X includes
                claim = find_claims(rest)
                rest = rest[claim[0][2] :] if claim else rest
                what = what or object_of(rest)
            if short is not None and expansion_of(short.group(1), name) == name and " " in name:
                does = _description(sentence, short.end()) or _named_here(
                    sentence, called.start(), short.end()
                )
                does = does or what
                long = len(name) + len(condense(what)) > _ROOM and not what.startswith("which ")
                if long and _SAYS_HOW.search(does) and not generic(condense(object_of(does))):
                    return short.group(1), name, does  # "called Composite ... (CAA)": room for what it does
                if what[:6] == "which " and len(name) > 40:  # "named Dual Memory-augmented Font Generation
                    return short.group(1), "", what  # Network (DM-Font), which": half the line is too much
            if _PARTS.match(what) and claim and not is_generic(kind := condense(object_of(rest))):
                what = kind  # "a model stealing method termed X, which consists of ...": the kind says more
            return capitalize(name), "", what
    return None


# "a new temporal network, named X (XN), for predicting Y": the thing the name names, and what it is for.
_NAMED_KIND: Final = re.compile(r"\b(?:a|an) ((?:[\w-]+ ){0,5}?[\w-]+),? $")
_NAMED_FOR: Final = re.compile(r",? ((?:for|to) [a-z][^;]{5,})")


def _named_here(sentence: str, before: int, after: int) -> str:
    """ "consists of a new network, named X (XN), for Y": the network, not what the claim proposes."""
    purpose = _NAMED_FOR.match(sentence, after)
    kind = _NAMED_KIND.search(sentence, max(0, before - 80), before) if purpose is not None else None
    return "" if kind is None or purpose is None else f"a {kind.group(1)} {purpose.group(1)}"


# "X, which consists of two modules": how it is built, which says less than the kind of thing it is.
_PARTS: Final = re.compile(
    r"which (?:consists|comprises|contains|includes|is composed|is built|is based|builds on)\b"
)


def _name_at(sentence: str, start: int) -> tuple[str, str, str] | None:
    rest = sentence[start:]  # with a capital letter in its first 300 characters: the caller tests that
    direct = _NAMED_AFTER.match(rest)
    if direct is not None and COINED.match(direct.group(1)):
        if _AS_TO_FOR.match(rest, direct.end()):
            return None  # "we recast PE as ...", "an EM based method": the gist's subject or a modifier
        return direct.group(1), "", _description(rest, direct.end())
    titled = _TITLED.match(rest) if "A" <= rest[:1] <= "Z" else None  # it starts with [A-Z]
    if titled is not None:  # "We introduce Deep Sliding Shapes, a 3D ConvNet ...": a name in title case
        return titled.group(1), "", _description(rest, titled.end())
    comma = rest.find(",", 0, 80)  # the kind has no comma: the name follows the first one, or none does
    kind_first = _KIND_THEN_NAME.match(rest) if comma >= 0 and _NAME_NEXT.match(rest, comma) else None
    if kind_first is not None and COINED.match(kind_first.group(2)):  # "a spatial language model, SpaBERT"
        does = _WHICH_DOES.match(rest, kind_first.end())
        verb = does is not None and not does.group(1).startswith(("to ", "for "))
        what = kind_first.group(1) + (
            f" {'that ' if verb else ''}{does.group(1)}" if does is not None else ""
        )
        return kind_first.group(2), "", "a " + what
    if rest.find("(", 0, 160) < 0:
        return None  # no acronym starts early enough: no label (one str scan, not a finditer)
    acronyms = [m for m in _ACRONYM.finditer(rest, 0, 190) if m.start() < 160]
    labels: list[str] = []
    expansions: list[str] = []
    end = 0
    lead = ""
    for match in acronyms:
        expansion = expansion_of(match.group(1), rest[: match.start()])
        if expansion is None:
            continue
        if rest[: match.start() - len(expansion) - 1].rstrip().rsplit(" ", 1)[-1] in _MEANS_WORDS:
            continue  # "... a map using Convolutional Neural Network (CNN)": a tool, not the contribution
        if labels and not _JOINED.fullmatch(rest[end : match.start() - len(expansion) - 1]):
            break
        if not labels:  # the lead is known with the first label: one that fails needs no more expansions
            lead = rest[: acronyms[0].start() - len(expansion) - 1]
            if not _LEAD.fullmatch(lead) and not lead.endswith(": "):  # "an instance of X: Evolutionary ..."
                return None  # "a seq2seq model for speech recognition (ASR)": ASR is the field, not the name
        labels.append(match.group(1))
        expansions.append(expansion)
        end = match.end()
    if not labels:
        return None
    description = _description(rest, end)
    if not description and _CONTINUES.match(rest, end):
        description = "+" + rest[end:].strip()
    elif not description and _MODIFIES.match(rest, end):
        return None  # "the first probably approximately correct (PAC) bound": the name of a kind, not a name
    elif not description and rest.startswith(", aiming ", end) and (said := _LEAD_KIND.search(lead)):
        description = f"+{said.group(0)}{rest[end:]}"  # "a framework, X (X), aiming to Y": the lead's kind
    renamed = _RENAMED.match(description) if description[:1] == "+" else None
    if renamed is not None and COINED.match(renamed.group(2)):  # "a (DRL) framework named DeepWeave to ..."
        kind = f"{' and '.join(labels)} {renamed.group(1)}"
        return renamed.group(2), "", f"a {kind}{description[renamed.end() :]}"
    return " and ".join(labels), " and ".join(expansions), description


# "Deep Reinforcement Learning (DRL) framework named DeepWeave": the acronym is the field the framework is
# in, and the name it is given is the contribution's.
_RENAMED: Final = re.compile(
    r"\+((?:framework|method|model|approach|algorithm|architecture|network|system|technique)s?),?\s+"
    r"(?:named|called|termed|dubbed|coined)\s+(" + _NAME + r")(?=[\s,.;]|$)"
)


def _description(text: str, start: int) -> str:
    """The appositive after a name: in `FuncFormer, a Graph Transformer that ...`, what follows the comma."""
    aside = _FIRST_ASIDE.match(text, start)  # matched in place: no slice, no pattern-cache look-up
    at = start if aside is None else aside.end()
    match = _APPOSITIVE.match(text, at)
    if match is not None:
        return text[match.end() : _phrase_end(text, match.end(1))]
    match = _WHICH.match(text, at)
    if match is not None:
        return "which " + text[match.end() : _phrase_end(text, match.end())]
    match = _KIND_NEXT.match(text, at)
    return "" if match is None else "+" + match.group(1)


_FIRST_ASIDE: Final = re.compile(r"\s*\([^()]{0,200}\)")
# What follows an appositive's lead or a ", which": up to 300 characters, none a ";" or a "." that ends a
# sentence. The patterns only look ahead for the first three; `_phrase_end` finds the rest, a run at a time
# (a repeated alternation costs ~100 instructions a character, as many as 300 times).
_APPOSITIVE: Final = re.compile(
    r"\s*[,:—–]\s*(?:which (?:is|are)\s+|[A-Z][^,.;:]{3,80},\s+)?(?=((?:a|an|the)\s+)(?:[^.;]|\.(?=\S)){3})"
)
_WHICH: Final = re.compile(r"\s*,\s*which\s+(?=(?:[^.;]|\.(?=\S)){3})")
_PHRASE: Final = re.compile(r"(?:[^.;]+|\.(?=\S))*")


def _phrase_end(text: str, start: int) -> int:
    """Where the phrase the patterns above take from `start` ends: at a ";", a sentence's ".", or 300 on."""
    run = _PHRASE.match(text, start)
    assert run is not None  # the pattern matches "" at least
    return min(run.end(), start + 300)


_KIND_NEXT: Final = re.compile(
    r"\s+((?:framework|method|model|approach|algorithm|benchmark|dataset|pipeline|system|architecture|"
    r"technique)\b[^.;]{0,200})"
)
_AS_TO_FOR: Final = re.compile(r"\s+(?:as|to|for)\b|(?:\s*\([^()]{1,30}\))?[\s-]based\b")  # "EM (EM) based"
_JOINED: Final = re.compile(r"\s*(?:and|,)\s*")
