"""Headline style for a phrase too long to show: fewer words for the same meaning, before any cut."""

from __future__ import annotations

import itertools
import re
from typing import Final

from index.headline.phrase import ADVERB, base_form, gerund

# Headline style drops articles, possessives and an adverb before its verb ("correctly identifying").
# (On one-spaced text, starting with the literal space: a lookbehind would be 5x slower.)
# (Flat: each alternative starts with its literal, which the engine tests before entering it.)
_ARTICLE: Final = re.compile(r" (?:a|an|the|their(?! own\b)|its(?! own\b)) (?=[a-z])")
_ADVERB: Final = re.compile(
    r" (?!(?:early|family|supply|apply|reply|rely|assembly|anomaly|fully|partially)\b)"
    r"[a-z]{3,}ly(?= [a-z]+(?:ing|ed)\b)"
)
# What every `_ADVERB` match ends with, from a literal: the sub tries each space, this search jumps to "ly ".
_ADVERB_END: Final = re.compile(r"ly [a-z]+(?:ing|ed)\b")
# Wordy phrases with a short equivalent, tried before a cut drops words that carry meaning.
_WORDY: Final = {
    " is able to ": " can ",
    " are able to ": " can ",
    " in order to ": " to ",
    " large number of ": " many ",
    " variety of ": " various ",
    " taking advantages of ": " exploiting ",
    " taking advantage of ": " exploiting ",
    " takes advantage of ": " exploits ",
    " with respect to ": " w.r.t. ",
    " as well as ": " and ",
    " in presence of ": " under ",  # "in the presence of", its article already dropped
    " multiple ": " many ",
    " to handle ": " for ",
    " to address ": " for ",
    " to tackle ": " for ",
    " together with ": " with ",
    " various possible ": " possible ",
}
# A noun before "information" already names it; after an adjective ("semantic information") it stays.
_NOUN_INFORMATION: Final = re.compile(
    r"( (?:context|depth|motion|location|position|label|structure|geometry|texture|colou?r|shape|pose))"
    r" information\b"
)
# Rarer wordy phrases, apart: each alternative `_WORDY_PHRASES` has costs a try at every space.
_RANGE_OF: Final = {
    " to gain better understanding of ": " to understand ",  # the article is gone already
    " to gain deeper understanding of ": " to understand ",
    " to gain understanding of ": " to understand ",
    " on wide range of ": " on ",  # "evaluated on [a wide range of] tasks": on the tasks
    " across wide range of ": " across ",
    " wide range of ": " various ",  # "incorporating various inputs", as " variety of " says it
    " broad range of ": " various ",
}
_RANGE_OF_PHRASES: Final = re.compile("|".join(re.escape(long) for long in _RANGE_OF))
# "benefits of [employing] hyper-relational KGs": what the benefits come from is the object itself. Apart
# from `_WORDY`: its keys all start with " ", which the regex engine finds by a fast literal search.
_BENEFITS_OF: Final = re.compile(r"(enefits|dvantages) of (?:employing|using|utilizing) ")


def _by_first_letter(phrases: dict[str, str]) -> str:
    """ " (?:i(?:s able to |n order to )|a(?:re able to )|...)": after each space the engine tries only the
    phrases with the next letter, not all 17 (~25% fewer instructions). No phrase is the start of another,
    so at most one matches at a place: the matches are the plain alternation's."""
    groups: dict[str, list[str]] = {}
    for long in phrases:
        groups.setdefault(long[1], []).append(re.escape(long[2:]))
    alternatives = (f"{re.escape(first)}(?:{'|'.join(rests)})" for first, rests in groups.items())
    return " (?:" + "|".join(alternatives) + ")"


