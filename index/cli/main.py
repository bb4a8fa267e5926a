"""The `papers` command line: argparse wiring only; each group of subcommands lives in its own module.

Exit codes: 0 success; 1 a request that could not be met (unknown paper id, unreadable file, ...),
with a one-line message on stderr; 2 a usage error, one line too (`OneLineParser`).

With no subcommand, `papers` opens the reader found through the `papers.reader` entry point (the Textual
reader in `tui/` declares it), so the core never imports the UI; `python -m index.cli` is the core alone.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Collection, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import NoReturn

from index import __version__
from index.cli import common as cli_common
from index.cli import discover as cli_discover
from index.cli import organise as cli_organise
from index.cli import search as cli_search
from index.cli import show as cli_show
from index.cli import state as cli_state
from index.cli.errors import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, CommandError
from index.library import Library

Reader = Callable[[Library], int]
"""A front end that runs on an opened library until the user quits, returning the exit code."""
READER_GROUP = "papers.reader"


class OneLineParser(argparse.ArgumentParser):
    """argparse with every usage error as one line on stderr (exit code 2), like every other error."""

    commands: Collection[str] = ()
    """The subcommands' names (set by `build_parser`)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _add_common_options(parser: argparse.ArgumentParser, *, suppress: bool) -> None:
    """Options valid before or after the subcommand (`papers --listings X list` or `list --listings X`)."""
    default = argparse.SUPPRESS if suppress else None
    # Before the subcommand argparse would swallow the subcommand as one more path (`--listings a b list`),
    # so there each --listings takes one path and `spread_listings` repeats it for every path given; after
    # the subcommand nothing follows it but options, so it takes several.
    parser.add_argument(
        "--listings",
        nargs="+" if suppress else None,
        action="extend" if suppress else "append",
        type=Path,
        metavar="PATH",
        default=default,
        help="listing files or directories (default: $PAPERS_LISTINGS, the config, else the bundled seeds/)",
    )
    parser.add_argument(
        "--index-dir",
        type=Path,
        metavar="DIR",
        default=default,
        help="where the search index lives (default: $PAPERS_INDEX_DIR, else the user cache dir)",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        metavar="DIR",
        default=default,
        help="where stars and read marks live (default: $PAPERS_DATA_DIR, else the user data dir)",
    )


def build_parser() -> OneLineParser:
    parser = OneLineParser(
        prog="papers",
        description="A keyboard-driven terminal reader for ML conference paper listings. "
        "With no subcommand, opens the reader.",
        epilog="Exit codes: 0 success, 1 the request could not be met (message on stderr), 2 usage error.",
    )
    parser.add_argument("--version", action="version", version=f"papers {__version__}")
    _add_common_options(parser, suppress=False)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    common = OneLineParser(add_help=False)
    _add_common_options(common, suppress=True)
    for module in (cli_show, cli_search, cli_state, cli_organise, cli_discover):
        module.register(subparsers, common)
    parser.commands = frozenset(subparsers.choices)
    return parser


def spread_listings(argv: Sequence[str], commands: Collection[str]) -> list[str]:
    """`argv` with the paths after a `--listings` that comes before the subcommand each given their own
    `--listings`, so `papers --listings a.txt b/ search x` (and a shell's `--listings dir/*.txt`) work.

    The paths run up to the next option or the first word that names a subcommand (a listing file called
    like one is written `./list`); the value of `--index-dir` or `--data-dir` is never taken for either.
    """
    out: list[str] = []
    words = list(argv)
    at = 0
    while at < len(words):
        word = words[at]
        at += 1
        out.append(word)
        if word in commands or word == "--":
            return out + words[at:]
        if word in ("--index-dir", "--data-dir") and at < len(words):
            out.append(words[at])
            at += 1
        elif word == "--listings" and at < len(words):
            out.append(words[at])  # the first path, whatever it is called
            at += 1
            while at < len(words) and not words[at].startswith("-") and words[at] not in commands:
                out += ["--listings", words[at]]
                at += 1
    return out


def installed_reader() -> Reader | None:
    """The reader an installed front end declares (`papers.reader` entry point), or None."""
    found = sorted(entry_points(group=READER_GROUP), key=lambda point: point.name)
    reader: Reader | None = found[0].load() if found else None
    return reader


def papers(argv: Sequence[str] | None = None) -> int:
    """The `papers` command: every subcommand, and the installed reader when none is given."""
    return main(argv, reader=installed_reader())


def _open_reader(reader: Reader) -> cli_common.Handler:
    def run(args: argparse.Namespace) -> int:
        library = Library.open(*cli_common.locations(args), config=cli_common.config())
        try:
            return reader(library)
        finally:
            library.close()

    return run


def main(argv: Sequence[str] | None = None, reader: Reader | None = None) -> int:
    """Run one subcommand; with none, run `reader` on the opened library, else print the help.

    Args:
        argv: the arguments (default: sys.argv[1:]).
        reader: what to do when no subcommand is given (`papers` passes the installed reader).
    """
    parser = build_parser()
    words = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(spread_listings(words, parser.commands))
    handler: cli_common.Handler | None = getattr(args, "handler", None)
    try:
        if handler is None:
            if reader is None:
                parser.print_help()
                return EXIT_OK
            return _open_reader(reader)(args)
        return handler(args)
    except CommandError as error:
        print(f"papers: {error}", file=sys.stderr)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        print("papers: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `papers list | head` closes the pipe early; that is not an error worth a traceback.
        sys.stderr.close()
        return EXIT_OK
