"""Diagnostics on every keystroke (debounced): syntax errors and hardware rules."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from lsprotocol import types

from ascendc_lsp.checks.base import Finding
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
        self._last_run: dict[str, float] = {}
        self._running: set[str] = set()
        self._rerun: set[str] = set()

    def document_opened(self, state: DocumentState) -> None:
        self._schedule(state.uri, delay=0.0)

    def document_changed(self, state: DocumentState) -> None:
        if not self.server.settings.diagnostics.onType:
            return
        # Leading-edge debounce: the first edit after a quiet period runs at once; edits arriving
        # within the debounce window of a run (a burst of typing or a paste) are coalesced.
        debounce = self.server.settings.diagnostics.debounceMs / 1000
        now = asyncio.get_running_loop().time()
        quiet = state.uri not in self._pending and now - self._last_run.get(state.uri, 0.0) >= debounce
        self._schedule(state.uri, delay=0.0 if quiet else debounce)

    def document_saved(self, state: DocumentState) -> None:
        if not self.server.settings.diagnostics.onType:
            self._schedule(state.uri, delay=0.0)
        if state.document.path:
            # An op test case next to the kernel: its host TilingFunc runs now (off the event loop, cached by
            # content), never on a keystroke; the check that follows folds its values in.
            asyncio.get_running_loop().create_task(self._compute_values(state))

    async def _compute_values(self, state: DocumentState) -> None:
        from pathlib import Path

        from ascendc_lsp.checks.concrete import attached_test_case_values
        from ascendc_lsp.checks.project import clear_cache, project_context

        if state.document.path is None or project_context(state.document.path).known is not None:
            return
        try:
            values = await asyncio.to_thread(attached_test_case_values, Path(state.document.path), True)
        except Exception:
            log.exception("cannot compute the tiling values for %s", state.uri)
            return
        if values is not None:
            clear_cache()
            self._schedule(state.uri, delay=0.0)

    def document_closed(self, uri: str) -> None:
        self._last_run.pop(uri, None)
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
        if uri in self._running:
            self._rerun.add(uri)  # one run per document at a time; the newest text runs next
            return
        self._last_run[uri] = asyncio.get_running_loop().time()
        self._running.add(uri)
        asyncio.get_running_loop().create_task(self._compute(state))

    async def _compute(self, state: DocumentState) -> None:
        uri = state.uri
        try:
            # Off the event loop: a huge file must not stall hover or completion while it is checked.
            state.findings = await asyncio.to_thread(self.findings_for, state)
            if self.server.documents.get(uri) is state:  # still the current version
                self.publish(state)
                self._send_status(state)
        except Exception:
            log.exception("diagnostics failed for %s", uri)
        finally:
            self._running.discard(uri)
        if uri in self._rerun:
            self._rerun.discard(uri)
            self._schedule(uri, delay=0.0)

    def findings_for(self, state: DocumentState) -> list[Finding]:
        settings = self.server.settings
        options = CheckOptions(
            soc_name=settings.soc if settings.soc_from_user else None,
            disabled_rules=frozenset(settings.diagnostics.disabledRules),
        )
        return check_document(state.document, options, model=state.model)

    def refresh(self, state: DocumentState) -> None:
        """Check and publish synchronously (for callers that already run off the hot path)."""
        state.findings = self.findings_for(state)
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
        ub_bytes, reserved = ub_capacity(soc, self.server.settings.soc)
        budgets = class_budgets(state.model)
        used = max((b.total("UB") for b in budgets), default=0)
        self.server.protocol.notify(
            STATUS_NOTIFICATION,
            {
                "uri": state.uri,
                "soc": self.server.settings.soc,
                "ubUsedBytes": used,
                "ubCapacityBytes": ub_bytes - reserved,
                "ubTotalBytes": ub_bytes,
                "ubReservedBytes": reserved,
            },
        )
