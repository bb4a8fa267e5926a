"""Where `papers` keeps things: one place decides, every caller may pass explicit paths instead."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "papers"

ENV_LISTINGS = "PAPERS_LISTINGS"
ENV_INDEX_DIR = "PAPERS_INDEX_DIR"
ENV_DATA_DIR = "PAPERS_DATA_DIR"


def bundled_seeds_dir() -> Path:
    """The NeurIPS 2026 listings shipped with the program.

    A wheel carries them inside the package (`index/_bundled_seeds`, see pyproject); a source or editable
    install finds the top-level `seeds/` beside the package.
    """
    here = Path(__file__).resolve().parent
    packaged = here / "_bundled_seeds"
    if packaged.is_dir():
        return packaged
    return here.parent / "seeds"


def listings_from_env() -> list[Path] | None:
    """Listing paths from `PAPERS_LISTINGS` (os.pathsep-separated), or None when unset or empty."""
    raw = os.environ.get(ENV_LISTINGS, "")
    parts = [part for part in raw.split(os.pathsep) if part.strip()]
    return [Path(part).expanduser() for part in parts] or None


def default_index_dir() -> Path:
    """The index is derived data, so it lives in the user cache dir unless told otherwise."""
    override = os.environ.get(ENV_INDEX_DIR, "").strip()
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_cache_dir(APP_NAME)) / "index"


def default_data_dir() -> Path:
    """Stars and read marks are the user's own data: the user data dir, honouring XDG_DATA_HOME."""
    override = os.environ.get(ENV_DATA_DIR, "").strip()
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME))


def user_config_file() -> Path:
    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


def site_config_file() -> Path:
    return Path(platformdirs.site_config_dir(APP_NAME)) / "config.toml"
