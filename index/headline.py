"""One-line headlines for papers without a title: the named contribution plus the gist, from the abstract."""

from __future__ import annotations

import bisect
import re

from index.sanitize import sanitize

# Contributions sit in the first few sentences; scanning a bounded prefix keeps a 25 KB abstract (or one
# unbroken 25 KB token) as cheap as a normal one, and every repeat below is bounded for the same reason.
_SCAN = 3000
_SENTENCE_END = re.compile(r"[.!?]\s+(?=[A-Z0-9\"“(\[])")  # a leading lookbehind would make it 10x slower
_ABBREVIATIONS = frozenset(("e.g.", "i.e.", "al.", "vs.", "cf.", "Fig.", "Eq.", "resp.", "approx.", "etc."))
# Who makes a claim ("we propose", "this paper argues", "... and introduce"), and the adverbs that may sit
# between subject and verb ("we further show", "we theoretically prove").
_SUBJECTS = ("we ", "this paper ", "this work ", "this position paper ", "our work ", "our paper ", "and ")
_ADVERBS = frozenset(("further", "also", "then", "first", "thus", "therefore", "instead", "now", "here"))
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
}
# "We also ...", "Finally, we ..." state a side result.
_SECONDARY = re.compile(r"\b(?:also|further|additionally|finally|moreover)\b", re.IGNORECASE)
# "In this paper, we ..." and "Here, we ..." mark the sentence the authors chose to state the paper in.
_MAIN = re.compile(r"^(?:In this (?:paper|work)|Here|This (?:position )?(?:paper|work))\b")
# Claims are found by looking up verb forms with str.find and checking the few words before each hit: a
# regex scanning every position of every abstract costs more than the whole rest of the headline.
_CLAIM_AFTER = re.compile(r"[\s,:]+")
_FORMS = {verb + suffix: verb for verb in _VERBS for suffix in ("", "s", "es", "d", "ed")}
_FORMS |= {"studies": "study", "studied": "study", "found": "find", "built": "build", "shown": "show"}
_LETTERS = re.compile(r"[a-z]+")
_THAT = re.compile(r"^(?:[^.;]|\.(?=\S)){0,200}?\bthat\s+")
_CLAUSE_END = re.compile(
    r"(?:,?\s+(?:with which|in which|by which|whereby|whose)\s|,\s+(?:which|where)\s"
    r"|,?\s+and\s+(?:\w+ly\s+)?(?:"
    + "|".join(_VERBS)
    + r"|analy[sz]e|evaluate|use|apply|train|compare|obtain|achieve|validate|conduct|test)\b)"
)
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
_WORD = re.compile(r"[\w'’-]{1,60}")
_PARENTHESES = re.compile(r"\s*\([^()]{0,200}\)")
_FILLER = re.compile(
    r"\b(?:novel|new|simple yet (?:effective|efficient)|simple|first|systematic|unified|principled|"
    r"highly|significantly|extensive|comprehensive|designed(?= for))\s+"
)
_LEADING = re.compile(r"^(?:(?:a|an|the|that)\s+)+", re.IGNORECASE)
_INTERJECTION = re.compile(r",\s+which\s[^,.;]{0,80},")
# Where a cut reads well: before a short trailing clause (", a randomization mechanism motivated").
_TAIL = re.compile(
    r"(?:(?:,|:|;|\s[–—])\s+(?P<long>\S+(?:\s+\S+){0,3})|\s+(?:that|which)\s+(?P<short>\S+(?:\s+\S+)?))$"
)
# Words a cut headline must not end on.
_DANGLING = frozenset(
    re.findall(
        r"\S+",
        "a an the of and or for with in on to by from as at via that which its their our is are be into "
        "over under between using while where when both either not than this these such each any whose "
        "who can to through based without within across including toward towards against among per e.g "
        "i.e but nor so requires require",
    )
)