_WORDY_PHRASES: Final = re.compile(_by_first_letter(_WORDY))
# "model that learns X" is "model learning X" in headline style; never "that is", "that has" or a noun.
# No noun or adverb ending in "s" is read as a verb: "that its effectiveness" is no "effectivenesing".
# Nor is a plural noun that an auxiliary follows: "that agents are better off" is no "agenting".
_RELATIVE: Final = re.compile(
    r" (?:that|which) (?!(?:is|has|was|does|this|thus|its|as|us|always|perhaps|sometimes|besides|plus|news|"
    r"series|towards|afterwards|bias|[a-z]*(?:ss|us|is))\b)([a-z]{3,}s)\b"
    r"(?= (?!(?:can|cannot|could|are|were|will|would|may|might|must|should|have|do|we|they|you)\b)[a-z])"
)
_NOT_RELATIVE: Final = frozenset(
    re.findall(
        r"\S+",
        "in of by on to for with from such so under at through over into among between during upon within "
        "across against about behind beyond via",
    )
)
# Words whose "that" starts a clause with its own subject ("revealing that outliers", "the fact that
# metrics"), and verbs whose "which" asks a question ("determine which detectors"); not "learning", mostly a
# noun ("deep learning which weighs").
_SAYS_THAT: Final = frozenset(
    re.findall(
        r"\S+",
        "show shows showed shown showing find finds finding found prove proves proved proven proving "
        "demonstrate demonstrates demonstrated demonstrating reveal reveals revealed revealing observe "
        "observes observed observing note notes noted noting argue argues argued arguing suggest suggests "
        "suggested suggesting ensure ensures ensuring require requires required requiring assume assumes "
        "assuming claim claims claimed state states stated stating know known believe means meaning imply "
        "implies implied implying indicate indicates indicating confirm confirms confirming hypothesize "
        "fact idea notion observation evidence assumption hypothesis insight intuition finding conjecture",
    )
)
_ASKS_WHICH: Final = frozenset(
    re.findall(
        r"\S+",
        "determine determines determining decide decides deciding choose chooses choosing select selects "
        "selecting identify identifies identifying predict predicts predicting specify evaluate evaluates "
        "evaluating understand understands analyze analyzing analyse analysing estimate estimating infer "
        "inferring discover discovering know knowing ask asks asking",
    )
)
# The verb is no adverb: "which can then be used" is no "thenning", "which can not only" no "notting".
_CAN: Final = re.compile(
    rf" (?:that|which) (?:can|could|is able to|are able to) (?:{ADVERB} )?"
    rf"(?!{ADVERB}\b)([a-z]{{3,}})\b(?= [a-z])"
)
# Abbreviations every reader of the field knows, and adjective pairs where the first carries the idea:
# both buy the room that keeps a phrase whole ("VAE that learns disentangled representations ...").
_ABBREVIATIONS: Final = {
    "variational autoencoder": "VAE",
    "large language model": "LLM",
    "graph neural network": "GNN",
    "convolutional neural network": "CNN",
    "recurrent neural network": "RNN",
    "generative adversarial network": "GAN",
    "reinforcement learning": "RL",
    "natural language processing": "NLP",
    "machine learning": "ML",
    "deep neural network": "DNN",
    "neural network": "NN",
}
ABBREVIATIONS: Final = _ABBREVIATIONS  # what a headline may say in letters without spelling it out
# "dataset to investigate the interplay ...": a resource is on its subject, in fewer words.
_STUDIES: Final = re.compile(
    r"(?<![\w-])(dataset|corpus|study|testbed|suite) (?:to|for) (?:investigate|investigating|study|studying|"
    r"examine|examining|explore|exploring|analyze|analyzing|probe|probing)\b"
)
_ABBREVIABLE: Final = re.compile("|".join(_ABBREVIATIONS), re.IGNORECASE)
# In the order `_abbreviated` tests them:
_TERM_WORDS: Final = ("network", "learning", "language", "autoencoder")
_TERMS: Final = tuple(
    (long, short, next(index for index, word in enumerate(_TERM_WORDS) if word in long))
    for long, short in _ABBREVIATIONS.items()
)
# The terms in their order, by which of `_TERM_WORDS` a text has: no test per term whose word is absent.
_TERMS_WITH: Final = {
    present: tuple((long, short) for long, short, needed in _TERMS if present[needed])
    for present in itertools.product((False, True), repeat=len(_TERM_WORDS))
}
_ADJECTIVE_END: Final = r"(?:ed|al|ive|ic|ent|ant|ous|able|ible|ary|ful|ar)"
# (Only a participle first: "dominant and residual motions" names two kinds, and neither may go.)
_ADJECTIVE_PAIR: Final = re.compile(rf"\b([a-z]+ed) and ([a-z]+{_ADJECTIVE_END}) (?=[a-z])")


