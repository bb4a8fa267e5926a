"""`papers index`, `papers search` and `papers similar` on the bundled seeds, run as a user would."""

from __future__ import annotations

import itertools
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from index.search.index import SUGGEST_BELOW
from tests.conftest import REPO, SEEDS, run_papers, set_index_dir


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One index of the seeds for the tests below (built by the first search, as in real use)."""
    return tmp_path_factory.mktemp("seed-index") / "index"


def search(index_dir: Path, *args: str) -> list[dict[str, object]]:
    result = run_papers("--listings", str(SEEDS), "--index-dir", str(index_dir), "search", *args, "--json")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    rows: list[dict[str, object]] = json.loads(result.stdout)
    return rows


def test_first_search_builds_the_index_and_ranks_w2s_first(index_dir: Path) -> None:
    rows = search(index_dir, "weak-to-strong")
    assert rows, "no results"
    assert "weak-to-strong" in str(rows[0]["snippet"]).lower() or "W2S" in str(rows[0]["headline"])
    assert {
        "id",
        "headline",
        "title",
        "venue",
        "year",
        "score",
        "snippet",
        "matches",
        "sources",
        "starred",
        "read",
    } <= set(rows[0])
    assert (set_index_dir(index_dir, SEEDS) / "current").is_symlink()


def test_stemming_finds_memorization(index_dir: Path) -> None:
    rows = search(index_dir, "memorize")
    assert rows
    snippet = str(rows[0]["snippet"])
    marked = [snippet[start:end].lower() for start, end in rows[0]["matches"]]  # type: ignore[misc,attr-defined]
    assert any(word.startswith("memoriz") for word in marked)


def test_fuzzy_finds_diffusion_papers(index_dir: Path) -> None:
    rows = search(index_dir, "difusion~")
    assert len(rows) >= 2
    assert all(
        "diffusion" in str(row["snippet"]).lower() or "diffusion" in str(row["headline"]).lower()
        for row in rows
    )


def test_phrase_finds_the_gifs_paper(index_dir: Path) -> None:
    rows = search(index_dir, '"influence functions"')
    assert rows
    assert "GIFs" in str(rows[0]["snippet"]) or "influence functions" in str(rows[0]["snippet"]).lower()


def test_malformed_query_exits_0_with_results_and_a_notice(index_dir: Path) -> None:
    result = run_papers(
        "--listings", str(SEEDS), "--index-dir", str(index_dir), "search", 'unbalanced "quote'
    )
    assert result.returncode == 0, result.stderr
    assert "plain words" in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout.strip(), "expected results for the plain words"


def test_similar_to_a_diffusion_paper_lists_diffusion_papers_first(index_dir: Path) -> None:
    rows = search(index_dir, "diffusion models generalization memorization")
    paper_id = str(rows[0]["id"])
    result = run_papers(
        "--listings", str(SEEDS), "--index-dir", str(index_dir), "similar", paper_id, "--json", "--limit", "3"
    )
    assert result.returncode == 0, result.stderr
    similar = json.loads(result.stdout)
    assert similar and all(row["id"] != paper_id for row in similar)
    assert "diffusion" in similar[0]["shared_terms"]


def test_similar_unknown_id_is_a_one_line_error(index_dir: Path) -> None:
    result = run_papers("--listings", str(SEEDS), "--index-dir", str(index_dir), "similar", "zzzz-not-an-id")
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "zzzz-not-an-id" in result.stderr


def test_human_output_marks_matches(index_dir: Path) -> None:
    result = run_papers(
        "--listings", str(SEEDS), "--index-dir", str(index_dir), "search", "memorize", "--limit", "2"
    )
    assert result.returncode == 0, result.stderr
    assert "  1. " in result.stdout and "*memoriz" in result.stdout.lower()


def test_a_limit_shows_fewer_papers_but_counts_every_match(index_dir: Path) -> None:
    """`--limit` cuts the list, not the count: "2 of 8 matching papers", with or without a mark filter
    (without one only the best few are ranked, and the count must still cover the rest)."""
    every = len(search(index_dir, "graph", "--limit", "1000"))
    assert every > SUGGEST_BELOW  # so that --limit SUGGEST_BELOW takes the top-N ranking
    for query, limit in itertools.product(("graph", "graph is:unread"), (2, SUGGEST_BELOW)):
        where = ("--listings", str(SEEDS), "--index-dir", str(index_dir))
        result = run_papers(*where, "search", query, "--limit", str(limit))
        assert result.returncode == 0, result.stderr
        ranks = [line for line in result.stdout.splitlines() if re.match(r" *\d+\. ", line)]
        assert len(ranks) == limit, result.stdout
        assert result.stderr.strip().splitlines()[-1] == f"{limit} of {every} matching papers", result.stderr


def test_title_finds_real_titles_only_and_headline_the_lines_made_for_untitled_papers(
    index_dir: Path, tmp_path: Path
) -> None:
    """The seeds have no titles: `title:graph` finds nothing there, `headline:graph` the papers whose made
    headline says graph; a JSON listing's real title is found by both."""
    made = search(index_dir, "headline:graph", "--limit", "100")
    assert made and all("graph" in str(row["headline"]).lower() for row in made)
    assert search(index_dir, "title:graph", "--limit", "100") == []
    listing = tmp_path / "titled.jsonl"
    record = {"title": "Bandits with Graph Features", "abstract": "We study regret of bandit algorithms."}
    listing.write_text(json.dumps(record) + "\n", encoding="utf-8")
    for query in ("title:graph", "headline:graph"):
        result = run_papers(
            "--listings", str(listing), "--index-dir", str(tmp_path / "ix"), "search", query, "--json"
        )
        assert result.returncode == 0, result.stderr
        assert [row["headline"] for row in json.loads(result.stdout)] == ["Bandits with Graph Features"]


