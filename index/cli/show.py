"""`papers list`, `papers stats` and `papers show`: the catalog from the command line."""

from __future__ import annotations

import argparse
import io
import shutil
import sys
import textwrap
from collections.abc import Iterable
from typing import Any

from index.cli import common as cli_common
from index.cli.errors import CommandError
from index.cli.state import open_state
from index.library import MIN_PREFIX, Library, Papers, UnknownPaperId, safe
from index.models import Paper, Source

WRAP_MIN, WRAP_MAX = 40, 100
LIST_ORDERS = ("listing", "newest", "oldest", "venue")
"""The orders `papers list --sort` takes: those that need no query and no marks."""


def register(subparsers: cli_common.Subparsers, common: argparse.ArgumentParser) -> None:
    """Add `list`, `stats` and `show` to the `papers` command."""
    for name, handler, help, json_help, arguments in (
        (
            "list",
            _run_list,
            "one line per paper: id, headline, venue",
            "a JSON array of papers with their sources",
            _list_arguments,
        ),
        (
            "stats",
            _run_stats,
            "listings, paragraphs, papers, duplicates, warnings, PDF glyphs",
            "one JSON object",
            None,
        ),
    ):
        cli_common.add_command(
            subparsers,
            common,
            name,
            handler,
            help,
            description=handler.__doc__,
            arguments=arguments,
            json=json_help,
        )
    show = cli_common.add_command(
        subparsers,
        common,
        "show",
        _run_show,
        "one paper in full, with every place it appears",
        description=_run_show.__doc__,
        arguments=_show_arguments,
        json="one JSON object",
    )
    show.add_argument(
        "--raw", action="store_true", help="the abstract as written (LaTeX, markdown) instead of rendered"
    )


def _list_arguments(parser: argparse.ArgumentParser) -> None:
    cli_common.add_sort(parser, LIST_ORDERS, "listing")


def _show_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "id", metavar="ID", help=f"a paper id from `papers list` (or a unique prefix of {MIN_PREFIX}+)"
    )


def _load(library: Library, *, build: bool = True) -> Papers:
    """The library's papers, their listing warnings already on stderr: from the index, built or updated
    first as every command that reads the papers does (its snapshot holds the headlines: 56k papers in ~1 s
    instead of parsing and making headlines for a minute), else parsed now (a read-only index dir that lags
    the listings, or an index that cannot be built here). `build=False` (stats, which needs no headline):
    from a current index, else parsed, never built.

    Raises:
        CommandError: not one listing file could be read, so an empty answer would mislead.
    """
    if build and not library.index_read_only:
        cli_common.make_current(library, required=False)
    papers = library.papers
    cli_common.warn(safe(notice) for notice in library.take_notices())
    if not papers.from_index and not papers.catalog().listings:
        raise CommandError("no listing files could be read; check --listings / PAPERS_LISTINGS")
    return papers


def _run_list(args: argparse.Namespace) -> int:
    """List every paper in the listings, one per line: id, headline and venue, duplicates merged."""
    with cli_common.open_library(args, listings=True) as library:
        papers = _load(library)
    places = papers.places(args.sort)
    if args.json:
        chosen = papers if args.sort == "listing" else sorted(papers, key=lambda p: places[p.id])
        _write(_dumps([_paper_json(paper) for paper in chosen]))
    else:
        rows = papers.rows()
        if args.sort != "listing":
            rows = iter(sorted(rows, key=lambda row: places[row[0]]))
        _write_lines(_list_line(*row) for row in rows)
    return 0


def _run_stats(args: argparse.Namespace) -> int:
    """Count listings, paper paragraphs, distinct papers and duplicates, repeat any warnings, and count the
    PDF glyphs (`(cid:NNN)`) rendering puts back or drops."""
    with cli_common.open_library(args, listings=True) as library:
        papers = _load(library, build=False)
    catalog = papers.catalog()
    warnings = [safe(str(notice)) for notice in catalog.notices]
    repaired, dropped = papers.pdf_glyphs()
    if args.json:
        listings = [
            cli_common.fields(listing, "path", "name", "format", "venue", "year")
            | {"paragraphs": len(listing.entries)}
            for listing in catalog.listings
        ]
        summary = {
            "listings": len(catalog.listings),
            "paragraphs": catalog.paragraphs,
            "papers": len(catalog.papers),
            "duplicates": catalog.duplicates,
            "warnings": warnings,
            "pdf_glyphs": {"repaired": repaired, "dropped": dropped},
            "files": listings,
        }
        _write(_dumps(summary))
        return 0
    rows = [
        ("listings", len(catalog.listings)),
        ("paragraphs", catalog.paragraphs),
        ("papers", len(catalog.papers)),
        ("duplicates", catalog.duplicates),
        ("warnings", len(warnings)),
    ]
    lines = [f"{label:<11} {value:>7}" for label, value in rows]
    lines.append(f"{'pdf glyphs':<11} {repaired:>7} repaired, {dropped} dropped")
    if catalog.listings:
        lines.append("")
        width = max(len(str(len(listing.entries))) for listing in catalog.listings)
        for listing in catalog.listings:
            count = f"{len(listing.entries):>{width}}"
            lines.append(f"{count} paragraphs  {safe(listing.name)}  ({safe(listing.path)})")
    _write_lines(lines)
    return 0


