"""Opening a listing as text whatever its encoding, line endings or damage, streamed line by line."""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

SAMPLE_BYTES = 8192
# A text file has a few control characters at most (tabs, form feeds, stray escapes); past this share of
# the first few kilobytes the file is a PDF, an archive or an image that was put in the listings folder.
BINARY_CONTROL_SHARE = 0.3

_BOMS: tuple[tuple[bytes, str], ...] = (
    # UTF-32 before UTF-16: the UTF-32-LE mark begins with the UTF-16-LE one.
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
# Undecodable UTF-8 bytes come through `surrogateescape` as lone surrogates, which valid UTF-8 never yields:
# that tells real damage apart from a U+FFFD the author actually wrote.
_ESCAPED_BYTES = re.compile("[\udc80-\udcff]")
_TEXT_CONTROLS = frozenset("\t\n\r\x0b\x0c\x1b")


class NotText(Exception):
    """The file cannot be read as a text listing; the message says why, for a one-line notice."""


def sniff_encoding(sample: bytes) -> str:
    """UTF-8 unless a byte-order mark says otherwise: listings come from the web, where UTF-8 rules."""
    for bom, encoding in _BOMS:
        if sample.startswith(bom):
            return encoding
    return "utf-8"


def looks_binary(sample: bytes, encoding: str) -> bool:
    """NUL characters, or mostly control characters, mean this is not a text file."""
    text = sample.decode(encoding, errors="replace")
    if "\x00" in text:
        return True
    if not text:
        return False
    controls = sum(1 for char in text if (char < " " and char not in _TEXT_CONTROLS) or char == "\ufffd")
    return controls / len(text) > BINARY_CONTROL_SHARE


class TextLines:
    """The decoded lines of a file, any of \\n, \\r\\n or \\r ending a line, without building a list of them.

    Undecodable bytes become U+FFFD; `first_bad_line` remembers where the first one was so the caller can
    warn once per file instead of once per line.
    """

    def __init__(self, path: Path) -> None:
        try:
            raw = open(path, "rb")  # noqa: SIM115 - closed by close()/__exit__, the stream outlives this call
        except OSError as error:
            raise NotText(f"cannot read: {error.strerror or error}") from error
        try:
            sample = raw.peek(SAMPLE_BYTES)[:SAMPLE_BYTES]
        except OSError as error:
            raw.close()
            raise NotText(f"cannot read: {error.strerror or error}") from error
        self.encoding = sniff_encoding(sample)
        if looks_binary(sample, self.encoding):
            raw.close()
            raise NotText("binary data, not a text listing; skipped")
        self._utf8 = self.encoding.startswith("utf-8")
        errors = "surrogateescape" if self._utf8 else "replace"
        # newline=None: universal newlines, so a lone \r ends a line just like \n and \r\n do.
        self._stream = io.TextIOWrapper(raw, encoding=self.encoding, errors=errors, newline=None)
        self.first_bad_line: int | None = None
        self.lines_read = 0

    def __iter__(self) -> Iterator[str]:
        """Each line with its line break removed."""
        try:
            for line in self._stream:
                self.lines_read += 1
                yield self._clean(line.rstrip("\n"))
        except OSError as error:
            raise NotText(f"cannot read past line {self.lines_read}: {error.strerror or error}") from error

    def read_all(self) -> str:
        """The whole decoded text with line breaks as \\n, for formats (JSON) that must be parsed at once."""
        try:
            text = self._stream.read()
        except OSError as error:
            raise NotText(f"cannot read: {error.strerror or error}") from error
        self.lines_read = 1
        text = self._clean(text)
        self.lines_read = text.count("\n") + 1
        return text

    def _clean(self, text: str) -> str:
        """Turn damage into U+FFFD, noting the line (counted from `lines_read`) where it first shows."""
        if self._utf8:
            if text.isascii():
                return text
            try:
                text.encode("utf-8")  # a C-speed check: only the lone surrogates of bad bytes fail it
                return text
            except UnicodeEncodeError:
                pass
            found = _ESCAPED_BYTES.search(text)
            if found is None:
                return text
            position = found.start()
            text = _ESCAPED_BYTES.sub("\ufffd", text)
        else:
            # UTF-16/32 damage (an odd trailing byte, a lone surrogate) is rare; `replace` cannot tell it
            # from a real U+FFFD, so such files are told about both.
            position = text.find("\ufffd")
            if position < 0:
                return text
        if self.first_bad_line is None:
            self.first_bad_line = max(self.lines_read, 1) + text.count("\n", 0, position)
        return text

    @property
    def bad_bytes_message(self) -> str | None:
        """The one warning a damaged file earns, or None."""
        if self.first_bad_line is None:
            return None
        expected = "UTF-8" if self._utf8 else self.encoding.upper()
        return (
            f"bytes that are not valid {expected} (first on line {self.first_bad_line}) were replaced "
            "with U+FFFD; re-save the file as UTF-8"
        )

    def close(self) -> None:
        self._stream.close()

    def __enter__(self) -> TextLines:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
