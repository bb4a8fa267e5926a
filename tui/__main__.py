"""`python -m tui`: the installed `papers` command (the reader when no subcommand is given).

It runs the console script through its entry point rather than importing the command line, which the
reader never imports (the core opens the reader, not the other way round).
"""

from __future__ import annotations

import sys
from importlib.metadata import entry_points

(papers,) = entry_points(group="console_scripts", name="papers")
sys.exit(papers.load()())
