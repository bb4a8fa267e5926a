"""The headline pipeline stage by stage, on abstracts written for these tests (none was used to tune it)."""

from __future__ import annotations

import numpy as np

from index.headline.analysis import CAPITALISED, CAPITALS, DIGITS, LOWER, analyse
from index.headline.candidates import scored
from index.headline.check import problems
from index.headline.features import Vocabulary, blocks, word_rows
from index.headline.model import load, shipped
from index.headline.phrases import (
    EDGE,
    FEWEST_WORDS,
    LENGTHS,
    MOST_WORDS,
    phrase_blocks,
    phrase_ids,
    phrase_offsets,
    span_rows,
)
from index.headline.width import UNTITLED, as_headline, fitted_title
from index.headline.words import CANNOT_END, CANNOT_START

NAMED = (
    "Sparse attention is costly on long inputs. We propose StripeNet, a sparse attention scheme for long "
    "document retrieval. StripeNet halves memory on every benchmark we tried."
)
PLAIN = (
    "Weather forecasts drift over long horizons. We study calibration of ensemble weather forecasts under "
    "distribution shift, and show that simple recalibration recovers most of the lost skill."
)


def chunks(text: str) -> list[str]:
    analysis = analyse([text])
    return [analysis.text[a:b] for a, b in zip(analysis.chunk_start, analysis.chunk_end, strict=True)]


# Stage 1: analysis


def test_words_are_what_rouge_counts_and_know_their_chunks() -> None:
    analysis = analyse(["We fit Voxel-CRF, fast (really)."])
    assert analysis.words == ["we", "fit", "voxel", "crf", "fast", "really"]
    assert chunks("We fit Voxel-CRF, fast (really).") == [
        "We", "fit", "Voxel-CRF,", "Voxel-CRF,", "fast", "(really).",
    ]  # fmt: skip
    assert analysis.opens.tolist() == [True, True, True, False, True, True]
    assert analysis.closes.tolist() == [True, True, False, True, True, True]


def test_a_batch_keeps_each_abstract_to_itself() -> None:
    analysis = analyse(["One sentence here. Another one", "", "Third abstract. It ends"])
    assert analysis.first_word.tolist() == [0, 5, 5, 9]
    assert analysis.document.tolist() == [0] * 5 + [2] * 4
    # no sentence spans two abstracts, and each abstract's sentences are counted from its own first
    assert set(analysis.sentence[:5].tolist()).isdisjoint(analysis.sentence[5:].tolist())
    assert (analysis.sentence[analysis.first_word[:1]] == analysis.first_sentence[:1]).all()
    assert analysis.texts[1] == ""


def test_sentences_split_at_a_full_stop_before_a_capital_only() -> None:
    analysis = analyse(["We use e.g. trees. Then Forests win, i.e. often. 3 more."])
    by_sentence = [
        [word for word, s in zip(analysis.words, analysis.sentence.tolist(), strict=True) if s == number]
        for number in sorted(set(analysis.sentence.tolist()))
    ]
    assert by_sentence == [
        ["we", "use", "e", "g", "trees"],
        ["then", "forests", "win", "i", "e", "often"],
        ["3", "more"],
    ]


def test_casing_tells_capitals_from_a_sentence_start() -> None:
    analysis = analyse(["Models fail. We fit Gaussian GPs on 3D data in 2024."])
    cased = dict(zip(analysis.words, analysis.cased.tolist(), strict=True))
    assert cased["models"] == LOWER  # first of its sentence
    assert cased["gaussian"] == CAPITALISED
    assert cased["gps"] == CAPITALS and cased["3d"] == CAPITALS
    assert cased["2024"] == DIGITS and cased["fit"] == LOWER


def test_the_name_an_abstract_gives_its_method_is_found() -> None:
    assert analyse([NAMED]).names == ["StripeNet"]
    dubbed = "A tokenizer, dubbed ByteFuse, merges bytes. ByteFuse is fast."
    assert analyse([dubbed]).names == ["ByteFuse"]


def test_a_field_tool_or_a_name_said_once_is_no_name() -> None:
    assert analyse(["We propose a CNN for images. The CNN is small."]).names == [""]
    assert analyse(["We propose QuickSort2 for lists."]).names == [""]
    assert analyse([PLAIN]).names == [""]


def test_a_name_the_background_already_uses_is_the_fields_not_the_papers() -> None:
    field = "Sign language recognition (SLR) is hard. We propose a tiny model for SLR. SLR gains."
    assert analyse([field]).names == [""]
    both = "Domain adaptation (DA) is hard. We propose GapNet for DA. GapNet and DA agree."
    assert analyse([both]).names == ["GapNet"]


