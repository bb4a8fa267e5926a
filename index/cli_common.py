"""Resolving the global options every subcommand shares: explicit flag, then environment, then default."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from index import paths
from index.models import Notice


def listing_paths(args: argparse.Namespace) -> list[Path]:
    """`--listings`, else `$PAPERS_LISTINGS`, else the bundled seeds."""
    given: list[Path] | None = getattr(args, "listings", None)
    if given:
        return [path.expanduser() for path in given]
    return paths.listings_from_env() or [paths.bundled_seeds_dir()]


def index_dir(args: argparse.Namespace) -> Path:
    given: Path | None = getattr(args, "index_dir", None)
    return given.expanduser() if given else paths.default_index_dir()


def data_dir(args: argparse.Namespace) -> Path:
    given: Path | None = getattr(args, "data_dir", None)
    return given.expanduser() if given else paths.default_data_dir()


def warn(notices: Iterable[Notice | str]) -> None:
    """Warnings go to stderr, one line each, so stdout stays clean for pipes and --json."""
    for notice in notices:
        print(f"papers: warning: {notice}", file=sys.stderr)
