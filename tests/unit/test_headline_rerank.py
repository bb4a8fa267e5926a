"""The ranker stage: trees evaluated with numpy as LightGBM evaluates them, candidate rows that do not
depend on the batch, and candidates reordered by what the trees say. The abstracts are written for these
tests, none is in the corpus the ranker was trained on."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from index.headline.analysis import analyse
from index.headline.candidates import scored
from index.headline.check import problems
from index.headline.model import load, shipped
from index.headline.pipeline import headline, headlines
from index.headline.rerank import FEATURES, POOL, features, ordered
from index.headline.trees import Trees, from_arrays, from_lightgbm

NAMED = (
    "Retrieval over long documents is slow and memory hungry. We introduce StripeNet, a sparse attention "
    "scheme for long document retrieval that halves memory. StripeNet matches dense attention on three "
    "benchmarks."
)
PLAIN = (
    "Weather forecasts are often miscalibrated at long lead times. We study post-hoc calibration of "
    "ensemble forecasts with isotonic regression. Calibrated ensembles reduce the error of most forecasts."
)
OTHERS = [
    "Graph neural networks oversmooth on deep stacks. We propose residual gating for deep graph networks.",
    "Robots drop fragile objects. We present a tactile grasp controller that adapts its force online.",
]


def _leaf(value: float) -> dict[str, Any]:
    return {"leaf_value": value}


def _split(feature: int, threshold: float, left: dict[str, Any], right: dict[str, Any]) -> dict[str, Any]:
    return {
        "split_feature": feature,
        "threshold": threshold,
        "decision_type": "<=",
        "left_child": left,
        "right_child": right,
    }


def _one_feature_ranker(name: str, threshold: float, below: float, above: float) -> Trees:
    split = _split(FEATURES.index(name), threshold, _leaf(below), _leaf(above))
    return from_lightgbm({"tree_info": [{"tree_structure": split}]})


def test_trees_send_a_row_left_at_or_below_the_threshold_and_sum_their_leaves() -> None:
    dump = {
        "tree_info": [
            {"tree_structure": _split(0, 1.0, _leaf(-1.0), _split(1, 5.0, _leaf(2.0), _leaf(3.0)))},
            {"tree_structure": _leaf(0.5)},
        ]
    }
    trees = from_lightgbm(dump)
    assert trees.depth == 2
    rows = np.array([[1.0, 9.0], [1.5, 5.0], [2.0, 5.5], [0.0, 0.0]])
    assert trees.predict(rows).tolist() == [-0.5, 2.5, 3.5, -0.5]
    assert trees.predict(np.zeros((0, 2))).tolist() == []


def test_a_split_other_than_at_most_is_refused() -> None:
    tree = _split(0, 1.0, _leaf(0.0), _leaf(1.0))
    tree["decision_type"] = "=="
    with pytest.raises(ValueError, match="'=='"):
        from_lightgbm({"tree_info": [{"tree_structure": tree}]})


def test_trees_stored_and_read_back_predict_the_same(tmp_path: Path) -> None:
    trees = _one_feature_ranker("proposing", 0.5, -1.0, 1.0)
    again = from_arrays(trees.arrays())
    rows = np.random.default_rng(3).normal(size=(50, len(FEATURES)))
    assert np.array_equal(trees.predict(rows), again.predict(rows))
    model = replace(shipped(), ranker=trees)
    model.save(tmp_path / "model.npz")
    loaded = load(tmp_path / "model.npz")
    assert loaded.ranker is not None
    assert np.array_equal(loaded.ranker.predict(rows), trees.predict(rows))


def test_a_candidates_row_is_the_same_alone_and_in_any_batch() -> None:
    model = shipped()

    def rows(texts: list[str], number: int) -> np.ndarray[Any, Any]:
        analysis = analyse(texts)
        spans = scored(analysis, model.scores(analysis), model, 81)
        pool = spans.pools(POOL)
        every = features(spans, pool, model)
        before = int(pool.sizes[:number].sum())
        return every[before : before + int(pool.sizes[number])]

    alone = rows([NAMED], 0)
    assert alone.shape == (len(alone), len(FEATURES)) and len(alone) > 5
    assert np.array_equal(alone, rows([*OTHERS, NAMED, PLAIN], 2))
    assert np.isfinite(alone).all()


def test_the_pool_holds_the_best_spans_and_their_named_variants() -> None:
    model = shipped()
    analysis = analyse([NAMED, PLAIN])
    spans = scored(analysis, model.scores(analysis), model, 81)
    pool = spans.pools(POOL)
    named = [pool.candidate(index) for index in range(int(pool.sizes[0]))]
    assert any(candidate.name == "StripeNet" for candidate in named)
    assert len([candidate for candidate in named if not candidate.name]) <= POOL
    assert [candidate.score for candidate in named] == sorted((c.score for c in named), reverse=True)
    # The candidates stage's own best few come first, in its order, named variants among them.
    assert named[:4] == list(spans.ranked(0))[:4]
    few = spans.pools(4)
    assert few.sizes[1] == 4 and not any(few.names[int(few.sizes[0]) :])
    row = features(spans, pool, model)
    column = {name: row[:, number] for number, name in enumerate(FEATURES)}
    assert column["has_name"].tolist() == [1.0] * len(named) + [0.0] * int(pool.sizes[1])
    assert column["rank"][: len(named)].tolist() == list(range(len(named)))
    assert column["score_of_best"].max() == 1.0


def test_without_trees_the_candidates_stage_order_stands() -> None:
    model = replace(shipped(), ranker=None)
    analysis = analyse([NAMED, PLAIN])
    spans = scored(analysis, model.scores(analysis), model, 81)
    assert [list(found) for found in ordered(spans, model)] == [list(spans.ranked(0)), list(spans.ranked(1))]


def test_the_trees_decide_which_candidate_heads_the_list() -> None:
    base = shipped()
    later = replace(base, ranker=_one_feature_ranker("sentence", 0.5, -1.0, 1.0))
    earlier = replace(base, ranker=_one_feature_ranker("sentence", 0.5, 1.0, -1.0))
    analysis = analyse([PLAIN])
    sentence_of = analysis.sentence
    for model, wanted in ((later, True), (earlier, False)):
        spans = scored(analysis, model.scores(analysis), model, 81)
        [found] = ordered(spans, model)
        assert bool(sentence_of[next(found).first] > 0) is wanted
    assert headline(PLAIN, model=later) != headline(PLAIN, model=earlier)


def test_the_shipped_ranker_picks_a_line_that_reads_as_a_title_the_same_in_a_batch() -> None:
    assert shipped().ranker is not None
    texts = [NAMED, PLAIN, *OTHERS]
    lines = headlines(texts)
    assert lines == [headline(text) for text in texts]
    assert "StripeNet" in lines[0]
    for line in lines[:3]:
        assert not problems(line, 80), line
    # The robot abstract has no span of 30 characters: its longest whole phrase stands.
    assert lines[3] == "A tactile grasp controller"
