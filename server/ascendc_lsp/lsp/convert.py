"""Conversions between our plain records and lsprotocol types (one place for all of them)."""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from ascendc_lsp.checks.base import Finding, Fix
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


def to_diagnostic(finding: Finding, uri: str) -> types.Diagnostic:
    """A diagnostic whose `data` carries the fixes and knowledge ids, so code actions only read it back."""
    data: dict[str, Any] = {"knowledge": finding.knowledge, "fixes": [fix.to_json() for fix in finding.fixes]}
    if finding.category:
        data["category"] = finding.category
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(uri=uri, range=to_range(item.span)), message=item.message
        )
        for item in finding.related
    ]
    tag = f" [{finding.category}]" if finding.category else ""
    return types.Diagnostic(
        range=to_range(finding.span),
        message=finding.message + tag if finding.code != "syntax" else finding.message,
        severity=_SEVERITY.get(finding.severity, types.DiagnosticSeverity.Warning),
        code=finding.code,
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
