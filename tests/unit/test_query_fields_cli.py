"""`papers search` with a field value the field cannot take: one notice naming what it takes, the rest
searched, and nothing widened by near spellings (run as a user would, as a subprocess)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import SEEDS, run_papers

YEAR_TAKES = "year: takes a year (year:2024) or a range of years (year:[2020 TO 2024])"


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    index = tmp_path_factory.mktemp("fields") / "index"
    done = run_papers("--listings", str(SEEDS), "--index-dir", str(index), "index")
    assert done.returncode == 0, done.stderr
    return index


def _search(index_dir: Path, query: str) -> tuple[list[str], str]:
    done = run_papers("--listings", str(SEEDS), "--index-dir", str(index_dir), "search", query, "--json")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return [str(row["id"]) for row in json.loads(done.stdout)], done.stderr


@pytest.mark.parametrize("value", ["abc", "[", "2026..2027"])
def test_a_bad_year_alone_says_what_year_takes_and_finds_nothing(index_dir: Path, value: str) -> None:
    ids, said = _search(index_dir, f"year:{value}")
    assert ids == []
    assert said.count(YEAR_TAKES) == 1, said
    assert f"year:{value} left out" in said
    assert "near spellings" not in said and "plain words" not in said


def test_a_bad_year_leaves_the_rest_of_the_query_searched(index_dir: Path) -> None:
    ids, said = _search(index_dir, "diffusion year:abc")
    expected, quiet = _search(index_dir, "diffusion")
    assert ids == expected and ids
    assert YEAR_TAKES in said and YEAR_TAKES not in quiet
