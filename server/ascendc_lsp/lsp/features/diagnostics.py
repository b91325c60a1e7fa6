"""Diagnostics on every keystroke (debounced): syntax errors and hardware rules."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from lsprotocol import types

from ascendc_lsp.checks.engine import CheckOptions, check_document
from ascendc_lsp.hardware.budget import class_budgets, ub_capacity
from ascendc_lsp.lsp.convert import to_diagnostic
from ascendc_lsp.lsp.features.base import LanguageFeature
from ascendc_lsp.lsp.state import DocumentState
from ascendc_lsp.settings import Settings

log = logging.getLogger(__name__)

STATUS_NOTIFICATION = "ascendc/status"


class DiagnosticsFeature(LanguageFeature):
    def __init__(self, server: Any) -> None:
        super().__init__(server)
        self._pending: dict[str, asyncio.TimerHandle] = {}

    def document_opened(self, state: DocumentState) -> None:
        self._schedule(state.uri, delay=0.0)

    def document_changed(self, state: DocumentState) -> None:
        if self.server.settings.diagnostics.onType:
            self._schedule(state.uri, delay=self.server.settings.diagnostics.debounceMs / 1000)

    def document_saved(self, state: DocumentState) -> None:
        if not self.server.settings.diagnostics.onType:
            self._schedule(state.uri, delay=0.0)

    def document_closed(self, uri: str) -> None:
        handle = self._pending.pop(uri, None)
        if handle is not None:
            handle.cancel()
        self.server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def settings_changed(self, settings: Settings) -> None:
        for uri in self.server.documents.uris():
            self._schedule(uri, delay=0.0)

    def _schedule(self, uri: str, delay: float) -> None:
        handle = self._pending.pop(uri, None)
        if handle is not None:
            handle.cancel()
        loop = asyncio.get_running_loop()
        self._pending[uri] = loop.call_later(delay, self._run, uri)

    def _run(self, uri: str) -> None:
        self._pending.pop(uri, None)
        state = self.server.documents.get(uri)
        if state is None:  # closed while waiting
            return
        try:
            self.refresh(state)
        except Exception:
            log.exception("diagnostics failed for %s", uri)

    def refresh(self, state: DocumentState) -> None:
        settings = self.server.settings
        options = CheckOptions(soc_name=settings.soc, disabled_rules=frozenset(settings.diagnostics.disabledRules))
        state.findings = check_document(state.document, options, model=state.model)
        self.publish(state)
        self._send_status(state)

    def publish(self, state: DocumentState) -> None:
        findings = state.findings + state.toolchain_findings
        self.server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=state.uri,
                version=state.version,
                diagnostics=[to_diagnostic(f, state.uri) for f in findings],
            )
        )

    def _send_status(self, state: DocumentState) -> None:
        soc = self.server.soc_profile()
        ub_bytes, reserved = ub_capacity(soc)
        budgets = class_budgets(state.model)
        used = max((b.total("UB") for b in budgets), default=0)
        self.server.protocol.notify(
            STATUS_NOTIFICATION,
            {
                "uri": state.uri,
                "soc": self.server.settings.soc,
                "ubUsedBytes": used,
                "ubCapacityBytes": ub_bytes - reserved,
            },
        )
