"""The query language read once: what the user typed as typed parts that every consumer reads.

Whoosh's own query parser tags the text (`QueryParser.tag`: words, phrases, field names, ranges, operators,
brackets, `+`/`-`, `*`/`?`/`~` marks, each with where it stands), and `read_query` turns its tags into a
`TypedQuery`: the words and phrases searched, each with the field it names; the filters over the user's marks
(`is:`, `tag:`, `note:`, `foryou:`) as types; what is wrong with it (`problem`), the field values it had to
leave out and why (`notices`); and `searched`, the text the full parser (query.py) turns into a Whoosh query.
Nothing else takes the query text apart: "did you mean" reads `words`, the reader's typing reads
`as_prefix`, `index.views` reads `filters`. A new operator is a part here and the one place that applies it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from whoosh import qparser
from whoosh.qparser import syntax

from index.search.bounds import MAX_QUERY_CHARS

FIELD_ALIASES = {
    "authors": ["author"],
    "status": ["track"],
    "source": ["listing"],
}
SEARCH_FIELDS = frozenset(
    {"headline", "title", "abstract", "authors", "venue", "year", "status", "source", "id"}
)
KNOWN_FIELDS = SEARCH_FIELDS.union(*FIELD_ALIASES.values())
PREFIX_FIELDS = KNOWN_FIELDS - {"year", "id"}
"""Fields whose value, while typed, matches as a prefix (`title:diffu`); a year or an id is typed whole."""
STATE_FILTERS = ("starred", "unread", "read", "foryou")
OPERATORS = frozenset({"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE"})
FUZZY_PREFIX = 1
# `-word` excludes a word only at the start of a term, so `weak-to-strong` stays one hyphenated term.
MINUS = r"(?<![^\s(])-(?=[\w\"(])"
PLUS = r"(?<![^\s(])\+(?=[\w\"(])"
_MARK_FIELDS = frozenset({"is", "tag", "note", "foryou"})
_YEAR_HELP = "year: takes a year (year:2024) or a range of years (year:[2020 TO 2024])"


@dataclass(frozen=True, slots=True)
class IsFilter:
    """`is:starred`, `is:unread`, `is:read` or `is:foryou` (`-is:read`: without); the reader's 1-4 filters
    are these too."""

    name: str
    without: bool = False


@dataclass(frozen=True, slots=True)
class TagFilter:
    """`tag:NAME` (any case): papers with the tag, or without it (`-tag:NAME`)."""

    name: str
    without: bool = False


@dataclass(frozen=True, slots=True)
class NoteFilter:
    """`note:WORDS` or `note:"a b"`: papers whose note has the words (`-note:`: without)."""

    words: str
    without: bool = False


@dataclass(frozen=True, slots=True)
class ForYouFilter:
    """`foryou:NAME`: unread papers most like the papers tagged NAME."""

    tag: str


MarkFilter = IsFilter | TagFilter | NoteFilter | ForYouFilter
"""A filter over the user's marks: the index holds none, so whoever holds them applies it (`index.views`)."""


@dataclass(frozen=True, slots=True)
class Word:
    """A word as typed, with its `*`/`?`/`~` marks (`marked`), the field it names (None: the default
    fields) and where it stands in the text."""

    text: str
    start: int
    end: int
    field: str | None = None
    marked: bool = False
    negated: bool = False


@dataclass(frozen=True, slots=True)
class Phrase:
    """`"words in a row"`, maybe in a field (`title:"a b"`)."""

    text: str
    start: int
    end: int
    field: str | None = None


@dataclass(frozen=True, slots=True)
class FieldClause:
    """A top-level `name:value` of a search field (not inside parentheses or quotes), as typed: the field
    named (lower case), where the clause stands (`-` included) and the words or phrases its value holds
    (`venue:(ICML OR "AutoML Conf")` -> ICML, AutoML Conf). What the facets narrow and widen."""

    field: str
    start: int
    end: int
    values: tuple[str, ...]
    negated: bool = False


