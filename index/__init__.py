"""The non-UI core of `papers`: listings, identity, rendering, search and per-user state.

Nothing in this package may import Textual or `tui`: the CLI, the benchmarks and a headless server use it
alone.
"""

from __future__ import annotations

__version__ = "0.1.0"
