"""The Whoosh schema and analyzers: what is indexed, how it is tokenised, and the version that guards both."""

from __future__ import annotations

import hashlib
import marshal
import re
from collections.abc import Iterable, Iterator
from typing import Any

from whoosh import analysis, fields, formats
from whoosh.lang.porter import stem as porter_stem

from index.headline import HEADLINE_VERSION
from index.models import Paper, Source
from index.render import RENDER_VERSION
from index.search.prefixes import PREFIX_FIELD, PrefixCounter, PrefixCountsField

# Rendered abstracts and the headlines made from them are stored: new rendering or headline code means a
# rebuild. Each version has its own digits (headlines stay below 1000), so no two combinations meet.
SCHEMA_VERSION = 5 + 1000 * HEADLINE_VERSION + 1_000_000 * RENDER_VERSION
"""Bump when fields, analyzers or the document text change: an index of another version is rebuilt."""

DEFAULT_FIELDS = ("headline", "abstract", "authors")
"""The fields a bare word searches (and the ones a stored prefix stands for)."""
HEADLINE_BOOST = 3.0
AUTHORS_BOOST = 1.5

# The default RegexTokenizer pattern `\w+(\.?\w+)*` also joins dotted runs ("e.g", "3.5"); a plain word
# pattern is cheaper to match, and the query side tokenises the same way.
_WORD = r"\w+"
WORD_RE = re.compile(_WORD)


def _words(value: str, tokenize: bool) -> Iterable[tuple[int, int, int, str]]:
    """(number, start, end, word) of each word of `value`, or `value` whole as one word."""
    if not tokenize:
        return ((0, 0, len(value), value),)
    return ((i, m.start(), m.end(), m.group()) for i, m in enumerate(WORD_RE.finditer(value)))


class WordAnalyzer(analysis.Analyzer):  # type: ignore[misc]
    """`RegexTokenizer(r"\\w+") | LowercaseFilter() | StopFilter() | StemFilter()` as one generator.

    Whoosh's chain runs four nested generators per token; indexing 56k abstracts spends a third of its time
    there. This yields exactly the same tokens (texts, renumbered positions, offsets, `stopped` flags: a
    test compares both on real abstracts) with one loop and an unbounded stem cache, so the ~100k distinct
    words of a large corpus are each stemmed once.
    """

    def __init__(self, stem: bool = True, stop: bool = True) -> None:
        self.stem = stem
        self.stop = stop
        self.is_morph = stem
        self._stems: dict[str, str] = {}

    def __getstate__(self) -> dict[str, Any]:
        # The schema is pickled into every index TOC: keep the cache out of it.
        return {"stem": self.stem, "stop": self.stop}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.stem = self.is_morph = bool(state["stem"])
        self.stop = bool(state["stop"])
        self._stems = {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WordAnalyzer) and (self.stem, self.stop) == (other.stem, other.stop)

    def __hash__(self) -> int:
        return hash((self.stem, self.stop))

    def __repr__(self) -> str:
        return f"WordAnalyzer(stem={self.stem}, stop={self.stop})"

    def has_morph(self) -> bool:
        return self.stem

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        no_morph: bool = False,
        **kwargs: Any,
    ) -> Iterator[Any]:
        token = analysis.Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        stops = analysis.STOP_WORDS if self.stop else frozenset()
        minsize = 2 if self.stop else 0
        stem = self.stem and not no_morph
        stems = self._stems
        pos: int | None = None
        for number, start, end, word in _words(value, tokenize):
            text = word.lower()
            if len(text) >= minsize and text not in stops:
                token.stopped = False
                if positions:
                    pos = start_pos + number if pos is None else pos + 1
                    token.pos = pos
                if stem:
                    stemmed = stems.get(text)
                    if stemmed is None:
                        stemmed = stems[text] = porter_stem(text)
                    text = stemmed
            elif not removestops:
                token.stopped = True
                if positions:
                    token.pos = start_pos + number
            else:
                continue
            token.text = text
            token.boost = 1.0
            if keeporiginal:
                token.original = word
            if chars:
                token.startchar = start_char + start
                token.endchar = start_char + end
            yield token

    def positions(self, value: str) -> dict[str, list[int]]:
        """Each token's text -> its positions, exactly as `__call__(value, positions=True)` numbers them.

        What an indexed field needs from a document, without a Token per word: see `WordPositions`. The
        last few answers are kept (for every analyzer of the same settings): a document's prefix counts
        (`document`) and the writer ask for the same texts one after the other. Callers must not change
        the answer.
        """
        key = (self.stem, self.stop, value)
        known = _RECENT_POSITIONS.get(key)
        if known is not None:
            return known
        found = self._positions(value)
        if len(_RECENT_POSITIONS) >= _RECENT_KEPT:
            _RECENT_POSITIONS.clear()
        _RECENT_POSITIONS[key] = found
        return found

    def _positions(self, value: str) -> dict[str, list[int]]:
        stops = analysis.STOP_WORDS if self.stop else frozenset()
        minsize = 2 if self.stop else 0
        stems = self._stems if self.stem else None
        found: dict[str, list[int]] = {}
        pos = -1
        for number, word in enumerate(WORD_RE.findall(value)):
            text = word.lower()
            if len(text) < minsize or text in stops:
                continue
            # Kept words are numbered consecutively from the first one's word number: stop words leave no gap.
            pos = number if pos < 0 else pos + 1
            if stems is not None:
                stemmed = stems.get(text)
                if stemmed is None:
                    stemmed = stems[text] = porter_stem(text)
                text = stemmed
            places = found.get(text)
            if places is None:
                found[text] = [pos]
            else:
                places.append(pos)
        return found


