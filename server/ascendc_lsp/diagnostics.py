"""The one diagnostic type, from the checks and the toolchain to the CLI and the LSP.

A rule's finding, a compiler error, an emulator runtime check and a failed comparison are all a `Diagnostic`:
a range (0-based line, UTF-16 character, as in LSP), a severity, a code, a message, the taxonomy category and
the knowledge entries that explain it, plus what some producers add: mechanical fixes and related locations
(the checks), the file the range refers to, the producer (`source`) and backend details (`data`, the
toolchain). `to_json()` is its one JSON conversion (docs/architecture.md, "Shapes that cross layers"); the
SARIF conversion lives in `checks/command.py` and the LSP one in `lsp/convert.py`.

It sits just above `syntax/` (for `Span`) so that every layer from `hardware/` up may use it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, cast

from ascendc_lsp.syntax.positions import Position, Span

Severity = Literal["error", "warning", "information", "hint"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "information", "hint")

# The range of a diagnostic that has no place in a file (a missing tool, a spec problem): its first character.
NOWHERE = Span(Position(0, 0), Position(0, 0))


def severity_of(text: str) -> Severity:
    """`text` as a severity; anything unknown counts as an error (the safe reading of a producer's typo)."""
    return cast(Severity, text) if text in SEVERITIES else "error"


def span_at(line: int, character: int = 0, end_line: int | None = None, end_character: int | None = None) -> Span:
    """A range from a producer's line/column numbers (already 0-based, UTF-16): negative numbers clamp to 0 and a
    missing end is the start."""
    start = Position(max(0, line), max(0, character))
    end = Position(
        max(0, line if end_line is None else end_line), max(0, character if end_character is None else end_character)
    )
    return Span(start, end)


@dataclass(frozen=True, slots=True)
class TextEdit:
    span: Span
    new_text: str

    def to_json(self) -> dict[str, Any]:
        return {"range": self.span.to_json(), "newText": self.new_text}


@dataclass(frozen=True, slots=True)
class Fix:
    """A mechanical fix: a titled set of edits to the same document."""

    title: str
    edits: tuple[TextEdit, ...]

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "edits": [e.to_json() for e in self.edits]}

    @staticmethod
    def from_json(raw: dict[str, Any]) -> Fix:
        edits = []
        for edit in raw.get("edits", []):
            r = edit["range"]
            span = Span(
                Position(int(r["start"]["line"]), int(r["start"]["character"])),
                Position(int(r["end"]["line"]), int(r["end"]["character"])),
            )
            edits.append(TextEdit(span, str(edit["newText"])))
        return Fix(str(raw["title"]), tuple(edits))


@dataclass(frozen=True, slots=True)
class Related:
    """Another place in the same document that explains a diagnostic (the buffer's declaration, the other pipe)."""

    span: Span
    message: str


@dataclass(slots=True, kw_only=True)
class Diagnostic:
    """One diagnostic (module docstring). `source` is None for the checks' findings (the LSP publishes them under
    its own name) and names the producer for the toolchain's (`ascendc-emulator`, `ascendc-cann`...)."""

    message: str
    span: Span = NOWHERE
    severity: Severity = "error"
    code: str = ""
    category: str | None = None
    knowledge: list[str] = field(default_factory=list)
    fixes: list[Fix] = field(default_factory=list)
    related: list[Related] = field(default_factory=list)
    file: str | None = None  # the file the range refers to (the kernel source, a tiling header, the spec)
    source: str | None = None
    data: dict[str, Any] = field(default_factory=dict)  # backend details: check name, errorStr, block, pipe...

    def to_json(self) -> dict[str, Any]:
        """The diagnostic JSON shape. Optional keys appear only when set, except `category`, which a toolchain
        diagnostic (one with a `source`) always carries, null when unknown: the `run` shape has always had it."""
        out: dict[str, Any] = {
            "range": self.span.to_json(),
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "knowledge": list(self.knowledge),
        }
        if self.category is not None or self.source is not None:
            out["category"] = self.category
        if self.source is not None:
            out["source"] = self.source
        if self.file is not None:
            out["file"] = self.file
        if self.data:
            out["data"] = dict(self.data)
        if self.fixes:
            out["fixes"] = [f.to_json() for f in self.fixes]
        return out
