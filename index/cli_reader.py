"""`papers` with no subcommand: open the Textual reader on the resolved listings, index and state."""

from __future__ import annotations

import argparse

from index import cli_common


def run_reader(args: argparse.Namespace) -> int:
    """Open the library (fast: never builds the index) and run the reader until the user quits.

    Textual is imported only here, so every other subcommand starts without paying for it.

    Args:
        args: the parsed command line; only the shared --listings/--index-dir/--data-dir are read.

    Returns:
        The exit code: 0 after a normal quit.
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
        from tui.app import make_app

        make_app(
            library, mark_read_delay=config.mark_read_delay, theme=config.theme, keymap=config.keymap
        ).run()
    finally:
        library.close()
    return 0