def _participial(match: re.Match[str]) -> str:
    """ "that decides" -> "deciding": the same modifier, five characters shorter."""
    before = match.string[max(0, match.start() - 14) : match.start()].rsplit(" ", 1)[-1].lower()
    asks = _SAYS_THAT if match.group(0)[1] == "t" else _ASKS_WHICH  # "showing that X", "deciding which X"
    if before in _NOT_RELATIVE or before in asks:  # "in which models", "showing that agents"
        return match.group(0)  # "which" or "that" starts a clause with its own subject
    doing = gerund(base_form(match.group(1)))
    return match.group(0) if doing == before else " " + doing  # not "learning learning"


def _abbreviated(text: str) -> str:
    """The phrase with known abbreviations ("VAE") and "disentangled [and interpretable] X" shortened."""
    lowered = text.lower()
    if len(lowered) != len(text):  # a letter whose lower case is longer: positions would not line up
        text = _ABBREVIABLE.sub(lambda m: _ABBREVIATIONS[m.group(0).lower()], text)
    else:
        # str.find per term with a word the text has (each term has one of those words, and a replacement,
        # in capitals, brings none in): the alternation tries every position
        present = (
            "network" in lowered,
            "learning" in lowered,
            "language" in lowered,
            "autoencoder" in lowered,
        )
        for long, short in _TERMS_WITH[present]:
            at = lowered.find(long)
            while at >= 0:
                if long == "machine learning" and text[at : at + len(long)].istitle():  # "Conference on ..."
                    at = lowered.find(long, at + len(long))
                    continue
                text = text[:at] + short + text[at + len(long) :]
                lowered = lowered[:at] + short + lowered[at + len(long) :]
                at = lowered.find(long, at + len(short))
    return _ADJECTIVE_PAIR.sub(_first_of_pair, text) if "ed and " in text else text


def _first_of_pair(match: re.Match[str]) -> str:
    """ "disentangled [and interpretable]", but never half of "labeled and unlabeled": opposites go whole."""
    first, second = match.groups()
    return match.group(0) if second.endswith(first[-4:]) and second != first else first + " "


# "approach that is suitable for X": the adjective, with what it is suitable for, modifies the noun itself.
_THAT_IS: Final = re.compile(
    r" (?:that|which) (?:is|are) (?=[a-z]{3,}(?:able|ible|ent|ant) (?:for|to|with|in) )"
)
_GRADE_ROOM: Final = 10  # what one grading word ("efficient") frees when `without_grading` drops it
# "explicitly and adaptively expands": two adverbs that only grade the verb after them.
_GRADING_PAIR: Final = re.compile(r" ([a-z]{3,}ly),? and ([a-z]{3,}ly) (?=[a-z])")


def _ungraded_pair(match: re.Match[str]) -> str:
    """Nothing for a pair of grading adverbs; any other pair ("linearly and quadratically") stays."""
    return " " if match.group(1) in _GRADING and match.group(2) in _GRADING else match.group(0)


