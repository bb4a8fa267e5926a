"""Listing paths in, merged papers out: the one call the CLI, the index builder and the reader start from."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from index.headline import pipeline
from index.headline.distinct import distinct
from index.listings.identity import merge
from index.listings.reader import expand_paths, read_listing, read_listings
from index.models import Catalog, Entry, LazyPapers, Listing, Notice, Paper
from index.render.abstract import to_plain


def paper_headline(abstract: str, title: str | None) -> str:
    """A paper's one-line headline: its title when it has one, else one drawn from the rendered abstract."""
    return plain_headline(to_plain(abstract), title)


def plain_headline(plain: str, title: str | None) -> str:
    """`paper_headline` from an abstract already rendered (`to_plain`): the index build renders each abstract
    once for both the headline and the indexed text, which is a third of the cost of a full build."""
    return pipeline.headline(plain, title)


def plain_headlines(plains: Sequence[str], titles: Sequence[str | None]) -> list[str]:
    """`plain_headline` of each (rendered abstract, title) pair in one batch: the same lines, in order."""
    return pipeline.headlines(plains, titles)


def made_headlines(papers: Sequence[Paper]) -> list[str]:
    """`paper_headline` of each of `papers`, in order, made a model batch (`pipeline.BATCH`) at a time: the
    model reads a batch as arrays, about four times faster per paper than one at a time, and only a batch's
    rendered abstracts are held at once."""
    made: list[str] = []
    for start in range(0, len(papers), pipeline.BATCH):
        chunk = papers[start : start + pipeline.BATCH]
        made += plain_headlines(
            [to_plain(paper.abstract) for paper in chunk], [paper.title for paper in chunk]
        )
    return made


def distinct_headlines(
    ids: Sequence[str], lines: Sequence[str], paper: Callable[[int], Paper]
) -> dict[int, str]:
    """The lines that replace `lines` (by paper number) so that no two of the set's papers show the same
    one (`headline.distinct`); `paper(number)` is asked only for the papers that change. A real title is
    kept and only marked; a made line may give way to the paper's next-best one."""

    def alternatives(numbers: list[int]) -> list[list[str]]:
        papers = [paper(number) for number in numbers]
        untitled = [number for number, found in enumerate(papers) if not found.title]
        made = pipeline.choices([to_plain(papers[number].abstract) for number in untitled])
        offered: list[list[str]] = [[] for _ in numbers]
        for number, lines_of in zip(untitled, made, strict=True):
            offered[number] = lines_of
        return offered

    return distinct(ids, lines, alternatives)


def with_headlines(catalog: Catalog, headlines: Sequence[str]) -> Catalog:
    """`catalog` with its papers' headlines replaced by `headlines` (in paper order); listings unchanged.

    A paper keeps its `Source` objects, so the snapshot still recognises an entry as its paper's occurrence.
    """
    if len(headlines) != len(catalog.papers):
        raise ValueError(f"{len(headlines)} headlines for {len(catalog.papers)} papers")
    papers = tuple(
        paper if paper.headline == made else replace(paper, headline=made)
        for paper, made in zip(catalog.papers, headlines, strict=True)
    )
    return replace(catalog, papers=papers)


def no_headline(entry: Entry) -> str:
    """For callers that only count papers: rendering every abstract is most of the cost of loading."""
    return ""


def headlines_on_demand(papers: Sequence[Paper]) -> Sequence[Paper]:
    """Papers loaded with `no_headline`, each given its headline when first asked for (and kept).

    Synthesizing 56k headlines takes tens of seconds, but a virtual list only ever shows a screenful, so
    when the listings had to be parsed (no current index) the first screen must not wait for all of them.
    """
    made = list(papers)

    def paper(number: int) -> Paper:
        found = made[number]
        if not found.headline:
            found = made[number] = replace(found, headline=paper_headline(found.abstract, found.title))
        return found

    return LazyPapers(len(made), paper)


def _headlined(papers: tuple[Paper, ...], stored: Mapping[str, str] | None) -> tuple[Paper, ...]:
    """`papers` merged with `no_headline`, each given its headline unless `stored` had one (a batch call)."""
    missing = [number for number, paper in enumerate(papers) if not stored or paper.id not in stored]
    made = list(papers)
    for number, line in zip(missing, made_headlines([papers[number] for number in missing]), strict=True):
        made[number] = replace(made[number], headline=line)
    return tuple(made)


def _merged(
    listings: Sequence[Listing],
    headlines: Callable[[Entry], str] | None,
    stored: Mapping[str, str] | None = None,
) -> Catalog:
    """`merge` with `headlines`, or with every headline not in `stored` made a batch at a time (None)."""
    if headlines is not None:
        return merge(listings, headlines, stored)
    catalog = merge(listings, no_headline, stored)
    return replace(catalog, papers=_headlined(catalog.papers, stored))


def load_catalog(
    paths: Sequence[Path],
    headlines: Callable[[Entry], str] | None = None,
    stored: Mapping[str, str] | None = None,
) -> Catalog:
    """Read every listing `paths` names and merge duplicates; problems become `Catalog.notices`, not errors.

    Args:
        paths: files and directories, as from `--listings` or `$PAPERS_LISTINGS`; order does not matter,
            since files are read in sorted order and the same file named twice is read once.
        headlines: makes each paper's headline; `no_headline` leaves them empty for callers that never
            show them (counting, looking up one paper and then calling `paper_headline` for it). None (the
            default): every paper's `paper_headline`, made in batches (`made_headlines`).
        stored: headlines by paper id taken as they are instead of calling `headlines` (see `merge`).
    """
    files, path_notices = expand_paths(paths)
    listings, notices = read_listings(files)
    catalog = _merged(listings, headlines, stored)
    return Catalog(
        listings=catalog.listings,
        papers=catalog.papers,
        notices=(*path_notices, *notices),
        files=tuple(str(path) for path in files),
    )


def load_first_listings(
    paths: Sequence[Path], at_least: int, headlines: Callable[[Entry], str] | None = None
) -> tuple[Catalog, bool]:
    """The first listing files, in the order `load_catalog` reads them, until they hold `at_least`
    paragraphs, merged as it merges them; and whether that was every file.

    Their papers are the first papers of the whole catalog in the same order (merging keeps first-seen
    order), so a reader with no index can paint them at once and read the rest afterwards: 250k papers take
    seconds to read, a screenful of them milliseconds.
    """
    files, notices = expand_paths(paths)
    listings: list[Listing] = []
    found: list[Notice] = list(notices)
    taken = paragraphs = 0
    for path in files:
        if paragraphs >= at_least:
            break
        listing, problems = read_listing(path)
        found.extend(problems)
        taken += 1
        if listing is not None:
            listings.append(listing)
            paragraphs += len(listing.entries)
    catalog = _merged(listings, headlines)
    read = tuple(str(path) for path in files[:taken])
    first = Catalog(catalog.listings, catalog.papers, tuple(found), read)
    return first, taken == len(files)
