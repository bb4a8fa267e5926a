"""Ending well when the terminal goes away: SIGHUP, SIGTERM or a dead tty save the session and exit in < 2 s.

What Textual's LinuxDriver does on its own when the terminal disappears (measured with tmux kill-server, a
killed ssh client, SIGHUP and SIGTERM):

- SIGHUP and SIGTERM keep their default action, so the process dies on the spot: nothing committed is lost,
  but the browse screen never saves the session memory (last query, filter, selected paper), and a SIGTERM
  leaves a live terminal in raw mode on the alternate screen.
- When SIGHUP does not reach the reader (ignored, as under `nohup` or `trap '' HUP`, or the reader is not in
  the terminal's foreground process group), the input thread reads EOF from the hung-up tty, treats it as
  "stdin is a pipe", and loops on `select` + `read` forever: one core at ~90 % until someone kills it.
- Output to the dead tty fails with EIO in the writer thread, which dies; 30 writes later its full queue
  would block the app's main thread for good.
- Every SIGCONT restarts application mode (new input and writer threads), and the kernel sends one to the
  session leader with every hangup (the reader is the leader under `ssh host papers`), so a reader that
  handles SIGHUP would start reading and writing the dead tty again.

`TerminalDriver` (chosen by `PapersApp.get_driver_class`) replaces those behaviours through the driver hooks
rather than by patching Textual: its own input loop treats EOF/EIO as "the terminal is gone", its output file
drops writes once the tty is dead, it handles SIGHUP/SIGTERM, and it resumes only after its own SIGTSTP.
Each of these ends the session the same way: a watchdog is armed, then the app is told (`Ended`) so that it
saves the session memory and exits normally. Stars and read marks are committed when they are made, and every
write is one SQLite transaction, so the watchdog's hard exit can drop at most the session memory, never half
of a change.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import threading
import time
from codecs import getincrementaldecoder
from collections.abc import Callable
from types import FrameType
from typing import TYPE_CHECKING, Any, TextIO, cast

from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver
from textual.message import Message

from tui.textual_private import LinuxDriverBase

if TYPE_CHECKING:
    from textual.app import App

EXIT_DEADLINE = 1.5
"""Seconds from the moment the session ends to a forced exit, whatever is still running (a search or an
index build in a worker thread, a save waiting on another process's lock, output blocked on a stalled link).
Under 2 s with room for the kernel and a loaded machine."""

HANGUP_EXIT = 128 + signal.SIGHUP
"""The exit status after a hangup or a vanished terminal, as a shell reports a process killed by SIGHUP."""

HANDLED_SIGNALS = (signal.SIGHUP, signal.SIGTERM)


def driver_class(default: type[Driver]) -> type[Driver]:
    """The driver the reader runs on: `TerminalDriver` where Textual would use its plain Linux driver.

    Args:
        default: the class Textual picked (TEXTUAL_DRIVER, the platform); anything else is kept as it is.

    Returns:
        The driver class to use.
    """
    return TerminalDriver if default is LinuxDriver else default


class TerminalDriver(LinuxDriverBase):
    """Textual's Linux driver, plus an orderly end when the terminal hangs up or a stop is asked for."""

    class Ended(Message):
        """The session is over (hangup, SIGTERM, or the terminal vanished): save what is left and exit."""

        def __init__(self, reason: str, exit_code: int) -> None:
            super().__init__()
            self.reason = reason
            self.exit_code = exit_code

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        self._ended: str | None = None
        self._suspended = False
        # The fds that are the terminal now; once it is dead they are pointed at /dev/null (see _silence).
        self._tty_fds = [fd for fd in (1, 2) if os.isatty(fd)]
        # The driver hands `output` (stderr) to its writer thread; wrapped, a dead tty cannot kill the thread.
        # The wrapper is duck-typed (write, flush, fileno, isatty: all WriterThread uses), hence the cast.
        self.output = cast(TextIO, _TerminalOutput(self.output, self._terminal_lost))
        self._previous_handlers: dict[int, Any] = {}
        for signum in HANDLED_SIGNALS:
            with contextlib.suppress(ValueError, OSError):  # ValueError: not the main thread
                previous = signal.getsignal(signum)
                if previous == signal.SIG_IGN:
                    continue  # ignored by whoever started us (nohup): keep it so; a dead tty still ends us
                self._previous_handlers[signum] = previous
                # signal.signal rather than loop.add_signal_handler: a Python-level handler also runs while
                # the main thread is blocked (say on the writer's full queue), where the loop never would.
                signal.signal(signum, self._on_signal)

    # ---- ending -----------------------------------------------------------------------------------------

    def _on_signal(self, signum: int, _frame: FrameType | None) -> None:
        self.end(signal.Signals(signum).name, 128 + signum)

    def end(self, reason: str, exit_code: int) -> None:
        """End the session once: arm the watchdog, then ask the app to save and exit.

        Safe from a signal handler and from the input thread (no locks: a second call is simply dropped).

        Args:
            reason: what happened, for the log ("SIGHUP", "terminal closed", ...).
            exit_code: the process exit status (128 + signal number).
        """
        if self._ended is not None:
            return
        self._ended = reason
        _arm_watchdog(EXIT_DEADLINE, exit_code)
        with contextlib.suppress(RuntimeError):  # the loop has closed already: the watchdog ends us
            self.send_message(self.Ended(reason, exit_code))  # thread-safe (call_soon_threadsafe)

    def _terminal_lost(self) -> None:
        """The tty is gone (EOF, EIO, EPIPE): nothing can be shown or read any more."""
        self._silence()
        self.end("terminal closed", HANGUP_EXIT)

    def _silence(self) -> None:
        """Point the dead terminal's fds at /dev/null.

        Late writes (Textual's restore sequences, Python's final flush, a stray warning) then succeed at once
        instead of failing or blocking.
        """
        try:
            null = os.open(os.devnull, os.O_WRONLY)
        except OSError:
            return
        for fd in self._tty_fds:
            with contextlib.suppress(OSError):
                os.dup2(null, fd)
        os.close(null)

    def close(self) -> None:
        super().close()
        for signum, previous in self._previous_handlers.items():
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(signum, previous)
        self._previous_handlers.clear()

    # ---- suspend / resume -------------------------------------------------------------------------------

    def suspending(self) -> None:
        self._suspended = self.restarts_after_stop  # application mode is suspended only in that case

    def resuming(self) -> bool:
        """LinuxDriver restarts application mode on every SIGCONT, and the kernel sends one to the session
        leader with every hangup: resume only what our own SIGTSTP suspended, never once the session ended."""
        if self._suspended and self._ended is None:
            self._suspended = False
            return True
        return False

    # ---- input ------------------------------------------------------------------------------------------

    def run_input_thread(self) -> None:
        """LinuxDriver's input loop, except that EOF or an error reading the tty ends the session.

        Textual's loop treats an empty read as "stdin is a pipe" and keeps selecting, which on a hung-up tty
        returns at once, forever: a spinning core. In raw mode a live tty never reads empty (VMIN is 1), so
        EOF here means the terminal is gone (or stdin is a finished pipe: nothing more to read either way).
        """
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        parser = self.xterm_parser()
        decode = getincrementaldecoder("utf-8")().decode
        try:
            while not self.exit_event.is_set():
                if selector.select(0.1):
                    try:
                        data = os.read(self.fileno, 4096)
                    except BlockingIOError:
                        continue
                    except OSError:  # EIO: the other side of the pty has closed
                        data = b""
                    if not data:
                        self._terminal_lost()
                        return
                    for event in parser.feed(decode(data)):
                        self.process_message(event)
                for event in parser.tick():
                    self.process_message(event)
            # Stopping normally: take what was typed meanwhile, as LinuxDriver does.
            if selector.select(0):
                with contextlib.suppress(OSError):
                    for event in parser.feed(decode(os.read(self.fileno, 4096), final=True)):
                        self.process_message(event)
        finally:
            selector.close()


class _TerminalOutput:
    """The writer thread's file: a write that fails because the tty is dead is dropped, and reported once.

    Textual's writer thread dies on the first EIO/EPIPE, and 30 writes later the app's main thread would block
    for good on its full queue. Dropping output keeps the queue draining, so the app can still exit.
    """

    def __init__(self, file: TextIO, on_lost: Callable[[], None]) -> None:
        self._file = file
        self._on_lost = on_lost
        self._lost = False

    def write(self, text: str) -> int:
        if not self._lost:
            try:
                self._file.write(text)
            except OSError:
                self._lose()
        return len(text)

    def flush(self) -> None:
        if not self._lost:
            try:
                self._file.flush()
            except OSError:
                self._lose()

    def fileno(self) -> int:
        return self._file.fileno()

    def isatty(self) -> bool:
        return not self._lost and self._file.isatty()

    def _lose(self) -> None:
        self._lost = True
        self._on_lost()


def _arm_watchdog(seconds: float, exit_code: int) -> None:
    """Exit the process `seconds` from now unless it has ended by itself.

    A normal exit can wait much longer: asyncio.run joins the worker threads (a first index build takes
    minutes), and the app's main thread may be blocked on output. os._exit skips all that; by then the session
    memory has been saved if it could be, and every earlier change is a committed SQLite transaction.
    """

    def expire() -> None:
        time.sleep(seconds)
        os._exit(exit_code)

    threading.Thread(target=expire, name="papers-exit-watchdog", daemon=True).start()
