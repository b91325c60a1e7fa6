"""Document symbols and hover."""

from __future__ import annotations

from typing import ClassVar

from lsprotocol import types

from ascendc_lsp.hardware.describe import describe, identifier_at
from ascendc_lsp.lsp.convert import to_position, to_range
from ascendc_lsp.lsp.features.base import LanguageFeature, Method
from ascendc_lsp.syntax.outline import OutlineItem, build_outline

_KINDS = {
    "kernel": types.SymbolKind.Function,
    "function": types.SymbolKind.Function,
    "method": types.SymbolKind.Method,
    "class": types.SymbolKind.Class,
    "struct": types.SymbolKind.Struct,
    "queue": types.SymbolKind.Field,
    "buffer": types.SymbolKind.Field,
    "pipe": types.SymbolKind.Object,
    "tiling": types.SymbolKind.Struct,
}


def _symbol(item: OutlineItem) -> types.DocumentSymbol:
    return types.DocumentSymbol(
        name=item.name,
        kind=_KINDS.get(item.kind, types.SymbolKind.Variable),
        detail=item.detail or None,
        range=to_range(item.span),
        selection_range=to_range(item.selection),
        children=[_symbol(child) for child in item.children] or None,
    )


class SymbolsFeature(LanguageFeature):
    methods: ClassVar[dict[str, Method]] = {types.TEXT_DOCUMENT_DOCUMENT_SYMBOL: Method("document_symbols")}

    def document_symbols(self, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        state = self.server.documents.get(params.text_document.uri)
        if state is None:
            return []
        return [_symbol(item) for item in build_outline(state.model)]


class HoverFeature(LanguageFeature):
    methods: ClassVar[dict[str, Method]] = {types.TEXT_DOCUMENT_HOVER: Method("hover")}

    def hover(self, params: types.HoverParams) -> types.Hover | None:
        state = self.server.documents.get(params.text_document.uri)
        if state is None:
            return None
        position = to_position(params.position)
        api_doc = None
        found = identifier_at(state.document, position)
        if found is not None:
            api_doc = self.server.api_hover(found[0])
        text = describe(state.model, position, self.server.settings.soc, self.server.soc_profile(), api_doc)
        if not text:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))
