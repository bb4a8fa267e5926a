"""pylatexenc's LaTeX-to-text conversion, adjusted to lose no word and to mark styles."""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Sequence
from typing import Any

from pylatexenc import latexwalker, macrospec
from pylatexenc.latex2text import LatexNodes2Text, get_default_latex_context_db

from index.models import SpanStyle
from index.render.markup import CLOSE, OPEN, ligatures
from index.render.math_scripts import script

# Tolerant parsing reports every oddity through logging; untrusted abstracts would spray stderr otherwise.
_log = logging.getLogger("pylatexenc")
_log.addHandler(logging.NullHandler())
_log.propagate = False


class _ContextDb(macrospec.LatexContextDb):  # type: ignore[misc]
    """pylatexenc's macros and environments without "specials": its per-character specials lookup is half of
    its parsing time, and `~`, `--`, quotes are replaced on the text instead (see `markup.ligatures`)."""

    def test_for_specials(self, s: str, pos: int, parsing_state: Any = None) -> None:
        return None


def _walker_db() -> _ContextDb:
    default = latexwalker.get_default_latex_context_db()
    db = _ContextDb()
    # Macros the parser does not know take no arguments, so `\href{u}{t}` would read as `\href` then groups.
    db.add_context_category(
        "papers",
        macros=[
            macrospec.std_macro(name, spec)
            for name, spec in (
                ("href", "[{{"),
                ("operatorname", "*{"),
                ("textsuperscript", "{"),
                ("textsubscript", "{"),
                ("mathds", "{"),
                ("mathbbm", "{"),
                ("bm", "{"),
                ("textup", "{"),
                ("textnormal", "{"),
                ("textmd", "{"),
                ("uline", "{"),
                ("eqref", "{"),
                ("autoref", "{"),
                ("cref", "{"),
                ("Cref", "{"),
            )
        ],
    )
    for category in default.categories():
        db.add_context_category(
            category,
            macros=list(default.iter_macro_specs([category])),
            environments=list(default.iter_environment_specs([category])),
        )
    return db


