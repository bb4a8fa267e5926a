"""One-line headlines for papers without a title: the named contribution plus the gist, from the abstract."""

from __future__ import annotations

import bisect
import re

from index.headline.fit import JUNK, UNTITLED, capitalize, condense, fit, without_claimant
from index.headline.topic import about, expansion_of, is_generic, topic
from index.render.sanitize import sanitize

# Contributions sit in the first few sentences; scanning a bounded prefix keeps a 25 KB abstract (or one
# unbroken 25 KB token) as cheap as a normal one, and every repeat below is bounded for the same reason.
_SCAN = 1500
_SCAN_MAX = 3000
# A sentence ends at ". " before a capital, a digit or an opening mark, unless the word before the period
# is an abbreviation ("e.g. Adam") or an initial ("J. Smith"). The patterns start with their literal ". "
# so the regex engine jumps between candidates like str.find, and the lookbehinds run only there.
_ABBREVIATIONS = ("e.g.", "i.e.", "al.", "vs.", "cf.", "Fig.", "Eq.", "resp.", "approx.", "etc.")
_NEXT = r"(?=[A-Z0-9\"“(\[])"
_PERIOD = re.compile(
    r"\. " + "".join(rf"(?<! {re.escape(word)} )" for word in _ABBREVIATIONS) + r"(?<! [A-Z]\. )" + _NEXT
)
_QUESTION = re.compile(r"[?!] " + _NEXT)
_VERBS = {
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
}
# "We use X to provide Y": Y is the contribution and X the means.
_MEANS = re.compile(
    r"^([^,;]{3,90}?)\s+to\s+(?:provide|build|develop|design|derive|construct|obtain|give|create|devise|"
    r"establish|introduce|propose)\s+(.{10,})$"
)
# "We extend this line of work ..., by showing X": what "this" points back to is not on the line; X is.
_BACK_REFERENCE = re.compile(r"(?:this|these|those|such|our|their)\s", re.IGNORECASE)
_BY = re.compile(
    r",?\s+by\s+(?:showing|proving|developing|designing|introducing|proposing|presenting|deriving|"
    r"constructing|establishing|providing|giving)\s+(?:that\s+)?(?=\S{2})"
)
# "We also ...", "Finally, we ..." state a side result.
_SECONDARY = re.compile(r"[afm](?<!\w[afm])(?:lso|urther|dditionally|inally|oreover)\b", re.IGNORECASE)
# "In this paper, we ..." and "Here, we ..." mark the sentence the authors chose to state the paper in.
_MAIN = re.compile(r"^(?:In this (?:paper|work)|Here|This (?:position )?(?:paper|work))\b")
_FORMS = {verb + suffix: verb for verb in _VERBS for suffix in ("", "s", "es", "d", "ed")}
_FORMS |= {"studies": "study", "studied": "study", "found": "find", "built": "build", "shown": "show"}
# Who makes a claim ("we propose", "this paper argues", "... and introduce"), past the adverbs that may sit
# between subject and verb ("we further show"). str.find jumps to each subject (3x faster than a regex
# scan) and one anchored match per subject checks the rest in C; a single regex searching for all subjects
# has no literal start and is 2-3x slower.
_ADVERBS = r"(?:(?:[a-z]+ly|further|also|then|first|thus|therefore|instead|now|here|are the first to) ){0,3}"
_VERB_FORMS = "|".join(sorted(_FORMS, key=len, reverse=True))
_CLAIM_PATTERNS = tuple(
    (subject, re.compile(rf"(?<![^\W_]){subject}{nouns}{_ADVERBS}({_VERB_FORMS})[\s,:]+"))
    for subject, nouns in (
        ("we ", ""),
        ("this ", "(?:position )?(?:paper|work) "),
        ("our ", "(?:work|paper) "),
        ("and ", ""),  # "..., and introduce": the subject is further back
    )
)
_THAT = re.compile(r"^(?:[^.;]|\.(?=\S)){0,200}?\bthat\s+")
# Every branch starts with one character class so the regex engine can skip ahead to a candidate: 4x faster.
_CLAUSE_END = re.compile(
    r"[\s,](?:\s*(?:with which|in which|by which|whereby|whose)\s|\s+(?:which|where|including|such as)\s"
    r"|\s*and\s+(?:we\s|(?:\w+ly\s+)?(?:"
    + "|".join(_VERBS)
    + r"|analy[sz]e|evaluate|use|apply|train|compare|obtain|achieve|validate|conduct|test|make|report"
    r"|discuss|highlight|outline|suggest|conclude|assess|leverage|employ|perform|measure|quantify)\b))"
)
_MEANS_WORDS = frozenset(("using", "via", "with", "by", "through", "employing", "leveraging"))
_INFINITIVE = re.compile(r"\bto [a-z]+$")
_FOLLOW_UP = re.compile(
    r"^(" + r"[A-Za-z0-9]{0,20}[A-Z][A-Za-z0-9]{0,30}(?:[-.][A-Za-z0-9]{1,30}){0,3}" + r")\s+"
    r"(?:comprises|contains|consists|includes|provides|covers|spans|is|achieves|uses|enables|offers)\b"
)
_YIELD = re.compile(r"\b(?:yield|lead to|result in|give rise to)s?\s+(?=[a-z-]+(?:\s+[a-z-]+){0,5}\s+\()")
# A coined name: capitals after the first letter (FuncFormer, GenZ, LIBERO-PeRM), a capital-hyphen stem
# (Z-learner), or an acronym with an optional lower-case part (p-LiSSA, GIFs, VLM).
_NAME = r"(?:[A-Za-z0-9]{0,20}[A-Z][A-Za-z0-9]{0,30}(?:[-.][A-Za-z0-9]{1,30}){0,3})"
_COINED = re.compile(r"^(?:[A-Za-z0-9]*[a-z0-9][A-Z]|[A-Z]{2}|[A-Z]-|[A-Za-z0-9]+-[A-Z]|[A-Z][A-Za-z]*[0-9])")
_NAMED_AFTER = re.compile(
    r"^(?:(?:the|a|an)\s+)?(?:(?:novel|new|notion of|concept of)\s+)*("
    + _NAME
    + r")(?=\s*(?:[,:(]|—|–|$|\s+(?:which|that|to|for|as)\b))"
)
_CALLED_WORDS = ("called", "dubbed", "named", "termed", "coined", "denoted")
_YIELD_WORDS = ("yield", "lead to", "result in", "give rise")
_CALLED = re.compile(
    r"\b(?:called|dubbed|named|termed|coined|denoted)\s+(?:the\s+|as\s+)?[`'‘“\"]?([^`'’”\",.;:()]{2,60})"
)
_ACRONYM = re.compile(r"\(([A-Za-z][A-Za-z0-9-]{0,20}[A-Z][A-Za-z0-9-]{0,10}|[A-Z]{2,}s?)\)")


