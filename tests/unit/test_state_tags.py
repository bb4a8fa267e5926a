"""Tags, notes and saved searches in the store, and the `tag:`/`note:` query filters over them."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from index.search.index import SearchIndex
from index.state.notes import NOTE_MAX, NoteError, clean_note, note_matches, pattern_words
from index.state.searches import SavedSearchError
from index.state.store import Change, NoteMark, PaperState, StateStore, TagMark
from index.state.tags import TAG_MAX, TagNameError, normalize_tag
from index.state.transfer import Described, to_csv, to_markdown
from index.views import compute_view
from tests.unit.search_fixtures import EVERY, POSITION, built_index

A, B, C = "aaaaaaaaaaaa", "bbbbbbbbbbbb", "cccccccccccc"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[StateStore]:
    opened = StateStore.open(tmp_path / "data")
    yield opened
    opened.close()


# -- tags --------------------------------------------------------------------------------------------------


def test_tags_are_case_folded_counted_and_listed(store: StateStore) -> None:
    store.tag([A, B], ["Later", "ML"])
    store.tag([C], ["later"])
    assert store.tags(A) == ("later", "ml")
    assert store.all_tags() == {"later": 3, "ml": 2}
    assert store.tagged_ids("LATER") == {A, B, C}
    assert store.tag_map() == {A: ("later", "ml"), B: ("later", "ml"), C: ("later",)}
    store.untag([A], ["ml"])
    assert store.tags(A) == ("later",)
    assert store.all_tags() == {"later": 3, "ml": 1}
    # The removal is a tombstone with its time, so it travels in exports.
    marks = {mark.name: mark for mark in store.state(A).tags}
    assert marks["ml"].tagged is False and marks["later"].tagged is True


def test_tagging_twice_or_untagging_an_untagged_paper_changes_nothing(store: StateStore) -> None:
    store.tag([A], ["later"])
    at = store.state(A).tags[0].at
    assert store.tag([A], ["later"]).changed == ()
    assert store.state(A).tags[0].at == at  # keeps when it was first tagged
    assert store.untag([B], ["later"]).changed == ()
    assert store.state(B) == PaperState(B)  # no tombstone for a tag it never had


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "cannot be empty"),
        ("two words", "contains whitespace"),
        ("tab\there", "contains whitespace"),
        ("bell\x07", "control character"),
        ("bidi\u202e", "control character"),
        ('say"', 'contains "'),
        ("f(x)", "contains ( )"),
        ("a,b", "contains ,"),
        ("-later", "starts with -"),
        ("x" * (TAG_MAX + 1), f"longer than {TAG_MAX}"),
    ],
)
def test_bad_tag_names_are_one_line_errors_and_change_nothing(
    store: StateStore, name: str, message: str
) -> None:
    with pytest.raises(TagNameError) as caught:
        store.tag([A], ["fine", name])
    assert message in str(caught.value)
    assert "\n" not in str(caught.value) and "\x07" not in str(caught.value)
    assert store.all_tags() == {}


def test_tag_names_keep_letters_of_any_script() -> None:
    assert normalize_tag("Théorie") == "théorie"
    assert normalize_tag("c++") == "c++"
    assert normalize_tag("to-read/2026") == "to-read/2026"
    assert normalize_tag("e\u0301t\u00e9") == "ét\u00e9"  # NFC: one tag however the accent was typed


def test_a_tag_in_an_unnormalized_form_is_refused_by_apply(store: StateStore) -> None:
    with pytest.raises(TagNameError):
        store.apply([Change.tag(A, "Later", True)])


def test_undo_covers_tags_as_one_step(store: StateStore) -> None:
    store.tag([A], ["ml"])
    store.tag([A, B], ["later", "ml"])  # one step: A gets later, B gets both
    store.untag([A], ["ml"])
    assert store.undo() == [A]
    assert store.tags(A) == ("later", "ml")
    assert store.undo() == [A, B]
    assert store.tags(A) == ("ml",) and store.tags(B) == ()
    assert store.undo() == [A]
    assert store.all_tags() == {}


def test_tag_sets_see_other_connections_commits(tmp_path: Path) -> None:
    with StateStore.open(tmp_path) as reader, StateStore.open(tmp_path) as writer:
        assert reader.tagged_ids("ml") == set() and reader.tag_map() == {}
        writer.tag([A], ["ml"])
        assert reader.tagged_ids("ml") == {A} and reader.tag_map() == {A: ("ml",)}
        writer.set_note(B, "a note")
        assert reader.notes() == {B: "a note"}
        with pytest.raises(TypeError):
            reader.tag_map()[C] = ("x",)  # type: ignore[index]  # a shared cached answer is read-only


# -- notes -------------------------------------------------------------------------------------------------


def test_notes_set_replace_clear_and_travel_as_removals(store: StateStore) -> None:
    assert store.note(A) == ""
    store.set_note(A, "  First thoughts\r\non §3.  \n")
    assert store.note(A) == "First thoughts\non §3."
    store.set_note(A, "Second")
    assert store.note(A) == "Second" and store.notes() == {A: "Second"}
    store.set_note(A, "   ")
    assert store.note(A) == "" and store.notes() == {}
    note = store.state(A).note
    assert note is not None and note.text == "" and note.at > 0  # the removal, with its time
    assert store.set_note(B, "").changed == ()  # clearing a note that never was: nothing recorded


def test_a_note_that_looks_like_a_number_stays_text_through_undo(store: StateStore) -> None:
    store.set_note(A, "42")
    store.set_note(A, "0042")
    assert store.undo() == [A]
    assert store.note(A) == "42"
    assert store.undo() == [A]
    assert store.note(A) == ""


def test_undo_covers_notes(store: StateStore) -> None:
    store.set_note(A, "one")
    store.set_note(A, "two")
    store.set_note(A, "")
    assert store.undo() == [A] and store.note(A) == "two"
    assert store.undo() == [A] and store.note(A) == "one"
    assert store.undo() == [A] and store.note(A) == ""
    assert store.undo() is None


def test_notes_drop_control_characters_and_refuse_huge_text() -> None:
    assert clean_note("red\x1b[31m text\tok\x00") == "red[31m text\tok"
    with pytest.raises(NoteError, match=f"at most {NOTE_MAX}"):
        clean_note("x" * (NOTE_MAX + 1))


def test_note_words_match_case_insensitively_as_words_phrases_or_prefixes() -> None:
    note = "Uses the ImageNet dataset; open-source code at github."
    assert note_matches(note, pattern_words("imagenet"))
    assert note_matches(note, pattern_words("DATASET"))
    assert not note_matches(note, pattern_words("data"))  # a word, not a substring
    assert note_matches(note, pattern_words("data*"))
    assert note_matches(note, pattern_words("open source"))  # a phrase: the words in a row
    assert not note_matches(note, pattern_words("source open"))
    assert not note_matches(note, pattern_words(""))


# -- saved searches ----------------------------------------------------------------------------------------


def test_saved_searches_add_replace_delete(store: StateStore) -> None:
    assert store.save_search("  Diffusion, unread ", "diffusion   is:unread")
    assert not store.save_search("Diffusion, unread", "diffusion is:unread")  # already so
    assert store.save_search("all", "")
    assert [(s.name, s.query) for s in store.saved_searches()] == [
        ("all", ""),
        ("Diffusion, unread", "diffusion is:unread"),
    ]
    assert store.save_search("all", "is:starred")
    assert store.delete_search("all") and not store.delete_search("all") and not store.delete_search("none")
    assert [s.name for s in store.saved_searches()] == ["Diffusion, unread"]
    deleted = [s for s in store.search_records() if s.name == "all"]
    assert deleted and deleted[0].query is None  # the deletion travels in exports
    assert store.undo() is None  # saved searches are not paper changes


@pytest.mark.parametrize(
    ("name", "message"), [(" ", "needs a name"), ("a\nb", "control"), ("n" * 61, "longer")]
)
def test_bad_saved_search_names_are_one_line_errors(store: StateStore, name: str, message: str) -> None:
    with pytest.raises(SavedSearchError, match=message) as caught:
        store.save_search(name, "x")
    assert "\n" not in str(caught.value)


# -- exports -----------------------------------------------------------------------------------------------


def test_csv_and_markdown_carry_tags_and_notes() -> None:
    record = PaperState(
        A,
        True,
        1.0,
        tags=(TagMark("later", True, 1.0), TagMark("stale", False, 2.0)),
        note=NoteMark("=SUM(A1)", 3.0),
    )
    row = next(csv.DictReader(io.StringIO(to_csv([record], {}))))
    assert row["tags"] == "later" and row["note"] == "'=SUM(A1)"
    described = {A: Described("A *bold* headline", "NeurIPS", "First sentence.", 2026)}
    markdown = to_markdown([record], described, "all", 10.0)
    assert "· tags: later" in markdown and "stale" not in markdown
    assert "  > =SUM(A1)" in markdown
    tagged = to_markdown([record, PaperState(B, True, 1.0)], {}, "all", 10.0, tag="later")
    assert tagged.startswith("# Papers tagged later (1, ") and B not in tagged


# -- tag: and note: in queries -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    yield from built_index(tmp_path_factory)


@pytest.fixture
def marked_store(store: StateStore) -> StateStore:
    store.tag(["gnn", "rl"], ["graphs"])
    store.tag(["mem"], ["Later"])
    store.set_note("gnn", "Compare with the molecule dataset from ICML.")
    store.set_note("diff-img", "Open source code; check the dataset card.")
    store.mark_read(["rl"])
    return store


def _ids(index: SearchIndex, state: StateStore, query: str, filter: str = "all") -> list[str]:
    view = compute_view(index, state, EVERY, POSITION, query, filter, "listing")
    return list(view.ids)


def test_tag_filters_in_queries(index: SearchIndex, marked_store: StateStore) -> None:
    assert _ids(index, marked_store, "tag:graphs") == ["gnn", "rl"]
    assert _ids(index, marked_store, "TAG:LATER") == ["mem"]
    assert _ids(index, marked_store, "tag:graphs is:unread") == ["gnn"]
    assert _ids(index, marked_store, "tag:graphs", "unread") == ["gnn"]
    assert _ids(index, marked_store, "reward tag:graphs") == ["rl"]  # the words still search
    assert _ids(index, marked_store, "graph -tag:graphs") == []
    assert set(_ids(index, marked_store, "-tag:graphs")) == set(EVERY) - {"gnn", "rl"}
    assert _ids(index, marked_store, "tag:nobody") == []
    assert _ids(index, marked_store, 'tag:"two words"') == []  # no tag can be named so


def test_note_filters_in_queries(index: SearchIndex, marked_store: StateStore) -> None:
    assert _ids(index, marked_store, "note:dataset") == ["diff-img", "gnn"]
    assert _ids(index, marked_store, "note:MOLECULE") == ["gnn"]
    assert _ids(index, marked_store, 'note:"open source"') == ["diff-img"]
    assert _ids(index, marked_store, "note:data*") == ["diff-img", "gnn"]
    assert _ids(index, marked_store, "diffusion note:dataset") == ["diff-img"]
    assert _ids(index, marked_store, "note:dataset -note:icml") == ["diff-img"]
    assert _ids(index, marked_store, "note:dataset tag:graphs") == ["gnn"]


def test_mark_filters_do_not_reach_whoosh_and_empty_ones_say_so(
    index: SearchIndex, marked_store: StateStore
) -> None:
    view = compute_view(index, marked_store, EVERY, POSITION, "tag: note:", "all", "relevance")
    assert view.notice is not None
    assert "tag: needs a tag name" in view.notice and "note: needs words" in view.notice
    assert "plain words" not in view.notice  # not treated as unknown fields by the query parser
    assert list(view.ids) == EVERY
    assert index.search("tag:graphs").notice is not None  # without the user's marks: said, not guessed
