"""`papers star/unstar/read/unread/starred/export/import`: the per-user state from the command line.

`open_state`, `known_papers`, `safe` and `describe` are shared with `index.cli.organise` (tags, notes, saved
searches).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from index.cli import common as cli_common
from index.cli.catalog import find_paper
from index.cli.errors import CommandError
from index.library import Library
from index.listings.catalog import no_headline
from index.models import Paper
from index.render.abstract import to_plain
from index.render.sanitize import sanitize
from index.state.bibtex import cite_keys, to_bibtex
from index.state.store import Applied, StateError
from index.state.tags import TagNameError, normalize_tag
from index.state.transfer import (
    NOT_LISTED,
    Described,
    ImportFormatError,
    Which,
    first_sentence,
    iso,
    parse_document,
    select,
    to_csv,
    to_json,
    to_markdown,
)


def open_state(library: Library, *, writing: bool) -> None:
    """Open the store now, so its warnings come before any output; refuse early when it cannot be written."""
    read_only = library.state_read_only  # opens the store
    if writing and read_only:
        # Only the error: the read-only warning would say the same thing a second time.
        raise CommandError(f"cannot save stars or read marks: {library.state.read_only_reason}")
    cli_common.warn(library.take_notices())


def known_papers(library: Library, wanted: Sequence[str]) -> dict[str, Paper]:
    """Resolve every id (or unique prefix, as `papers show` takes) before changing any of them."""
    catalog = library.read_listings()
    by_id = {paper.id: paper for paper in catalog.papers}
    found: dict[str, Paper] = {}
    for key in wanted:
        paper = by_id.get(key) or find_paper(catalog, key)
        found[paper.id] = paper
    return found


def safe(text: str) -> str:
    """Listing text is untrusted: no escape sequences or controls reach the terminal or an export."""
    return sanitize(text)


def describe(paper: Paper, *, sentence: bool = True) -> Described:
    """Display-safe headline, venue and (rendering the abstract, so only when needed) its first sentence."""
    venue = safe(paper.venue) if paper.venue else None
    first = first_sentence(safe(to_plain(paper.abstract))) if sentence else ""
    return Described(safe(paper.headline), venue, first, paper.year)


def _change(verb: str, act: Callable[[Library, list[str]], Applied]) -> cli_common.Handler:
    def handler(args: argparse.Namespace) -> int:
        with cli_common.open_library(args) as library:
            papers = known_papers(library, args.ids)
            ids = list(papers)
            open_state(library, writing=True)
            try:
                applied = act(library, ids)
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
        starred = library.starred()
        papers = {paper.id: paper for paper in library.read_listings().papers} if starred else {}
    if args.json:
        rows = []
        for paper_id, at in starred:
            paper = papers.get(paper_id)
            info = describe(paper, sentence=False) if paper else None
            rows.append(
                {
                    "id": paper_id,
                    "starred_at": at,
                    "headline": info.headline if info else None,
                    "venue": info.venue if info else None,
                    "year": info.year if info else None,
                }
            )
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    for paper_id, at in starred:
        paper = papers.get(paper_id)
        info = describe(paper, sentence=False) if paper else None
        venue = f"  ({info.venue_label})" if info and info.venue_label else ""
        print(f"{paper_id}  {iso(at)}  {info.headline if info else NOT_LISTED}{venue}")
    return 0


def _export(args: argparse.Namespace) -> int:
    which: Which = args.which
    try:
        tag = None if args.tag is None else normalize_tag(args.tag)
    except TagNameError as error:
        raise CommandError(str(error)) from None
    if args.format == "bibtex":
        return _export_bibtex(args, which, tag)
    with cli_common.open_library(args) as library:
        open_state(library, writing=False)
        records = select(library.records(), which, tag)
        # A selection (--starred, --read, --tag) is a list to read, not a copy of the store to import.
        saved = library.search_records() if which == "all" and tag is None else []
        papers = {paper.id: paper for paper in library.read_listings().papers} if records else {}
    described = {record.id: describe(papers[record.id]) for record in records if record.id in papers}
    now = time.time()
    if args.format == "json":
        sys.stdout.write(to_json(records, described, now, saved))
    elif args.format == "csv":
        sys.stdout.write(to_csv(records, described))
    else:
        sys.stdout.write(to_markdown(records, described, which, now, tag))
    return 0


def _export_bibtex(args: argparse.Namespace, which: Which, tag: str | None) -> int:
    """Every listed paper by default, or the ones starred, read or tagged now, in listing order.

    Keys are made over all the listings' papers, so a paper's key is the same whatever is selected.
    """
    with cli_common.open_library(args) as library:
        open_state(library, writing=False)
        papers = library.read_listings(no_headline).papers
        if which != "all" or tag is not None:
            wanted = {record.id for record in select(library.records(), which, tag)}
            chosen = [paper for paper in papers if paper.id in wanted]
        else:
            chosen = list(papers)
    bibliography = to_bibtex(chosen, cite_keys(papers))
    sys.stdout.write(bibliography.text)
    if bibliography.skipped:
        count = bibliography.skipped
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
        document = parse_document(_read_import(path))
    except ImportFormatError as error:
        raise CommandError(f"{path}: {error}; nothing was imported") from None
    with cli_common.open_library(args) as library:
        open_state(library, writing=True)
        try:
            applied = library.merge(document.papers, f"import {path.name}", document.saved)
        except StateError as error:
            raise CommandError(str(error)) from None
    count = len(document.papers)
    summary = (
        f"imported {path}: {count} {'paper' if count == 1 else 'papers'} read, {len(applied.changed)} changed"
    )
    if document.saved:
        summary += f"; {len(document.saved)} saved searches read, {len(applied.searches)} changed"
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
    actions: list[tuple[str, str, Callable[[Library, list[str]], Applied]]] = [
        ("star", "starred", Library.star),
        ("unstar", "unstarred", Library.unstar),
        ("read", "read", Library.mark_read),
        ("unread", "unread", Library.mark_unread),
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
