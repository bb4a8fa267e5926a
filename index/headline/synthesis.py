"""One-line headlines for papers without a title: the named contribution plus the gist, from the abstract."""

from __future__ import annotations

import re

from index.headline.claims import active, best_claim, claims_by_sentence
from index.headline.claims import sentences as split_sentences
from index.headline.condense import condense, without_claimant, without_owner, without_parentheses
from index.headline.doing import AcronymOnly, doing_line
from index.headline.fit import UNTITLED, fit
from index.headline.naming import BACK_REFERENCE, named_contribution
from index.headline.objects import object_of
from index.headline.phrase import JUNK, as_headline, base_form, capitalize, gerund, third_person, unhedged
from index.headline.purpose import for_what, without_frame
from index.headline.quality import LATEX_LEFTOVER, ends_dangling, fold_ligatures, generic, normalize
from index.headline.resolve import addressing, close_quote, defined, lower_first, pointed_field, points_back
from index.headline.spaces import any_word, printable
from index.headline.spelled import CAPITALS, spelled_out
from index.headline.topic import about, is_generic, topic
from index.render.abstract import to_plain
from index.render.sanitize import sanitize

# Contributions sit in the first few sentences; scanning a bounded prefix keeps a 25 KB abstract (or one
# unbroken 25 KB token) as cheap as a normal one, and every repeat below is bounded for the same reason.
_SCAN = 1500
_SCAN_MAX = 3000
BestClaim = tuple[int, str, int] | None  # claims.best_claim's answer: sentence index, verb, end of the verb
# "We use X to provide Y": Y is the contribution and X the means.
_MEANS = re.compile(
    r"^([^,;]{3,90}?)\s+to\s+(?:provide|build|develop|design|derive|construct|obtain|give|create|devise|"
    r"establish|introduce|propose)\s+(.{10,})$"
)
_BY = re.compile(
    r",?\s+by\s+(?:showing|proving|developing|designing|introducing|proposing|presenting|deriving|"
    r"constructing|establishing|providing|giving)\s+(?:that\s+)?(?=\S{2})"
)
_DOES = re.compile(r"([a-z]{3,}s)\s")
# "This paper approaches / aims to X": verbs whose object, not the verb as a gerund, heads the line.
_DOES_WHAT_FOLLOWS = frozenset(("approaches", "tackles", "addresses", "studies"))
_AIMING = frozenset(("aims", "seeks", "attempts", "strives"))
# "we aim to address these problems by ...": the verb of the aim, before what it points back to.
_AIM_BACK = re.compile(r"(?:to [a-z]{3,}|[a-z]{3,}ing) (?=(?:this|these|those|such|our|their)\s)")
# "we show that when A holds, B": the condition, up to the comma that ends it.
_CONDITION = re.compile(r"(?:when|if|whenever|once|although|while)\s[^,;.]{3,120},\s+(?=[a-z]+\s+[a-z])")
# "address the problem of 3D reconstruction of X, proposing a framework based on ...": a framework for it.
_PROBLEM_THEN = re.compile(
    r"\b(?:address|tackle|consider|study|solve)\s+the\s+(?:[\w-]+\s+){0,2}?(?:problem|task) of\s+"
    r"(.{5,90}),\s+(?:proposing|introducing|developing|presenting)\s+$"
)
_KIND_HEAD = re.compile(
    r"^(?:an?\s+)?((?:[\w-]+\s+){0,2}(?:framework|method|approach|algorithm|model|technique|pipeline))\b"
)
_EXTENDS_IT = re.compile(r",? and (?:then )?extends? (?:it|this|them) to ")
# A claim that answers the question the abstract opens with: "a characterization of when this is possible".
_ANSWERS = re.compile(
    r"\b(?:when|whether|why|how) (?:this|that|it) (?:is|holds|happens|works)\b|answer (?:this|the) question"
)
# "the discriminant locality preservation regularization into": a plain noun phrase, then "into".
_PLAIN_INTO = re.compile(r"^(?:(?!\w+ing |that |which |to |for |by )[\w-]+ ){1,8}into ")
_PROBLEM_OF = re.compile(
    r"(?:the\s+)?(?:\w+\s+){0,2}?(?:problem|task|question|challenge|paradigm) of\s+(?=\S+\s+\S)"
)
_WITH_WHICH = re.compile(
    r"^[\w\s-]{0,60}?\b(?:framework|method|approach|tool|technique|formulation|model)\s+(?:with|by|through|"
    r"under|in) which we\s+(?:can\s+|could\s+)?(?:\w+ly\s+)?([a-z]+)\s+(.{10,})"
)
# "handwriting data to understand X": what is analysed or used, then what for.
# At most six plain words: "this approach to ..." points back, "vulnerabilities of X to Y" is what is
# analysed, "whether ..." is a question.
_MATERIAL_TO = re.compile(
    r"^(?!(?:this|these|those|such|same|the same|whether|how|our|their|its|it|them)\s)"
    r"(?:(?!(?:of|that|which|whether|aiming|seeking|trying|leading|due|able|similar|related)\s)"
    r"[\w'-]+ ){1,6}?"
    r"to (?!(?:which|what|whom|be|the|an?)\s)[a-z]{3,}\s"
)
# "(1) ...; (2) ...; and (3) ...": the markers of an enumeration.
_ITEM = re.compile(r"[;,]?\s*(?:and\s+)?\((?:[1-9]|i{1,3}|iv|v|[a-e])\)\s*")
_HEAD_STOP = frozenset(
    re.findall(r"\S+", "that which for of to with on in where whose by via using from across to over and")
)
# "we relax this assumption by discovering X": the activity is the gist, "Discovering X".
_BY_DOING = re.compile(r",?\s+by\s+(?=[a-z]{3,}ing\s)")
# A line-end hyphen inside a lower-case word ("knowl- edge"), as quality.SPLIT_WORD finds it but starting
# with its literal "- ", so the regex engine jumps between candidates instead of trying every position.
_LINE_BREAK = re.compile(
    r"- (?<=[a-z]{2}- )(?!(?:and|or|to|as|but|nor|vs|of|the|in|on|for|with|based)\b)(?=[a-z]{2,}\b)"
)
_THAT = re.compile(  # not a relative "that" ("an error rate that is independent of X"): a verb follows it
    r"^(?:[^.;]|\.(?=\S)){0,200}?\bthat,?\s+(?!(?:is|are|was|were|has|have|can|could|will|would)\b)"
    r"(?:(?:unlike|like|as with|contrary to) [^,]{1,40},\s+)?"
)
# The kind of thing a name is, when what follows says more: "(FGCL) framework for X" -> "FGCL: ... for X".
_KIND = re.compile(
    r"^(?:framework|method|model|approach|algorithm|architecture|technique|network|scheme)\s+"
    r"(?=(?:for|to|that|via|of|on|with|based)\s)"
)
# "(FW-AL) algorithm, a method for X": the second kind adds nothing, what it is for does.
_KIND_AGAIN = re.compile(
    r"^(\+[a-z]+),\s+(?:a|an)\s+(?:framework|method|model|approach|algorithm|technique|scheme)\s+(?=for\s|to\s|that\s)"
)
_ENABLES = re.compile(
    r"^(?:which|that)\s+(?:enables|allows|lets|helps)\s+(?:us|users|one|the user|people)\s+"
    r"(?:to\s+)?([a-z]{3,})\b"
)