def test_what_comes_after_we_propose_is_told_from_its_setting() -> None:
    analysis = analyse(["For long inputs, we propose sparse stripes. Stripes are fast."])
    flags = analysis.after_proposal.tolist()
    assert analysis.words == [
        "for",
        "long",
        "inputs",
        "we",
        "propose",
        "sparse",
        "stripes",
        "stripes",
        "are",
        "fast",
    ]
    assert flags == [False] * 5 + [True, True] + [False] * 3  # the next sentence is not the proposal


# Stage 2: features and the model


def test_each_distinct_word_of_each_abstract_gets_one_row() -> None:
    vocabulary = shipped().vocabulary
    analysis = analyse([PLAIN, PLAIN])
    found = word_rows(analysis, vocabulary)
    distinct = len(set(analyse([PLAIN]).words))
    assert found.rows.shape == (2 * distinct, len(blocks(vocabulary)))
    assert found.types[:distinct] == found.types[distinct:]
    assert (found.rows[:distinct] == found.rows[distinct:]).all()  # the same abstract, the same rows
    # every feature indexes the weight table, inside its own block
    edges = np.cumsum([0, *blocks(vocabulary).values()])
    assert ((found.rows >= edges[:-1]) & (found.rows < edges[1:])).all()


def test_a_word_the_vocabulary_lacks_still_gets_a_row() -> None:
    vocabulary = Vocabulary(ids={"we": 1}, idf=np.array([9.0, 0.1]))
    found = word_rows(analyse(["We zorblify."]), vocabulary)
    assert found.types == ["we", "zorblify"]
    assert found.ids.tolist() == [1, 0]


def test_title_words_score_above_filler(tmp_path: object) -> None:
    model = shipped()
    analysis = analyse([PLAIN])
    chance = dict(zip(analysis.words, model.scores(analysis).probabilities.tolist(), strict=True))
    assert all(0.0 < p < 1.0 for p in chance.values())
    assert chance["calibration"] > chance["the"] and chance["forecasts"] > chance["most"]


def test_saved_weights_load_back_the_same(tmp_path: object) -> None:
    from pathlib import Path

    model = shipped()
    path = Path(str(tmp_path)) / "model.npz"
    model.save(path)
    again = load(path)
    assert again.vocabulary.ids == model.vocabulary.ids
    assert np.allclose(again.weights, model.weights, atol=1e-6)
    analysis = analyse([NAMED])
    assert np.allclose(again.scores(analysis).probabilities, model.scores(analysis).probabilities, atol=1e-5)
    starts = np.array([0, 3])
    ids = model.scores(analysis).ids
    assert np.allclose(
        again.phrase_logits(analysis, ids, starts, np.array([0, 1]), np.array([0, 5])),
        model.phrase_logits(analysis, ids, starts, np.array([0, 1]), np.array([0, 5])),
        atol=1e-5,
    )


def test_a_phrase_row_sees_the_spans_edges_and_the_pauses_inside() -> None:
    model = shipped()
    analysis = analyse(["Trees grow, and fall. Forests of tall trees stay."])
    ids = model.scores(analysis).ids
    starts = np.array([0, analysis.words.index("forests")])
    found = span_rows(analysis, ids, starts)
    offsets = phrase_offsets()
    three = LENGTHS.tolist().index(3)
    both, threes = np.array([0, 1]), np.array([three, three])
    last = found.last(both, threes)
    assert last.tolist() == [2, starts[1] + 2]
    before = found.by_start[1]  # "first", then "before"
    assert (before == offsets["before"] + EDGE).all()  # both start their sentence
    # "Trees grow, and" holds one pause; "Forests of tall" none, and ends before "trees", not an edge
    assert (found.pauses_inside(both, threes) - offsets["pauses_inside"]).tolist() == [1, 0]
    after = found.by_last_word[1]  # "last", then "after"
    assert after[last[1]] == offsets["after"] + phrase_ids(ids)[last[1] + 1]
    assert found.rows(both, threes).shape == (2, len(phrase_blocks()) - 1)


def test_a_whole_phrase_reads_as_one_more_than_a_clause_cut_in_two() -> None:
    model = shipped()
    text = "We propose StripeNet, a sparse attention scheme for long document retrieval that halves memory."
    analysis = analyse([text])
    ids = model.scores(analysis).ids
    words = analysis.words
    whole = words.index("sparse")  # "sparse attention scheme for long document retrieval": 7 words
    cut = words.index("scheme")  # "scheme for long document retrieval that halves": 7 words
    seven = LENGTHS.tolist().index(7)
    logits = model.phrase_logits(
        analysis, ids, np.array([whole, cut]), np.array([0, 1]), np.array([seven] * 2)
    )
    assert logits[0] > logits[1] + 1.0


