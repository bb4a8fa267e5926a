"""`safe_url`: which paper links the reader hands to the terminal as OSC 8 hyperlinks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from index.render.sanitize import URL_MAX, safe_url


@pytest.mark.parametrize(
    "url",
    [
        "https://example.org/1",
        "http://arxiv.org/abs/2401.00001v2",
        "https://openreview.net/forum?id=abc_123&noteId=x#top",
        "HTTPS://Example.org/Path",
        "https://user@host.org/",
        "https://example.org/π/ünïcode",
    ],
)
def test_http_and_https_links_are_kept(url: str) -> None:
    assert safe_url(url) == url


def test_surrounding_whitespace_is_forgiven() -> None:
    assert safe_url("  https://example.org/1\n") == "https://example.org/1"


@pytest.mark.parametrize(
    "url",
    [
        "",
        "javascript:alert(1)",
        "file:///etc/passwd",
        "ftp://example.org/x",
        "data:text/html,<b>x</b>",
        "example.org/no-scheme",
        "https://",
        "https:///path-without-host",
        "https://example.org/a b",  # a space: the visible text would end where the link does not
        'https://example.org/"quoted"',
        "https://example.org/'x'",
        "https://example.org/<x>",
        "https://example.org/\x1b]8;;https://evil.example\x07",  # an OSC 8 of its own
        "https://example.org/\x07bell",
        "https://example.org/\x9dc1-osc",
        "https://example.org/\x7fdel",
        "https://example.org/\u202etxt.exe",  # bidi override: shows one thing, links another
        "https://example.org/zero\u200bwidth",
        "https://example.org/" + "a" * URL_MAX,
    ],
)
def test_everything_else_is_refused(url: str) -> None:
    assert safe_url(url) is None


@given(st.text())
def test_an_accepted_url_has_no_byte_that_could_end_the_escape_sequence(text: str) -> None:
    url = safe_url("https://example.org/" + text)
    if url is not None:
        assert url.isprintable()
        assert not any(char in url for char in " \"'<>\\`\x1b\x07\x9c")
