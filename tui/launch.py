"""The `papers` entry point: the core command line, plus the Textual reader when no subcommand is given.

It lives in `tui/` because the dependency runs one way: the reader knows the core, the core never knows the
reader (`python -m index.cli` has every subcommand and simply has no reader).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from index.cli import common as cli_common
from index.cli import main as cli


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
        from tui.app import make_app  # deferred: subcommands never pay for importing Textual

        app = make_app(
            library, mark_read_delay=config.mark_read_delay, theme=config.theme, keymap=config.keymap
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
