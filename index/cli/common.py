"""What every subcommand shares: global options, the library they name, its parser's shape, warnings."""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeAlias

from index.cli.errors import CommandError
from index.library import (
    Config,
    IndexUnavailable,
    IndexWriteFailed,
    Library,
    UpdateReport,
    load_config,
    safe,
)
from index.models import Notice, Source

Handler = Callable[[argparse.Namespace], int]
Progress = Callable[[int, int], None]
QUIET_FOR = 1.0
"""Seconds an implicit index build runs before it says so on stderr: an update of a few files says nothing."""
# A string: argparse's class is not subscriptable at run time, only in type checks.
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


@functools.cache
def config() -> Config:
    """The merged site and user config, read once per process; its problems are reported once, here."""
    loaded = load_config()
    warn(loaded.notices)
    return loaded


def locations(args: argparse.Namespace) -> tuple[list[Path] | None, Path | None, Path | None]:
    """`--listings`, `--index-dir` and `--data-dir` as given (None: the library resolves them from the
    environment, the config, else the defaults)."""
    return getattr(args, "listings", None), getattr(args, "index_dir", None), getattr(args, "data_dir", None)


def warn(notices: Iterable[Notice | str]) -> None:
    """Warnings go to stderr, one line each, so stdout stays clean for pipes and --json."""
    for notice in notices:
        print(f"papers: warning: {notice}", file=sys.stderr)


@contextlib.contextmanager
def open_library(args: argparse.Namespace, *, listings: bool = False) -> Iterator[Library]:
    """The library these options name, closed when the command ends; its index and store open on first use.

    Args:
        listings: the command reads the papers: with no listing file to read, it fails at once in one line
            (exit 1) rather than answering for no papers, whatever it is (list, stats, search, facets, ...).

    Raises:
        CommandError: `listings` and the paths name no listing file.
    """
    library = Library.open(*locations(args), config=config(), reader=False)
    if listings:
        files, why = library.listing_files()
        if not files:
            library.close()
            reason = "; ".join(why) or "no path given"
            hint = "" if "--listings" in reason else "; check --listings / PAPERS_LISTINGS"
            raise CommandError(f"no listing files to read: {reason}{hint}")
    try:
        yield library
    finally:
        library.close()


def add_command(
    subparsers: Subparsers,
    common: argparse.ArgumentParser,
    name: str,
    handler: Handler,
    help: str,
    *,
    description: str | None = None,
    arguments: Callable[[argparse.ArgumentParser], object] | None = None,
    json: str | None = None,
) -> argparse.ArgumentParser:
    """Add one subcommand that takes the global options (`common`) and runs `handler`.

    Args:
        arguments: adds the command's own arguments; they come before `--json` in its `--help`.
        json: the help of a `--json` flag, when the command has one.

    Returns:
        The subcommand's parser, for options that belong after `--json`.
    """
    parser = subparsers.add_parser(name, parents=[common], help=help, description=description)
    if arguments is not None:
        arguments(parser)
    if json is not None:
        parser.add_argument("--json", action="store_true", help=json)
    parser.set_defaults(handler=handler)
    return parser


def add_sort(parser: argparse.ArgumentParser, orders: Sequence[str], default: str) -> None:
    """`--sort ORDER`, named and ordered as the reader's `o` names them (README: Orders)."""
    parser.add_argument(
        "--sort",
        choices=orders,
        default=default,
        help=f"order the papers: {', '.join(orders)} (default {default}; "
        "newest/oldest: by year, then listing order; venue: A-Z, newest first within one)",
    )


def add_limit(parser: argparse.ArgumentParser, default: int) -> None:
    """`--limit N`, the same in every command that ranks papers."""
    parser.add_argument(
        "--limit",
        type=_paper_count,
        default=default,
        metavar="N",
        help=f"show at most N papers, N >= 1 (default {default})",
    )


