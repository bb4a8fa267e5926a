"""One SearchIndex shared by several threads, as the reader shares it: its warm-up worker starts while the
restored query's search runs, discovery ranks in another worker, the detail pane asks for spans.

Whoosh's readers seek and read shared file handles; without the index's lock two threads got each other's
bytes (`struct.error: unpack requires a buffer of 4 bytes`, `TermNotFound`, a UnicodeDecodeError from the
middle of the term table), so the first search after launch failed now and then.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from index.search.answers import Highlight
from index.search.index import SearchIndex
from index.search.sets import sole_set

ROUNDS = 25
"""Fresh indexes to race on: unlocked, about two in five rounds failed, so 25 rounds all passing by luck is
less likely than one in a hundred thousand."""


def _race(calls: list[Callable[[], object]]) -> tuple[list[object], list[BaseException]]:
    """Run the calls in threads released together; their answers in order, and whatever they raised."""
    start = threading.Barrier(len(calls))
    answers: list[object] = [None] * len(calls)
    raised: list[BaseException] = []

    def run(number: int) -> None:
        start.wait()
        try:
            answers[number] = calls[number]()
        except BaseException as error:  # the test reports every failure, whatever its type
            raised.append(error)

    threads = [threading.Thread(target=run, args=(number,)) for number in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck: the lock deadlocks"
    return answers, raised


def test_warm_up_searches_similar_and_spans_at_once_give_the_answers_they_give_alone(
    seed_index: Path,
) -> None:
    seed_index = sole_set(seed_index)  # the set the seeds are indexed in, under the index root
    alone = SearchIndex.open(seed_index)
    try:
        graph = alone.match("grap", typing=True)
        diffusion = alone.match("diffusion models")
        reference = graph.ids[0]
        similar = [hit.id for hit in alone.similar(reference)]
        spans = alone.spans(reference, graph.highlight)
    finally:
        alone.maintenance.close()
    assert graph.ids and diffusion.ids and similar and spans, "the seeds answer each of these"

    for _ in range(ROUNDS):
        shared = SearchIndex.open(seed_index)  # cold, as at launch: the warm-up fills what searches read
        try:
            answers, raised = _race(_the_readers_calls(shared, reference, graph.highlight))
        finally:
            shared.maintenance.close()
        assert not raised, [f"{type(error).__name__}: {error}" for error in raised]
        assert answers[1:] == [graph.ids, diffusion.ids, similar, spans]


def _the_readers_calls(
    index: SearchIndex, reference: str, highlight: Highlight
) -> list[Callable[[], object]]:
    """The warm-up, the restored query and the next keystroke's, more like this, the detail pane's spans."""
    return [
        index.warm,
        lambda: index.match("grap", typing=True).ids,
        lambda: index.match("diffusion models").ids,
        lambda: [hit.id for hit in index.similar(reference)],
        lambda: index.spans(reference, highlight),
    ]
