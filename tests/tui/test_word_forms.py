"""What a word is, in the reader (issue 39): a compound typed across its hyphen finds its papers first, and an
index of an older version is rebuilt once, the status line saying so."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from index.library import Library
from index.listings.identity import paper_id
from index.search import maintenance
from index.search.schema import SCHEMA_VERSION
from tests.conftest import SEEDS
from tests.tui.conftest import settle
from tests.tui.helpers import browse, reader, status_text
from tui.browse.index_build import IndexBuilder

Q_LEARNING = (
    "Deep Q-learning with experience replay reaches human level on many Atari games from raw pixels.",
    "We show that double Q-learning removes the overestimation bias of the max operator in targets.",
    "Qlearning with linear function approximation diverges; a two-timescale fix restores convergence.",
)
DISTRACTORS = (
    "Learning to learn: a meta-learning method that leans on least squares for fast adaptation.",
    "Leave-one-out estimates of learning curves for kernel machines, with lean computation and leaks.",
    "Learned optimisers learn learning rates per layer and lead to better learning of deep networks.",
)


def _listings(root: Path) -> Path:
    listings = root / "listings"
    listings.mkdir()
    for path in sorted(SEEDS.glob("*.txt")):
        shutil.copy(path, listings / path.name)
    papers = "\n\n".join([*DISTRACTORS, *Q_LEARNING])
    (listings / "zz_rl.txt").write_text(f"Control 2024 Papers\n\n{papers}\n", encoding="utf-8")
    return listings


async def test_typing_q_lea_lists_the_q_learning_papers_first(tmp_path: Path) -> None:
    listings = _listings(tmp_path)
    library = Library.open([listings], index_dir=tmp_path / "index", data_dir=tmp_path / "data")
    try:
        library.build_index()
        app = reader(library)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            await pilot.press("slash", *"Q-lea")
            await settle(pilot)
            ids = list(browse(app).paper_list.ids)
            assert set(ids[:3]) == {paper_id(text) for text in Q_LEARNING}, ids[:5]
    finally:
        library.close()


async def test_an_index_of_an_older_version_is_rebuilt_once_and_the_status_line_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    listings = _listings(tmp_path)
    index_dir = tmp_path / "index"
    with monkeypatch.context() as older:  # what the previous version of papers wrote
        older.setattr(maintenance, "SCHEMA_VERSION", SCHEMA_VERSION - 1)
        built = Library.open([listings], index_dir=index_dir, data_dir=tmp_path / "data")
        built.build_index()
        built.close()
    seen: list[str] = []
    real = IndexBuilder._show_progress

    def show(self: IndexBuilder, done: int, total: int) -> None:
        real(self, done, total)
        seen.append(status_text(self._host.app))

    monkeypatch.setattr(IndexBuilder, "_show_progress", show)
    library = Library.open([listings], index_dir=index_dir, data_dir=tmp_path / "data")
    try:
        assert library.index_format_changed and not library.index_ready
        app = reader(library)
        async with app.run_test(size=(160, 40)) as pilot:
            await settle(pilot)
            assert any("rebuilding the index for this version of papers" in line for line in seen), seen
            assert library.index_ready
            assert "rebuilding" not in status_text(app)
            await pilot.press("slash", *"Qlearning", "enter")
            await settle(pilot)
            assert set(browse(app).paper_list.ids) == {paper_id(text) for text in Q_LEARNING}
    finally:
        library.close()
    again = Library.open([listings], index_dir=index_dir, data_dir=tmp_path / "data", reader=True)
    try:
        assert again.index_ready and not again.index_format_changed  # once: the new index is current
    finally:
        again.close()