def headline(plain_abstract: str, title: str | None = None, max_len: int = 80) -> str:
    """A one-line headline: the title when there is one, else the paper's named contribution and gist.

    Args:
        plain_abstract: the abstract as `render.to_plain` returns it.
        title: the paper's real title, if the listing has one; it wins.
        max_len: the longest headline returned, in characters.

    Returns:
        A non-empty line of at most `max_len` characters, the same for the same input.
    """
    if title is not None and (clean := sanitize(title)):
        return fit(clean, max_len, ellipsis=True)
    text = plain_abstract[:_SCAN_MAX]
    if len(text) > _SCAN:  # finish the sentence the scan would cut: it may be the one stating the paper
        end = text.find(". ", _SCAN)
        text = text[: end + 1] if end > 0 else text
    if not text.isprintable() or "  " in text or text[:1] == " " or text[-1:] == " ":
        text = sanitize(text)  # already clean when it comes from render.to_plain, the usual caller
    if not text.strip(JUNK):
        return UNTITLED
    text = text.strip()
    sentences, starts = _sentences(text)
    claims = _claims_by_sentence(text, starts)
    best = _best_claim(sentences, claims)
    names = _names(text, sentences, claims, best)
    gist = _gist(sentences, best)
    if names:
        label, expansion, description = names
        if description.startswith("+"):
            body = f"{expansion} {description[1:]}".strip()
        elif description.startswith("which ") and not expansion:
            return fit(f"{label} {condense(_object(description[6:]))}", max_len, ellipsis=False)
        else:
            body = ", ".join(part for part in (expansion, _object(description)) if part)
        body = condense(body or gist.replace(label, "", 1))
        if body and not expansion and is_generic(body) and (field := topic(sentences[0])):
            body = f"{body} for {field if field[1:2].isupper() else field.lower()}"
        return fit(f"{label}: {body}" if body else label, max_len, ellipsis=False)
    return fit(capitalize(without_claimant(about(sentences[0], condense(gist)))), max_len, ellipsis=False)


