"""Reading listing files: every odd encoding, line ending and damage a real listings folder holds."""

from __future__ import annotations

import json
import os
import tracemalloc
from pathlib import Path

import pytest

from index.listings.identity import paper_id
from index.listings.reader import expand_paths, parse_venue_year, read_listing, read_listings
from index.models import Listing
from tests.conftest import DATA, SEEDS

LISTINGS = DATA / "listings"
HEADER = "ICLR 2025 Papers"
ABSTRACTS = [
    "We study weak-to-strong generalization when the teacher is wrong in structured ways.",
    "Diffusion models for tabular data with $\\alpha$-mixing and **bold** claims.",
    "A single-line abstract about graph neural networks and message passing.",
]
# Line where each paper starts in every text variant: header on 1, blank lines between paragraphs.
START_LINES = [3, 6, 8]


def _read(name: str) -> tuple[Listing, list[str]]:
    listing, notices = read_listing(LISTINGS / name)
    assert listing is not None, notices
    return listing, [str(notice) for notice in notices]


@pytest.mark.parametrize(
    "name",
    [
        "lf.txt",
        "crlf.txt",
        "cr.txt",
        "mixed_endings.txt",
        "bom_utf8.txt",
        "utf16le.txt",
        "utf16be.txt",
        "whitespace_separators.txt",
        "no_final_newline.txt",
    ],
)
def test_text_variants_read_the_same_three_papers(name: str) -> None:
    listing, notices = _read(name)
    assert notices == []
    assert listing.format == "text"
    assert (listing.name, listing.venue, listing.year) == (HEADER, "ICLR", 2025)
    assert [entry.abstract for entry in listing.entries] == ABSTRACTS
    assert [entry.source.line for entry in listing.entries] == START_LINES
    assert [entry.source.paragraph for entry in listing.entries] == [1, 2, 3]
    for entry in listing.entries:
        assert entry.source.path == os.path.abspath(LISTINGS / name)
        assert entry.source.listing == HEADER
        assert (entry.venue, entry.year) == ("ICLR", 2025)


def test_the_bom_never_reaches_the_header() -> None:
    listing, _ = _read("bom_utf8.txt")
    assert listing.name == HEADER  # not "\ufeffICLR 2025 Papers"


def test_runs_of_blank_lines_count_as_one_separator_and_shift_only_line_numbers() -> None:
    listing, notices = _read("blank_runs.txt")
    assert notices == []
    assert listing.name == HEADER
    assert [entry.abstract for entry in listing.entries] == ABSTRACTS
    # Three leading blank lines, header on 4, then four blank lines between paragraphs.
    assert [entry.source.line for entry in listing.entries] == [9, 15, 20]


def test_bytes_that_are_not_utf8_are_replaced_with_one_warning_naming_file_and_line() -> None:
    listing, notices = _read("latin1.txt")
    assert len(listing.entries) == 3
    assert listing.entries[1].abstract.startswith("Diff\ufffdsion \ufffdber")
    assert len(notices) == 1
    assert str(LISTINGS / "latin1.txt") in notices[0]
    assert "not valid UTF-8" in notices[0] and "line 6" in notices[0]


def test_non_utf8_warning_is_once_per_file_however_many_bad_lines(tmp_path: Path) -> None:
    path = tmp_path / "many.txt"
    path.write_bytes(b"".join(b"caf\xe9 number %d in a latin-1 file.\n\n" % n for n in range(50)))
    listing, notices = read_listing(path)
    assert listing is not None and len(listing.entries) == 50
    assert len(notices) == 1 and "line 1" in str(notices[0])


def test_a_real_replacement_character_in_utf8_is_not_damage(tmp_path: Path) -> None:
    path = tmp_path / "fffd.txt"
    path.write_text("Text that quotes the replacement character \ufffd on purpose.\n", encoding="utf-8")
    listing, notices = read_listing(path)
    assert listing is not None and notices == []


@pytest.mark.parametrize(
    ("name", "why"), [("empty.txt", "empty file"), ("header_only.txt", "only a header line")]
)
def test_files_without_papers_load_with_a_warning(name: str, why: str) -> None:
    listing, notices = _read(name)
    assert listing.entries == ()
    assert len(notices) == 1 and why in notices[0] and name in notices[0]


