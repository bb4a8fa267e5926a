"""Build hook: compiles `index/headline/` with mypyc for every wheel, editable installs included.

Why: a headline is made for every paper when the index is built, by a few hundred small rules whose cost in
CPython is mostly bytecode dispatch. Compiled, they run as fast as the far simpler rules they replaced
(`bench/bench_headline.py`). The compiled modules sit beside their sources, so an editable install uses
them; `index/headline/__init__.py` falls back to the sources when they are newer than the build.

Without a working C compiler the package installs as pure Python: the same headlines, only slower. Set
PAPERS_PURE_PYTHON=1 to skip the compiler on purpose (a quick install while editing the rules).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PACKAGE = Path("index", "headline")
# The name of the shared library all compiled modules live in: inside the package, not at the top level
# of site-packages, so it installs and uninstalls with it.
GROUP = "index.headline.native"
# The same name as `index.headline.PURE_PYTHON`: a build hook cannot import the package it builds.
PURE_PYTHON = "PAPERS_PURE_PYTHON"
# Runs in a child process with the project as its working directory: build_ext --inplace writes each module
# beside its source. A bare Distribution reads no pyproject.toml, so setuptools never tries to understand
# the hatch project it is running inside.
_COMPILE = """
import sys
from mypyc.build import mypycify
from setuptools import Distribution

group, target, sources = sys.argv[1], sys.argv[2], sys.argv[3:]
modules = mypycify(sources, opt_level="3", group_name=group, target_dir=target)
dist = Distribution({"name": "papers-headline", "ext_modules": modules, "script_name": "hatch_build.py"})
build = dist.get_command_obj("build_ext")
build.inplace = True
build.build_temp = target
build.parallel = 2
dist.run_command("build_ext")
"""


class CompileHeadlines(BuildHookInterface):  # type: ignore[type-arg]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        for stale in _compiled(root):
            stale.unlink()  # a build from other sources, or for another Python: never shipped by mistake
        if os.environ.get(PURE_PYTHON):
            return
        sources = sorted(
            str(path.relative_to(root))
            for path in (root / PACKAGE).glob("*.py")
            if path.name != "__init__.py"  # it decides at import time whether the compiled modules are fresh
        )
        with tempfile.TemporaryDirectory() as target:
            done = subprocess.run(
                [sys.executable, "-c", _COMPILE, GROUP, target, *sources],
                cwd=root,
                env={**os.environ, "MYPY_CACHE_DIR": target},  # not the project's own mypy cache
                capture_output=True,
                text=True,
            )
        if done.returncode != 0:
            for partial in _compiled(root):
                partial.unlink()
            last = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()[-1]
            print(
                f"papers: index/headline was not compiled ({last}); installing it as pure Python, which "
                "makes the same headlines more slowly. Install a C compiler and reinstall to compile it.",
                file=sys.stderr,
            )
            return
        if version == "editable":
            return  # the project folder is on sys.path: the modules are used where they were built
        build_data["pure_python"] = False
        build_data["infer_tag"] = True  # a wheel for this Python and platform only
        for path in _compiled(root):  # (ignored by git, so not in the wheel unless named)
            build_data["force_include"][str(path)] = str(path.relative_to(root))


def _compiled(root: Path) -> list[Path]:
    """The extension modules in the package: the compiled rules and the shared library they all use."""
    return sorted(path for path in (root / PACKAGE).iterdir() if path.suffix in (".so", ".pyd"))
