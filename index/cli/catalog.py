"""`papers list`, `papers stats` and `papers show`: the catalog from the command line."""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import re
import shutil
import sys
import textwrap
from collections.abc import Callable, Iterable
from typing import Any

from index.cli import common as cli_common
from index.cli.errors import CommandError
from index.listings.catalog import headline_for, no_headline, paper_headline
from index.models import Catalog, Entry, Paper, Source
from index.render.abstract import sanitize, to_plain
from index.render.pdf_glyphs import counts as glyph_counts
from index.search.snapshot import Snapshot

MIN_PREFIX = 4
WRAP_MIN, WRAP_MAX = 40, 100
# json.dumps escapes C0 controls but, with ensure_ascii=False, passes C1 controls (0x9b is a one-byte CSI on
# some terminals), bidi overrides and line separators straight through: escape those too, so `--json` is
# safe to print and still readable for CJK and accented text.
_JSON_UNSAFE = re.compile(
    "[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]"
)


def register(subparsers: cli_common.Subparsers, common: argparse.ArgumentParser) -> None:
    """Add `list`, `stats` and `show` to the `papers` command."""
    for name, handler, help, json_help in (
        (
            "list",
            _run_list,
            "one line per paper: id, headline, venue",
            "a JSON array of papers with their sources",
        ),
        (
            "stats",
            _run_stats,
            "listings, paragraphs, papers, duplicates, warnings, PDF glyphs",
            "one JSON object",
        ),
    ):
        cli_common.add_command(
            subparsers, common, name, handler, help, description=handler.__doc__, json=json_help
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


def _show_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "id", metavar="ID", help=f"a paper id from `papers list` (or a unique prefix of {MIN_PREFIX}+)"
    )


def _load(
    args: argparse.Namespace, headlines: Callable[[Entry], str] = headline_for, *, required: bool = True
) -> Catalog:
    """The whole catalog for these options (see `_load_any`)."""
    catalog = _load_any(args, headlines, required=required, whole=True)
    assert isinstance(catalog, Catalog)
    return catalog


def _load_any(
    args: argparse.Namespace,
    headlines: Callable[[Entry], str] = headline_for,
    *,
    required: bool = True,
    whole: bool = True,
) -> Catalog | Snapshot:
    """The catalog for these options, its warnings already on stderr: from a current index (headlines made
    when it was built: 56k papers in ~1 s instead of parsing for 25), else parsed now.

    Args:
        whole: False takes an index's `Snapshot` (its list columns, nothing decoded) rather than its catalog.

    Raises:
        CommandError: `required` and not one listing file could be read, so an empty answer would mislead.
    """
    with cli_common.open_library(args) as library:
        indexed = library.indexed_listings()
        if indexed is None:
            catalog: Catalog | Snapshot = library.read_listings(headlines)
            notices = catalog.notices
        else:
            catalog, notices = indexed
            if whole:
                catalog = dataclasses.replace(catalog.catalog(), notices=notices)
    cli_common.warn(sanitize(str(notice)) for notice in notices)
    if required and isinstance(catalog, Catalog) and not catalog.listings:
        raise CommandError("no listing files could be read; check --listings / PAPERS_LISTINGS")
    return catalog


def _run_list(args: argparse.Namespace) -> int:
    """List every paper in the listings, one per line: id, headline and venue, duplicates merged."""
    catalog = _load_any(args, whole=args.json)
    if args.json:
        _write(_dumps([_paper_json(paper) for paper in catalog.papers]))
    elif isinstance(catalog, Snapshot):
        columns = (catalog.ids, catalog.headlines, catalog.venues, catalog.years)
        _write_lines(_list_line(*row) for row in zip(*columns, strict=True))
    else:
        _write_lines(
            _list_line(paper.id, paper.headline, paper.venue, paper.year) for paper in catalog.papers
        )
    return 0


def _run_stats(args: argparse.Namespace) -> int:
    """Count listings, paper paragraphs, distinct papers and duplicates, repeat any warnings, and count the
    PDF glyphs (`(cid:NNN)`) rendering puts back or drops."""
    catalog = _load(args, no_headline, required=False)
    warnings = [sanitize(str(notice)) for notice in catalog.notices]
    repaired, dropped = _pdf_glyphs(catalog)
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
            lines.append(f"{count} paragraphs  {sanitize(listing.name)}  ({sanitize(listing.path)})")
    _write_lines(lines)
    return 0


