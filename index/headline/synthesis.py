"""One-line headlines for papers without a title: the named contribution plus the gist, from the abstract."""

from __future__ import annotations

import re

from index.headline.claims import VERBS, active, best_claim, claims_by_sentence
from index.headline.claims import claims as find_claims
from index.headline.claims import sentences as split_sentences
from index.headline.fit import JUNK, UNTITLED, capitalize, condense, fit, without_claimant
from index.headline.phrase import as_headline
from index.headline.quality import (
    LATEX_LEFTOVER,
    acronym_only,
    ends_dangling,
    fold_ligatures,
    generic,
    normalize,
)
from index.headline.topic import about, expansion_of, is_generic, topic
from index.render.sanitize import sanitize

# Contributions sit in the first few sentences; scanning a bounded prefix keeps a 25 KB abstract (or one
# unbroken 25 KB token) as cheap as a normal one, and every repeat below is bounded for the same reason.
_SCAN = 1500
_SCAN_MAX = 3000
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
# "we relax this assumption by discovering X": the activity is the gist, "Discovering X".
_BY_DOING = re.compile(r",?\s+by\s+(?=[a-z]{3,}ing\s)")
# A line-end hyphen inside a lower-case word ("knowl- edge"), as quality.SPLIT_WORD finds it but starting
# with its literal "- ", so the regex engine jumps between candidates instead of trying every position.
_LINE_BREAK = re.compile(
    r"- (?<=[a-z]{2}- )(?!(?:and|or|to|as|but|nor|vs|of|the|in|on|for|with|based)\b)(?=[a-z]{2,}\b)"
)
_PRINTABLE_ASCII = bytes(range(0x20, 0x7F))
_THAT = re.compile(r"^(?:[^.;]|\.(?=\S)){0,200}?\bthat\s+")
# Every branch starts with one character class so the regex engine can skip ahead to a candidate: 4x faster.
_CLAUSE_END = re.compile(
    r"[\s,](?:\s*(?:with which|in which|by which|whereby|whose)\s|\s+(?:which|where|including|such as)\s"
    r"|\s*and\s+(?:we\s|(?:\w+ly\s+)?(?:"
    + "|".join(VERBS)
    + r"|analy[sz]e|evaluate|use|apply|train|compare|obtain|achieve|validate|conduct|test|make|report"
    r"|discuss|highlight|outline|suggest|conclude|assess|leverage|employ|perform|measure|quantify)\b))"
)
# After ", which": a verb saying what the thing does ("learns", "allows", "can"), not "is shown in".
_DOES_WHAT = re.compile(r"(?:can |(?:\w+ly )?(?!is\b|was\b|has\b)[a-z]{3,}(?<!ss)s )(?!been\b)")
# The kind of thing a name is, when what follows says more: "(FGCL) framework for X" -> "FGCL: ... for X".
_KIND = re.compile(
    r"^(?:framework|method|model|approach|algorithm|architecture|technique|network|scheme)\s+"
    r"(?=(?:for|to|that|via|of|on|with|based)\s)"
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
# The capitalized words that make a called name: "DualNet", "Composite Adversarial Attack".
_CAPITALIZED = re.compile(r"[A-Z0-9][^\s]*(?:\s+[A-Z0-9][^\s]*)*")
_CALLED = re.compile(
    r"\b(?:called|dubbed|named|termed|coined|denoted)\s+(?:the\s+|as\s+)?[`'‘“\"]?([^`'’”\",.;:()]{2,60})"
)
_TITLED = re.compile(r"((?:[A-Z][a-z]+(?:-[A-Za-z]+)?\s){1,3}[A-Z][a-z]+(?:-[A-Za-z]+)?)(?=,\s+(?:a|an)\s)")
# "a ... approach, namely DisCup, which ...": the kind first, then the name it goes by.
_KIND_THEN_NAME = re.compile(
    r"(?:(?:a|an|the)\s+)?(?:novel\s+|new\s+)?([^,.;()]{3,60}?),\s+(?:namely\s+|called\s+|dubbed\s+|named\s+)?("
    + _NAME
    + r")(?=\s*(?:[,.;:(]|$|\s+(?:which|that)\b))"
)
_WHICH_DOES = re.compile(
    r"\s*(?:\([^()]{0,40}\))?\s*,?\s*(?:(?:which|that)\s+|(?=(?:to|for)\s))([^.;]{3,200})"
)
# What may stand between a claim's verb and the name it coins: articles, filler, the kind of thing it is.
_LEAD = re.compile(
    r"\s*(?:(?:a|an|the|novel|new|simple|general|generic|unified|efficient|effective|first|so-called|called|"
    r"named|termed|dubbed|framework|method|model|approach|algorithm|system|technique)\b[\s,:]*)*"
)
# A name followed by what it does or what it is for: that goes into the headline with it.
_CONTINUES = re.compile(
    r"\s*,?\s+(?:on|for|in|of|with|under|that|to|by|via|using|based on|as|from|through|which|where)\s"
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
    if not _printable(text) or "  " in text or text[:1] == " " or text[-1:] == " ":
        text = sanitize(text)  # already clean when it comes from render.to_plain, the usual caller
    text = fold_ligatures(text)
    if "emph" in text or "textbf" in text or "textit" in text:
        text = LATEX_LEFTOVER.sub("", text)  # "\emphGaussian" rendered without its macro: "emphGaussian"
    if not text.strip(JUNK):
        return UNTITLED
    text = text.strip()
    if "- " in text:
        text = _LINE_BREAK.sub("", text)  # "We pro- pose": a claim split by a line-end hyphen
    text = active(text)
    sentences, starts = split_sentences(text)
    claims = claims_by_sentence(text, starts)
    best = best_claim(sentences, claims)
    names = _names(text, sentences, claims, best)
    gist = _gist(sentences, best)
    if names:
        return _finish(_named(names, sentences, gist, max_len), max_len)
    line = as_headline(without_claimant(about(sentences[0], as_headline(condense(gist)))))
    return _finish(fit(capitalize(line), max_len, ellipsis=False), max_len)


def _printable(text: str) -> bool:
    """str.isprintable, for ASCII text by deleting the printable bytes: 3x fewer instructions."""
    if text.isascii():
        return not text.encode("ascii").translate(None, _PRINTABLE_ASCII)
    return text.isprintable()


def _finish(line: str, max_len: int) -> str:
    """The line in NFKC without extraction debris; refitted in the rare case that made it longer."""
    line = normalize(line)
    return line if len(line) <= max_len else fit(line, max_len, ellipsis=False)


def _named(names: tuple[str, str, str], sentences: list[str], gist: str, max_len: int) -> str:
    """`NAME: what it is and does`; when the expansion leaves no room for what it does, without it."""
    label, expansion, description = names
    if description.startswith("+"):
        bodies = [f"{expansion} {description[1:]}".strip()]
        bare = _KIND.sub("", description[1:], count=1)
        if expansion and bare != description[1:]:  # "Fuzzy ... Learning [framework] for X": the kind can go
            bodies.append(f"{expansion} {bare}")
    elif description.startswith("which ") and not expansion:
        return fit(f"{label} {condense(_object(description[6:]))}", max_len, ellipsis=False)
    else:
        what = _object(description)
        bodies = [", ".join(part for part in (expansion, what) if part)]
        if expansion and what:
            bodies.append(what)  # "CPM: framework that casts simulation as ...", not "CPM: Compositional ..."
    first = ""
    for body in bodies:
        body = condense(body or gist.replace(label, "", 1))
        spelled_out = expansion and len(body.split()) <= len(expansion.split()) + 1  # cheap before exact
        vague = is_generic(body) if not expansion else spelled_out and acronym_only(f"{label}: {body}")
        if body and vague:
            field = topic(sentences[0])
            if field and field.lower() not in body.lower():
                body = f"{body} for {field if field[1:2].isupper() else field.lower()}"
        line = fit(f"{label}: {body}" if body else label, max_len, ellipsis=False)
        if len(bodies) == 1 or not (ends_dangling(line) or generic(line) or acronym_only(line)):
            return line
        first = first or line
    return first


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
        at = [end for verb, end in claims[index] if VERBS[verb] >= 3 or (best and best[2] == end)]
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
            end = called.end()
            capitals = _CAPITALIZED.match(name) if _COINED.match(name) else None
            if capitals is not None and capitals.group(0) != name:  # "DualNet [aiming at ...]"
                end = called.start(1) + called.group(1).find(name) + len(capitals.group(0))
                name = capitals.group(0)
            rest = sentence[: called.start()].rstrip(" ,") + sentence[end:].lstrip("`'’”\"")
            claim = find_claims(rest)
            rest = rest[claim[0][2] :] if claim else rest
            return capitalize(name), "", _description(sentence, end) or _object(rest)
    return None


def _name_at(sentence: str, start: int) -> tuple[str, str, str] | None:
    rest = sentence[start:]
    direct = _NAMED_AFTER.match(rest)
    if direct is not None and _COINED.match(direct.group(1)):
        if re.match(r"\s+(?:as|to|for)\b", rest[direct.end() :]):
            return None  # "we recast PE as ...": the name is the subject of the gist, not a contribution
        return direct.group(1), "", _description(rest, direct.end())
    titled = _TITLED.match(rest)
    if titled is not None:  # "We introduce Deep Sliding Shapes, a 3D ConvNet ...": a name in title case
        return titled.group(1), "", _description(rest, titled.end())
    kind_first = _KIND_THEN_NAME.match(rest) if "," in rest[:80] else None
    if kind_first is not None and _COINED.match(kind_first.group(2)):  # "a spatial language model, SpaBERT"
        does = _WHICH_DOES.match(rest, kind_first.end())
        verb = does is not None and not does.group(1).startswith(("to ", "for "))
        what = kind_first.group(1) + (
            f" {'that ' if verb else ''}{does.group(1)}" if does is not None else ""
        )
        return kind_first.group(2), "", "a " + what
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
    lead = rest[: acronyms[0].start() - len(expansions[0]) - 1] if acronyms else ""
    if not _LEAD.fullmatch(lead):
        return (
            None  # "a seq2seq model for automatic speech recognition (ASR)": ASR is the field, not the name
        )
    description = _description(rest, end)
    if not description and _CONTINUES.match(rest, end):
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
    while cut is not None and (
        (_INFINITIVE.search(text, 0, cut.start()) and " and " in cut.group(0))
        or (
            cut.group(0) == ", which "
            and _DOES_WHAT.match(text, cut.end())
            and "," not in text[: cut.start()]
        )
    ):
        if (
            cut.group(0) == ", which "
        ):  # "X, which learns Y": what X does is the gist, kept as "X that learns Y"
            text = f"{text[: cut.start()]} that {text[cut.end() :]}"
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
    if verb == "contribute" and rest[:3] == "to ":
        rest = rest[3:]  # "we contribute to a ... language": what is contributed follows the "to"
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
    by = _BY_DOING.search(rest, 0, 200) if _BACK_REFERENCE.match(rest) else None
    if by is not None:
        return _object(rest[by.end() :])
    return _object(rest) or without_claimant(sentence)