def headline(plain_abstract: str, title: str | None = None, max_len: int = 80) -> str:
    """A one-line headline: the title when there is one, else the paper's named contribution and gist.

    Args:
        plain_abstract: the abstract as `render.to_plain` returns it.
        title: the paper's real title, if the listing has one; it wins, rendered like an abstract.
        max_len: the longest headline returned, in characters.

    Returns:
        A non-empty line of at most `max_len` characters, the same for the same input.
    """
    if title is not None and (clean := to_plain(title)):  # titles carry LaTeX too: "{BERT}", "\emph{..}"
        return fit(clean, max_len, ellipsis=True)
    text = plain_abstract[:_SCAN_MAX]
    if len(text) > _SCAN:  # finish the sentence the scan would cut: it may be the one stating the paper
        end = text.find(". ", _SCAN)
        text = text[: end + 1] if end > 0 else text
    if not printable(text) or "  " in text or text[:1] == " " or text[-1:] == " ":
        text = sanitize(text)  # already clean when it comes from render.to_plain, the usual caller
    text = fold_ligatures(text)
    if "emph" in text or ("text" in text and ("textbf" in text or "textit" in text)):  # "text" is found early
        text = LATEX_LEFTOVER.sub("", text)  # "\emphGaussian" rendered without its macro: "emphGaussian"
    if text[:1] in JUNK and not text.strip(JUNK):  # a first character that is no junk: no stripped copy
        return UNTITLED
    text = text.strip()
    if "- " in text:
        text = _LINE_BREAK.sub("", text)  # "We pro- pose": a claim split by a line-end hyphen
    text = active(unhedged(text))
    sentences, starts = split_sentences(text)
    claims = claims_by_sentence(text, starts)
    best = best_claim(sentences, claims)
    names = named_contribution(text, sentences, claims, best) or defined(sentences)
    if names:  # the gist (~28k instructions) only where the named line reads it: few of them do
        return _finish(_named(names, sentences, best, max_len), max_len, text)
    gist = _gist(sentences, best)
    asked = sentences[0][: sentences[0].find("?") + 1] if "?" in sentences[0] else ""  # (`in` costs less)
    if asked and len(asked) <= max_len and _ANSWERS.search(gist[:120]):  # "... when this is possible"
        return _finish(asked, max_len, text)  # is headed by the question: "Which classes can be learned ...?"
    addressed, settled = addressing(gist, sentences[0], max_len)
    line = without_claimant(about(sentences[0], addressed))
    line = line if settled and line is addressed else as_headline(line)  # left alone before: left alone again
    if len(line) > max_len:  # both return "" for a line that fits (a quarter of them): two calls fewer
        line = without_frame(line, max_len) or line
        line = for_what(line, max_len) or line
    line = fit(capitalize(line), max_len, ellipsis=False)
    roomy = CAPITALS.search(line) if len(line) < max_len - 3 else None  # "AU" spelled out takes 4 more
    return _finish(spelled_out(line, text, max_len, roomy) if roomy else line, max_len, text)


