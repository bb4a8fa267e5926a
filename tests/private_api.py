"""Reading a library's private names off its source: what the adapter guards (test_whoosh_private.py,
tests/tui/test_textual_private.py) compare our modules against."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path


def names(node: ast.AST) -> list[str]:
    """The names `node` defines (a function, a class, an assignment) or reads as an attribute."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
        return [node.id]
    return []


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


@cache
def private_names(package: Path) -> frozenset[str]:
    """Every single-underscore name the package's own source (under `package`) defines or reads."""
    found: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            found.update(name for name in names(node) if private(name))
    return frozenset(found)


def private_reads(tree: ast.AST, theirs: frozenset[str], skip: frozenset[str] = frozenset()) -> set[str]:
    """Private attributes read off an object in `tree` (as `value.attr`) that the module does not define
    itself but the library does (`theirs`); reads off the objects named in `skip` (`os`) are left out."""
    own = {
        name
        for node in ast.walk(tree)
        if not isinstance(node, ast.Attribute) or isinstance(node.ctx, ast.Store)
        for name in names(node)
    }
    return {
        f"{ast.unparse(node.value)}.{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and ast.unparse(node.value) not in skip
        and private(node.attr)
        and node.attr not in own
        and node.attr in theirs
    }
