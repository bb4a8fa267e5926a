"""Where an abstract states its contribution: its sentences, and each "we propose"-like claim in them."""

from __future__ import annotations

import bisect
import re
from itertools import compress, repeat
from operator import add

# A sentence ends at ". " before a capital, a digit or an opening mark, unless the word before the period
# is an abbreviation ("e.g. Adam") or an initial ("J. Smith"). The patterns start with their literal ". "
# so the regex engine jumps between candidates like str.find, and the lookbehinds run only there.
_ABBREVIATIONS = ("e.g.", "i.e.", "al.", "vs.", "cf.", "Fig.", "Eq.", "resp.", "approx.", "etc.")
_NEXT = r"(?=[A-Z0-9\"“(\[])"
# The next character is looked at first, and the lookbehinds only after a letter an abbreviation or an
# initial ends with: after any other, one lookbehind answers for all of them. The abbreviations of a length
# share one lookbehind: five instead of ten after "results." (most sentences end in e, s, l, ...).
_ENDINGS = "".join(sorted({word[-2] for word in _ABBREVIATIONS})) + "A-Z"
_PERIOD = re.compile(
    r"\. "
    + _NEXT
    + rf"(?:(?<![{_ENDINGS}]\. )|"
    + "".join(
        rf"(?<! (?:{'|'.join(re.escape(word) for word in _ABBREVIATIONS if len(word) == size)}) )"
        for size in sorted({len(word) for word in _ABBREVIATIONS})
    )
    + r"(?<! [A-Z]\. ))"
)
# One pattern each, from its literal: "[?!] " would test every character against the set.
_QUESTION, _EXCLAMATION = (re.compile(rf"\{mark} " + _NEXT) for mark in "?!")
# How directly each verb states a contribution: "we propose X" names it, "we show that" a finding.
VERBS = {
    "propose": 5,
    "introduce": 5,
    "present": 5,
    "develop": 4,
    "design": 4,
    "contribute": 4,
    "build": 4,
    "construct": 4,
    "release": 4,
    "formulate": 3,
    "derive": 3,
    "establish": 3,
    "provide": 3,
    "study": 2,
    "investigate": 2,
    "analyze": 2,
    "analyse": 2,
    "examine": 2,
    "explore": 2,
    "revisit": 2,
    "uncover": 2,
    "identify": 2,
    "argue": 1,
    "show": 1,
    "prove": 1,
    "demonstrate": 1,
    "find": 1,
    "recast": 3,
    "reframe": 3,
    "interpret": 3,
    "view": 3,
    "cast": 3,
    "use": 2,
    "give": 3,
    "offer": 3,
    "describe": 2,
    "consider": 1,
    "address": 1,  # any verb after "In this paper, we": the authors' own statement of the paper
}
# "We also ...", "Finally, we ..." state a side result.
# The word's start is looked behind from its end, (?<!\w.{n}): only after a whole word, not at every a/f/m.
_SECONDARY = re.compile(
    "[afmAFM](?:"
    + "|".join(
        rf"{rest}(?<!\w.{{{len(rest) + 1}}})"
        for rest in re.findall(
            r"\S+", "lso urther dditionally inally oreover LSO URTHER DDITIONALLY INALLY OREOVER"
        )
    )
    + r")\b"
)
# "In this paper, we ..." and "Here, we ..." mark the sentence the authors chose to state the paper in.
_MAIN = re.compile(r"^(?:In th(?:is|e) (?:paper|work|study)|Here|This (?:position )?(?:paper|work))\b")
_MAIN_STARTS = ("In this ", "In the ", "Here", "This ")
FORMS = {verb + suffix: verb for verb in VERBS for suffix in ("", "s", "es", "d", "ed")}
FORMS |= {"studies": "study", "studied": "study", "found": "find", "built": "build", "shown": "show"}
# "..., proposing X", "by introducing X": the participle makes the claim.
FORMS |= {verb[:-1] + "ing": verb for verb in ("propose", "introduce", "develop", "design", "derive")}
FORMS |= {"presenting": "present", "developing": "develop", "designing": "design"}
# Where a sentence states the paper itself, any verb after "we" makes the claim ("we relax ...").
_OWN = ("this paper, ", "this work, ", "this study, ", "here, ", "the paper, ",
        "this paper ", "this work ", "here ")  # fmt: skip
