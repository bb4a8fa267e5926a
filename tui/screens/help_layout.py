"""The help screen's text: the key sheet in as many columns as fit, and the query syntax as a table."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator, Sequence
from itertools import combinations, pairwise
from math import ceil
from typing import NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from tui.keys import Section
from tui.text import visible

MAX_COLUMNS = 3
SPACINGS = ((2, 3), (1, 2))
"""(between keys and description, between columns): roomy first, then tight before giving up a column."""
EXAMPLE_WIDTH = 18  # a query example longer than this does not widen the example column
EXAMPLE_GAP = 2
HEADING_WIDTH = 30
"""A first line of the query help this short, unindented and not a sentence, is its heading."""
FILTER_WORDS = ("is:", "tag:", "-tag:", "foryou:", "note:")
"""Examples that start with these are the filters: a page of their own with the notes after them."""


def split_query_help(query_help: str) -> list[tuple[str, str]]:
    """The query help as pages of (name, text): the words and fields, then the filters and the notes, so
    each is one screen at 80x24; one page when the help names no filter."""
    lines = query_help.strip("\n").splitlines()
    at = next(
        (
            number
            for number, line in enumerate(lines)
            if line.startswith("  ") and line.strip().startswith(FILTER_WORDS)
        ),
        None,
    )
    if at is None:
        return [("query syntax", query_help)]
    return [("query syntax", "\n".join(lines[:at])), ("filters", "\n".join(["Filters", *lines[at:]]))]


class Line(NamedTuple):
    """One line of the sheet: a section title, a key row, a note (no keys) or a blank (neither)."""

    keys: str = ""
    text: str = ""
    title: bool = False


BLANK = Line()
Column = list[Line]


class Styles(NamedTuple):
    title: Style
    key: Style
    note: Style


def section_lines(section: Section) -> Column:
    title, rows = section
    return [Line(text=title, title=True), *(Line(keys, description) for keys, description in rows)]


def joined(blocks: Sequence[Column]) -> Column:
    """Sections one under another, a blank line between them."""
    lines: Column = []
    for block in blocks:
        lines += [BLANK, *block] if lines else block
    return lines


def whole_sections(blocks: Sequence[Column], count: int) -> list[Column]:
    """Whole sections in `count` columns (in order), the tallest column as short as it can be."""
    count = min(count, len(blocks))
    best: list[Column] = [joined(blocks)]
    for cuts in combinations(range(1, len(blocks)), count - 1):
        columns = [joined(blocks[start:end]) for start, end in pairwise((0, *cuts, len(blocks)))]
        if max(map(len, columns)) < max(map(len, best)):
            best = columns
    return best


def poured(lines: Sequence[Line], height: int) -> list[Column]:
    """Lines poured into columns of at most `height`; a column never starts with a blank line or ends with
    a section title."""
    columns: list[Column] = [[]]
    for line in lines:
        column = columns[-1]
        if not column and line == BLANK:
            continue
        if len(column) >= height or (line.title and len(column) >= height - 1):
            columns.append([] if line == BLANK else [line])
            continue
        column.append(line)
    return [column for column in columns if column]


def candidates(blocks: Sequence[Column], count: int) -> Iterator[list[Column]]:
    """Layouts in exactly `count` columns, the preferred first: whole sections, then poured evenly."""
    if len(blocks) >= count:
        yield whole_sections(blocks, count)
    lines = joined(blocks)
    for height in range(ceil(len(lines) / count), len(lines) + 1):
        columns = poured(lines, height)
        if len(columns) < count:
            return
        if len(columns) == count:
            yield columns


def column_width(column: Sequence[Line], gap: int) -> tuple[int, int]:
    """The width of a column's keys and of the whole column."""
    keys = max((cell_len(line.keys) for line in column if line.keys), default=0)
    widths = [keys + gap + cell_len(line.text) if line.keys else cell_len(line.text) for line in column]
    return keys, max(widths, default=0)


