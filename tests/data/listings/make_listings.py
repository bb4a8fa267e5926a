"""Regenerate the listing-format test files: `python tests/data/listings/make_listings.py` (deterministic).

The files are committed, so tests never depend on this script; it shows exactly which bytes each file
holds. Every text variant carries the same three papers (PAPERS below) under the header HEADER, so a test
can check that line endings, encodings and blank-line styles change nothing but what they should.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
HEADER = "ICLR 2025 Papers"
# Each paper as its lines; the first is wrapped over two lines, as hand-edited listings often are.
PAPERS = [
    ["We study weak-to-strong generalization when the teacher is wrong", "in structured ways."],
    ["Diffusion models for tabular data with $\\alpha$-mixing and **bold** claims."],
    ["A single-line abstract about graph neural networks and message passing."],
]


def text(newline: str = "\n", separator: str = "", blank_lines: int = 1, final_newline: bool = True) -> str:
    """The three papers under the header, with the given line ending and blank-line style."""
    blank = (separator + newline) * blank_lines
    paragraphs = [HEADER, *(newline.join(lines) for lines in PAPERS)]
    body = (newline + blank).join(paragraphs)
    return body + (newline if final_newline else "")


def mixed() -> str:
    """\\n, \\r\\n and \\r all in one file, as a file edited on several systems ends up."""
    return f"{HEADER}\r\n\n{PAPERS[0][0]}\r{PAPERS[0][1]}\n\r\n{PAPERS[1][0]}\r\r{PAPERS[2][0]}\r\n"


def main() -> None:
    files: dict[str, bytes] = {
        "lf.txt": text().encode(),
        "crlf.txt": text("\r\n").encode(),
        "cr.txt": text("\r").encode(),
        "mixed_endings.txt": mixed().encode(),
        "bom_utf8.txt": b"\xef\xbb\xbf" + text().encode(),
        "utf16le.txt": b"\xff\xfe" + text("\r\n").encode("utf-16-le"),
        "utf16be.txt": b"\xfe\xff" + text().encode("utf-16-be"),
        "whitespace_separators.txt": text(separator=" \t  ").encode(),
        "blank_runs.txt": ("\n\n\n" + text(blank_lines=4) + "\n\n\n").encode(),
        "no_final_newline.txt": text(final_newline=False).encode(),
        "empty.txt": b"",
        "header_only.txt": f"{HEADER}\n\n\n".encode(),
        # Latin-1 bytes (0xe9 "é", 0xfc "ü") in the second paper, line 5: not UTF-8.
        "latin1.txt": text().replace("Diffusion", "Diff\xe9sion \xfcber").encode("latin-1"),
        # No header: the first paragraph is a long sentence, so it is a paper and the name is the file stem.
        "no_header.txt": text().split("\n\n", 1)[1].encode(),
        # Chinese header as in the bundled seeds.
        "chinese_header.txt": text().replace(HEADER, "NeurIPS 2026 论文列表").encode(),
        # A PNG signature and zeros: a picture dropped into the listings folder.
        "binary.txt": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8,
    }
    records: list[object] = [
        {
            "title": "Weak to strong",
            "authors": ["Ada Lovelace", "Alan Turing"],
            "abstract": " ".join(PAPERS[0]),
            "url": "https://example.org/1",
            "venue": "ICLR",
            "year": 2025,
            "status": "Oral",
            "extra": [1, 2],
        },
        {
            "title": "Tabular diffusion",
            "authors": "Grace Hopper; Edsger Dijkstra",
            "abstract": PAPERS[1][0],
            "venue": "ICLR",
            "year": "2025",
        },
        {"title": "No abstract here", "authors": "Nobody", "venue": "ICLR", "year": 2025},
        {
            "title": "GNNs",
            "authors": "Barbara Liskov, Donald Knuth, and Leslie Lamport",
            "abstract": PAPERS[2][0],
            "venue": "ICLR",
            "year": 2025,
        },
    ]
    files["records.json"] = (json.dumps(records, indent=2, ensure_ascii=False) + "\n").encode()
    lines = [json.dumps(record, ensure_ascii=False) for record in records]
    # Line 3 is cut off mid-record, line 4 has no abstract, line 5 is blank, line 7 has a blank abstract.
    lines.insert(2, '{"title": "Cut off", "abstract": "This line ends too ea')
    lines.insert(4, "")
    lines.append(json.dumps({"title": "Blank abstract", "abstract": "   ", "venue": "ICLR", "year": 2025}))
    files["records.jsonl"] = ("\n".join(lines) + "\n").encode()
    # Records from two venues: the listing keeps its file name.
    mixed_venues = [dict(records[0], venue="ICML", year=2024), records[1]]
    files["mixed_venues.jsonl"] = "\n".join(json.dumps(record) for record in mixed_venues).encode()
    # A missing comma between records 2 and 3, on line 4.
    files["invalid.json"] = (
        b'[\n  {"abstract": "One."},\n  {"abstract": "Two."}\n  {"abstract": "Three."}\n]\n'
    )
    # JSON Lines content under a .json name.
    files["mislabelled.json"] = "\n".join(json.dumps(record) for record in records[:2]).encode()
    files["not_array.json"] = b'"just a string"\n'
    for name, data in files.items():
        (HERE / name).write_bytes(data)


if __name__ == "__main__":
    main()
