"""`papers index`, `papers search`, `papers similar`: the search index from the command line."""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Sequence
from typing import Any

from index.cli import common as cli_common
from index.cli.errors import CommandError
from index.library import (
    ORDERS,
    IndexUnavailable,
    MatchSpan,
    SearchHit,
    UnknownPaper,
    UnknownPaperId,
    UpdateReport,
)

_BOLD, _RESET = "\x1b[1m", "\x1b[0m"


def _describe(report: UpdateReport) -> str:
    what = f"full build ({report.reason})" if report.rebuilt else "update"
    return (
        f"{what}: {report.papers} papers indexed; {report.added} added, {report.updated} updated, "
        f"{report.removed} removed in {report.seconds:.1f} s"
    )


def _index(args: argparse.Namespace) -> int:
    with cli_common.open_library(args, listings=True) as library:
        if library.index_read_only:
            raise CommandError(
                f"the index directory {library.index_dir} is not writable; use --index-dir DIR"
            )
        report = cli_common.make_current(
            library, rebuild=args.rebuild, lines=not args.quiet, implicit=False, quiet=args.quiet
        )
        if args.shared:
            library.publish_index()
            print(
                f"shared: {library.index_dir} is readable by every user; point them at it with "
                f'index_dir = "{library.index_dir}" in the site config (see README)'
            )
        if report is not None:
            print(_describe(report))
            return 0
        try:
            count = library.indexed()
        except IndexUnavailable as error:
            raise CommandError(str(error)) from None
        print(f"index is up to date: {count} papers; 0 added, 0 updated, 0 removed")
    return 0


def _marked(text: str, spans: Sequence[MatchSpan], tty: bool) -> str:
    """Matches in bold on a terminal, between `*` in a pipe, so both show what matched."""
    start_mark, end_mark = (_BOLD, _RESET) if tty else ("*", "*")
    out, last = [], 0
    for span in spans:
        out += [text[last : span.start], start_mark, text[span.start : span.end], end_mark]
        last = span.end
    out.append(text[last:])
    return "".join(out)


def _hit_json(hit: SearchHit, starred: frozenset[str], read: frozenset[str], scored: bool) -> dict[str, Any]:
    snippet = hit.snippet
    return {
        "id": hit.id,
        "headline": hit.headline,
        "title": hit.title,
        "venue": hit.venue,
        "year": hit.year,
        "score": round(hit.score, 4) if scored else None,
        "snippet": snippet.text if snippet else None,
        "matches": [[span.start, span.end] for span in snippet.matches] if snippet else [],
        "abstract_matches": [[span.start, span.end] for span in hit.matches],
        "sources": [cli_common.source_json(source) for source in hit.sources],
        "starred": hit.id in starred,
        "read": hit.id in read,
    }


def _search(args: argparse.Namespace) -> int:
    with cli_common.open_library(args, listings=True) as library:
        cli_common.make_current(library)
        try:
            view = library.view(args.query, order=args.sort, limit=args.limit, highlight_top=args.limit)
        except IndexUnavailable as error:
            raise CommandError(str(error)) from None
        finally:
            cli_common.warn(library.take_notices())  # the state store's: the view opened it first thing
        if view.notice:
            cli_common.warn([view.notice])
        if view.suggestion:
            print(f"papers: did you mean: {view.suggestion}", file=sys.stderr)
        if args.json:
            starred, read = library.marks.starred, library.marks.read
            scored = args.sort == "relevance"  # another order ranks nothing: no score to give
            rows = [_hit_json(hit, starred, read, scored) for hit in view.hits]
            sys.stdout.write(cli_common.json_text(rows))
            print()
            return 0
        tty = sys.stdout.isatty()
        for rank, hit in enumerate(view.hits, 1):
            headline = _marked(hit.headline, hit.headline_matches, tty)
            snippet = None if hit.snippet is None else _marked(hit.snippet.text, hit.snippet.matches, tty)
            cli_common.print_ranked(rank, hit.id, headline, hit.venue, hit.year, snippet)
        print(f"{len(view.hits)} of {view.total} matching papers", file=sys.stderr)
    return 0


def _similar(args: argparse.Namespace) -> int:
    with cli_common.open_library(args, listings=True) as library:
        cli_common.make_current(library)
        try:
            paper_id = library.papers.resolve(args.id)
        except UnknownPaperId as error:
            raise CommandError(str(error)) from None
        try:
            hits = library.discovery.similar(paper_id, limit=args.limit)
        except UnknownPaper:
            raise CommandError(f"paper {args.id} is not in the index; run `papers index`") from None
        except IndexUnavailable as error:
            raise CommandError(str(error)) from None
        if args.json:
            rows = [
                cli_common.fields(h, "id", "headline", "venue", "year")
                | {"score": round(h.score, 4), "shared_terms": list(h.shared_terms)}
                for h in hits
            ]
            sys.stdout.write(cli_common.json_text(rows))
            print()
            return 0
        for rank, hit in enumerate(hits, 1):
            shared = f"shared: {', '.join(hit.shared_terms)}"
            cli_common.print_ranked(rank, hit.id, hit.headline, hit.venue, hit.year, shared)
    return 0


def _index_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rebuild", action="store_true", help="build from scratch instead of updating")
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="no progress on stderr (by default a bar on a terminal, else a line at most every "
        f"{cli_common.PROGRESS_EVERY:.0f} s: a log or cron job shows a long build is moving)",
    )
    # Kept so scripts written when progress lines had to be asked for still run: they are the default now.
    parser.add_argument("--progress", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--shared",
        action="store_true",
        help="admin: make the index readable (not writable) by every user of a shared server",
    )


def _search_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "query", metavar="QUERY", help='e.g. diffusion, "exact phrase", title:graph, is:starred'
    )
    cli_common.add_limit(parser, 20)
    cli_common.add_sort(parser, ORDERS, "relevance")


def _similar_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar="ID", help="a paper id (or unique prefix) from `papers list`")
    cli_common.add_limit(parser, 10)


def register(subparsers: cli_common.Subparsers, common: argparse.ArgumentParser) -> None:
    """Add the search subcommands; each shares the global options through `common`."""
    add = functools.partial(cli_common.add_command, subparsers, common)
    add(
        "index",
        _index,
        "build or update the search index (done automatically on first search)",
        arguments=_index_arguments,
    )
    add(
        "search",
        _search,
        "search titles, abstracts and authors (see README: Query syntax)",
        arguments=_search_arguments,
        json="machine-readable output",
    )
    add(
        "similar",
        _similar,
        "papers like the given one, and why",
        arguments=_similar_arguments,
        json="machine-readable output",
    )
