"""Small helpers that build the edits of quick fixes, and `apply_edits` to test them.

All positions are LSP positions (UTF-16 columns); conversions go through `ascendc_lsp.syntax.positions`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ascendc_lsp.diagnostics import Fix, TextEdit
from ascendc_lsp.syntax.document import SourceDocument
from ascendc_lsp.syntax.positions import LineIndex, Position, Span


def apply_edits(text: str, edits: Iterable[TextEdit]) -> str:
    """The text with non-overlapping edits applied (as an LSP client applies a WorkspaceEdit)."""
    data = text.encode("utf-8", errors="surrogatepass")
    lines = LineIndex(data)
    resolved = []
    for order, edit in enumerate(edits):
        start = lines.offset(edit.span.start)
        end = max(start, lines.offset(edit.span.end))
        resolved.append((start, end, order, edit.new_text.encode("utf-8", errors="surrogatepass")))
    # Apply from the end so earlier offsets stay valid; equal starts keep their given order.
    for start, end, _order, new in sorted(resolved, key=lambda r: (r[0], r[2]), reverse=True):
        data = data[:start] + new + data[end:]
    return data.decode("utf-8", errors="surrogatepass")


def replace(document: SourceDocument, start_byte: int, end_byte: int, new_text: str) -> TextEdit:
    return TextEdit(document.lines.span(start_byte, end_byte), new_text)


def insert_at(document: SourceDocument, offset: int, new_text: str) -> TextEdit:
    position = document.lines.position(offset)
    return TextEdit(Span(position, position), new_text)


def line_indent(document: SourceDocument, offset: int) -> str:
    line = document.lines.line_of(offset)
    start = document.lines.line_start(line)
    end = document.lines.line_end(line)
    raw = document.data[start:end].decode("utf-8", errors="replace")
    return raw[: len(raw) - len(raw.lstrip(" \t"))]


def insert_line_after(document: SourceDocument, offset: int, line_text: str, indent: str | None = None) -> TextEdit:
    """Insert `line_text` as a new line after the line holding `offset`, indented like that line."""
    line = document.lines.line_of(offset)
    prefix = line_indent(document, offset) if indent is None else indent
    end = document.lines.line_end(line)
    position = document.lines.position(end)
    return TextEdit(Span(position, position), "\n" + prefix + line_text)


_INCLUDE_LINE = re.compile(rb"^[ \t]*#[ \t]*include\b[^\n]*$", re.MULTILINE)


def after_includes_offset(document: SourceDocument) -> int | None:
    """Byte offset of the end of the last top-of-file `#include` line, or None when there is none."""
    last = None
    for match in _INCLUDE_LINE.finditer(document.data):
        last = match.end()
    return last


def add_line_after_includes(document: SourceDocument, line_text: str) -> TextEdit:
    """Insert a line after the last #include, or at the top of the file when there is none."""
    offset = after_includes_offset(document)
    if offset is None:
        return TextEdit(Span(Position(0, 0), Position(0, 0)), line_text + "\n")
    return insert_at(document, offset, "\n" + line_text)


def fix(title: str, *edits: TextEdit) -> Fix:
    return Fix(title, tuple(edits))
