"""The code-quality gates run as tests, so the one README test command checks them too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *cmd], cwd=REPO, capture_output=True, text=True, timeout=600)


def test_ruff_check_is_clean() -> None:
    result = _run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    result = _run("ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_strict_on_index() -> None:
    result = _run("mypy", "--strict", "index")
    assert result.returncode == 0, result.stdout + result.stderr


def test_index_imports_without_textual() -> None:
    """`index/` must work with Textual absent: block it at import time and import every module."""
    probe = r"""
import importlib, pkgutil, sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name == "textual" or name.startswith("textual.") or name == "tui" or name.startswith("tui."):
            raise ImportError(f"blocked: {name}")
        return None
sys.meta_path.insert(0, Block())
import index
for info in pkgutil.walk_packages(index.__path__, "index."):
    if not info.name.endswith(".__main__"):  # running it would be the CLI itself
        importlib.import_module(info.name)
assert not any(m == "textual" or m.startswith("textual.") for m in sys.modules), "textual was imported"
print("ok")
"""
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


@pytest.mark.slow
def test_mypy_strict_on_tui() -> None:
    result = _run("mypy", "--strict", "tui")
    assert result.returncode == 0, result.stdout + result.stderr


def test_import_contracts_hold() -> None:
    """The layers in ARCHITECTURE.md, as import-linter contracts in pyproject.toml."""
    result = subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports"))],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
