"""Detectors for headlines a reader cannot use: each names a rule that synthesis avoids and tests check."""

from __future__ import annotations

import re
import unicodedata
from operator import methodcaller
from typing import Final

from index.headline.mend import PLACES
from index.headline.phrase import capitalize
from index.headline.spaces import any_word
from index.headline.topic import expansion_of

# A phrase is never whole when it stops on one of these: its complement was cut off.
STOP_ENDINGS: Final = frozenset(
    re.findall(
        r"\S+",
        "a an the of and or for with in on to by from as at via that which its their our is are be into "
        "over under between using while where when both either not than this these such each any whose "
        "who can through based without within across including toward towards against among per but nor "
        "so if has have had how what why whether namely like unlike versus vs upon onto along before after "
        f"until unless whereas because since during going {PLACES}",
    )
)
# Adjectives that need their noun: a headline ending on one lost the thing it was about.
DANGLING_ADJECTIVES: Final = frozenset(
    re.findall(
        r"\S+",
        "approximate explicit implicit efficient effective robust general various several different many "
        "more most novel key high low large small better accurate simple scalable joint prior existing "
        "single multiple comparable capable suitable able main new first other same real-world "
        "state-of-the-art proposed underlying arbitrary specific particular respective",
    )
)
# Nouns that mean nothing without their "of" phrase: "searching best combination [of ...]" lost it.
RELATIONAL_ENDINGS: Final = frozenset(
    re.findall(
        r"\S+",
        "interplay relationship relation impact effect role combination subset superset part portion variety "
        "range collection influence importance types kinds",
    )
)
# Typographic ligatures and the like: NFKC folds them, and a headline must never show one.
_COMPAT: Final = re.compile(r"[\ufb00-\ufb06\u2002-\u200a\u3000\uff01-\uff5e]")
_BARE: Final = methodcaller("strip", ",;:")
# Leftovers of LaTeX that lost its backslash and braces ("emphGaussian", "textbfNet").
LATEX_LEFTOVER: Final = re.compile(
    r"\b(?:emph|textbf|textit|textrm|texttt|mathrm|mathbf|mathcal|bf)(?=[A-Z{])"
)
# "DenseNet: which connects each layer to every other": the clause that followed the name, its subject gone.
_WHICH_AFTER_NAME: Final = re.compile(r"^([^\s:][^:]{0,40}): which (?=\S)")
# "a novel algorithm" condensed: "a algorithm", "a Implicit Neural Stylization". Not "a unified", "a user",
# "a Euclidean", "a one-shot" ("u", "eu" and "o" there sound as "you" and "won"), an acronym, or a variable
# ("when A is").
_A_BEFORE_VOWEL: Final = re.compile(
    r"(?:(?:^|(?<=: ))(A)|(?<![\w-])(a)) "
    r"(?=(?:[aiAI]|[eE](?!u)|[oO](?!ne\b|ne-|nce\b)|[uU](?!ni|s[eu]|ti|biq|ro))[a-z]{2})"
)
# "1) step ahead and 2) error averaging": list markers whose opening brackets the abstract never had.
_ENUMERATOR: Final = re.compile(r"(?<![(\w])(?:[1-9]|i{1,3}|iv|v|[a-e])\)\s+")
# A line break hyphen left inside a word by PDF extraction ("knowl- edge", "sub- space").
SPLIT_WORD: Final = re.compile(
    r"\b([a-z]{2,})- (?!(?:and|or|to|as|but|nor|vs|of|the|in|on|for|with|based)\b)([a-z]{2,})\b"
)
# How a headline may not start: a bare purpose or question word, a stray verb, or a pointer to material.
_BAD_START: Final = re.compile(
    r"^(?:To [a-z]+|When|Why|Whether|Code\b|Source code|Data and code|For the time|"
    r"(?:Implements|Utilizes|Uses|Is|Are|Was|Were)\b)"
)
_DOES: Final = re.compile(any_word("that|which|for|to|by|via|with|on"))
_LABEL: Final = re.compile(r"^([^\s:]{2,30}): (.+)$")
# Words so vague that a headline made only of them (plus a name) says nothing about the paper.
_VAGUE: Final = frozenset(
    re.findall(
        r"\S+",
        "framework method approach model algorithm technique system pipeline architecture scheme strategy "
        "network tool paradigm procedure solution module a an the new novel general effective efficient "
        "simple unified this our",
    )
)


