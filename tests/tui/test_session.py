"""The end of a session, in process: the app's answer to `TerminalDriver.Ended`, the driver's input loop on a
dead pty, and the watcher pruning that keeps a long session's memory flat. tests/e2e/test_sessions.py does the
same with real terminals, tmux and ssh.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import tty
from collections.abc import Iterator

import pytest
from textual.app import App
from textual.drivers.headless_driver import HeadlessDriver
from textual.drivers.linux_driver import LinuxDriver
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from index.library import Library
from tests.tui.conftest import settle
from tests.tui.helpers import browse, reader
from tui import terminal, watchers

WATCHERS = "__watchers"


async def test_ended_saves_the_view_and_exits_with_the_signal_status(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("j", "j")
        selected = browse(app).paper_list.selected_id
        assert selected is not None and selected != library.session.get("selected")
        app.post_message(terminal.TerminalDriver.Ended("SIGHUP", terminal.HANGUP_EXIT))
        await settle(pilot)
    assert app.return_code == 129
    assert library.session.get("selected") == selected


def test_the_reader_runs_on_the_terminal_driver_where_textual_would_use_its_linux_driver() -> None:
    assert terminal.driver_class(LinuxDriver) is terminal.TerminalDriver
    assert terminal.driver_class(HeadlessDriver) is HeadlessDriver  # TEXTUAL_DRIVER and the like are kept


@pytest.fixture
def signals_kept() -> Iterator[None]:
    """The driver installs process-wide signal handlers; put the test process's own back afterwards."""
    kept = {
        signum: signal.getsignal(signum)
        for signum in (signal.SIGTSTP, signal.SIGCONT, *terminal.HANDLED_SIGNALS)
    }
    yield
    for signum, handler in kept.items():
        signal.signal(signum, handler)


@pytest.mark.usefixtures("signals_kept")
async def test_the_input_loop_ends_the_session_when_the_pty_closes() -> None:
    """Textual's own loop reads EOF from a hung-up tty forever (a spinning core); ours ends the session."""
    driver = terminal.TerminalDriver(App())
    master, slave = os.openpty()
    tty.setraw(slave)  # as the driver sets it: each byte is readable at once
    ended: list[tuple[str, int]] = []
    keys: list[object] = []
    driver.fileno = slave
    driver.end = lambda reason, code: ended.append((reason, code))  # type: ignore[method-assign]
    driver._silence = lambda: None  # type: ignore[method-assign]  # never redirect the test's own fds
    driver.process_message = keys.append  # type: ignore[method-assign]
    thread = threading.Thread(target=driver.run_input_thread, daemon=True)
    thread.start()
    try:
        os.write(master, b"j")
        deadline = time.monotonic() + 10
        while not keys and time.monotonic() < deadline:
            time.sleep(0.01)
        assert keys, "a key typed before the hangup should arrive"
        os.close(master)
        thread.join(timeout=2)
        assert not thread.is_alive(), "the input thread kept running on a closed pty"
        assert ended == [("terminal closed", terminal.HANGUP_EXIT)]
    finally:
        driver.exit_event.set()
        thread.join(timeout=2)  # before closing the fd: a reused fd number must never be read
        os.close(slave)
        driver.close()


async def test_pruning_drops_the_watchers_of_footer_keys_a_recompose_removed(library: Library) -> None:
    """textual#6666: each Footer recompose (every focus move) left its FooterKeys on the Footer's watchers."""
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for _ in range(5):
            await pilot.press("tab")
            await settle(pilot)
        footer = browse(app).query_one(Footer)
        entries = getattr(footer, WATCHERS)["compact"]
        live = len(footer.query(FooterKey))
        assert len(entries) > live, "Textual no longer leaks here: tui/watchers.py can go"
        assert watchers.prune(app) > 0
        assert len(entries) <= live