def test_a_binary_file_is_skipped_with_one_line_naming_it() -> None:
    listing, notices = read_listing(LISTINGS / "binary.txt")
    assert listing is None
    assert len(notices) == 1
    message = str(notices[0])
    assert "\n" not in message and "binary.txt" in message and "skipped" in message


def test_mostly_control_characters_without_nul_is_binary_too(tmp_path: Path) -> None:
    path = tmp_path / "junk.txt"
    path.write_bytes(bytes(range(1, 9)) * 200)
    listing, notices = read_listing(path)
    assert listing is None and "binary" in str(notices[0])


def test_without_a_header_every_paragraph_is_a_paper_and_the_stem_names_the_listing() -> None:
    listing, notices = _read("no_header.txt")
    assert notices == []
    assert (listing.name, listing.venue, listing.year) == ("no_header", None, None)
    assert [entry.abstract for entry in listing.entries] == ABSTRACTS
    assert [entry.source.line for entry in listing.entries] == [1, 4, 6]


def test_the_seed_style_chinese_header_names_venue_and_year() -> None:
    listing, _ = _read("chinese_header.txt")
    assert (listing.name, listing.venue, listing.year) == ("NeurIPS 2026 论文列表", "NeurIPS", 2026)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("NeurIPS 2026 Papers", ("NeurIPS", 2026)),
        ("ICML 2024: accepted papers", ("ICML", 2024)),
        ("2023 papers", (None, 2023)),
        ("Reading list", (None, None)),
    ],
)
def test_venue_and_year_come_from_the_header(header: str, expected: tuple[str | None, int | None]) -> None:
    assert parse_venue_year(header) == expected


def test_a_short_first_line_ending_like_a_sentence_is_a_paper(tmp_path: Path) -> None:
    path = tmp_path / "short.txt"
    path.write_text("A tiny abstract.\n\nAnother one.\n")
    listing, _ = read_listing(path)
    assert listing is not None and listing.name == "short" and len(listing.entries) == 2


def test_a_200_kb_paragraph_is_one_paper(tmp_path: Path) -> None:
    words = [f"word{n}" for n in range(30_000)]
    lines = [" ".join(words[n : n + 12]) for n in range(0, len(words), 12)]
    path = tmp_path / "huge.txt"
    path.write_text(f"{HEADER}\n\n" + "\n".join(lines) + "\n\nA short one after it.\n")
    assert path.stat().st_size > 200_000
    listing, notices = read_listing(path)
    assert listing is not None and notices == []
    assert [len(entry.abstract) for entry in listing.entries][1] == len("A short one after it.")
    assert listing.entries[0].abstract == " ".join(words)
    assert listing.entries[1].source.line == 3 + len(lines) + 1