def ends_dangling(line: str) -> bool:
    """True when the last word is a function word or an adjective whose noun was cut: `cut-mid-phrase`."""
    if line.endswith(("?", "…", ")")):
        return False
    last = line.rsplit(" ", 1)[-1].strip(",;:.").lower()
    return (
        last in STOP_ENDINGS
        or last in DANGLING_ADJECTIVES
        or last in RELATIONAL_ENDINGS
        or last.endswith("istic")  # "based on Monte-Carlo and probabilistic [...]": an adjective, cut off
    )


def has_ligature(line: str) -> bool:
    """True when the line shows a compatibility character or a LaTeX leftover: `ligature`."""
    return _COMPAT.search(line) is not None or LATEX_LEFTOVER.search(line) is not None


def has_split_word(line: str) -> bool:
    """True when a word is still split by a line-end hyphen ("knowl- edge"): extraction debris."""
    return SPLIT_WORD.search(line) is not None


def acronym_only(line: str) -> bool:
    """True for "SAC: Spatially-Adaptive Convolution": an acronym and its expansion, nothing it does."""
    match = _LABEL.match(line) if ": " in line else None  # the str test first
    if match is None:
        return False
    label, body = match.groups()
    # An expansion starts with the acronym's first letter (its first alphanumeric, lowered): a body that does
    # not is no spelled-out name, answered before any other test (the expansion_of calls cost ~30k each).
    # A loop of str methods mypyc calls natively (isalnum, lower, slices): no filter/next objects to make.
    initial = ""
    for char in label:
        if char.isalnum():
            initial = char.lower()[:1]
            break
    lead = body.lstrip()[:1]
    if not lead or (initial and lead.lower()[:1] != initial):
        return False
    capitals = sum(map(str.isupper, label)) + sum(map(str.isdigit, label))  # map: no per-letter frame
    if " " in label or capitals < 2:
        return False
    if _DOES.search(body):
        return False  # "... system that allows users to ...": it says what it does
    words = body.split()
    real = len(words)  # a compiled loop with a native lower(): no map objects, no str.lower look-up
    for word in words:
        if word.lower() in STOP_ENDINGS:
            real -= 1
    if real > capitals + 1:
        return False  # "PanoFormer: panorama Transformer to estimate depth": more than a spelled-out name
    for drop in (0, 1):  # "... Network" or "... Network framework": the kind adds nothing
        kept = " ".join(words[: len(words) - drop])
        if kept and expansion_of(label, kept) == kept:
            return True
    return False


def generic(line: str) -> bool:
    """True when, past a name, the headline is only vague words ("CPM: a framework"): `generic`."""
    match = _LABEL.match(line) if ": " in line else None
    body = match.group(2) if match is not None else line
    for part in (body, body.rsplit(", ", 1)[-1]):  # "CPM: Compositional ..., framework": the appositive
        if _VAGUE.issuperset(map(str.lower, map(_BARE, part.split()))):  # C-level: no generator frame
            return True
    return False


def bad_start(line: str) -> bool:
    """True when the line starts as no headline would ("To exploit ...", "Code at ..."): `wrong-clause`."""
    return not line.endswith("?") and _BAD_START.match(line) is not None


def problems(line: str) -> list[str]:
    """Every rule tag the line breaks, in a fixed order; empty for a line no detector objects to."""
    found = []
    if ends_dangling(line):
        found.append("cut-mid-phrase")
    if has_ligature(line) or has_split_word(line):
        found.append("ligature")
    if acronym_only(line):
        found.append("acronym-only")
    if generic(line):
        found.append("generic")
    if bad_start(line):
        found.append("wrong-clause")
    return found


