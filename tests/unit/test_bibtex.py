"""`papers export --format bibtex`: valid entries (parsed back by bibtexparser), stable keys, safe LaTeX."""

from __future__ import annotations

import re
from pathlib import Path

import bibtexparser
import pytest
from bibtexparser.middlewares import LatexDecodingMiddleware, SeparateCoAuthors

from index.listings.catalog import load_catalog
from index.models import Paper
from index.state import bibtex
from index.state.bibtex import authors_field, cite_keys, title_field, to_bibtex, url_field
from tests.conftest import DATA, run_papers

LISTINGS = DATA / "multivenue"
CATALOG = load_catalog([LISTINGS])
BY_TITLE = {paper.title: paper for paper in CATALOG.papers if paper.title}
KEY = re.compile(r"[a-z0-9]+(?:-[0-9]+)?")


def _paper(paper_id: str, title: str | None, authors: tuple[str, ...]) -> Paper:
    return Paper(id=paper_id, headline=title or "", abstract="x", sources=(), title=title, authors=authors)


def _balanced(value: str) -> bool:
    """Braces as BibTeX counts them: every one, escaped or not."""
    depth = 0
    for char in value:
        depth += (char == "{") - (char == "}")
        if depth < 0:
            return False
    return depth == 0


def _export(*args: str, data: Path) -> tuple[str, str]:
    result = run_papers(
        "export", "--format", "bibtex", "--listings", str(LISTINGS), "--data-dir", str(data), *args
    )
    assert result.returncode == 0, result.stderr
    return result.stdout, result.stderr


def _parse(text: str) -> bibtexparser.Library:
    parsed = bibtexparser.parse_string(text)
    assert parsed.failed_blocks == []
    return parsed


def test_export_writes_valid_entries_for_papers_with_title_and_authors(tmp_path: Path) -> None:
    out, err = _export(data=tmp_path / "data")
    raw = _parse(out)
    # Two papers have no authors or no title: left out, and said so in one line.
    assert len(raw.entries) == len(CATALOG.papers) - 2
    assert err.splitlines() == [
        "papers: warning: skipped 2 papers without a title or authors (BibTeX needs both)"
    ]
    keys = [entry.key for entry in raw.entries]
    assert len(set(keys)) == len(keys) and all(KEY.fullmatch(key) for key in keys)
    for entry in raw.entries:
        assert all(_balanced(field.value) for field in entry.fields), entry.key
        assert entry.entry_type == "inproceedings"
        assert {"title", "author", "booktitle", "year", "url"} <= set(entry.fields_dict)

    fields = {entry.key: {f.key: f.value for f in entry.fields} for entry in raw.entries}
    gans = fields["muller2024gans"]
    assert gans["title"] == "The {GANs} of Tabular Data"  # a sentence-case style keeps the acronym
    assert gans["author"] == 'J{\\"o}rg M{\\"u}ller and Ana {\\~N}{\\\'u}{\\~n}ez'
    assert gans["booktitle"] == "NeurIPS" and gans["year"] == "2024"
    assert fields["hopper2024diffusion"]["title"] == "Diffusion Schedules for {$\\alpha$}-Mixing Processes"
    assert fields["lattimore2024bandits"]["title"] == "Bandits with {BERT} Features"
    assert fields["sutton2023q"]["title"] == "{Q}-learning with {L2} Penalties {\\&} 50{\\%} Less Data"
    # LaTeX that would read a file when the bibliography is typeset is written as text, not kept.
    assert "\\input{" not in fields["hacker2023study"]["title"]
    # A consortium's name holds "and": braced, so BibTeX reads one name, not two.
    assert fields["scholkopf2023sharp"]["author"].endswith(" and {Research and Development Team}")
    assert fields["anon2025vision"]["author"] == "李 明 and Alexey Dosovitskiy"

    # Read back as a citation manager would, the text is the listing's.
    decoded = bibtexparser.parse_string(out, append_middleware=[LatexDecodingMiddleware()])
    plain = {entry.key: entry for entry in decoded.entries}
    assert plain["muller2024gans"]["author"] == "Jörg Müller and Ana Ñúñez"
    assert plain["sutton2023q"]["title"] == "Q-learning with L2 Penalties & 50% Less Data"
    assert plain["lovelace2024attention"]["author"] == "Lovelace, Ada"
    split = bibtexparser.parse_string(out, append_middleware=[SeparateCoAuthors()])
    assert {entry.key: entry["author"] for entry in split.entries}["lovelace2024attention-2"] == [
        "Ada Lovelace",
        "Alan Turing",
    ]


