"""What each LaTeX macro becomes: symbols, spacing, styles, citations, links, roots and fractions.

The converter (`latex.py`) walks the parse tree and asks here first, so a macro's meaning is one table row or
one handler, and only macros no table knows fall back to pylatexenc's own rendering.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from index.models import SpanStyle
from index.render.markup import CLOSE, OPEN
from index.render.math_scripts import script

if TYPE_CHECKING:  # handlers call back into the converter that calls them; the type alone is needed here
    from index.render.latex import Converter

_SYMBOLS = {
    "LaTeX": "LaTeX",
    "TeX": "TeX",
    "S": "§",
    "P": "¶",
    "copyright": "©",
    "|": "‖",
    "argmin": "argmin",
    "argmax": "argmax",
    "arg": "arg",
    "det": "det",
    "Pr": "Pr",
    "gets": "←",
    "iff": "⟺",
    "implies": "⟹",
    "ddagger": "‡",
    "models": "⊨",
    "bot": "⊥",
    "ne": "≠",
    "eg": "e.g.",
    "ie": "i.e.",
    "etc": "etc.",
    "wrt": "w.r.t.",
    "iid": "i.i.d.",
    "item": " • ",
    "maketitle": "",
    "noindent": "",
    "centering": "",
}
_SPACES = {",", ";", ":", " ", "\\", "quad", "qquad", "enspace", "thinspace", "newline", "linebreak", "par"}
_NOTHING = {
    "!",
    "/",
    "-",
    "@",
    "hspace",
    "vspace",
    "hskip",
    "vskip",
    "kern",
    "smallskip",
    "medskip",
    "bigskip",
}
DECLARATIONS: dict[str, SpanStyle] = {
    "bf": "bold",
    "bfseries": "bold",
    "it": "italic",
    "itshape": "italic",
    "em": "italic",
    "sl": "italic",
    "tt": "code",
    "ttfamily": "code",
}
_STYLED: dict[str, SpanStyle] = {
    "textbf": "bold",
    "textit": "italic",
    "emph": "italic",
    "textsl": "italic",
    "texttt": "code",
    "verb": "code",
}
_PLAIN = {"text", "mbox", "hbox", "fbox", "textrm", "textnormal", "textup", "textmd", "textsc", "textsf"}
_PLAIN |= {"mathrm", "operatorname", "title", "author", "date", "underline", "uline", "boldsymbol", "bm"}
_PLAIN |= {"section", "subsection", "subsubsection", "paragraph", "chapter", "label", "textcolor"}
_CITES = {"cite", "citet", "citep", "citealt", "citealp", "citeauthor", "citeyear", "citeyearpar", "citenum"}
_CITES |= {"nocite", "citetext", "citepalias", "citetalias", "parencite", "textcite", "autocite"}
_REFS = {"ref", "autoref", "cref", "Cref", "pageref", "nameref"}
_ROOTS = {"2": "√", "3": "∛", "4": "∜"}


def _verbatim_arg(node: Any) -> str:
    """The argument exactly as written, for URLs whose `~`, `%` and `_` are not markup."""
    raw = str(node.latex_verbatim())
    if raw.startswith("{") and raw.endswith("}"):
        raw = raw[1:-1]
    for escaped in ("%", "&", "_", "#", "$", "~"):
        raw = raw.replace("\\" + escaped, escaped)
    return raw


def _wrap(text: str) -> str:
    """Parenthesize a fraction part unless it is one symbol or number, so 1/(n+1) keeps its meaning."""
    text = text.strip()
    return text if len(text) <= 1 or text.replace(".", "").isalnum() else f"({text})"


def _styled(conv: Converter, node: Any) -> str:
    name = str(node.macroname)
    body = node.nodeargd.verbatim_text if name == "verb" else conv.args_text(node)
    return f"{OPEN[_STYLED[name]]}{body}{CLOSE[_STYLED[name]]}"


def _cite(conv: Converter, node: Any) -> str:
    keys = ", ".join(k.strip() for k in conv.args_text(node, 3).split(",") if k.strip())
    pre, post = (conv._groupnodecontents_to_text(a) for a in node.nodeargd.argnlist[1:3])
    if pre and not post:
        pre, post = "", pre  # natbib: a single optional argument is the postnote
    inner = ", ".join(part for part in (f"{pre} {keys}".strip(), post) if part)
    return f" {OPEN['cite']}[{inner}]{CLOSE['cite']}"


def _upright(conv: Converter, node: Any) -> str:
    return conv.upright_text(node)


def _args(conv: Converter, node: Any) -> str:
    return conv.args_text(node)


def _handler(name: str) -> Callable[[Converter, Any], str] | None:
    """How a macro of one of the known kinds becomes text (None: pylatexenc's own way)."""
    if name in _STYLED:
        return _styled
    if name in _PLAIN:
        return _upright
    if name in _CITES:
        return _cite
    if name in _REFS:
        return _args
    return _HANDLERS.get(name)


def _href(conv: Converter, node: Any) -> str:
    url = _verbatim_arg(node.nodeargd.argnlist[1])
    label = conv._groupnodecontents_to_text(node.nodeargd.argnlist[2]).strip()
    link = f"{OPEN['link']}{label or url}{CLOSE['link']}"
    return link if not label or label == url else f"{link} ({url})"


def _url(conv: Converter, node: Any) -> str:
    return f"{OPEN['link']}{_verbatim_arg(node.nodeargd.argnlist[0])}{CLOSE['link']}"


def _sqrt(conv: Converter, node: Any) -> str:
    degree = conv._groupnodecontents_to_text(node.nodeargd.argnlist[0]).strip()
    root = _ROOTS.get(degree or "2") or script(degree, "^") + "√"
    return root + _wrap(conv._groupnodecontents_to_text(node.nodeargd.argnlist[1]))


def _frac(conv: Converter, node: Any) -> str:
    args = [conv._groupnodecontents_to_text(arg) for arg in node.nodeargd.argnlist if arg is not None]
    return f"{_wrap(args[-2])}/{_wrap(args[-1])}"


def _binom(conv: Converter, node: Any) -> str:
    args = [conv._groupnodecontents_to_text(arg).strip() for arg in node.nodeargd.argnlist if arg is not None]
    return f"C({args[-2]}, {args[-1]})"


def _scripted(marker: str) -> Callable[[Converter, Any], str]:
    return lambda conv, node: script(conv.args_text(node), marker)


def _double_struck(conv: Converter, node: Any) -> str:
    text = conv.args_text(node)
    return "𝟙" if text.strip() == "1" else text


_HANDLERS: dict[str, Callable[[Converter, Any], str]] = {
    "href": _href,
    "url": _url,
    "sqrt": _sqrt,
    "frac": _frac,
    "dfrac": _frac,
    "tfrac": _frac,
    "nicefrac": _frac,
    "binom": _binom,
    "textsuperscript": _scripted("^"),
    "textsubscript": _scripted("_"),
    "mathds": _double_struck,
    "mathbbm": _double_struck,
    "eqref": lambda conv, node: f"({conv.args_text(node)})",
}


def is_known(name: str) -> bool:
    """Whether a table says what `\\name` becomes; the converter reads a macro nothing knows as a word."""
    known = name in _SYMBOLS or name in _SPACES or name in _NOTHING or name in _PLAIN
    return known or name in _STYLED or name in _CITES or name in _REFS or name in _HANDLERS


def macro_text(conv: Converter, name: str, node: Any) -> str | None:
    """The text `\\name` becomes, or None when no table knows it and pylatexenc's own way applies.

    Args:
        conv: the converter walking the abstract, whose text helpers the handlers use for arguments.
        name: the macro's name, without the backslash.
        node: the macro's parsed node, with its arguments.

    Returns:
        The macro's text with style marks, or None.
    """
    if name in _SYMBOLS:
        return _SYMBOLS[name]
    if name in _SPACES:
        return " "
    if name in _NOTHING:
        return ""
    handler = _handler(name)
    if handler is not None:
        return handler(conv, node)
    return None
