"""`papers list --sort` and `papers search --sort`: newest first, oldest first, venue, run as a user would
over listings from several venues and years."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import DATA, run_papers

LISTINGS = DATA / "multivenue"


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("sort-index") / "index"


def papers(index_dir: Path, *args: str) -> Any:
    result = run_papers("--listings", str(LISTINGS), "--index-dir", str(index_dir), *args, "--json")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return json.loads(result.stdout)


def test_list_sorts_newest_oldest_and_by_venue(index_dir: Path) -> None:
    listing = papers(index_dir, "list")
    place = {row["id"]: number for number, row in enumerate(listing)}
    assert papers(index_dir, "list", "--sort", "listing") == listing
    newest = papers(index_dir, "list", "--sort", "newest")
    assert [row["year"] for row in newest] == sorted((row["year"] for row in listing), reverse=True)
    for year in (2025, 2024, 2023, 2022):  # within a year, listing order
        ids = [place[row["id"]] for row in newest if row["year"] == year]
        assert ids == sorted(ids)
    oldest = papers(index_dir, "list", "--sort", "oldest")
    assert [row["year"] for row in oldest] == sorted(row["year"] for row in listing)
    venue = papers(index_dir, "list", "--sort", "venue")
    assert [row["venue"] for row in venue] == ["AutoML Conf"] * 2 + ["ICLR"] * 3 + ["ICML"] * 4 + [
        "NeurIPS"
    ] * 5


def test_list_lines_follow_the_order_too(index_dir: Path) -> None:
    result = run_papers(
        "--listings", str(LISTINGS), "--index-dir", str(index_dir), "list", "--sort", "oldest"
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 14
    assert lines[0].endswith("(AutoML Conf 2022)") and lines[-1].endswith("(ICLR 2025)")


def test_search_sorts_its_matches_and_limits_after_sorting(index_dir: Path) -> None:
    ranked = papers(index_dir, "search", "study")
    assert len(ranked) == 14 and all(row["score"] > 0 for row in ranked)
    newest = papers(index_dir, "search", "study", "--sort", "newest")
    assert sorted(row["id"] for row in newest) == sorted(row["id"] for row in ranked)
    assert [row["year"] for row in newest] == sorted((row["year"] for row in newest), reverse=True)
    assert all(row["score"] is None for row in newest)  # nothing was ranked
    top = papers(index_dir, "search", "study", "--sort", "oldest", "--limit", "3")
    assert [row["year"] for row in top] == [2022, 2022, 2023]
    by_venue = papers(index_dir, "search", "graph", "--sort", "venue")
    venues = [row["venue"] for row in by_venue]
    assert len(venues) >= 2 and venues == sorted(venues, key=str.casefold)


def test_search_text_output_counts_every_match_when_sorted(index_dir: Path) -> None:
    args = ("--listings", str(LISTINGS), "--index-dir", str(index_dir), "search", "study")
    result = run_papers(*args, "--sort", "newest", "--limit", "2")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].endswith("[ICLR 2025]")
    assert "2 of 14 matching papers" in result.stderr


def test_an_unknown_order_is_one_usage_line() -> None:
    result = run_papers("--listings", str(LISTINGS), "list", "--sort", "year")
    assert result.returncode == 2
    assert "invalid choice: 'year'" in result.stderr and "newest" in result.stderr
    assert "Traceback" not in result.stderr
