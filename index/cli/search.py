"""`papers index`, `papers search`, `papers similar`: the search index from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from index.cli import common as cli_common
from index.cli.errors import CommandError
from index.listings.catalog import load_catalog
from index.search import store as index_store
from index.search.index import IndexUnavailable, SearchIndex, UnknownPaper
from index.search.models import MatchSpan, SearchHit, UpdateReport
from index.state.store import StateStore

_BOLD, _RESET = "\x1b[1m", "\x1b[0m"


@contextmanager
def _progress_bar(label: str) -> Iterator[Callable[[int, int], None] | None]:
    """A rich progress bar on stderr when it is a terminal; nothing at all in pipes and tests."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress(
        f"[bold]{label}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def open_index(args: argparse.Namespace, *, refresh: bool = True) -> SearchIndex:
    """The index for these options, brought up to date with the listings when possible (first use builds)."""
    index = SearchIndex.open(cli_common.index_dir(args))
    try:
        if refresh:
            with _progress_bar("indexing") as progress:
                index.ensure_current(cli_common.listing_paths(args), progress)
    except IndexUnavailable as error:
        raise CommandError(str(error)) from None
    finally:
        cli_common.warn(index.take_notices())
    return index


def open_state(args: argparse.Namespace) -> StateStore:
    """Stars and read marks for `is:` filters and the JSON `starred`/`read` keys (never fails)."""
    store = StateStore.open(cli_common.data_dir(args))
    cli_common.warn(store.notices)
    return store


def _describe(report: UpdateReport) -> str:
    what = f"full build ({report.reason})" if report.rebuilt else "update"
    return (
        f"{what}: {report.papers} papers indexed; {report.added} added, {report.updated} updated, "
        f"{report.removed} removed in {report.seconds:.1f} s"
    )


def _index(args: argparse.Namespace) -> int:
    index = SearchIndex.open(cli_common.index_dir(args))
    try:
        if index.read_only:
            raise CommandError(f"the index directory {index.index_dir} is not writable; use --index-dir DIR")
        with _progress_bar("indexing") as progress:
            if args.rebuild:
                catalog = load_catalog(cli_common.listing_paths(args))
                cli_common.warn(catalog.notices)
                report: UpdateReport | None = index.rebuild(catalog, progress)
            else:
                report = index.ensure_current(cli_common.listing_paths(args), progress)
        cli_common.warn(index.take_notices())
        if args.shared:
            index_store.publish(index.index_dir)
            print(
                f"shared: {index.index_dir} is readable by every user; point them at it with "
                f'index_dir = "{index.index_dir}" in the site config (see README)'
            )
        if report is None:
            view = index.load_view()
            count = len(view) if view else 0
            print(f"index is up to date: {count} papers; 0 added, 0 updated, 0 removed")
        else:
            print(_describe(report))
    except IndexUnavailable as error:
        raise CommandError(str(error)) from None
    finally:
        index.close()
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


def _hit_json(
    hit: SearchHit, index: SearchIndex, starred: frozenset[str], read: frozenset[str]
) -> dict[str, Any]:
    snippet = hit.snippet
    return {
        "id": hit.id,
        "headline": hit.headline,
        "title": index.paper(hit.id).title,
        "venue": hit.venue,
        "year": hit.year,
        "score": round(hit.score, 4),
        "snippet": snippet.text if snippet else None,
        "matches": [[span.start, span.end] for span in snippet.matches] if snippet else [],
        "abstract_matches": [[span.start, span.end] for span in hit.matches],
        "sources": [
            {"path": s.path, "paragraph": s.paragraph, "line": s.line, "listing": s.listing}
            for s in hit.sources
        ],
        "starred": hit.id in starred,
        "read": hit.id in read,
    }


def _search(args: argparse.Namespace) -> int:
    index = open_index(args)
    store = open_state(args)
    try:
        return _search_with(args, index, store)
    except IndexUnavailable as error:
        raise CommandError(str(error)) from None
    finally:
        store.close()
        index.close()


def _search_with(args: argparse.Namespace, index: SearchIndex, store: StateStore) -> int:
    result = index.search(args.query, limit=args.limit, state=store, highlight_top=args.limit)
    if result.notice:
        cli_common.warn([result.notice])
    if result.suggestion:
        print(f"papers: did you mean: {result.suggestion}", file=sys.stderr)
    if args.json:
        starred, read = store.starred_ids(), store.read_ids()
        rows = [_hit_json(hit, index, starred, read) for hit in result.hits]
        json.dump(rows, sys.stdout, ensure_ascii=False, indent=2)
        print()
        return 0
    tty = sys.stdout.isatty()
    for rank, hit in enumerate(result.hits, 1):
        where = " ".join(str(part) for part in (hit.venue, hit.year) if part)
        print(f"{rank:>3}. {hit.id}  {_marked(hit.headline, hit.headline_matches, tty)}  [{where}]")
        if hit.snippet is not None:
            print(f"     {_marked(hit.snippet.text, hit.snippet.matches, tty)}")
    print(f"{len(result.hits)} of {result.total} matching papers", file=sys.stderr)
    return 0


def _similar(args: argparse.Namespace) -> int:
    index = open_index(args)
    try:
        paper_id = index.resolve_id(args.id)
        if paper_id is None:
            raise CommandError(f"no paper with id {args.id!r}; see `papers list` or `papers search`")
        try:
            hits = index.similar(paper_id, limit=args.limit)
        except UnknownPaper:
            raise CommandError(f"paper {args.id} is not in the index; run `papers index`") from None
        except IndexUnavailable as error:
            raise CommandError(str(error)) from None
        if args.json:
            rows = [
                {
                    "id": h.id,
                    "headline": h.headline,
                    "venue": h.venue,
                    "year": h.year,
                    "score": round(h.score, 4),
                    "shared_terms": list(h.shared_terms),
                }
                for h in hits
            ]
            json.dump(rows, sys.stdout, ensure_ascii=False, indent=2)
            print()
            return 0
        for rank, hit in enumerate(hits, 1):
            where = " ".join(str(part) for part in (hit.venue, hit.year) if part)
            print(f"{rank:>3}. {hit.id}  {hit.headline}  [{where}]")
            print(f"     shared: {', '.join(hit.shared_terms)}")
    finally:
        index.close()
    return 0


def register(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    """Add the search subcommands; each shares the global options through `common`."""
    build = subparsers.add_parser(
        "index",
        parents=[common],
        help="build or update the search index (done automatically on first search)",
    )
    build.add_argument("--rebuild", action="store_true", help="build from scratch instead of updating")
    build.add_argument(
        "--shared",
        action="store_true",
        help="admin: make the index readable (not writable) by every user of a shared server",
    )
    build.set_defaults(handler=_index)

    search = subparsers.add_parser(
        "search", parents=[common], help="search titles, abstracts and authors (see README: Query syntax)"
    )
    search.add_argument(
        "query", metavar="QUERY", help='e.g. diffusion, "exact phrase", title:graph, is:starred'
    )
    search.add_argument(
        "--limit", type=int, default=20, metavar="N", help="show at most N papers (default 20)"
    )
    search.add_argument("--json", action="store_true", help="machine-readable output")
    search.set_defaults(handler=_search)

    similar = subparsers.add_parser("similar", parents=[common], help="papers like the given one, and why")
    similar.add_argument("id", metavar="ID", help="a paper id (or unique prefix) from `papers list`")
    similar.add_argument("--limit", type=int, default=10, metavar="N", help="at most N papers (default 10)")
    similar.add_argument("--json", action="store_true", help="machine-readable output")
    similar.set_defaults(handler=_similar)
