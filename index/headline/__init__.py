"""One-line headlines for papers that have no title.

The modules of this package are compiled with mypyc when the package is installed (`hatch_build.py`), and
the compiled modules are used in place of their sources. In a source checkout an edited rule must take
effect at once, so when a source there is newer than the build, or PAPERS_PURE_PYTHON is set, every module
is loaded from its source: all of them, because compiled modules call each other directly, not through
the modules Python imported.

Module constants are annotated `Final` where a module has room for the import: compiled, a `Final` name is
a C static instead of a dict lookup at each use.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from importlib.util import spec_from_file_location
from pathlib import Path

HEADLINE_VERSION = 19
"""Bump whenever headline output changes: the search index caches headlines, and SCHEMA_VERSION folds this
in, so an index built by older headline code is rebuilt instead of showing its old headlines."""

PURE_PYTHON = "PAPERS_PURE_PYTHON"


class _SourcesFirst:
    """An import finder that answers for this package's modules with their `.py` files."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        source = self.folder / f"{name}.py"
        if package != __name__ or not source.is_file():
            return None
        return spec_from_file_location(fullname, source)


def _outdated(folder: Path) -> bool:
    """Whether a source checkout holds a compiled build older than one of its sources.

    Only in a checkout (beside `hatch_build.py`): an installer writes a wheel's files in any order.
    """
    if not (folder.parent.parent / "hatch_build.py").is_file():
        return False
    suffixes = tuple(EXTENSION_SUFFIXES)
    built = [path.stat().st_mtime for path in folder.iterdir() if path.name.endswith(suffixes)]
    return bool(built) and max(path.stat().st_mtime for path in folder.glob("*.py")) > min(built)


def is_compiled() -> bool:
    """Whether the headline rules run compiled: benchmarks print it, tests compare both ways."""
    from index.headline import synthesis

    return not (synthesis.__file__ or "").endswith(".py")


_folder = Path(__file__).resolve().parent
if os.environ.get(PURE_PYTHON) or _outdated(_folder):
    sys.meta_path.insert(0, _SourcesFirst(_folder))
