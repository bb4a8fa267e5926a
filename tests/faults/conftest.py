"""The fault-injection suite: each fault is caused for real (a mount, a full disk, another user, a file).

Every test under `tests/faults/` carries the `faults` marker (added here, so a new module needs nothing), and
the README's test command runs them; `-m faults` runs them alone. The fixtures below make the faults:

- `mounts`: tmpfs mounts of a given size under the test's tmp dir, `remount_ro` and `fill` them; unmounted
  after the test. Skipped with the reason when not root or when the kernel refuses the mount (a container
  without CAP_SYS_ADMIN).
- `as_nobody`: an argv run as the `nobody` user (as root, chmod does not stop a write, so a permission
  fault needs another user). Skipped with the reason when that user cannot run this venv.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from tests.conftest import REPO

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.faults)


def _run(argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(argv), capture_output=True, text=True, timeout=60)


class Mounts:
    """tmpfs mounts made for one test, each removed (lazily, in case a file is still open) at its end."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._made: list[Path] = []

    def tmpfs(self, name: str, size: str = "4m", *, mode: str = "0755") -> Path:
        """A fresh tmpfs of `size` bytes (k/m suffixes) at tmp/`name`."""
        if os.geteuid() != 0:
            pytest.skip("tmpfs mounts need root; this fault is caused by a real mount")
        target = self._root / name
        target.mkdir(parents=True, exist_ok=True)
        done = _run(["mount", "-t", "tmpfs", "-o", f"size={size},mode={mode}", "tmpfs", str(target)])
        if done.returncode != 0:
            pytest.skip(f"mount -t tmpfs refused here: {done.stderr.strip() or done.returncode}")
        self._made.append(target)
        return target

    def remount_ro(self, target: Path) -> None:
        """The mount turns read-only under whoever has files open on it (an admin, a failing disk)."""
        done = _run(["mount", "-o", "remount,ro", str(target)])
        assert done.returncode == 0, done.stderr

    def fill(self, target: Path) -> None:
        """Write until the tmpfs has no byte left: the disk is full from here on."""
        with (target / "filler").open("wb", buffering=0) as out:
            for chunk in (1 << 20, 1 << 12, 1):
                with contextlib.suppress(OSError):
                    while True:
                        out.write(b"\0" * chunk)

    def close(self) -> None:
        for target in reversed(self._made):
            _run(["umount", "-l", str(target)])


@pytest.fixture
def mounts(tmp_path: Path) -> Iterator[Mounts]:
    made = Mounts(tmp_path / "mnt")
    try:
        yield made
    finally:
        made.close()


def nobody_argv(argv: Sequence[str]) -> list[str]:
    """`argv` run as `nobody` with no supplementary groups (setpriv, util-linux)."""
    return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *argv]


@pytest.fixture
def as_nobody() -> Iterator[None]:
    """Skip unless root can run this venv's Python as `nobody` (it must reach the venv and the repo)."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("dropping privileges to nobody needs root and setpriv")
    probe = _run(nobody_argv([sys.executable, "-c", "import index.cli, textual, whoosh"]))
    if probe.returncode != 0:
        pytest.skip(f"nobody cannot run this venv ({REPO}): {probe.stderr.strip()[-200:]}")
    yield


# The pilot tests here are `async def`, run as tests/tui runs them (one fresh event loop per test).
from tests.tui.conftest import pytest_pyfunc_call  # noqa: E402, F401
