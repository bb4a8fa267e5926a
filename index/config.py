"""The optional TOML config files: a site file an admin writes once, a user file that overrides it key by key.

Precedence, highest first: command-line flags > environment (`PAPERS_LISTINGS`, `PAPERS_INDEX_DIR`,
`PAPERS_DATA_DIR`) > user config > site config > built-in defaults. `load_config()` merges the two files;
`resolve_listings()`, `resolve_index_dir()` and `resolve_data_dir()` then put a flag and the environment on
top, so a caller needs one line per setting:

    config = load_config()
    warn(config.notices)
    listings = resolve_listings(args.listings, config)

A config file never stops the program: an unknown key, a bad value or a file that is not TOML becomes a
one-line notice naming the file, and the default is used instead.
"""

from __future__ import annotations

import json
import math
import os
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from index import paths
from index.models import Notice

ENV_CONFIG = "PAPERS_CONFIG"

DEFAULT_MARK_READ_DELAY = 2.0
"""Seconds a paper stays open before it counts as read: long enough that skimming past does not mark it."""

DEFAULT_INDEX_BUDGET_GB = 2.0
"""How much disk the indexes of every set of listings may take together before the least recently used go."""

SPACE_AT_END = ("next", "unread")
"""What `space` at the end of an abstract opens: the next paper in the list, or the next unread one."""

KNOWN_KEYS = (
    "listings",
    "index_dir",
    "data_dir",
    "theme",
    "mark_read_delay",
    "index_budget_gb",
    "space_at_end",
    "keymap",
)

_EMPTY_KEYMAP: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True)
class Config:
    """The merged settings of the site and user config files; None means "not configured, use the default"."""

    listings: tuple[Path, ...] | None = None
    index_dir: Path | None = None
    data_dir: Path | None = None
    theme: str | None = None
    mark_read_delay: float = DEFAULT_MARK_READ_DELAY
    index_budget_gb: float = DEFAULT_INDEX_BUDGET_GB
    """Gigabytes the per-set indexes under the index dir may take before the least recently used go."""
    space_at_end: str = SPACE_AT_END[0]
    """One of SPACE_AT_END: what the reader's `space` opens once the abstract is read to its end."""
    keymap: Mapping[str, str] = field(default_factory=lambda: _EMPTY_KEYMAP)
    """Binding id -> key, e.g. {"star": "f"}; the reader decides which ids exist and warns about others."""
    notices: tuple[Notice, ...] = ()
    """Problems found in the files, one line each (`str(notice)`); show them, do not raise them."""
    files: tuple[Path, ...] = ()
    """The config files that were actually read, lowest precedence first (for `--help`-style reporting)."""


def load_config(
    *, user_file: Path | None = None, site_file: Path | None = None, environ: Mapping[str, str] | None = None
) -> Config:
    """Read the site file, then the user file on top of it; missing files are simply skipped.

    Args:
        user_file: the user's file; default `$PAPERS_CONFIG` if set, else `paths.user_config_file()`.
        site_file: the admin's file; default `paths.site_config_file()` (e.g. /etc/xdg/papers/config.toml).
        environ: the environment to read `PAPERS_CONFIG` from (default `os.environ`), for tests.

    Returns:
        The merged Config; its `notices` say what was wrong and ignored.
    """
    env = os.environ if environ is None else environ
    explicit = False
    if user_file is None:
        named = env.get(ENV_CONFIG, "").strip()
        explicit = bool(named)
        user_file = Path(named).expanduser() if explicit else paths.user_config_file()
    if site_file is None:
        site_file = paths.site_config_file()
    values: dict[str, Any] = {}
    notices: list[Notice] = []
    files: list[Path] = []
    # A file named by $PAPERS_CONFIG must exist (a typo deserves a word); a missing default file does not.
    for path, must_exist in ((site_file, False), (user_file, explicit)):
        table = _read_file(path, must_exist, notices)
        if table is None:
            continue
        files.append(path)
        values.update(_validate(path, table, notices))
    return Config(**values, notices=tuple(notices), files=tuple(files))


def resolve_listings(given: Sequence[Path] | None, config: Config) -> list[Path]:
    """Flag, else `$PAPERS_LISTINGS`, else config, else the bundled seeds."""
    if given:
        return [Path(path).expanduser() for path in given]
    from_env = paths.listings_from_env()
    if from_env:
        return from_env
    if config.listings:
        return list(config.listings)
    return [paths.bundled_seeds_dir()]


def resolve_index_dir(given: Path | None, config: Config) -> Path:
    """Flag, else `$PAPERS_INDEX_DIR`, else config, else the user cache dir."""
    return _resolve_dir(given, paths.ENV_INDEX_DIR, config.index_dir) or paths.default_index_dir()


def resolve_data_dir(given: Path | None, config: Config) -> Path:
    """Flag, else `$PAPERS_DATA_DIR`, else config, else the user data dir."""
    return _resolve_dir(given, paths.ENV_DATA_DIR, config.data_dir) or paths.default_data_dir()


def _resolve_dir(given: Path | None, env_name: str, configured: Path | None) -> Path | None:
    if given is not None:
        return Path(given).expanduser()
    from_env = os.environ.get(env_name, "").strip()
    if from_env:
        return Path(from_env).expanduser()
    return configured


