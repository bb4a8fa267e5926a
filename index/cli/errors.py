"""The CLI's exit codes and its one user-facing error, apart from the parser so any subcommand raises it."""

from __future__ import annotations

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2


class CommandError(Exception):
    """A user-facing failure: its message is printed as one line and the exit code is 1."""