def _run_show(args: argparse.Namespace) -> int:
    """Show one paper: headline, venue, every file and line it appears at, its id, your star, read mark,
    tags and every other field you set (the note), and the abstract."""
    with cli_common.open_library(args, listings=True) as library:
        papers = _load(library)
        try:
            paper_id = papers.resolve(args.id)
        except UnknownPaperId as error:
            raise CommandError(str(error)) from None
        paper = papers.paper(paper_id)
        text = papers.rendered(paper_id).text
        open_state(library, writing=False)
        starred, read = paper_id in library.marks.starred, paper_id in library.marks.read
        tags, yours = library.organiser.tags(paper_id), library.organiser.field_values(paper_id)
    if args.json:
        record = _paper_json(paper)
        record |= {"starred": starred, "read": read, "tags": list(tags)}
        record |= {name: value or None for name, value in yours.items()}
        record |= {"text": text, "raw": paper.abstract}
        _write(_dumps(record))
        return 0
    lines = [safe(paper.headline)]
    if paper.authors:
        lines.append(safe(", ".join(paper.authors)))
    where = _venue_label(paper)
    if paper.status:
        where = f"{where} · {safe(paper.status)}" if where else safe(paper.status)
    if where:
        lines.append(where)
    if paper.url:
        lines.append(safe(paper.url))
    marks = ["★ starred" if starred else "not starred", "read" if read else "unread"]
    lines.append(f"yours: {', '.join(marks)}; tags: {', '.join(tags) or 'none'}")
    for name, value in yours.items():
        if value:
            lines.append(f"{name}:")
            lines.extend(f"  {safe(line)}" for line in str(value).split("\n"))  # safe() would join the lines
    lines.append("")
    lines.append("Sources:" if len(paper.sources) > 1 else "Source:")
    lines.extend(f"  {_source_label(source)}" for source in paper.sources)
    lines.append(f"id: {paper.id}")
    lines.append("")
    if args.raw:
        lines.append(safe(paper.abstract))
    else:
        width = max(WRAP_MIN, min(WRAP_MAX, shutil.get_terminal_size((80, 24)).columns - 1))
        lines.append(textwrap.fill(text, width=width, break_on_hyphens=False, break_long_words=False))
    _write_lines(lines)
    return 0


def _list_line(paper_id: str, headline: str, venue: str | None, year: int | None) -> str:
    where = _where(venue, year)
    return f"{paper_id}  {safe(headline)}  ({where})" if where else f"{paper_id}  {safe(headline)}"


def _venue_label(paper: Paper) -> str:
    return _where(paper.venue, paper.year)


def _where(venue: str | None, year: int | None) -> str:
    parts = [safe(venue) if venue else "", str(year) if year is not None else ""]
    return " ".join(part for part in parts if part)


def _source_label(source: Source) -> str:
    return f"{safe(source.path)}:{source.line}  paragraph {source.paragraph} of {safe(source.listing)}"


def _paper_json(paper: Paper) -> dict[str, Any]:
    """What scripts get for one paper; the data as read (JSON escaping keeps it safe to print)."""
    return {
        "id": paper.id,
        "headline": paper.headline,
        "title": paper.title,
        "authors": list(paper.authors),
        "venue": paper.venue,
        "year": paper.year,
        "status": paper.status,
        "url": paper.url,
        "sources": [cli_common.source_json(source) for source in paper.sources],
    }


def _dumps(value: object) -> str:
    return cli_common.json_text(value)


def _write_lines(lines: Iterable[str]) -> None:
    _write("\n".join(lines))


def _write(text: str) -> None:
    """One write for the whole output (56,000 lines of `list` in one go), never failing on the encoding."""
    if isinstance(sys.stdout, io.TextIOWrapper) and sys.stdout.errors == "strict":
        # A Latin-1 or ASCII terminal gets '?' for what it cannot show instead of a UnicodeEncodeError.
        sys.stdout.reconfigure(errors="replace")
    if text:
        sys.stdout.write(text + "\n")
