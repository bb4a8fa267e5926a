"""The yardsticks bench_search holds our Whoosh index against: SQLite FTS5 and a naive in-RAM substring scan.

Both get the same papers with the same display text the project indexes (rendered abstract, headline,
authors), so differences in the numbers come from the engines, not from the input.
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

_COLUMNS = "id UNINDEXED, headline, abstract, authors, year UNINDEXED"
_ABSTRACT_COLUMN = 2
# Control characters as highlight marks: they cannot occur in rendered text, so counting them is exact.
_OPEN, _CLOSE = "\x02", "\x03"


@dataclass(frozen=True, slots=True)
class Row:
    """One paper as the peers see it."""

    id: str
    headline: str
    abstract: str
    authors: str
    year: int | None


@dataclass(frozen=True, slots=True)
class Fts5Query:
    """A query in FTS5 MATCH syntax, with the year filter FTS5 cannot express inside MATCH."""

    match: str
    years: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class NaiveQuery:
    """Substrings that must all occur (AND), in the title or in all text, with an optional year range."""

    needles: tuple[str, ...]
    title_only: bool = False
    years: tuple[int, int] | None = None


class Fts5:
    """An FTS5 table in a file: porter + unicode61, ranked by bm25, top 20 with snippet() and highlight()."""

    def __init__(self, path: Path, prefix: str = "") -> None:
        self.path = path
        self.prefix = prefix
        """FTS5's `prefix=` option ("1 2 3": prefix indexes of those lengths), "" for none."""
        self.conn = sqlite3.connect(path)

    def build(self, rows: Iterable[Row]) -> float:
        """Create, fill in one transaction and optimize (merge to one b-tree, as a finished build would)."""
        start = time.perf_counter()
        with self.conn:
            self.conn.execute(
                f"CREATE VIRTUAL TABLE papers USING fts5({_COLUMNS}, tokenize='porter unicode61'"
                + (f", prefix='{self.prefix}'" if self.prefix else "")
                + ")"
            )
            self._insert(rows)
        self.conn.execute("INSERT INTO papers(papers) VALUES('optimize')")
        self.conn.commit()
        return time.perf_counter() - start

    def add(self, rows: Iterable[Row]) -> float:
        """Append papers in one transaction, as an incremental update would (no optimize)."""
        start = time.perf_counter()
        with self.conn:
            self._insert(rows)
        return time.perf_counter() - start

    def _insert(self, rows: Iterable[Row]) -> None:
        self.conn.executemany(
            "INSERT INTO papers VALUES (?, ?, ?, ?, ?)",
            ((row.id, row.headline, row.abstract, row.authors, row.year) for row in rows),
        )

    def search(self, query: Fts5Query, limit: int = 20) -> list[tuple[str, str, str]]:
        """The top `limit` (id, snippet, highlighted abstract), best first."""
        sql, params = self._sql(
            f"SELECT id, snippet(papers, {_ABSTRACT_COLUMN}, ?, ?, '…', 24), "
            f"highlight(papers, {_ABSTRACT_COLUMN}, ?, ?) FROM papers",
            query,
        )
        rows = self.conn.execute(
            sql + " ORDER BY rank LIMIT ?", (_OPEN, _CLOSE, _OPEN, _CLOSE, *params, limit)
        )
        return rows.fetchall()

    def count(self, query: Fts5Query) -> int:
        sql, params = self._sql("SELECT count(*) FROM papers", query)
        return int(self.conn.execute(sql, params).fetchone()[0])

    @staticmethod
    def _sql(select: str, query: Fts5Query) -> tuple[str, tuple[object, ...]]:
        if query.years is None:
            return select + " WHERE papers MATCH ?", (query.match,)
        return select + " WHERE papers MATCH ? AND year BETWEEN ? AND ?", (query.match, *query.years)

    def close(self) -> None:
        self.conn.close()


_OPEN_PROBE = """
import json, sqlite3, sys, time
start = time.perf_counter()
conn = sqlite3.connect(sys.argv[1])
opened = time.perf_counter()
conn.execute("SELECT id FROM papers WHERE papers MATCH ? ORDER BY rank LIMIT 20", (sys.argv[2],)).fetchall()
done = time.perf_counter()
print(json.dumps({"open": opened - start, "first_query": done - opened}))
"""


