"""What index/search/whoosh_private.py relies on in Whoosh, checked against the installed (pinned) whoosh3.

A failure here means the pinned Whoosh moved something the adapter reads, and its message says what. The
results built on these internals have their own equivalence tests: segment files byte for byte against
Whoosh's writer (test_search_build.py, `test_word_positions_and_the_fast_writer_write_what_whoosh_writes`),
scores bit for bit against its collector, block decoding and the id column (test_fastrank.py), block reading
and field lengths (test_foryou.py), near words (test_nearwords.py). Those pass just as well when a fast path
quietly falls back to Whoosh's own, so here each fast path is shown to be the one taken, and the rest of
index/ is shown to touch no Whoosh internals but through the adapter.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path
from typing import Any

import pytest
import whoosh
from whoosh import query, scoring
from whoosh.codec import whoosh3
from whoosh.filedb import filetables
from whoosh.filedb.filestore import RamStorage
from whoosh.matching.wrappers import FilterMatcher
from whoosh.reading import SegmentReader
from whoosh.writing import PostingPool, SegmentWriter

from index.listings.catalog import load_catalog
from index.render.abstract import to_plain
from index.search import termwrite, whoosh_private
from index.search.fastwrite import FastSegmentWriter
from index.search.schema import build_schema, document
from index.search.whoosh_private import (
    POSTING_SIZE,
    FieldLengths,
    block_deltas,
    bm25f_b,
    deleted_set,
    expand_once,
    field_lengths,
    generation_files,
    is_w3_field_writer,
    read_postings,
    terms_within_swaps,
    unfiltered,
    var_bytes_values,
)
from tests.conftest import REPO, SEEDS
from tests.private_api import private as _private
from tests.private_api import private_names, private_reads

ADAPTER = REPO / "index" / "search" / "whoosh_private.py"
PUBLIC = frozenset(
    {
        "whoosh.index",
        "whoosh.analysis",
        "whoosh.fields",
        "whoosh.formats",
        "whoosh.query",
        "whoosh.qparser",
        "whoosh.scoring",
        "whoosh.searching",
        "whoosh.collectors",
        "whoosh.highlight",
        "whoosh.filedb.filestore",
        "whoosh.lang.porter",
    }
)
"""Whoosh's documented modules (and their submodules), which any module of index/ may import."""
SIGNATURES = {
    "whoosh.codec.whoosh3._lenfield": ["fieldname"],
    "whoosh.codec.whoosh3.W3PerDocReader._cached_reader": ["self", "fieldname", "column"],
    "whoosh.codec.whoosh3.W3LeafMatcher._read_ids": ["self"],
    "whoosh.codec.whoosh3.W3LeafMatcher._read_weights": ["self"],
    "whoosh.codec.whoosh3.W3LeafMatcher._read_data": ["self"],
    "whoosh.codec.whoosh3.W3LeafMatcher._next_block": ["self"],
    "whoosh.writing.PostingPool.__init__": ["self", "tempstore", "segment", "limitmb"],
    "whoosh.writing.PostingPool.iter_postings": ["self"],
    "whoosh.writing.PostingPool.save": ["self"],
    "whoosh.writing.SegmentWriter._doc_boost": ["self", "fields"],
    "whoosh.writing.SegmentWriter._field_boost": ["self", "fields", "fieldname", "default"],
    "whoosh.writing.SegmentWriter._check_state": ["self"],
    "whoosh.writing.SegmentWriter._check_fields": ["self", "schema", "fieldnames"],
    "whoosh.writing.SegmentWriter._flush_segment": ["self"],
    "whoosh.writing.SegmentWriter._finalize_segment": ["self"],
    "whoosh.writing.SegmentWriter._close_segment": ["self"],
    "whoosh.writing.SegmentWriter._commit_toc": ["self", "segments"],
    "whoosh.writing.SegmentWriter._finish": ["self"],
    "whoosh.query.Prefix._btexts": ["self", "ixreader"],
    "whoosh.query.Wildcard._btexts": ["self", "ixreader"],
    "whoosh.query.FuzzyTerm._btexts": ["self", "ixreader"],
}
"""The private callables the adapter calls, with the parameters it passes, in order."""


