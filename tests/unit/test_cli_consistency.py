"""The command line behaves one way everywhere: several --listings before a subcommand, one-line usage
errors with exit 2, unknown tags alike, empty answers said on stderr, `show` with the user's own marks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from index.listings.catalog import load_catalog
from tests.conftest import SEEDS, run_papers

CATALOG = load_catalog([SEEDS])
FIRST, SECOND = CATALOG.papers[0], CATALOG.papers[1]
FILES = sorted(str(path) for path in SEEDS.glob("*.txt"))


@pytest.fixture
def env(tmp_path: Path, seed_index: Path) -> dict[str, str]:
    return {"PAPERS_DATA_DIR": str(tmp_path / "data"), "PAPERS_INDEX_DIR": str(seed_index)}


def _json(*args: str, env: dict[str, str]) -> object:
    result = run_papers(*args, env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _error(*args: str, env: dict[str, str], code: int) -> str:
    result = run_papers(*args, env=env)
    assert (result.returncode, result.stdout) == (code, ""), result.stderr
    assert "Traceback" not in result.stderr
    (line,) = result.stderr.splitlines()
    return line


def test_several_listings_before_the_subcommand(env: dict[str, str]) -> None:
    """`papers --listings a.txt b.txt search x` (what a shell makes of `--listings dir/*.txt`) reads both
    files, as `search x --listings a.txt b.txt` and repeated --listings do."""
    first_two = FILES[:2]
    expected = {paper.id for paper in load_catalog([Path(path) for path in first_two]).papers}
    assert len(expected) < len(CATALOG.papers)
    spellings = [
        ["--listings", *first_two, "list", "--json"],
        ["list", "--json", "--listings", *first_two],
        ["--listings", first_two[0], "--listings", first_two[1], "list", "--json"],
        ["--listings", *first_two, "--data-dir", env["PAPERS_DATA_DIR"], "list", "--json"],
    ]
    for args in spellings:
        rows = _json(*args, env={"PAPERS_DATA_DIR": env["PAPERS_DATA_DIR"]})
        assert isinstance(rows, list)
        assert {row["id"] for row in rows} == expected, args
    found = run_papers("--listings", *FILES, "search", "diffusion", "--json", env=env)
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)


@pytest.mark.parametrize(
    "args",
    [
        ("search", "diffusion", "--limit", "-1"),
        ("search", "diffusion", "--limit", "0"),
        ("similar", FIRST.id, "--limit", "-3"),
        ("foryou", "--limit", "x"),
        ("search",),
        ("nosuchcommand",),
        ("export", "--format", "pdf"),
    ],
)
def test_usage_errors_are_one_line_with_exit_2(env: dict[str, str], args: tuple[str, ...]) -> None:
    line = _error(*args, env=env, code=2)
    assert line.startswith("papers") and line.endswith("--help)"), line


def test_an_unknown_tag_fails_alike_for_export_and_foryou(env: dict[str, str]) -> None:
    assert run_papers("tag", FIRST.id, "later", env=env).returncode == 0
    for args, name in (
        (("export", "--tag", "nosuch"), "nosuch"),
        (("export", "--format", "markdown", "--tag", "NoSuch"), "NoSuch"),
        (("foryou", "--tag", "nosuch"), "nosuch"),
    ):
        line = _error(*args, env=env, code=1)
        assert line == f"papers: no papers tagged {name!r} (tags in use: later)", line
    for args in (("export", "--tag", "a,b"), ("foryou", "--tag", "a,b")):
        line = _error(*args, env=env, code=1)
        assert line.startswith("papers: tag 'a,b' ") and "," in line, line
    exported = run_papers("export", "--format", "markdown", "--tag", "LATER", env=env)
    assert exported.returncode == 0 and FIRST.id in exported.stdout


def test_nothing_to_show_is_said_in_one_line_on_stderr(env: dict[str, str]) -> None:
    for args, said in (
        (("starred",), "papers: no starred papers yet"),
        (("note", FIRST.id), f"papers: {FIRST.id} has no note"),
        (("tags",), "papers: no tags yet"),
        (("tags", FIRST.id), f"papers: {FIRST.id} has no tags"),
        (("saved", "list"), "papers: no saved searches yet"),
    ):
        result = run_papers(*args, env=env)
        assert (result.returncode, result.stdout) == (0, ""), (args, result.stderr)
        (line,) = result.stderr.splitlines()
        assert line.startswith(said), (args, line)
    assert _json("starred", "--json", env=env) == []  # a script's answer is the empty list itself


def test_saved_add_does_not_silently_replace(env: dict[str, str]) -> None:
    assert run_papers("saved", "add", "mine", "diffusion", env=env).stdout == "saved: mine = diffusion\n"
    again = run_papers("saved", "add", " mine ", "diffusion", env=env)
    assert (again.returncode, again.stdout) == (0, "already saved: mine = diffusion\n")
    line = _error("saved", "add", "mine", "graph", env=env, code=1)
    assert line == "papers: a saved search named 'mine' exists (diffusion); add --replace to change it"
    assert _json("saved", "list", "--json", env=env)[0]["query"] == "diffusion"  # type: ignore[index]
    replaced = run_papers("saved", "add", "mine", "graph", "--replace", env=env)
    assert (replaced.returncode, replaced.stdout) == (0, "replaced: mine = graph\n")
    assert _json("saved", "list", "--json", env=env)[0]["query"] == "graph"  # type: ignore[index]


def test_show_includes_the_users_star_read_mark_tags_and_note(env: dict[str, str]) -> None:
    plain = run_papers("show", FIRST.id, env=env)
    assert plain.returncode == 0, plain.stderr
    assert "yours: not starred, unread; tags: none\n" in plain.stdout and "note:" not in plain.stdout
    record = _json("show", FIRST.id, "--json", env=env)
    assert isinstance(record, dict)
    assert (record["starred"], record["read"], record["tags"], record["note"]) == (False, False, [], None)

    for args in (("star", FIRST.id), ("read", FIRST.id), ("tag", FIRST.id, "later", "ml")):
        assert run_papers(*args, env=env).returncode == 0
    assert run_papers("note", FIRST.id, "-", env=env, input="see table 2\n\x1b[31mred\n").returncode == 0
    plain = run_papers("show", FIRST.id, env=env)
    assert "yours: ★ starred, read; tags: later, ml\nnote:\n  see table 2\n  [31mred\n" in plain.stdout
    assert "\x1b" not in plain.stdout
    record = _json("show", FIRST.id[:6], "--json", env=env)
    assert isinstance(record, dict)
    assert (record["starred"], record["read"], record["tags"]) == (True, True, ["later", "ml"])
    assert record["note"].startswith("see table 2\n")
    other = _json("show", SECOND.id, "--json", env=env)
    assert isinstance(other, dict) and other["starred"] is False
