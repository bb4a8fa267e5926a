"""What every subcommand shares: global options, the library they name, its parser's shape, warnings."""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeAlias

from index.library import Config, Library, load_config
from index.models import Notice, Source

Handler = Callable[[argparse.Namespace], int]
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


@contextmanager
def open_library(args: argparse.Namespace) -> Iterator[Library]:
    """The library these options name, closed when the command ends; its index and store open on first use."""
    library = Library.open(*locations(args), config=config(), reader=False)
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
    where = " ".join(str(part) for part in (venue, year) if part)
    print(f"{rank:>3}. {paper_id}  {headline}  [{where}]")
    if detail is not None:
        print(f"     {detail}")


def source_json(source: Source) -> dict[str, Any]:
    """Where a paper sits, as every `--json` gives it (written out: `list --json` makes 56k of them)."""
    return {
        "path": source.path,
        "paragraph": source.paragraph,
        "line": source.line,
        "listing": source.listing,
    }