def _read_file(path: Path, must_exist: bool, notices: list[Notice]) -> dict[str, Any] | None:
    """The parsed top-level table, or None (with a notice when that is worth telling) if there is none."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        if must_exist:
            notices.append(Notice(str(path), f"no such config file (named by ${ENV_CONFIG}); using defaults"))
        return None
    except OSError as error:
        reason = error.strerror or type(error).__name__
        notices.append(Notice(str(path), f"cannot read config file ({reason}); using defaults"))
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        notices.append(Notice(str(path), "not UTF-8 text, so not TOML; file ignored, using defaults", line))
        return None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        # Python 3.11's TOMLDecodeError has no lineno attribute; the position is only in the message.
        message = str(error)
        where = re.search(r"\(at line (\d+), column \d+\)", message)
        reason = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message)
        line = int(where.group(1)) if where else text.count("\n") + 1
        notices.append(Notice(str(path), f"not valid TOML: {reason}; file ignored, using defaults", line))
        return None


class _Rejected(ValueError):
    """A value a key cannot take: why, and what is used instead."""

    def __init__(self, why: str, fallback: str) -> None:
        super().__init__(why)
        self.why = why
        self.fallback = fallback


def _listings(value: object, base: Path) -> tuple[Path, ...]:
    items = [value] if isinstance(value, str) else value
    if isinstance(items, list) and items and all(isinstance(item, str) and item for item in items):
        return tuple(_config_path(item, base) for item in items)
    raise _Rejected("is not a path or a non-empty list of paths", "ignored")


def _directory(value: object, base: Path) -> Path:
    if isinstance(value, str) and value.strip():
        return _config_path(value, base)
    raise _Rejected("is not a directory path", "using the default")


def _theme(value: object, _base: Path) -> str:
    if isinstance(value, str) and value.strip():
        return value.strip()
    raise _Rejected("is not a theme name", "using the default theme")


def _at_least_zero(unit: str, default: float) -> Callable[[object, Path], float]:
    """A converter for a number of `unit`s >= 0 (a key whose bad value falls back to `default`)."""

    def convert(value: object, _base: Path) -> float:
        fallback = f"using {default}"
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _Rejected(f"is not a number of {unit}", fallback)
        if not math.isfinite(value) or value < 0:
            raise _Rejected(f"is not a number of {unit} >= 0", fallback)
        return float(value)

    return convert


def _space_at_end(value: object, _base: Path) -> str:
    if isinstance(value, str) and value.strip().lower() in SPACE_AT_END:
        return value.strip().lower()
    raise _Rejected(f"is not one of {', '.join(map(repr, SPACE_AT_END))}", f"using {SPACE_AT_END[0]!r}")


_CONVERTERS: Mapping[str, Callable[[object, Path], object]] = {
    "listings": _listings,
    "index_dir": _directory,
    "data_dir": _directory,
    "theme": _theme,
    "mark_read_delay": _at_least_zero("seconds", DEFAULT_MARK_READ_DELAY),
    "index_budget_gb": _at_least_zero("gigabytes", DEFAULT_INDEX_BUDGET_GB),
    "space_at_end": _space_at_end,
}
"""How each plain key's value is checked and converted (paths relative to the file's folder)."""


def _validate(path: Path, table: Mapping[str, Any], notices: list[Notice]) -> dict[str, Any]:
    """The keys of one file that hold usable values, converted; each rejected key leaves a notice."""
    out: dict[str, Any] = {}
    for key, value in table.items():
        if key not in KNOWN_KEYS:
            known = ", ".join(KNOWN_KEYS)
            notices.append(Notice(str(path), f"unknown key {_show_key(key)} (ignored; known keys: {known})"))
        elif key == "keymap":
            keymap = _validate_keymap(path, value, notices)
            if keymap is not None:
                out[key] = MappingProxyType(keymap)
        else:
            try:
                out[key] = _CONVERTERS[key](value, path.parent)
            except _Rejected as rejected:
                notices.append(
                    Notice(str(path), f"{key} = {_show(value)} {rejected.why}; {rejected.fallback}")
                )
    return out


def _validate_keymap(path: Path, value: object, notices: list[Notice]) -> dict[str, str] | None:
    """Good entries survive a bad neighbour: one typo should not cost a user the rest of their keys."""
    if not isinstance(value, dict):
        notices.append(Notice(str(path), f'keymap = {_show(value)} is not a table of id = "key"; ignored'))
        return None
    keymap: dict[str, str] = {}
    for binding, key in value.items():
        if isinstance(key, str) and key.strip():
            keymap[binding] = key.strip()
        else:
            shown = f"keymap.{_show_key(binding)} = {_show(key)}"
            notices.append(Notice(str(path), f'{shown} is not a key name like "f" or "ctrl+s"; ignored'))
    return keymap


def _config_path(raw: str, base: Path) -> Path:
    """`~` expands; a relative path is relative to the config file, not to wherever papers was started."""
    path = Path(raw).expanduser()
    return path if path.is_absolute() else base / path


_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def _show(value: object, limit: int = 60) -> str:
    """A value as TOML-ish text, safe for a terminal and short enough to keep the notice on one line."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except ValueError:  # nan/inf are not JSON; repr says what they are
        text = repr(value)
    text = _UNPRINTABLE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _show_key(key: str) -> str:
    return "'" + _show(key)[1:-1] + "'"
