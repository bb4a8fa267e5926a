"""`python -m index.cli`: every subcommand, and no reader (that lives in `tui`)."""

from __future__ import annotations

import sys

from index.cli.main import main

sys.exit(main())