_WALKER_DB = _walker_db()
_TEXT_DB = get_default_latex_context_db()

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
_DECLARATIONS: dict[str, SpanStyle] = {
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
# A style macro glued to the word it styled (`\emphcorrelation`, `\textpolylog`, `\emphde facto`): crawls
# lose the braces. A single letter or a capital (`\mathbbR`) is braced again before parsing (`damaged.py`).
_GLUED_STYLE = re.compile(
    r"(?:emph(?!as)|text(?:bf|it|rm|tt|sf|sc)?|math(?:rm|bf|it|sf|cal|bb)|operatorname)(?=[a-z]{2})"
)
_CITES = {"cite", "citet", "citep", "citealt", "citealp", "citeauthor", "citeyear", "citeyearpar", "citenum"}
_CITES |= {"nocite", "citetext", "citepalias", "citetalias", "parencite", "textcite", "autocite"}
_REFS = {"ref", "autoref", "cref", "Cref", "pageref", "nameref"}
_MATH_ENVS = {"equation", "equation*", "align", "align*", "gather", "gather*", "multline", "multline*"}
_MATH_ENVS |= {"eqnarray", "eqnarray*", "displaymath", "math", "flalign", "flalign*", "split"}
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


class Converter(LatexNodes2Text):  # type: ignore[misc]
    """One conversion of one abstract: LatexNodes2Text with a walker that never discards arguments."""

    def __init__(self) -> None:
        super().__init__(latex_context=_TEXT_DB, math_mode="text", keep_comments=True)
        self._math = 0
        self._depth = 0

    def convert(self, latex: str) -> str:
        """Parse `latex` tolerantly and return text with style marks; may raise on pathological input."""
        walker = latexwalker.LatexWalker(latex, latex_context=_WALKER_DB, tolerant_parsing=True)
        return self.nodelist_to_text(walker.get_latex_nodes()[0])

    def nodelist_to_text(self, nodelist: Sequence[Any]) -> str:
        self._depth += 1
        try:
            return self._nodes_text([node for node in nodelist if node is not None])
        finally:
            self._depth -= 1

    def _nodes_text(self, nodes: list[Any]) -> str:
        parts: list[str] = []
        closers: list[str] = []
        pending: str | None = None  # a `^` or `_` in math waiting for its operand
        for index, node in enumerate(nodes):
            previous = nodes[index - 1] if index else None
            if node.isNodeType(latexwalker.LatexCharsNode):
                if previous is not None and self._is_bare_macro_node(previous):
                    parts.append(previous.macro_post_space)
                if self._math:
                    text, pending = self._math_chars(node.chars, pending)
                    parts.append(text)
                else:
                    parts.append(ligatures(node.chars))
                continue
            if node.isNodeType(latexwalker.LatexMacroNode) and node.macroname in _DECLARATIONS:
                style = _DECLARATIONS[node.macroname]
                parts.append(OPEN[style])
                closers.append(CLOSE[style])
                continue
            following = nodes[index + 1] if index + 1 < len(nodes) else None
            text = self._node_text(node, following)
            if pending is not None:
                text, pending = script(text, pending), None
            elif self._is_bare_macro_node(node) and (
                not self._math or (text[-1:].isascii() and text[-1:].isalpha())
            ):
                # `y foo`, `\log x`: the space TeX eats after a macro name separates words here
                text += (
                    node.macro_post_space
                    if following is not None and not following.isNodeType(latexwalker.LatexCharsNode)
                    else ""
                )
            parts.append(text)
        if pending is not None:
            parts.append(pending)
        if self._depth > 1:
            parts.extend(reversed(closers))  # at the top, `\bf` lasts to the end of the abstract
        return "".join(parts)

    def _math_chars(self, chars: str, pending: str | None) -> tuple[str, str | None]:
        out: list[str] = []
        for char in chars:
            if pending is not None:
                if not char.isspace():
                    out.append(script(char, pending))
                    pending = None
            elif char in "^_":
                pending = char
            else:
                out.append(char)
        return "".join(out), pending

    def _node_text(self, node: Any, following: Any) -> str:
        if node.isNodeType(latexwalker.LatexMacroNode) and self._unknown(node.macroname):
            has_group = following is not None and following.isNodeType(latexwalker.LatexGroupNode)
            if (
                has_group
                and node.macro_post_space == ""
                and self._groupnodecontents_to_text(following).strip()
            ):
                return ""  # `\foo{bar}` reads as bar: the group that follows carries the text
            glued = _GLUED_STYLE.match(node.macroname)  # `\emphcorrelation`: a style lost its braces
            return str(node.macroname)[glued.end() :] if glued is not None else str(node.macroname)
        return str(self.node_to_text(node))

    def _unknown(self, name: str) -> bool:
        known = name in _SYMBOLS or name in _SPACES or name in _NOTHING or name in _PLAIN
        known = known or name in _STYLED or name in _CITES or name in _REFS or name in _HANDLERS
        return not known and self.latex_context.get_macro_spec(name) is None and name.isalpha()

    def chars_node_to_text(self, node: Any, textcol: int = 0) -> str:
        return ligatures(node.chars)

    def comment_node_to_text(self, node: Any) -> str:
        return f"%{node.comment}{node.comment_post_space}"

    def math_node_to_text(self, node: Any) -> str:
        self._math += 1
        try:
            content = self.nodelist_to_text(node.nodelist).strip()
        finally:
            self._math -= 1
        return f"{OPEN['math']}{content}{CLOSE['math']}" if content else ""

    def environment_node_to_text(self, node: Any) -> str:
        if node.environmentname in _MATH_ENVS:
            return self.math_node_to_text(node)
        if node.environmentname.endswith("matrix") or node.environmentname == "array":
            return str(super().environment_node_to_text(node))
        return f" {self.nodelist_to_text(node.nodelist)} "

    def args_text(self, node: Any, first: int = 0) -> str:
        """Text of every argument from `first` on: a macro's words are kept even when its meaning is lost."""
        args = node.nodeargd.argnlist if node.nodeargd is not None and node.nodeargd.argnlist else []
        return " ".join(self._groupnodecontents_to_text(arg) for arg in args[first:] if arg is not None)

    def macro_node_to_text(self, node: Any) -> str:
        name = str(node.macroname)
        try:
            return self._macro(name, node)
        except (IndexError, KeyError, TypeError, AttributeError, ValueError):
            return self.args_text(node) or name

    def _macro(self, name: str, node: Any) -> str:
        if name in _SYMBOLS:
            return _SYMBOLS[name]
        if name in _SPACES:
            return " "
        if name in _NOTHING:
            return ""
        handler = _handler(name)
        if handler is not None:
            return handler(self, node)
        if self.latex_context.get_macro_spec(name) is None:
            return self.args_text(node) or (name if name.isalpha() else "")
        return str(super().macro_node_to_text(node))

    def upright_text(self, node: Any) -> str:
        """A macro's text argument with no math styling inside it (`\\text{...}` within math)."""
        outer, self._math = self._math, 0
        try:
            return self.args_text(node)
        finally:
            self._math = outer


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


def _handler(name: str) -> Callable[[Converter, Any], str] | None:
    """How a macro of one of the known kinds becomes text (None: pylatexenc's own way)."""
    if name in _STYLED:
        return _styled
    if name in _PLAIN:
        return Converter.upright_text
    if name in _CITES:
        return _cite
    if name in _REFS:
        return Converter.args_text
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


def argspec(name: str) -> str | None:
    """How pylatexenc reads the arguments of `\\name` ("[{", "*{" ...), or None when it does not know it."""
    spec = _WALKER_DB.get_macro_spec(name)
    if spec is None:
        return None
    return str(getattr(spec.args_parser, "argspec", ""))


@functools.lru_cache(maxsize=8192)
def convert(latex: str) -> str:
    """Text with style marks for one piece of LaTeX; cached because `$k$` and friends recur constantly."""
    return Converter().convert(latex)
