"""Unicode superscripts and subscripts for math, with a readable ASCII form where Unicode has no glyph."""

from __future__ import annotations

_SUPER = dict(
    zip(
        "0123456789+-−=()niabcdefghjklmoprstuvwxyzABDEGHIJKLMNOPRTUVWαβγδεθφχ⊤*′'∗",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱᵃᵇᶜᵈᵉᶠᵍʰʲᵏˡᵐᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵅᵝᵞᵟᵋᶿᵠᵡᵀ*′′*",
        strict=True,
    )
)
_SUB = dict(
    zip(
        "0123456789+-−=()aehijklmnoprstuvxβγρφχ",
        "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ",
        strict=True,
    )
)
_MARKS = range(0xE000, 0xE010)


def script(text: str, marker: str) -> str:
    """Render `text` raised (`marker` "^") or lowered ("_"): x² and xᵢ when every character has a glyph.

    Otherwise keep the TeX reading, x_ij or e^(-x/2), because a half-converted script is harder to read.
    """
    table = _SUPER if marker == "^" else _SUB
    compact = "".join(text.split())
    if not compact:
        return ""
    if all(c in table or ord(c) in _MARKS for c in compact):
        return "".join(table.get(c, c) for c in compact)
    inner = " ".join(text.split())
    if len(inner) == 1 or inner.isalnum():
        return marker + inner
    return f"{marker}({inner})"