# A gist made only of these words ("a more general theoretical framework") says how, not what about.
_GENERIC = frozenset(
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
# Where a gist's own subject ends: what follows is the means ("based on", "using") or a clause.
_HEAD_END = re.compile(r"[,;:(]|\s(?:that|which|with|to|by|based|using|via|through|where|whose|as|from)\s")
# The first sentence's subject names the field ("Diffusion models are ..."): it ends at its verb.
_AUXILIARY = frozenset(
    re.findall(
        r"\S+",
        "is are was were has have had can could may might will would should must remain remains often "
        "typically increasingly usually still rarely commonly generally frequently also now that which "
        "who to",
    )
)
_NOT_VERB = frozenset(
    re.findall(r"\S+", "of and or in for on with from to at by via like such as under over into")
)
_DETERMINER = frozenset(re.findall(r"\S+", "a an the its their new"))
_TOPIC_LEAD = re.compile(
    r"^(?:(?:recent|rapid|significant)\s+)?(?:(?:advances|progress|developments?|research|work|studies|"
    r"explanations|applications)\s+(?:in|on|of|for)\s+)?(?:the|a|an|most|many|some|existing|using)\s+",
    re.IGNORECASE,
)
_NOT_TOPIC = frozenset(
    re.findall(
        r"\S+",
        "while although though despite in for as with given not we this these there to over since when "
        "because our it its they their how what why whether however yet one no recent",
    )
)
_PRONOUN = re.compile(r"^(?:(their|its|this|these|those|such|it|they)\s+)", re.IGNORECASE)


def _topic(sentence: str) -> str:
    """The field a paper works in, as the first sentence's subject names it ("Diffusion models are ...")."""
    words = _PARENTHESES.sub("", sentence[:300]).split()
    for index, word in enumerate(words[:9]):
        if word.endswith((",", ";", ":")):
            words = words[: index + 1]
            break
        if index == 0:
            continue
        lowered = word.lower()
        before = words[index - 1]
        after = words[index + 1].lower() if index + 1 < len(words) else ""
        if (
            lowered in _AUXILIARY
            or (
                before.endswith("s")
                and before.lower() not in _NOT_VERB
                and word.isalpha()
                and word.islower()
                and lowered not in _NOT_VERB
            )
            or (lowered.endswith(("s", "ed")) and (after in _DETERMINER or after == "to"))
        ):
            words = words[:index]
            break
    else:
        return ""
    subject = _TOPIC_LEAD.sub("", " ".join(words)).strip(_JUNK)
    words = subject.split()
    if not 1 <= len(words) <= 6 or words[0].lower() in _NOT_TOPIC or not words[0][:1].isalpha():
        return ""
    return _capitalize(subject)


def _is_generic(gist: str) -> bool:
    """True when the gist's head and topical phrases ("of X", "for X") carry fewer than two real words."""
    end = _HEAD_END.search(gist)
    head = gist[: end.start()] if end is not None else gist
    return len(gist.split()) <= 3 or sum(word.lower() not in _GENERIC for word in head.split()[:10]) < 2


def _about(topic: str, gist: str) -> str:
    """Say what a vague gist is about: `Diffusion models: a theoretical framework ...`."""
    pronoun = _PRONOUN.match(gist)
    if pronoun is not None and topic:
        rest = gist[pronoun.end() :]
        if pronoun.group(1).lower() in ("it", "they"):
            return f"{topic} {rest}"
        return f"{topic}: {rest}"
    colon = gist.find(": ")
    if 0 < colon < 80 and _is_generic(gist[:colon].split(" in ")[0]) and len(gist) - colon > 25:
        field = re.search(r"\s(?:in|for|of)\s+(.{3,50})$", gist[:colon])
        label = _capitalize(field.group(1)) if field is not None else topic
        if label:
            return f"{label}: {gist[colon + 2 :]}"
    whether = re.match(
        r"whether\s+((?:\S+\s+){0,8}?)(is|are|can|could|does|do|should|will)\s+(.*)", gist, re.I
    )
    if whether is not None:
        return f"{_capitalize(whether.group(2))} {whether.group(1)}{whether.group(3)}?"
    if topic and (_is_generic(gist) or gist.lower().startswith("whether")):
        return f"{topic}: {gist}"
    return gist


_PREPOSITIONS = frozenset(re.findall(r"\S+", "for of in on with into from by via under over between across"))
_UNTITLED = "Untitled paper"
# Punctuation that means nothing at either end of a headline (an unmatched bracket, a dangling dash).
_JUNK = " \t,;:.!?–—-()[]{}/\\|*_~'\"`“”‘’"


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
        return _fit(clean, max_len, ellipsis=True)
    text = plain_abstract[:_SCAN]
    if not text.isprintable() or "  " in text or text[:1] == " " or text[-1:] == " ":
        text = sanitize(text)  # already clean when it comes from render.to_plain, the usual caller
    if not text.strip(_JUNK):
        return _UNTITLED
    sentences = _sentences(text)
    claims = _claims_by_sentence(sentences)
    best = _best_claim(sentences, claims)
    names = _names(sentences, claims, best)
    gist = _gist(sentences, best)
    if names:
        label, expansion, description = names
        if description.startswith("+"):
            body = f"{expansion} {description[1:]}".strip()
        elif description.startswith("which ") and not expansion:
            return _fit(f"{label} {_condense(_object(description[6:]))}", max_len, ellipsis=False)
        else:
            body = ", ".join(part for part in (expansion, _object(description)) if part)
        body = _condense(body or gist.replace(label, "", 1))
        if body and not expansion and _is_generic(body) and (topic := _topic(sentences[0])):
            body = f"{body} for {topic if topic[1:2].isupper() else topic.lower()}"
        return _fit(f"{label}: {body}" if body else label, max_len, ellipsis=False)
    return _fit(_capitalize(_about(_topic(sentences[0]), _condense(gist))), max_len, ellipsis=False)


def _sentences(text: str) -> list[str]:
    out: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        stop = match.start() + 1
        last = text[max(start, stop - 8) : stop].rsplit(" ", 1)[-1]
        if last in _ABBREVIATIONS or (len(last) == 2 and last[0].isupper()):
            continue  # "e.g. Adam", "J. Smith": not a sentence end
        out.append(text[start:stop])
        start = match.end()
    out.append(text[start:])
    return [s.strip() for s in out if s.strip()]


def _claims(text: str) -> list[tuple[int, str, int]]:
    """(verb start, verb, end of verb and trailing space) for every "we propose"-like claim, in order."""
    lowered = text.lower()
    found: list[tuple[int, str, int]] = []
    for subject in _SUBJECTS:
        index = lowered.find(subject)
        while index >= 0:
            if index == 0 or not lowered[index - 1].isalnum():
                claim = _verb_after(text, lowered, index + len(subject))
                if claim is not None:
                    found.append(claim)
            index = lowered.find(subject, index + 1)
    return sorted(found)


def _verb_after(text: str, lowered: str, position: int) -> tuple[int, str, int] | None:
    """The claim verb right after a subject, past up to three adverbs; None when another word comes first."""
    for _ in range(4):
        word = _LETTERS.match(lowered, position)
        if word is None:
            return None
        verb = _FORMS.get(word.group(0))
        if verb is not None:
            after = _CLAIM_AFTER.match(text, word.end())
            return None if after is None else (position, verb, after.end())
        if not (word.group(0).endswith("ly") or word.group(0) in _ADVERBS):
            return None
        position = word.end() + 1
    return None


def _claims_by_sentence(sentences: list[str]) -> list[list[tuple[str, int]]]:
    """Claims of each sentence as (verb, end offset in the sentence), found in one pass over the text."""
    text = " ".join(sentences)
    starts = [0]
    for sentence in sentences[:-1]:
        starts.append(starts[-1] + len(sentence) + 1)
    out: list[list[tuple[str, int]]] = [[] for _ in sentences]
    for position, verb, end in _claims(text):
        index = bisect.bisect_right(starts, position) - 1
        out[index].append((verb, end - starts[index]))
    return out


def _best_claim(sentences: list[str], claims: list[list[tuple[str, int]]]) -> tuple[int, str, int] | None:
    """The sentence (and its verb match) that states the contribution most directly, earliest on ties."""
    best: tuple[int, int, str, int] | None = None
    for index, sentence in enumerate(sentences):
        for verb, end in claims[index]:
            weight = _VERBS[verb] + (3 if _MAIN.match(sentence) else 0)
            if _SECONDARY.search(sentence[:end]):
                weight -= 2
            if verb == "argue" and sentence.startswith("This position paper"):
                weight = 10
            if best is None or weight > best[0]:
                best = (weight, index, verb, end)
    return None if best is None else best[1:]


def _names(
    sentences: list[str], claims: list[list[tuple[str, int]]], best: tuple[int, str, int] | None
) -> tuple[str, str, str] | None:
    """(label, expansion, description) of a named contribution, looked for where the paper states it."""
    whole = " ".join(sentences)
    may_yield = any(word in whole for word in _YIELD_WORDS)
    may_call = any(word in whole for word in _CALLED_WORDS)
    order = list(range(len(sentences)))
    if best is not None:
        order.remove(best[0])
        order.insert(0, best[0])
    for index in order:
        sentence = sentences[index]
        starts = [end for verb, end in claims[index] if _VERBS[verb] >= 3 or (best and best[2] == end)]
        if may_yield and any(word in sentence for word in _YIELD_WORDS):
            starts += [m.end() for m in _YIELD.finditer(sentence)]
        for start in sorted(starts):
            found = _name_at(sentence, start)
            if found is not None:
                return found
        follow = (
            _FOLLOW_UP.match(sentences[index + 1])
            if index == order[0] and index + 1 < len(sentences)
            else None
        )
        if follow is not None and _COINED.match(follow.group(1)) and best is not None:
            return follow.group(1), "", ""
        called = _CALLED.search(sentence) if may_call and any(w in sentence for w in _CALLED_WORDS) else None
        if called is not None and (index == order[0] or _COINED.match(called.group(1))):
            name = called.group(1).strip(" `'‘’")
            rest = sentence[: called.start()].rstrip(" ,") + sentence[called.end() :].lstrip("`'’”\" ")
            claim = _claims(rest)
            rest = rest[claim[0][2] :] if claim else rest
            return _capitalize(name), "", _description(sentence, called.end()) or _object(rest)
    return None


def _name_at(sentence: str, start: int) -> tuple[str, str, str] | None:
    rest = sentence[start:]
    direct = _NAMED_AFTER.match(rest)
    if direct is not None and _COINED.match(direct.group(1)):
        if re.match(r"\s+(?:as|to|for)\b", rest[direct.end() :]):
            return None  # "we recast PE as ...": the name is the subject of the gist, not a contribution
        return direct.group(1), "", _description(rest, direct.end())
    acronyms = [m for m in _ACRONYM.finditer(rest) if m.start() < 160]
    labels: list[str] = []
    expansions: list[str] = []
    end = 0
    for match in acronyms:
        expansion = _expansion(rest[: match.start()], match.group(1))
        if expansion is None:
            continue
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


def _expansion(before: str, acronym: str) -> str | None:
    """The words an acronym abbreviates (Schwartz-Hearst: its letters in order, the first starting a word)."""
    letters = [c.lower() for c in acronym if c.isalnum()]
    if letters and acronym.endswith("s") and sum(c.isupper() for c in acronym) >= 2:
        letters = letters[:-1]
    words = _WORD.findall(before[-200:])
    for count in range(1, min(len(words), len(letters) + 6) + 1):
        span = words[-count:]
        if not span[0].lower().startswith(letters[0]):
            continue
        if _in_order(letters, " ".join(span).lower()):
            return " ".join(span)
    return None


def _in_order(letters: list[str], text: str) -> bool:
    position = 0
    for letter in letters:
        position = text.find(letter, position)
        if position < 0:
            return False
        position += 1
    return True


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
    cut = _CLAUSE_END.search(text)
    if cut is None or len(text[: cut.start()].split()) < 4:
        return text
    return text[: cut.start()]


def _gist(sentences: list[str], best: tuple[int, str, int] | None) -> str:
    if best is None:
        return sentences[0]
    index, verb, end = best
    sentence = sentences[index]
    rest = sentence[end:]
    that = (
        _THAT.match(rest) if verb in ("argue", "show", "prove", "demonstrate", "find", "establish") else None
    )
    if that is not None:
        rest = rest[that.end() :]
    if verb == "argue" and sentence.startswith("This position paper"):
        return "Position: " + _capitalize(_condense(_object(rest)))
    return _object(rest) or sentence


def _condense(text: str) -> str:
    text = _INTERJECTION.sub("", _PARENTHESES.sub("", text)).strip(" ,;:")
    text = re.sub(r"\s*\b(?:to|in) this (?:study|paper|work)\b", "", text)
    text = _FILLER.sub("", text)
    text = _LEADING.sub("", text)
    return " ".join(text.split()).strip(" ,;:.–—-")


def _drop_dangling(words: list[str]) -> None:
    while len(words) > 1 and (words[-1].lower().strip(",;:") in _DANGLING or not words[-1].strip(",;:–—-")):
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


def _capitalize(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _fit(text: str, max_len: int, *, ellipsis: bool) -> str:
    """Cut at a word boundary without a dangling `of`/`and`/`the`; a single endless token is cut hard."""
    question = text.endswith("?")
    text = " ".join(text.split()).strip(_JUNK)
    if question and text:
        text += "?"  # the one closing mark that carries meaning
    if not text:
        return _UNTITLED
    if len(text) <= max_len:
        return text
    if " " not in text[:max_len]:
        return text[: max_len - 1].rstrip(_JUNK) + "…"
    limit = max_len - 1 if ellipsis else max_len
    words = text[: limit + 1].split(" ")
    if len(words) > 1:
        words = words[:-1] if len(" ".join(words)) > limit else words
    _drop_dangling(words)
    _drop_cut_phrase(words, text[len(" ".join(words)) :].split(" ", 2)[1:2])
    if len(words) > 1 and words[-1].endswith("ing") and words[-2].lower() in _DANGLING:
        words.pop()  # "by removing": a preposition whose object was cut off
        _drop_dangling(words)
    cut = " ".join(words).rstrip(" ,;:–—-")
    tail = _TAIL.search(cut)
    if tail is not None and tail.start() >= 30:
        cut = cut[: tail.start()]
        words = cut.split(" ")
        _drop_dangling(words)
        cut = " ".join(words).rstrip(" ,;:–—-")
    cut = cut[:limit]
    return cut + "…" if ellipsis else cut
