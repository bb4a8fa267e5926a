"""The reader's `foryou` filter (key 4) in `Library.view`, and `Organiser.retag` as one undo step."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from index.library import Library
from index.state.tags import TagNameError
from index.views import FILTERS
from tests.conftest import SEEDS


@pytest.fixture
def library(tmp_path: Path) -> Iterator[Library]:
    opened = Library.open([SEEDS], index_dir=tmp_path / "index", data_dir=tmp_path / "data")
    yield opened
    opened.close()


def test_foryou_filter_waits_for_the_index_then_lists_for_you_in_its_order(library: Library) -> None:
    assert "foryou" in FILTERS
    library.marks.star([paper.id for paper in library.papers[:3]])
    waiting = library.view("", "foryou")
    assert waiting.waiting and waiting.filter == "foryou"

    library.build_index()
    ranked = [hit.id for hit in library.discovery.for_you(200)]
    assert ranked
    assert list(library.view("", "foryou").ids) == ranked
    assert library.view("", "foryou").ids == library.view("is:foryou").ids
    position = {paper_id: number for number, paper_id in enumerate(library.papers.ids)}
    assert list(library.view("", "foryou", "listing").ids) == sorted(ranked, key=position.__getitem__)
    worded = library.view("model", "foryou").ids
    assert set(worded) <= set(ranked) and set(worded) <= set(library.view("model").ids)


def test_foryou_filter_without_stars_says_what_to_do(library: Library) -> None:
    library.build_index()
    view = library.view("", "foryou")
    assert view.ids == ()
    assert view.notice is not None and "for you lists papers like your starred ones" in view.notice


def test_retag_adds_and_removes_as_one_undo_step(library: Library) -> None:
    paper = library.papers[0].id
    organiser = library.organiser
    organiser.tag([paper], ["old", "keep"])
    organiser.retag(paper, ["New", "both"], ["old", "both"])
    assert organiser.tags(paper) == ("both", "keep", "new")  # a name in both is added
    undone = library.marks.undo()
    assert undone is not None and set(undone) == {paper}
    assert organiser.tags(paper) == ("keep", "old")


def test_retag_checks_every_name_before_changing_anything(library: Library) -> None:
    paper = library.papers[0].id
    with pytest.raises(TagNameError):
        library.organiser.retag(paper, ["fine"], ["bad,name"])
    assert library.organiser.tags(paper) == ()