def _finish(line: str, max_len: int, text: str) -> str:
    """The line in NFKC without extraction debris; refitted in the rare case that made it longer."""
    if points_back(line):  # "... to solve this problem", "... to solve it"
        line = pointed_field(line, max_len, text)
    if '"' in line and line.count('"') % 2:
        line = close_quote(line, text)
    line = normalize(line)
    return line if len(line) <= max_len else fit(line, max_len, ellipsis=False)


def _named(names: tuple[str, str, str], sentences: list[str], best: BestClaim, max_len: int) -> str:
    """`NAME: what it is and does`; when that is only the name spelled out, what the next sentence says."""
    asked = AcronymOnly()  # a line _named_line tested is tested here again: each once
    line = _named_line(names, sentences, best, max_len, asked)
    spelled = asked[line]
    if not spelled and not (" for " in line and asked[line.split(" for ", 1)[0]]):
        return line
    if spelled and names[2][:1] == "+" and names[1]:
        doing = doing_line(*names, max_len)
        if doing:
            return doing  # "Mr-BERT: model that models the relation between ...": what it does, not its name
    label = names[0]
    at = next((index for index, sentence in enumerate(sentences) if label in sentence), len(sentences))
    follow = _FOLLOWS.match(sentences[at + 1]) if at + 1 < len(sentences) else None
    if follow is None or not (spelled or follow.group(1) in ("setting", "task")):
        return line  # "EGZSL: Evolutionary ... Learning for its field": a new setting says what it is next
    kind, verb, rest = follow.groups()
    body = rest if verb in ("features", "provides", "offers", "has") else f"{verb} {rest}"
    if kind in ("setting", "task"):  # "This setting allows X": "setting allowing X"
        body = f"{kind} {gerund(base_form(verb))} {rest}"
    better = fit(f"{label}: {condense(object_of(body))}", max_len, ellipsis=False)
    return line if ends_dangling(better) or generic(better) else better


# "GLiBRL ... Our approach features X": what the named thing does, said in the sentence after it.
_FOLLOWS = re.compile(
    r"(?:(?:Our|The|This) (approach|method|model|framework|algorithm|system|setting|task)|It) (?:also )?"
    r"(features|provides|offers|has|enables|allows|learns|uses|combines|supports|leverages|exploits|captures|models)"
    r"\s+(.{10,})"
)


