"""The Whoosh schema and analyzers: what is indexed, how it is tokenised, and the version that guards both."""

from __future__ import annotations

import hashlib
import marshal
import re
import unicodedata
from bisect import insort
from collections.abc import Iterator
from typing import Any

from whoosh import analysis, fields, formats, scoring
from whoosh.lang.porter import stem as porter_stem

from index.headline import HEADLINE_VERSION
from index.models import Paper, Source
from index.render import RENDER_VERSION
from index.search import acronyms, wordforms
from index.search.prefixes import PREFIX_FIELD, PrefixCounter, PrefixCountsField

# Rendered abstracts and the headlines made from them are stored: new rendering or headline code means a
# rebuild. Each version has its own digits (headlines stay below 1000), so no two combinations meet.
SCHEMA_VERSION = 6 + 1000 * HEADLINE_VERSION + 1_000_000 * RENDER_VERSION
"""Bump when fields, analyzers or the document text change: an index of another version is rebuilt."""

DEFAULT_FIELDS = ("headline", "abstract", "authors")
"""The fields a bare word searches (and the ones a stored prefix stands for)."""
HEADLINE_BOOST = 3.0
AUTHORS_BOOST = 1.5


def weighting() -> Any:
    """BM25F as every searcher of the index ranks with: Whoosh's, but the headline's count is not scaled by
    the headline's length (B 0 for it). A headline is one line, a title or the clause a title-less paper is
    about; a short one says no more about a word it holds than a long one, while normalised its match
    counted up to twice as much. (bench_relevance, 56k, terms split in halves with seed 39: P@10 on the
    tuning half 0.537 -> 0.556, on the held-out half 0.688 -> 0.703; unquoted topics 0.713 -> 0.693, still
    above FTS5's 0.591 and tantivy's 0.635.)"""
    return scoring.BM25F(headline_B=0.0)


# The analyzer's tokens are wordforms.py's: words, compounds (`Q-learning`, `k-NN`), `C++`; the query side
# tokenises the same way. Highlighting and facets still find plain word runs with WORD_RE.
_WORD = r"\w+"
WORD_RE = re.compile(_WORD)

Parsed = tuple[tuple[tuple[str, str | None], ...], str | None]
"""One written token analysed: each part's (folded text, its term or None when stopped), and the joined
compound's term (None for a single part, or when it is stopped)."""


