"""Over every abstract of the shared corpus: no `(cid:` left in the rendered text, and every web address of
the raw abstract in it byte for byte.

The addresses are found here by their own, simpler rule than `index/render/urls.py`'s, so the two check
each other: `http(s)://` or `www.` up to a space or a bracket, quote or backslash, less the sentence
punctuation, unopened closing bracket or emphasis marker that ends it. A TeX escape inside `\\url{...}` or
`\\href{...}` (`\\_`) counts as the character it stands for, as LaTeX prints it.
"""

from __future__ import annotations

import re

import pytest

from index.listings.reader import read_listings
from index.render.abstract import to_plain
from tests.conftest import CORPUS

LISTINGS = CORPUS / "listings"
_ADDRESS = re.compile(r"(?:https?://|www\.)[^\s<>\"{}\[\]\\`]+", re.IGNORECASE)
_ESCAPED = re.compile(r"\\([_%&#$~])")

pytestmark = pytest.mark.skipif(not LISTINGS.is_dir(), reason="the shared corpus is not on this machine")


def addresses(raw: str) -> list[str]:
    """The web addresses `raw` holds, as they should read."""
    found = []
    for match in _ADDRESS.finditer(_ESCAPED.sub(r"\1", raw)):
        address = match.group()
        before = match.string[match.start() - 1 : match.start()]
        while True:
            stripped = address.rstrip(".,;:!?'\"*")
            if before == "_":
                stripped = stripped.rstrip("_")
            if stripped.endswith(")") and stripped.count("(") < stripped.count(")"):
                stripped = stripped[:-1]
            if stripped == address:
                break
            address = stripped
        found.append(address)
    return found


@pytest.mark.slow
def test_no_pdf_artefact_is_left_and_no_address_is_changed() -> None:
    listings, notices = read_listings([LISTINGS])
    assert notices == []
    abstracts = [entry.abstract for listing in listings for entry in listing.entries]
    assert len(abstracts) > 50_000
    artefacts = 0
    broken: list[str] = []
    checked = 0
    for raw in abstracts:
        text = to_plain(raw)
        artefacts += text.count("(cid:")
        for address in addresses(raw):
            checked += 1
            if address not in text:
                broken.append(address)
    assert checked > 4000
    assert artefacts == 0
    assert broken == []
