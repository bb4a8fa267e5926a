"""The reader's memory of where the user was (query, filter, order, selected paper), per set of listings.

Values are kept under a key made from a digest of the resolved listing paths, so opening other listings
never restores a query meant for these. Keys in `GLOBAL_SESSION_KEYS` (the theme) stay one per user. Values
saved before session memory was per library (unscoped keys) are read only by the default library, the one
opened with no `--listings` (`$PAPERS_LISTINGS`, the config, else the bundled seeds): that is where they were
almost always written; the first save there replaces them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from index.config import Config, resolve_listings
from index.listings.reader import listings_digest
from index.state.store import StateStore

GLOBAL_SESSION_KEYS = frozenset({"theme"})
"""Session keys that are the user's whatever the listings (everything else is kept per library)."""


class SessionMemory:
    """Remembered reader settings for one set of listings (a collaborator `Library` owns)."""

    def __init__(
        self, state: Callable[[], StateStore], listing_paths: Sequence[Path], config: Config
    ) -> None:
        self._state = state
        self.scope = listings_digest(listing_paths)
        """The digest this library's values are kept under."""
        self._config = config

    def _is_default_library(self) -> bool:
        return listings_digest(resolve_listings(None, self._config)) == self.scope

    def _key(self, key: str) -> str:
        return key if key in GLOBAL_SESSION_KEYS else f"library:{self.scope}:{key}"

    def get(self, key: str, default: Any = None) -> Any:
        """A remembered reader setting for these listings (`GLOBAL_SESSION_KEYS` for every library)."""
        state = self._state()
        scoped = self._key(key)
        if scoped != key and not state.has_session(scoped) and self._is_default_library():
            return state.get_session(key, default)  # saved before session memory was per library
        return state.get_session(scoped, default)

    def set(self, key: str, value: Any) -> None:
        """Remember a reader setting for these listings. A read-only store keeps it in memory for this run
        rather than interrupting the reader."""
        scoped = self._key(key)
        legacy = key if scoped != key and self._is_default_library() else None
        self._state().set_session(scoped, value, replaces=legacy)
