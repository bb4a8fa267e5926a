"""The query language read once (typed_query.py): the parts, filters and problems every consumer reads."""

from __future__ import annotations

import pytest

from index.search.typed_query import ForYouFilter, IsFilter, NoteFilter, TagFilter, read_query


def test_filters_come_out_as_types_and_leave_the_searched_text() -> None:
    typed = read_query('graph is:starred -is:read tag:later note:"open source" -tag:x foryou:y')
    assert typed.filters == (
        IsFilter("starred"),
        IsFilter("read", without=True),
        TagFilter("later"),
        NoteFilter("open source"),
        TagFilter("x", without=True),
        ForYouFilter("y"),
    )
    assert typed.searched == "graph"
    assert typed.asks_for_you and typed.for_you_tag == "y"
    assert read_query("is:foryou").asks_for_you and read_query("is:foryou").for_you_tag is None


def test_words_and_phrases_carry_their_field_and_marks() -> None:
    typed = read_query('title:"graph neural" diffu* venue:neur -memory difusion~2')
    assert [(word.text, word.field, word.marked, word.negated) for word in typed.words] == [
        ("diffu*", None, True, False),
        ("neur", "venue", False, False),
        ("memory", None, False, True),
        ("difusion~2", None, True, False),
    ]
    assert [(phrase.text, phrase.field) for phrase in typed.phrases] == [("graph neural", "title")]
    assert typed.plain_words == ("memory",), "did you mean leaves fields, marks and short words alone"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('unbalanced "quote', "has an unbalanced quote"),
        ("(diffusion models", "has an unbalanced parenthesis"),
        ("diffusion)", "has an unbalanced parenthesis"),
        ("AND", "has a lone AND"),
        ("diffusion AND", "has a lone AND"),
        ("a OR OR b", "has a lone OR"),
        ("-", "has a lone -"),
        ("title:", "has title: with nothing after it"),
        ("foo:bar", "names an unknown field foo:"),
        ("graph [2020", "has an unbalanced range bracket"),
    ],
)
def test_what_is_wrong_with_a_query_is_named(text: str, problem: str) -> None:
    assert read_query(text).problem == problem


@pytest.mark.parametrize(
    "text", ["graph neural", "title:graph", "year:[2020 TO 2024]", "NOT a", "(a OR b) c"]
)
def test_a_well_formed_query_has_no_problem(text: str) -> None:
    assert read_query(text).problem is None


@pytest.mark.parametrize("value", ["abc", "[", "2026..2027", "[a TO b]", "20x"])
def test_a_year_that_is_not_one_is_left_out_with_what_year_takes(value: str) -> None:
    typed = read_query(f"graph year:{value}")
    assert typed.searched == "graph" and typed.refused
    assert typed.notices == (
        f"year: takes a year (year:2024) or a range of years (year:[2020 TO 2024]); year:{value} left out",
    )
    assert typed.problem is None, "a bad value is not a malformed query: the rest is searched as written"


def test_a_long_query_is_cut_at_a_space_and_says_so() -> None:
    typed = read_query("graph " * 400)
    assert len(typed.text) <= 1000 and typed.text.endswith("graph")
    assert typed.notices == ("only the first 1,000 characters of the query are searched",)


def test_top_level_field_clauses_are_read_with_their_values_and_where_they_stand() -> None:
    text = 'graph Venue:(ICML OR "AutoML  Conf") -track:poster (venue:x OR y) year:[2020 TO 2024] status:'
    clauses = read_query(text).clauses
    assert [(c.field, text[c.start : c.end], c.values, c.negated) for c in clauses] == [
        ("venue", 'Venue:(ICML OR "AutoML  Conf")', ("ICML", "AutoML Conf"), False),
        ("track", "-track:poster", ("poster",), True),
        ("year", "year:[2020 TO 2024]", (), False),
        ("status", "status:", (), False),
    ], "venue:x inside parentheses belongs to the larger expression"


def test_an_unclosed_group_runs_to_the_end_and_a_marked_value_keeps_its_marks() -> None:
    text = "venue:neur* year:(2024 OR 2025"
    clauses = read_query(text).clauses
    assert [(text[c.start : c.end], c.values) for c in clauses] == [
        ("venue:neur*", ("neur*",)),
        ("year:(2024 OR 2025", ("2024", "2025")),
    ]
