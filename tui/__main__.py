"""`python -m tui`: the same as the `papers` command."""

from __future__ import annotations

import sys

from tui.launch import main

sys.exit(main())