def _named_line(
    names: tuple[str, str, str], sentences: list[str], best: BestClaim, max_len: int, asked: AcronymOnly
) -> str:
    """`NAME: what it is and does`; when the expansion leaves no room for what it does, without it."""
    label, expansion, description = names
    if description.startswith("+") and " et al" in description:  # "+of Finn et al. (2017) as a method"
        description = "+" + without_owner(without_parentheses(description[1:])).lstrip()
    if description.startswith("+as "):  # "we reformulate MAML as a method for X": "MAML as method for X"
        return fit(f"{label} {condense(description[1:])}", max_len, ellipsis=False)
    if description.startswith("+"):
        description = _KIND_AGAIN.sub(r"\1 ", description, count=1)  # "algorithm, a method for X"
        bodies = [f"{expansion} {description[1:]}".strip()]
        bare = _KIND.sub("", description[1:], count=1)
        if expansion and bare != description[1:]:  # "Fuzzy ... Learning [framework] for X": the kind can go
            bodies.append(f"{expansion} {bare}")
    elif description.startswith("which ") and not expansion:
        enables = _ENABLES.match(description)
        if enables is not None:  # "which enables us to generate X": "generates X"
            description = "which " + third_person(enables.group(1)) + description[enables.end() :]
        return fit(f"{label} {condense(object_of(description[6:]))}", max_len, ellipsis=False)
    else:
        what = object_of(description)
        if what[:3] == "to ":
            what = as_headline(what)  # "X: to train a model that ..." reads as "X: training a model that ..."
        enables = _ENABLES.match(what) if what[:1] in "wt" else None  # "which"/"that" first
        if enables is not None:  # "which enables us to generate X": "generates X"
            what = third_person(enables.group(1)) + what[enables.end() :]
        bodies = [", ".join(filter(None, (expansion, what)))]  # C-level: no generator frame
        if expansion and what:
            bodies.append(what)  # "CPM: framework that casts simulation as ...", not "CPM: Compositional ..."
    crowded = len(bodies) == 2 and not description.startswith("+")
    first, first_usable = "", False
    for body in bodies:
        body = condense(body or as_headline(_gist(sentences, best).replace(label, "", 1)))
        spelled_out = expansion and len(body.split()) <= len(expansion.split()) + 1  # cheap before exact
        if not expansion and "-" in label:
            body = _spelled_in_label(label, body)  # "List-GRPO: ... Group Relative Policy Optimization"
        pointer = _POINTS_BACK.search(body) if _POINTER.search(body) else None
        if pointer is None and " to " in body:
            pointer = _BORROWS.search(body)  # "approach to leverage the ability of ViT": whose, not what for
        if pointer is not None and pointer.start() >= 8:  # "approach taking advantages of both types"
            body = body[: pointer.start()].rstrip(" ,")
        vague = (
            is_generic(body)
            or asked[f"{label}: {body}"]
            or (body.endswith(_BARE_KINDS) and _BARE_KIND.search(body) is not None)  # (backtracks 60 places)
            if not expansion
            else spelled_out and (asked[f"{label}: {body}"] or _SAYS.search(body) is None)
        ) or (pointer is not None and pointer.start() >= 8)
        told = _gist(sentences, best) if body and vague else ""  # worked out only where it is read
        if told[:3] == "to " and label not in told and _said_with(label, told, sentences):
            body = condense(as_headline(told))  # "we propose to leverage X ..., and develop Y (YZ)": X
        elif body and vague:
            field = topic(sentences[0])
            if not field or (len(field) > 32 and len(label) + len(body) + len(field) > max_len):
                field = topic(sentences[0], short=True)  # "... for FGVC with MLLMs": the field, abbreviated
            field = field.split(" for ", 1)[-1]  # "classical approaches for approximate inference"
            if field and field.lower() not in body.lower():
                field = field if field[1:2].isupper() else lower_first(field)
                crowded_out = expansion and len(label) + len(body) + len(field) + 7 > max_len
                kind = _KIND_AT_END.search(body) if crowded_out else None
                body = f"{kind.group(0)} for {field}" if kind is not None else f"{body} for {field}"
        line = fit(f"{label}: {body}" if body else label, max_len, ellipsis=False)
        usable = len(bodies) == 1 or not (ends_dangling(line) or generic(line) or asked[line])
        if usable and first and crowded and first_usable:  # without the expansion: if it says more of what
            return line if len(line.split()) > len(first.split()) - len(expansion.split()) + 1 else first
        if usable and not (crowded and not first and len(line) < len(label) + 2 + len(body)):
            return line
        if not first:  # the expansion crowded out what it does, or the line is unusable: try the next
            first, first_usable = line, usable
    return first