# "we focus on X", "we deal with X": what the verb is about follows its particle ("On X" heads nothing).
_PARTICLES = {"focus": "on ", "concentrate": "on ", "deal": "with ", "look": "at ", "report": "on "}
_PARTICLES |= {"start": "by ", "begin": "by ", "center": "on ", "centre": "on ", "elaborate": "on "}
_NOT_CLAIMS = frozenset(
    re.findall(
        r"\S+", "are have can will would also were had may should do set aim seek try want attempt answer"
    )
)
# Who makes a claim ("we propose", "this paper argues", "... and introduce"), past the adverbs that may sit
# between subject and verb ("we further show"). Each pattern starts with its literal subject, so the regex
# engine jumps between candidates like str.find; the word after the adverbs is looked up in `FORMS` (a dict
# lookup beats a 200-way alternation). No adverb is a verb form, so the lookup loses no backtracking.
_ADVERBS = (  # and the perfect's "have" ("we have developed X"), before a regular participle only
    r"(?:(?:[a-z]+ly|further|also|then|first|thus|therefore|instead|now|here|are the first to"
    r"|ha(?:ve|s)(?= [a-z]{3,}ed\b)) ){0,3}"
)

_BEFORE_OBJECT = ("and ", "instead", "rather", "therefore", "hereby")
_AIMS = frozenset(("set", "aim", "seek", "attempt", "try", "strive"))
_NOT_THIRD = frozenset(("is", "as", "us", "ss", "ys"))
_PARTICIPLES = ("proposing", "introducing", "presenting", "developing", "designing", "deriving")
# What may follow a claim's verb before its object: a second verb for the same object ("develop and
# analyze X") or an adverb ("propose instead to learn X").
_SECOND = (
    r"(?:and (?:then )?(?:analy[sz]e|implement|evaluate|test|validate|study|apply|prove|demonstrate|verify|"
    r"characteri[sz]e|investigate|deploy|train|release)[sd]? |(?:instead|rather|therefore|hereby),? "
    r"|(?:[a-z]{3,}ed, )*and [a-z]{3,}ed )"  # "we have designed, fabricated, and tested X"
)
_SECOND_VERB = re.compile(_SECOND)
_THIS_CLAIM, _OUR_CLAIM, _AND_CLAIM = (
    re.compile(rf"{subject}(?<![^\W_]{subject}){nouns}{_ADVERBS}([a-z]+)[\s,:]+")
    for subject, nouns in (
        ("this ", "(?:position )?(?:paper|work) "),
        ("our ", "(?:work|paper) "),
        ("and ", ""),  # "..., and introduce": the subject is further back
    )
)
# What every "and" claim matches ("and", adverbs, a verb of `FORMS`): found in a fifth of the abstracts.
_AND_VERB = re.compile(
    rf"and (?<![^\W_]and ){_ADVERBS}(?:"
    + "|".join(f"{a}(?:{'|'.join(w[1:] for w in FORMS if w[0] == a)})" for a in sorted({w[0] for w in FORMS}))
    + r")[\s,:]"
)
# "we propose X", most claims, with the second verb matched in the same scan: a str test and a second match
# per claim cost more. No "we" can start inside the second verb, so finditer finds the same claims.
_WE_CLAIM = re.compile(rf"we (?<![^\W_]we ){_ADVERBS}([a-z]+)[\s,:]+{_SECOND}?")
# "This paper bridges this gap by introducing ...", "we address X, proposing a framework ...": only a
# participle of a contribution verb makes the claim, so the pattern names them (commas are many).
_PARTICIPLE_CLAIMS = tuple(
    re.compile(rf"{lead}({'|'.join(_PARTICIPLES)})[\s,:]+")
    for lead in (", ", r"by (?<![^\W_]by )")  # each starts with its literal: the engine skips to candidates
)
# "We release our code at ...": a pointer to material, never what the paper is.
_MATERIAL = re.compile(
    r"(?:(?:all|the|our|its|their|publicly|openly|also)\s+)*(?:source\s+)?(?:code|codes|implementation|"
    r"software|materials?|models? weights|checkpoints)\b",
    re.IGNORECASE,
)
# "In this paper, a new procedure called X is proposed for ...": said actively, the claim rules apply.
_PASSIVE = re.compile(
    r"(?:In this (?:paper|work|study),? )?((?:An?|a|an) [^.;]{3,150}?) (?:is|are) "
    r"(?:also |here |hereby |then |first )?(proposed|presented|introduced|developed)\b,?"
)


