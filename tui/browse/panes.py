"""The list and detail panes: sizes the list to the terminal and the headlines, and lets the user resize it.

Side by side (100 columns and up) the list is as wide as most headlines need, but never so wide that the
abstract loses a readable measure; stacked (narrower terminals) it gets at least 12 rows and the abstract
the rest. `<` and `>` shrink and grow it, and the adjustment is remembered across restarts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from textual import events
from textual.binding import Binding, BindingType
from textual.containers import Container

from tui.browse.paper_list import PaperList, venue_width

if TYPE_CHECKING:
    from index.library import Library

STACKED_CLASS = "-narrow"
"""The browse screen's breakpoint class (below 100 columns) under which app.tcss stacks the panes."""

MARKS = 4  # "★ ● " before each headline
CHROME = 2  # the list's scrollbar and its border
LIST_MIN = 24  # columns
DETAIL_MEASURE = 54
"""Columns the automatic width leaves the detail: a ~52-character line of abstract, so that at 120 columns the
list has room for 60 characters of every headline (paper_list.HEADLINE_ROOM)."""
DETAIL_MIN = 36  # columns the detail keeps however wide the user makes the list
WIDTH_STEP = 4
LIST_ROWS = 12  # list rows when stacked, unless the terminal is too short to leave the detail DETAIL_ROWS
DETAIL_ROWS = 5
HEIGHT_STEP = 2
HEADLINE_PERCENTILE = 0.9
SAMPLE = 100
"""Headlines measured, evenly spread: papers are made lazily; measuring all 56k delays the first screen."""
SESSION_KEYS = {"width": "list_width_offset", "height": "list_height_offset"}


def headline_width(lengths: Sequence[int], *, where: int) -> int:
    """The list width (cells, with marks, a venue column `where` cells wide and chrome) that shows most
    headlines whole."""
    if not lengths:
        return 0
    ordered = sorted(lengths)
    headline = ordered[min(len(ordered) - 1, int(HEADLINE_PERCENTILE * len(ordered)))]
    return MARKS + headline + (where + 1 if where else 0) + CHROME


def clamp(value: int, low: int, high: int) -> int:
    return max(low, min(value, high))


@dataclass(frozen=True, slots=True)
class Fit:
    """How the panes are arranged for a size of the panes area: one side is fixed, the other is 100%."""

    stacked: bool
    auto: int
    """The list's size (columns side by side, rows with its border when stacked) before the user's offset."""
    low: int
    high: int

    def size(self, offset: int) -> int:
        return clamp(self.auto + offset, self.low, self.high)


def fit(width: int, height: int, preferred: int, *, stacked: bool) -> Fit:
    """The automatic list size and the range the user may move it in, for a panes area of `width`x`height`.

    Args:
        width: columns of the panes area.
        height: rows of the panes area.
        preferred: `headline_width` of the library.
        stacked: whether the panes are above one another.
    """
    if stacked:
        high = max(1, height - DETAIL_ROWS)
        auto = clamp(max(LIST_ROWS + 1, height // 2), 1, high)  # +1: the border under the list
        return Fit(True, auto, min(4, high), high)
    high = max(LIST_MIN, width - DETAIL_MIN)
    auto = clamp(preferred, LIST_MIN, max(LIST_MIN, width - DETAIL_MEASURE))
    return Fit(False, auto, LIST_MIN, high)


class Panes(Container):
    """Holds the paper list and the detail pane; sets the list's size whenever the panes area changes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("greater_than_sign", "resize_list(1)", "Grow the list", show=False, id="panes.grow"),
        Binding("less_than_sign", "resize_list(-1)", "Shrink the list", show=False, id="panes.shrink"),
    ]

    def __init__(self, library: Library, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._library = library
        self._preferred: int | None = None
        self.offsets = {axis: _stored_offset(library, key) for axis, key in SESSION_KEYS.items()}

    @property
    def preferred(self) -> int:
        """`headline_width` of a sample of the library's papers, measured once, when first needed."""
        if self._preferred is None:
            papers = self._library.papers
            step = max(1, len(papers) // SAMPLE)
            lengths = [cell_len(papers[number].headline) for number in range(0, len(papers), step)]
            where = venue_width(papers.venue_years) if papers.spans_several_listings else 0
            self._preferred = headline_width(lengths, where=where)
        return self._preferred

    def current_fit(self) -> Fit:
        stacked = self.screen.has_class(STACKED_CLASS)
        whole = fit(self.size.width, self.size.height, 0 if stacked else self.preferred, stacked=stacked)
        docked = self._docked_width()
        if stacked or not docked:
            return whole
        # A panel docked beside the list (the facets) takes its columns from the detail first: the list keeps
        # its width as long as the detail keeps DETAIL_MIN.
        high = max(LIST_MIN, self.size.width - docked - DETAIL_MIN)
        return Fit(False, min(whole.auto, high), LIST_MIN, high)

    def _docked_width(self) -> int:
        """Columns of the panels docked beside the list; from the style when the panel has not been laid out
        yet (it was just shown), so that one `apply` suffices."""
        total = 0
        for child in self.children:
            if child.styles.is_docked and child.display:
                width = child.styles.width
                styled = 0 if width is None or width.is_auto else int(width.resolve(self.size, self.app.size))
                total += child.outer_size.width or styled
        return total

    def on_resize(self, event: events.Resize) -> None:
        self.apply()

    def apply(self) -> None:
        """Size the list for the current panes area and offsets (the detail takes what is left)."""
        if not self.size:
            return
        paper_list = self.query_one(PaperList)
        current = self.current_fit()
        if current.stacked:
            paper_list.styles.width = None  # app.tcss: the whole width
            paper_list.styles.height = current.size(self.offsets["height"])
        else:
            paper_list.styles.height = None  # app.tcss: the whole height
            paper_list.styles.width = current.size(self.offsets["width"])

    def action_resize_list(self, direction: int) -> None:
        """Grow (1) or shrink (-1) the list: wider side by side, taller when stacked."""
        current = self.current_fit()
        axis, step = ("height", HEIGHT_STEP) if current.stacked else ("width", WIDTH_STEP)
        size = current.size(self.offsets[axis])
        wanted = clamp(size + direction * step, current.low, current.high)
        if wanted == size:
            self.app.bell()
            return
        self.offsets[axis] = wanted - current.auto
        self._library.session.set(SESSION_KEYS[axis], self.offsets[axis])
        self.apply()


def _stored_offset(library: Library, key: str) -> int:
    value = library.session.get(key, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