# "uncertainty-aware listwise GRPO framework": a kind of thing with nothing about what it is for.
_BARE_KIND_WORDS = "framework|method|approach|algorithm|model|system|dataset|benchmark|corpus"
_BARE_KIND = re.compile(rf"^[^;:]{{0,60}}\b(?:{_BARE_KIND_WORDS})$")
_BARE_KINDS = tuple(_BARE_KIND_WORDS.split("|"))  # every match ends with one: `endswith` before the search
# "..., taking advantages of both types of approaches", "... to solve them": a clause about what the line
# does not show says nothing; the field the paper works in says more in its place.
_POINTS_BACK = re.compile(
    r"[ ,](?:to|for|taking|exploiting|that|which|addressing|solving|tackling|overcoming)\s(?:[\w-]+\s){0,3}?"
    r"(?:this|these|those|them|such|both types of)\b[^,;:]*$"
)
# "approach to leverage the ability of ViT to model X": a purpose that borrows another model's strength says
# how, not what the approach is for; the field it works in says more.
_BORROWS = re.compile(
    r" to (?:leverage|exploit|utilize|harness) (?:the )?"
    r"(?:abilit|capabilit|power|strength|advantage)[a-z]* of "
)
_POINTER = re.compile(r" (?:th(?:is|ese|ose|em)|such|both types)\b")  # from a literal: cheap, tried first
# A body that says what the named thing does or is for ("... for X", "... that learns X").
_SAYS = re.compile(any_word("that|which|for|to|by|via|with|on|in"))
# "Relation and Sensitivity aware [representation learning method]": the kind of thing a spelled-out name
# is, kept when the name leaves no room for the field it works in ("RaSa: ... method for person search").
_KIND_AT_END = re.compile(
    r"(?<![\w-])(?:[a-z][a-z-]+ ){0,2}(?:framework|method|approach|algorithm|model|system|network|"
    r"architecture|technique|scheme|strategy|module|loss)$"
)
_TITLE_RUN = re.compile(r"[A-Z](?<!\w[A-Z])[a-z]+(?: [A-Z][a-z]+){2,5}\b")  # \b[A-Z]: scans for capitals


def _said_with(label: str, gist: str, sentences: list[str]) -> bool:
    """Whether the gist and the label are in one sentence: what is proposed there is what the name does."""
    return any(gist in sentence and label in sentence for sentence in sentences)


def _spelled_in_label(label: str, body: str) -> str:
    """The body with a part of the label spelled out said as the label does: "... GRPO framework"."""
    for part in label.split("-"):
        if len(part) >= 3 and part.isupper():
            for match in _TITLE_RUN.finditer(body):
                if "".join(word[0] for word in match.group(0).split()) == part:
                    return body[: match.start()] + part + body[match.end() :]
    return body


def _head(item: str) -> str:
    """The noun phrase an enumerated item starts with: "unifying protocol [that bridges ...]"."""
    words = item.split(" ")
    for index, word in enumerate(words[1:6], start=1):
        if word in _HEAD_STOP or word.endswith((",", ";", ":")):
            return " ".join(words[:index] + ([word.rstrip(",;:")] if word[-1:] in ",;:" else []))
    return " ".join(words[:6])