def test_index_command_reports_counts(tmp_path: Path) -> None:
    listings = tmp_path / "listings"
    listings.mkdir()
    for seed in sorted(SEEDS.glob("*.txt"))[:2]:
        (listings / seed.name).write_bytes(seed.read_bytes())
    args = ("--listings", str(listings), "--index-dir", str(tmp_path / "ix"))
    first = run_papers(*args, "index")
    assert first.returncode == 0, first.stderr
    assert "full build" in first.stdout and "added" in first.stdout
    again = run_papers(*args, "index")
    assert "up to date" in again.stdout and "0 added" in again.stdout

    third = sorted(SEEDS.glob("*.txt"))[2]
    (listings / third.name).write_bytes(third.read_bytes())
    update = run_papers(*args, "index")
    assert update.returncode == 0, update.stderr
    assert update.stdout.startswith("update:") and " 0 removed" in update.stdout
    rebuilt = run_papers(*args, "index", "--rebuild")
    assert "full build (rebuild requested)" in rebuilt.stdout


def test_corrupt_index_is_rebuilt_with_a_notice(tmp_path: Path) -> None:
    args = ("--listings", str(SEEDS), "--index-dir", str(tmp_path / "ix"))
    assert run_papers(*args, "index").returncode == 0
    build = (set_index_dir(tmp_path / "ix", SEEDS) / "current").resolve()
    for toc in build.glob("*.toc"):
        toc.write_bytes(b"garbage")
    result = run_papers(*args, "search", "diffusion")
    assert result.returncode == 0, result.stderr
    assert "unreadable" in result.stderr and "rebuilding" in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout.strip()


def test_damaged_snapshot_is_rebuilt_with_a_notice(tmp_path: Path) -> None:
    args = ("--listings", str(SEEDS), "--index-dir", str(tmp_path / "ix"))
    assert run_papers(*args, "index").returncode == 0
    for path in (set_index_dir(tmp_path / "ix", SEEDS) / "current").resolve().glob("snapshot-*.bin"):
        path.write_bytes(path.read_bytes()[:1000])  # truncated, as by a full disk
    result = run_papers(*args, "search", "diffusion")
    assert result.returncode == 0, result.stderr
    assert "snapshot is damaged" in result.stderr and "Traceback" not in result.stderr
    assert result.stdout.strip()


def test_missing_segment_is_rebuilt_with_a_notice(tmp_path: Path) -> None:
    args = ("--listings", str(SEEDS), "--index-dir", str(tmp_path / "ix"))
    assert run_papers(*args, "index").returncode == 0
    build = (set_index_dir(tmp_path / "ix", SEEDS) / "current").resolve()
    for path in [*build.glob("*.seg"), *build.glob("*.trm")]:  # compound segments, or separate files' terms
        path.unlink()
    result = run_papers(*args, "search", "diffusion")
    assert result.returncode == 0, result.stderr
    assert "unreadable" in result.stderr and "Traceback" not in result.stderr
    assert result.stdout.strip()


def test_index_shared_makes_the_whole_index_readable_and_not_writable_by_others(tmp_path: Path) -> None:
    """An admin with a strict umask (077, common on hardened servers) still publishes a readable index."""
    index_dir = tmp_path / "shared-index"
    command = f"umask 077 && exec {shlex.quote(sys.executable)} -m index.cli " + shlex.join(
        ["--listings", str(SEEDS), "--index-dir", str(index_dir), "index", "--shared"]
    )
    result = subprocess.run(["sh", "-c", command], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "readable by every user" in result.stdout
    modes = {
        path: path.stat().st_mode & 0o777
        for path in [index_dir, *index_dir.rglob("*")]
        if not path.is_symlink()
    }
    assert modes
    for path, mode in modes.items():
        assert mode == (0o755 if path.is_dir() else 0o644), (path, oct(mode))
