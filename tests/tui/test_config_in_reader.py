"""The config file's reader settings (keymap by binding id, default theme) reach the running app."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from index.config import load_config
from index.library import Library
from tests.conftest import REPO
from tests.tui.conftest import settle
from tests.tui.helpers import reader


async def test_keymap_from_config_remaps_star_and_names_unknown_ids(library: Library, tmp_path: Path) -> None:
    config_file = tmp_path / "config.toml"
    config_file.write_text('theme = "textual-light"\n[keymap]\n"browse.star" = "f"\n"no.such" = "x"\n')
    config = load_config(user_file=config_file, site_file=tmp_path / "absent.toml")
    app = reader(library, theme=config.theme, keymap=config.keymap)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.theme == "textual-light"
        paper_id = library.papers[0].id
        await pilot.press("f")
        await pilot.pause()
        assert paper_id in library.marks.starred
        messages = [notification.message for notification in app._notifications]
        assert any("no.such" in message for message in messages), messages


def test_every_binding_id_is_unique_so_a_keymap_entry_means_one_thing() -> None:
    probe = (
        "from tui.app import PapersApp, binding_ids; from tui.browse.screen import BrowseScreen;"
        "print(len(binding_ids()))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) >= 30