class WordAnalyzer(analysis.Analyzer):  # type: ignore[misc]
    """Tokens of `wordforms.TOKEN_RE`, each part folded (`wordforms.fold`), stop words dropped,
    Porter-stemmed, and a compound's parts also joined at its first part's position; one generator.

    Whoosh's own chain would run a tokenizer and four filters as nested generators per token (a third of
    indexing 56k abstracts); `reference_stemming_analyzer` is that chain, and a test holds this one to it
    (texts, positions, offsets, `stopped` flags on real abstracts). Each distinct written token is analysed
    once and kept (~200k at 56k papers).

    In query mode (`mode="query"`, what Whoosh's parser asks for), a compound is one marked token
    (`wordforms.compound_token`) that `wordforms.with_compounds` expands after parsing.
    """

    def __init__(self, stem: bool = True, stop: bool = True) -> None:
        self.stem = stem
        self.stop = stop
        self.is_morph = stem
        self._stems: dict[str, str] = {}
        self._known: dict[str, Parsed] = {}
        self._entries: dict[str, str | Parsed | None] = {}
        self.joined_parts: dict[str, tuple[str, ...]] = {}
        """A joined compound term -> the terms of the parts it was first seen with ("-qlearn": q, learn)."""

    def __getstate__(self) -> dict[str, Any]:
        # The schema is pickled into every index TOC: keep the caches out of it.
        return {"stem": self.stem, "stop": self.stop}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.stem = self.is_morph = bool(state["stem"])
        self.stop = bool(state["stop"])
        self._stems = {}
        self._known = {}
        self._entries = {}
        self.joined_parts = {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WordAnalyzer) and (self.stem, self.stop) == (other.stem, other.stop)

    def __hash__(self) -> int:
        return hash((self.stem, self.stop))

    def __repr__(self) -> str:
        return f"WordAnalyzer(stem={self.stem}, stop={self.stop})"

    def has_morph(self) -> bool:
        return self.stem

    def term(self, folded: str, stem: bool | None = None, stop: bool = True) -> str | None:
        """The indexed term of one folded part, or None for a stop word (unless not `stop`)."""
        if stop and self.stop and folded in analysis.STOP_WORDS:
            return None
        if not (self.stem if stem is None else stem):
            return folded
        stemmed = self._stems.get(folded)
        if stemmed is None:
            stemmed = self._stems[folded] = porter_stem(folded)
        return stemmed

    def analyse(self, token: str, stem: bool | None = None) -> Parsed:
        """A written token's parts and joined form as terms (kept per token when stemming as configured)."""
        if stem is None:
            known = self._known.get(token)
            if known is not None:
                return known
        folded = wordforms.parts(token)
        pairs = tuple((part, self.term(part, stem) if part else None) for part in folded)
        if len(pairs) > 1 and sum(1 for _part, term in pairs if term is not None) < 2:
            # `on-policy`, `in-context`: a compound that would keep one part keeps its stop words.
            pairs = tuple((part, self.term(part, stem, stop=False) if part else None) for part in folded)
        joined = None
        if len(folded) > 1:
            joined_term = self.term("".join(folded), stem)
            joined = None if joined_term is None else wordforms.JOINED + joined_term
            if joined is not None and stem is None:
                kept = tuple(term for _part, term in pairs if term is not None)
                if len(kept) > 1:
                    self.joined_parts.setdefault(joined, kept)
        found = (pairs, joined)
        if stem is None:
            self._known[token] = found
        return found

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
        emit = _Emitter(token, positions, chars, keeporiginal, start_char)
        stem = False if no_morph else None
        if not tokenize:
            text = wordforms.fold(value)
            stopped = self.stop and (not text or text in analysis.STOP_WORDS)
            if not (stopped and removestops):
                whole = text if stopped else (self.term(text, stem) or text)
                yield emit(whole, start_pos, 0, len(value), value, stopped)
            return
        number = start_pos  # parts seen (stopped or not), counted from start_pos
        pos: int | None = None  # the last kept part's position
        querying = mode == "query"
        value = _composed(value)
        for match in wordforms.TOKEN_RE.finditer(value):
            written = match.group()
            pairs, joined = self.analyse(written, stem)
            if querying and joined is not None:
                pos = number if pos is None else pos + 1
                number += len(pairs)
                marked = wordforms.compound_token(joined, [term for _part, term in pairs if term is not None])
                yield emit(marked, pos, match.start(), match.end(), written)
                continue
            core = (match.start(), match.start() + len(wordforms.written_part(written)))
            spans = (
                [core]
                if len(pairs) == 1
                else [found.span() for found in wordforms.PART_RE.finditer(value, *core)]
            )
            first: tuple[int, str] | None = None
            for (part, term), (start, end) in zip(pairs, spans, strict=True):
                number += 1
                if term is not None:
                    pos = number - 1 if pos is None else pos + 1
                    first = first or (pos, term)
                    yield emit(term, pos, start, end, value[start:end])
                elif not removestops:
                    yield emit(part, number - 1, start, end, value[start:end], True)
            if joined is not None and (first is None or joined != first[1]):
                if first is None:  # every part a stop word: the joined word takes a place of its own
                    pos = number - 1 if pos is None else pos + 1
                    first = (pos, joined)
                yield emit(joined, first[0], match.start(), match.end(), written)

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
        found: dict[str, list[int]] = {}
        entries = self._entries
        number = 0
        pos = -1
        for written in wordforms.TOKEN_RE.findall(_composed(value)):
            entry = entries.get(written, _UNKNOWN)
            if entry is _UNKNOWN:
                entry = entries[written] = self._entry(written)
            if entry.__class__ is str:  # most tokens: one part, kept
                # Kept parts are numbered consecutively from the first one's part number: stop words
                # leave no gap.
                pos = number if pos < 0 else pos + 1
                number += 1
                places = found.get(entry)
                if places is None:
                    found[entry] = [pos]
                else:
                    places.append(pos)
            elif entry is None:  # one part, a stop word
                number += 1
            else:
                number, pos = _add_compound(found, entry, number, pos)  # type: ignore[arg-type]
        return found

    def _entry(self, written: str) -> str | Parsed | None:
        """What `_positions` keeps of a written token: its one part's term (None: a stop word), or its
        parts and joined form."""
        pairs, joined = self.analyse(written)
        return pairs[0][1] if len(pairs) == 1 and joined is None else (pairs, joined)


_UNKNOWN = object()


def _composed(value: str) -> str:
    """`value` with letters and the accents typed after them composed (`o` + U+0308 is `ö`), so that a
    token does not end at an accent: the tokens' character offsets are then the composed text's."""
    if value.isascii() or unicodedata.is_normalized("NFC", value):
        return value
    return unicodedata.normalize("NFC", value)


def _add_compound(found: dict[str, list[int]], parsed: Parsed, number: int, pos: int) -> tuple[int, int]:
    """A compound's parts at their positions and its joined term at its first kept part's; the part count
    and last position after it."""
    pairs, joined = parsed
    first = -1
    first_term = None
    for _part, term in pairs:
        if term is not None:
            pos = number if pos < 0 else pos + 1
            if first < 0:
                first, first_term = pos, term
            places = found.get(term)
            if places is None:
                found[term] = [pos]
            else:
                places.append(pos)
        number += 1
    if joined is not None and joined != first_term:
        if first < 0:  # every part a stop word: the joined word takes a place of its own
            first = pos = number - 1 if pos < 0 else pos + 1
        _add_joined(found, joined, first)
    return number, pos


