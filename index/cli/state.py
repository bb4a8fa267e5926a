"""`papers star/unstar/read/unread/starred/export/import`: the per-user state from the command line."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from index.cli import common as cli_common
from index.cli.catalog import find_paper
from index.cli.errors import CommandError
from index.listings.catalog import load_catalog
from index.models import Catalog, Paper
from index.render.abstract import to_plain
from index.render.sanitize import sanitize
from index.state.store import Applied, StateError, StateStore
from index.state.transfer import (
    NOT_LISTED,
    Described,
    ImportFormatError,
    Which,
    first_sentence,
    iso,
    parse_export,
    select,
    to_csv,
    to_json,
    to_markdown,
)


def _catalog(args: argparse.Namespace) -> Catalog:
    """The one place state commands read listings (the lead may swap in a cached facade here)."""
    return load_catalog(cli_common.listing_paths(args))


def _open_store(args: argparse.Namespace, *, writing: bool) -> StateStore:
    store = StateStore.open(cli_common.data_dir(args))
    if writing and store.read_only:
        # Only the error: the read-only warning would say the same thing a second time.
        store.close()
        raise CommandError(f"cannot save stars or read marks: {store.read_only_reason}")
    cli_common.warn(store.notices)
    return store


def _known_papers(args: argparse.Namespace, wanted: Sequence[str]) -> dict[str, Paper]:
    """Resolve every id (or unique prefix, as `papers show` takes) before changing any of them."""
    catalog = _catalog(args)
    by_id = {paper.id: paper for paper in catalog.papers}
    found: dict[str, Paper] = {}
    for key in wanted:
        paper = by_id.get(key) or find_paper(catalog, key)
        found[paper.id] = paper
    return found


def _safe(text: str) -> str:
    """Listing text is untrusted: no escape sequences or controls reach the terminal or an export."""
    return sanitize(text)


def _describe(paper: Paper, *, sentence: bool = True) -> Described:
    """Display-safe headline, venue and (rendering the abstract, so only when needed) its first sentence."""
    venue = _safe(paper.venue) if paper.venue else None
    first = first_sentence(_safe(to_plain(paper.abstract))) if sentence else ""
    return Described(_safe(paper.headline), venue, first, paper.year)


def _change(
    verb: str, act: Callable[[StateStore, list[str]], Applied]
) -> Callable[[argparse.Namespace], int]:
    def handler(args: argparse.Namespace) -> int:
        papers = _known_papers(args, args.ids)
        ids = list(papers)
        store = _open_store(args, writing=True)
        try:
            applied = act(store, ids)
        except StateError as error:
            raise CommandError(str(error)) from None
        finally:
            store.close()
        changed = set(applied.changed)
        for paper_id in ids:
            note = "" if paper_id in changed else " (already)"
            print(f"{verb}{note}  {paper_id}  {_safe(papers[paper_id].headline)}")
        return 0

    return handler


def _starred(args: argparse.Namespace) -> int:
    store = _open_store(args, writing=False)
    try:
        starred = store.starred()
    finally:
        store.close()
    papers = {paper.id: paper for paper in _catalog(args).papers} if starred else {}
    if args.json:
        rows = []
        for paper_id, at in starred:
            paper = papers.get(paper_id)
            info = _describe(paper, sentence=False) if paper else None
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
        info = _describe(paper, sentence=False) if paper else None
        venue = f"  ({info.venue_label})" if info and info.venue_label else ""
        print(f"{paper_id}  {iso(at)}  {info.headline if info else NOT_LISTED}{venue}")
    return 0


def _export(args: argparse.Namespace) -> int:
    which: Which = args.which
    store = _open_store(args, writing=False)
    try:
        records = select(store.records(), which)
    finally:
        store.close()
    papers = {paper.id: paper for paper in _catalog(args).papers} if records else {}
    described = {record.id: _describe(papers[record.id]) for record in records if record.id in papers}
    now = time.time()
    if args.format == "json":
        sys.stdout.write(to_json(records, described, now))
    elif args.format == "csv":
        sys.stdout.write(to_csv(records, described))
    else:
        sys.stdout.write(to_markdown(records, described, which, now))
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
        records = parse_export(_read_import(path))
    except ImportFormatError as error:
        raise CommandError(f"{path}: {error}; nothing was imported") from None
    store = _open_store(args, writing=True)
    try:
        applied = store.merge(records, f"import {path.name}")
    except StateError as error:
        raise CommandError(str(error)) from None
    finally:
        store.close()
    noun = "paper" if len(records) == 1 else "papers"
    print(f"imported {path}: {len(records)} {noun} read, {len(applied.changed)} changed")
    return 0


def register(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    """Add the state subcommands; each shares the global options through `common`."""
    actions: list[tuple[str, str, Callable[[StateStore, list[str]], Applied]]] = [
        ("star", "starred", lambda store, ids: store.star(ids)),
        ("unstar", "unstarred", lambda store, ids: store.unstar(ids)),
        ("read", "read", lambda store, ids: store.mark_read(ids)),
        ("unread", "unread", lambda store, ids: store.mark_unread(ids)),
    ]
    for name, verb, act in actions:
        sub = subparsers.add_parser(
            name, parents=[common], help=f"mark papers as {verb} (ids from `papers list`)"
        )
        sub.add_argument(
            "ids", nargs="+", metavar="ID", help="paper ids from `papers list` (or unique prefixes)"
        )
        sub.set_defaults(handler=_change(verb, act))

    starred = subparsers.add_parser("starred", parents=[common], help="list starred papers, newest first")
    starred.add_argument("--json", action="store_true", help="machine-readable output")
    starred.set_defaults(handler=_starred)

    export = subparsers.add_parser(
        "export", parents=[common], help="write stars and read marks to stdout, to move them between machines"
    )
    which = export.add_mutually_exclusive_group()
    which.add_argument("--all", dest="which", action="store_const", const="all", help="everything (default)")
    which.add_argument(
        "--starred", dest="which", action="store_const", const="starred", help="starred papers"
    )
    which.add_argument("--read", dest="which", action="store_const", const="read", help="read papers")
    export.add_argument(
        "--format",
        choices=("json", "markdown", "csv"),
        default="json",
        help="json (for `papers import`, the default), markdown (notes) or csv",
    )
    export.set_defaults(handler=_export, which="all")

    imp = subparsers.add_parser(
        "import", parents=[common], help="merge a JSON export: newest change wins per paper and field"
    )
    imp.add_argument(
        "file", type=Path, metavar="FILE", help="a file written by `papers export` (- for stdin)"
    )
    imp.set_defaults(handler=_import)
