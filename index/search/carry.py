"""Carrying headlines over from the previous generation, so an update synthesizes only new papers' headlines.

Headlines are the most expensive part of loading listings (tens of seconds at 56k): an update reads the
listings with each known paper's stored headline (`load_catalog(..., stored=...)`) and checks them here with
the content hash it needs anyway: equal to the stored hash means the same abstract, title and every other
input, so the stored headline is what synthesis would make again (a change to headline synthesis itself
changes SCHEMA_VERSION, which rebuilds everything). Only new or changed papers get a headline made.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from index.listings.catalog import plain_headlines
from index.models import Catalog
from index.render.abstract import to_plain
from index.search.schema import content_hash


def carry_headlines(
    catalog: Catalog, stored: Mapping[str, str], old_hashes: Mapping[str, bytes]
) -> tuple[Catalog, dict[str, bytes], dict[str, str]]:
    """Make the headline of every paper that has none, or only a stored one that no longer holds.

    Args:
        catalog: the listings as read now, with `stored` headlines where a paper had one, else empty ones
            (papers whose headline came from elsewhere keep it).
        stored: the previous generation's headlines by paper id.
        old_hashes: the previous generation's content hashes by paper id.

    Returns:
        The catalog with headlines, each paper's content hash, and the rendered abstract of each paper whose
        headline was made here (the indexer needs the same text: it is rendered once).
    """
    hashes: dict[str, bytes] = {}
    plains: dict[str, str] = {}
    papers = list(catalog.papers)
    remake: list[int] = []
    for number, paper in enumerate(papers):
        digest = hashes[paper.id] = content_hash(paper)
        if digest != old_hashes.get(paper.id) and (
            not paper.headline or paper.headline == stored.get(paper.id)
        ):
            plains[paper.id] = to_plain(paper.abstract)
            remake.append(number)
    # In one batch call (the model makes a batch's lines about four times faster than one at a time).
    made = plain_headlines([plains[papers[n].id] for n in remake], [papers[n].title for n in remake])
    for number, line in zip(remake, made, strict=True):
        if line != papers[number].headline:
            paper = papers[number] = replace(papers[number], headline=line)
            hashes[paper.id] = content_hash(paper)
    return replace(catalog, papers=tuple(papers)), hashes, plains