class _Emitter:
    """Sets the one reused Whoosh token to each analysed word, with only what the caller asked for."""

    def __init__(self, token: Any, positions: bool, chars: bool, keeporiginal: bool, start_char: int) -> None:
        self.token = token
        self.positions = positions
        self.chars = chars
        self.keeporiginal = keeporiginal
        self.start_char = start_char

    def __call__(
        self, text: str, pos: int, start: int, end: int, original: str, stopped: bool = False
    ) -> Any:
        token = self.token
        token.text = text
        token.stopped = stopped
        token.boost = 1.0
        if self.positions:
            token.pos = pos
        if self.keeporiginal:
            token.original = original
        if self.chars:
            token.startchar = self.start_char + start
            token.endchar = self.start_char + end
        return token


def _add_joined(found: dict[str, list[int]], joined: str, at: int) -> None:
    """A compound's joined term at its first part's position (kept sorted: it may also be a later word)."""
    places = found.get(joined)
    if places is None:
        found[joined] = [at]
    elif places[-1] < at:
        places.append(at)
    elif at not in places:
        insort(places, at)


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
    """What WordAnalyzer computes, as Whoosh composes an analyzer (kept for the equivalence test): Whoosh's
    `RegexTokenizer` on `wordforms.TOKEN_RE`, then a filter that takes one written token at a time."""
    return analysis.RegexTokenizer(wordforms.TOKEN_RE.pattern) | _ReferenceParts()


class _ReferenceParts(analysis.Filter):  # type: ignore[misc]
    """Parts, folding, stop words, stemming and the joined compound, token by token, uncached."""

    def __call__(self, tokens: Iterator[Any]) -> Iterator[Any]:
        number: int | None = None
        pos: int | None = None
        for t in tokens:
            if number is None:  # the tokenizer numbers from `start_pos`: parts are numbered from there too
                number = t.pos if t.positions else 0
            written, start = t.text, getattr(t, "startchar", 0)
            folded, terms, joined = _reference_analysis(written)
            if t.mode == "query" and joined is not None:
                pos = number if pos is None else pos + 1
                number += len(folded)
                t.text = wordforms.compound_token(joined, [term for term in terms if term is not None])
                yield _placed(t, False, pos, (start, start + len(written)))
                continue
            first = None
            for (text, a, b), term in zip(folded, terms, strict=True):
                number += 1
                if term is None and t.removestops:
                    continue
                if term is None:
                    t.text = text
                    yield _placed(t, True, number - 1, (start + a, start + b))
                else:
                    pos = number - 1 if pos is None else pos + 1
                    first = (pos, term) if first is None else first
                    t.text = term
                    yield _placed(t, False, pos, (start + a, start + b))
            if joined is not None and (first is None or joined != first[1]):
                if first is None:
                    pos = number - 1 if pos is None else pos + 1
                    first = (pos, joined)
                t.text = joined
                yield _placed(t, False, first[0], (start, start + len(written)))


def _placed(t: Any, stopped: bool, pos: int, chars: tuple[int, int] | None) -> Any:
    """`t` stopped or not, at `pos` and `chars` when the tokenizer was asked for them."""
    t.stopped = stopped
    if t.positions:
        t.pos = pos
    if t.chars and chars is not None:
        t.startchar, t.endchar = chars
    return t


def _reference_analysis(written: str) -> tuple[list[tuple[str, int, int]], list[str | None], str | None]:
    """A written token's folded parts with their offsets, their terms (None: a stop word), the joined term."""
    core = wordforms.written_part(written)
    if wordforms.LANGUAGE_RE.fullmatch(core):
        found = [(core.lower(), 0, len(core))]
    else:
        found = [(m.group(), m.start(), m.end()) for m in wordforms.PART_RE.finditer(core)]
    folded = [(wordforms.fold(text), a, b) for text, a, b in found]
    terms = [
        None if not text or text in analysis.STOP_WORDS else porter_stem(text) for text, _a, _b in folded
    ]
    if len(terms) > 1 and sum(1 for term in terms if term is not None) < 2:
        terms = [porter_stem(text) if text else None for text, _a, _b in folded]
    joined_text = "".join(text for text, _a, _b in folded)
    stopped = len(folded) < 2 or joined_text in analysis.STOP_WORDS
    return folded, terms, None if stopped else wordforms.JOINED + porter_stem(joined_text)


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
        # The acronyms a paper defines ("gnn graph neural network") and uses without defining: acronyms.py.
        **{acronyms.DEFINED_FIELD: PrefixCountsField(), acronyms.USED_FIELD: PrefixCountsField()},
        # The compounds a paper writes ("qlearn q learn"): wordforms.py.
        **{wordforms.COMPOUND_FIELD: PrefixCountsField()},
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
    compounds = wordforms.compound_terms(
        [*_STEMMED.positions(headline), *_STEMMED.positions(plain_abstract)], _STEMMED
    )
    if compounds:
        doc[wordforms.COMPOUND_FIELD] = compounds
    defined, used = acronyms.acronym_terms((headline, plain_abstract), _STEMMED)
    if defined:
        doc[acronyms.DEFINED_FIELD] = defined
    if used:
        doc[acronyms.USED_FIELD] = used
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