# "In this paper, we study the zero-shot sketch-based image retrieval (ZS-SBIR) task": a task studied, with
# its acronym, is the field (the acronym would pass for a name); a method proposed for it is the contribution.
_STUDIES = frozenset(("study", "investigate", "consider", "address", "examine", "explore"))
_FIELD_OBJECT = re.compile(r"the [^.;,()]{3,80}? \([A-Za-z][\w-]{1,15}\) (?:task|problem)s?\b")


def active(text: str) -> str:
    """The text with "A method is proposed that ..." said as "We proposed a method that ...".

    Each verb is found by str.find and only the sentence around it is matched: the pattern has no literal
    start, so a scan of the whole text with it costs more than the rest of the headline.
    """
    for verb in (" proposed", " presented", " introduced", " developed"):
        index = text.find(verb)
        while index > 0:
            near = max(0, index - 20)  # "is [here] proposed": the auxiliary sits just before
            if text.find(" is ", near, index + 1) >= 0 or text.find(" are ", near, index + 1) >= 0:
                start = text.rfind(". ", 0, index) + 2 if text.rfind(". ", 0, index) >= 0 else 0
                match = _PASSIVE.match(text, start)
                if match is not None and match.start(2) < index + len(verb):
                    said = f"We {match.group(2)} {match.group(1)[0].lower()}{match.group(1)[1:]}"
                    return text[:start] + said + text[match.end() :]
            index = text.find(verb, index + 1)
    return text


def ascii_lower(text: str) -> str:
    """text.lower(), each non-ASCII character as "?": offsets stay those of the text, at a third of the cost.

    Claims are found in ASCII words, and str.lower looks up every non-ASCII character's case mapping.
    """
    if text.isascii():
        return text.lower()
    return text.encode("ascii", "replace").lower().decode("ascii")


def sentences(text: str) -> tuple[list[str], list[int]]:
    """The sentences of a one-spaced text, and where each starts in it.

    Without a "?" or "!", split at C speed: each period split off is glued back by a C-level map, and the
    starts add up the lengths (a third fewer instructions than slicing at each match; a fifth fewer than
    capturing the periods in the pattern, which doubles the list `split` makes and the map reads).
    """
    if "?" not in text and "!" not in text:  # one character: str.find runs at memchr speed
        split = _PERIOD.split(text)
        last = split.pop()
        split = list(map(add, split, repeat(".")))
        starts = [0]
        at = 0
        for sentence in split:
            at += len(sentence) + 1
            starts.append(at)
        split.append(last)
        return split, starts
    ends = [match.start() + 1 for match in _PERIOD.finditer(text)]
    for mark, pattern in (("?", _QUESTION), ("!", _EXCLAMATION)):
        if mark in text:
            ends += [match.start() + 1 for match in pattern.finditer(text)]
    ends.sort()
    starts = [0, *[stop + 1 for stop in ends]]
    return [text[start:stop] for start, stop in zip(starts, [*ends, len(text)], strict=True)], starts