@pytest.mark.slow
def test_100000_paragraphs_stream_without_holding_the_file_as_lines(tmp_path: Path) -> None:
    path = tmp_path / "many.txt"
    count = 100_000
    with path.open("w", encoding="utf-8") as handle:
        handle.write(f"{HEADER}\n\n")
        for n in range(count):
            handle.write(f"Abstract number {n} about learning,\nwrapped onto a second line.\n\n")
    size = path.stat().st_size
    tracemalloc.start()
    try:
        listing, notices = read_listing(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert listing is not None and notices == []
    assert len(listing.entries) == count
    assert listing.entries[-1].source.paragraph == count
    assert listing.entries[-1].source.line == 3 + 3 * (count - 1)
    assert (
        listing.entries[-1].abstract
        == f"Abstract number {count - 1} about learning, wrapped onto a second line."
    )
    # The entries themselves cost a few hundred bytes each; a list of the file's lines on top would double it.
    assert peak < size + count * 700


def test_records_from_a_json_array_keep_their_metadata_and_skip_a_record_without_abstract() -> None:
    listing, notices = _read("records.json")
    assert listing.format == "json"
    assert (listing.name, listing.venue, listing.year) == ("ICLR 2025", "ICLR", 2025)
    first, second, third = listing.entries
    assert first.abstract == ABSTRACTS[0]
    assert (first.title, first.url, first.status) == ("Weak to strong", "https://example.org/1", "Oral")
    assert first.authors == ("Ada Lovelace", "Alan Turing")
    assert second.authors == ("Grace Hopper", "Edsger Dijkstra") and second.year == 2025
    assert third.authors == ("Barbara Liskov", "Donald Knuth", "Leslie Lamport")
    assert [entry.source.paragraph for entry in listing.entries] == [1, 2, 4]
    assert [entry.source.line for entry in listing.entries] == [2, 18, 31]
    assert notices == [f"{LISTINGS / 'records.json'}:25: record 3 has no abstract; skipped"]


def test_jsonl_skips_bad_lines_with_a_warning_each_and_loads_the_rest() -> None:
    listing, notices = _read("records.jsonl")
    assert listing.format == "jsonl"
    assert [entry.abstract for entry in listing.entries] == ABSTRACTS
    assert [entry.source.line for entry in listing.entries] == [1, 2, 6]
    assert [entry.source.paragraph for entry in listing.entries] == [1, 2, 5]
    shown = str(LISTINGS / "records.jsonl")
    assert len(notices) == 3
    assert notices[0] == f"{shown}:3: not valid JSON (Unterminated string starting at column 34); skipped"
    assert notices[1] == f"{shown}:4: record 4 has no abstract; skipped"
    assert notices[2] == f"{shown}:7: record 6 has no abstract; skipped"


def test_records_from_several_venues_name_the_listing_after_the_file() -> None:
    listing, _ = _read("mixed_venues.jsonl")
    assert (listing.name, listing.venue, listing.year) == ("mixed_venues", None, None)
    assert [entry.venue for entry in listing.entries] == ["ICML", "ICLR"]
    assert [entry.year for entry in listing.entries] == [2024, 2025]


def test_an_invalid_json_array_is_one_warning_with_the_position() -> None:
    listing, notices = read_listing(LISTINGS / "invalid.json")
    assert listing is None
    assert [str(notice) for notice in notices] == [
        f"{LISTINGS / 'invalid.json'}: not a valid JSON array (Expecting ',' delimiter at line 4 column 3); "
        "file skipped"
    ]


def test_json_that_is_not_an_array_is_skipped_with_a_hint() -> None:
    listing, notices = read_listing(LISTINGS / "not_array.json")
    assert listing is None and "expected a JSON array" in str(notices[0])


def test_json_lines_under_a_json_name_still_load() -> None:
    listing, notices = _read("mislabelled.json")
    assert notices == []
    assert [entry.abstract for entry in listing.entries] == ABSTRACTS[:2]
    assert [entry.source.line for entry in listing.entries] == [1, 2]


def test_lone_surrogates_spelled_in_json_become_replacement_characters(tmp_path: Path) -> None:
    path = tmp_path / "surrogates.jsonl"
    record = {"abstract": "Broken \ud800 pair.", "title": "T\udfff", "authors": ["Ren\u00e9", "X\udc00"]}
    path.write_text(json.dumps(record) + "\n")
    listing, _ = read_listing(path)
    assert listing is not None
    entry = listing.entries[0]
    assert (entry.abstract, entry.title) == ("Broken \ufffd pair.", "T\ufffd")
    assert entry.authors == ("Ren\u00e9", "X\ufffd")
    paper_id(entry.abstract)


def test_jsonl_corpus_shape_is_read_with_all_fields(tmp_path: Path) -> None:
    """The real corpus export format: authors as a list, int years, status, and fields we ignore."""
    record = {"title": "T", "authors": ["A B"], "abstract": "An abstract.", "venue": "3DV", "year": 2025}
    record |= {"url": "u", "status": "", "source_repo": "x", "source_path": "y"}
    path = tmp_path / "export.jsonl"
    path.write_text(json.dumps(record) + "\n")
    listing, notices = read_listing(path)
    assert listing is not None and notices == []
    assert listing.name == "3DV 2025"
    assert listing.entries[0].status is None and listing.entries[0].authors == ("A B",)


def test_a_directory_means_its_listing_files_sorted_by_name_without_hidden_ones(tmp_path: Path) -> None:
    for name in ("b.txt", "a.jsonl", "c.json", ".hidden.txt", "notes.md", "Z.TXT"):
        (tmp_path / name).write_text("x")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "deeper.txt").write_text("x")
    files, notices = expand_paths([tmp_path])
    assert notices == []
    assert [path.name for path in files] == ["Z.TXT", "a.jsonl", "b.txt", "c.json"]


