"""`papers tag/untag/tags/note/saved`: tags, notes and saved searches from the command line."""

from __future__ import annotations

import argparse
import functools
import sys
import unicodedata
from collections.abc import Callable

from index.cli import common as cli_common
from index.cli.errors import CommandError
from index.cli.state import known_papers, nothing, open_state
from index.library import Applied, IndexUnavailable, InputError, Library, Organiser, StateError, safe
from index.models import Paper


def _one_paper(library: Library, key: str) -> Paper:
    """The paper with this id or unique prefix (a one-line error otherwise)."""
    return next(iter(known_papers(library, [key]).values()))


def _change_tags(verb: str, act: Callable[[Organiser, list[str], list[str]], Applied]) -> cli_common.Handler:
    def handler(args: argparse.Namespace) -> int:
        with cli_common.open_library(args) as library:
            paper = _one_paper(library, args.id)
            open_state(library, writing=True)
            try:
                applied = act(library.organiser, [paper.id], args.names)
            except (InputError, StateError) as error:
                raise CommandError(str(error)) from None
            now = library.organiser.tags(paper.id)
        already = "" if applied.changed else " (already)"
        print(f"{verb}{already}  {paper.id}  {safe(paper.headline)}  [tags: {', '.join(now) or 'none'}]")
        return 0

    return handler


def _tags(args: argparse.Namespace) -> int:
    with cli_common.open_library(args) as library:
        paper_id = None
        if args.id is not None:
            paper_id = _one_paper(library, args.id).id
        open_state(library, writing=False)
        if paper_id is not None:
            names = list(library.organiser.tags(paper_id))
            if not names and not args.json:
                return nothing(f"{paper_id} has no tags")
            if args.json:
                print(cli_common.json_text(names, indent=None))
            else:
                for name in names:
                    print(name)
            return 0
        counts = library.organiser.all_tags()
    if not counts and not args.json:
        return nothing("no tags yet (papers tag ID NAME, or t in the reader)")
    if args.json:
        rows = [{"name": name, "count": count} for name, count in counts.items()]
        print(cli_common.json_text(rows))
        return 0
    width = len(str(max(counts.values(), default=0)))
    for name, count in counts.items():
        print(f"{count:>{width}}  {name}")
    return 0


def _note_text(args: argparse.Namespace) -> str | None:
    """The new note from the arguments (`-` reads stdin), "" for --clear, None to show the note."""
    if args.clear:
        if args.text:
            raise CommandError("give either the note's text or --clear, not both")
        return ""
    if not args.text:
        return None
    if args.text == ["-"]:
        return sys.stdin.read()
    return " ".join(args.text)


def _note(args: argparse.Namespace) -> int:
    text = _note_text(args)
    with cli_common.open_library(args) as library:
        paper = _one_paper(library, args.id)
        open_state(library, writing=text is not None)
        if text is None:
            note = library.organiser.note(paper.id)
            if not note:
                return nothing(f"{paper.id} has no note")
            print("\n".join(safe(line) for line in note.split("\n")))  # safe() joins lines
            return 0
        try:
            applied = library.organiser.set_note(paper.id, text)
        except (InputError, StateError) as error:
            raise CommandError(str(error)) from None
        cleared = not library.organiser.note(paper.id)
    verb = "note cleared" if cleared else "noted"
    already = "" if applied.changed else " (already)"
    print(f"{verb}{already}  {paper.id}  {safe(paper.headline)}")
    return 0


def _saved_add(args: argparse.Namespace) -> int:
    """Save a query; an existing search of that name is replaced only with --replace, as it is not undone."""
    with cli_common.open_library(args) as library:
        open_state(library, writing=True)
        name = unicodedata.normalize("NFC", args.name).strip()
        before = dict(library.organiser.saved_searches()).get(name)
        if before is not None and before != " ".join(args.query.split()) and not args.replace:
            raise CommandError(
                f"a saved search named {safe(name)!r} exists ({safe(before)}); add --replace to change it"
            )
        try:
            changed = library.organiser.save_search(args.name, args.query)
        except (InputError, StateError) as error:
            raise CommandError(str(error)) from None
    state = ("replaced" if before is not None else "saved") if changed else "already saved"
    print(f"{state}: {safe(args.name.strip())} = {safe(' '.join(args.query.split()))}")
    return 0


