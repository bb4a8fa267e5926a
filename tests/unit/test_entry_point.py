"""`papers` is the reader's entry point; the core command line works alone and never reaches for the UI."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

from tests.conftest import REPO, SEEDS, run_papers


def test_the_core_cli_without_a_subcommand_prints_help_instead_of_importing_the_reader() -> None:
    result = run_papers()
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: papers")


def test_the_papers_command_is_the_core_cli_opening_the_declared_reader() -> None:
    """The core finds the reader through packaging metadata: it never imports the UI, nor the UI the CLI."""
    (script,) = [ep for ep in entry_points(group="console_scripts") if ep.name == "papers"]
    assert script.value == "index.cli.main:papers"
    (reader,) = entry_points(group="papers.reader")
    assert reader.value == "tui.launch:run_reader"


def test_python_m_tui_runs_the_same_command_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tui", "stats", "--json"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert '"papers": 49' in result.stdout


def test_listings_before_the_subcommand_does_not_swallow_it() -> None:
    """`papers --listings DIR starred --json` once read `starred` and `--json` as listing paths."""
    result = run_papers("--listings", str(SEEDS), "--listings", str(SEEDS), "stats", "--json")
    assert result.returncode == 0, result.stderr
    assert '"papers": 49' in result.stdout
    several = run_papers("stats", "--json", "--listings", *(str(p) for p in sorted(SEEDS.glob("*.txt"))[:2]))
    assert several.returncode == 0, several.stderr
    assert '"listings": 2' in several.stdout


READER_FRAME_RATE = """
import sys
import types
from index.cli.main import papers

class Recorder:
    return_code = 0
    async def run_async(self):
        from textual import constants
        print("fps", constants.MAX_FPS)

fake = types.ModuleType("tui.app")  # the real one would import Textual before the launcher sets it up
fake.make_app = lambda library, **options: Recorder()
sys.modules["tui.app"] = fake
sys.exit(papers(sys.argv[1:]))
"""


def test_the_reader_paints_at_up_to_120_frames_unless_the_user_says(tmp_path: Path) -> None:
    """A search keystroke paints two frames, each waiting for a slot of Textual's frame clock (tui/launch.py
    FRAME_RATE); the user's own TEXTUAL_FPS is kept."""
    argv = [sys.executable, "-c", READER_FRAME_RATE, "--listings", str(SEEDS), "--data-dir", str(tmp_path)]
    argv += ["--index-dir", str(tmp_path / "index")]
    for given, expected in ((None, 120), ("30", 30)):
        env = {key: value for key, value in os.environ.items() if key != "TEXTUAL_FPS"}
        env.update({"TEXTUAL_FPS": given} if given else {})
        result = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        assert f"fps {expected}" in result.stdout
