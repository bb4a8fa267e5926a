"""`papers index`, `papers search` and the reader on a full index disk: one line, no traceback, no
half-built directory, and the previous index still answers; once there is room again the next run brings it
up to date.

The index folder is a small tmpfs, filled to the last byte after the first build.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from index.library import Library
from tests.conftest import SEEDS, run_papers
from tests.faults.conftest import Mounts
from tests.tui.conftest import eventually, settle
from tests.tui.helpers import browse, reader, search_for, status_text

NEW_PAPER = (
    "We introduce zanzibarformer, a transformer whose attention heads vote on each token before the "
    "feed-forward layer, and show that voting halves the memory of long-context training."
)


class Setup:
    def __init__(self, tmp_path: Path, index_dir: Path) -> None:
        self.listings = tmp_path / "listings"
        shutil.copytree(SEEDS, self.listings)
        self.index_dir = index_dir
        self.data_dir = tmp_path / "state"

    def papers(self, *args: str) -> tuple[int, str, str]:
        where = ["--listings", str(self.listings), "--index-dir", str(self.index_dir)]
        done = run_papers(*where, "--data-dir", str(self.data_dir), *args)
        return done.returncode, done.stdout, done.stderr

    def add_a_paper(self) -> None:
        listing = sorted(self.listings.glob("*.txt"))[0]
        listing.write_text(listing.read_text().rstrip("\n") + "\n\n" + NEW_PAPER + "\n")

    def files(self) -> list[str]:
        """Every file and folder under the index folder but the filler: what a failed build must not grow."""
        return sorted(
            str(path.relative_to(self.index_dir))
            for path in self.index_dir.rglob("*")
            if not path.name.startswith("filler")
        )


def one_line(stderr: str, *wanted: str) -> str:
    lines = stderr.strip().splitlines()
    assert "Traceback" not in stderr, stderr
    assert len(lines) == 1 and lines[0].startswith("papers: "), stderr
    for word in wanted:
        assert word in lines[0], (word, stderr)
    return lines[0]


def test_a_full_index_disk_keeps_the_old_index(mounts: Mounts, tmp_path: Path) -> None:
    setup = Setup(tmp_path, mounts.tmpfs("index", "8m"))
    code, _, err = setup.papers("index")
    assert code == 0, err
    paper = setup.papers("list")[1].split()[0]
    assert setup.papers("star", paper)[0] == 0
    code, out, err = setup.papers("search", "graph", "--json")
    assert code == 0, err
    first_hit = out
    built = setup.files()
    setup.add_a_paper()
    mounts.fill(setup.index_dir)

    for args in (["index"], ["index", "--rebuild"]):
        code, out, err = setup.papers(*args)
        assert code == 1 and out == "", (args, out, err)
        one_line(err, "No space left on device", "previous index")
        assert setup.files() == built, args  # no build-N, no temporary file left behind

    code, out, err = setup.papers("search", "graph", "--json")
    assert code == 0, err
    one_line(err, "No space left on device", "previous index")
    assert out == first_hit, "the old index answers as before"
    code, out, err = setup.papers("search", "zanzibarformer")
    assert code == 0 and "zanzibarformer" not in out.lower()

    (setup.index_dir / "filler").unlink()
    code, out, err = setup.papers("index")
    assert code == 0, err
    code, out, err = setup.papers("search", "zanzibarformer")
    assert code == 0 and out.count("\n") >= 1, (out, err)
    code, out, _ = setup.papers("starred")
    assert code == 0 and paper in out


def test_a_first_build_on_a_full_disk_leaves_nothing(mounts: Mounts, tmp_path: Path) -> None:
    setup = Setup(tmp_path, mounts.tmpfs("index", "1m"))
    mounts.fill(setup.index_dir)
    for args in (["index"], ["search", "graph"]):
        code, out, err = setup.papers(*args)
        assert code == 1 and out == "", (args, out, err)
        one_line(err, "No space left on device", "no index yet")
        assert not [name for name in setup.files() if "build-" in name], setup.files()


async def test_the_reader_on_a_full_index_disk_searches_the_previous_index(
    mounts: Mounts, tmp_path: Path
) -> None:
    setup = Setup(tmp_path, mounts.tmpfs("index", "8m"))
    assert setup.papers("index")[0] == 0
    built = setup.files()
    setup.add_a_paper()
    mounts.fill(setup.index_dir)
    library = Library.open([setup.listings], index_dir=setup.index_dir, data_dir=setup.data_dir, reader=True)
    app = reader(library)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            await eventually(pilot, lambda: library.index_ready)
            await settle(pilot)
            told = [str(notification.message) for notification in app._notifications]
            assert any("No space left on device" in line and "previous index" in line for line in told), told
            await search_for(pilot, "graph")
            assert "graph" in status_text(app) and browse(app).paper_list.ids, status_text(app)
            await pilot.press("q")
            await settle(pilot)
        assert app.return_code == 0
    finally:
        library.close()
    assert setup.files() == built
