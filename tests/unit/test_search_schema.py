"""The one-loop analyzer must index exactly what Whoosh's chain would, or phrases and highlights drift."""

from __future__ import annotations

import json
import pickle

import pytest

from index.search.schema import WordAnalyzer, build_schema, reference_stemming_analyzer
from tests.conftest import CORPUS

EDGE_CASES = [
    "",
    "a",
    "The the THE a an of",
    "Weak-to-strong generalization (W2S) of GPT-4's memorization; e.g. 3.5x faster, U.S. data",
    "Ünïcödé wörds, naïve café, 深度学习 and ALL-CAPS RUNNING runs ran",
    "x  y\tz\nnew line  and   spaces",
    "Deep Q-learning, t-SNE and k-NN; C++, C# and F# code; state-of-the-art of-the results",
    "ϵ-greedy ℓ₁-regularised Schrödinger ＢＥＲＴ x_i GPT-4's don't a-b-c",
]


def _corpus_sample(limit: int = 400) -> list[str]:
    path = CORPUS / "jsonl" / "neurips.jsonl"
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line)["abstract"] for _, line in zip(range(limit), handle, strict=False)]


def _tokens(analyzer: object, text: str, **kwargs: object) -> list[tuple[object, ...]]:
    return [
        (
            t.text,
            getattr(t, "pos", None),
            getattr(t, "startchar", None),
            getattr(t, "endchar", None),
            t.stopped,
        )
        for t in analyzer(text, **kwargs)  # type: ignore[operator]
    ]


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"positions": True, "chars": True},
        {"positions": True, "chars": True, "removestops": False},
        {"mode": "query"},
        {"positions": True, "start_pos": 5, "chars": True, "start_char": 7},
        {"positions": True, "mode": "query", "removestops": False},
    ],
)
def test_word_analyzer_equals_the_stock_chain(kwargs: dict[str, object]) -> None:
    fast, stock = WordAnalyzer(), reference_stemming_analyzer()
    for text in EDGE_CASES + _corpus_sample():
        assert _tokens(fast, text, **kwargs) == _tokens(stock, text, **kwargs), text[:80]


def test_an_untokenized_value_is_one_folded_term() -> None:
    # What the parser asks of a wildcard's or a prefix's text: the letters as one term, folded like words.
    analyzer = WordAnalyzer()
    assert [t.text for t in analyzer("Schrödinger", tokenize=False)] == ["schroding"]
    assert [t.text for t in analyzer("the", tokenize=False)] == []
    assert [t.text for t in analyzer("the", tokenize=False, removestops=False)] == ["the"]


def test_schema_pickles_without_the_stem_cache() -> None:
    schema = build_schema()
    analyzer = schema["abstract"].analyzer
    list(analyzer("memorization of training data"))
    restored = pickle.loads(pickle.dumps(schema))
    assert restored["abstract"].analyzer == analyzer
    assert [t.text for t in restored["abstract"].analyzer("memorization")] == ["memor"]