def fold_ligatures(text: str) -> str:
    """NFKC, but only for a text with a typographic ligature: five memchr scans cost less than NFKC."""
    if not text.isascii() and (  # isascii is O(1); an `or` chain makes no generator
        "\ufb00" in text or "\ufb01" in text or "\ufb02" in text or "\ufb03" in text or "\ufb04" in text
    ):
        return unicodedata.normalize("NFKC", text)
    return text


# "query complexityof Bayesian mechanisms": a space lost in extraction. The pattern starts with its literal,
# so the engine jumps between the "of"s; the word before is checked only at a match.
_GLUED: Final = re.compile(r"of(?<=[a-z]{4}of)\b")
# Noun endings no English word continues with "of" ("thereof" does not end so).
_NOUN_ENDS: Final = tuple(re.findall(r"\S+", "ity ion ment ness ance ence ure ies ers als ics ions ments"))


def _spaced(match: re.Match[str]) -> str:
    """ " of" where the word before ends as a noun; the glued word unchanged otherwise."""
    return " " + match.group(0) if match.string.endswith(_NOUN_ENDS, 0, match.start()) else match.group(0)


# What announces a question and says nothing itself: "Following natural question:", "Posing a question:".
_QUESTION_LABEL: Final = re.compile(
    r"(?i:(?:posing |asking |raising )?(?:an? |the )?(?:(?:following|natural|basic|different|foundational|"
    r"fundamental|simple|important|key|open|central|seemingly) )*question: )(?=\S[^?]{8,}\?$)"
)


def normalize(line: str) -> str:
    """A finished headline in NFKC ("ﬁ" -> "fi"), without LaTeX leftovers, line-break hyphens or other debris.

    "NAME: which does X" reads "NAME does X" (the name is what the clause was about), "Natural question: can
    X?" reads "Can X?", a word said twice in a row is said once, no space is left before a comma, no quotation
    mark without its pair, no "1)" without its "(", no "a" before a vowel, and a plain first word has its
    capital.

    Run on the short line, not the abstract: cheap, and it catches whatever the rules let through.
    """
    if not line.isascii():
        line = unicodedata.normalize("NFKC", line)
    if "emph" in line or "text" in line or "math" in line or "bf" in line:
        line = LATEX_LEFTOVER.sub("", line)
    if "- " in line:
        line = SPLIT_WORD.sub(r"\1\2", line)
    if line.count("of") > line.count(" of"):
        line = _GLUED.sub(_spaced, line)  # C-level counts first: most lines have only " of"
    if ": which " in line:
        line = _WHICH_AFTER_NAME.sub(r"\1 ", line, count=1)
    if "uestion: " in line:  # "Following natural question: can X?": the question, without what announced it
        label = _QUESTION_LABEL.match(line)
        line = capitalize(line[label.end() :]) if label is not None else line
    if " ," in line:  # "Attention-Augmented Network , to capture": the parenthesis before the comma went
        line = line.replace(" ,", ",")
    if ("“" in line or "”" in line) and line.count("“") != line.count("”"):
        line = capitalize(line.replace("“", "").replace("”", ""))  # "conditional game” to be played"
    if ")" in line and line.count(")") > line.count("("):
        line = capitalize(_ENUMERATOR.sub("", line))
    if " a " in line or "A " in line:
        line = _A_BEFORE_VOWEL.sub(lambda article: f"{article.group(1) or article.group(2)}n ", line)
    first = line.split(" ", 1)[0]  # "joint control variate": "Joint ..."; "f-MDP", "iFusion" keep their case
    if first.islower() and first.replace("-", "").isalpha():
        line = line[0].upper() + line[1:]
    return _without_doubled_words(line)


def _without_doubled_words(line: str) -> str:
    """ "learning algorithm algorithm": a kind said by the name and after it, once; "that that" stays."""
    words = line.split(" ")
    kept = [words[0]]
    for word in words[1:]:
        if word != kept[-1] or not word.isalpha() or word in ("that", "had"):
            kept.append(word)
    return line if len(kept) == len(words) else " ".join(kept)
