"""The `papers` entry point: the core command line, plus the Textual reader when no subcommand is given.

It lives in `tui/` because the dependency runs one way: the reader knows the core, the core never knows the
reader (`python -m index.cli` has every subcommand and simply has no reader).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from index.cli import common as cli_common
from index.cli import main as cli

FRAME_RATE = 120
"""Textual's frame-rate cap (60 unless TEXTUAL_FPS says otherwise). A keystroke of a search paints two frames
(the letter, then the results), and each may wait for the next slot of the frame clock: at 60 that is up to
17 ms each, at 120 up to 8. Measured headless at 56k papers, 80x24: key to painted results p50 45 -> 32 ms.
Frames only come when something changed, so an idle reader costs nothing more. A user's TEXTUAL_FPS wins."""


def run_reader(args: argparse.Namespace) -> int:
    """Open the library (fast: never builds the index) and run the reader until the user quits.

    Textual is imported only here, so every other subcommand starts without paying for it.

    Args:
        args: the parsed command line; only the shared --listings/--index-dir/--data-dir are read.

    Returns:
        The exit code: 0 after a normal quit, 128 + N after signal N or a hangup (see tui/session.py).
    """
    from index.library import Library

    config = cli_common.config()
    library = Library.open(
        cli_common.listing_paths(args),
        index_dir=cli_common.index_dir(args),
        data_dir=cli_common.data_dir(args),
        config=config,
    )
    try:
        os.environ.setdefault("TEXTUAL_FPS", str(FRAME_RATE))  # read once, when Textual is imported
        from tui.app import make_app  # deferred: subcommands never pay for importing Textual

        app = make_app(
            library,
            mark_read_delay=config.mark_read_delay,
            theme=config.theme,
            keymap=config.keymap,
            freeze_gc=True,
        )
        app.run()
    finally:
        library.close()
    return app.return_code or 0


def main(argv: Sequence[str] | None = None) -> int:
    """`papers`: every subcommand of `index.cli`, and the reader when none is given."""
    return cli.main(argv, reader=run_reader)


if __name__ == "__main__":
    sys.exit(main())
