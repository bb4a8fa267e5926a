"""The snapshot stored with each index generation gives back exactly the catalog it was made from."""

from __future__ import annotations

from index.models import Catalog, Entry, Listing, Notice
from index.search import snapshot, snapshot_encode
from tests.unit.search_fixtures import PAPERS, make_catalog, merge_catalogs


def test_round_trip_with_duplicates_differing_entries_and_notices() -> None:
    first = make_catalog(PAPERS[:5], None, "A")
    second = make_catalog(PAPERS[3:], None, "B")
    merged = merge_catalogs(first, second)
    # A duplicate whose own text differs from the merged paper's (as when identity merges near-duplicates),
    # a listing notice and a catalog notice.
    listing = merged.listings[1]
    odd = Entry("Slightly different text.", listing.entries[0].source, title="Other title")
    listing = Listing(
        listing.path,
        listing.name,
        "ICLR",
        2021,
        "text",
        (odd, *listing.entries[1:]),
        (Notice("b", "odd", 3),),
    )
    catalog = Catalog((merged.listings[0], listing), merged.papers, (Notice("x", "bad", None),))
    assert snapshot.decode(snapshot_encode.encode(catalog)) == catalog


def test_damaged_or_foreign_data_gives_none() -> None:
    assert snapshot.decode(b"not marshal at all") is None
    good = snapshot_encode.encode(make_catalog())
    assert snapshot.decode(good[: len(good) // 2]) is None
