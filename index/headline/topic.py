"""What a vague gist is about: the field the first sentence names, and when a gist needs it."""

from __future__ import annotations

import re
from typing import Final

from index.headline.condense import without_parentheses
from index.headline.phrase import JUNK, capitalize

# A gist made only of these words ("a more general theoretical framework") says how, not what about.
_GENERIC: Final = frozenset(
    re.findall(
        r"\S+",
        "framework frameworks method methods approach technique notion property protocol quantity study "
        "model algorithm mechanism strategy paradigm perspective theory tool scheme procedure solution "
        "system pipeline principle way formulation concept class family set theoretical general more "
        "new novel first "
        "fundamental functional simple efficient effective unified unifying principled explicit systematic "
        "generic generalized practical lightweight powerful rigorous formal a an the of for in on",
    )
)
# A list of noun phrases and nothing else: what an enumerated contribution becomes.
_LIST: Final = re.compile(r"^[\w -]{3,40}(?:, [\w -]{3,40})+ and [\w -]{3,40}$")
# Where a gist's own subject ends: what follows is the means ("based on", "using") or a clause.
# One leading character class lets the regex engine skip to candidates: 3x faster than a top-level "|".
# The words are alternatives of their own, each starting with its literal: the engine checks that letter
# before entering one (a nested group is entered at every space).
# The words a head ends before, when whitespace is on both sides of them.
_HEAD_ENDING_WORDS: Final = "that which with to by based using via through where whose as from"
_ENDS_HEAD: Final = frozenset(_HEAD_ENDING_WORDS.split())
_HEAD_END: Final = re.compile(
    r"[,;:(\s](?:(?<!\s)|" + "|".join(rf"{word}\s" for word in _HEAD_ENDING_WORDS.split()) + ")"
)
# The first sentence's subject names the field ("Diffusion models are ..."): it ends at its verb.
_AUXILIARY: Final = frozenset(
    re.findall(
        r"\S+",
        "is are was were has have had can could may might will would should must remain remains often "
        "typically increasingly usually still rarely commonly generally frequently also now that which "
        "who to requires require utilizes utilize depends depend leverages leverage involves involve relies "
        "rely aims aim seeks seek suffers suffer lacks lack faces enables enable allows allow focuses",
    )
)
_NOT_VERB: Final = frozenset(
    re.findall(r"\S+", "of and or in for on with from to at by via like such as under over into")
)
_DETERMINER: Final = frozenset(re.findall(r"\S+", "a an the its their new"))
_TOPIC_LEAD: Final = re.compile(
    r"^(?:(?:a|the)\s+(?:common|popular|standard|typical)\s+(?:way|approach)\s+(?:of|to)\s+|"
    r"(?:(?:recent|rapid|significant)\s+)?(?:(?:advances|progress|developments?|research|work|studies|"
    r"explanations|applications)\s+(?:in|on|of|for)\s+)?(?:(?:the|a|an|most|many|some|existing|using)\s+)+)",
    re.IGNORECASE,
)
_NOT_TOPIC: Final = frozenset(
    re.findall(
        r"\S+",
        "while although though despite in for as with given not we this these there to over since when "
        "because our it its they their how what why whether however yet one no recent recently currently "
        "traditionally historically nowadays today lately consider suppose let assume imagine",
    )
)
# A sentence that opens on why or after what the work was done: "Motivated by X, ...", "Building on X, ...".
_FRAMING_LEAD: Final = re.compile(
    r"(?i:(?:motivated|inspired|driven|guided|prompted|encouraged) by|(?:building|drawing|based|relying) "
    r"(?:on|upon)|following) "
)
# "Motivated by [applications like] elections": what the applications or problems are of is the field.
_WHAT_FOR: Final = re.compile(
    r"(?i:(?:applications?|problems?|tasks?|needs?|questions?|settings?) (?:of|in|to|like|such as|from) )"
)
# What motivates a paper without naming a field: "Motivated by the fact, ...", "by reasons of privacy".
_NO_FIELD_FRAMED: Final = frozenset(
    re.findall(
        r"\S+",
        "fact facts observation observations reason reasons application applications need success idea ideas "
        "work particular recent previous prior earlier same above seminal",
    )
)
_GIVES: Final = re.compile(
    r"^(.{3,60}?)\s+(?:that|which)\s+(?:gives|provides|yields|offers|produces|delivers)\s+(?:an?\s+|the\s+)?(.{10,})"
)
# "Modifications for identifying memorization": modified what? A change is named by what it changes.
_RELATIONAL: Final = re.compile(
    r"(?:modifications?|improvements?|corrections?|refinements?|extensions?|adaptations?|fixes|revisions?)\s",
    re.IGNORECASE,
)
# A long field leaves a vague gist no room: past these lengths its abbreviation names it instead.
_ROOM: Final = 76
_ABBREVIATION: Final = re.compile(r" \(([A-Za-z][A-Za-z0-9-]{0,20}[A-Z][A-Za-z0-9-]{0,10}|[A-Z]{2,}s?)\)")
_FIELD: Final = re.compile(r"\s(?:in|for|of)\s+(.{3,50})$")
_WHETHER: Final = re.compile(
    r"whether\s+((?:\S+\s+){0,8}?)(is|are|can|could|does|do|should|will)\s+(.*)", re.I
)
_WHETHER_DOES: Final = re.compile(
    r"whether\s+(.{3,90}?),?\s+(improves|helps|affects|hurts|matters|transfers|generalizes|holds|works|changes|"
    r"reduces|increases|leads|yields|causes|predicts|depends|requires|emerges|persists|scales)\b\s*(.*)",
    re.I,
)
_ASIDE: Final = re.compile(r",\s+(?:each|both|all)\s[^,]{3,40}$|,\s+(?:each|both|all)\s[^,]{3,40},")
_WORD: Final = re.compile(r"[\w'’-]{1,60}")
# "X suggests that ...": X ends at a verb that reports a view; words for the view's holders are not the field.
_REPORTING: Final = frozenset(
    re.findall(
        r"\S+",
        "suggests suggest shows show indicates indicate argues argue assumes assume posits posit states "
        "holds hold implies imply claims claim predicts predict says say maintains maintain asserts assert",
    )
)
_OPINION: Final = frozenset(
    re.findall(r"\S+", "folklore wisdom lore intuition literature evidence research practice theory")
)
_SHORT: Final = re.compile(r"([A-Z][A-Za-z0-9-]{0,8}[A-Z]s?)(?= [a-z])")
# "In this paper, we study the zero-shot sketch-based image retrieval (ZS-SBIR) task": the field, named by
# the paper itself (not "the standard problem of X", whose field follows the "of").
_STUDIED: Final = re.compile(
    r"(?:In this (?:paper|work|study),? w|Here,? w|W)e (?:study|consider|address|tackle|investigate|focus on)"
    r" the ([^,;()]{3,60}?) (?:\([^()]{1,20}\) )?(?:task|problem)s?\b(?! of\b)"
)
_PRONOUN: Final = re.compile(r"^(?:(their|its|our|this|these|those|such|it|they)\s+)", re.IGNORECASE)