def _saved_rm(args: argparse.Namespace) -> int:
    with cli_common.open_library(args) as library:
        open_state(library, writing=True)
        names = [name for name, _query in library.organiser.saved_searches()]
        try:
            deleted = library.organiser.delete_search(args.name)
        except (InputError, StateError) as error:
            raise CommandError(str(error)) from None
    if not deleted:
        known = f"; saved: {', '.join(repr(safe(name)) for name in names)}" if names else ""
        raise CommandError(f"no saved search named {safe(args.name)!r}{known}")
    print(f"deleted: {safe(args.name.strip())}")
    return 0


def _saved_list(args: argparse.Namespace) -> int:
    with cli_common.open_library(args) as library:
        open_state(library, writing=False)
        saved = library.organiser.saved_searches()
        counts: list[int | None] = []
        if saved:
            cli_common.make_current(library)
            try:
                counts = [library.organiser.unread_count(query) for _name, query in saved]
            except IndexUnavailable as error:
                raise CommandError(str(error)) from None
            finally:
                cli_common.warn(library.take_notices())
    if args.json:
        rows = [
            {"name": name, "query": query, "unread": count}
            for (name, query), count in zip(saved, counts, strict=True)
        ]
        print(cli_common.json_text(rows))
        return 0
    if not saved and not args.json:
        return nothing("no saved searches yet (papers saved add NAME QUERY, or ctrl+s in the reader)")
    width = max((len(name) for name, _query in saved), default=0)
    for (name, query), count in zip(saved, counts, strict=True):
        print(f"{safe(name):<{width}}  {count if count is not None else '?':>6} unread  {safe(query)}")
    return 0


def _tag_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar="ID", help="a paper id from `papers list` (or a unique prefix)")
    parser.add_argument("names", nargs="+", metavar="NAME", help="tag names (one word each; any case)")


def _tags_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", nargs="?", metavar="ID", help="only this paper's tags")


def _note_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar="ID", help="a paper id from `papers list` (or a unique prefix)")
    parser.add_argument("text", nargs="*", metavar="TEXT", help="the new note (- reads it from stdin)")
    parser.add_argument("--clear", action="store_true", help="remove the note")


def _saved_arguments(common: argparse.ArgumentParser) -> Callable[[argparse.ArgumentParser], None]:
    def arguments(parser: argparse.ArgumentParser) -> None:
        actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
        add = actions.add_parser("add", parents=[common], help="save QUERY as NAME")
        add.add_argument("name", metavar="NAME", help='e.g. "diffusion, unread" (quote spaces)')
        add.add_argument("query", metavar="QUERY", help='the query, quoted: "diffusion is:unread tag:later"')
        add.add_argument(
            "--replace", action="store_true", help="replace the saved search of that name (else an error)"
        )
        add.set_defaults(handler=_saved_add)
        listing = actions.add_parser("list", parents=[common], help="saved searches with their unread counts")
        listing.add_argument("--json", action="store_true", help="machine-readable output")
        listing.set_defaults(handler=_saved_list)
        remove = actions.add_parser("rm", parents=[common], help="delete a saved search")
        remove.add_argument("name", metavar="NAME")
        remove.set_defaults(handler=_saved_rm)

    return arguments


def register(subparsers: cli_common.Subparsers, common: argparse.ArgumentParser) -> None:
    """Add the tag, note and saved-search subcommands; each shares the global options through `common`."""
    add = functools.partial(cli_common.add_command, subparsers, common)
    add(
        "tag",
        _change_tags("tagged", Organiser.tag),
        "tag a paper (tags are one word each, any case)",
        arguments=_tag_arguments,
    )
    add("untag", _change_tags("untagged", Organiser.untag), "take tags off a paper", arguments=_tag_arguments)
    add("tags", _tags, "every tag with its number of papers", arguments=_tags_arguments, json="a JSON list")
    add("note", _note, "show, set or clear a paper's note", arguments=_note_arguments)
    add(
        "saved",
        _saved_list,
        "saved searches: add NAME QUERY, list (with unread counts), rm NAME",
        arguments=_saved_arguments(common),
    )
