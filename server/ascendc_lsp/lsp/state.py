"""Open documents: each version's parsed document and (lazily) its model."""

from __future__ import annotations

from dataclasses import dataclass, field

from ascendc_lsp.checks.base import Finding
from ascendc_lsp.syntax.document import SourceDocument
from ascendc_lsp.syntax.model import DocumentModel, build_model


@dataclass
class DocumentState:
    uri: str
    document: SourceDocument
    findings: list[Finding] = field(default_factory=list)
    toolchain_findings: list[Finding] = field(default_factory=list)
    _model: DocumentModel | None = None

    @property
    def version(self) -> int:
        return self.document.version

    @property
    def model(self) -> DocumentModel:
        if self._model is None or self._model.document is not self.document:
            self._model = build_model(self.document)
        return self._model


class DocumentStore:
    """Parsed state per URI. Each change re-parses incrementally from the previous version."""

    def __init__(self) -> None:
        self._states: dict[str, DocumentState] = {}

    def open(self, uri: str, text: str, version: int, path: str = "") -> DocumentState:
        state = DocumentState(uri, SourceDocument(text, path=path, version=version))
        self._states[uri] = state
        return state

    def update(self, uri: str, text: str, version: int, path: str = "") -> DocumentState:
        previous = self._states.get(uri)
        if previous is None:
            return self.open(uri, text, version, path)
        document = SourceDocument(text, path=path or previous.document.path, version=version, previous=previous.document)
        state = DocumentState(uri, document, findings=previous.findings, toolchain_findings=previous.toolchain_findings)
        self._states[uri] = state
        return state

    def close(self, uri: str) -> None:
        self._states.pop(uri, None)

    def get(self, uri: str) -> DocumentState | None:
        return self._states.get(uri)

    def __contains__(self, uri: str) -> bool:
        return uri in self._states

    def uris(self) -> list[str]:
        return list(self._states)
