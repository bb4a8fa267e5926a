"""A separate process that writes to a StateStore and logs each change on stdout only once it is committed.

`python -m tests.state_driver toggles DIR SEED COUNT SHARED_READY...`: COUNT random star/read operations on
ids of its own plus a few shared with the other driver, each logged as a JSON line with the store's commit
sequence number, so the test can replay both logs in the global commit order.

`python -m tests.state_driver groups DIR RUN`: forever, star and mark read a fresh id in one change group
and log it; the test kills it with SIGKILL at a random moment.

`python -m tests.state_driver tags DIR SEED COUNT SHARED_READY...`: as `toggles`, with tag, untag and note
changes (several tags and papers per change group now and then) instead of stars and read marks.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

from index.state.store import Applied, Change, StateStore

SHARED_IDS = [f"ffff{index:08x}" for index in range(4)]


def own_ids(seed: int) -> list[str]:
    return [f"{seed:04x}{index:08x}" for index in range(16)]


def _emit(record: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


def _wait_for(paths: list[Path]) -> None:
    """Start both drivers' writes together, so their transactions really interleave."""
    deadline = time.monotonic() + 60
    while not all(path.exists() for path in paths):
        if time.monotonic() > deadline:
            raise SystemExit("the other driver never became ready")
        time.sleep(0.001)


def toggles(data_dir: Path, seed: int, count: int, ready: Path, others: list[Path]) -> None:
    rng = random.Random(seed)
    mine = own_ids(seed)
    store = StateStore.open(data_dir)
    ready.touch()
    _wait_for(others)
    setters = {
        "star": store.star,
        "unstar": store.unstar,
        "read": store.mark_read,
        "unread": store.mark_unread,
    }
    for _ in range(count):
        paper_id = rng.choice(SHARED_IDS if rng.random() < 0.3 else mine)
        op = rng.choice(["toggle_star", "toggle_read", "star", "unstar", "read", "unread"])
        if op.startswith("toggle_"):
            toggled = store.toggle(paper_id, "starred" if op == "toggle_star" else "read")
            _emit({"seq": toggled.seq, "op": op, "id": paper_id, "result": toggled.value})
        else:
            applied: Applied = setters[op]([paper_id])
            _emit({"seq": applied.seq, "op": op, "id": paper_id})
        # A moment's pause now and then, as between a person's key presses, so neither process can hold
        # the write lock for its whole run and starve the other into running strictly after it.
        if rng.random() < 0.2:
            time.sleep(rng.random() * 0.002)
    store.close()


TAG_NAMES = ["later", "ml", "theory"]


def tags(data_dir: Path, seed: int, count: int, ready: Path, others: list[Path]) -> None:
    rng = random.Random(seed)
    mine = own_ids(seed)
    store = StateStore.open(data_dir)
    ready.touch()
    _wait_for(others)
    for number in range(count):
        ids = [rng.choice(SHARED_IDS if rng.random() < 0.4 else mine) for _ in range(rng.choice([1, 1, 2]))]
        names = rng.sample(TAG_NAMES, rng.choice([1, 1, 2]))
        op = rng.choice(["tag", "untag", "note"])
        if op == "note":
            text = rng.choice(["", f"note {seed}-{number}"])
            applied = store.set_note(ids[0], text)
            _emit({"seq": applied.seq, "op": op, "ids": ids[:1], "text": text})
        else:
            applied = (store.tag if op == "tag" else store.untag)(ids, names)
            _emit({"seq": applied.seq, "op": op, "ids": ids, "names": names})
        if rng.random() < 0.2:
            time.sleep(rng.random() * 0.002)
    store.close()


def groups(data_dir: Path, run: int) -> None:
    store = StateStore.open(data_dir)
    index = 0
    while True:
        paper_id = f"{run:04x}{index:08x}"
        applied = store.apply(
            [Change(paper_id, "starred", True), Change(paper_id, "read", True)], "star+read"
        )
        _emit({"seq": applied.seq, "id": paper_id})
        index += 1


def main(argv: list[str]) -> None:
    mode, data_dir = argv[0], Path(argv[1])
    if mode == "toggles":
        seed, count, ready = int(argv[2]), int(argv[3]), Path(argv[4])
        toggles(data_dir, seed, count, ready, [Path(arg) for arg in argv[5:]])
    elif mode == "tags":
        seed, count, ready = int(argv[2]), int(argv[3]), Path(argv[4])
        tags(data_dir, seed, count, ready, [Path(arg) for arg in argv[5:]])
    elif mode == "groups":
        groups(data_dir, int(argv[2]))
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    main(sys.argv[1:])
