"""Switching listing sets, before and after an index per set: run by hand (minutes at 56k; niced).

    .venv/bin/python bench/bench_switch_sets.py [--corpus DIR] [--before REV] [--after REV]

Runs the real `papers` command of two commits, each from its own `git worktree` in a temporary folder (so
the tree being edited never changes under a run), over a fresh index dir and data dir per commit:

- switching: `papers --listings SET search graph` for SET = seeds -> corpus -> seeds -> corpus;
- the implicit build against `papers index`: `search` on the corpus after the seeds (the switch above) and
  `list` on the unindexed corpus, against `papers index` on it; for `list`, also the seconds until it first
  writes anything (stdout or stderr).

`--before` defaults to the commit before `index/search/sets.py` came (one index directory for whatever
listings were opened last), `--after` to HEAD. Prints wall seconds, CPU seconds (the command and its
children) and the before/after ratio of each step.
"""

from __future__ import annotations

import argparse
import os
import resource
import selectors
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO / "seeds"
CORPUS = Path("/work/shared/corpus/listings")
sys.path.insert(0, str(REPO))

from bench.bench_build import papers_argv  # noqa: E402

NICE = 10


@dataclass(frozen=True)
class Timed:
    wall: float
    cpu: float
    first_output: float
    """Seconds until the command first wrote to stdout or stderr (its wall time if it never did)."""


def _git(*args: str, check: bool = True) -> str:
    return subprocess.run(["git", "-C", str(REPO), *args], check=check, capture_output=True, text=True).stdout


def before_sets() -> str:
    """The commit before per-set index directories: the parent of the one that added sets.py."""
    added = _git("log", "--diff-filter=A", "--format=%H", "--", "index/search/sets.py").split()
    if not added:
        raise SystemExit("no commit adds index/search/sets.py here: pass --before REV")
    return f"{added[-1]}^"


def checkout(rev: str, where: Path) -> Path:
    _git("worktree", "add", "--detach", "--force", str(where), rev)
    return where


def run(tree: Path, index_dir: Path, data_dir: Path, listings: Path, *command: str) -> Timed:
    """One `papers` command of `tree`'s code (its checkout first on the path), niced; its wall, CPU and
    first-output seconds."""
    argv = papers_argv(listings, index_dir, *command, data_dir=data_dir)
    home = index_dir.parent / "home"  # no config file of the user's or the site's
    env = dict(
        os.environ,
        PYTHONPATH=str(tree),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_CONFIG_DIRS=str(home / "site"),
        XDG_CACHE_HOME=str(home / "cache"),
    )
    for name in ("PAPERS_LISTINGS", "PAPERS_CONFIG", "PAPERS_INDEX_DIR", "PAPERS_DATA_DIR"):
        env.pop(name, None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(
        argv,
        cwd=tree,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: os.nice(NICE),
    )
    first = None
    selector = selectors.DefaultSelector()
    assert process.stdout is not None and process.stderr is not None
    for stream in (process.stdout, process.stderr):
        selector.register(stream, selectors.EVENT_READ)
    open_streams = 2
    errors = b""
    while open_streams:
        for key, _events in selector.select():
            chunk = os.read(key.fd, 65536)
            if not chunk:
                selector.unregister(key.fileobj)
                open_streams -= 1
                continue
            if first is None:
                first = time.perf_counter() - start
            if key.fileobj is process.stderr:
                errors += chunk
    code = process.wait()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if code != 0:
        raise SystemExit(f"{' '.join(command)} failed ({code}): {errors.decode(errors='replace')[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timed(wall, cpu, first if first is not None else wall)


def steps(tree: Path, work: Path, corpus: Path) -> dict[str, Timed]:
    """Every timed step for one commit, each over the index dirs it names."""
    switching = work / "switch-index"
    data = work / "data"
    out: dict[str, Timed] = {}
    for label, listings in (
        ("seeds (first use)", SEEDS),
        ("-> corpus", corpus),
        ("-> seeds", SEEDS),
        ("-> corpus again", corpus),
    ):
        out[f"switch: {label}"] = run(tree, switching, data, listings, "search", "graph", "--limit", "3")
        print(f"  {label}: {out[f'switch: {label}'].wall:.1f} s", file=sys.stderr, flush=True)
    for label, command in (("papers index", ("index",)), ("papers list", ("list",))):
        fresh = work / f"fresh-{command[0]}"
        out[f"unindexed corpus: {label}"] = run(tree, fresh, data, corpus, *command)
        print(f"  {label}: {out[f'unindexed corpus: {label}'].wall:.1f} s", file=sys.stderr, flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="the large set of listings")
    parser.add_argument("--before", help="the commit to compare against (default: before sets.py)")
    parser.add_argument("--after", default="HEAD")
    parser.add_argument(
        "--only", choices=("before", "after"), help="time one commit (on a machine too busy for both)"
    )
    args = parser.parse_args()
    if not args.corpus.exists():
        raise SystemExit(f"no corpus at {args.corpus}")
    revs = {"before": args.before or before_sets(), "after": args.after}
    if args.only:
        revs = {args.only: revs[args.only]}
    work = Path(tempfile.mkdtemp(prefix="papers-bench-sets-"))
    results: dict[str, dict[str, Timed]] = {}
    try:
        for name, rev in revs.items():
            tree = checkout(rev, work / f"tree-{name}")
            print(f"{name}: {_git('rev-parse', '--short', rev).strip()} ({rev})", file=sys.stderr, flush=True)
            results[name] = steps(tree, work / name, args.corpus)
    finally:
        for name in revs:
            subprocess.run(
                ["git", "-C", str(REPO), "worktree", "remove", "--force", str(work / f"tree-{name}")]
            )
        shutil.rmtree(work, ignore_errors=True)
    if len(results) == 1:
        for name, timed in results.items():
            for step, one in timed.items():
                print(f"{name}: {step:<40} {one.wall:7.1f} s wall / {one.cpu:6.1f} s CPU")
            first = timed["unindexed corpus: papers list"].first_output
            print(f"{name}: papers list first output after {first:.1f} s")
        return
    before, after = results["before"], results["after"]
    print(f"== switching listing sets: seeds <-> {args.corpus} (wall s / CPU s; nice {NICE}) ==")
    print(f"{'step':<40} {'before':>16} {'after':>16} {'before/after':>13}")
    for step in before:
        b, a = before[step], after[step]
        print(
            f"{step:<40} {b.wall:7.1f} / {b.cpu:6.1f} {a.wall:7.1f} / {a.cpu:6.1f} {b.wall / a.wall:12.1f}x"
        )
    b, a = before["unindexed corpus: papers list"], after["unindexed corpus: papers list"]
    print(f"{'papers list: first output (s)':<40} {b.first_output:16.1f} {a.first_output:16.1f}")
    for name, timed in results.items():
        implicit, explicit = timed["switch: -> corpus"], timed["unindexed corpus: papers index"]
        print(
            f"{name}: implicit build by `search` after the seeds / `papers index`: "
            f"wall {implicit.wall / explicit.wall:.2f}x, CPU {implicit.cpu / explicit.cpu:.2f}x"
        )


if __name__ == "__main__":
    main()
