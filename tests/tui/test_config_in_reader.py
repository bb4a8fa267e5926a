"""The config file's reader settings (keymap by binding id, default theme) reach the running app."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from index.config import load_config
from index.library import Library
from tests.conftest import REPO
from tests.tui.conftest import settle
from tests.tui.helpers import reader
from tui.app import binding_ids, declared_bindings


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


def _ids_in_source() -> list[str]:
    """The `id=` of every `Binding(...)` written in tui/, read from the source rather than the classes."""
    found = []
    for path in sorted((REPO / "tui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Binding":
                found += [
                    k.value.value
                    for k in node.keywords
                    if k.arg == "id" and isinstance(k.value, ast.Constant)
                ]
    return found


def test_every_binding_id_is_collected_from_its_class_and_unique() -> None:
    """Every id written in tui/ is remappable (none left out, as triage's and the facet panel's once were),
    and each names one binding of one class, so a keymap entry means one thing."""
    in_source = _ids_in_source()
    declared = [binding_id for binding_id, _owner, _binding in declared_bindings()]
    assert len(in_source) > 60
    assert sorted(declared) == sorted(in_source)
    assert len(set(declared)) == len(declared), [i for i in declared if declared.count(i) > 1]
    assert {"triage.star", "triage.later", "triage.down", "facets.close", "facets.up"} <= binding_ids()


async def test_every_binding_id_is_accepted_by_the_keymap(library: Library) -> None:
    """Each id, given a key of its own, is taken as known: no "unknown id" notice names any of them."""
    ids = sorted(binding_ids())
    keymap = {binding_id: f"ctrl+shift+f{number}" for number, binding_id in enumerate(ids, 1)}
    app = reader(library, keymap=keymap)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        messages = [notification.message for notification in app._notifications]
        assert not any("unknown" in message for message in messages), messages


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_remap_onto_a_key_in_use_warns_once_naming_both(
    library: Library, size: tuple[int, int]
) -> None:
    """The README's own example takes `f` from the facets; `j` from the list's moving key. Each pair is named
    once, however often the browse screen comes back."""
    app = reader(library, keymap={"browse.star": "f", "browse.read": "j", "list.open": "space"})
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        told = [notification.message for notification in app._notifications]
        assert len(told) == 1, told
        assert "browse.star = 'f' takes f, which browse.facets also uses" in told[0]
        assert "browse.read = 'j' takes j, which list.down also uses" in told[0]
        # The list's Enter key moved to space, which the detail pane (a sibling, never focused at once) pages
        # with: no clash.
        assert "list.open" not in told[0]
        app.clear_notifications()
        await pilot.press("question_mark", "escape")
        await settle(pilot)
        assert not [notification.message for notification in app._notifications]


async def test_a_remap_that_takes_a_free_key_says_nothing(library: Library) -> None:
    app = reader(library, keymap={"browse.star": "z"})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert not [notification.message for notification in app._notifications]
        paper_id = library.papers[0].id
        await pilot.press("z")
        await pilot.pause()
        assert paper_id in library.marks.starred
