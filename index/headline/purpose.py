"""What a line too long for all it says keeps: the task a contribution is for, not what frames it."""

from __future__ import annotations

import re
from typing import Final

from index.headline.phrase import KINDS, third_person

# "RL algorithms with sublinear regret and zero violation for non-stationary CMDPs": the kind of thing,
# then how good it is, then what it is for. Fitting keeps the prefix and loses the task; the task says more
# than the qualities, so the line is said as "RL algorithms for non-stationary CMDPs" instead.
_KINDS_SAID: Final = KINDS | {"scheme", "strategy", "procedure", "estimator", "architecture", "solver"}
# With their plurals: "algorithms", "approaches", "strategies".
_KINDS: Final = _KINDS_SAID | frozenset(map(third_person, _KINDS_SAID))
# How good or how built a thing is, after its kind: from a literal space, so the engine jumps to candidates.
_QUALIFIED: Final = re.compile(r" (?:with|that|which|achieving|having|based|under|using) ")
# " to recognize X", " to better fuse X": a purpose, unless the word before asks for its "to" ("able to").
_AIM: Final = re.compile(r" to (?=(?:[a-z]+ly )?[a-z]{3,} [a-z])")
_TAKES_TO: Final = frozenset(
    re.findall(r"\S+", "ability able way order due need similar close equal respect compared up according")
)
_NOT_VERBS: Final = frozenset(
    re.findall(r"\S+", "the this these those their its our such each all any both new")
)
_NOUN_ENDINGS: Final = tuple(re.findall(r"\S+", "tion sion ment ness ity ing ed al ic ous ive y s er"))
_OWN_AIM: Final = re.compile(r" (?:that|which|who|where|whose) |ed ")
_NOT_A_TASK: Final = re.compile(
    r"(?:this|these|those|such|each|all|any|both|other|it|them|the first|example|instance|free)\b"
)


def for_what(line: str, max_len: int) -> str:
    """The line without the qualities between its kind and its "for" task, when the whole does not fit.

    Empty when the line fits, or has no kind qualified before a "for": then fitting it as it is is best. A
    bare kind ("algorithm that leverages X to design a policy for Y") is left whole: Y may be the policy's.
    """
    if len(line) <= max_len:
        return ""
    task = line.find(" for ", 10, 210)
    if task < 0:
        aimed = " to " in line and (" with " in line or " using " in line or " based " in line)
        return _for_aim(line) if aimed else ""  # the qualities _for_aim drops: str scans before a regex
    if len(line) - task < 11:
        return ""
    for quality in _QUALIFIED.finditer(line, 3, min(task, 85)):
        space = line.rfind(" ", 0, quality.start())
        if space > 0 and line[space + 1 : quality.start()].rstrip(",") in _KINDS:
            if not 5 < task - quality.end() < 125 or _NOT_A_TASK.match(line, task + 5) is not None:
                return ""
            if ";" in line[:task] or ":" in line[:task] or "(" in line[:task]:
                return ""  # a list, a label or an aside: the "for" may belong to any part of it
            return line[: quality.start()].rstrip(",") + line[task:]
    return ""


def _for_aim(line: str) -> str:
    """ "network with X and Y to recognize Z" -> "network to recognize Z": what it is for, said with "to"."""
    for quality in _QUALIFIED.finditer(line, 3, 85):
        space = line.rfind(" ", 0, quality.start())
        if space > 0 and line[space + 1 : quality.start()].rstrip(",") in _KINDS:
            if quality.group(0) not in (" with ", " using ", " based "):
                return ""  # "model that learns to X": the aim is what it learns, not what the model is for
            task = _aim(line, quality.end())
            if task < 0 or len(line) - task < 11 or _OWN_AIM.search(line, quality.end(), task):
                return ""  # "based on a model [that is] trained to predict X": the aim is the inner one's
            if not 5 < task - quality.end() < 125 or _NOT_A_TASK.match(line, task + 4) is not None:
                return ""
            if ";" in line[:task] or ":" in line[:task] or "(" in line[:task]:
                return ""
            return line[: quality.start()].rstrip(",") + line[task:]
    return ""


def _aim(line: str, start: int) -> int:
    """Where the first " to <verb>" purpose after `start` begins in the line, or -1."""
    for match in _AIM.finditer(line, start, 210):
        verb = line[match.end() : line.find(" ", match.end())]
        if verb.endswith("ly"):  # "to dynamically recognize": the verb follows its adverb
            verb = line[match.end() + len(verb) + 1 : line.find(" ", match.end() + len(verb) + 1)]
        if verb in _NOT_VERBS or verb.endswith(_NOUN_ENDINGS):
            continue  # "applications to natural language generation": a preposition, not a purpose
        if line[line.rfind(" ", 0, match.start()) + 1 : match.start()] not in _TAKES_TO:
            return match.start()
    return -1


# "Series of learning algorithms and theoretical guarantees for ...": the collective noun counts what the
# paper gives and "idea of", "arguments for" frame it; what is given is the rest. Dropped only when the
# line does not fit, where the room goes to what the things are for.
_FRAME: Final = re.compile(
    r"^(?:(?:a|an|the)\s+)?(?:(?:whole|new|broad|large|rich|general)\s+)?(?:series|class|family|set|"
    r"collection|variety|range|suite|number|idea|notion|arguments?)\s+(?:of|for)\s+(?:(?:a|an|the)\s+)?"
    r"(?=[\w-]{3,}\s+\S)"
)


def without_frame(line: str, max_len: int) -> str:
    """The line without a leading "series of" or "the idea of", when the whole does not fit; else empty."""
    if len(line) <= max_len or (line.find(" of ", 0, 40) < 0 and line.find(" for ", 0, 40) < 0):
        return ""  # two str scans of the start skip the pattern for nearly every line
    match = _FRAME.match(line)
    if match is None:
        return ""
    rest = line[match.end() :]  # "class of f-divergences": "f-divergences", capitalized as any headline
    again = _FRAME.match(rest) if len(rest) > max_len else None  # "arguments for a family of models"
    return rest if again is None else rest[again.end() :]
