"""Writing the index faster must write the same index: postings, headlines, ids; and honest progress."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from whoosh import formats
from whoosh.filedb.filestore import RamStorage
from whoosh.writing import SegmentWriter

from index.cli.common import PROGRESS_EVERY
from index.listings.catalog import load_catalog, no_headline, paper_headline, plain_headlines, with_headlines
from index.render.abstract import to_plain
from index.search import build as whoosh_build
from index.search import carry, snapshot, snapshot_encode
from index.search.fastwrite import FastSegmentWriter
from index.search.index import SearchIndex
from index.search.schema import WordAnalyzer, WordPositions, build_schema, document
from tests.conftest import REPO, SEEDS, run_papers

TRICKY = [
    "The the THE a of: stop words, repeated repeated repeated, and numbers 3.5 x 10^4.",
    "Unicode: naïve café résumé — Straße İstanbul ﬁne 東京 learning learned learns.",
    "",
    "single",
]


def _seed_abstracts() -> list[str]:
    return [paper.abstract for paper in load_catalog([SEEDS], no_headline).papers]


def write_corpus(directory: Path, count: int, per_file: int = 200) -> list[str]:
    """`count` distinct abstracts made from pairs of seed abstracts, in listing files of `per_file`."""
    seeds = _seed_abstracts()
    pairs = ((a, b) for a in range(len(seeds)) for b in range(len(seeds)) if a != b)
    abstracts = [f"{seeds[a]} {seeds[b]}" for a, b in (next(pairs) for _ in range(count))]
    directory.mkdir(parents=True, exist_ok=True)
    for start in range(0, count, per_file):
        chunk = abstracts[start : start + per_file]
        text = f"Bench {2000 + start // per_file} Papers\n\n" + "\n\n".join(chunk) + "\n"
        (directory / f"part{start // per_file:03d}.txt").write_text(text, encoding="utf-8")
    return abstracts


def _everything(storage: Any) -> list[Any]:
    """Every term's statistics and postings, field lengths and stored fields of a one-segment index."""
    reader = storage.open_index().reader()
    out: list[Any] = []
    for fieldname, text in reader.all_terms():
        info = reader.term_info(fieldname, text)
        stats = (info.weight(), info.doc_frequency(), info.min_length(), info.max_length(), info.max_weight())
        out.append((fieldname, text, stats, list(reader.postings(fieldname, text).all_items())))
    out.append(sorted((name, reader.field_length(name)) for name in reader.indexed_field_names()))
    out.append([reader.doc_field_length(n, "abstract") for n in range(reader.doc_count_all())])
    out.append(list(reader.all_stored_fields()))
    reader.close()
    return out


def test_word_positions_and_the_fast_writer_write_what_whoosh_writes() -> None:
    catalog = load_catalog([SEEDS])
    docs = [document(paper, to_plain(paper.abstract)) for paper in catalog.papers]
    docs += [{"id": f"t{n}", "headline": text, "abstract": text * 3} for n, text in enumerate(TRICKY)]
    # Copies, so common terms have more postings than one block holds (fastwrite fills blocks in bulk).
    docs += [dict(doc, id=f"{doc['id']}-{copy}") for copy in range(5) for doc in docs]
    stock = build_schema()
    for name in ("headline", "abstract", "authors"):
        assert isinstance(stock[name].format, WordPositions)
        stock[name].format = formats.Positions(field_boost=stock[name].format.field_boost)
    # Stock Positions against ours read back (the same postings), then Whoosh's writer against ours over our
    # schema byte for byte (with stock Positions the pickled blocks differ only in pickle's memo of the
    # position encodings WordPositions shares), also both with a pool small enough to spill sorted runs
    # (postings read back from a run share no objects: another memo, so their own comparison).
    runs = (
        (stock, SegmentWriter, 16),
        (build_schema(), SegmentWriter, 16),
        (build_schema(), FastSegmentWriter, 16),
        (build_schema(), SegmentWriter, 0.1),
        (build_schema(), FastSegmentWriter, 0.1),
    )
    written, files, spills = [], [], []
    for schema, writer_class, limit in runs:
        storage = RamStorage()
        writer = writer_class(storage.create_index(schema), limitmb=limit, compound=False)
        for doc in docs:
            writer.add_document(**doc)
        spills.append(len(writer.pool.runs))
        writer.commit()
        written.append(_everything(storage))
        files.append(_segment_files(storage))
    assert all(one == written[0] for one in written)
    assert files[1] == files[2] and files[3] == files[4]
    assert spills[2] == 0 and spills[4] > 1  # only the small pools wrote runs
    assert {".pst", ".trm"} <= set(files[2])
    assert max(stats[1] for _field, _text, stats, _postings in written[0][:-3]) > 128  # several blocks