def _pdf_glyphs(catalog: Catalog) -> tuple[int, int]:
    """`(cid:NNN)` artefacts over all papers: how many rendering puts back and how many it drops unknown."""
    repaired = dropped = 0
    for paper in catalog.papers:
        if "(cid:" in paper.abstract:
            found = glyph_counts(paper.abstract)
            repaired, dropped = repaired + found[0], dropped + found[1]
    return repaired, dropped


def _run_show(args: argparse.Namespace) -> int:
    """Show one paper: headline, venue, every file and line it appears at, its id and the abstract."""
    found = find_paper(_load(args, no_headline), args.id)
    paper = dataclasses.replace(found, headline=paper_headline(found.abstract, found.title))
    if args.json:
        record = _paper_json(paper)
        record |= {"text": to_plain(paper.abstract), "raw": paper.abstract}
        _write(_dumps(record))
        return 0
    lines = [sanitize(paper.headline)]
    if paper.authors:
        lines.append(sanitize(", ".join(paper.authors)))
    where = _venue_label(paper)
    if paper.status:
        where = f"{where} · {sanitize(paper.status)}" if where else sanitize(paper.status)
    if where:
        lines.append(where)
    if paper.url:
        lines.append(sanitize(paper.url))
    lines.append("")
    lines.append("Sources:" if len(paper.sources) > 1 else "Source:")
    lines.extend(f"  {_source_label(source)}" for source in paper.sources)
    lines.append(f"id: {paper.id}")
    lines.append("")
    if args.raw:
        lines.append(sanitize(paper.abstract))
    else:
        width = max(WRAP_MIN, min(WRAP_MAX, shutil.get_terminal_size((80, 24)).columns - 1))
        text = to_plain(paper.abstract)
        lines.append(textwrap.fill(text, width=width, break_on_hyphens=False, break_long_words=False))
    _write_lines(lines)
    return 0


def find_paper(catalog: Catalog, wanted: str) -> Paper:
    """The paper with id `wanted`, or the only one whose id starts with it (at least MIN_PREFIX characters).

    Raises:
        CommandError: no paper matches, or the prefix matches several (their ids are named).
    """

    key = wanted.strip().lower()
    shown = sanitize(wanted)
    exact = [paper for paper in catalog.papers if paper.id == key]
    if exact:
        return exact[0]
    matches = (
        [paper for paper in catalog.papers if paper.id.startswith(key)] if len(key) >= MIN_PREFIX else []
    )
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        some = ", ".join(paper.id for paper in matches[:5]) + (", ..." if len(matches) > 5 else "")
        raise CommandError(
            f"paper id prefix '{shown}' matches {len(matches)} papers ({some}); type more of it"
        )
    raise CommandError(f"unknown paper id '{shown}' (see `papers list`)")


def _list_line(paper_id: str, headline: str, venue: str | None, year: int | None) -> str:
    where = _where(venue, year)
    return f"{paper_id}  {sanitize(headline)}  ({where})" if where else f"{paper_id}  {sanitize(headline)}"


def _venue_label(paper: Paper) -> str:
    return _where(paper.venue, paper.year)


def _where(venue: str | None, year: int | None) -> str:
    parts = [sanitize(venue) if venue else "", str(year) if year is not None else ""]
    return " ".join(part for part in parts if part)


def _source_label(source: Source) -> str:
    return (
        f"{sanitize(source.path)}:{source.line}  paragraph {source.paragraph} of {sanitize(source.listing)}"
    )


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
    text = json.dumps(value, ensure_ascii=False, indent=2)
    return _JSON_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def _write_lines(lines: Iterable[str]) -> None:
    _write("\n".join(lines))


def _write(text: str) -> None:
    """One write for the whole output (56,000 lines of `list` in one go), never failing on the encoding."""
    if isinstance(sys.stdout, io.TextIOWrapper) and sys.stdout.errors == "strict":
        # A Latin-1 or ASCII terminal gets '?' for what it cannot show instead of a UnicodeEncodeError.
        sys.stdout.reconfigure(errors="replace")
    if text:
        sys.stdout.write(text + "\n")
