"""`papers list`, `stats` and `show` driven as a user would: the real command line in a subprocess."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from index.config import Config
from index.library import Library, Papers
from index.listings.catalog import load_catalog
from index.listings.identity import paper_id
from tests.conftest import CORPUS, DATA, SEEDS, run_papers, without_progress

ID_LINE = re.compile(r"^[0-9a-f]{12}  \S.*$")


def _json(*args: str, env: dict[str, str] | None = None) -> Any:
    result = run_papers(*args, "--json", env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def seed_papers() -> list[dict[str, Any]]:
    result = run_papers("list", "--json")
    assert result.returncode == 0, result.stderr
    papers: list[dict[str, Any]] = json.loads(result.stdout)
    return papers


def test_stats_on_the_bundled_seeds() -> None:
    stats = _json("stats")
    assert (stats["listings"], stats["paragraphs"], stats["papers"], stats["duplicates"]) == (3, 57, 49, 8)
    assert stats["warnings"] == []


def test_stats_for_people_shows_the_same_numbers() -> None:
    result = run_papers("stats")
    assert result.returncode == 0 and result.stderr == ""
    numbers = dict(re.findall(r"^(\w+)\s+(\d+)$", result.stdout, re.MULTILINE))
    assert numbers == {
        "listings": "3",
        "paragraphs": "57",
        "papers": "49",
        "duplicates": "8",
        "warnings": "0",
    }
    assert "NeurIPS 2026 Papers" in result.stdout


def test_list_prints_one_line_per_paper_with_id_headline_and_venue() -> None:
    result = run_papers("list")
    assert result.returncode == 0 and without_progress(result.stderr) == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 49
    assert all(ID_LINE.match(line) and line.endswith("  (NeurIPS 2026)") for line in lines)
    assert len({line[:12] for line in lines}) == 49


def test_list_json_carries_sources_and_the_ids_are_the_abstract_hashes(
    seed_papers: list[dict[str, Any]],
) -> None:
    assert len(seed_papers) == 49
    first = seed_papers[0]
    assert {"id", "headline", "title", "venue", "year", "sources"} <= first.keys()
    assert (first["venue"], first["year"]) == ("NeurIPS", 2026)
    assert set(first["sources"][0]) == {"path", "paragraph", "line", "listing"}
    duplicated = [paper for paper in seed_papers if len(paper["sources"]) > 1]
    assert sum(len(paper["sources"]) - 1 for paper in duplicated) == 8
    # The id is recomputable from the file: read the paragraph the source points at.
    source = first["sources"][0]
    paragraphs = Path(source["path"]).read_text(encoding="utf-8").split("\n\n")
    assert paper_id(paragraphs[source["paragraph"]]) == first["id"]  # [0] is the header


def test_show_of_a_duplicated_paper_lists_both_source_files(seed_papers: list[dict[str, Any]]) -> None:
    paper = next(paper for paper in seed_papers if len(paper["sources"]) > 1)
    result = run_papers("show", paper["id"])
    assert result.returncode == 0, result.stderr
    out = result.stdout
    files = {source["path"] for source in paper["sources"]}
    assert len(files) == 2
    for source in paper["sources"]:
        assert (
            f"{source['path']}:{source['line']}  paragraph {source['paragraph']} of {source['listing']}"
            in out
        )
    assert out.splitlines()[0] == paper["headline"]
    assert "NeurIPS 2026" in out and f"id: {paper['id']}" in out
    # Order: headline, venue, sources, id, then the abstract.
    assert out.index("NeurIPS 2026") < out.index("Sources:") < out.index("id: ") < len(out) - 200


def test_show_json_has_text_raw_and_sources(seed_papers: list[dict[str, Any]]) -> None:
    paper = next(paper for paper in seed_papers if len(paper["sources"]) > 1)
    shown = _json("show", paper["id"])
    assert {"id", "headline", "title", "authors", "venue", "year", "text", "raw", "sources"} <= shown.keys()
    assert shown["sources"] == paper["sources"] and shown["headline"] == paper["headline"]
    assert paper_id(shown["raw"]) == paper["id"]


def test_show_renders_markup_and_raw_keeps_it(tmp_path: Path) -> None:
    abstract = "We introduce the *magnitude potential* -- a quantity $\\alpha$ for memorization. " * 8
    listing = tmp_path / "marked.txt"
    listing.write_text(f"Test 2026 Papers\n\n{abstract}\n")
    key = paper_id(abstract)
    rendered = run_papers("show", key, "--listings", str(listing), env={"COLUMNS": "200"})
    raw = run_papers("show", key, "--raw", "--listings", str(listing))
    body_rendered = rendered.stdout.split(f"id: {key}\n\n", 1)[1]
    body_raw = raw.stdout.split(f"id: {key}\n\n", 1)[1]
    assert body_raw.strip() == abstract.strip()
    assert "*" not in body_rendered and "$" not in body_rendered and "magnitude potential" in body_rendered
    # Wrapped for reading, never wider than 100 columns even on a wide terminal.
    assert len(body_rendered.splitlines()) > 5
    assert max(len(line) for line in body_rendered.splitlines()) <= 100


def test_show_accepts_a_unique_prefix_and_uppercase(seed_papers: list[dict[str, Any]]) -> None:
    paper = seed_papers[3]
    result = run_papers("show", paper["id"][:6].upper(), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["id"] == paper["id"]


def test_unknown_id_is_one_line_and_exit_1() -> None:
    result = run_papers("show", "deadbeef0000")
    assert result.returncode == 1
    assert result.stdout == ""
    assert without_progress(result.stderr) == "papers: unknown paper id 'deadbeef0000' (see `papers list`)\n"


def test_a_too_short_prefix_is_not_a_match(seed_papers: list[dict[str, Any]]) -> None:
    result = run_papers("show", seed_papers[0]["id"][:3])
    assert result.returncode == 1 and "unknown paper id" in result.stderr


def test_an_ambiguous_prefix_names_the_candidates(tmp_path: Path) -> None:
    seen: dict[str, str] = {}
    for number in range(100_000):
        abstract = f"Abstract number {number} about learning."
        prefix = paper_id(abstract)[:4]
        if prefix in seen:
            pair = (seen[prefix], abstract)
            break
        seen[prefix] = abstract
    listing = tmp_path / "pair.txt"
    listing.write_text("\n\n".join(pair) + "\n")
    result = run_papers("show", prefix, "--listings", str(listing))
    assert result.returncode == 1
    assert f"paper id prefix '{prefix}' matches 2 papers" in result.stderr
    assert all(paper_id(abstract) in result.stderr for abstract in pair)


def test_stats_counts_the_pdf_glyphs_rendering_puts_back_or_drops(tmp_path: Path) -> None:
    abstract = "A classi(cid:173) fication of e(cid:11)ects (cid:4242)."
    listing = tmp_path / "old.txt"
    listing.write_text(f"Old Papers\n\n{abstract}\n\nNone here.\n")
    stats = _json("stats", "--listings", str(listing))
    assert stats["pdf_glyphs"] == {"repaired": 2, "dropped": 1}
    text = run_papers("stats", "--listings", str(listing)).stdout
    assert "pdf glyphs        2 repaired, 1 dropped" in text.splitlines()
    shown = _json("show", paper_id(abstract), "--listings", str(listing))
    assert (shown["text"], shown["raw"]) == ("A classification of effects .", abstract)


def test_listings_come_from_the_environment_too(tmp_path: Path) -> None:
    listing = tmp_path / "mine.txt"
    listing.write_text("My Reading List\n\nOne abstract about things.\n\nAnother abstract.\n")
    stats = _json("stats", env={"PAPERS_LISTINGS": str(listing)})
    assert (stats["listings"], stats["papers"]) == (1, 2)
    assert stats["files"][0]["name"] == "My Reading List"


def test_bad_inputs_warn_on_stderr_one_line_each_and_the_rest_loads(tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    listings = DATA / "listings"
    args = [
        "--listings",
        str(SEEDS),
        str(listings / "binary.txt"),
        str(listings / "records.jsonl"),
        str(missing),
    ]
    result = run_papers("stats", "--json", *args)
    assert result.returncode == 0, result.stderr
    stats = json.loads(result.stdout)
    assert stats["listings"] == 4 and stats["papers"] == 49 + 3
    warnings = without_progress(result.stderr).splitlines()
    assert len(warnings) == len(stats["warnings"]) == 5
    assert all(line.startswith("papers: warning: ") for line in warnings)
    assert (
        f"papers: warning: {missing}: no such file or directory; check --listings / PAPERS_LISTINGS"
        in warnings
    )
    assert any("binary.txt" in line and "skipped" in line for line in warnings)
    assert sum("records.jsonl:" in line for line in warnings) == 3
    assert "Traceback" not in result.stderr


def test_the_same_files_named_twice_count_once() -> None:
    stats = _json("stats", "--listings", str(SEEDS), str(SEEDS / "000_4f95198041248da1.txt"), str(SEEDS))
    assert (stats["listings"], stats["paragraphs"]) == (3, 57)


def test_hostile_text_never_reaches_the_terminal_raw(tmp_path: Path) -> None:
    abstract = "Clears the screen \x1b[2J\x9b31m and more."
    record = {
        "title": "Evil \x1b]0;pwned\x07 title [bold red]markup[/]",
        "authors": ["Mallory \x1b[2J"],
        "abstract": abstract,
        "venue": "Evil\x1b[31mConf",
        "year": 2026,
    }
    listing = tmp_path / "evil\x1b[1m.jsonl"
    listing.write_text(json.dumps(record) + "\n")
    outputs = [
        run_papers("list", "--listings", str(listing)),
        run_papers("list", "--json", "--listings", str(listing)),
        run_papers("stats", "--listings", str(listing)),
        run_papers("stats", "--json", "--listings", str(listing)),
        run_papers("show", paper_id(abstract), "--listings", str(listing)),
        run_papers("show", paper_id(abstract), "--raw", "--listings", str(listing)),
        run_papers("show", paper_id(abstract), "--json", "--listings", str(listing)),
    ]
    for result in outputs:
        assert result.returncode == 0, result.stderr
        assert "\x1b" not in result.stdout + result.stderr and "\x9b" not in result.stdout + result.stderr
    assert "[bold red]markup" in outputs[0].stdout  # shown literally, never interpreted
    shown = json.loads(outputs[-1].stdout)
    assert shown["raw"] == abstract  # JSON keeps the data exact, escaped


def test_json_and_jsonl_exports_list_with_their_metadata() -> None:
    papers = _json("list", "--listings", str(DATA / "listings" / "records.json"))
    assert [paper["title"] for paper in papers] == ["Weak to strong", "Tabular diffusion", "GNNs"]
    assert papers[0]["headline"] == "Weak to strong"
    shown = _json("show", papers[2]["id"], "--listings", str(DATA / "listings" / "records.json"))
    assert shown["authors"] == ["Barbara Liskov", "Donald Knuth", "Leslie Lamport"]
    assert (shown["venue"], shown["year"]) == ("ICLR", 2025)


@pytest.mark.slow
@pytest.mark.skipif(not (CORPUS / "listings").is_dir(), reason="the shared corpus is not on this machine")
def test_stats_reads_the_whole_corpus() -> None:
    stats = _json("stats", "--listings", str(CORPUS / "listings"))
    assert (stats["listings"], stats["paragraphs"]) == (163, 56349)
    assert stats["papers"] + stats["duplicates"] == 56349 and stats["warnings"] == []


def test_every_command_that_reads_papers_fails_in_one_line_without_listing_files(tmp_path: Path) -> None:
    """A missing path or an empty folder: no answer for no papers, but one line saying why, exit 1, alike
    for every command that reads the papers."""
    empty = tmp_path / "empty"
    empty.mkdir()
    missing = tmp_path / "nope"
    env = {"PAPERS_INDEX_DIR": str(tmp_path / "index"), "PAPERS_DATA_DIR": str(tmp_path / "data")}
    commands = [
        ("list",),
        ("stats",),
        ("show", "abcd"),
        ("search", "diffusion"),
        ("foryou",),
        ("facets",),
        ("similar", "abcd"),
        ("index",),
    ]
    for where, why in ((empty, "directory holds no listing files"), (missing, "no such file or directory")):
        for args in commands:
            result = run_papers(*args, "--listings", str(where), env=env)
            assert (result.returncode, result.stdout) == (1, ""), (args, result.stderr)
            (line,) = result.stderr.splitlines()
            assert line.startswith(f"papers: no listing files to read: {where}: {why}"), (args, line)
            assert line.endswith("check --listings / PAPERS_LISTINGS"), (args, line)
    assert not (tmp_path / "index").exists()  # nothing was built for no papers


def test_a_current_index_gives_list_stats_and_show_exactly_as_parsing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index was built from the same files spelled otherwise (absolute paths; the same set of listings,
    so the same index directory): the snapshot's warnings are re-spelled as named today. An empty index
    directory is built by the command itself first, and says the same."""
    index_dir, empty = str(tmp_path / "index"), str(tmp_path / "no-index")
    listings = DATA / "listings"
    built = run_papers(
        "index",
        "--index-dir",
        index_dir,
        "--listings",
        str(SEEDS),
        str(listings / "binary.txt"),
        str(listings / "records.jsonl"),
        str(tmp_path / "missing.txt"),
    )
    assert built.returncode == 0, built.stderr
    now = [
        "seeds",
        "tests/data/listings/binary.txt",
        "tests/data/listings/records.jsonl",
        str(tmp_path / "missing.txt"),
    ]
    monkeypatch.chdir(SEEDS.parent)  # run_papers runs in the repository too: the same relative paths
    library = Library([Path(path) for path in now], Path(index_dir), tmp_path / "data", config=Config())
    assert library.papers.from_index, "the index should be used"
    library.close()
    some_id = json.loads(run_papers("list", "--json", "--listings", *now).stdout)[0]["id"]
    for command in (
        ["list"],
        ["list", "--json"],
        ["stats"],
        ["stats", "--json"],
        ["show", some_id],
        ["show", some_id[:6], "--json"],
    ):
        indexed = run_papers(*command, "--index-dir", index_dir, "--listings", *now)
        parsed = run_papers(*command, "--index-dir", empty, "--listings", *now)
        assert indexed.returncode == parsed.returncode == 0, parsed.stderr
        said = (without_progress(indexed.stderr), without_progress(parsed.stderr))
        assert (indexed.stdout, said[0]) == (parsed.stdout, said[1]), command
        assert indexed.stderr.count("missing.txt: no such file") == 1
        assert "tests/data/listings/records.jsonl:" in indexed.stderr


def test_listings_come_from_the_index_only_while_it_is_current(tmp_path: Path) -> None:
    listing = tmp_path / "mine.txt"
    listing.write_text("Mine 2026 Papers\n\nA first abstract about graphs.\n\nA second one on diffusion.\n")

    def papers() -> Papers:
        with Library([listing], tmp_path / "index", tmp_path / "data", config=Config()) as library:
            return library.papers

    assert not papers().from_index  # no index yet
    with Library([listing], tmp_path / "index", tmp_path / "data", config=Config()) as library:
        library.update_index()
    indexed = papers()
    assert indexed.from_index
    assert indexed.catalog() == load_catalog([listing])
    listing.write_text(listing.read_text() + "\nA third, added since.\n")
    assert not papers().from_index  # stale: the listings are parsed
