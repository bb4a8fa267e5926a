"""`Library`'s tags, notes and saved searches: what the reader and the command line build on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from index.config import Config
from index.library import InputError, Library, NoteError, SavedSearchError, TagNameError
from tests.conftest import SEEDS


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("index") / "index"
    library = Library([SEEDS], folder, tmp_path_factory.mktemp("unused"), config=Config())
    library.update_index()
    library.close()
    return folder


@pytest.fixture
def library(index_dir: Path, tmp_path: Path) -> Iterator[Library]:
    opened = Library.open([SEEDS], index_dir, tmp_path / "data", config=Config())
    assert opened.index_ready
    yield opened
    opened.close()


def test_tags_through_the_library(library: Library) -> None:
    first, second, third = library.papers.ids[:3]
    library.organiser.tag([first, second], ["Later"])
    library.organiser.tag([first], ["theory"])
    assert library.organiser.tags(first) == ("later", "theory")
    assert library.organiser.all_tags() == {"later": 2, "theory": 1}
    assert library.organiser.tagged_ids("later") == {first, second}
    assert library.organiser.tag_map()[first] == ("later", "theory")
    assert list(library.view("tag:later").ids) == [first, second]
    library.organiser.untag([first, second], ["later"])
    assert library.organiser.all_tags() == {"theory": 1}
    assert library.marks.undo() == [first, second]
    assert library.organiser.all_tags() == {"later": 2, "theory": 1}
    with pytest.raises(TagNameError):
        library.organiser.tag([third], ["two words"])
    assert third not in library.organiser.tag_map()


def test_notes_through_the_library(library: Library) -> None:
    paper = library.papers.ids[5]
    assert library.organiser.note(paper) == ""
    library.organiser.set_note(paper, "Ablation in table 4 is the interesting part.")
    assert library.organiser.note(paper) == "Ablation in table 4 is the interesting part."
    assert library.organiser.noted_ids() == {paper}
    assert list(library.view("note:ablation").ids) == [paper]
    assert list(library.view("note:ablation", "unread").ids) == [paper]
    library.marks.mark_read([paper])
    assert list(library.view("note:ablation is:unread").ids) == []
    library.marks.undo()
    library.marks.undo()
    assert library.organiser.note(paper) == "" and library.organiser.noted_ids() == frozenset()
    with pytest.raises(NoteError):
        library.organiser.set_note(paper, "x" * 100_000)


def test_saved_searches_and_their_unread_counts(library: Library) -> None:
    total = len(library.papers.ids)
    assert library.organiser.saved_searches() == []
    assert library.organiser.save_search("everything", "")
    assert library.organiser.save_search("later", "tag:later")
    assert library.organiser.saved_searches() == [("everything", ""), ("later", "tag:later")]
    assert library.organiser.unread_count("") == total
    assert library.organiser.unread_count("tag:later") == 0
    library.organiser.tag(library.papers.ids[:3], ["later"])
    library.marks.mark_read(library.papers.ids[:1])
    assert library.organiser.unread_count("tag:later") == 2
    assert library.organiser.unread_count("") == total - 1
    assert library.organiser.delete_search("later") and not library.organiser.delete_search("later")
    assert library.organiser.saved_searches() == [("everything", "")]
    with pytest.raises(SavedSearchError):
        library.organiser.save_search("", "x")
    assert issubclass(SavedSearchError, InputError) and issubclass(TagNameError, InputError)


def test_unread_count_is_none_while_the_index_is_being_built(tmp_path: Path) -> None:
    library = Library([SEEDS], tmp_path / "no-index-yet", tmp_path / "data", config=Config())
    try:
        assert library.organiser.unread_count("diffusion") is None
    finally:
        library.close()


def test_session_memory_is_per_library(library: Library, index_dir: Path, tmp_path: Path) -> None:
    library.session.set("query", "diffusion")
    library.session.set("theme", "nord")
    other_listing = tmp_path / "other.txt"
    other_listing.write_text("Other venue 2025\n\nA different abstract about nothing in the seeds.\n")
    other = Library([other_listing], index_dir, tmp_path / "data", config=Config())
    try:
        assert other.session.get("query") is None and other.session.get("query", "") == ""
        assert other.session.get("theme") == "nord"
        other.session.set("query", "robots")
    finally:
        other.close()
    assert library.session.get("query") == "diffusion"
