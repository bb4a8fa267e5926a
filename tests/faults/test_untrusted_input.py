"""Imports, JSON listings and config files are untrusted input: crafted ones get one line naming the file,
never a traceback, never state that breaks later commands, never text the terminal would act on.

- times outside 1970-9999 (1e12, 1.79e308, Infinity, negative) refuse the whole import;
- JSON nested 100,000 deep (an import, a JSON listing, a JSON Lines record) is one line, not RecursionError;
- bidi controls (U+202A-202E, U+2066-2069) in notes, saved-search queries, listing text reach neither the
  terminal (CLI output, the reader's screen) nor the markdown, CSV, BibTeX and JSON exports;
- config values (`theme = "[/]"`, `[@click=app.quit]x`), user or site file, are never read as markup.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from index.library import Library
from tests.conftest import REPO, SEEDS, run_papers
from tests.tui.conftest import settle
from tests.tui.helpers import browse, detail_text, reader, status_text

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
DEEP = 100_000


def has_bidi(text: str) -> bool:
    return any(char in text for char in BIDI)


class Cli:
    def __init__(self, tmp_path: Path, seed_index: Path, listings: Path = SEEDS) -> None:
        self.where = ["--listings", str(listings), "--index-dir", str(seed_index)]
        self.where += ["--data-dir", str(tmp_path / "state")]
        self.tmp_path = tmp_path

    def __call__(self, *args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
        done = run_papers(*self.where, *args, env=env)
        assert "Traceback" not in done.stderr, done.stderr
        return done.returncode, done.stdout, done.stderr

    def state(self) -> object:
        """Every mark and saved search, as `papers export` has them (without the time of the export)."""
        document = json.loads(self("export")[1])
        del document["exported_at"]
        return document

    def first_ids(self) -> list[str]:
        return [line.split()[0] for line in self("list")[1].splitlines()[:3]]


def one_line(stderr: str, *wanted: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("papers: "), stderr
    for word in wanted:
        assert word in lines[0], (word, stderr)
    return lines[0]


@pytest.fixture
def cli(tmp_path: Path, seed_index: Path) -> Cli:
    return Cli(tmp_path, seed_index)


# ---- imports: times and nesting -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("starred_at", "1e12"),  # the year 33658
        ("read_at", "1.79e308"),
        ("read_at", "Infinity"),
        ("starred_at", "NaN"),
        ("starred_at", "-1"),
        ("tag_at", "253402300800"),  # 10000-01-01: one second past the last the import takes
    ],
)
def test_an_import_with_a_time_out_of_range_is_refused_whole(cli: Cli, field: str, value: str) -> None:
    a, b, _ = cli.first_ids()
    assert cli("star", b)[0] == 0
    before = cli.state()
    flags = '"starred": true, "starred_at": 1700000000'
    bad = {
        "starred_at": f'"starred": true, "starred_at": {value}',
        "read_at": f'"read": true, "read_at": {value}',
        "tag_at": f'"tags": [{{"name": "x", "tagged": true, "at": {value}}}]',
    }[field]
    crafted = cli.tmp_path / "crafted.json"
    crafted.write_text(
        '{"format": "papers-state", "version": 2, "papers": ['
        f'{{"id": "{b}", {flags}}}, {{"id": "{a}", {bad}}}]}}'
    )
    code, out, err = cli("import", str(crafted))
    assert code == 1 and out == ""
    one_line(err, str(crafted), "1970-9999", "nothing was imported")
    assert cli.state() == before
    for format in ("csv", "markdown", "json"):  # what broke after such an import before
        assert cli("export", "--format", format)[0] == 0
    assert cli("starred")[0] == 0


def test_the_last_second_of_9999_imports_and_exports_back(cli: Cli) -> None:
    a = cli.first_ids()[0]
    crafted = cli.tmp_path / "far.json"
    crafted.write_text(
        '{"format": "papers-state", "version": 2, "papers": ['
        f'{{"id": "{a}", "starred": true, "starred_at": 253402300799}}]}}'
    )
    assert cli("import", str(crafted))[0] == 0
    code, out, _ = cli("starred")
    assert code == 0 and "9999-12-31T23:59:59Z" in out
    exported = cli.tmp_path / "again.json"
    exported.write_text(cli("export")[1])
    assert "Infinity" not in exported.read_text()
    assert cli("import", str(exported))[0] == 0


def test_an_import_nested_deep_is_one_line(cli: Cli) -> None:
    crafted = cli.tmp_path / "deep.json"
    head = '{"format": "papers-state", "version": 2, "papers": ['
    crafted.write_text(head + "[" * DEEP + "]" * DEEP + "]}")
    code, out, err = cli("import", str(crafted))
    assert code == 1 and out == ""
    one_line(err, str(crafted), "nested deeper")


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("array.json", "[" * DEEP + "]" * DEEP),
        ("object.json", '[{"abstract": "x", "extra": ' + '{"a": ' * DEEP + "1" + "}" * DEEP + "}]"),
        ("lines.jsonl", '{"abstract": ' + "[" * DEEP + "]" * DEEP + "}\n"),
    ],
    ids=["array", "object", "lines"],  # the texts would make test ids (and PYTEST_CURRENT_TEST) 200 kB long
)
def test_a_json_listing_nested_deep_is_one_warning(
    tmp_path: Path, seed_index: Path, name: str, text: str
) -> None:
    listings = tmp_path / "listings"
    shutil.copytree(SEEDS, listings)
    (listings / name).write_text(text)
    cli = Cli(tmp_path, tmp_path / "index", listings)
    code, out, err = cli("list")
    assert code == 0 and len(out.splitlines()) == len(Cli(tmp_path, seed_index)("list")[1].splitlines())
    warned = [line for line in err.splitlines() if name in line]
    assert "nested too deeply" in warned[0], err
    assert all(line.startswith("papers: warning:") for line in warned), err


# ---- bidi controls ----------------------------------------------------------------------------------------


def test_bidi_controls_reach_no_output_or_export(tmp_path: Path, seed_index: Path) -> None:
    listings = tmp_path / "listings"
    listings.mkdir()
    record = {
        "title": "Safe\u202etxt.exe title",
        "authors": "Ada \u2066Lovelace\u2069",
        "abstract": "An abstract with an override \u202e here and an isolate \u2067there\u2069, long enough.",
        "venue": "Conf\u202b",
        "year": 2024,
    }
    (listings / "bidi.json").write_text(json.dumps([record]))
    cli = Cli(tmp_path, tmp_path / "index", listings)
    paper = cli.first_ids()[0]
    note = "my \u202etxt.exe\u202c note\n\u2066second\u2069 line"
    assert cli("note", paper, note)[0] == 0
    assert cli("star", paper)[0] == 0
    assert cli("tag", paper, "later")[0] == 0
    assert cli("saved", "add", "sneaky", "graph \u202e neural")[0] == 0
    outputs = [
        cli("note", paper),
        cli("saved", "list"),
        cli("saved", "list", "--json"),
        cli("show", paper),
        cli("list"),
        cli("starred"),
        cli("search", "override"),
        cli("search", "override", "--json"),
        cli("list", "--json"),
        cli("starred", "--json"),
        cli("show", paper, "--json"),
        cli("facets"),
        cli("facets", "--json"),
        cli("tags", "--json"),
        *(cli("export", "--format", format) for format in ("markdown", "csv", "bibtex", "json")),
    ]
    for code, out, err in outputs:
        assert code == 0, err
        assert not has_bidi(out) and not has_bidi(err), (out, err)
    code, out, _ = cli("note", paper)
    assert "txt.exe" in out and "second" in out, "the note's text stays, only the controls go"


async def test_bidi_controls_reach_no_line_of_the_reader(tmp_path: Path, seed_index: Path) -> None:
    with Library.open([SEEDS], index_dir=seed_index, data_dir=tmp_path / "state") as library:
        await _reader_shows_no_bidi(library)


async def _reader_shows_no_bidi(library: Library) -> None:
    paper = library.papers[0].id
    library.organiser.set_note(paper, "note \u202eevil\u202c text")
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"graph", "\u202e", "enter")
        await settle(pilot)
        await pilot.press("g", "enter")
        await settle(pilot)
        screen = browse(app)
        shown = [status_text(app), detail_text(app)]
        shown += [screen.paper_list.render_line(y).text for y in range(screen.paper_list.size.height)]
        assert not any(has_bidi(text) for text in shown), shown


# ---- config values are not markup -------------------------------------------------------------------------

HOSTILE_CONFIG = """
theme = "[/]"
mark_read_delay = 0
[keymap]
"[@click=app.quit]x" = "f"
"browse.star" = "[@click=app.quit]"
"""


@pytest.mark.parametrize("where", ["user", "site"])
def test_config_values_are_never_markup(tmp_path: Path, seed_index: Path, where: str) -> None:
    home = tmp_path / "home"
    folder = home / ("config" if where == "user" else "site") / "papers"
    folder.mkdir(parents=True)
    (folder / "config.toml").write_text(HOSTILE_CONFIG)
    env = {
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_CONFIG_DIRS": str(home / "site"),
        "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    }
    cli = Cli(tmp_path, seed_index)
    done = run_papers_module(cli, env, "j k")
    assert done[0] == 0, done[2][-3000:]
    seen = json.loads(done[1].strip().splitlines()[-1])
    assert seen["exit"] == 0, "no [@click=app.quit] ran: only the q the driver pressed ends the reader"
    drawn = " ".join(seen["drawn"])
    assert "[/]" in drawn and "Error" not in drawn, seen  # the unknown theme is named as written, not parsed
    code, _, err = cli("list", env=env)
    assert code == 0 and "Traceback" not in err


def run_papers_module(cli: Cli, env: dict[str, str], keys: str) -> tuple[int, str, str]:
    import subprocess
    import sys

    full = dict(os.environ, **env)
    done = subprocess.run(
        [sys.executable, "-m", "tests.faults.reader_keys", *cli.where, keys],
        capture_output=True,
        text=True,
        env=full,
        cwd=REPO,
        timeout=300,
    )
    return done.returncode, done.stdout, done.stderr