def compressed(text: str, max_len: int) -> str:
    """The text in headline style: no articles, then no adverbs, wordy phrases or long known terms.

    Each step runs only while the text is still too long, and on no more of it than a cut can keep
    (plus room for what the steps remove): a text longer than that is never returned whole.
    """
    span = len(text) if len(text) <= max_len + 70 else max(text.rfind(" ", 0, max_len + 70), max_len)
    terse = _ARTICLE.sub(" ", text[:span])  # `text[span:]`, not seen by the steps, follows a text that fits
    # (Each step returns as soon as the text fits: one length test after each step that ran.)
    if len(terse) <= max_len:
        return terse + text[span:]
    if "ly " in terse:
        if _ADVERB_END.search(terse) is not None:  # (3 in 4 texts with "ly " have no "-ly" before a verb)
            terse = _ADVERB.sub("", terse)
            if len(terse) <= max_len:
                return terse + text[span:]
        if "ly and " in terse:
            terse = _GRADING_PAIR.sub(_ungraded_pair, terse)  # "[explicitly and adaptively] expands"
            if len(terse) <= max_len:
                return terse + text[span:]
    terse = _WORDY_PHRASES.sub(_short_wordy, terse)
    if " of " in terse:  # (in every phrase of the two below, and in only half the texts: four scans spared)
        if " range of " in terse or " understanding of " in terse:
            terse = _RANGE_OF_PHRASES.sub(_short_range_of, terse)
        if "enefits of " in terse or "dvantages of " in terse:
            terse = _BENEFITS_OF.sub(r"\1 of ", terse)
    if len(terse) <= max_len:
        return terse + text[span:]
    if " information" in terse:
        terse = _NOUN_INFORMATION.sub(r"\1", terse)  # "spatial context information": "spatial context"
        if len(terse) <= max_len:
            return terse + text[span:]
    if "that " in terse or "which " in terse:
        if " that is " in terse or " which is " in terse or " that are " in terse or " which are " in terse:
            # "approach [that is] suitable for X", when that nearly fits:
            adjectival = _THAT_IS.sub(" ", terse)  # a cut never falls before the adjective, but before "that"
            terse = adjectival if len(adjectival) <= max_len + _GRADE_ROOM else terse
        if " can " in terse or " could " in terse or " able to " in terse:  # "which can model": "modeling"
            terse = _CAN.sub(lambda match: " " + gerund(match.group(1)), terse)
        terse = _RELATIVE.sub(_participial, terse)
        if len(terse) <= max_len:
            return terse + text[span:]
    terse = _abbreviated(terse)
    nouns = (  # an `or` chain: no generator frame
        "dataset" in terse or "corpus" in terse or "study" in terse or "testbed" in terse or "suite" in terse
    )
    if nouns and (" to " in terse or " for " in terse):
        terse = _STUDIES.sub(r"\1 on", terse, count=1)
    return terse + text[span:] if len(terse) <= max_len else terse


def _short_wordy(match: re.Match[str]) -> str:
    return _WORDY[match.group(0)]


def _short_range_of(match: re.Match[str]) -> str:
    return _RANGE_OF[match.group(0)]


def without_grading(text: str, limit: int, split: list[str]) -> str:
    """The whole phrase without the adjectives that only grade it ("efficient", "novel"), if that fits.

    Every contribution claims to be effective or scalable; the noun and what follows it carry the paper.
    """
    spare = len(text) - limit
    if spare > 30 or (spare > 0 and _GRADING.isdisjoint(text.lower().split(" ")[1:-1])):
        return ""  # (a text too long, or without a grading word: the usual case, without a loop)
    words = split[:]  # `text.split(" ")`, the caller's, which it reads again
    for index in range(1, len(words) - 3):  # "explicitly and adaptively [expands]": the pair goes whole
        if words[index + 1] == "and" and words[index] in _GRADING and words[index + 2] in _GRADING:
            spare -= sum(len(word) + 1 for word in words[index : index + 3])
            words[index : index + 3] = ["", "", ""]
    for index in range(1, len(words) - 1):
        word = words[index]
        if not word:
            continue
        if spare <= 0:
            return " ".join(word for word in words if word)
        if (
            word.lower() in _GRADING
            and words[index + 1][:1].isalpha()
            and words[index + 1] not in ("and", "or")
            and words[index - 1].lower() not in _GRADED_BY - {"more", "most"}
        ):
            if words[index - 1].lower() in ("more", "most") and index > 1:  # "[more accurate] representation"
                spare -= len(words[index - 1]) + 1
                words[index - 1] = ""
            spare -= len(word) + 1
            words[index] = ""
            if spare <= 0:
                return " ".join(word for word in words if word)
    return ""