def test_keys_are_stable_whatever_is_selected(tmp_path: Path) -> None:
    data = tmp_path / "data"
    everything = {
        entry.fields_dict["url"].value: entry.key for entry in _parse(_export(data=data)[0]).entries
    }
    # Two papers would both be lovelace2024attention: the one with the smaller id keeps the bare key.
    first, second = sorted(
        (BY_TITLE["Attention Over Graph Neural Networks"], BY_TITLE["Attention over graphs"]),
        key=lambda paper: paper.id,
    )
    assert everything[first.url] == "lovelace2024attention"
    assert everything[second.url] == "lovelace2024attention-2"

    assert run_papers("star", second.id, "--listings", str(LISTINGS), "--data-dir", str(data)).returncode == 0
    later = BY_TITLE["Bandits with {BERT} Features"]
    tagged = run_papers("tag", later.id, "later", "--listings", str(LISTINGS), "--data-dir", str(data))
    assert tagged.returncode == 0, tagged.stderr
    starred, err = _export("--starred", data=data)
    assert err == ""
    assert [entry.key for entry in _parse(starred).entries] == ["lovelace2024attention-2"]
    (entry,) = _parse(_export("--tag", "later", data=data)[0]).entries
    assert entry.key == everything[later.url] == "lattimore2024bandits"
    assert _export(data=data)[0] == _export(data=data)[0]


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Weak to strong", "Weak to strong"),
        ("Scaling ImageNet with GPT4", "Scaling {ImageNet} with {GPT4}"),
        ("A Study of {BERT}", "A Study of {BERT}"),
        ('Schr\\"odinger Bridges', 'Schr{\\"o}dinger Bridges'),
        ("Deep \\textsc{Deep} nets", "Deep {\\textsc{Deep}} nets"),
        ("Read \\textsc{NLP} now", "Read {{\\textsc{NLP}}} now"),
        ("Costs $O(n)$", "Costs {$O(n)$}"),
        ("$q\\texttt{POTS}$: Fast", "{$q\\texttt{POTS}$}: Fast"),
        ("With $ε$-Loss", "With {${\\ensuremath{\\varepsilon}}$}-Loss"),  # pdfLaTeX reads no Unicode in math
        ("[Spotlight] Deep {GANs}", "[Spotlight] Deep {GANs}"),
        # Unsafe or broken LaTeX is written as text: an unclosed $, a comment, a file read, ^^ tricks.
        ("Cost $x", "Cost {\\$}x"),
        ("Half $a % b$", "Half {\\$}a {\\%} b{\\$}"),
        ("$^^5cinput$", "{\\$}{\\textasciicircum}{\\textasciicircum}5cinput{\\$}"),
        ("Open {brace", "Open {\\textbraceleft}brace"),
        ("\x1b]52;c;aGk=\x07Clip\x1b[2J board", "Clip board"),
        ("Tab\tand\nnewline", "Tab and newline"),
    ],
)
def test_title_field(title: str, expected: str) -> None:
    value = title_field(title)
    assert value == expected
    assert _balanced(value)
    assert "\x1b" not in value and "\x07" not in value


def test_authors_and_urls() -> None:
    assert authors_field(["Ada Lovelace", " ", "Alan\x1b[31m Turing"]) == "Ada Lovelace and Alan Turing"
    assert authors_field(["Smith, Jr., John, Extra"]) == "{Smith, Jr., John, Extra}"
    assert authors_field(["A_B {C"]) == "A{\\_}B {\\textbraceleft}C"
    assert authors_field(["Cl\\'emen\\c{c}on", "Cl\\'emen\\con"]) == (
        "Cl{\\'e}men{\\c{c}}on and Cl{\\'e}men{\\textbackslash}con"  # a LaTeX accent kept, a broken one not
    )
    assert url_field("https://example.org/a?b=1&c={d}\\e") == "https://example.org/a?b=1&c=%7Bd%7D%5Ce"
    assert url_field("javascript:alert(1)") is None
    assert url_field("ftp://example.org/x") is None
    assert url_field("https://example.org/a b") is None


def test_keys_fold_to_ascii_and_do_not_depend_on_order() -> None:
    papers = [
        _paper("b2", "The Elements of Learning", ("Jörg Müller Jr.",)),
        _paper("a1", "Elements", ("Müller, J.",)),
        _paper("c3", "$\\alpha$-Nets", ('Q. Z\\"ahl',)),
        _paper("d4", "On", ("李 明",)),
        _paper("g7", "[Oral] [2024] The Way", ("Ann \x1b[31mRed",)),
        _paper("e5", None, ("No Title",)),
        _paper("f6", "No authors", ()),
    ]
    keys = cite_keys(papers)
    assert keys == {
        "a1": "mullerelements",
        "b2": "mullerelements-2",
        "c3": "zahlnets",
        "d4": "anonon",
        "g7": "redway",
    }
    keys_reversed = cite_keys(list(reversed(papers)))
    assert keys_reversed == keys
    bibliography = to_bibtex(papers[::-1])
    assert (bibliography.entries, bibliography.skipped) == (5, 2)
    assert "@misc{anonon,\n  title = {On},\n  author = {李 明}\n}\n\n@misc{zahlnets," in bibliography.text


def test_the_fast_path_skips_only_what_pylatexenc_leaves_alone() -> None:
    """Printable ASCII outside `_NEEDS_ENCODING` is returned as it is without asking pylatexenc: it must be
    exactly what pylatexenc returns unchanged."""
    for code in range(0x20, 0x7F):
        char = chr(code)
        unchanged = bibtex._ENCODER.unicode_to_latex(char) == char
        assert unchanged == (bibtex._NEEDS_ENCODING.search(char) is None), repr(char)
