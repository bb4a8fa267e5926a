"""Paper ids depend on the abstract's words only, and duplicates across listings merge into one paper."""

from __future__ import annotations

import hashlib
import sys
import tempfile
import textwrap
import unicodedata
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from index.listings.identity import WHITESPACE, merge, normalize_abstract, paper_id
from index.listings.reader import read_listing, read_listings
from index.models import Entry, Listing, Source
from tests.conftest import SEEDS

# Words without whitespace, control characters or surrogates: what an abstract is made of.
WORD = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cc", "Cs", "Zs", "Zl", "Zp"), blacklist_characters=WHITESPACE
    ),
    min_size=1,
    max_size=12,
)
WORDS = st.lists(WORD, min_size=1, max_size=60)
SPACING = st.text(alphabet=" \t\u00a0\u3000\u2009", min_size=1, max_size=3)


def test_the_id_is_the_documented_hash_of_the_normalized_abstract() -> None:
    abstract = "  We  study\n e\u0301tudes\tof  learning.  "
    assert normalize_abstract(abstract) == "We study \u00e9tudes of learning."
    expected = hashlib.sha256("We study \u00e9tudes of learning.".encode()).hexdigest()[:12]
    assert paper_id(abstract) == expected


def test_known_ids_never_change() -> None:
    """Stars are keyed by these ids: a change here orphans every user's stars, so it must be deliberate."""
    assert paper_id("Attention is all you need.") == "cc2c11f181ff"
    assert paper_id("Attention  is all\r\nyou need. ") == "cc2c11f181ff"


def test_the_frozen_whitespace_set_matches_this_python() -> None:
    """If a Python upgrade changes str.isspace(), ids stay put (the set is frozen) but we want to know."""
    assert {chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace()} == set(WHITESPACE)


@given(
    words=WORDS, newline=st.sampled_from(["\n", "\r\n", "\r"]), width=st.integers(min_value=10, max_value=200)
)
@settings(max_examples=60, deadline=None)
def test_ids_survive_line_endings_and_rewrapping_in_a_real_file(
    words: list[str], newline: str, width: int
) -> None:
    abstract = " ".join(words)
    wrapped = newline.join(
        textwrap.wrap(abstract, width=width, break_long_words=False, break_on_hyphens=False)
    )
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "listing.txt"
        # A long first line is not a header, so the one paragraph is the paper.
        path.write_bytes(f"{'x' * 130}.{newline}{newline}{wrapped}{newline}".encode())
        listing, notices = read_listing(path)
    assert listing is not None and notices == []
    assert [paper_id(entry.abstract) for entry in listing.entries][1] == paper_id(abstract)


@given(words=WORDS, spacing=st.lists(SPACING, min_size=61, max_size=61), edges=st.tuples(SPACING, SPACING))
@settings(max_examples=100, deadline=None)
def test_ids_ignore_how_words_are_spaced(
    words: list[str], spacing: list[str], edges: tuple[str, str]
) -> None:
    spaced = edges[0] + "".join(word + gap for word, gap in zip(words, spacing, strict=False)) + edges[1]
    assert paper_id(spaced) == paper_id(" ".join(words))
    assert normalize_abstract(spaced) == normalize_abstract(" ".join(words))


@given(words=WORDS)
@settings(max_examples=60, deadline=None)
def test_different_words_mean_different_ids(words: list[str]) -> None:
    abstract = " ".join(words)
    assert paper_id(abstract + " extra") != paper_id(abstract)


def test_unicode_composition_does_not_matter_but_case_does() -> None:
    assert paper_id("Caf\u00e9 models.") == paper_id("Cafe\u0301 models.")
    assert paper_id("Cafe models.") != paper_id("cafe models.")


def _listing(name: str, *entries: tuple[str, str | None]) -> Listing:
    made = tuple(
        Entry(abstract=abstract, source=Source(f"/{name}", number, number * 2, name), title=title)
        for number, (abstract, title) in enumerate(entries, start=1)
    )
    return Listing(path=f"/{name}", name=name, venue=None, year=None, format="text", entries=made)


def test_merge_keeps_first_seen_order_and_every_source_in_listing_order() -> None:
    first = _listing("a", ("Alpha abstract.", None), ("Beta abstract.", None))
    second = _listing("b", ("Gamma abstract.", None), ("Alpha  abstract.\n", "Alpha title"))
    catalog = merge([first, second], lambda entry: entry.title or entry.abstract[:5])
    assert [paper.abstract for paper in catalog.papers] == [
        "Alpha abstract.",
        "Beta abstract.",
        "Gamma abstract.",
    ]
    alpha = catalog.papers[0]
    assert [source.listing for source in alpha.sources] == ["a", "b"]
    # The title only the second copy had fills the gap, and the headline is made with it.
    assert (alpha.title, alpha.headline) == ("Alpha title", "Alpha title")
    assert (catalog.paragraphs, len(catalog.papers), catalog.duplicates) == (4, 3, 1)


def test_seed_ids_do_not_depend_on_which_files_are_read_or_in_what_order(tmp_path: Path) -> None:
    files = sorted(SEEDS.glob("*.txt"))
    listings, _ = read_listings(files)
    all_ids = {paper_id(entry.abstract) for listing in listings for entry in listing.entries}
    assert len(all_ids) == 49
    # Copy one seed under another name with CRLF endings: its ids are a subset of the same set.
    renamed = tmp_path / "zz_other_name.txt"
    renamed.write_bytes(files[1].read_bytes().replace(b"\n", b"\r\n"))
    listings, _ = read_listings([renamed])
    assert {paper_id(entry.abstract) for entry in listings[0].entries} <= all_ids


@given(text=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200))
@settings(max_examples=300, deadline=None)
def test_normalization_fast_paths_agree_with_the_definition(text: str) -> None:
    """NFC, then Python's whitespace split (the frozen set, on this interpreter), then single spaces."""
    assert normalize_abstract(text) == " ".join(unicodedata.normalize("NFC", text).split())


@given(text=st.text(alphabet=" \t\n\r\x0b\x0c\x1cab\u3000\u00e9e\u0301", max_size=40))
@settings(max_examples=300, deadline=None)
def test_normalization_on_whitespace_heavy_text(text: str) -> None:
    assert normalize_abstract(text) == " ".join(unicodedata.normalize("NFC", text).split())
