"""A real sshd, throwaway local users and tmux panes: the path a researcher takes to the reader on a server.

Shared by the e2e tests (tests/e2e/conftest.py) and the SSH benchmark (bench/bench_ssh.py). Everything it
creates lives in one scratch directory under /tmp and is removed by `close()`: the sshd (stopped by pid),
the tmux server (own socket), the users (`userdel -r`). It needs root; `Unavailable` says why it cannot run.

Permissions, decided once here rather than by loosening the checkout: the users must run the project's Python.
If the venv that runs the tests is usable by another user (every directory up to it and up to its base
interpreter traversable), they run its `papers` directly. If not (typically a venv made from a pyenv Python
under a 0700 /root), nothing is chmod-ed: a small runner venv is made in the scratch dir from a system
Python of the same version whose only job is to add the test venv's site-packages to `sys.path`, and the
users run its `papers`. The repo itself is never written to.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pwd
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tests.conftest import REPO, SEEDS

SSHD = "/usr/sbin/sshd"
LOCK_FILE = Path(tempfile.gettempdir()) / "papers-e2e.lock"
STATUS_LINE = re.compile(r"\d+ papers · \d+ unread · \d+ starred")
"""The reader's status line: once it is on screen the first full frame has been drawn."""
SEARCH_FOCUSED = "^j To list"
"""The footer's hint while the search box has focus: a user sees it before typing a query."""
LIST_FOCUSED = "⏎ Open"
"""The footer's hint while the paper list has focus."""


class Unavailable(Exception):
    """This machine cannot host the e2e environment (not root, no apt, ...); the message says what."""


@contextlib.contextmanager
def machine_lock() -> Iterator[None]:
    """apt-get and useradd refuse to run twice at once; pytest-xdist workers take turns through this lock."""
    with open(LOCK_FILE, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def run(argv: Sequence[str], *, timeout: float = 60, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        list(argv), capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
    )
    if check and result.returncode != 0:
        raise RuntimeError(
            f"{shlex.join(argv)} failed ({result.returncode}): {result.stderr.strip()[-2000:]}"
        )
    return result


def apt_install(packages: Sequence[str]) -> None:
    """Install Debian packages (update first), or explain why that is impossible here."""
    if os.geteuid() != 0:
        raise Unavailable(f"needs root to install {', '.join(packages)} (or install them yourself)")
    if shutil.which("apt-get") is None:
        raise Unavailable(f"{', '.join(packages)} missing and there is no apt-get to install them")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for argv in (
        ["apt-get", "update", "-q"],
        ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages],
    ):
        result = subprocess.run(
            argv, capture_output=True, text=True, env=env, timeout=900, stdin=subprocess.DEVNULL
        )
        if result.returncode != 0:
            raise Unavailable(f"{shlex.join(argv)} failed: {result.stderr.strip().splitlines()[-1:]}")


def ensure_tools() -> None:
    """openssh-server, the ssh client and tmux, installed only when `shutil.which` cannot find them."""
    if os.geteuid() != 0:
        raise Unavailable(
            "the e2e tests create local users and run sshd, so they need root (CI runs as root)"
        )
    wanted = {
        "openssh-server": Path(SSHD).exists(),
        "openssh-client": bool(shutil.which("ssh") and shutil.which("ssh-keygen")),
        "tmux": bool(shutil.which("tmux")),
    }
    missing = [package for package, present in wanted.items() if not present]
    if missing:
        with machine_lock():
            if not Path(SSHD).exists() or not shutil.which("tmux") or not shutil.which("ssh"):
                apt_install(missing)
    for tool in ("useradd", "userdel", "usermod"):
        if shutil.which(tool) is None:
            raise Unavailable(f"{tool} not found (package passwd)")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class User:
    name: str
    home: Path


def create_user(name: str) -> User:
    """A login user with bash, a 0755 home (privacy must come from papers itself), no usable password."""
    with machine_lock():
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            run(["userdel", "-r", "-f", name], check=False)  # a leftover from an interrupted run
        run(["useradd", "--create-home", "--shell", "/bin/bash", name])
        # "*" rather than useradd's "!": without PAM, sshd refuses "!"-locked accounts even for key logins.
        run(["usermod", "-p", "*", name])
    home = Path(pwd.getpwnam(name).pw_dir)
    home.chmod(0o755)
    return User(name=name, home=home)


