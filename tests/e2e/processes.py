"""Processes seen through /proc: find the reader behind a tmux pane or an ssh login, and watch it end.

The session tests (test_sessions.py) kill a terminal and then ask: is the reader gone, how fast, and did it
burn CPU on the way? Everything here reads /proc directly, so it works for other users' processes too (the
tests run as root) and needs no psutil.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Proc:
    """One process: its pid, owner, parent and command line (argv, split)."""

    pid: int
    uid: int
    ppid: int
    argv: tuple[str, ...]


def _stat_fields(pid: int) -> list[str] | None:
    """/proc/PID/stat after the command name (which may hold spaces): fields 3.. of proc(5), or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


def processes() -> list[Proc]:
    """Every process that can be read right now (they come and go while we look: misses are skipped)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            raw = (entry / "cmdline").read_bytes()
            fields = _stat_fields(int(entry.name))
            if fields is None or not raw:
                continue  # gone, or a kernel thread
            argv = tuple(raw.decode(errors="replace").rstrip("\0").split("\0"))
            found.append(Proc(int(entry.name), entry.stat().st_uid, int(fields[1]), argv))
    return found


def descendants(root: int) -> list[Proc]:
    """Children, grandchildren, ... of `root`."""
    procs = processes()
    wanted, found = {root}, []
    changed = True
    while changed:
        changed = False
        for proc in procs:
            if proc.ppid in wanted and proc.pid not in wanted:
                wanted.add(proc.pid)
                found.append(proc)
                changed = True
    return found


def is_reader(proc: Proc) -> bool:
    """A Python process running `papers` (the console script or `python -m tui`) with no subcommand."""
    argv = proc.argv
    if not argv or "python" not in Path(argv[0]).name:
        return False
    rest = argv[1:]
    if rest[:2] == ("-m", "tui"):
        rest = rest[2:]
    elif rest and Path(rest[0]).name == "papers":
        rest = rest[1:]
    else:
        return False
    return not any(arg in ("list", "starred", "show", "search", "stats", "index") for arg in rest)


def environ(pid: int) -> dict[str, str]:
    """The environment the process started with ({} once it is gone)."""
    try:
        raw = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return {}
    pairs = (item.decode(errors="replace").partition("=") for item in raw.split(b"\0") if item)
    return {key: value for key, _, value in pairs}


def running(pid: int) -> bool:
    """True while the process exists and has not exited (a zombie has exited: only its parent lingers)."""
    fields = _stat_fields(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far (0 once it is gone)."""
    fields = _stat_fields(pid)
    if fields is None:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def wait_for_one(match: Callable[[Proc], bool], timeout: float = 60) -> Proc:
    """Poll until exactly one running process matches; fails naming what was seen."""
    deadline = time.monotonic() + timeout
    seen: list[Proc] = []
    while time.monotonic() < deadline:
        seen = [proc for proc in processes() if match(proc) and running(proc.pid)]
        if len(seen) == 1:
            return seen[0]
        time.sleep(0.05)
    raise AssertionError(f"expected one matching process within {timeout}s, saw {seen}")


def reader_with(key: str, value: str, timeout: float = 60) -> Proc:
    """The one reader process whose environment has `key=value` (each test gives its reader a unique one)."""
    return wait_for_one(lambda proc: is_reader(proc) and environ(proc.pid).get(key) == value, timeout)


@dataclass(frozen=True)
class Ending:
    """How a process ended after its terminal was pulled away: seconds until gone, CPU used meanwhile."""

    pid: int
    seconds: float | None
    """Seconds from the kill until the process had exited; None if it was still running at the deadline."""
    cpu: float
    """CPU seconds the process used between the kill and its end (or the deadline)."""


def watch_end(pid: int, since: float, cpu_before: float, timeout: float) -> Ending:
    """Poll (every 10 ms) until `pid` has exited or `timeout` seconds after `since` (a time.monotonic())."""
    cpu = cpu_before
    while True:
        now = time.monotonic()
        if not running(pid):
            return Ending(pid, now - since, max(0.0, cpu - cpu_before))
        cpu = max(cpu, cpu_seconds(pid))
        if now - since > timeout:
            return Ending(pid, None, max(0.0, cpu - cpu_before))
        time.sleep(0.01)
