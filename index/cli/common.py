"""Resolving the global options every subcommand shares: flag, then environment, then config, then default."""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Iterable
from pathlib import Path

from index.config import Config, load_config, resolve_data_dir, resolve_index_dir, resolve_listings
from index.models import Notice


@functools.cache
def config() -> Config:
    """The merged site and user config, read once per process; its problems are reported once, here."""
    loaded = load_config()
    warn(loaded.notices)
    return loaded


def listing_paths(args: argparse.Namespace) -> list[Path]:
    """`--listings`, else `$PAPERS_LISTINGS`, else the config's `listings`, else the bundled seeds."""
    return resolve_listings(getattr(args, "listings", None), config())


def index_dir(args: argparse.Namespace) -> Path:
    return resolve_index_dir(getattr(args, "index_dir", None), config())


def data_dir(args: argparse.Namespace) -> Path:
    return resolve_data_dir(getattr(args, "data_dir", None), config())


def warn(notices: Iterable[Notice | str]) -> None:
    """Warnings go to stderr, one line each, so stdout stays clean for pipes and --json."""
    for notice in notices:
        print(f"papers: warning: {notice}", file=sys.stderr)
