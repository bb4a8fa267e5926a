"""The state store under real processes: concurrent writers, SIGKILL mid-write, two users on one host."""

from __future__ import annotations

import itertools
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from index.state.store import StateStore
from tests.conftest import REPO
from tests.state_driver import SHARED_IDS, TAG_NAMES, own_ids

pytestmark = pytest.mark.slow


def _driver(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.state_driver", *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_two_processes_toggling_concurrently_lose_nothing(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    ready = [tmp_path / "ready-1", tmp_path / "ready-2"]
    drivers = [
        _driver("toggles", str(data_dir), "1", "1000", str(ready[0]), str(ready[1])),
        _driver("toggles", str(data_dir), "2", "1000", str(ready[1]), str(ready[0])),
    ]
    logs: list[list[dict[str, object]]] = []
    for driver in drivers:
        out, err = driver.communicate(timeout=300)
        assert driver.returncode == 0, err
        logs.append([json.loads(line) for line in out.splitlines()])
    assert [len(log) for log in logs] == [1000, 1000]

    # Replay both logs in the store's own commit order. Every acknowledged operation must have a distinct
    # sequence number, every toggle must have seen the value the replay predicts, and the final state must
    # be exactly the replay's: a lost or reordered write breaks at least one of these.
    merged = sorted((entry for log in logs for entry in log), key=lambda entry: int(str(entry["seq"])))
    assert len({entry["seq"] for entry in merged}) == 2000
    starred: dict[str, bool] = {}
    read: dict[str, bool] = {}
    for entry in merged:
        paper_id, op = str(entry["id"]), entry["op"]
        if op == "toggle_star":
            starred[paper_id] = not starred.get(paper_id, False)
            assert entry["result"] == starred[paper_id], entry
        elif op == "toggle_read":
            read[paper_id] = not read.get(paper_id, False)
            assert entry["result"] == read[paper_id], entry
        elif op in ("star", "unstar"):
            starred[paper_id] = op == "star"
        else:
            read[paper_id] = op == "read"

    # The two processes really interleaved: each committed both before and after the other's writes.
    first = {entry["seq"] for entry in logs[0]}
    owners = [entry["seq"] in first for entry in merged]
    switches = sum(1 for a, b in itertools.pairwise(owners) if a != b)
    print(f"commit-order switches between the two processes: {switches}")
    assert switches >= 10

    store = StateStore.open(data_dir)
    try:
        assert store.starred_ids() == {paper_id for paper_id, on in starred.items() if on}
        assert store.read_ids() == {paper_id for paper_id, on in read.items() if on}
    finally:
        store.close()
    touched = {str(entry["id"]) for entry in merged}
    assert set(SHARED_IDS) <= touched and set(own_ids(1)) & touched and set(own_ids(2)) & touched


def test_two_processes_tagging_concurrently_lose_nothing(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    ready = [tmp_path / "ready-1", tmp_path / "ready-2"]
    drivers = [
        _driver("tags", str(data_dir), "3", "600", str(ready[0]), str(ready[1])),
        _driver("tags", str(data_dir), "4", "600", str(ready[1]), str(ready[0])),
    ]
    logs: list[list[dict[str, object]]] = []
    for driver in drivers:
        out, err = driver.communicate(timeout=300)
        assert driver.returncode == 0, err
        logs.append([json.loads(line) for line in out.splitlines()])
    assert [len(log) for log in logs] == [600, 600]

    # Replayed in the store's commit order, the logs must give exactly the stored tags and notes: a lost
    # write, or one applied out of order, leaves some (paper, tag) or note different.
    merged = sorted((entry for log in logs for entry in log), key=lambda entry: int(str(entry["seq"])))
    assert len({entry["seq"] for entry in merged}) == 1200
    tagged: dict[tuple[str, str], bool] = {}
    notes: dict[str, str] = {}
    for entry in merged:
        ids = [str(paper_id) for paper_id in entry["ids"]]  # type: ignore[attr-defined]
        if entry["op"] == "note":
            notes[ids[0]] = str(entry["text"])
        else:
            for paper_id in ids:
                for name in entry["names"]:  # type: ignore[attr-defined]
                    tagged[(paper_id, str(name))] = entry["op"] == "tag"
    first = {entry["seq"] for entry in logs[0]}
    switches = sum(1 for a, b in itertools.pairwise(entry["seq"] in first for entry in merged) if a != b)
    print(f"commit-order switches between the two tagging processes: {switches}")
    assert switches >= 10

    expected_map: dict[str, list[str]] = {}
    for (paper_id, name), on in sorted(tagged.items()):
        if on:
            expected_map.setdefault(paper_id, []).append(name)
    with StateStore.open(data_dir) as store:
        assert dict(store.tag_map()) == {paper_id: tuple(names) for paper_id, names in expected_map.items()}
        assert dict(store.notes()) == {paper_id: text for paper_id, text in notes.items() if text}
        counts = {name: sum(1 for (_, n), on in tagged.items() if on and n == name) for name in TAG_NAMES}
        assert store.all_tags() == {name: count for name, count in counts.items() if count}
    assert any(paper_id in SHARED_IDS for paper_id, _name in tagged)


def _integrity(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()


def test_sigkill_mid_write_never_loses_an_acknowledged_change(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    rng = random.Random(20)
    acknowledged: set[str] = set()
    for run in range(20):
        driver = _driver("groups", str(data_dir), str(run))
        # Kill at a random moment: sometimes while Python starts or the store opens, mostly mid-writes.
        time.sleep(rng.uniform(0.05, 0.8))
        driver.send_signal(signal.SIGKILL)
        out, _err = driver.communicate(timeout=60)
        assert driver.returncode == -signal.SIGKILL
        # A line cut off by the kill (no newline) was not acknowledged; complete lines were.
        complete = out.split("\n")[:-1]
        acknowledged |= {str(json.loads(line)["id"]) for line in complete}
        assert _integrity(data_dir / "state.db") == "ok", f"after run {run}"

    print(f"acknowledged changes over 20 killed runs: {len(acknowledged)}")
    assert len(acknowledged) > 20, "the writer never got going; the test would prove nothing"
    store = StateStore.open(data_dir)
    try:
        assert store.notices == ()
        starred, read = store.starred_ids(), store.read_ids()
    finally:
        store.close()
    assert acknowledged <= starred
    # Each group starred and marked read one id in one transaction: never half of it.
    assert starred == read
    # At most the one in-flight change per killed run may be committed without being acknowledged.
    assert len(starred - acknowledged) <= 20


def _private_store_script() -> str:
    return (
        "import sys\n"
        "from index.paths import default_data_dir\n"
        "from index.state.store import StateStore\n"
        "store = StateStore.open(default_data_dir())\n"
        "if sys.argv[1] == 'star':\n"
        "    store.star(['aaaaaaaaaaaa'])\n"
        "print(default_data_dir(), sorted(store.starred_ids()))\n"
    )


def test_two_users_do_not_see_each_others_stars(tmp_path: Path) -> None:
    homes = {name: tmp_path / name for name in ("alice", "bob")}
    results = {}
    for name, home in homes.items():
        env = {k: v for k, v in os.environ.items() if not k.startswith("PAPERS_")}
        env["XDG_DATA_HOME"] = str(home)
        action = "star" if name == "alice" else "list"
        result = subprocess.run(
            [sys.executable, "-c", _private_store_script(), action],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 0, result.stderr
        results[name] = result.stdout.strip()
    assert results["alice"] == f"{homes['alice'] / 'papers'} ['aaaaaaaaaaaa']"
    assert results["bob"] == f"{homes['bob'] / 'papers'} []"
    data_dir = homes["alice"] / "papers"
    assert data_dir.stat().st_mode & 0o777 == 0o700
    for path in data_dir.iterdir():
        if path.name.startswith("state.db"):
            assert path.stat().st_mode & 0o777 == 0o600, path