_RECENT_KEPT = 8
_RECENT_POSITIONS: dict[tuple[bool, bool, str], dict[str, list[int]]] = {}
"""`WordAnalyzer.positions` answers for the last few texts (a document's fields), by settings and text."""


class WordPositions(formats.Positions):  # type: ignore[misc]
    """`formats.Positions` that asks a `WordAnalyzer` for all positions at once: the same postings, bytes for
    bytes, in a third of the time (a Token object, a generator step and two dict updates per word were most of
    what adding a document cost)."""

    def word_values(
        self, value: Any, analyzer: Any, **kwargs: Any
    ) -> Iterator[tuple[str, int, float, bytes]]:
        if not isinstance(analyzer, WordAnalyzer) or not isinstance(value, str) or set(kwargs) - {"mode"}:
            yield from super().word_values(value, analyzer, **kwargs)
            return
        boost = self.field_boost
        encode = self.encode
        for text, places in analyzer.positions(value).items():
            count = len(places)
            # Every token's boost is 1.0, so Positions' summed weight is the count as a float.
            yield (text, count, float(count) * boost, encode(places))

    def encode(self, poslist: list[int]) -> bytes:
        # Most words occur once in a document: their encoding depends on one small number, so it is kept.
        if len(poslist) == 1:
            only = poslist[0]
            found = SINGLE_POSITION.get(only)
            if found is None:
                found = SINGLE_POSITION[only] = super().encode(poslist)
            return found
        encoded: bytes = super().encode(poslist)
        return encoded


SINGLE_POSITION: dict[int, bytes] = {}
"""Positions.encode([p]) by p (a few thousand distinct positions at most: abstracts are short)."""


def _positional(field: fields.TEXT) -> fields.TEXT:
    """`field` with `WordPositions` in place of its `Positions` format (same field boost)."""
    field.format = WordPositions(field_boost=field.format.field_boost)
    return field


def stemming_analyzer() -> Any:
    """Words, lowercased, stop words dropped, Porter-stemmed: `memorize` meets `memorization`."""
    return WordAnalyzer(stem=True, stop=True)


def plain_analyzer() -> Any:
    """Names and labels: lowercased words, no stemming (an author called `Learning` stays `learning`)."""
    return WordAnalyzer(stem=False, stop=False)


def names_analyzer() -> Any:
    """Author names: unstemmed, but stop words dropped like in the text fields.

    Authors is a default search field; if it kept "for"/"the", a query such as `learning for` would demand
    an author token "for" (the text fields drop it, so nothing else can satisfy it) and find nothing.
    """
    return WordAnalyzer(stem=False, stop=True)


def reference_stemming_analyzer() -> Any:
    """The stock Whoosh chain WordAnalyzer reproduces (kept for the equivalence test)."""
    return (
        analysis.RegexTokenizer(_WORD)
        | analysis.LowercaseFilter()
        | analysis.StopFilter()
        | analysis.StemFilter(cachesize=-1)
    )