def remove_abandoned_users() -> None:
    """Users left by a run that was killed: their name ends in the pid of a test process that is gone."""
    for entry in pwd.getpwall():
        found = re.fullmatch(r"papers-e2e-[ab]-.*-(\d+)", entry.pw_name)
        if found and not Path("/proc", found.group(1)).exists():
            remove_user(User(entry.pw_name, Path(entry.pw_dir)), timeout=0)


def remove_user(user: User, timeout: float = 15) -> None:
    """Wait for the user's processes (all from our ssh sessions) to end, end stragglers by pid, delete."""
    uid = pwd.getpwnam(user.name).pw_uid
    deadline = time.monotonic() + timeout
    while True:
        pids = [pid for pid in _pids_of(uid) if pid != os.getpid()]
        if not pids or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    with machine_lock():
        run(["userdel", "-r", "-f", user.name], check=False)


def _pids_of(uid: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if entry.stat().st_uid == uid:
                    pids.append(int(entry.name))
    return pids


@dataclass
class SshServer:
    """A private sshd on 127.0.0.1 with a throwaway host key, key-only logins for the given users."""

    scratch: Path
    users: Sequence[User]
    port: int = 0
    process: subprocess.Popen[bytes] | None = None
    client_key: Path = field(init=False)

    def __post_init__(self) -> None:
        self.client_key = self.scratch / "client_key"

    def start(self) -> None:
        keys = self.scratch / "keys"
        keys.mkdir(mode=0o700)
        run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(keys / "host_key")])
        run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(self.client_key)])
        authorized = self.scratch / "authorized_keys"
        authorized.mkdir(mode=0o755)
        public = (self.scratch / "client_key.pub").read_text()
        for user in self.users:
            (authorized / user.name).write_text(public)
            (authorized / user.name).chmod(0o644)
        # The privilege separation dir is normally made by the service unit, which we never start.
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
        for _attempt in range(5):
            self.port = free_port()
            config = self.scratch / "sshd_config"
            config.write_text(
                "\n".join(
                    [
                        f"Port {self.port}",
                        "ListenAddress 127.0.0.1",
                        f"HostKey {keys / 'host_key'}",
                        f"PidFile {self.scratch / 'sshd.pid'}",
                        f"AuthorizedKeysFile {authorized}/%u",
                        "PubkeyAuthentication yes",
                        "PasswordAuthentication no",
                        "KbdInteractiveAuthentication no",
                        "UsePAM no",
                        # The keys live under /tmp, which is world-writable, so StrictModes would reject them.
                        "StrictModes no",
                        "PermitRootLogin no",
                        f"AllowUsers {' '.join(user.name for user in self.users)}",
                        "PrintMotd no",
                        "PrintLastLog no",
                        "X11Forwarding no",
                        "AllowTcpForwarding no",
                        "LogLevel VERBOSE",
                        "",
                    ]
                )
            )
            run([SSHD, "-t", "-f", str(config)])
            log = self.scratch / "sshd.log"
            self.process = subprocess.Popen(
                [SSHD, "-D", "-f", str(config), "-E", str(log)], stdin=subprocess.DEVNULL
            )
            if self._wait_listening():
                return
            self.stop()
        raise RuntimeError(f"sshd did not start; see {self.scratch / 'sshd.log'}")

    def _wait_listening(self, timeout: float = 15) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                return False
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return True
            time.sleep(0.05)
        return False

    def ssh_argv(self, user: User, remote: Sequence[str], *, tty: bool = False) -> list[str]:
        """The ssh client command; `remote` is quoted here: ssh hands the remote side one shell string."""
        return [
            "ssh",
            *(["-tt"] if tty else ["-T"]),
            "-F",
            "/dev/null",
            "-o",
            "StrictHostKeyChecking=no",
            "-o",
            "UserKnownHostsFile=/dev/null",
            "-o",
            "BatchMode=yes",
            "-o",
            "LogLevel=ERROR",
            "-o",
            "ConnectTimeout=15",
            "-i",
            str(self.client_key),
            "-p",
            str(self.port),
            f"{user.name}@127.0.0.1",
            shlex.join(remote),
        ]

    def ssh(
        self, user: User, remote: Sequence[str], *, timeout: float = 120
    ) -> subprocess.CompletedProcess[str]:
        """Run a command as `user` over ssh, without a terminal, and return what it printed."""
        return run(self.ssh_argv(user, remote), timeout=timeout, check=False)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None


