"""The Whoosh schema and analyzers: what is indexed, how it is tokenised, and the version that guards both."""

from __future__ import annotations

import hashlib
import marshal
import re
from typing import Any

from whoosh import analysis, fields

from index.models import Paper

SCHEMA_VERSION = 1
"""Bump when fields, analyzers or the document text change: an index of another version is rebuilt."""

HEADLINE_BOOST = 3.0
AUTHORS_BOOST = 1.5

# The default RegexTokenizer pattern `\w+(\.?\w+)*` also joins dotted runs ("e.g", "3.5"); a plain word
# pattern is cheaper to match, and the query side tokenises the same way.
_WORD = r"\w+"
WORD_RE = re.compile(_WORD)


def stemming_analyzer() -> Any:
    """Words, lowercased, stop words dropped, Porter-stemmed: `memorize` meets `memorization`.

    The stem cache is unbounded (cachesize=-1): a 56k-abstract corpus has ~100k distinct words, and the
    default 50k LRU thrashes on exactly that long tail, costing a Porter run per token.
    """
    return (
        analysis.RegexTokenizer(_WORD)
        | analysis.LowercaseFilter()
        | analysis.StopFilter()
        | analysis.StemFilter(cachesize=-1)
    )


def plain_analyzer() -> Any:
    """Names and labels: lowercased words, no stemming (an author called `Learning` stays `learning`)."""
    return analysis.RegexTokenizer(_WORD) | analysis.LowercaseFilter()


def build_schema() -> fields.Schema:
    """Only the id is stored: bodies for highlighting come from the snapshot, which keeps the index small."""
    stem = stemming_analyzer()
    plain = plain_analyzer()
    return fields.Schema(
        # sortable=True keeps the ids in a column too, so a ranked list of every hit maps docnums to ids
        # without one stored-field read per hit.
        id=fields.ID(stored=True, unique=True, sortable=True),
        headline=fields.TEXT(analyzer=stem, field_boost=HEADLINE_BOOST, phrase=True),
        abstract=fields.TEXT(analyzer=stem, phrase=True),
        authors=fields.TEXT(analyzer=plain, field_boost=AUTHORS_BOOST, phrase=True),
        venue=fields.TEXT(analyzer=plain, phrase=False),
        year=fields.NUMERIC(int, bits=32, signed=False),
        status=fields.TEXT(analyzer=plain, phrase=False),
        source=fields.TEXT(analyzer=plain, phrase=False),
    )


def title_text(paper: Paper) -> str:
    """The headline, plus the title when the listing gave one that differs, so `title:` finds either."""
    if paper.title and paper.title != paper.headline:
        return f"{paper.headline}\n{paper.title}"
    return paper.headline


def document(paper: Paper, plain_abstract: str) -> dict[str, Any]:
    """The fields Whoosh indexes for one paper; `plain_abstract` is the rendered text the reader displays."""
    doc: dict[str, Any] = {
        "id": paper.id,
        "headline": title_text(paper),
        "abstract": plain_abstract,
        "source": "\n".join(dict.fromkeys(source.listing for source in paper.sources)),
    }
    if paper.authors:
        doc["authors"] = "\n".join(paper.authors)
    if paper.venue:
        doc["venue"] = paper.venue
    if paper.year is not None and paper.year >= 0:
        doc["year"] = paper.year
    if paper.status:
        doc["status"] = paper.status
    return doc


def content_hash(paper: Paper) -> bytes:
    """A digest of every raw input a paper's document is made from, so an update re-indexes only real changes.

    Hashing the raw fields (not the rendered abstract) lets an update skip rendering unchanged papers;
    a change to rendering itself is a SCHEMA_VERSION bump. marshal format 2 (before object references
    existed) is deterministic for equal values and serialises the tuple at C speed.
    """
    fields = (
        SCHEMA_VERSION,
        paper.id,
        paper.headline,
        paper.title,
        paper.abstract,
        paper.authors,
        paper.venue,
        paper.year,
        paper.status,
        tuple(dict.fromkeys(source.listing for source in paper.sources)),
    )
    return hashlib.blake2b(marshal.dumps(fields, 2), digest_size=12).digest()