# Words a first sentence opens with that name no field when they are all the subject left ("Due to the cost
# of labels", "Previous methods rely on", "Typically, models"): "Due: ..." heads no headline.
_NO_FIELD_ALONE: Final = frozenset(
    re.findall(
        r"\S+",
        "due thanks owing according compared contrary across towards following whereas previous previously "
        "prior numerous various many existing current currently typical typically generally increasingly "
        "perfectly tremendous enormous ubiquitous standard traditional mainstream fundamental effective "
        "simple key critical central the that is does here up use using right",
    )
)


def topic(sentence: str, *, short: bool = False) -> str:
    """The field a paper works in, as the first sentence's subject names it ("Diffusion models are ...").

    With `short`, a term the sentence abbreviates is named by its abbreviation ("LSTM and Transformers").
    """
    sentence = sentence[:300]
    studied = _STUDIED.match(sentence) if sentence[:3] in ("In ", "We ", "Her") else None
    if studied is not None:  # "In this paper, we study the X task": the paper names its field itself
        return capitalize(studied.group(1))
    if sentence[:7] == "Unlike " and ", " in sentence:  # "Unlike traditional cameras, event cameras ..."
        sentence = sentence[sentence.find(", ") + 2 :]
    if short:
        for match in reversed(list(_ABBREVIATION.finditer(sentence))):
            spelled = expansion_of(match.group(1), sentence[: match.start()])
            if spelled is not None and sentence[: match.start()].endswith(spelled):
                sentence = sentence[: match.start() - len(spelled)] + match.group(1) + sentence[match.end() :]
    # The loop looks at nine words and the one after: no list of all of them (a tenth of the cost of topic).
    words = (without_parentheses(sentence) if "(" in sentence else sentence).split(None, 10)
    for index, word in enumerate(words[:9]):
        if word[-1] in ",;:":  # split() makes no empty word; a slice and `in` cost less than endswith
            words = words[: index + 1]
            break
        if index == 0:
            continue
        lowered = word.lower()
        before = words[index - 1]
        verb = (
            lowered in _AUXILIARY
            or (
                before[-1] == "s"
                # "Procrustes problem": a name, not a plural; "LMs assume": an abbreviated plural
                and (index == 1 or not before[:1].isupper() or before[:-1].isupper())
                and before.lower() not in _NOT_VERB
                and word.isalpha()
                and word.islower()
                and lowered not in _NOT_VERB
            )
        )
        if not verb and (lowered[-1] == "s" or lowered[-2:] == "ed" or lowered in _REPORTING):  # next word
            after = words[index + 1].lower() if index + 1 < len(words) else ""  # decides: looked at only now
            verb = (lowered.endswith(("s", "ed")) and (after in _DETERMINER or after == "to")) or (
                lowered in _REPORTING and after == "that"
            )
        if verb:
            words = words[:index]
            while len(words) > 1 and words[-1].endswith("ly") and words[-1].islower():
                words.pop()  # "Modern deep learning heavily [relies]"
            if lowered in _REPORTING:  # "RL folklore suggests that": who holds the view is not the field
                while words and words[-1].lower() in _OPINION:
                    words.pop()
            break
    else:
        return ""
    return _field(" ".join(words))