def papers_command(server: SshServer, user: User, scratch: Path) -> str:
    """An absolute path to a `papers` executable that `user` can run; see the module docstring for why."""
    probe = ["-c", "import index.paths, textual, whoosh"]
    direct = Path(sys.prefix) / "bin"
    if _runs_as(server, user, [str(direct / "python"), *probe]):
        return str(direct / "papers")
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [Path(d) / version for d in ("/usr/bin", "/usr/local/bin")]
    if not any(c.exists() for c in candidates):
        with machine_lock():
            if not Path("/usr/bin", version).exists():
                apt_install([version])
    for candidate in candidates:
        if candidate.exists() and _runs_as(server, user, [str(candidate), "-c", "pass"]):
            launcher = _runner_venv(candidate, scratch / "runner-venv")
            if _runs_as(server, user, [str(launcher.parent / "python"), *probe]):
                return str(launcher)
    raise Unavailable(
        f"no Python {sys.version_info.major}.{sys.version_info.minor} that other users may run: "
        f"{direct / 'python'} is not reachable for them and no system {version} works either"
    )


def _runs_as(server: SshServer, user: User, argv: Sequence[str]) -> bool:
    return server.ssh(user, argv, timeout=60).returncode == 0


def _runner_venv(python: Path, target: Path) -> Path:
    """A venv on a system Python whose site-packages points at the test venv's, plus a `papers` launcher."""
    run([str(python), "-m", "venv", "--without-pip", str(target)])
    site_packages = Path(
        run(
            [
                str(target / "bin" / "python"),
                "-c",
                "import sysconfig; print(sysconfig.get_paths()['purelib'])",
            ]
        ).stdout.strip()
    )
    ours = sysconfig.get_paths()["purelib"]
    # addsitedir (not a bare path line) so the editable install's own .pth files are processed too.
    (site_packages / "_papers_e2e.pth").write_text(f"import site; site.addsitedir({ours!r})\n")
    launcher = target / "bin" / "papers"
    launcher.write_text(
        f"#!{target / 'bin' / 'python'}\nimport sys\nfrom index.cli.main import papers\nsys.exit(papers())\n"
    )
    launcher.chmod(0o755)
    return launcher


def make_readable(path: Path) -> None:
    """a+rX, go-w: what an admin does to a shared index or listings directory."""
    run(["chmod", "-R", "a+rX,go-w", str(path)])


