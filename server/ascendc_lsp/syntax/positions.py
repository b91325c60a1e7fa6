"""Conversions between byte offsets (tree-sitter), LSP positions (UTF-16 code units) and lines.

This is the only module that knows about encodings: everything else asks it. AscendC sources often carry
Chinese comments, so a byte column and a UTF-16 column differ on many lines.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Position:
    """A zero-based LSP position: line and UTF-16 code-unit column."""

    line: int
    character: int


@dataclass(frozen=True, slots=True)
class Span:
    """A zero-based LSP range."""

    start: Position
    end: Position

    def to_json(self) -> dict[str, dict[str, int]]:
        return {
            "start": {"line": self.start.line, "character": self.start.character},
            "end": {"line": self.end.line, "character": self.end.character},
        }


def _utf16_len(text: str) -> int:
    # Characters outside the BMP take two UTF-16 code units.
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def _decode(data: bytes) -> str:
    """Buffer bytes as text: documents are encoded with surrogatepass, so a lone surrogate round-trips; a slice
    cut inside a character (or any other invalid byte) decodes with replacement instead of raising."""
    try:
        return data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace")


def utf16_len(text: str) -> int:
    """UTF-16 code units of `text` (the LSP column unit). Never raises: a lone surrogate counts as one unit,
    where `text.encode("utf-16-le")` would raise UnicodeEncodeError and lose the caller's result."""
    return len(text) if text.isascii() else _utf16_len(text)


def utf16_column(line_text: str, byte_column: int) -> int:
    """The UTF-16 column of a UTF-8 byte column in one line (a compiler's column): clamped, never raises."""
    if line_text.isascii():
        return min(max(0, byte_column), len(line_text))
    units = consumed = 0
    for ch in line_text:
        size = 1 if ch < "\x80" else 2 if ch < "\u0800" else 3 if ch < "\U00010000" else 4  # UTF-8 length
        if consumed + size > byte_column:
            break
        consumed += size
        units += 2 if size == 4 else 1
    return units


def position_of(text: str, offset: int) -> Position:
    """The LSP position of a str offset in `text` (O(offset): for a few positions, not per token)."""
    offset = min(max(0, offset), len(text))
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return Position(line, utf16_len(text[start:offset]))


class LineIndex:
    """Maps byte offsets of a UTF-8 buffer to LSP positions and back.

    Built once per document version in O(n); each conversion is O(log lines + line length).
    ASCII-only lines (the common case) convert without decoding.
    """

    __slots__ = ("_ascii", "_data", "_line_starts")

    def __init__(self, data: bytes) -> None:
        self._data = data
        starts = [0]
        find = data.find
        pos = find(b"\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = find(b"\n", pos + 1)
        self._line_starts = starts
        # Per-line "is ASCII" flags, filled lazily: 0 unknown, 1 ASCII, 2 not ASCII.
        self._ascii = bytearray(len(starts))

    @property
    def line_count(self) -> int:
        return len(self._line_starts)

    def line_start(self, line: int) -> int:
        line = min(max(line, 0), len(self._line_starts) - 1)
        return self._line_starts[line]

    def line_end(self, line: int) -> int:
        """Byte offset of the end of `line`, excluding its line break."""
        if line + 1 < len(self._line_starts):
            end = self._line_starts[line + 1] - 1
            if end > 0 and self._data[end - 1 : end] == b"\r":
                end -= 1
            return end
        return len(self._data)

    def line_of(self, offset: int) -> int:
        return bisect_right(self._line_starts, offset) - 1

    def position(self, offset: int) -> Position:
        """LSP position of a byte offset (clamped to the buffer)."""
        # Hot path (every model record gets a span): inlined, with an ASCII fast path.
        if offset < 0:
            offset = 0
        elif offset > len(self._data):
            offset = len(self._data)
        line = bisect_right(self._line_starts, offset) - 1
        start = self._line_starts[line]
        prefix = self._data[start:offset]
        if prefix.isascii():
            return Position(line, offset - start)
        return Position(line, _utf16_len(_decode(prefix)))

    def point_to_position(self, row: int, byte_column: int) -> Position:
        """LSP position of a tree-sitter point (row, byte column)."""
        if 0 <= row < len(self._ascii):
            flag = self._ascii[row]
            if flag == 0:
                start = self._line_starts[row]
                end = self._line_starts[row + 1] if row + 1 < len(self._line_starts) else len(self._data)
                flag = 1 if self._data[start:end].isascii() else 2
                self._ascii[row] = flag
            if flag == 1:
                return Position(row, byte_column)
        return Position(row, self.byte_column_to_utf16(row, byte_column))

    def byte_column_to_utf16(self, line: int, byte_column: int) -> int:
        start = self.line_start(line)
        prefix = self._data[start : start + byte_column]
        if prefix.isascii():
            return len(prefix)
        return _utf16_len(_decode(prefix))

    def offset(self, position: Position) -> int:
        """Byte offset of an LSP position; columns past the line end clamp to it (as LSP requires)."""
        if position.line >= len(self._line_starts):
            return len(self._data)
        if position.line < 0:
            return 0
        start = self._line_starts[position.line]
        end = self.line_end(position.line)
        raw = self._data[start:end]
        if raw.isascii():
            return start + min(max(position.character, 0), len(raw))
        units = 0
        consumed = 0
        # Documents are encoded with surrogatepass (a lone surrogate is 3 bytes, one UTF-16 unit); _decode keeps it.
        for ch in _decode(raw):
            if units >= position.character:
                break
            units += 2 if ord(ch) > 0xFFFF else 1
            consumed += len(ch.encode("utf-8", "surrogatepass"))
        return start + min(consumed, len(raw))

    def span(self, start_byte: int, end_byte: int) -> Span:
        return Span(self.position(start_byte), self.position(end_byte))