def _gist(sentences: list[str], best: BestClaim) -> str:
    if best is None:
        return without_claimant(sentences[0])
    index, verb, end = best
    sentence = sentences[index]
    rest = sentence[end:]
    problem = _PROBLEM_THEN.search(sentence, 0, end) if sentence.endswith("ing ", 0, end) else None
    kind = _KIND_HEAD.match(rest) if problem is not None else None
    if problem is not None and kind is not None:  # "we address the problem of X, proposing a framework ..."
        return f"{kind.group(1)} for {problem.group(1)}"
    if verb == "contribute" and rest[:3] == "to ":
        rest = rest[3:]  # "we contribute to a ... language": what is contributed follows the "to"
    that = (
        _THAT.match(rest) if verb in ("argue", "show", "prove", "demonstrate", "find", "establish") else None
    )
    if that is not None:
        rest = rest[that.end() :]
        condition = _CONDITION.match(rest)
        if condition is not None:  # "we show that when A holds, B": B is the finding
            rest = capitalize(rest[condition.end() :])
    extends = _EXTENDS_IT.search(rest, 0, 200) if " extend" in rest[:200] else None
    if extends is not None and _POINTER.search(rest, 0, extends.start()):  # "a technique to overcome this
        rest = rest[extends.end() :]  # problem, and extends it to a framework for X": the framework
    if verb == "introduce" and " into " in rest[:120] and _PLAIN_INTO.match(rest):
        rest = rest.replace(" into ", " in ", 1)  # "introduce X into the Y framework": "X in Y"
    problem = _PROBLEM_OF.match(rest) if verb in ("address", "study", "consider", "investigate") else None
    if problem is not None:  # "we address the problem of 3D reconstruction of X": the problem is the gist
        rest = rest[problem.end() :]
    with_which = _WITH_WHICH.match(rest[:300]) if " which we " in rest else None
    if with_which is not None:  # "a framework with which we derive X": "Deriving X"
        return as_headline(f"to {with_which.group(1)} {with_which.group(2)}")
    items = _ITEM.split(rest[:400]) if rest[:1] == "(" and _ITEM.match(rest) else []
    if len(items) > 2:  # "we contribute (1) a protocol that ...; (2) a harness ...": the things, named
        heads = [_head(condense(item)) for item in items[1:5]]
        return ", ".join(heads[:-1]) + " and " + heads[-1]
    if verb == "argue" and sentence.startswith("This position paper"):
        return "Position: " + capitalize(condense(object_of(rest)))
    if sentence.startswith(("In this survey", "This survey")):  # a survey says so, as a position paper does
        return "Survey: " + capitalize(condense(object_of(rest)))
    means = _MEANS.match(object_of(rest)) if verb == "use" else None
    if means is not None:
        return f"{means.group(2)} via {means.group(1)}"
    material = _MATERIAL_TO.match(rest) if verb in ("analyze", "analyse", "use") and " to " in rest else None
    if material is not None:  # "we analyse handwriting data to understand X": the data is no contribution
        return f"{gerund(verb)} {rest}"
    own = verb == "address" and sentence.endswith(("paper ", "work "), 0, end)
    does = _DOES.match(rest) if own else None
    aimed = does is not None and does.group(1) in _AIMING  # "This paper aims to X / at X-ing": X
    if does is not None and (aimed or does.group(1) in _DOES_WHAT_FOLLOWS):
        rest = rest[does.end() :]  # "This paper approaches the paradigm of X with Y": "X with Y"
        rest = rest.split(" ", 1)[1] if aimed and rest.startswith(("at ", "for ")) else rest
        problem = _PROBLEM_OF.match(rest)
        rest = rest[problem.end() :] if problem is not None else rest
    elif does is not None:  # "This paper reformulates X as Y": "Reformulating X as Y"
        rest = gerund(base_form(does.group(1))) + rest[does.end(1) :]
    aim = _AIM_BACK.match(rest) if verb in ("address", "propose") else None
    done_by = aim is not None and _BY_DOING.search(rest, aim.end(), aim.end() + 200) is not None
    if aim is not None and (done_by or (verb == "address" and rest[:3] == "to " and not aimed)):  # "... by"
        rest = rest[aim.end() :]  # "we aim to address / propose to solve / addressing them by learning X"
    lead = rest[:1]  # matched once for both searches, only where a "by" is and "this"/"such"/"our" may start
    back = (
        (lead in "tTsSoO" or not lead.isascii()) and "by" in rest and BACK_REFERENCE.match(rest) is not None
    )
    by = _BY.search(rest, 0, 300) if back else None
    if by is not None:  # "we extend this line of work ..., by showing an algorithm ...": the algorithm
        return object_of(rest[by.end() :])
    by = _BY_DOING.search(rest, 0, 200) if back else None
    if by is not None:
        return object_of(rest[by.end() :])
    return object_of(rest) or without_claimant(sentence)
