"""A sum of regression trees evaluated with numpy: what the headline ranker is at run time.

`train.py` fits the trees with LightGBM (an optional `[train]` extra) and turns its dump into the arrays
here, which `model.py` stores in `model.npz`; the reader then needs only numpy. Each tree is laid out as a
complete binary tree of `depth` levels (node k's children are 2k+1 and 2k+2), so walking it is arithmetic
on node numbers and one lookup of the split per level, for every row and every tree at once. A leaf
shallower than `depth` becomes splits that always go left (threshold +inf) down to a last-level leaf that
holds its value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
CHUNK = 512


@dataclass(frozen=True, slots=True, eq=False)
class Trees:
    """`count` trees of `depth` levels: by tree, its 2^depth - 1 splits, then its 2^depth leaves."""

    feature: IntArray
    """By split: the feature (column) it reads; a row goes right when that is above the threshold."""
    threshold: FloatArray
    value: FloatArray
    """By leaf: the tree's output for a row that lands there."""
    count: int
    depth: int

    def predict(self, rows: FloatArray) -> FloatArray:
        """The summed output of every tree for each row of `rows` (one column per feature)."""
        if not len(rows) or not self.count:
            return np.zeros(len(rows))
        # A few hundred rows at a time keep the (rows, trees) arrays in cache: three times faster.
        return np.concatenate(
            [self._walk(rows[start : start + CHUNK]) for start in range(0, len(rows), CHUNK)]
        )

    def _walk(self, rows: FloatArray) -> FloatArray:
        splits = 2**self.depth - 1
        first_split = np.arange(self.count) * splits
        cells = np.ascontiguousarray(rows, dtype=np.float64).ravel()
        row_start = (np.arange(len(rows)) * rows.shape[1])[:, None]
        node = np.zeros((len(rows), self.count), dtype=np.int64)
        for _ in range(self.depth):
            at = first_split + node
            node = 2 * node + 1 + (cells[row_start + self.feature[at]] > self.threshold[at])
        leaves = np.arange(self.count) * (splits + 1) - splits
        summed: FloatArray = self.value[leaves + node].sum(axis=1)
        return summed

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        """What `model.save` stores, under names of its own."""
        return {
            "tree_feature": self.feature.astype(np.int16),
            "tree_threshold": self.threshold,
            "tree_value": self.value,
            "tree_count": np.array(self.count),
            "tree_depth": np.array(self.depth),
        }


def from_arrays(stored: Any) -> Trees:
    """The trees `Trees.arrays` stored (`stored` maps the names to arrays, as `np.load` does)."""
    return Trees(
        feature=stored["tree_feature"].astype(np.int64),
        threshold=stored["tree_threshold"].astype(np.float64),
        value=stored["tree_value"].astype(np.float64),
        count=int(stored["tree_count"]),
        depth=int(stored["tree_depth"]),
    )


def from_lightgbm(dump: dict[str, Any]) -> Trees:
    """The trees of a LightGBM model's `dump_model()`, trained without missing-value handling (every split
    is "feature <= threshold", which is all `predict` does)."""
    structures = [tree["tree_structure"] for tree in dump["tree_info"]]
    depth = max((_depth(structure) for structure in structures), default=0)
    splits = 2**depth - 1
    feature = np.zeros((len(structures), splits), dtype=np.int64)
    threshold = np.full((len(structures), splits), np.inf)
    value = np.zeros((len(structures), splits + 1))
    for number, structure in enumerate(structures):
        _lay_out(structure, 0, 0, depth, feature[number], threshold[number], value[number])
    return Trees(feature.ravel(), threshold.ravel(), value.ravel(), len(structures), depth)


def _depth(node: dict[str, Any]) -> int:
    if "leaf_value" in node:
        return 0
    return 1 + max(_depth(node["left_child"]), _depth(node["right_child"]))


def _lay_out(
    node: dict[str, Any],
    at: int,
    level: int,
    depth: int,
    feature: IntArray,
    threshold: FloatArray,
    value: FloatArray,
) -> None:
    """Node `node` of a LightGBM dump as node `at` (at `level`) of a complete tree of `depth` levels."""
    if level == depth:
        value[at - (2**depth - 1)] = float(node["leaf_value"])
        return
    if "leaf_value" in node:  # a shallow leaf: always left, down to the last level
        _lay_out(node, 2 * at + 1, level + 1, depth, feature, threshold, value)
        return
    if node["decision_type"] != "<=":
        raise ValueError(f"a split of kind {node['decision_type']!r}: only '<=' is evaluated")
    feature[at] = int(node["split_feature"])
    threshold[at] = float(node["threshold"])
    _lay_out(node["left_child"], 2 * at + 1, level + 1, depth, feature, threshold, value)
    _lay_out(node["right_child"], 2 * at + 2, level + 1, depth, feature, threshold, value)