def _segment_files(storage: Any) -> dict[str, bytes]:
    """The one segment's files by what follows the segment's (random) name: postings, terms, columns."""
    segment = storage.open_index()._segments()[0].segment_id()
    return {name[len(segment) :]: storage.files[name] for name in storage.list() if name.startswith(segment)}


@pytest.mark.parametrize(
    "analyzer", [WordAnalyzer(), WordAnalyzer(stem=False, stop=False), WordAnalyzer(stop=False)]
)
def test_analyzer_positions_are_the_token_stream_grouped(analyzer: WordAnalyzer) -> None:
    for text in [*TRICKY, *_seed_abstracts()[:10]]:
        grouped: dict[str, list[int]] = {}
        for token in analyzer(text, positions=True):
            grouped.setdefault(token.text, []).append(token.pos)
        assert analyzer.positions(text) == grouped


def test_a_two_process_build_makes_every_missing_headline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_corpus(tmp_path / "listings", 120, per_file=40)
    catalog = load_catalog([tmp_path / "listings"], no_headline)
    assert all(not paper.headline for paper in catalog.papers)
    monkeypatch.setattr(whoosh_build, "PARALLEL_MIN", 10)  # fork the second indexer at this size too
    (tmp_path / "ix").mkdir()
    headlines = whoosh_build.build(tmp_path / "ix", catalog.papers, None, workers=2)
    assert headlines == [paper_headline(paper.abstract, paper.title) for paper in catalog.papers]


def test_an_added_listing_makes_only_its_headlines_and_keeps_every_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    listings = tmp_path / "listings"
    write_corpus(listings, 90, per_file=30)
    index = SearchIndex.open(tmp_path / "ix")
    assert index.maintenance.ensure_current([listings]) is not None
    before = index.maintenance.load_snapshot()
    assert before is not None
    old = dict(zip(before.ids, before.made, strict=True))

    made: list[str] = []

    def counting(plains: Sequence[str], titles: Sequence[str | None]) -> list[str]:
        made.extend(plains)
        return plain_headlines(plains, titles)

    monkeypatch.setattr(carry, "plain_headlines", counting)
    new = _seed_abstracts()[:3]
    (listings / "zz-new.txt").write_text("New 2031 Papers\n\n" + "\n\n".join(new) + "\n", encoding="utf-8")
    report = index.maintenance.ensure_current([listings])
    assert report is not None and not report.rebuilt
    assert (report.added, report.updated, report.removed) == (3, 0, 0)
    assert sorted(made) == sorted(to_plain(abstract) for abstract in new)
    after = index.maintenance.load_snapshot()
    assert after is not None
    assert list(after.ids[:90]) == list(before.ids)  # same ids, same order: stars keyed by id stay put
    assert {key: after.made[n] for n, key in enumerate(after.ids) if key in old} == old
    parsed = load_catalog([listings])  # the carried headlines are the ones a parse makes
    assert list(after.made) == [paper.headline for paper in parsed.papers]
    assert after.catalog() == with_headlines(parsed, after.headlines)  # shown: none alike (distinct.py)
    assert list(index.search('"' + to_plain(new[0]).split(".")[0][:40].rsplit(" ", 1)[0] + '"').ids)
    index.maintenance.close()


