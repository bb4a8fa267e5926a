"""BibTeX for papers that have a title and authors: stable ASCII keys, LaTeX in titles kept, the rest escaped.

Listing text is untrusted and a `.bib` file is compiled by LaTeX, so only LaTeX that is balanced and uses
known, harmless macros is kept (`$\\alpha$`, `\\emph{...}`, `{BERT}`); anything else (`\\input{...}`, an
unclosed `$`, a stray `%`) is escaped as text. Every brace written is balanced as BibTeX counts braces (it
ignores backslashes), which is why a literal brace becomes `\\textbraceleft`, never `\\{`.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from pylatexenc import latex2text, latexencode

from index.models import Paper
from index.render import latex_spans
from index.render.abstract import needs_rendering, to_plain
from index.render.latex import argspec
from index.render.sanitize import sanitize

_WORD = re.compile(r"[^\W_]+")
_MACRO = re.compile(r"\\([A-Za-z]+)")
_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_NOT_KEY = re.compile(r"[^a-z0-9]+")
_LATEX_IN_NAME = re.compile(r"\\[A-Za-z]+\s*|\\.|[{}]")
_NEEDS_ENCODING = re.compile(r'[^\x20-\x7e]|["#$%&<>\\^_{}~]')
"""What `_ENCODER` changes: every character but printable ASCII, and of that only these (a test checks)."""
_TAG_PREFIX = re.compile(r"^\s*(?:\[[^\]]*\]\s*)+")
"""`[Spotlight] ...`: a track some listings put before the title, not its first word."""
_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})
# Words a key skips when a title starts with them, as Google Scholar's keys do ("the elements" -> elements).
_STOPWORDS = frozenset({"a", "an", "the", "on", "of", "in", "for", "to", "towards", "toward"})
# Macros that read or write files, run programs, (re)define commands or end the document: never kept, however
# they are spelled in a title. Citations and links are dropped too: they need packages a user may not load.
_UNSAFE = frozenset({"input", "include", "url", "href", "cite", "ref", "eqref", "cref", "Cref", "footnote"})
_KNOWN = frozenset(
    name
    for category in latex2text.get_default_latex_context_db().categories()
    for name in latex2text.get_default_latex_context_db().d[category]["macros"]
)
_TYPESETTING = {"texttt", "textsf", "textrm", "textnormal", "textsl", "textup", "mathsf", "mathtt", "mathit"}
_SAFE_MACROS = (_KNOWN | _TYPESETTING | {"mathbf", "boldsymbol", "operatorname", "LaTeX", "TeX"}) - _UNSAFE
_ENCODER = latexencode.UnicodeToLatexEncoder(
    conversion_rules=[
        latexencode.UnicodeToLatexConversionRule(
            latexencode.RULE_DICT, {ord("{"): r"\textbraceleft", ord("}"): r"\textbraceright"}
        ),
        "defaults",
    ],
    non_ascii_only=False,
    replacement_latex_protection="braces-all",
    unknown_char_policy="keep",
    unknown_char_warning=False,
)


@dataclass(frozen=True, slots=True)
class Bibliography:
    """A BibTeX document and how many of the asked-for papers had no title or no authors to cite."""

    text: str
    entries: int
    skipped: int


def citable(paper: Paper) -> bool:
    """A BibTeX entry needs a title and an author; a synthesized headline is not a title."""
    return bool(paper.title and paper.title.strip()) and any(name.strip() for name in paper.authors)


def cite_keys(papers: Iterable[Paper]) -> dict[str, str]:
    """A key per citable paper: `lovelace2024weak`, then `lovelace2024weak-2`, ... for others with that key.

    Pass every paper of the listings, not only the ones exported, so a paper keeps its key whatever is
    selected; papers sharing a key are numbered in the order of their ids, which do not change when the
    listings are reordered or extended (only a new paper with a smaller id and the same key moves them).
    """
    groups: defaultdict[str, list[str]] = defaultdict(list)
    for paper in papers:
        if citable(paper):
            groups[_base_key(paper)].append(paper.id)
    keys: dict[str, str] = {}
    for base, ids in groups.items():
        # A base key is [a-z0-9] only, so "-N" can never make one group's key equal another's.
        for number, paper_id in enumerate(sorted(ids), start=1):
            keys[paper_id] = base if number == 1 else f"{base}-{number}"
    return keys


def to_bibtex(papers: Sequence[Paper], keys: dict[str, str] | None = None) -> Bibliography:
    """BibTeX entries for the citable papers, in the order given.

    Args:
        papers: the papers to cite; the ones without a title or authors are counted in `skipped`.
        keys: from `cite_keys` over all the listings' papers (for keys that do not depend on the selection);
            by default made from `papers` alone.
    """
    citable_papers = [paper for paper in papers if citable(paper)]
    chosen = keys if keys is not None else cite_keys(citable_papers)
    entries = [_entry(paper, chosen[paper.id]) for paper in citable_papers]
    return Bibliography("".join(entries), len(entries), len(papers) - len(citable_papers))


def _entry(paper: Paper, key: str) -> str:
    fields = [("title", title_field(paper.title or "")), ("author", authors_field(paper.authors))]
    if paper.venue and _clean(paper.venue):
        fields.append(("booktitle", text_field(paper.venue)))
    if paper.year is not None and paper.year > 0:
        fields.append(("year", str(paper.year)))
    if paper.url and (url := url_field(paper.url)):
        fields.append(("url", url))
    kind = "inproceedings" if paper.venue and _clean(paper.venue) else "misc"
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    return f"@{kind}{{{key},\n{body}\n}}\n\n"


def _clean(text: str) -> str:
    """Untrusted text on one line with no control characters or escape sequences."""
    return " ".join(sanitize(text).split())


def text_field(text: str) -> str:
    """Plain text with every LaTeX special character (and non-ASCII letter) written as LaTeX."""
    return _encode(_clean(text))


def title_field(title: str) -> str:
    """The title with its safe LaTeX kept and protected from a style's case changes, and words with
    capitals inside them (acronyms, `GANs`, `ImageNet`) braced so a sentence-case style keeps them."""
    return _with_latex(title, title=True)


def authors_field(authors: Iterable[str]) -> str:
    """Names joined by " and " (safe LaTeX in them kept, as in titles); a name that itself contains "and"
    (a consortium) or too many commas is braced whole, so BibTeX reads it as one name."""
    names: list[str] = []
    for raw in authors:
        name = _clean(raw)
        if not name:
            continue
        written = _with_latex(name, title=False)
        names.append(f"{{{written}}}" if _AND.search(f" {name} ") or name.count(",") > 2 else written)
    return " and ".join(names)


def _with_latex(text: str, *, title: bool) -> str:
    pieces: list[str] = []
    for is_latex, piece in latex_spans.split(_clean(text), argspec):
        if is_latex and _safe_latex(piece):
            # pdfLaTeX reads no Unicode in math (`$ε$`): each such character as LaTeX works in both modes.
            pieces.append(_protect_latex(_NON_ASCII.sub(lambda match: _encode(match.group()), piece)))
        else:
            pieces.append(_words(piece) if title else _encode(piece))
    return "".join(pieces)


def url_field(url: str) -> str | None:
    """An http(s) URL with anything BibTeX or LaTeX would read (braces, backslashes, spaces, `%` aside)
    percent-encoded; None for any other scheme."""
    cleaned = _clean(url)
    if urlsplit(cleaned).scheme.lower() not in ("http", "https") or " " in cleaned:
        return None
    return quote(cleaned, safe=":/?#[]@!$&'()*+,;=%~-._")


def _words(text: str) -> str:
    if _NEEDS_ENCODING.search(text) is None:
        return _WORD.sub(_brace_word, text)  # the usual title: one pass, nothing to encode
    out: list[str] = []
    at = 0
    for match in _WORD.finditer(text):
        out.append(_encode(text[at : match.start()]))
        word = match.group()
        encoded = _encode(word)
        out.append(f"{{{encoded}}}" if _keeps_case(word) else encoded)
        at = match.end()
    out.append(_encode(text[at:]))
    return "".join(out)


def _brace_word(match: re.Match[str]) -> str:
    word = match.group()
    return f"{{{word}}}" if _keeps_case(word) else word


def _encode(text: str) -> str:
    """`text_field` without the clean-up (for pieces of text already cleaned, whose spaces matter)."""
    if _NEEDS_ENCODING.search(text) is None:
        return text  # most text is plain ASCII, which pylatexenc would return as it is, 100x slower
    return str(_ENCODER.unicode_to_latex(text))


def _keeps_case(word: str) -> bool:
    """Capitals a sentence-case style must not lower: inside a word (BERT, GANs), a lone letter (Q-learning),
    or a capital with digits (L2, GPT4)."""
    rest = word[1:]
    if rest.lower() != rest:
        return True
    if not word[0].isupper():
        return False
    return (not rest and word != "A") or not word.isalpha()


def _safe_latex(piece: str) -> bool:
    """Balanced (braces and `$`), no comment, parameter or alignment character, no `^^` trick, and only
    macros that typeset something."""
    if piece.startswith("$"):
        fence = "$$" if piece.startswith("$$") else "$"
        if len(piece) < 2 * len(fence) or not piece.endswith(fence):
            return False
    depth = 0
    for char in piece:
        depth += (char == "{") - (char == "}")
        if depth < 0:
            return False
    if depth or "^^" in piece:
        return False
    at = 0
    while at < len(piece):
        char = piece[at]
        if char == "\\":
            macro = _MACRO.match(piece, at)
            if macro is not None and macro.group(1) not in _SAFE_MACROS:
                return False
            at = macro.end() if macro is not None else at + 2
            continue
        if char in "%#&":
            return False
        at += 1
    return True


def _protect_latex(piece: str) -> str:
    """Braces that stop a style changing the case of kept LaTeX: math and groups are protected as they are
    once braced; a macro (`\\emph{Deep}`) is braced twice, because `{\\...}` alone is a BibTeX "special
    character" whose letters are still case-changed, which is only right for an accent (`{\\"o}`)."""
    if piece.startswith("{"):
        return piece
    if piece.startswith("$"):
        return f"{{{piece}}}"
    if not any(_keeps_case(word) for word in _WORD.findall(_MACRO.sub("", piece))):
        return f"{{{piece}}}"
    return f"{{{{{piece}}}}}"


def _base_key(paper: Paper) -> str:
    names = [name for name in paper.authors if name.strip()]
    year = str(paper.year) if paper.year is not None and paper.year > 0 else ""
    return f"{_last_name(names[0]) or 'anon'}{year}{_title_word(paper.title or '')}"


def _fold(text: str) -> str:
    """Lower-case ASCII letters and digits only: `Müller` -> `muller`, `李` -> ``."""
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text)
    return _NOT_KEY.sub("", text.lower())


def _for_key(text: str) -> str:
    """Text to take a key from: escape sequences would leave letters behind (`[31m`), so they go first."""
    return text if text.isprintable() else _clean(text)


def _last_name(name: str) -> str:
    name = _for_key(name)
    if "\\" in name or "{" in name:
        name = _LATEX_IN_NAME.sub("", name)
    if "," in name:
        return _fold(name.split(",", 1)[0])
    tokens = name.split()
    while len(tokens) > 1 and tokens[-1].lower() in _SUFFIXES:
        tokens.pop()
    return _fold(tokens[-1]) if tokens else ""


def _title_word(title: str) -> str:
    title = _TAG_PREFIX.sub("", title)
    text = to_plain(title) if needs_rendering(title) else _for_key(title)
    first = ""
    for word in _WORD.finditer(text):
        folded = _fold(word.group())
        if folded and folded not in _STOPWORDS:
            return folded
        first = first or folded
    return first
