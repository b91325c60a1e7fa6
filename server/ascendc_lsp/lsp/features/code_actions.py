"""Quick fixes: the fixes each diagnostic carries in its `data`, read back as workspace edits."""

from __future__ import annotations

from typing import ClassVar

from lsprotocol import types

from ascendc_lsp.lsp.convert import SOURCE, fixes_from_diagnostic, to_workspace_edit
from ascendc_lsp.lsp.features.base import LanguageFeature, Method
from ascendc_lsp.lsp.protocol import SHOW_ENTRY_FIX


class CodeActionsFeature(LanguageFeature):
    methods: ClassVar[dict[str, Method]] = {
        types.TEXT_DOCUMENT_CODE_ACTION: Method(
            "code_actions",
            options=types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
        )
    }

    def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        state = self.server.documents.get(uri)
        if state is None:
            return []
        actions: list[types.CodeAction] = []
        for diagnostic in params.context.diagnostics:
            if diagnostic.source != SOURCE:
                continue
            fixes = fixes_from_diagnostic(diagnostic)
            for fix in fixes:
                actions.append(
                    types.CodeAction(
                        title=fix.title,
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[diagnostic],
                        edit=to_workspace_edit(uri, fix, state.version),
                        is_preferred=len(actions) == 0,
                    )
                )
            if not fixes:
                # No mechanical edit: offer the explaining knowledge entry's before/after instead.
                for entry_id in _knowledge_ids(diagnostic)[:1]:
                    actions.append(
                        types.CodeAction(
                            title=f"Show how to fix: knowledge entry '{entry_id}'",
                            kind=types.CodeActionKind.QuickFix,
                            diagnostics=[diagnostic],
                            command=types.Command(
                                title="Show the entry's fix", command=SHOW_ENTRY_FIX.id, arguments=[{"entryId": entry_id}]
                            ),
                        )
                    )
        return actions


def _knowledge_ids(diagnostic: types.Diagnostic) -> list[str]:
    data = diagnostic.data
    if not isinstance(data, dict):
        return []
    return [str(i) for i in data.get("knowledge", []) or [] if isinstance(i, str)]