@dataclass
class Tmux:
    """One detached tmux session on a private server socket: a terminal we can type into and read back."""

    scratch: Path
    name: str = "papers"
    socket: Path = field(init=False)
    raw_log: Path = field(init=False)
    gate: Path = field(init=False)
    status_file: Path = field(init=False)

    def __post_init__(self) -> None:
        self.socket = self.scratch / f"tmux-{self.name}.sock"
        self.raw_log = self.scratch / f"{self.name}.raw"
        self.gate = self.scratch / f"{self.name}.go"
        self.status_file = self.scratch / f"{self.name}.status"

    def tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return run(["tmux", "-S", str(self.socket), *args], timeout=30, check=check)

    def start(self, argv: Sequence[str], *, width: int = 80, height: int = 24) -> float:
        """Start `argv` in a fresh session with its raw output recorded; returns the moment it was released.

        The command waits on a gate file until `pipe-pane` is attached, so no byte of output escapes the log.
        Its exit status is written to `status_file` by the pane's shell, which waits for it itself: tmux
        3.3a (Debian's, built with libutempter) loses the SIGCHLD of a pane whose pty closes while it is
        removing the utmp record, so `#{pane_dead_status}` stays empty forever in about 1 run in 5
        (tmux issue #311; reproducible with a bare `sh -c 'sleep 1; exit 3'` pane, no ssh involved).
        """
        conf = self.scratch / "tmux.conf"
        # remain-on-exit keeps a finished pane readable after its program quits; escape-time as in the README.
        conf.write_text("set -g remain-on-exit on\nset -sg escape-time 10\nset -g history-limit 0\n")
        status, partial = shlex.quote(str(self.status_file)), shlex.quote(f"{self.status_file}.tmp")
        gated = (
            f"while [ ! -e {shlex.quote(str(self.gate))} ]; do sleep 0.01; done; {shlex.join(argv)}; "
            f"echo $? > {partial} && mv {partial} {status}"
        )
        self.tmux(
            "-f", str(conf), "new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height), gated
        )
        self.raw_log.write_bytes(b"")
        self.tmux("pipe-pane", "-o", "-t", self.name, f"cat >> {shlex.quote(str(self.raw_log))}")
        started = time.monotonic()
        self.gate.touch()
        return started

    def send_keys(self, *keys: str) -> None:
        """tmux key names: "j", "Enter", "Escape", "C-q", ..."""
        self.tmux("send-keys", "-t", self.name, *keys)

    def type(self, text: str) -> None:
        """Literal text, one keystroke per character."""
        self.tmux("send-keys", "-t", self.name, "-l", text)

    def capture(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.name).stdout

    def raw_output(self) -> bytes:
        return self.raw_log.read_bytes()

    def pane_state(self) -> tuple[bool, int | None]:
        """(dead, exit status) of the pane's command; the status is None if it never finished by itself."""
        out = self.tmux("display-message", "-p", "-t", self.name, "#{pane_dead}").stdout
        return out.strip() == "1", self.exit_status()

    def exit_status(self) -> int | None:
        """The status the pane's shell recorded for the command (128+N after signal N), once it has ended."""
        with contextlib.suppress(FileNotFoundError, ValueError):
            return int(self.status_file.read_text())
        return None

    def wait_for(self, want: str | re.Pattern[str] | Callable[[str], bool], timeout: float = 30) -> str:
        """Poll the screen until it shows `want`; the AssertionError carries the last screen seen."""
        if isinstance(want, str):
            text = want
            matches: Callable[[str], bool] = lambda screen: text in screen  # noqa: E731
        elif isinstance(want, re.Pattern):
            pattern = want
            matches = lambda screen: pattern.search(screen) is not None  # noqa: E731
        else:
            matches = want
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.capture()
            if matches(screen):
                return screen
            if self.pane_state()[0]:
                break
            time.sleep(0.02)
        dead, status = self.pane_state()
        state = f"pane exited with status {status}" if dead else f"still running after {timeout}s"
        raise AssertionError(f"screen never showed {want!r} ({state}); last screen:\n{screen}")

    def settle(self, quiet: float = 0.3, timeout: float = 10, colours: bool = False) -> str:
        """The screen once it has not changed for `quiet` seconds: the last keystroke is handled and drawn."""
        args = ["capture-pane", "-p", "-t", self.name, *(["-e"] if colours else [])]
        deadline = time.monotonic() + timeout
        last = self.tmux(*args).stdout
        stable_since = time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.02)
            now = self.tmux(*args).stdout
            if now != last:
                last, stable_since = now, time.monotonic()
            elif time.monotonic() - stable_since >= quiet:
                break
        return last

    def wait_exit(self, timeout: float = 15) -> int | None:
        """The exit status of the pane's command; a death by signal fails with the last screen."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status = self.exit_status()
            if status is not None:
                if status > 128:
                    # ssh itself reports 255 for a lost connection or a remote program killed by a signal.
                    raise AssertionError(
                        f"the program died (exit status {status}: signal {status - 128} or an ssh failure); "
                        f"screen:\n{self.capture()}"
                    )
                return status
            if self.pane_state()[0]:
                # The shell writes the status before it exits, so a dead pane without one was killed.
                time.sleep(0.2)
                if self.exit_status() is None:
                    raise AssertionError(
                        f"the pane was killed before its program ended; screen:\n{self.capture()}"
                    )
            time.sleep(0.05)
        raise AssertionError(f"the program did not exit within {timeout}s; screen:\n{self.capture()}")

    def kill(self) -> None:
        """Ends our own tmux server (and with it the ssh client it runs); never anyone else's."""
        if self.socket.exists():
            self.tmux("kill-server", check=False)