def _sentences(text: str) -> tuple[list[str], list[int]]:
    """The sentences of a one-spaced text, and where each starts in it."""
    ends = [match.start() + 1 for match in _PERIOD.finditer(text)]
    if "?" in text or "!" in text:  # one character: str.find runs at memchr speed
        ends = sorted(ends + [match.start() + 1 for match in _QUESTION.finditer(text)])
    out: list[str] = []
    starts = [0]
    for stop in ends:
        out.append(text[starts[-1] : stop])
        starts.append(stop + 1)
    out.append(text[starts[-1] :])
    return out, starts


def _claims(text: str) -> list[tuple[int, str, int]]:
    """(verb start, verb, end of verb and trailing space) for every "we propose"-like claim, in order."""
    lowered = text.lower()
    found: list[tuple[int, str, int]] = []
    for subject, pattern in _CLAIM_PATTERNS:
        index = lowered.find(subject)
        while index >= 0:
            match = pattern.match(lowered, index)
            if match is not None:
                found.append((match.start(1), _FORMS[match.group(1)], match.end()))
            index = lowered.find(subject, index + 3)
    return sorted(found) if len(found) > 1 else found


def _claims_by_sentence(text: str, starts: list[int]) -> list[list[tuple[str, int]]]:
    """Claims of each sentence as (verb, end offset in the sentence), found in one pass over the text."""
    out: list[list[tuple[str, int]]] = [[] for _ in starts]
    for position, verb, end in _claims(text):
        index = bisect.bisect_right(starts, position) - 1
        out[index].append((verb, end - starts[index]))
    return out


def _best_claim(sentences: list[str], claims: list[list[tuple[str, int]]]) -> tuple[int, str, int] | None:
    """The sentence (and its verb match) that states the contribution most directly, earliest on ties."""
    best: tuple[int, int, str, int] | None = None
    for index, found in enumerate(claims):
        sentence = sentences[index]
        for verb, end in found:
            weight = _VERBS[verb] + (3 if _MAIN.match(sentence) else 0)
            if _SECONDARY.search(sentence[:end]):
                weight -= 2
            if verb == "argue" and sentence.startswith("This position paper"):
                weight = 10
            if best is None or weight > best[0]:
                best = (weight, index, verb, end)
    return None if best is None else best[1:]


def _names(
    whole: str,
    sentences: list[str],
    claims: list[list[tuple[str, int]]],
    best: tuple[int, str, int] | None,
) -> tuple[str, str, str] | None:
    """(label, expansion, description) of a named contribution, looked for where the paper states it."""
    yields = [word for word in _YIELD_WORDS if word in whole]
    calls = [word for word in _CALLED_WORDS if word in whole]
    # Only a claim, a "yields ..." or a "called ..." can name a contribution: other sentences need no look.
    order = list(range(len(sentences))) if yields or calls else [i for i, found in enumerate(claims) if found]
    first = 0 if best is None else best[0]  # where the paper states itself: any name found there counts
    if best is not None:
        order.remove(first)
        order.insert(0, first)
    for index in order:
        sentence = sentences[index]
        at = [end for verb, end in claims[index] if _VERBS[verb] >= 3 or (best and best[2] == end)]
        if yields and any(word in sentence for word in yields):
            at += [m.end() for m in _YIELD.finditer(sentence)]
        for start in sorted(at):
            if _BACK_REFERENCE.match(sentence, start):
                continue  # "we demonstrate our method on ... (MRI) data": the method was named before
            found = _name_at(sentence, start)
            if found is not None:
                return found
        follow = (
            _FOLLOW_UP.match(sentences[index + 1]) if index == first and index + 1 < len(sentences) else None
        )
        if follow is not None and _COINED.match(follow.group(1)) and best is not None:
            return follow.group(1), "", ""
        called = _CALLED.search(sentence) if calls and any(w in sentence for w in calls) else None
        if called is not None and (index == first or _COINED.match(called.group(1))):
            name = called.group(1).strip(" `'‘’")
            rest = sentence[: called.start()].rstrip(" ,") + sentence[called.end() :].lstrip("`'’”\" ")
            claim = _claims(rest)
            rest = rest[claim[0][2] :] if claim else rest
            return capitalize(name), "", _description(sentence, called.end()) or _object(rest)
    return None


