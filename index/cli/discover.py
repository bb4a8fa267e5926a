"""`papers foryou` and `papers facets`: recommendations with their reasons; counts per venue, year, track."""

from __future__ import annotations

import argparse
import functools
import sys
from typing import Any

from index.cli import common as cli_common
from index.cli.errors import CommandError
from index.cli.state import tagged
from index.library import ForYouHit, IndexUnavailable, Library, safe


def _foryou(args: argparse.Namespace) -> int:
    with cli_common.open_library(args, listings=True) as library:
        cli_common.make_current(library)
        try:
            seeds = tagged(library, args.tag) if args.tag else library.marks.starred
            if not seeds:
                raise CommandError("no starred papers to go on: star a few (or give --tag NAME)")
            hits = library.discovery.for_you(limit=args.limit, seeds=seeds)
        except IndexUnavailable as error:
            raise CommandError(str(error)) from None
        finally:
            cli_common.warn(library.take_notices())
        rows = [_row(library, hit) for hit in hits]
        if args.json:
            sys.stdout.write(cli_common.json_text(rows))
            print()
            return 0
        for rank, row in enumerate(rows, 1):
            nearest = row["nearest"]
            why = f"why: {', '.join(row['terms'])}; most like {nearest['id']}  {nearest['headline']}"
            cli_common.print_ranked(rank, row["id"], row["headline"], row["venue"], row["year"], why)
        what = f"tagged {args.tag}" if args.tag else "starred"
        print(f"{len(rows)} unread papers like your {len(seeds)} {what} ones", file=sys.stderr)
    return 0


def _row(library: Library, hit: ForYouHit) -> dict[str, Any]:
    papers = library.papers
    paper, nearest = papers.paper(hit.id), papers.paper(hit.nearest_id)
    return cli_common.fields(paper, "id", "headline", "venue", "year") | {
        "score": round(hit.score, 4),
        "terms": list(hit.terms),
        "nearest": {"id": nearest.id, "headline": nearest.headline},
    }


def _facets(args: argparse.Namespace) -> int:
    with cli_common.open_library(args, listings=True) as library:
        cli_common.make_current(library)
        try:
            view = library.view(args.query)
        except IndexUnavailable as error:
            raise CommandError(str(error)) from None
        finally:
            cli_common.warn(library.take_notices())
        if view.notice:
            cli_common.warn([view.notice])
        facets = library.discovery.facets(view)
        counts = {"venue": facets.venue, "year": facets.year, "status": facets.status}
        if args.json:
            rows = {name: [{"value": v, "papers": n} for v, n in values] for name, values in counts.items()}
            sys.stdout.write(cli_common.json_text({"papers": facets.total, **rows}))
            print()
            return 0
        for name, values in counts.items():
            shown = ", ".join(f"{safe(str(value))} {papers}" for value, papers in values) or "-"
            print(f"{name}: {shown}")
        print(f"{facets.total} papers", file=sys.stderr)
    return 0


def _foryou_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tag", metavar="NAME", help="papers like the ones tagged NAME (default: starred)")
    cli_common.add_limit(parser, 20)


def _facets_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("query", metavar="QUERY", nargs="?", default="", help="default: every paper")


def register(subparsers: cli_common.Subparsers, common: argparse.ArgumentParser) -> None:
    """Add the discovery subcommands; each shares the global options through `common`."""
    add = functools.partial(cli_common.add_command, subparsers, common)
    add(
        "foryou",
        _foryou,
        "unread papers like your starred (or tagged) ones, and why",
        arguments=_foryou_arguments,
        json="machine-readable output",
    )
    add(
        "facets",
        _facets,
        "how many papers a query finds per venue, year and track",
        arguments=_facets_arguments,
        json="machine-readable output",
    )
