"""Turning what a claim says into a phrase that can stand as a headline: no bare "To ...", no stray verb."""

from __future__ import annotations

import re
from typing import Final

# An adverb between "to" or "can" and its verb ("to efficiently learn", "which can then be used"); "apply",
# "rely" and kin end in "ly" too, but they are the verb.
ADVERB: Final = (
    r"(?:(?!(?:apply|rely|reply|supply|comply|multiply|imply|fly)\b)[a-z]+ly|then|also|further|even|still|"
    r"thus|now|better|more|fast|first|instead|not|never|neither|only)"
)
# A determiner that points back to what another sentence said ("this problem", "our goal").
BACK_REFERENCE: Final = re.compile(r"(?:this|these|those|such|our|their)\s", re.IGNORECASE)
# "We propose to exploit X": the headline is the activity, "Exploiting X". Not "to the best of", "to what
# extent", "to our knowledge": no verb follows those, and "Thing best of" is no headline.
_PURPOSE: Final = re.compile(
    rf"^[Tt]o ((?:{ADVERB} )?)(?!(?:the|an?|what|which|whom|whose|our|their|its|this|these|those|that|date|"
    r"some|each|all|both|such|one|any|us|them|it|me|my|his|her)\b|[a-z]{3,}ing\b)(?!" + ADVERB + r"\b)"
    r"([a-z]{2,})\b"
)
# "to what extent X", "to the users of X" and "to learning X" head no purpose: "Extent to which X", "Users
# of X", "Learning X". Not a question's inversion, "to what extent can X do Y".
_NO_PURPOSE: Final = re.compile(
    r"^[Tt]o (?:(?:what|which) (extent|degree)\b(?!\s+(?:can|could|do|does|did|is|are|was|were|will)\b)\s*"
    r"|(?:the|an?) (?=[a-z])|(?=[a-z]{3,}ing\b))"
)
# "This paper develops and implements X": the claimant went, its second verb stayed.
_STRAY_VERBS: Final = (
    "implements utilizes uses employs applies presents proposes introduces develops describes provides "
    "studies investigates explores addresses considers"
)
_STRAY_VERB: Final = re.compile(rf"^(?:and )?(?:{'|'.join(_STRAY_VERBS.split())})\s+(?=\S)", re.IGNORECASE)
# The commonest kinds of thing a contribution is: head nouns after which a line says what the thing does or
# is for ("framework to detect X"). Modules that know more kinds add theirs to these.
KINDS: Final = frozenset(
    re.findall(r"\S+", "framework method model approach network system algorithm technique")
)
_VOWELS: Final = "aeiou"
_VOWEL_GROUPS: Final = re.compile(r"[aeiou]+")
# Two-syllable verbs stressed on the last syllable double its consonant: "controlling", "transferring".
_DOUBLED: Final = frozenset(
    re.findall(
        r"\S+",
        "control patrol compel propel excel expel refer prefer infer transfer confer defer occur recur incur "
        "admit omit permit submit commit emit transmit regret begin forget equip embed output input "
        "bootstrap sidestep overlap format program distil instil fulfil",
    )
)
# "Studying the implicit bias of X": a study is named by its subject, as titles do.
_STUDYING: Final = re.compile(
    r"^(?:studying|investigating|examining|exploring)\s+(?:the\s+)?(?=[a-z]\S*\s+\S)", re.I
)
# "A framework to study the stability of X": what is studied is the headline, "Stability of X".
_STUDY_OPENERS = "a an the first general theoretical unified unifying new novel principled rigorous formal"
_STUDY_OPENERS += " systematic simple"
_STUDY_KINDS: Final = "framework method methodology approach tool toolkit technique way"
_STUDY: Final = re.compile(
    rf"^(?:(?:{'|'.join(_STUDY_OPENERS.split())})\s+)*(?:{'|'.join(_STUDY_KINDS.split())})s?\s+"
    r"(?:to|for)\s+(?:study|studying|analy[sz]e|analy[sz]ing|understand|understanding|investigate|"
    r"investigating|examine|examining|characteri[sz]e|characteri[sz]ing|quantify|quantifying)\s+"
    r"(?:the\s+)?(?=\S+\s+\S)",
    re.IGNORECASE,
)


# The first words (lower case) each pattern above can start with, to a letter for it: "s" _STUDY, "g"
# _STUDYING, "p" _PURPOSE, "v" _STRAY_VERB. The sets are disjoint: a line can match one pattern at most.
_OPENINGS: Final = {
    **dict.fromkeys(_STUDY_OPENERS.split(), "s"),
    **dict.fromkeys(_STUDY_KINDS.split(), "s"),
    **dict.fromkeys((kind + "s" for kind in _STUDY_KINDS.split()), "s"),  # "frameworks"
    **dict.fromkeys(("studying", "investigating", "examining", "exploring"), "g"),
    "to": "p",
    **dict.fromkeys(("and", *_STRAY_VERBS.split()), "v"),
}


# "To the best of our knowledge, this is the first X", "we present, to our knowledge, the first Y", "the
# first, to the best of our knowledge, Z": how sure the authors are, not what the paper is. Not "to our
# knowledge base": a determiner, "is", a quote, a comma or the sentence's end follows a hedge.
_HEDGE_HEAD: Final = re.compile(r"\b[Tt]o (?:the )?(?:best of )?our(?: best)?$")  # before " knowledge"
_HEDGE_TAIL: Final = re.compile(
    r",\s*|\s+(?=(?:the|an?|this|these|there|we|it|no|our|is|are)\b|[\"“])|(?=\.)"
)


