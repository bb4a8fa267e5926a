"""The headline rules compiled by mypyc at install (hatch_build.py) make exactly the headlines their sources
make, and a source edited after the build is what runs, never the stale build."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from index.headline import PURE_PYTHON, is_compiled
from tests.conftest import REPO
from tests.unit.test_headline import CORPUS, corpus_grading_sample, seed_abstracts

# In CI the machine has a C compiler, so an install that fell back to pure Python is a broken build hook.
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not is_compiled() and not os.environ.get("CI"),
        reason="index/headline is not compiled here (no C compiler at install, or a source edited since)",
    ),
]

_HEADLINES = """
import json, sys
from index.headline import is_compiled
from index.headline.synthesis import headline
plains = json.loads(sys.stdin.read())
print(json.dumps([is_compiled(), [headline(plain) for plain in plains]]))
"""
_COMPILED = "import json; from index.headline import is_compiled; print(json.dumps(is_compiled()))"


def _abstracts() -> list[str]:
    """Every seed abstract, and where the corpus is every 20th paper of it: all venues, some 2,800."""
    return seed_abstracts() + (corpus_grading_sample(count=2800) if CORPUS.is_dir() else [])


def _run(code: str, cwd: Path, *, pure: bool, stdin: str = "") -> object:
    env = {key: value for key, value in os.environ.items() if key != PURE_PYTHON}
    if pure:
        env[PURE_PYTHON] = "1"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return json.loads(done.stdout)


def test_compiled_and_pure_headlines_are_the_same() -> None:
    plains = _abstracts()
    compiled, from_build = _run(_HEADLINES, REPO, pure=False, stdin=json.dumps(plains))  # type: ignore[misc]
    pure, from_sources = _run(_HEADLINES, REPO, pure=True, stdin=json.dumps(plains))  # type: ignore[misc]
    assert (compiled, pure) == (True, False)
    differ = [(p[:60], a, b) for p, a, b in zip(plains, from_build, from_sources, strict=True) if a != b]
    assert not differ, f"{len(differ)} of {len(plains)} headlines differ, compiled vs source: {differ[:3]}"


def test_a_source_edited_after_the_build_runs_instead_of_the_build(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    shutil.copytree(REPO / "index", checkout / "index", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(REPO / "hatch_build.py", checkout)  # what marks a source checkout
    assert _run(_COMPILED, checkout, pure=False) is True
    assert _run(_COMPILED, checkout, pure=True) is False
    edited = checkout / "index" / "headline" / "fit.py"
    later = time.time() + 5
    os.utime(edited, (later, later))
    assert _run(_COMPILED, checkout, pure=False) is False


def test_an_installed_package_trusts_its_build_whatever_the_file_times(tmp_path: Path) -> None:
    """An installer writes a wheel's files in any order: outside a checkout file times decide nothing."""
    installed = tmp_path / "site-packages"
    shutil.copytree(REPO / "index", installed / "index", ignore=shutil.ignore_patterns("__pycache__"))
    later = time.time() + 5
    os.utime(installed / "index" / "headline" / "fit.py", (later, later))
    assert _run(_COMPILED, installed, pure=False) is True