# ---- the reader on this machine: tmux, no ssh ------------------------------------------------------------


def local_reader_argv(
    home: Path, *, listings: Path = SEEDS, unset: Sequence[str] = (), **env: str
) -> list[str]:
    """The command that runs the reader on `listings` with its own data, cache and config under `home`.

    Args:
        unset: variables the reader must not inherit (`env -u`), such as NO_COLOR.
        env: more variables, or other values for these (TERM).
    """
    environment = {
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "TERM": "xterm-256color",
        **env,
    }
    assignments = [f"{key}={value}" for key, value in environment.items()]
    unsets = [word for name in unset for word in ("-u", name)]
    return ["env", *unsets, *assignments, sys.executable, "-m", "tui", "--listings", str(listings)]


def local_papers(home: Path, *args: str, listings: Path = SEEDS) -> subprocess.CompletedProcess[str]:
    """`papers ARGS` over the data and cache of the reader `local_reader_argv(home)` ran: what it saved."""
    env = dict(os.environ, XDG_DATA_HOME=str(home / "data"), XDG_CACHE_HOME=str(home / "cache"))
    return subprocess.run(
        [sys.executable, "-m", "tui", "--listings", str(listings), *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def scratch_dir(tag: str) -> Path:
    """A /tmp directory other users can traverse (pytest's own tmp dirs are 0700 root)."""
    path = Path(tempfile.mkdtemp(prefix=f"papers-e2e-{tag}-"))
    path.chmod(0o755)
    return path


@dataclass
class Environment:
    """sshd + two users + a `papers` they can run: what the e2e fixture and the SSH benchmark both need."""

    scratch: Path
    server: SshServer
    users: tuple[User, User]
    papers: str

    @classmethod
    def open(cls, tag: str) -> Environment:
        """Everything or nothing: a failure half-way removes what was already made."""
        ensure_tools()
        remove_abandoned_users()
        scratch = scratch_dir(tag)
        users: list[User] = []
        server: SshServer | None = None
        try:
            for letter in ("a", "b"):
                users.append(create_user(f"papers-e2e-{letter}-{tag}"[:32]))
            server = SshServer(scratch, users)
            server.start()
            papers = papers_command(server, users[0], scratch)
            return cls(scratch, server, (users[0], users[1]), papers)
        except BaseException:
            _teardown(scratch, server, users)
            raise

    def close(self) -> None:
        _teardown(self.scratch, self.server, list(self.users))

    def tmux(self, name: str) -> Tmux:
        return Tmux(self.scratch, name)

    def reader_argv(
        self, user: User, env: dict[str, str], *args: str, term: str = "xterm-256color"
    ) -> list[str]:
        """`ssh -tt user env TERM=... papers ...`: what a researcher types, as the tmux pane runs it."""
        assignments = [f"{key}={value}" for key, value in {"TERM": term, **env}.items()]
        return self.server.ssh_argv(user, ["env", *assignments, self.papers, *args], tty=True)


def _teardown(scratch: Path, server: SshServer | None, users: Sequence[User]) -> None:
    for sock in scratch.glob("tmux-*.sock"):
        run(["tmux", "-S", str(sock), "kill-server"], check=False)
    if server is not None:
        server.stop()
    for user in users:
        remove_user(user)
    shutil.rmtree(scratch, ignore_errors=True)


def star_a_diffusion_paper_and_quit(pane: Tmux) -> None:
    """The reader's everyday path through a real terminal: `/`, a query, Enter to the list, `s`, `q`.

    Each step waits for what the user would wait to see, so a key never races the screen it is meant for.
    """
    pane.send_keys("/")
    pane.wait_for(SEARCH_FOCUSED)
    pane.type("diffusion")
    pane.wait_for(re.compile(r'"diffusion" → [1-9]\d*'))
    pane.send_keys("Enter")
    pane.wait_for(LIST_FOCUSED)
    pane.send_keys("s")
    pane.wait_for("· 1 starred")
    pane.send_keys("q")
    assert pane.wait_exit() == 0