def _paper_count(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of papers (1 or more)")
    return number


def fields(value: object, *names: str) -> dict[str, Any]:
    """`{name: value.name}` in the order named: the plain part of one `--json` record."""
    return {name: getattr(value, name) for name in names}


def print_ranked(
    rank: int, paper_id: str, headline: str, venue: str | None, year: int | None, detail: str | None
) -> None:
    """One paper of a ranked answer, the same in every command that ranks (`search`, `similar`, `foryou`):
    `  1. ID  HEADLINE  [VENUE YEAR]`, then the line that explains it (snippet, shared terms, why), if any,
    indented under the id, so the outputs read alike and a script can parse them one way.
    """
    where = safe(" ".join(str(part) for part in (venue, year) if part))  # listing text: never raw
    print(f"{rank:>3}. {paper_id}  {headline}  [{where}]")
    if detail is not None:
        print(f"     {detail}")


# json.dumps escapes C0 controls but, with ensure_ascii=False, passes C1 controls (0x9b is a one-byte CSI on
# some terminals), bidi overrides and line separators straight through: escape those too, so `--json` is
# safe to print and still readable for CJK and accented text.
_JSON_UNSAFE = re.compile(
    "[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]"
)


def json_text(value: object, indent: int | None = 2) -> str:
    """`value` as every `--json` prints it: UTF-8 text, with what a terminal would act on escaped."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return _JSON_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def source_json(source: Source) -> dict[str, Any]:
    """Where a paper sits, as every `--json` gives it (written out: `list --json` makes 56k of them)."""
    return {
        "path": source.path,
        "paragraph": source.paragraph,
        "line": source.line,
        "listing": source.listing,
    }


def make_current(
    library: Library,
    *,
    rebuild: bool = False,
    lines: bool = False,
    implicit: bool = True,
    required: bool = True,
    quiet: bool = False,
) -> UpdateReport | None:
    """Bring the index up to date with the listings when possible (first use builds it); notices on stderr.

    `papers index` and every command that needs the index take this one path: the same build, in two
    processes, and the same time. Args:
        lines: progress as plain lines when stderr is not a terminal (`papers index`, unless `--quiet`).
        implicit: another command needs the index: once the work has taken `QUIET_FOR` s, a line says what
            it is waiting for, then progress follows (a bar on a terminal, a line per tenth elsewhere).
        required: an index that cannot be made current is an error; else a warning, and the command goes
            on without it (`list` parses the listings).
        quiet: no progress at all, not even a bar on a terminal (`papers index --quiet`).
    """
    announce = threading.Timer(QUIET_FOR, _announce)
    announce.daemon = True
    if implicit:
        announce.start()
    try:
        with progress_bar("indexing", lines or implicit, after=QUIET_FOR if implicit else 0.0) as progress:
            return library.update_index(None if quiet else progress, rebuild=rebuild)
    except IndexUnavailable as error:
        # A command that only reads the index searches the one still there when a new one cannot be written.
        kept = isinstance(error, IndexWriteFailed) and error.kept and implicit
        if required and not kept:
            raise CommandError(str(error)) from None
        warn([str(error)])
        return None
    finally:
        announce.cancel()
        warn(library.take_notices())


def _announce() -> None:
    print(
        "papers: indexing these listings first (`papers index` does it ahead of time)...",
        file=sys.stderr,
        flush=True,
    )


@contextlib.contextmanager
def progress_bar(label: str, lines: bool = False, after: float = 0.0) -> Iterator[Progress | None]:
    """Progress on stderr once the work has run `after` s: a rich bar on a terminal; elsewhere plain lines
    if `lines`, else nothing."""
    due = time.monotonic() + after
    if not sys.stderr.isatty():
        yield _progress_lines(label, due) if lines else None
        return
    with contextlib.ExitStack() as stack:
        shown: list[Progress] = []

        def update(done: int, total: int) -> None:
            if not shown:
                if time.monotonic() < due:
                    return
                shown.append(_bar(label, stack))
            shown[0](done, total)

        yield update


def _bar(label: str, stack: contextlib.ExitStack) -> Progress:
    """A rich progress bar on stderr, gone when `stack` closes."""
    # Deferred: rich.progress costs some 60 ms of import, which only a run on a terminal should pay.
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TimeRemainingColumn
    from rich.progress import Progress as Bar

    bar = stack.enter_context(
        Bar(
            f"[bold]{label}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        )
    )
    task = bar.add_task(label, total=None)

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    return update


PROGRESS_EVERY = 5.0
"""Seconds between two progress lines in a log: a 40 s build at 56k papers says so nine times, not 1,000."""


def _progress_lines(label: str, due: float) -> Progress:
    """Progress for a log file or a pipe, from `due` on: a first line, at most one every PROGRESS_EVERY
    seconds after it, and one when the work is done, each with the seconds so far; never a redraw."""
    started = time.monotonic()
    last: float | None = None
    shown = -1

    def update(done: int, total: int) -> None:
        nonlocal last, shown
        now = time.monotonic()
        if total <= 0 or done == shown or now < due:
            return
        if last is not None and now - last < PROGRESS_EVERY and done < total:
            return
        last, shown = now, done
        line = f"{label}: {done}/{total} papers ({done * 100 // total}%) after {now - started:.0f} s"
        print(line, file=sys.stderr, flush=True)

    return update