def claims(text: str) -> list[tuple[int, str, int]]:
    """(verb start, verb, end of verb and trailing space) for every "we propose"-like claim, in order."""
    lowered = ascii_lower(text)
    found: list[tuple[int, str, int]] = []
    anchors: list[int] = []  # where "we" and "this paper" stand: an "and" claim needs one before it
    for match in _WE_CLAIM.finditer(lowered):
        anchors.append(match.start())
        verb = FORMS.get(match.group(1))
        if verb is not None:  # most claims: a verb it knows, its end and second verb matched already
            found.append((match.start(1), verb, match.end()))
        elif (claim := _any_verb(lowered, match)) is not None:
            found.append(claim)
    # Each pattern below needs " paper " or " work ": two str scans skip three in most abstracts.
    paper = " paper " in lowered or " work " in lowered
    # Three str scans for what the pattern needs cost less than its regex scan.
    if paper and ("this paper " in lowered or "this work " in lowered or "this position " in lowered):
        for match in _rare(_THIS_CLAIM, lowered):
            anchors.append(match.start())
            word = match.group(1)
            verb = FORMS.get(word)
            end = match.end()
            if verb is None:
                if word[-1:] != "s" or word[-2:] in _NOT_THIRD:
                    continue
                verb, end = "address", match.start(1)  # "This paper reformulates X": the verb is the gist
            found.append((match.start(1), verb, _past_second_verb(lowered, end)))
    if paper and ("our work " in lowered or "our paper " in lowered):  # a third of the regex engine's scan
        for match in _rare(_OUR_CLAIM, lowered):
            verb = FORMS.get(match.group(1))
            if verb is not None:
                found.append((match.start(1), verb, _past_second_verb(lowered, match.end())))
    # No match of _AND_VERB, no "and" claim: one search of the text costs less than scanning the stretches.
    maybe = anchors and _AND_VERB.search(lowered)
    for match in _and_matches(_AND_CLAIM, lowered, anchors) if maybe else _NO_MATCHES:
        word = match.group(1)
        verb = FORMS.get(word)
        # "we conduct ablations and analyses to ...": a noun, or someone else's verb, is no claim
        if verb is not None and _and_claim(lowered, match.start(), word):
            found.append((match.start(1), verb, _past_second_verb(lowered, match.end())))
    # `_PARTICIPLES`, in one abstract of fifteen: six str scans cost less than the two regex scans they save.
    if (
        "proposing" in lowered
        or "introducing" in lowered
        or "presenting" in lowered
        or "developing" in lowered
        or "designing" in lowered
        or "deriving" in lowered
    ):
        for pattern in _PARTICIPLE_CLAIMS:
            for match in _rare(pattern, lowered):
                verb = FORMS[match.group(1)]
                found.append((match.start(1), verb, _past_second_verb(lowered, match.end())))
    return sorted(found) if len(found) > 1 else found


def _any_verb(lowered: str, match: re.Match[str]) -> tuple[int, str, int] | None:
    """The claim "we <verb>" makes with a verb not in `FORMS`: any verb where the sentence states the paper
    ("In this paper, we relax X"), and an aim ("we set out to improve X") states what the paper does."""
    word = match.group(1)
    if word in _NOT_CLAIMS and word not in _AIMS:
        return None
    if not lowered[max(0, match.start() - 12) : match.start()].endswith(_OWN):
        return None
    if word not in _AIMS:  # the match's end is past any second verb, and past "on" after "focus"
        particle = _PARTICLES.get(word, "")
        skip = len(particle) if particle and lowered.startswith(particle, match.end()) else 0
        return match.start(1), "address", match.end() + skip
    end = lowered.find("to ", match.end(1), match.end(1) + 9)  # "we set out to improve X": the aim
    return None if end < 0 else (match.start(1), "address", _past_second_verb(lowered, end))


def _past_second_verb(lowered: str, end: int) -> int:
    """The end of a claim's verb past a second verb or adverb before its object: "develop and analyze X"."""
    if lowered.startswith(_BEFORE_OBJECT, end):
        second = _SECOND_VERB.match(lowered, end)
        return second.end() if second is not None else end
    return end