def unhedged(text: str) -> str:
    """The text without the hedge "to (the best of) our knowledge", which would head or pad a headline.

    Found from " knowledge" (str.find, C speed) and matched only in the few characters around it: a pattern
    scanned over a whole abstract costs as much as the rest of a headline's opening.
    """
    at = text.find(" knowledge")
    pieces: list[str] = []
    done = 0
    while at >= 0:
        head = _HEDGE_HEAD.search(text, max(done, at - 26), at)
        tail = _HEDGE_TAIL.match(text, at + 10) if head is not None else None
        if head is not None and tail is not None and text[head.start() - 1 : head.start()] in ("", " "):
            start, end = head.start(), tail.end()
            lead = start - 1 if start else 0  # the space, or the comma and space, before the hedge goes too
            comma = lead > 0 and text[lead - 1] == ","
            lead -= comma
            opens = lead == 0 or (not comma and text[lead - 1] in ".!?")
            pieces.append(text[done:lead])
            if opens:  # the sentence now starts after the hedge, with a capital
                pieces.append((" " if lead else "") + text[end : end + 1].upper())
                end += 1
            elif text[end : end + 1] != ".":
                pieces.append(" ")
            done = end
        at = text.find(" knowledge", at + 10)
    return "".join(pieces) + text[done:] if pieces else text


def gerund(verb: str) -> str:
    """The -ing form of a regular verb: minimize -> minimizing, plan -> planning, study -> studying."""
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")) and len(verb) > 2:
        return verb[:-1] + "ing"
    if verb in _DOUBLED:
        return verb + verb[-1] + "ing"
    if verb in ("panic", "mimic", "traffic"):
        return verb + "king"
    vowel_groups = len(_VOWEL_GROUPS.findall(verb))
    if (
        vowel_groups == 1
        and len(verb) >= 3
        and verb[-1] not in _VOWELS + "wxy"
        and verb[-2] in _VOWELS
        and verb[-3] not in _VOWELS
    ):
        return verb + verb[-1] + "ing"  # one syllable ending consonant-vowel-consonant doubles
    return verb + "ing"


def base_form(verb: str) -> str:
    """The verb a third-person form is of: decides -> decide, applies -> apply, matches -> match."""
    if verb in ("dies", "lies", "ties", "goes", "does", "undergoes", "echoes", "vetoes"):
        return verb[:-1] if verb[-3] == "i" else verb[:-2]  # "dies" -> "die", "goes" -> "go"
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zes", "cuses")):  # "focuses" -> "focus"
        return verb[:-2]
    return verb[:-1]


def third_person(verb: str) -> str:
    """The verb as "it" does it: generate -> generates, apply -> applies, match -> matches."""
    if verb.endswith("y") and verb[-2:-1] not in _VOWELS:
        return verb[:-1] + "ies"
    if verb.endswith(("s", "sh", "ch", "x", "z")):
        return verb + "es"
    return verb + "s"


def as_headline(text: str) -> str:
    """A gist that starts as no headline would, rewritten: "to learn X" -> "Learning X", "uses X" -> "X"."""
    head = text.split(None, 1)  # every pattern's first word ends at whitespace (split stops at the first)
    if not head:
        return text
    word = head[0]
    # An ASCII word matches an IGNORECASE word only as its lower case does ("ſ", "K" and "İ" are not ASCII):
    # one dict look-up says which pattern may match, and for most lines that none can (no regex call).
    may = _OPENINGS.get(word.lower(), "") if word.isascii() else "sgpv"
    if not may:
        return text
    study = _STUDY.match(text) if "s" in may else None
    if study is not None:
        text = text[study.end() :]
        return text[:1].upper() + text[1:]
    studying = _STUDYING.match(text) if "g" in may else None
    if studying is not None and " of " in " ".join(text[studying.end() :].split(" ", 5)[:5]):
        return text[studying.end()].upper() + text[studying.end() + 1 :]  # "[Studying] implicit bias of X"
    purpose = _PURPOSE.match(text) if "p" in may else None
    if purpose is not None:
        adverb, verb = purpose.groups()
        return f"{adverb}{gerund(verb)}{text[purpose.end() :]}"
    nounal = _NO_PURPOSE.match(text) if "p" in may else None
    if nounal is not None:
        rest = text[nounal.end() :]
        if not nounal.group(1):
            return capitalize(rest)
        joint = "" if rest[:1] == "," else " "  # "Extent to which, and when, X"
        return f"{nounal.group(1).title()} to which{joint}{rest}"
    stray = _STRAY_VERB.match(text) if "v" in may else None
    if stray is not None and len(text) - stray.end() > 15:
        return text[stray.end() :]
    return text


def capitalize(text: str) -> str:
    """Upper-case the first letter, unless the first word is a coined name with its own case ("ddCRP")."""
    head = text[:1]
    if head.islower() and not text.split(" ", 1)[0].split("-", 1)[0].islower():  # the split: only then
        return text
    return head.upper() + text[1:]


_OPENERS: Final = {"(": ")", "[": "]", "{": "}"}
_CLOSERS: Final = {")": "(", "]": "[", "}": "{"}
# Punctuation that means nothing at either end of a headline (an unmatched bracket, a dangling dash).
JUNK: Final = " \t,;:.!?–—-()[]{}/\\|*_~'\"`“”‘’"
_EDGE: Final = JUNK.translate(str.maketrans("", "", "()[]{}"))


def trim(text: str) -> str:
    """Strip edge punctuation; a bracket goes only with no partner, so no half of "[bold red]" is left."""
    while True:
        text = text.strip(_EDGE)
        if text[:1] in _OPENERS and _OPENERS[text[0]] not in text:
            text = text[1:]
        elif text[-1:] in _CLOSERS and _CLOSERS[text[-1]] not in text:
            text = text[:-1]
        else:
            return text