def test_a_star_survives_adding_a_listing(tmp_path: Path) -> None:
    listings = tmp_path / "listings"
    write_corpus(listings, 30, per_file=30)
    args = (
        "--listings",
        str(listings),
        "--index-dir",
        str(tmp_path / "ix"),
        "--data-dir",
        str(tmp_path / "d"),
    )
    assert run_papers(*args, "index").returncode == 0
    first = json.loads(run_papers(*args, "search", "generalization", "--json").stdout)[0]["id"]
    assert run_papers(*args, "star", first).returncode == 0
    (listings / "zz-new.txt").write_text(
        "New 2031 Papers\n\n" + _seed_abstracts()[0] + "\n", encoding="utf-8"
    )
    update = run_papers(*args, "index")
    assert update.returncode == 0, update.stderr
    assert update.stdout.startswith("update:") and "1 added, 0 updated, 0 removed" in update.stdout
    starred = json.loads(run_papers(*args, "search", "is:starred", "--json").stdout)
    assert [row["id"] for row in starred] == [first]


def _index_command(tmp_path: Path, *extra: str) -> list[str]:
    listings = tmp_path / "listings"
    return [
        sys.executable,
        "-m",
        "index.cli",
        *(
            "--listings",
            str(listings),
            "--index-dir",
            str(tmp_path / "ix"),
            "--data-dir",
            str(tmp_path / "d"),
        ),
        "index",
        *extra,
    ]


def test_index_progress_is_a_few_plain_lines_off_a_terminal(tmp_path: Path) -> None:
    """A log or a pipe sees a build moving without asking: a line when it starts, at most one every few
    seconds, one at the end; `--quiet` turns them off."""
    write_corpus(tmp_path / "listings", 600)
    built = subprocess.run(
        _index_command(tmp_path), capture_output=True, text=True, cwd=REPO, timeout=300, check=False
    )
    assert built.returncode == 0, built.stderr
    lines = [line for line in built.stderr.splitlines() if line.startswith("indexing: ")]
    assert len(lines) >= 2, built.stderr
    counts = [int(line.split()[1].split("/")[0]) for line in lines]
    assert counts == sorted(set(counts)) and lines[-1].startswith("indexing: 600/600 papers (100%) after ")
    seconds = [int(line.rsplit(" ", 2)[1]) for line in lines]
    # Between two lines that are not the last, at least PROGRESS_EVERY seconds (the old one-per-tenth
    # printed 11 lines for 600 papers in about a second).
    assert all(later - earlier >= PROGRESS_EVERY - 1 for earlier, later in pairwise(seconds[:-1]))
    assert len(lines) <= 2 + seconds[-1] // PROGRESS_EVERY
    assert "\x1b" not in built.stderr and "\r" not in built.stderr
    quiet = subprocess.run(
        _index_command(tmp_path, "--rebuild", "--quiet"),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
        check=False,
    )
    assert quiet.returncode == 0, quiet.stderr
    assert "indexing" not in quiet.stderr
    assert "full build (rebuild requested): 600 papers indexed" in quiet.stdout


def test_index_progress_is_a_bar_on_a_terminal(tmp_path: Path) -> None:
    write_corpus(tmp_path / "listings", 600)
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        _index_command(tmp_path),
        stdout=subprocess.PIPE,
        stderr=terminal,
        cwd=REPO,
        env={**os.environ, "COLUMNS": "100", "TERM": "xterm"},
    )
    os.close(terminal)
    seen = b""
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # the child closed its end
            break
        if not chunk:
            break
        seen += chunk
    stdout, _ = process.communicate(timeout=300)
    os.close(controller)
    assert process.returncode == 0
    assert b"indexing" in seen and b"\x1b[" in seen  # drawn in place with escape sequences
    assert b"full build" in stdout and b"indexing" not in stdout


def test_a_streamed_snapshot_is_the_same_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = load_catalog([SEEDS])
    whole = snapshot_encode.encode(catalog)
    # Encode each record twice instead of holding them.
    monkeypatch.setattr(snapshot_encode, "STREAM_ABOVE", 0)
    parts = snapshot_encode.encode_parts(catalog)
    assert not isinstance(parts, list | tuple)  # a generator: nothing is encoded before it is written
    assert b"".join(parts) == whole
    assert snapshot.decode(whole) == catalog