def fts5_open_seconds(path: Path, cheap_query: str) -> tuple[float, float]:
    """(connect, connect + first query) in a fresh process, as a reader starting up would see it."""
    out = subprocess.run(
        [sys.executable, "-c", _OPEN_PROBE, str(path), cheap_query],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    numbers = json.loads(out.stdout)
    return numbers["open"], numbers["open"] + numbers["first_query"]


class Tantivy:
    """A tantivy index in RAM (English stemming, BM25), asked the way the reader asks a typed prefix: the
    finished words as terms, the last word as every term starting with it, all hits ranked and counted."""

    FIELDS = ("headline", "abstract", "authors")

    def __init__(self) -> None:
        import tantivy  # the `bench` extra: only this peer needs it

        self._tantivy = tantivy
        builder = tantivy.SchemaBuilder()
        builder.add_text_field("id", stored=True, tokenizer_name="raw")
        for field in self.FIELDS:
            builder.add_text_field(field, tokenizer_name="en_stem")
        self.schema = builder.build()
        self.index = tantivy.Index(self.schema)
        self._stem_probe: dict[str, str] = {}

    def build(self, rows: Iterable[Row]) -> float:
        start = time.perf_counter()
        writer = self.index.writer(heap_size=200_000_000, num_threads=1)
        for row in rows:
            writer.add_document(
                self._tantivy.Document(
                    id=row.id, headline=row.headline, abstract=row.abstract, authors=row.authors
                )
            )
        writer.commit()
        writer.wait_merging_threads()
        self.index.reload()
        self.searcher = self.index.searcher()
        return time.perf_counter() - start

    def _term(self, word: str) -> str:
        """`word` as the index holds it (lowercased, stemmed), by asking the query parser once."""
        if word not in self._stem_probe:
            parsed = repr(self.index.parse_query(word, ["abstract"]))
            found = re.search(r'Term\(.*?"([^"]*)"\)', parsed) or re.search(r"Str\(\"?([^\")]*)", parsed)
            self._stem_probe[word] = found.group(1) if found else word.lower()
        return self._stem_probe[word]

    def keystroke(self, words: Sequence[str], last_is_prefix: bool) -> int:
        """Rank every paper with all `words` (the last one as a prefix when it is being typed); the count."""
        tantivy = self._tantivy
        Occur, Query = tantivy.Occur, tantivy.Query
        if not words:
            return self.searcher.search(Query.all_query(), limit=self.searcher.num_docs).count
        musts = []
        for number, word in enumerate(words):
            prefix = last_is_prefix and number == len(words) - 1
            shoulds = []
            for field in self.FIELDS:
                if prefix:
                    terms = [term for term, _count in self.searcher.terms_with_prefix(field, word.lower())]
                else:
                    terms = [self._term(word)]
                shoulds += [(Occur.Should, Query.term_query(self.schema, field, term)) for term in terms]
            musts.append((Occur.Must, Query.boolean_query(shoulds) if shoulds else Query.empty_query()))
        result = self.searcher.search(Query.boolean_query(musts), limit=max(1, self.searcher.num_docs))
        return int(result.count)


class Naive:
    """Lowercased text in RAM and Python `in`: no index, no ranking, no stemming; the floor to beat."""

    def __init__(self, rows: Sequence[Row]) -> None:
        self.ids = [row.id for row in rows]
        self.text = [f"{row.headline}\n{row.abstract}\n{row.authors}".lower() for row in rows]
        self.titles = [row.headline.lower() for row in rows]
        self.years = [row.year for row in rows]

    def search(self, query: NaiveQuery, limit: int = 20) -> tuple[list[str], int]:
        """The first `limit` matching ids in corpus order, and how many matched."""
        texts = self.titles if query.title_only else self.text
        needles = [needle.lower() for needle in query.needles]
        hits: list[int] = []
        for number, text in enumerate(texts):
            if query.years is not None:
                year = self.years[number]
                if year is None or not query.years[0] <= year <= query.years[1]:
                    continue
            if all(needle in text for needle in needles):
                hits.append(number)
        return [self.ids[number] for number in hits[:limit]], len(hits)


def file_tree_mb(path: Path) -> float:
    """Bytes of every regular file under `path` (symlinks not followed, so nothing counts twice), in MB."""
    if path.is_file():
        return path.stat().st_size / 1e6
    return (
        sum(item.stat().st_size for item in path.rglob("*") if item.is_file() and not item.is_symlink()) / 1e6
    )