def _field(subject: str, *, framed: bool = False) -> str:
    """The subject as a field, or "" when it names none; `framed`: what "Motivated by" is followed by."""
    lead = _TOPIC_LEAD.match(subject)  # anchored: match and slice, where sub would try every position
    subject = (subject if lead is None else subject[lead.end() :]).strip(JUNK)
    what = _WHAT_FOR.match(subject) if framed else None  # "applications like [elections]"
    subject = subject if what is None else subject[what.end() :]
    words = subject.split()
    first = words[0].lower() if 1 <= len(words) <= 6 else ""
    if not first[:1].isalpha() or first in _NOT_TOPIC or (framed and first in _NO_FIELD_FRAMED):
        return ""
    if len(words) == 1 and first in _NO_FIELD_ALONE:
        return ""
    framing = _FRAMING_LEAD.match(subject) if len(words) > 1 and not framed else None
    if framing is not None:  # "Motivated by applications like elections, we study X": the field, if any
        return _field(subject[framing.end() :], framed=True)
    if "," in subject or "for short" in subject or "[" in subject or "]" in subject:
        return ""  # "Solving integer programs,IPs for short": a list or an aside, not a name for the field
    return capitalize(subject)


def is_generic(gist: str) -> bool:
    """True when the gist's head and topical phrases ("of X", "for X") carry fewer than two real words.

    The head's first ten words are counted word by word, stopping at the second real word, for words with
    none of _HEAD_END's marks in them: most gists have two real words before one. A mark in a word, or a
    head-ending word first: the regex says where the head ends. (One function: a call costs ~1.5k
    instructions, a tenth of the whole test.)
    """
    words = gist.split(None, 10)
    last = len(words) - 1  # a word _HEAD_END ends the head before needs whitespace after it
    real = 0
    if last > 2:  # more than three words
        for index, word in enumerate(words[:10]):
            if word.lower() in _GENERIC:
                continue  # none ends the head or has a mark in it: no more tests
            if word in _ENDS_HEAD:
                if 0 < index < last:
                    break  # "method [that ...]": the head ends with fewer than two real words
                if index == 0:
                    real = _real_before_head_end(gist)  # only after whitespace: the regex says where
                    break
            if not word.isalpha() and ("," in word or ";" in word or ":" in word or "(" in word):
                real = _real_before_head_end(gist)  # "framework, [which ...]": the regex finds where
                break
            real += 1
            if real == 2:
                return False  # what _LIST would say too: tested first, its regex is left out for most
    # "unifying protocol, evaluation harness and leaderboard": several real things. The list's first item
    # ends at the first ", " and its last follows the last " and ": two str scans rule most gists out.
    return real < 2 and not (
        3 <= gist.find(", ") <= 40 and gist.rfind(" and ") >= len(gist) - 45 and _LIST.match(gist) is not None
    )


