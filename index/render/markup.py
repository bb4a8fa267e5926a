"""Pre-passes that turn HTML, entities, markdown and stray TeX specials into input pylatexenc reads safely."""

from __future__ import annotations

import html
import re

from index.models import SpanStyle

# Style marks travel through pylatexenc as ordinary private-use characters and are turned into spans at the
# end, so one mechanism serves LaTeX macros, HTML tags and markdown alike. Input is scrubbed of this range
# first, so a listing cannot forge a span.
_STYLES: tuple[SpanStyle, ...] = ("bold", "italic", "math", "cite", "code", "link")
OPEN: dict[SpanStyle, str] = {style: chr(0xE000 + 2 * i) for i, style in enumerate(_STYLES)}
CLOSE: dict[SpanStyle, str] = {style: chr(0xE001 + 2 * i) for i, style in enumerate(_STYLES)}
MARK_STYLE: dict[str, tuple[SpanStyle, bool]] = {
    **{mark: (style, True) for style, mark in OPEN.items()},
    **{mark: (style, False) for style, mark in CLOSE.items()},
}
MARKS = re.compile("[\ue000-\ue00f]")

_TAG_STYLES: dict[str, SpanStyle] = {
    "i": "italic",
    "em": "italic",
    "b": "bold",
    "strong": "bold",
    "code": "code",
    "tt": "code",
}
# Only well-formed tags: "a<b and c>d" is a comparison, not a tag, so a bare `<b` never eats text.
_SIMPLE_TAG = re.compile(r"<(/?)(i|em|b|strong|code|tt|sub|sup|u|p|br|small|big)\s*/?>", re.IGNORECASE)
_ATTR_TAG = re.compile(
    r"""<(?:a|span|font|div|p)(?:\s+[\w-]{1,30}\s*=\s*(?:"[^"<>]{0,500}"|'[^'<>]{0,500}'))+\s*/?>"""
    r"|</(?:a|span|font|div)\s*>",
    re.IGNORECASE,
)
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_TEX_ACTIVE = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}"}
_TEX_WORDS = {"\\": r"\textbackslash{}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}

# A `$` starts math only if a closing `$` pairs with it. "$5 and $10" is money: the would-be math ends in a
# space or runs straight into a digit, which TeX authors never write but prices always do.
_BARE_PERCENT = re.compile(r"\\*[%&]")
_MACRO = re.compile(r"\\[A-Za-z]")
_MATH_REGION = re.compile(
    r"(?<!\\)\$\$.{0,4000}?(?<!\\)\$\$|(?<!\\)\$.{0,2000}?(?<!\\)\$|\\\(.{0,4000}?\\\)|\\\[.{0,4000}?\\\]",
    re.DOTALL,
)
# Markdown emphasis, bounded so unmatched openers in a long text cost linear time, never backtracking.
_MD_BOLD = re.compile(r"(?<![\w*\\])\*\*([^\s*](?:[^*]{0,300}?[^\s*\\])?)\*\*(?![\w*])")
_MD_ITALIC_STAR = re.compile(r"(?<![\w*\\])\*([^\s*](?:[^*]{0,300}?[^\s*\\])?)\*(?![\w*])")
_MD_BOLD_UNDER = re.compile(r"(?<![\w\\])__([^\s_](?:[^_]{0,300}?[^\s_\\])?)__(?!\w)")
_MD_ITALIC_UNDER = re.compile(r"(?<![\w\\])_([^\s_](?:[^_]{0,300}?[^\s_\\])?)_(?!\w)")
_LIGATURES = re.compile(r"---|--|``|''|~")
_LIGATURE = {"---": "—", "--": "–", "``": "“", "''": "”", "~": " "}
_MD_CODE = re.compile(r"(?<![`\\])`([^`'\n]{1,200})`(?!`)")


def _tag(match: re.Match[str]) -> str:
    style = _TAG_STYLES.get(match.group(2).lower())
    if style is None:
        return " " if match.group(2).lower() in ("p", "br") else ""
    return CLOSE[style] if match.group(1) else OPEN[style]


def html_to_marks(text: str) -> str:
    """Replace simple HTML tags by style marks (or nothing) and decode entities, keeping every word."""
    if "<" in text:
        text = _SIMPLE_TAG.sub(_tag, text)
        text = _ATTR_TAG.sub("", text)
    if "&" in text:
        text = _ENTITY.sub(_entity, text)
    return text


def _entity(match: re.Match[str]) -> str:
    """Decode one entity into TeX-safe text: a decoded `&` or `$` must not become alignment or math."""
    decoded = html.unescape(match.group(0))
    if decoded == match.group(0):
        return decoded
    return "".join(_TEX_ACTIVE.get(c) or _TEX_WORDS.get(c) or c for c in decoded)


def escape_stray_specials(text: str) -> str:
    """Escape `%` and `&` (always prose in an abstract) and every `$` that does not open real math."""
    if "%" in text or "&" in text:
        text = _BARE_PERCENT.sub(_escape_bare, text)
    if "$" not in text:
        return text
    out: list[str] = []
    pos = 0
    dollars = _unescaped(text, "$")
    index = 0
    while index < len(dollars):
        start = dollars[index]
        display = index + 1 < len(dollars) and dollars[index + 1] == start + 1
        step = 2 if display else 1
        close = index + step
        if display and close + 1 < len(dollars) and dollars[close + 1] == dollars[close] + 1:
            index = close + 2
            continue
        if not display and close < len(dollars) and _is_math(text, start, dollars[close]):
            index = close + 1
            continue
        out.append(text[pos:start] + "\\")
        pos = start
        index += 1
    out.append(text[pos:])
    return "".join(out)


def _unescaped(text: str, char: str) -> list[int]:
    """Positions of `char` not escaped by a backslash (str.find: the regex equivalent is 20x slower)."""
    found: list[int] = []
    index = text.find(char)
    while index >= 0:
        slashes = 0
        while index - slashes > 0 and text[index - slashes - 1] == "\\":
            slashes += 1
        if slashes % 2 == 0:
            found.append(index)
        index = text.find(char, index + 1)
    return found


def _escape_bare(match: re.Match[str]) -> str:
    """`%` after an even number of backslashes (none, or a `\\\\` line break) is bare and gets escaped."""
    run = match.group(0)
    return run if (len(run) - 1) % 2 else run[:-1] + "\\" + run[-1]


def _is_math(text: str, start: int, end: int) -> bool:
    inner = text[start + 1 : end]
    if not inner.strip() or end - start > 2000:
        return False
    if _MACRO.search(inner) is not None:
        return True  # "512$\times$1024": a macro is TeX even where a digit follows, prices have none
    after = text[end + 1 : end + 2]
    return not (after.isdigit() or (inner[0].isdigit() and inner[-1].isspace()))


def markdown_to_marks(text: str) -> str:
    """Turn markdown emphasis and code outside math into style marks; math keeps its `*` and `_`."""
    if "*" not in text and "_" not in text and "`" not in text:
        return text
    pieces: list[str] = []
    pos = 0
    for match in _MATH_REGION.finditer(text):
        pieces.append(_markdown(text[pos : match.start()]))
        pieces.append(match.group(0))
        pos = match.end()
    pieces.append(_markdown(text[pos:]))
    return "".join(pieces)


def _opens_emphasis(text: str, char: str) -> bool:
    """Whether some `char` could open emphasis (not mid-word, not escaped): cheaper than the full regexes."""
    index = text.find(char)
    while index >= 0:
        if index == 0 or not (text[index - 1].isalnum() or text[index - 1] in "_\\"):
            return True
        index = text.find(char, index + 1)
    return False


def _markdown(text: str) -> str:
    if "*" in text and _opens_emphasis(text, "*"):
        text = _MD_BOLD.sub(lambda m: f"{OPEN['bold']}{m.group(1)}{CLOSE['bold']}", text)
        text = _MD_ITALIC_STAR.sub(lambda m: f"{OPEN['italic']}{m.group(1)}{CLOSE['italic']}", text)
    if "_" in text and _opens_emphasis(text, "_"):
        text = _MD_BOLD_UNDER.sub(lambda m: f"{OPEN['bold']}{m.group(1)}{CLOSE['bold']}", text)
        text = _MD_ITALIC_UNDER.sub(lambda m: f"{OPEN['italic']}{m.group(1)}{CLOSE['italic']}", text)
    if "`" in text:
        text = _MD_CODE.sub(lambda m: f"{OPEN['code']}{m.group(1)}{CLOSE['code']}", text)
    return text


def ligatures(text: str) -> str:
    """TeX's text ligatures and ties: `---` em dash, `--` en dash, ``` `` ``` and `''` quotes, `~` a space."""
    if "-" not in text and "`" not in text and "'" not in text and "~" not in text:
        return text
    return _LIGATURES.sub(lambda m: _LIGATURE[m.group(0)], text)