# Stage 3: candidates


def test_candidates_stay_in_one_sentence_on_whole_chunks_off_function_words() -> None:
    model = shipped()
    analysis = analyse([NAMED, PLAIN])
    spans = scored(analysis, model.scores(analysis), model, 81)
    for number in range(2):
        found = list(spans.ranked(number))
        assert found
        if not analysis.names[number]:  # best first (a named abstract interleaves its named variants)
            assert [c.score for c in found] == sorted((c.score for c in found), reverse=True)
        for candidate in found:
            assert analysis.sentence[candidate.first] == analysis.sentence[candidate.last]
            assert analysis.opens[candidate.first] and analysis.closes[candidate.last]
            assert FEWEST_WORDS <= candidate.last - candidate.first + 1 <= MOST_WORDS
            assert analysis.words[candidate.first] not in CANNOT_START
            assert analysis.words[candidate.last] not in CANNOT_END
            span = analysis.text[analysis.chunk_start[candidate.first] : analysis.chunk_end[candidate.last]]
            assert len(span) <= 81


def test_no_span_ends_on_a_word_real_titles_only_put_before_their_noun() -> None:
    model = shipped()
    text = "We study navigation for complex, realistic and noisy indoor scenes with sound."
    analysis = analyse([text])
    spans = scored(analysis, model.scores(analysis), model, 81)
    last_words = {analysis.words[candidate.last] for candidate in spans.ranked(0)}
    assert model.never_ends[model.vocabulary.ids["complex"]]
    assert "complex" not in last_words and "realistic" not in last_words
    assert {"scenes", "sound"} & last_words


def test_a_span_may_start_past_the_praise_an_abstract_gives_its_method() -> None:
    model = shipped()
    analysis = analyse(["We propose a novel siamese network for abstractive text summarization."])
    spans = scored(analysis, model.scores(analysis), model, 81)
    texts = [candidate.text(analysis) for candidate in spans.ranked(0)]
    assert "siamese network for abstractive text summarization." in texts, texts


def test_spans_of_a_named_method_are_also_offered_headed_by_its_name() -> None:
    model = shipped()
    analysis = analyse([NAMED])
    spans = scored(analysis, model.scores(analysis), model, 81)
    texts = [candidate.text(analysis) for candidate in spans.ranked(0)]
    assert any(text.startswith("StripeNet: ") for text in texts), texts


# Stage 4: width


def test_a_span_becomes_a_line() -> None:
    assert as_headline("calibration of ensemble forecasts,") == "Calibration of ensemble forecasts"
    assert as_headline("(raw depth values") == "Raw depth values"
    assert as_headline("depth maps (from sparse") == "Depth maps"
    assert as_headline("[bold red]Markup[/] in terminal apps") == "Markup in terminal apps"
    assert as_headline("") == ""


def test_a_name_and_what_it_is_read_as_a_title_does() -> None:
    assert (
        as_headline("Tidal Nets, a novel, sparse and fast flow model,")
        == "Tidal Nets: sparse and fast flow model"
    )
    assert as_headline("GlueBench, a new benchmark for joints") == "GlueBench: benchmark for joints"
    assert as_headline("marching cubes, a mesher") == "Marching cubes, a mesher"  # no name: left as is


def test_a_long_title_is_cut_at_a_word_with_an_ellipsis() -> None:
    title = "A Study of " + " ".join(["very"] * 30) + " long titles"
    cut = fitted_title(title, 80)
    assert len(cut) <= 80 and cut.endswith("…") and cut.startswith("A Study of very")
    assert fitted_title("Learning to Rank for the", 20) == "Learning to Rank…"
    assert fitted_title("  Short\n title ", 80) == "Short title"
    assert fitted_title("   ", 80) == UNTITLED


# Stage 5: check


def test_the_check_names_what_keeps_a_line_from_reading_as_a_title() -> None:
    assert problems("Calibration of ensemble weather forecasts", 80) == []
    assert problems("Calibration of ensemble weather forecasts under", 80) == ["ends on 'under'"]
    assert problems("which recovers most of the lost skill in forecasts", 80) == ["starts on 'which'"]
    assert problems("Recalibration (of ensemble forecasts under shift", 80) == [
        "an unclosed bracket or quote"
    ]
    assert problems("Short line", 80) == ["shorter than 30 characters"]
    assert problems("x" * 81, 80) == ["longer than 80 characters"]
