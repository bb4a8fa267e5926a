"""Listing paths in, merged papers out: the one call the CLI, the index builder and the reader start from."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from index import headline, render
from index.identity import merge
from index.listings import read_listings
from index.models import Catalog, Entry


def headline_for(entry: Entry) -> str:
    """A paper's one-line headline: its title when it has one, else one drawn from the rendered abstract."""
    return headline.headline(render.to_plain(entry.abstract), entry.title)


def load_catalog(paths: Sequence[Path]) -> Catalog:
    """Read every listing `paths` names and merge duplicates; problems become `Catalog.notices`, not errors.

    Args:
        paths: files and directories, as from `--listings` or `$PAPERS_LISTINGS`; order does not matter,
            since files are read in sorted order and the same file named twice is read once.
    """
    listings, notices = read_listings(paths)
    catalog = merge(listings, headline_for)
    return Catalog(listings=catalog.listings, papers=catalog.papers, notices=tuple(notices))
