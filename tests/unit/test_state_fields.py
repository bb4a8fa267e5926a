"""The field registry (`index.state.fields`): every registered per-paper field is stored, undone, merged,
exported and imported by the generic code, driven here through the registry alone.

Each test runs once per field in `PAPER_FIELDS` and names no field: a field added to the registry runs
through all of them, and fails here when a part it needs (its migration, its attribute on `PaperState`,
its two sample values below) is missing.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import io
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from index.library.organiser import Organiser
from index.state.changes import Value
from index.state.db import DB_NAME
from index.state.fields import BY_NAME, PAPER_FIELDS, PaperField
from index.state.store import PaperState, StateStore
from index.state.transfer import ImportFormatError, parse_export, to_csv, to_json

A = "aaaaaaaaaaaa"

SAMPLES: dict[str, tuple[Value, Value]] = {
    "starred": (True, False),
    "read": (True, False),
    "note": ("Compare with table 4.", "Ablations in §5 instead."),
}
"""Two different values each field can hold, the first not its unset value; a new field adds its pair."""


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[tuple[StateStore, StateStore]]:
    """Two users' stores (two machines): one exports, the other imports."""
    mine, theirs = StateStore.open(tmp_path / "mine"), StateStore.open(tmp_path / "theirs")
    yield mine, theirs
    mine.close()
    theirs.close()


@pytest.fixture(params=PAPER_FIELDS, ids=lambda field: field.name)
def field(request: pytest.FixtureRequest) -> PaperField:
    """Each registered field in turn."""
    described: PaperField = request.param
    return described


@pytest.fixture
def store(stores: tuple[StateStore, StateStore]) -> StateStore:
    return stores[0]


def test_every_field_has_samples_and_every_state_attribute_is_a_field() -> None:
    assert set(SAMPLES) == set(BY_NAME), "give each registered field two sample values in SAMPLES"
    attributes = {attribute.name for attribute in dataclasses.fields(PaperState)} - {"id", "tags"}
    described = {field.name for field in PAPER_FIELDS} | {f"{f.name}_at" for f in PAPER_FIELDS if f.flag}
    assert attributes == described  # a PaperState attribute no field describes would never be exported


def test_a_field_has_its_table_in_a_new_store(tmp_path: Path, field: PaperField) -> None:
    StateStore.open(tmp_path).close()
    with contextlib.closing(sqlite3.connect(tmp_path / DB_NAME)) as conn:
        columns = {row[1] for row in conn.execute("SELECT * FROM pragma_table_info(?)", (field.table,))}
    assert {"id", field.column, field.at_column} <= columns


def test_a_field_is_set_read_and_undone_step_by_step(store: StateStore, field: PaperField) -> None:
    first, second = SAMPLES[field.name]
    assert store.value(A, field.name) == field.off and store.values(field.name) == {}
    store.set_value(A, field.name, first)
    store.set_value(A, field.name, second)
    assert store.value(A, field.name) == second
    assert store.undo() == [A]
    assert store.value(A, field.name) == first and store.values(field.name) == {A: first}
    mark = field.mark_of(store.state(A))
    assert mark is not None and mark[0] == first
    assert store.undo() == [A]
    assert store.value(A, field.name) == field.off and store.values(field.name) == {}


def test_a_field_travels_by_export_and_merges_newest_first(
    stores: tuple[StateStore, StateStore], field: PaperField
) -> None:
    mine, theirs = stores
    first, second = SAMPLES[field.name]
    mine.set_value(A, field.name, first)
    exported = to_json(mine.records(), {}, 0.0)
    assert parse_export(exported) == mine.records()  # exact, its time included
    theirs.merge(parse_export(exported))
    assert theirs.value(A, field.name) == first and theirs.records() == mine.records()
    # A later change stands against an older export, and travels back.
    theirs.set_value(A, field.name, second)
    theirs.merge(parse_export(exported))
    assert theirs.value(A, field.name) == second
    mine.merge(parse_export(to_json(theirs.records(), {}, 0.0)))
    assert mine.value(A, field.name) == second
    assert mine.undo() == [A] and mine.value(A, field.name) == first  # the import is one undo step
    # A removal travels like an unstar.
    mine.set_value(A, field.name, field.off)
    theirs.merge(parse_export(to_json(mine.records(), {}, 0.0)))
    assert theirs.value(A, field.name) == field.off and theirs.values(field.name) == {}


def test_a_field_is_a_csv_column(store: StateStore, field: PaperField) -> None:
    store.set_value(A, field.name, SAMPLES[field.name][0])
    (row,) = csv.DictReader(io.StringIO(to_csv(store.records(), {})))
    assert row["id"] == A and row[field.name] == str(store.value(A, field.name))


def test_a_wrong_value_in_an_import_names_the_field(field: PaperField) -> None:
    document = json.loads(to_json([PaperState(A)], {}, 0.0))
    document["papers"][0][field.name] = [1]
    with pytest.raises(ImportFormatError, match=f"^paper 1: '{field.name}' must be "):
        parse_export(json.dumps(document))


def test_the_organiser_lists_a_field_for_papers_show(store: StateStore, field: PaperField) -> None:
    organiser = Organiser(lambda: store, lambda _query: pytest.fail("no view is needed"))
    store.set_value(A, field.name, SAMPLES[field.name][0])
    listed = organiser.field_values(A)
    assert (field.name in listed) is not field.flag  # star and read have their own words in `papers show`
    assert field.flag or listed[field.name] == SAMPLES[field.name][0]
