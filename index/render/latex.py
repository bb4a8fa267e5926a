"""pylatexenc's LaTeX-to-text conversion, adjusted to lose no word and to mark styles.

This module is the walk (the parser's context, the converter's node and math handling, `convert`);
what each macro becomes is in `latex_macros.py`.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Sequence
from typing import Any

from pylatexenc import latexwalker, macrospec
from pylatexenc.latex2text import LatexNodes2Text, get_default_latex_context_db

from index.render.latex_macros import DECLARATIONS, is_known, macro_text
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

# A style macro glued to the word it styled (`\emphcorrelation`, `\textpolylog`, `\emphde facto`): crawls
# lose the braces. A single letter or a capital (`\mathbbR`) is braced again before parsing (`damaged.py`).
_GLUED_STYLE = re.compile(
    r"(?:emph(?!as)|text(?:bf|it|rm|tt|sf|sc)?|math(?:rm|bf|it|sf|cal|bb)|operatorname)(?=[a-z]{2})"
)
_MATH_ENVS = {"equation", "equation*", "align", "align*", "gather", "gather*", "multline", "multline*"}
_MATH_ENVS |= {"eqnarray", "eqnarray*", "displaymath", "math", "flalign", "flalign*", "split"}


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
            if node.isNodeType(latexwalker.LatexMacroNode) and node.macroname in DECLARATIONS:
                style = DECLARATIONS[node.macroname]
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
        return not is_known(name) and self.latex_context.get_macro_spec(name) is None and name.isalpha()

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
        text = macro_text(self, name, node)
        if text is not None:
            return text
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