def _and_matches(pattern: re.Pattern[str], lowered: str, anchors: list[int]) -> list[re.Match[str]]:
    """ "and <verb>" matches from each subject to the end of its sentence: nearly every "and" elsewhere is
    no claim, and scanning only these stretches skips most of the text.

    The stretches follow each other (each starts where the last ended, or later), so the matches come in
    order. Each "and " is found by str.find and matched there: a search per stretch costs more, and most
    stretches have no "and" at all.
    """
    found: list[re.Match[str]] = []
    reached = 0
    following = -1  # the first "and " from `start` on, found once for all stretches before it
    for anchor in sorted(anchors):
        start = anchor if anchor > reached else reached
        if following < start:
            following = lowered.find("and ", start)
            if following < 0:
                break  # no "and " after here: no stretch after here has one
        reached = lowered.find(". ", start)
        reached = len(lowered) if reached < 0 else reached + 1
        at = following if following + 4 <= reached else -1
        while at >= 0:
            match = pattern.match(lowered, at, reached)
            if match is None:
                at = lowered.find("and ", at + 1, reached)
            else:
                found.append(match)
                at = lowered.find("and ", match.end(), reached)
    return found


def _rare(pattern: re.Pattern[str], lowered: str) -> list[re.Match[str]]:
    """pattern.finditer for a pattern that seldom matches: one search costs half of a finditer's set-up."""
    match = pattern.search(lowered)
    if match is None:
        return _NO_MATCHES
    found = []
    while match is not None:
        found.append(match)
        match = pattern.search(lowered, match.end())
    return found


_NO_MATCHES: list[re.Match[str]] = []  # shared, never appended to


def _and_claim(lowered: str, start: int, word: str) -> bool:
    """Whether "..., and <word>" continues the authors' claim: "we" is its subject and agrees with it."""
    sentence = lowered[lowered.rfind(". ", 0, start) + 1 : start]
    if "we " in sentence:
        return not word.endswith("s") or word.endswith("ss")  # "we ... and analyses": a noun, not a verb
    return "this paper" in sentence or "this work" in sentence


def claims_by_sentence(text: str, starts: list[int]) -> list[list[tuple[str, int]]]:
    """Claims of each sentence as (verb, end offset in the sentence), found in one pass over the text."""
    out: list[list[tuple[str, int]]] = [_NONE] * len(starts)  # shared and never appended to: replaced
    for position, verb, end in claims(text):
        index = bisect.bisect_right(starts, position) - 1
        if out[index]:
            out[index].append((verb, end - starts[index]))
        else:
            out[index] = [(verb, end - starts[index])]
    return out


_NONE: list[tuple[str, int]] = []


def best_claim(sentences: list[str], claims: list[list[tuple[str, int]]]) -> tuple[int, str, int] | None:
    """The sentence (and its verb match) that states the contribution most directly, earliest on ties."""
    best: tuple[int, str, int] | None = None
    top = -99  # the weight of `best`: a later claim must beat it, below every weight a claim can have
    for index in compress(range(len(claims)), claims):  # only the sentences that make a claim
        sentence = sentences[index]
        main = None  # whether the sentence states the paper: tested once, for the first claim that needs it
        for verb, end in claims[index]:
            weight = VERBS[verb]
            if weight + 3 <= top and verb != "argue":
                continue  # not even as the paper's own statement could it beat the best: its tests are moot
            if verb in ("release", "provide") and _MATERIAL.match(sentence, end):
                continue  # "we release our code": where the code is, not what the paper is
            if main is None:
                main = sentence.startswith(_MAIN_STARTS) and _MAIN.match(sentence) is not None  # str first
            if main:
                weight += 3
            if verb in _STUDIES and weight > 4 and _FIELD_OBJECT.match(sentence, end):
                weight = 4  # "we study the ZS-SBIR task": the field; a method proposed for it says more
            if weight <= top and verb != "argue":
                continue  # what follows only lowers the weight: it cannot beat the best
            if _SECONDARY.search(sentence, 0, end):
                weight -= 2
            # "purpose" first: most sentences have neither phrase, and it is one str scan, not two.
            if "purpose" in sentence and (" this purpose" in sentence or " these purposes" in sentence):
                weight -= 4  # "an approach to learning features useful for this purpose": the next says which
            if verb == "argue" and sentence.startswith("This position paper"):
                weight = 10
            if weight > top:
                top, best = weight, (index, verb, end)
    return best
