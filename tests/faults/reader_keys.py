"""`python -m tests.faults.reader_keys [papers options] "KEYS"`: the reader as `papers` starts it (options,
config, `Library.open`), driven by `App.run_test()` pressing KEYS (space-separated, then `q`).

Prints one JSON line of what the user saw: the notices at start and after each key, the status line, and
the exit code. A separate process, so a test can run it as another user (tests/faults/conftest.py).
"""

from __future__ import annotations

import asyncio
import json
import sys

from textual.widgets._toast import Toast

from index.cli.main import main
from index.library import Library
from tests.tui.conftest import settle
from tests.tui.helpers import status_text
from tui.app import PapersApp, make_app


def _shown(app: PapersApp) -> list[str]:
    """Each notice as its toast draws it (markup parsed or not, as the notice says): the text on screen, or
    the error that drawing it raises (a headless run may not draw a toast posted before the first screen)."""
    shown = []
    for told in app._notifications:
        try:
            shown.append(Toast(told).render().plain)  # type: ignore[union-attr]
        except Exception as error:
            shown.append(f"{type(error).__name__}: {error}")
    return shown


async def _drive(app: PapersApp, keys: list[str]) -> dict[str, object]:
    seen: dict[str, object] = {}
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        seen["start"] = [str(told.message) for told in app._notifications]
        seen["drawn"] = _shown(app)
        seen["status"] = status_text(app)
        for key in keys:
            app.clear_notifications()
            await pilot.press(key)
            await settle(pilot)
            seen[key] = [str(told.message) for told in app._notifications]
        await pilot.press("q")
        await settle(pilot)
    seen["exit"] = app.return_code
    return seen


def run(library: Library, keys: list[str]) -> int:
    app = make_app(library, debounce=0, mark_read_delay=0.3, theme=library.config.theme)
    seen = asyncio.run(_drive(app, keys))
    print(json.dumps(seen))
    return app.return_code or 0


if __name__ == "__main__":
    pressed = sys.argv[-1].split()
    sys.exit(main(sys.argv[1:-1], reader=lambda library: run(library, pressed)))
