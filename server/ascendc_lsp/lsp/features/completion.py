"""Completion: catalogue APIs filtered by context, with hardware-aware details, and kernel skeleton snippets.

Latency: a completion request usually arrives right after the didChange it follows, before the debounced diagnostics
pass has built the new document model. Building it costs ~20 ms on a 1,000-line file, so the request answers from
the model of the previous version when the current one is not built yet (lookups by name hardly change over one
edit; the context itself is always read from the current text); the diagnostics pass builds the new one.
"""

from __future__ import annotations

import logging
from typing import ClassVar

from lsprotocol import types

from ascendc_lsp.hardware.api_hover import api_markdown
from ascendc_lsp.hardware.completion import Candidate, complete, parse_snippet
from ascendc_lsp.lsp.convert import to_position
from ascendc_lsp.lsp.features.base import LanguageFeature, Method

log = logging.getLogger(__name__)

TRIGGER_CHARACTERS = [".", ":", "<"]

_KINDS = {
    "method": types.CompletionItemKind.Method,
    "function": types.CompletionItemKind.Function,
    "class": types.CompletionItemKind.Class,
    "macro": types.CompletionItemKind.Constant,
    "snippet": types.CompletionItemKind.Snippet,
    "enum-member": types.CompletionItemKind.EnumMember,
    "variable": types.CompletionItemKind.Variable,
    "field": types.CompletionItemKind.Field,
    "type": types.CompletionItemKind.TypeParameter,
}


def to_completion_item(candidate: Candidate, snippets: bool = True) -> types.CompletionItem:
    insert = candidate.insert_text or candidate.label
    is_snippet = candidate.snippet and snippets
    if candidate.snippet and not snippets:
        try:
            insert = parse_snippet(insert).text
        except ValueError:
            insert = candidate.label
    return types.CompletionItem(
        label=candidate.label,
        kind=_KINDS.get(candidate.kind, types.CompletionItemKind.Text),
        detail=candidate.detail or None,
        documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=candidate.documentation)
        if candidate.documentation
        else None,
        sort_text=candidate.sort_text,
        insert_text=insert,
        insert_text_format=types.InsertTextFormat.Snippet if is_snippet else types.InsertTextFormat.PlainText,
        tags=[types.CompletionItemTag.Deprecated] if candidate.deprecated else None,
        data={"api": candidate.api} if candidate.api else None,
    )


class CompletionFeature(LanguageFeature):
    methods: ClassVar[dict[str, Method]] = {
        types.TEXT_DOCUMENT_COMPLETION: Method(
            "completion",
            options=types.CompletionOptions(trigger_characters=TRIGGER_CHARACTERS, resolve_provider=True),
        ),
        types.COMPLETION_ITEM_RESOLVE: Method("resolve"),
    }

    def _snippet_support(self) -> bool:
        try:
            capabilities = self.server.client_capabilities.text_document
            item = capabilities.completion.completion_item if capabilities and capabilities.completion else None
            return bool(item and item.snippet_support)
        except Exception:
            return False

    def completion(self, params: types.CompletionParams) -> types.CompletionList:
        state = self.server.documents.get(params.text_document.uri)
        if state is None:
            return types.CompletionList(is_incomplete=False, items=[])
        trigger = None
        context = params.context
        if context is not None and context.trigger_kind == types.CompletionTriggerKind.TriggerCharacter:
            trigger = context.trigger_character
        # The diagnostics pass builds the current model (off the event loop); until then the newest built one serves.
        model = self.server.documents.recent_model(state.uri) or state.model
        result = complete(
            state.document,
            model,
            to_position(params.position),
            self.server.settings.soc,
            self.server.soc_profile(),
            trigger,
            self.server.documents.clean_model(state.uri),
        )
        snippets = self._snippet_support()
        return types.CompletionList(
            is_incomplete=False, items=[to_completion_item(c, snippets) for c in result.candidates]
        )

    def resolve(self, item: types.CompletionItem) -> types.CompletionItem:
        data = item.data
        api = data.get("api") if isinstance(data, dict) else None
        if isinstance(api, str) and item.documentation is None:
            text = api_markdown(api, self.server.settings.soc)
            if text:
                item.documentation = types.MarkupContent(kind=types.MarkupKind.Markdown, value=text)
        return item