@dataclass(frozen=True, slots=True)
class TypedQuery:
    """One query as typed, read into parts (see the module's docstring)."""

    text: str
    """What was typed, cut to `MAX_QUERY_CHARS`."""
    searched: str
    """The text without its mark filters and refused field values: what the full parser parses."""
    words: tuple[Word, ...]
    phrases: tuple[Phrase, ...]
    filters: tuple[MarkFilter, ...]
    clauses: tuple[FieldClause, ...]
    notices: tuple[str, ...]
    problem: str | None
    """Why the text is not a well-formed query (searched as plain words then), or None."""
    refused: bool
    """Some part was left out (a field value it cannot take), so an empty `searched` finds nothing."""
    unfinished: bool
    """Its last part is a word still being typed: no space after it, not in a phrase, not marked, not an
    operator, in no field or one whose value matches as a prefix."""

    @property
    def plain_words(self) -> tuple[str, ...]:
        """Bare words of three letters or more (no field, operator or mark): the ones "did you mean" may
        correct."""
        return tuple(
            word.text
            for word in self.words
            if word.field is None
            and not word.marked
            and len(word.text) >= 3
            and word.text.isalpha()
            and word.text not in OPERATORS
        )

    @property
    def as_prefix(self) -> str:
        """The text with its unfinished last word marked as a prefix (`graph neu` -> `graph neu*`): what
        the reader searches while that word is typed, so each keystroke narrows the list, never empties it."""
        return f"{self.text}*" if self.unfinished else self.text

    @property
    def asks_for_you(self) -> bool:
        """Whether the query asks for a for-you list (`is:foryou` or `foryou:NAME`)."""
        return any(isinstance(found, ForYouFilter) or found == IsFilter("foryou") for found in self.filters)

    @property
    def for_you_tag(self) -> str | None:
        """The tag a `foryou:NAME` seeds the for-you list with (the last one wins), or None."""
        tags = [found.tag for found in self.filters if isinstance(found, ForYouFilter)]
        return tags[-1] if tags else None


@lru_cache(maxsize=256)
def read_query(typed: str) -> TypedQuery:
    """`typed` read into a `TypedQuery` (never raises; cached, since every keystroke reads it twice)."""
    text = _cut(typed)
    reading = _Reading(text)
    if len(text) < len(typed):
        reading.notices.append(f"only the first {MAX_QUERY_CHARS:,} characters of the query are searched")
    reading.read(_TAGGER.tag(text))
    return reading.typed()


def _cut(typed: str) -> str:
    """`typed` cut to `MAX_QUERY_CHARS` at a space (or mid-word if it has none)."""
    if len(typed) <= MAX_QUERY_CHARS:
        return typed
    head = typed[:MAX_QUERY_CHARS]
    space = head.rfind(" ")
    return head[:space] if space > 0 else head


def _tagger() -> Any:
    """Whoosh's parser with the plugins query.py parses with, used only to tag (it needs no schema)."""
    parser = qparser.QueryParser("abstract", None)
    parser.remove_plugin_class(qparser.BoostPlugin)
    parser.add_plugin(qparser.FuzzyTermPlugin())
    parser.add_plugin(qparser.PlusMinusPlugin(plusexpr=PLUS, minusexpr=MINUS))
    return parser


_TAGGER = _tagger()
_JOINERS = "_-\u2010\u2011"
"""What joins the parts of a compound word (wordforms.TOKEN_RE)."""
_OPEN, _CLOSE = qparser.GroupPlugin.OpenBracket, qparser.GroupPlugin.CloseBracket
_MARKS = (qparser.WildcardPlugin.WildcardNode, qparser.FuzzyTermPlugin.FuzzinessNode)


