"""`papers star/unstar/read/unread/starred/export/import`: the per-user state from the command line.

`open_state` and `known_papers` are shared with `index.cli.organise` (tags, notes, saved searches).
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from index.cli import common as cli_common
from index.cli.errors import CommandError
from index.library import (
    Applied,
    Exports,
    ImportFormatError,
    Library,
    Marks,
    StateError,
    TagNameError,
    UnknownPaperId,
    iso_time,
    safe,
)
from index.models import Paper

NOT_LISTED = "(not in the current listings)"


def open_state(library: Library, *, writing: bool) -> None:
    """Open the store now, so its warnings come before any output; refuse early when it cannot be written."""
    marks = library.marks
    read_only = marks.read_only  # opens the store
    if writing and read_only:
        # Only the error: the read-only warning would say the same thing a second time.
        raise CommandError(f"cannot save stars or read marks: {marks.read_only_reason}")
    cli_common.warn(library.take_notices())


def nothing(what: str) -> int:
    """An answer with nothing in it says so in one line on stderr (stdout stays empty for scripts): exit 0."""
    print(f"papers: {what}", file=sys.stderr)
    return 0


def tagged(library: Library, name: str) -> frozenset[str]:
    """The papers tagged `name` (any case), for the commands that take `--tag`.

    Raises:
        CommandError: a name no tag can have, or a tag no paper has (with the tags in use).
    """
    try:
        ids = library.organiser.tagged_ids(name)
    except TagNameError as error:
        raise CommandError(str(error)) from None
    if not ids:
        in_use = ", ".join(library.organiser.all_tags()) or "none yet"
        raise CommandError(f"no papers tagged {safe(name)!r} (tags in use: {in_use})")
    return ids


def known_papers(library: Library, wanted: Sequence[str]) -> dict[str, Paper]:
    """Resolve every id (or unique prefix, as `papers show` takes) before changing any of them."""
    papers = library.papers
    found: dict[str, Paper] = {}
    for key in wanted:
        try:
            paper_id = papers.resolve(key)
        except UnknownPaperId as error:
            raise CommandError(str(error)) from None
        found[paper_id] = papers.paper(paper_id)
    return found


def _change(verb: str, act: Callable[[Marks, list[str]], Applied]) -> cli_common.Handler:
    def handler(args: argparse.Namespace) -> int:
        with cli_common.open_library(args) as library:
            papers = known_papers(library, args.ids)
            ids = list(papers)
            open_state(library, writing=True)
            try:
                applied = act(library.marks, ids)
            except StateError as error:
                raise CommandError(str(error)) from None
        changed = set(applied.changed)
        for paper_id in ids:
            note = "" if paper_id in changed else " (already)"
            print(f"{verb}{note}  {paper_id}  {safe(papers[paper_id].headline)}")
        return 0

    return handler


def _starred(args: argparse.Namespace) -> int:
    with cli_common.open_library(args) as library:
        open_state(library, writing=False)
        starred = library.marks.starred_newest_first()
        if not starred and not args.json:
            return nothing("no starred papers yet (papers star ID, or s in the reader)")
        papers = library.papers if starred else None
        described = {
            paper_id: papers.described(paper_id, sentence=False)
            for paper_id, _at in starred
            if papers is not None and paper_id in papers
        }
    if args.json:
        rows = []
        for paper_id, at in starred:
            info = described.get(paper_id)
            rows.append(
                {
                    "id": paper_id,
                    "starred_at": at,
                    "headline": info.headline if info else None,
                    "venue": info.venue if info else None,
                    "year": info.year if info else None,
                }
            )
        print(cli_common.json_text(rows))
        return 0
    for paper_id, at in starred:
        info = described.get(paper_id)
        venue = f"  ({info.venue_label})" if info and info.venue_label else ""
        print(f"{paper_id}  {iso_time(at)}  {info.headline if info else NOT_LISTED}{venue}")
    return 0


def _export(args: argparse.Namespace) -> int:
    with cli_common.open_library(args) as library:
        open_state(library, writing=False)
        if args.tag:
            tagged(library, args.tag)
        try:
            exported = library.exports.write(args.format, args.which, args.tag)
        except TagNameError as error:
            raise CommandError(str(error)) from None
    sys.stdout.write(exported.text)
    if exported.skipped:
        count = exported.skipped
        papers_word = "paper" if count == 1 else "papers"
        cli_common.warn([f"skipped {count} {papers_word} without a title or authors (BibTeX needs both)"])
    return 0


def _read_import(path: Path) -> str:
    try:
        if str(path) == "-":
            return sys.stdin.read()
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CommandError(f"{path}: not a papers export (not UTF-8 text)") from None
    except OSError as error:
        raise CommandError(f"{path}: cannot read ({error.strerror or error})") from None


def _import(args: argparse.Namespace) -> int:
    path: Path = args.file
    try:
        document = Exports.parse(_read_import(path))
    except ImportFormatError as error:
        raise CommandError(f"{path}: {error}; nothing was imported") from None
    with cli_common.open_library(args) as library:
        open_state(library, writing=True)
        try:
            merged = library.exports.merge(document, f"import {path.name}")
        except StateError as error:
            raise CommandError(str(error)) from None
    count = merged.papers
    summary = f"imported {path}: {count} {'paper' if count == 1 else 'papers'} read, {merged.changed} changed"
    if merged.searches:
        summary += f"; {merged.searches} saved searches read, {merged.searches_changed} changed"
    print(summary)
    return 0


def _ids_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "ids", nargs="+", metavar="ID", help="paper ids from `papers list` (or unique prefixes)"
    )


def _export_arguments(parser: argparse.ArgumentParser) -> None:
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--all", dest="which", action="store_const", const="all", help="everything (default)")
    which.add_argument(
        "--starred", dest="which", action="store_const", const="starred", help="starred papers"
    )
    which.add_argument("--read", dest="which", action="store_const", const="read", help="read papers")
    parser.add_argument(
        "--tag", metavar="NAME", help="only papers with this tag (markdown: a reading list of them)"
    )
    parser.add_argument(
        "--format",
        choices=("json", "markdown", "csv", "bibtex"),
        default="json",
        help="json (for `papers import`, the default), markdown (notes) or csv, all with tags and notes; or "
        "bibtex: papers with a title and authors (every listed paper unless a selection is given)",
    )
    parser.set_defaults(which="all")


def _import_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", type=Path, metavar="FILE", help="a file written by `papers export` (- for stdin)"
    )


def register(subparsers: cli_common.Subparsers, common: argparse.ArgumentParser) -> None:
    """Add the state subcommands; each shares the global options through `common`."""
    add = functools.partial(cli_common.add_command, subparsers, common)
    actions: list[tuple[str, str, Callable[[Marks, list[str]], Applied]]] = [
        ("star", "starred", Marks.star),
        ("unstar", "unstarred", Marks.unstar),
        ("read", "read", Marks.mark_read),
        ("unread", "unread", Marks.mark_unread),
    ]
    for name, verb, act in actions:
        add(
            name,
            _change(verb, act),
            f"mark papers as {verb} (ids from `papers list`)",
            arguments=_ids_argument,
        )
    add("starred", _starred, "list starred papers, newest first", json="machine-readable output")
    add(
        "export",
        _export,
        "write stars, read marks, tags, notes and saved searches to stdout, to move them between machines",
        arguments=_export_arguments,
    )
    add(
        "import",
        _import,
        "merge a JSON export: newest change wins per paper and field, tag, note and saved search",
        arguments=_import_arguments,
    )
