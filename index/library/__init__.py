"""The one door to the core for both front ends: `Library`, its capabilities, and the types they answer with.

The reader (`tui/`) and the command line (`index/cli/`) import only this package and `index.models` (an
import-linter contract in pyproject.toml), so everything below it (listings, rendering, the search index,
the store) can change without either front end knowing.
"""

from __future__ import annotations

from index.config import Config, load_config
from index.library.discovery import Discovery
from index.library.exports import Exported, ExportFormat, Exports, Imported, ImportFormatError, Merged, Which
from index.library.facade import IndexReplaced, Library, Progress
from index.library.marks import Counts, Marks
from index.library.organiser import Organiser
from index.library.papers import MIN_PREFIX, PaperPage, Papers, UnknownPaperId, safe
from index.library.session_memory import SessionMemory
from index.render.sanitize import BIDI_CONTROLS
from index.search.answers import ForYouHit, Highlight, MatchSpan, SearchHit, SimilarHit, UpdateReport
from index.search.facets import Facets
from index.search.index import IndexUnavailable, IndexWriteFailed, UnknownPaper
from index.search.query import QUERY_HELP
from index.state.base import Applied, StateError, StateReadOnlyError
from index.state.changes import InputError
from index.state.notes import NoteError
from index.state.searches import SavedSearch, SavedSearchError
from index.state.store import Toggled
from index.state.tags import TagNameError
from index.state.transfer import iso as iso_time
from index.views import FILTERS, FOR_YOU_SIZE, ORDERS, ForYouList, View

__all__ = [
    "BIDI_CONTROLS",
    "FILTERS",
    "FOR_YOU_SIZE",
    "MIN_PREFIX",
    "ORDERS",
    "QUERY_HELP",
    "Applied",
    "Config",
    "Counts",
    "Discovery",
    "ExportFormat",
    "Exported",
    "Exports",
    "Facets",
    "ForYouHit",
    "ForYouList",
    "Highlight",
    "ImportFormatError",
    "Imported",
    "IndexReplaced",
    "IndexUnavailable",
    "IndexWriteFailed",
    "InputError",
    "Library",
    "Marks",
    "MatchSpan",
    "Merged",
    "NoteError",
    "Organiser",
    "PaperPage",
    "Papers",
    "Progress",
    "SavedSearch",
    "SavedSearchError",
    "SearchHit",
    "SessionMemory",
    "SimilarHit",
    "StateError",
    "StateReadOnlyError",
    "TagNameError",
    "Toggled",
    "UnknownPaper",
    "UnknownPaperId",
    "UpdateReport",
    "View",
    "Which",
    "iso_time",
    "load_config",
    "safe",
]
