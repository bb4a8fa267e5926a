"""Which of the project's modules one keystroke in the search bar runs code in, from the key to the list.

Run by hand: `.venv/bin/python bench/keystroke_modules.py` prints the modules (in first-call order) of
`index/` and `tui/` whose functions run between pressing a letter in the search bar (after the index is
built and warmed) and the paper list showing the answer, in every thread.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import threading
from pathlib import Path
from types import FrameType
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from index.library import Library  # noqa: E402
from tui.app import make_app  # noqa: E402

SEEDS = REPO / "seeds"


def main() -> None:
    roots = (str(REPO / "index") + "/", str(REPO / "tui") + "/")
    seen: dict[str, None] = {}
    active = threading.Event()

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call" and active.is_set():
            name = frame.f_code.co_filename
            if name.startswith(roots) and name not in seen:
                seen[name] = None

    with tempfile.TemporaryDirectory() as tmp:
        library = Library.open([SEEDS], index_dir=Path(tmp) / "ix", data_dir=Path(tmp) / "data")
        library.build_index()
        library.warm_search()
        app = make_app(library, debounce=0, mark_read_delay=0)

        async def run() -> None:
            async with app.run_test(size=(140, 40)) as pilot:
                for _ in range(3):
                    await pilot.pause()
                    await app.workers.wait_for_complete()
                await pilot.press("slash", "g", "r", "a", "p")  # a query already running, as when typing
                for _ in range(3):
                    await pilot.pause()
                    await app.workers.wait_for_complete()
                active.set()
                await pilot.press("h")
                for _ in range(3):
                    await pilot.pause()
                    await app.workers.wait_for_complete()
                active.clear()

        threading.setprofile(profile)  # every thread Textual starts from here on, its workers' too
        sys.setprofile(profile)
        asyncio.run(run())
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
        library.close()
    modules = [str(Path(name).relative_to(REPO)) for name in seen]
    for name in modules:
        print(name)
    print(f"{len(modules)} modules")


if __name__ == "__main__":
    main()