_GRADED_BY: Final = frozenset(
    ("more", "most", "less", "least", "very", "so", "as", "and", "or", "both", "highly")
)


_GRADING: Final = frozenset(
    re.findall(
        r"\S+",
        "efficient effective robust scalable simple practical powerful flexible lightweight accurate fast "
        "generic general novel new better improved superior strong stronger versatile elegant intuitive "
        "straightforward principled systematic comprehensive extensive rigorous careful effectively "
        "efficiently explicitly adaptively automatically successfully jointly simultaneously significantly "
        "substantially arbitrary",
    )
)


# "-ing" words that name a thing ("representation learning"), so a participle cut never starts at them.
GERUND_NOUNS: Final = frozenset(
    re.findall(
        r"\S+",
        "learning training modeling modelling reasoning understanding processing planning clustering "
        "embedding sampling matching pooling mapping labeling labelling tracking filtering encoding "
        "decoding computing programming forecasting rendering answering captioning parsing tagging "
        "editing hashing pruning fine-tuning finetuning pretraining pre-training denoising inpainting "
        "grounding prompting scheduling routing boosting ranking scoring tuning indexing thinking setting "
        "settings meaning string thing spring ceiling timing sibling opening ending beginning warning "
        "coupling smoothing during according something nothing everything anything bring king ring wing "
        "solving recognizing existing emerging underlying following promising growing increasing "
        "decreasing corresponding remaining surrounding interesting challenging missing leading competing "
        "evolving varying outstanding preceding ongoing resulting changing moving shifting converging "
        "diverging sliding rolling overlapping interacting",
    )
)


# "intrinsically parallel, lock-free and formally correct [language]": qualities listed before one noun,
# each an adjective by its form (after an adverb, hyphenated, or with an adjective's ending).
_QUALITY: Final = r"(?:[a-z]+ly [a-z]+|[a-z]+-[a-z]+|[a-z]+(?:al|ic|ive|ous|able|ible|ful|less|ent|ant))"
# From the literal ", " after the first quality, so the regex engine jumps between candidates; the first
# quality is then matched backwards from that comma. Lower case only after it: re.I costs 4x here.
_LISTED: Final = re.compile(rf", (?:{_QUALITY}, )*{_QUALITY},? (?:and|or) {_QUALITY} (?=[a-z][\w-]* )")
_FIRST_QUALITY: Final = re.compile(rf"(?:^| ){_QUALITY}$", re.I)


def without_listed(text: str, limit: int) -> str:
    """The whole phrase without a list of qualities before its noun, if that makes it fit; else empty.

    The qualities grade the noun; what follows it ("language based on concurrent constraint programming")
    says what the thing is, and a cut would lose it.
    """
    if len(text) > limit + 80 or (" and " not in text and " or " not in text):
        return ""
    match = _LISTED.search(text)
    first = _FIRST_QUALITY.search(text, max(0, match.start() - 40), match.start()) if match else None
    if match is None or first is None:
        return ""
    start = first.start() + (text[first.start()] == " ")
    if len(text) - (match.end() - start) > limit:
        return ""
    shorter = text[:start] + text[match.end() :]
    return shorter[:1].upper() + shorter[1:] if start == 0 else shorter