def _real_before_head_end(gist: str) -> int:
    """How many of the first ten words before where _HEAD_END ends the head are no generic word."""
    end = _HEAD_END.search(gist)
    head = gist[: end.start()] if end is not None else gist
    words = head.split(None, 10)[:10]
    return len(words) - sum(map(_GENERIC.__contains__, map(str.lower, words)))


def about(first_sentence: str, gist: str) -> str:
    """Say what a vague gist is about: `Diffusion models: a theoretical framework ...`.

    The topic comes from the first sentence, and is worked out only for a gist that needs it.
    """
    first = gist[:1]  # sliced once: the patterns below test it before they run
    short = _SHORT.match(gist) if "A" <= first <= "Z" else None  # it starts with [A-Z]
    if (
        short is not None
        and f"({short.group(1)})" in first_sentence
        and (field := topic(first_sentence))
        and expansion_of(short.group(1), field) == field
    ):
        return field + gist[short.end() :]  # "We recast PE as X": "Private Evolution as X"
    # An ASCII letter no case of "their"/"its"/"our"/"such" starts with: no match.
    pronoun = _PRONOUN.match(gist) if first in "tTiIoOsS" or not first.isascii() else None
    if pronoun is not None and (field := topic(first_sentence)):
        rest = gist[pronoun.end() :]
        if pronoun.group(1).lower() in ("it", "they"):
            return f"{field} {rest}"
        return f"{field}: {rest}"
    colon = gist.find(": ")
    if gist[:colon] in ("Position", "Survey"):
        return gist  # the kind of paper, said the way venues say it
    if 0 < colon < 80 and is_generic(gist[:colon].split(" in ")[0]) and len(gist) - colon > 25:
        if _named(gist[:colon]):
            return gist  # "Regressor Elimination: algorithm with X": a name in capitals, not a vague label
        named = _FIELD.search(gist[:colon])
        label = capitalize(named.group(1)) if named is not None else topic(first_sentence)
        if label:
            return f"{label}: {gist[colon + 2 :]}"
    whether = _WHETHER.match(gist) if first in "wW" or not first.isascii() else None
    if whether is not None:
        return f"{capitalize(whether.group(2))} {whether.group(1)}{whether.group(3)}?"
    asks = first in "wW"  # no other character lowers to "w": "whether" is tested only after one
    whether = _WHETHER_DOES.match(gist) if asks and gist[:8].lower() == "whether " else None
    if whether is not None:  # "whether training on X improves Y" asks "Does training on X improve Y?"
        subject = _ASIDE.sub("", whether.group(1))
        return f"Does {subject} {whether.group(2)[:-1]} {whether.group(3)}?"
    if first.isupper() and _NAMED_LEAD.match(gist):
        return gist  # "SI-BO algorithm leveraging ...": a named thing says what it is about itself
    generic = is_generic(gist) or (
        (first in "mMiIcCrReEaAfF" or not first.isascii()) and _RELATIONAL.match(gist) is not None
    )
    gives = _GIVES.match(gist) if generic and ("that" in gist or "which" in gist) else None  # str scans first
    if gives is not None and all(word.lower() in _GENERIC for word in gives.group(1).split()):
        gist = gives.group(2)  # "a new approach that gives X": X is the contribution
    if (generic or (asks and gist[:7].lower() == "whether")) and (field := topic(first_sentence)):
        if field.lower() in gist.lower():
            return gist
        if (
            len(field) > 32
            and len(field) + len(gist) > _ROOM
            and (abbreviated := topic(first_sentence, short=True))
        ):
            field = abbreviated
        return gist if field.lower() in gist.lower() else f"{field}: {gist}"
    return gist