def sheet_layout(sections: Sequence[Section], width: int) -> tuple[list[Column], int, int]:
    """The columns, key gap and gutter of the layout with the most columns (up to MAX_COLUMNS) that fits.

    Of the layouts with that many columns, the shortest wins and roomy spacing only breaks a tie: a sheet a
    few lines shorter is what keeps it (and the query syntax after it) on one 80x24 screen.
    """
    blocks = [section_lines(section) for section in sections]
    for count in range(MAX_COLUMNS, 1, -1):
        fitting: list[tuple[int, int, list[Column]]] = []
        for rank, (gap, gutter) in enumerate(SPACINGS):
            for columns in candidates(blocks, count):
                widths = [column_width(column, gap)[1] for column in columns]
                if sum(widths) + gutter * (len(columns) - 1) <= width:
                    fitting.append((max(map(len, columns)), rank, columns))
                    break  # candidates come best first: the first that fits is this spacing's best
        if fitting:
            _height, rank, columns = min(fitting, key=lambda fit: fit[:2])
            return columns, *SPACINGS[rank]
    gap, gutter = SPACINGS[0]
    return [joined(blocks)], gap, gutter


def key_sheet(sections: Sequence[Section], width: int, styles: Styles) -> Text:
    """The sections side by side in as many columns as fit in `width` cells."""
    columns, gap, gutter = sheet_layout(sections, width)
    widths = [column_width(column, gap) for column in columns]
    text = Text(end="", no_wrap=True, overflow="crop")
    for row in range(max(map(len, columns), default=0)):
        for number, (column, (keys_width, total)) in enumerate(zip(columns, widths, strict=True)):
            line = column[row] if row < len(column) else BLANK
            cell = _cell(line, keys_width + gap, styles)
            if number < len(columns) - 1:
                cell.pad_right(total + gutter - cell.cell_len)
            text.append_text(cell)
        text.append("\n")
    return text


def _cell(line: Line, indent: int, styles: Styles) -> Text:
    cell = Text(end="")
    if line.title:
        cell.append(visible(line.text), styles.title)
    elif not line.keys:
        cell.append(visible(line.text), styles.note)
    else:
        cell.append(visible(line.keys), styles.key)
        cell.pad_right(indent - cell.cell_len)
        cell.append(visible(line.text))
    return cell


def query_syntax(query_help: str, width: int, styles: Styles) -> Text:
    """The query help as a table of examples and explanations wrapped to `width`, then its notes.

    Reads the layout of `QUERY_HELP` (example, three or more spaces, explanation; deeper-indented lines
    continue an explanation; unindented lines are notes); anything else is shown as a note, never lost.
    """
    lines = query_help.strip("\n").splitlines()
    title = "Query syntax"
    if lines and not lines[0].startswith(" ") and len(lines[0]) <= HEADING_WIDTH and lines[0][-1:] != ".":
        title, lines = lines[0].strip(), lines[1:]
    rows: list[list[str]] = []
    notes: list[str] = []
    for line in lines:
        if (more := re.fullmatch(r" {6,}(\S.*)", line)) and rows:
            rows[-1][1] = f"{rows[-1][1]} {more[1]}".strip()
        elif row := re.fullmatch(r"  (\S.*?)(?: {3,}(\S.*))?", line):
            rows.append([row[1], row[2] or ""])
        else:
            notes.append(line.strip())
    text = Text(end="")
    text.append(f"{title}\n", styles.title)
    indent = max((len(example) for example, _ in rows if len(example) <= EXAMPLE_WIDTH), default=0)
    indent += EXAMPLE_GAP
    for example, explanation in rows:
        wrapped = textwrap.wrap(explanation, max(20, width - indent))
        text.append(visible(example), styles.key)
        if len(example) + EXAMPLE_GAP + len(explanation) <= width and len(example) >= indent:
            text.append(" " * EXAMPLE_GAP + visible(explanation))  # a long example: still one line
        elif wrapped:
            text.append("\n" + " " * indent if len(example) >= indent else " " * (indent - len(example)))
            text.append(visible(("\n" + " " * indent).join(wrapped)))
        text.append("\n")
    for paragraph in textwrap.wrap(" ".join(note for note in notes if note), max(20, width)):
        text.append(visible(paragraph) + "\n", styles.note)
    return text