class _Reading:
    """The walk over Whoosh's tags of one text that makes its `TypedQuery`."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.words: list[Word] = []
        self.phrases: list[Phrase] = []
        self.filters: list[MarkFilter] = []
        self.clauses: list[FieldClause] = []
        self.notices: list[str] = []
        self.problem: str | None = None
        self.left_out: list[tuple[int, int]] = []
        self.refused = False
        self.depth = 0
        self.last: Any = None
        """The last significant part read: a Word, a Phrase, an operator's text, or a bracket."""

    def typed(self) -> TypedQuery:
        balanced = not self.text.count('"') % 2
        if not balanced:
            self.problem = "has an unbalanced quote"
        elif self.depth and self.problem is None:
            self.problem = "has an unbalanced parenthesis"
        kept, start = [], 0
        for begin, end in sorted(self.left_out):
            kept.append(self.text[start:begin])
            start = max(start, end)
        kept.append(self.text[start:])
        last = self.last
        unfinished = (
            isinstance(last, Word)
            and not last.marked
            and last.end == len(self.text)
            and all(char.isalnum() or char in _JOINERS for char in last.text)
            and last.text[-1].isalnum()  # `Q-lea` is a compound being typed (wordforms.py), `Q-` is not yet
            and last.text not in OPERATORS
            and (last.field is None or last.field in PREFIX_FIELDS)
            and balanced
        )
        return TypedQuery(
            self.text,
            " ".join("".join(kept).split()),
            tuple(self.words),
            tuple(self.phrases),
            tuple(dict.fromkeys(self.filters)),
            tuple(self.clauses),
            tuple(dict.fromkeys(self.notices)),
            self.problem,
            self.refused,
            unfinished,
        )

    def read(self, nodes: Any) -> None:
        nodes = [node for node in nodes if not isinstance(node, syntax.Whitespace)]
        number = 0
        while number < len(nodes):
            number = self.part(nodes, number)

    def part(self, nodes: list[Any], number: int) -> int:
        """Read the part starting at `nodes[number]`; the number of the next one."""
        node = nodes[number]
        negated = number > 0 and isinstance(nodes[number - 1], qparser.PlusMinusPlugin.Minus)
        if isinstance(node, syntax.FieldnameNode):
            return self.field(nodes, number, negated)
        if isinstance(node, qparser.PhrasePlugin.PhraseNode):
            self.last = Phrase(node.text, node.startchar, node.endchar)
            self.phrases.append(self.last)
            return number + 1
        if isinstance(node, syntax.GroupNode):  # a range outside a field: Whoosh reads it as the default's
            self.last = node
            return number + 1
        if isinstance(node, _OPEN | _CLOSE):
            self.depth += 1 if isinstance(node, _OPEN) else -1
            if self.depth < 0:
                self.problem = self.problem or "has an unbalanced parenthesis"
            self.last = node
            return number + 1
        if isinstance(node, syntax.InfixOperator | syntax.PrefixOperator | syntax.PostfixOperator):
            if self._operator_is_lone(nodes, number):
                self.problem = self.problem or f"has a lone {node.text}"
            self.last = node.text
            return number + 1
        if isinstance(node, qparser.PlusMinusPlugin.Minus | qparser.PlusMinusPlugin.Plus):
            return number + 1
        return self.word(nodes, number, None, negated)

    def word(self, nodes: list[Any], number: int, field: str | None, negated: bool) -> int:
        """A word and the marks right after it (`diffu*`, `difusion~2`, `*a*`), as one Word."""
        first = nodes[number]
        end, marked, parts = number, False, []
        while end < len(nodes) and isinstance(nodes[end], (syntax.WordNode, *_MARKS)):
            if end > number and nodes[end].startchar != nodes[end - 1].endchar:
                break  # a space between: the next word
            marked = marked or isinstance(nodes[end], _MARKS)
            parts.append(self.text[nodes[end].startchar : nodes[end].endchar])
            end += 1
        if end == number:  # a node of a kind the query language does not use: leave it to the parser
            return number + 1
        text = "".join(parts)
        if text in OPERATORS or text in ("-", "+"):
            self.problem = self.problem or f"has a lone {text}"
        elif any(bracket in text for bracket in "[]{}"):
            self.problem = self.problem or "has an unbalanced range bracket"
        self.last = Word(text, first.startchar, nodes[end - 1].endchar, field, marked, negated)
        self.words.append(self.last)
        return end

    def field(self, nodes: list[Any], number: int, negated: bool) -> int:
        """`name:value`: a mark filter, a field's word or phrase (checked when the field takes a kind of
        value), or a field with nothing after it."""
        node = nodes[number]
        name = node.fieldname.lower() if node.fieldname.lower() in _MARK_FIELDS else node.fieldname
        value = nodes[number + 1] if number + 1 < len(nodes) else None
        start = node.startchar - (1 if negated else 0)
        if name in _MARK_FIELDS:
            return self.mark_filter(nodes, number, name, negated, start)
        if self.depth == 0:
            self.clauses.append(self._clause(nodes, number, negated, start))
        if value is None or value.startchar != node.endchar or isinstance(value, _CLOSE):
            self.problem = self.problem or f"has {node.fieldname}: with nothing after it"
            self.last = None
            return number + 1
        if name not in KNOWN_FIELDS:
            self.problem = self.problem or f"names an unknown field {node.fieldname}:"
        if name == "year" and not _is_year(value, self.text):
            typed = self.text[value.startchar : value.endchar]
            self.refuse(start, value.endchar, f"{_YEAR_HELP}; year:{typed}")
            return number + 2
        if isinstance(value, qparser.PhrasePlugin.PhraseNode):
            self.last = Phrase(value.text, value.startchar, value.endchar, name)
            self.phrases.append(self.last)
            return number + 2
        if isinstance(value, syntax.WordNode | qparser.WildcardPlugin.WildcardNode):
            return self.word(nodes, number + 1, name, negated)
        self.last = None
        return number + 1  # a group or a range: the parser reads it

    def _clause(self, nodes: list[Any], number: int, negated: bool, start: int) -> FieldClause:
        """The clause a field name at `nodes[number]` begins: its value is the word or phrase right after
        it, a bracketed group to its closing bracket (or the end), a range, or nothing."""
        node = nodes[number]
        field = str(node.fieldname).lower()
        after = number + 1
        if after >= len(nodes) or nodes[after].startchar != node.endchar or isinstance(nodes[after], _CLOSE):
            return FieldClause(field, start, int(node.endchar), (), negated)
        value = nodes[after]
        if not isinstance(value, _OPEN):
            end = after
            while end + 1 < len(nodes) and nodes[end + 1].startchar == nodes[end].endchar:
                if not isinstance(nodes[end + 1], (syntax.WordNode, *_MARKS)):
                    break
                end += 1  # a word's `*`/`?`/`~` marks are its value too
            if isinstance(value, qparser.PhrasePlugin.PhraseNode):
                named = value.text
            elif isinstance(value, syntax.WordNode):
                named = self.text[value.startchar : nodes[end].endchar]  # with its marks, as typed
            else:
                named = ""  # a range
            values = (" ".join(str(named).split()),) if named and named.strip() else ()
            return FieldClause(field, start, int(nodes[end].endchar), values, negated)
        depth, values_in = 0, list[str]()
        for inner in nodes[after:]:
            depth += 1 if isinstance(inner, _OPEN) else -1 if isinstance(inner, _CLOSE) else 0
            if depth == 0:
                return FieldClause(field, start, int(inner.endchar), tuple(values_in), negated)
            if (
                isinstance(inner, syntax.WordNode | qparser.PhrasePlugin.PhraseNode)
                and str(inner.text).strip()
            ):
                values_in.append(" ".join(str(inner.text).split()))
        return FieldClause(field, start, len(self.text), tuple(values_in), negated)

    def mark_filter(self, nodes: list[Any], number: int, kind: str, negated: bool, start: int) -> int:
        """`is:NAME`, `tag:NAME`, `note:WORDS`, `foryou:NAME`: taken out of the searched text as a filter,
        or said to be empty or meaningless."""
        node = nodes[number]
        value, end = "", node.endchar
        if number + 1 < len(nodes) and nodes[number + 1].startchar == node.endchar:
            after = nodes[number + 1]
            end = self._value_end(nodes, number + 1)
            value = self.text[after.startchar : end].strip('"').strip()
            number += 1
            while number + 1 < len(nodes) and nodes[number + 1].startchar < end:
                number += 1
        self.left_out.append((start, end))
        self.last = None
        if kind == "is":
            if negated and value.lower() == "foryou":
                self.notices.append("-is:foryou has no meaning (use is:read or is:unread); ignored")
            elif value.lower() in STATE_FILTERS:
                self.filters.append(IsFilter(value.lower(), negated))
            else:
                options = "use is:starred, is:unread, is:read or is:foryou"
                self.notices.append(f"unknown filter is:{value} ignored ({options})")
        elif not value:
            self.notices.append(
                f"{kind}: needs {'words' if kind == 'note' else 'a tag name'} after it; ignored"
            )
        elif negated and kind == "foryou":
            self.notices.append("-foryou: has no meaning (use foryou:NAME for papers like a tag's); ignored")
        elif kind == "tag":
            self.filters.append(TagFilter(" ".join(value.split()), negated))
        elif kind == "note":
            self.filters.append(NoteFilter(" ".join(value.split()), negated))
        else:
            self.filters.append(ForYouFilter(" ".join(value.split())))
        return number + 1

    def _value_end(self, nodes: list[Any], number: int) -> int:
        """Where a filter's value ends: a phrase is whole, a word runs to the next space."""
        node = nodes[number]
        if isinstance(node, qparser.PhrasePlugin.PhraseNode):
            return int(node.endchar)
        space = next((at for at in range(node.startchar, len(self.text)) if self.text[at].isspace()), None)
        return len(self.text) if space is None else space

    def refuse(self, start: int, end: int, notice: str) -> None:
        """Leave the text from `start` to `end` out of the search, saying so."""
        self.left_out.append((start, end))
        self.notices.append(f"{notice} left out")
        self.refused = True
        self.last = None

    @staticmethod
    def _operator_is_lone(nodes: list[Any], number: int) -> bool:
        """An operator with nothing to apply to: another operator or the end on a side it needs."""
        node = nodes[number]
        operators = (syntax.InfixOperator, syntax.PrefixOperator, syntax.PostfixOperator)
        before = nodes[number - 1] if number else None
        after = nodes[number + 1] if number + 1 < len(nodes) else None
        if after is None or isinstance(after, operators):
            return True
        return isinstance(node, syntax.InfixOperator) and (before is None or isinstance(before, operators))


def _is_year(value: Any, text: str) -> bool:
    """Whether a `year:` value is one: digits, or a range whose ends are digits or open."""
    if isinstance(value, syntax.WordNode):
        return str(value.text).isdigit()
    if isinstance(value, syntax.RangeNode):
        return all(not end or str(end).isdigit() for end in (value.start, value.end))
    return isinstance(value, _OPEN)  # year:(2019 OR 2020): the parser checks the group
