"""Turning untrusted listing text into display objects that a terminal cannot interpret as commands."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from index.library import BIDI_CONTROLS

# Rich strips only a few control codes (BEL, BS, VT, FF, CR); ESC and the C1 range would reach the terminal
# as escape sequences, so every C0/C1 character becomes its visible Unicode "control picture".
_PICTURES = {code: chr(0x2400 + code) for code in range(0x20) if code not in (0x0A,)}
_PICTURES[0x09] = " "
_PICTURES[0x7F] = "\u2421"
_PICTURES.update({code: "\ufffd" for code in range(0x80, 0xA0)})
# Bidi embeddings, overrides and isolates would reorder the rest of the line: a note, a saved search, a query.
_PICTURES.update(dict.fromkeys(map(ord, BIDI_CONTROLS), ""))


def visible(value: str) -> str:
    """The string with control characters made visible (and newlines kept only where the caller wants)."""
    return value.translate(_PICTURES)


def one_line(value: str) -> str:
    """Visible text folded onto a single line, for list rows and headers."""
    return visible(value.replace("\n", " "))


def venue_year(venue: str | None, year: int | None) -> str:
    """ "NeurIPS 2026", "NeurIPS", "2026" or "": how the list, the detail pane and copies name a venue."""
    return " ".join(part for part in (venue or "", str(year or "")) if part)


def literal(value: str, style: Style | str = "") -> Text:
    """A `Text` holding `value` exactly as written: never parsed as Rich or Textual markup."""
    return Text(visible(value), style=style, end="")