def build_schema() -> fields.Schema:
    """Only the id is stored: bodies for highlighting come from the snapshot, which keeps the index small."""
    stem = stemming_analyzer()
    plain = plain_analyzer()
    return fields.Schema(
        # sortable=True keeps the ids in a column too, so a ranked list of every hit maps docnums to ids
        # without one stored-field read per hit.
        id=fields.ID(stored=True, unique=True, sortable=True),
        headline=_positional(fields.TEXT(analyzer=stem, field_boost=HEADLINE_BOOST, phrase=True)),
        # The listing's own title only (not a default field: `headline` already holds it), for `title:`.
        title=_positional(fields.TEXT(analyzer=stem, phrase=True)),
        abstract=_positional(fields.TEXT(analyzer=stem, phrase=True)),
        authors=_positional(fields.TEXT(analyzer=names_analyzer(), field_boost=AUTHORS_BOOST, phrase=True)),
        venue=fields.TEXT(analyzer=plain, phrase=False),
        year=fields.NUMERIC(int, bits=32, signed=False),
        status=fields.TEXT(analyzer=plain, phrase=False),
        source=fields.TEXT(analyzer=plain, phrase=False),
        # The first 1-3 letters of every word of the default fields, counted: `d*` as one posting list.
        **{PREFIX_FIELD: PrefixCountsField()},
    )


_STEMMED, _NAMES, _PREFIXES = stemming_analyzer(), names_analyzer(), PrefixCounter()
"""The default fields' analyzers (the schema's own, as `build_schema` makes them), for the prefix counts."""


def title_text(paper: Paper) -> str:
    """The line the list shows (the title, or a headline made for a paper without one), plus the title when
    the listing gave one that differs from it, so that `headline:` and plain words find both."""
    if paper.title and paper.title != paper.headline:
        return f"{paper.headline}\n{paper.title}"
    return paper.headline


def document(paper: Paper, plain_abstract: str) -> dict[str, Any]:
    """The fields Whoosh indexes for one paper; `plain_abstract` is the rendered text the reader displays."""
    headline = title_text(paper)
    doc: dict[str, Any] = {
        "id": paper.id,
        "headline": headline,
        "abstract": plain_abstract,
        **({"title": paper.title} if paper.title else {}),
        "source": "\n".join(dict.fromkeys(source.listing for source in paper.sources)),
    }
    prefixes: dict[str, int] = {}
    _PREFIXES.add(prefixes, _STEMMED.positions(headline))
    _PREFIXES.add(prefixes, _STEMMED.positions(plain_abstract))
    if paper.authors:
        doc["authors"] = "\n".join(paper.authors)
        _PREFIXES.add(prefixes, _NAMES.positions(doc["authors"]))
    if prefixes:
        doc[PREFIX_FIELD] = prefixes
    if paper.venue:
        doc["venue"] = paper.venue
    if paper.year is not None and paper.year >= 0:
        doc["year"] = paper.year
    if paper.status:
        doc["status"] = paper.status
    return doc


def content_hash(paper: Paper, headline: str | None = None) -> bytes:
    """A digest of every raw input a paper's document is made from, so an update re-indexes only real changes.

    Hashing the raw fields (not the rendered abstract) lets an update skip rendering unchanged papers;
    a change to rendering itself is a SCHEMA_VERSION bump. marshal format 2 (before object references
    existed) is deterministic for equal values and serialises the tuple at C speed.

    Args:
        paper: the paper.
        headline: hash as if the paper had this headline (an update tries the previous generation's one
            on a paper loaded without any: equal hashes mean nothing changed, so the headline still holds).
    """
    fields = (
        SCHEMA_VERSION,
        paper.id,
        paper.headline if headline is None else headline,
        paper.title,
        paper.abstract,
        paper.authors,
        paper.venue,
        paper.year,
        paper.status,
        _listing_names(paper.sources),
    )
    return hashlib.blake2b(marshal.dumps(fields, 2), digest_size=12).digest()


def _listing_names(sources: tuple[Source, ...]) -> tuple[str, ...]:
    # Nearly every paper has one source: skip the generator and dict (a third of hashing 56k papers).
    if len(sources) == 1:
        return (sources[0].listing,)
    return tuple(dict.fromkeys(source.listing for source in sources))