def test_missing_paths_are_notices_and_the_same_file_twice_counts_once(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x")
    missing = tmp_path / "nope"
    files, notices = expand_paths([tmp_path / "a.txt", missing, tmp_path, tmp_path / "." / "a.txt"])
    assert files == [tmp_path / "a.txt"]
    assert [str(notice) for notice in notices] == [
        f"{missing}: no such file or directory; check --listings / PAPERS_LISTINGS"
    ]


def test_an_explicit_file_is_read_whatever_its_extension(tmp_path: Path) -> None:
    path = tmp_path / "listing.md"
    path.write_text("Some abstract about things.\n")
    listings, notices = read_listings([path])
    assert notices == [] and len(listings[0].entries) == 1


def test_an_unreadable_file_is_a_notice_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "locked.txt"
    path.write_text("An abstract.\n")
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running as a user who can read anything (root)")
        listing, notices = read_listing(path)
        assert listing is None and "cannot read" in str(notices[0]) and "locked.txt" in str(notices[0])
    finally:
        path.chmod(0o644)


def test_a_binary_file_among_good_ones_costs_only_itself(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text("An abstract that loads.\n")
    listings, notices = read_listings([good, LISTINGS / "binary.txt"])
    assert [len(listing.entries) for listing in listings] == [1]
    assert len(notices) == 1 and "binary.txt" in str(notices[0])


def test_the_seeds_read_cleanly() -> None:
    listings, notices = read_listings([SEEDS])
    assert notices == []
    assert len(listings) == 3
    assert sum(len(listing.entries) for listing in listings) == 57
    assert {listing.venue for listing in listings} == {"NeurIPS"}


def test_reading_a_directory_as_a_file_is_a_notice(tmp_path: Path) -> None:
    listing, notices = read_listing(tmp_path)
    assert listing is None
    assert len(notices) == 1 and str(notices[0]).startswith(f"{tmp_path}: is a directory")


def test_a_named_pipe_is_refused_instead_of_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    listings, notices = read_listings([fifo])
    assert listings == []
    assert [str(notice) for notice in notices] == [
        f"{fifo}: not a regular file (a pipe or a device); skipped"
    ]


def test_authors_in_odd_shapes(tmp_path: Path) -> None:
    shapes: list[object] = [
        [{"name": "Ada Lovelace"}, {"affiliation": "none"}, 7, " Alan Turing "],
        "Grace Hopper and Edsger Dijkstra",
        "A & B",
        None,
    ]
    path = tmp_path / "authors.jsonl"
    path.write_text(
        "".join(json.dumps({"abstract": f"Paper {n}.", "authors": a}) + "\n" for n, a in enumerate(shapes))
    )
    listing, notices = read_listing(path)
    assert listing is not None and notices == []
    assert [entry.authors for entry in listing.entries] == [
        ("Ada Lovelace", "Alan Turing"),
        ("Grace Hopper", "Edsger Dijkstra"),
        ("A", "B"),
        (),
    ]


def test_a_directory_without_listing_files_says_so(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("x")
    files, notices = expand_paths([tmp_path])
    assert files == []
    assert [str(notice) for notice in notices] == [
        f"{tmp_path}: directory holds no listing files (*.txt, *.json, *.jsonl)"
    ]


def test_the_first_listing_files_give_the_first_papers_of_the_whole_catalog_in_its_order() -> None:
    from index.listings.catalog import load_catalog, load_first_listings, no_headline

    whole = load_catalog([SEEDS], no_headline)
    first, complete = load_first_listings([SEEDS], 10, no_headline)
    assert not complete and len(first.files) == 1, "one seed file (20 paragraphs) holds 10"
    assert 0 < len(first.papers) < len(whole.papers)
    same = whole.papers[: len(first.papers)]
    assert [paper.id for paper in first.papers] == [paper.id for paper in same]
    pairs = zip(first.papers, same, strict=True)
    assert all(set(early.sources) <= set(known.sources) for early, known in pairs), "sources only grow"
    everything, complete = load_first_listings([SEEDS], 10_000, no_headline)
    assert complete and everything == whole and everything.files == whole.files