def _named(label: str) -> bool:
    """ "Regressor Elimination": every word capitalized and one of them no generic word, so a name."""
    words = label.split(" ")
    if len(words) == 1:
        return _COINED.fullmatch(label) is not None  # one coined word: "Charades-Ego", "GraphSAGE"
    return all(word[:1].isupper() for word in words) and not all(word.lower() in _GENERIC for word in words)


# A coined name: capitals after a hyphen or inside the word ("SI-BO", "GraphSAGE"); leading the gist.
_COINED_WORD: Final = r"[A-Z][\w]*(?:-[A-Z0-9]|[a-z][A-Z])[\w-]*"
_COINED: Final = re.compile(_COINED_WORD)
_NAMED_LEAD: Final = re.compile(rf"{_COINED_WORD} (?:algorithm|method|model|framework|approach)\b")


def expansion_of(acronym: str, before: str) -> str | None:
    """The words an acronym abbreviates (Schwartz-Hearst: its letters in order, the first starting a word)."""
    if acronym.isascii() and acronym.isalnum():  # the usual acronym: one lower() for all its letters
        letters = list(acronym.lower())
    else:
        letters = [c.lower() for c in acronym if c.isalnum()]
    if letters and acronym.endswith("s") and sum(map(str.isupper, acronym)) >= 2:
        letters = letters[:-1]
    words = _WORD.findall(before[-200:])
    if not words:
        return None
    # The span is the fewest last words whose first starts with the first letter and whose rest holds the
    # others in order. Found from the end of the lowered words, not by building and testing each span:
    # `limit` is where the rightmost fit of the other letters starts, and the span's first word starts before
    # it. (A letter may be two characters, "İ" lowered: each may start one past where the one before does.)
    text = " ".join(words).lower()
    first = letters[0]
    limit = len(text)
    for letter in letters[:0:-1]:  # the others, last first
        limit = text.rfind(letter, 0, limit + len(letter) - 1)
        if limit < 0:
            return None
    start = text.rfind(" " + first, 0, limit + len(first) - 1) + 1  # the last such word start before it
    if start == 0 and not (text.startswith(first) and limit > 0):
        return None
    spaces = text.count(" ", start)  # the span's words, less one
    if spaces >= len(letters) + 6:
        return None  # more words than a span may have
    phrase = " ".join(words[-spaces - 1 :])
    if before.endswith(phrase) or (before[-1:] == " " and before.endswith(phrase, 0, len(before) - 1)):
        return phrase  # as written: the usual case, "Twisted Diffusion Sampler (TDS)"
    return _as_written(phrase, before[-len(phrase) - 8 :])  # its end only: no scan of the text


def _as_written(phrase: str, before: str) -> str:
    """ "See, Point, Fly" for the words "See Point Fly": a name spelled out with commas keeps them."""
    tail = before.rstrip()
    if tail.endswith((phrase, ",")) or "," not in tail:
        return phrase  # "probabilistic NeRF, [a model ...]": a comma after the name ends it
    for commas in range(1, 4):
        written = tail[-(len(phrase) + commas) :]
        if written.replace(",", "") == phrase and all(part[:1].isupper() for part in written.split(", ")):
            return written  # each part capitalized, as a name's words are
    return phrase