def moved(what: str) -> str:
    return f"whoosh {whoosh.versionstring()} moved {what}: index/search/whoosh_private.py relies on it"


def assert_has(obj: Any, names: str, what: str) -> None:
    missing = [name for name in names.split() if not hasattr(obj, name)]
    assert not missing, moved(f"{what} ({type(obj).__name__}) has no {', '.join(missing)}")


def refuse(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> None:
    """Make `owner.name` fail when called: the slow path a fast one must not fall back to."""

    def fell_back(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError(moved(f"what lets the adapter skip {owner.__name__}.{name}: it was called"))

    monkeypatch.setattr(owner, name, fell_back)


def calls(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[tuple[Any, ...]]:
    """The arguments of every call of `owner.name` from now on (each still made)."""
    made: list[tuple[Any, ...]] = []
    real = getattr(owner, name)

    def record(*args: Any, **kwargs: Any) -> Any:
        made.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, record)
    return made


def documents(copies: int = 5) -> list[dict[str, Any]]:
    """The seeds' documents, `copies` times over (at 10, common terms fill several 128-posting blocks in a
    segment of half of them)."""
    docs = [document(paper, to_plain(paper.abstract)) for paper in load_catalog([SEEDS]).papers]
    return [dict(doc, id=f"{doc['id']}-{copy}") for copy in range(copies) for doc in docs]


def two_segments(docs: list[dict[str, Any]]) -> Any:
    """Our schema's index in memory, written by our writer: `docs` in two segments, one commit each."""
    ix = RamStorage().create_index(build_schema())
    for part in (docs[: len(docs) // 2], docs[len(docs) // 2 :]):
        writer = FastSegmentWriter(ix)
        for doc in part:
            writer.add_document(**doc)
        writer.commit(merge=False)
    return ix


@pytest.fixture(scope="module")
def ix() -> Any:
    """Our schema's index in memory, written by our writer: two segments, the first with a deleted paper."""
    docs = documents(copies=10)
    ix = two_segments(docs)
    writer = FastSegmentWriter(ix)
    writer.delete_by_term("id", docs[0]["id"])
    writer.commit(merge=False)
    return ix


def leaves(ix: Any) -> list[Any]:
    return [leaf for leaf, _base in ix.reader().leaf_readers()]


def adapter_imports() -> list[tuple[str, str]]:
    tree = ast.parse(ADAPTER.read_text(encoding="utf-8"))
    return [
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("whoosh")
        for alias in node.names
    ]


@pytest.mark.parametrize(("module", "name"), adapter_imports())
def test_every_name_the_adapter_imports_is_where_it_was(module: str, name: str) -> None:
    assert hasattr(importlib.import_module(module), name), moved(f"{module}.{name}")


@pytest.mark.parametrize(("path", "parameters"), SIGNATURES.items())
def test_the_private_methods_the_adapter_calls_take_what_it_passes(path: str, parameters: list[str]) -> None:
    module, _, rest = path.partition(".")
    target: Any = importlib.import_module(module)
    for part in rest.split("."):
        if hasattr(target, part):
            target = getattr(target, part)
        else:
            target = importlib.import_module(f"{target.__name__}.{part}")
    given = list(inspect.signature(target).parameters)
    assert given[: len(parameters)] == parameters, moved(
        f"{path}{tuple(given)}, called as {tuple(parameters)}"
    )


def test_the_constants_and_layouts_the_term_writer_repeats_are_whooshs() -> None:
    assert whoosh3.WHOOSH3_HEADER_MAGIC == b"W3Bl", moved("the posting list header")
    assert whoosh3.COMPRESSION_MIN_SIZE == 80, moved("the size from which a block is compressed")
    assert whoosh3.W3TermInfo._struct.format == "!BfIBBfII", moved("the term info record")
    assert filetables._lengths.format == "!ii", moved("the hash file record's lengths")
    assert {"_lk", "limitmb", "compound"} <= set(inspect.signature(SegmentWriter).parameters), moved(
        "SegmentWriter's _lk, limitmb or compound argument"
    )


def test_a_segment_writer_has_the_state_the_adapter_names(ix: Any) -> None:
    writer = SegmentWriter(ix)
    try:
        assert_has(
            writer, "_tempstorage newsegment perdocwriter fieldwriter codec docnum _added schema", "writer"
        )
        assert_has(writer.codec, "length_stats", "the codec")
        assert_has(writer.pool, "fieldnames currentsize limit current runs", "the posting pool")
        fieldwriter = writer.fieldwriter
        fieldwriter.start_field("abstract", writer.schema["abstract"])
        assert_has(fieldwriter, "_postwriter _format _postfile _tindex _fieldid _codec", "the field writer")
        assert_has(fieldwriter._postwriter, "_blocklimit _compression", "the postings writer")
        assert_has(fieldwriter._tindex, "lastkey index hashfn buckets dbfile", "the term index")
        assert_has(fieldwriter._codec, "_inlinelimit", "the codec")
        assert is_w3_field_writer(fieldwriter), moved("the default field writer termwrite.py reproduces")
    finally:
        writer.cancel()


def test_a_generations_files_are_its_table_of_contents_and_its_segments_files() -> None:
    """What `refresh` watches for damage: every file the generation reads, and no other generation's."""
    ix = two_segments(documents(copies=2))
    with ix.searcher() as searcher:
        toc, segments = generation_files(ix, searcher)
        names = set(ix.storage.list())
        assert toc == f"_MAIN_{ix.latest_generation()}.toc" and toc in names, moved("the TOC's file name")
        assert len(segments) == 2, moved("a segment's file prefix")
        for prefix in segments:
            assert any(name.startswith(prefix) for name in names), prefix
        assert all(name == toc or name.startswith(segments) for name in names if "MAIN" in name), names


def test_our_pool_counts_a_posting_as_whooshs_does() -> None:
    """The same estimate spills a run at the same posting: the segment keeps Whoosh's bytes."""
    pool = PostingPool(RamStorage(), None)
    pool.add(("abstract", b"graph", 3, 2.0, b"\x00\x01"))
    assert pool.currentsize == POSTING_SIZE + len("abstract") + 2 * len(b"graph") + 2, moved(
        "PostingPool.add's size estimate"
    )


@pytest.mark.parametrize("limitmb", [16, 0.05])
def test_a_commit_writes_through_our_flush_the_term_writer_and_lengths_read_whole(
    monkeypatch: pytest.MonkeyPatch, limitmb: float
) -> None:
    """Whoosh's commit calls our `_flush_segment`; no term is written Whoosh's way and no length is read
    from the column file per posting, whether the pool kept its postings grouped or spilled runs."""
    flushed = calls(monkeypatch, FastSegmentWriter, "write_postings")
    written = calls(monkeypatch, termwrite.TermWriter, "add")
    whooshs_terms = calls(monkeypatch, whoosh3.W3FieldWriter, "start_term")
    whooshs_lengths = calls(monkeypatch, whoosh3.W3PerDocReader, "doc_field_length_reader")
    writer = FastSegmentWriter(RamStorage().create_index(build_schema()), limitmb=limitmb)
    for doc in documents():
        writer.add_document(**doc)
    spilled = bool(writer.pool.runs)
    writer.commit()
    assert len(flushed) == 1, moved("SegmentWriter._flush_segment, which our writer overrides")
    assert written and not whooshs_terms, moved("what termwrite.TermWriter writes in place of start_term")
    assert not whooshs_lengths, moved("what FieldLengths reads in place of doc_field_length_reader")
    assert spilled == (limitmb < 1)


def test_field_lengths_read_whole_are_whooshs_lengths(ix: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    for leaf in leaves(ix):
        assert_has(leaf, "_perdoc", "the segment reader")
        column = leaf._perdoc._cached_reader(whoosh3._lenfield("abstract"), whoosh3.LENGTHS_COLUMN)
        assert_has(column, "_dbfile _basepos _count _fixedlen", "the length column")
        assert column._fixedlen == 1, moved("the one-byte length column")
        count = leaf.doc_count_all()
        for field in ("headline", "abstract", "venue", "authors"):
            theirs = leaf._perdoc.doc_field_length_reader(field)
            ours = FieldLengths(leaf._perdoc).doc_field_length_reader(field)
            assert [ours(n) for n in range(count)] == [theirs(n) for n in range(count)], field
    expected = [
        [leaf.doc_field_length(n, "abstract") or 0 for n in range(leaf.doc_count_all())]
        for leaf in leaves(ix)
    ]
    refuse(monkeypatch, SegmentReader, "doc_field_length")
    assert [field_lengths(leaf, "abstract") for leaf in leaves(ix)] == expected


def stepped(matcher: Any) -> list[tuple[int, float]]:
    """A matcher's postings one documented call at a time: the reference the block reads must give."""
    found = []
    while matcher.is_active():
        found.append((matcher.id(), matcher.weight()))
        matcher.next()
    return found


def test_postings_are_read_by_whole_blocks_under_the_deletions_filter(
    ix: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = leaves(ix)[0]
    deleted = {number for number in range(first.doc_count_all()) if first.is_deleted(number)}
    assert deleted and deleted_set(first) == deleted, moved("SegmentReader.deleted_docs_set")
    common = max(first.lexicon("abstract"), key=lambda btext: first.doc_frequency("abstract", btext))
    assert first.doc_frequency("abstract", common) > 128  # several blocks

    def fresh() -> Any:
        return unfiltered(first, first.postings("abstract", common))

    assert isinstance(first.postings("abstract", common), FilterMatcher), moved("the deletions filter")
    assert type(fresh()) is whoosh3.W3LeafMatcher, moved("FilterMatcher.child, the codec's own matcher")
    reference = stepped(first.postings("abstract", common))  # the live documents, through Whoosh's filter
    assert_has(fresh(), "_ids _weights _data _byteids", "the block matcher")
    by_ids, by_deltas = fresh(), fresh()  # (made first: the filter steps to its first live document)
    for name in ("id", "weight", "next", "all_ids", "all_items"):
        refuse(monkeypatch, whoosh3.W3LeafMatcher, name)
    ids, weights = read_postings(by_ids)
    assert [(n, weight) for n, weight in zip(ids, weights, strict=True) if n not in deleted] == reference
    blocks = block_deltas(by_deltas)
    assert blocks is not None, moved("the block matcher's delta-coded ids")
    deltas, block_weights, starts = blocks
    assert len(starts) > 1 and block_weights == weights
    decoded: list[int] = []
    for start, end in zip(starts, [*starts[1:], len(deltas)], strict=True):
        decoded += [sum(deltas[start : at + 1]) for at in range(start, end)]
    assert decoded == ids


def test_the_id_column_is_read_in_one_piece(ix: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    for leaf in leaves(ix):
        column = leaf.column_reader("id")
        expected = list(column)
        whole = var_bytes_values(column)
        assert whole is not None, moved("the variable-length column's reader (_offsets, _lengths, _dbfile)")
        block, offsets, lengths = whole
        values = [block[at : at + size].decode("utf-8") for at, size in zip(offsets, lengths, strict=True)]
        assert values == expected


def test_a_prefix_wildcard_or_fuzzy_leaf_expands_once_per_reader(
    ix: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whoosh asks `_btexts` for an Or's order, the matcher and highlighting: made once, it is one walk."""
    searcher = ix.searcher()
    segment = searcher.leaf_searchers()[1][0]
    reader = segment.reader()
    walks: list[str] = []
    for name in ("expand_prefix", "terms_within"):  # the prefix and wildcard walk, the fuzzy one
        real = getattr(SegmentReader, name)

        def walk(self: Any, field: str, text: str, *args: Any, real: Any = real, **kwargs: Any) -> Any:
            walks.append(text)
            return real(self, field, text, *args, **kwargs)

        monkeypatch.setattr(SegmentReader, name, walk)
    for leaf in (
        query.Prefix("abstract", "gra"),
        query.Wildcard("abstract", "gra*h"),
        query.FuzzyTerm("abstract", "graph"),
    ):
        expand_once(leaf)
        walks.clear()
        leaf.estimate_size(reader)
        leaf.matcher(segment, searcher.context())
        list(leaf.existing_terms(reader, expand=True))
        assert len(walks) == 1, moved(
            f"{type(leaf).__name__}._btexts, asked by its estimate, matcher and terms"
        )
        assert whoosh_private.expansion(leaf, reader) == leaf._btexts(reader)
    searcher.close()


def test_bm25f_b_is_the_b_whoosh_scores_a_field_with(ix: Any) -> None:
    weighting = scoring.BM25F(B=0.5, abstract_B=0.3)
    with ix.searcher(weighting=weighting) as searcher:
        for field, b in (("abstract", 0.3), ("headline", 0.5)):
            scorer = weighting.scorer(searcher, field, "graph")
            assert bm25f_b(weighting, field) == scorer.B == b, moved("BM25F._field_B")


def test_near_words_know_how_each_reader_counts_a_swap(ix: Any) -> None:
    reader = ix.reader()
    assert terms_within_swaps(reader) is True, moved("IndexReader.terms_within (several segments)")
    assert terms_within_swaps(leaves(ix)[0]) is False, moved("SegmentReader.terms_within (one segment)")


def test_two_writers_commit_one_toc_as_the_two_process_build_does() -> None:
    """build.py's parent and child: each finishes its own segment, the parent commits both."""
    ix = RamStorage().create_index(build_schema())
    docs = documents()[:20]
    parent, child = FastSegmentWriter(ix), FastSegmentWriter(ix, lock=False)
    for writer, part in ((parent, docs[:10]), (child, docs[10:])):
        for doc in part:
            writer.add_document(**doc)
    segments = [parent.finish_segment(), child.finish_segment()]
    parent.commit_segments(segments)
    with ix.searcher() as searcher:
        assert searcher.doc_count() == 20 and len(searcher.leaf_searchers()) == 2
    empty, child = FastSegmentWriter(ix), FastSegmentWriter(ix, lock=False)
    child.add_document(**dict(docs[0], id="extra"))
    assert empty.finish_segment() is None
    empty.commit_segments([*segments, child.finish_segment()])
    assert ix.doc_count() == 21


# The boundary: the rest of index/ touches Whoosh's internals only through the adapter.


def our_modules() -> list[Path]:
    return [path for path in sorted((REPO / "index").rglob("*.py")) if path != ADAPTER]


def engine_modules() -> list[Path]:
    """The modules that can hold Whoosh's objects: the search package's, and any other importing Whoosh."""
    search = REPO / "index" / "search"
    return [
        path
        for path in our_modules()
        if path.parent == search or _whoosh_imports(ast.parse(path.read_text(encoding="utf-8")))
    ]


def whoosh_private_names() -> frozenset[str]:
    """Every single-underscore name Whoosh's own source defines or reads as an attribute."""
    return private_names(Path(whoosh.__file__).parent)


def _documented(module: str) -> bool:
    return any(module == public or module.startswith(f"{public}.") for public in PUBLIC)


def _whoosh_imports(tree: ast.AST) -> list[tuple[str, list[str]]]:
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "whoosh":
            found.append((node.module, [alias.name for alias in node.names]))
        elif isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names if alias.name.split(".")[0] == "whoosh"]
    return found


@pytest.mark.parametrize("path", our_modules(), ids=lambda path: str(path.relative_to(REPO)))
def test_only_the_adapter_imports_whoosh_internals(path: Path) -> None:
    for module, names in _whoosh_imports(ast.parse(path.read_text(encoding="utf-8"))):
        documented = _documented(module) or (
            module == "whoosh" and all(_documented(f"whoosh.{name}") for name in names)
        )
        assert documented, f"{module} is not documented Whoosh: import it in whoosh_private.py"
        assert not any(map(_private, names)), f"{module}.{names}: a private name, for whoosh_private.py"


@pytest.mark.parametrize("path", engine_modules(), ids=lambda path: str(path.relative_to(REPO)))
def test_only_the_adapter_reads_whoosh_private_attributes(path: Path) -> None:
    """A private name read off an object, not one this module defines itself, but one Whoosh defines."""
    read = private_reads(ast.parse(path.read_text(encoding="utf-8")), whoosh_private_names())
    assert not read, f"Whoosh internals read outside whoosh_private.py: {sorted(read)}"


def test_only_the_adapter_subclasses_whoosh_internals() -> None:
    for path in engine_modules():
        name = ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
        module = importlib.import_module(name)
        for cls in vars(module).values():
            if inspect.isclass(cls) and cls.__module__ == name:
                for base in cls.__bases__:
                    inner = base.__module__.split(".")[0] == "whoosh" and not _documented(base.__module__)
                    assert not inner, f"{name}.{cls.__name__} extends {base.__module__}.{base.__name__}"