def _name_at(sentence: str, start: int) -> tuple[str, str, str] | None:
    rest = sentence[start:]
    direct = _NAMED_AFTER.match(rest)
    if direct is not None and _COINED.match(direct.group(1)):
        if re.match(r"\s+(?:as|to|for)\b", rest[direct.end() :]):
            return None  # "we recast PE as ...": the name is the subject of the gist, not a contribution
        return direct.group(1), "", _description(rest, direct.end())
    acronyms = [m for m in _ACRONYM.finditer(rest, 0, 190) if m.start() < 160]
    labels: list[str] = []
    expansions: list[str] = []
    end = 0
    for match in acronyms:
        expansion = expansion_of(match.group(1), rest[: match.start()])
        if expansion is None:
            continue
        if rest[: match.start() - len(expansion) - 1].rstrip().rsplit(" ", 1)[-1] in _MEANS_WORDS:
            continue  # "... a map using Convolutional Neural Network (CNN)": a tool, not the contribution
        if labels and not re.fullmatch(r"\s*(?:and|,)\s*", rest[end : match.start() - len(expansion) - 1]):
            break
        labels.append(match.group(1))
        expansions.append(expansion)
        end = match.end()
    if not labels:
        return None
    description = _description(rest, end)
    if not description and re.match(r"\s+(?:on|for|in|of|with|under)\s", rest[end:]):
        description = "+" + rest[end:].strip()
    return " and ".join(labels), " and ".join(expansions), description


def _description(text: str, start: int) -> str:
    """The appositive after a name: in `FuncFormer, a Graph Transformer that ...`, what follows the comma."""
    rest = re.sub(r"^\s*\([^()]{0,200}\)", "", text[start:])
    match = re.match(r"\s*[,:—–]\s*(?:which (?:is|are)\s+)?((?:a|an|the)\s+[^.;]{3,300})", rest)
    if match is not None:
        return match.group(1)
    match = re.match(r"\s*,\s*which\s+([^.;]{3,300})", rest)
    if match is not None:
        return "which " + match.group(1)
    kinds = (
        r"framework|method|model|approach|algorithm|benchmark|dataset|pipeline|system|architecture|technique"
    )
    match = re.match(r"\s+((?:" + kinds + r")\b[^.;]{0,200})", rest)
    return "" if match is None else "+" + match.group(1)


def _object(text: str) -> str:
    """What a claim is about: the part after the verb, without a trailing `and prove ...` clause."""
    cut = _CLAUSE_END.search(text, 0, 400)
    while cut is not None and _INFINITIVE.search(text, 0, cut.start()) and " and " in cut.group(0):
        cut = _CLAUSE_END.search(text, cut.end(), 400)  # "to disentangle and quantify X": one phrase
    if cut is None or len(text[: cut.start()].split()) < 4:
        return text
    return text[: cut.start()]


def _gist(sentences: list[str], best: tuple[int, str, int] | None) -> str:
    if best is None:
        return without_claimant(sentences[0])
    index, verb, end = best
    sentence = sentences[index]
    rest = sentence[end:]
    that = (
        _THAT.match(rest) if verb in ("argue", "show", "prove", "demonstrate", "find", "establish") else None
    )
    if that is not None:
        rest = rest[that.end() :]
    if verb == "argue" and sentence.startswith("This position paper"):
        return "Position: " + capitalize(condense(_object(rest)))
    means = _MEANS.match(_object(rest)) if verb == "use" else None
    if means is not None:
        return f"{means.group(2)} via {means.group(1)}"
    by = _BY.search(rest, 0, 300) if _BACK_REFERENCE.match(rest) else None
    if by is not None:  # "we extend this line of work ..., by showing an algorithm ...": the algorithm
        return _object(rest[by.end() :])
    return _object(rest) or without_claimant(sentence)
