"""Conversions between our plain records and lsprotocol types (one place for all of them)."""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from ascendc_lsp.diagnostics import Diagnostic, Fix
from ascendc_lsp.syntax.positions import Position, Span

_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}

SOURCE = "ascendc-lsp"


def to_range(span: Span) -> types.Range:
    return types.Range(
        start=types.Position(line=span.start.line, character=span.start.character),
        end=types.Position(line=span.end.line, character=span.end.character),
    )


def to_position(position: types.Position) -> Position:
    return Position(position.line, position.character)


def to_diagnostic(diagnostic: Diagnostic, uri: str) -> types.Diagnostic:
    """A diagnostic whose `data` carries the fixes and knowledge ids, so code actions only read it back."""
    data: dict[str, Any] = {"knowledge": diagnostic.knowledge, "fixes": [fix.to_json() for fix in diagnostic.fixes]}
    if diagnostic.category:
        data["category"] = diagnostic.category
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(uri=uri, range=to_range(item.span)), message=item.message
        )
        for item in diagnostic.related
    ]
    tag = f" [{diagnostic.category}]" if diagnostic.category else ""
    return types.Diagnostic(
        range=to_range(diagnostic.span),
        message=diagnostic.message + tag if diagnostic.code != "syntax" else diagnostic.message,
        severity=_SEVERITY.get(diagnostic.severity, types.DiagnosticSeverity.Warning),
        code=diagnostic.code,
        source=SOURCE,
        data=data,
        related_information=related or None,
    )


def fixes_from_diagnostic(diagnostic: types.Diagnostic) -> list[Fix]:
    data = diagnostic.data
    if not isinstance(data, dict):
        return []
    fixes: list[Fix] = []
    for raw in data.get("fixes", []) or []:
        try:
            fixes.append(Fix.from_json(raw))
        except (KeyError, TypeError, ValueError):
            continue
    return fixes


def to_workspace_edit(uri: str, fix: Fix, version: int | None = None) -> types.WorkspaceEdit:
    edits = [types.TextEdit(range=to_range(e.span), new_text=e.new_text) for e in fix.edits]
    document = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
    return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=document, edits=edits)])
