"""Diagnostics on every keystroke (debounced): syntax errors and hardware rules."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from lsprotocol import types

from ascendc_lsp.checks.engine import CheckOptions, check_incrementally
from ascendc_lsp.diagnostics import Diagnostic
from ascendc_lsp.hardware.budget import ub_capacity
from ascendc_lsp.lsp.features.base import LanguageFeature
from ascendc_lsp.lsp.state import DocumentState
from ascendc_lsp.settings import Settings

log = logging.getLogger(__name__)

STATUS_NOTIFICATION = "ascendc/status"


class DiagnosticsFeature(LanguageFeature):
    """Runs the rules on each version off the event loop and publishes them through the server core (which drops
    a version that is no longer current). The schedule lives in the document's history (lsp/state.py)."""

    def __init__(self, server: Any) -> None:
        super().__init__(server)
        # bumped when what the rules depend on besides the text changes (settings, an op test case's values):
        # a run that started before gives findings that are never kept
        self._generation = 0

    def document_opened(self, state: DocumentState) -> None:
        self._schedule(state, delay=0.0)

    def document_changed(self, state: DocumentState) -> None:
        if state.findings is not None:
            # an edit of comments or spacing: the previous version's findings, moved with the text (lsp/state.py);
            # the model (hover, lenses, symbols) is built once the typing pauses, off the event loop
            self.server.publish_diagnostics(state)
            self._warm_later(state)
            return
        if not self.server.settings.diagnostics.onType:
            return
        # Leading-edge debounce: the first edit after a quiet period runs at once; edits arriving
        # within the debounce window of a run (a burst of typing or a paste) are coalesced.
        history = state.history
        debounce = self.server.settings.diagnostics.debounceMs / 1000
        now = asyncio.get_running_loop().time()
        quiet = history.check_timer is None and now - history.last_check >= debounce
        self._schedule(state, delay=0.0 if quiet else debounce)

    def document_saved(self, state: DocumentState) -> None:
        if not self.server.settings.diagnostics.onType:
            self._schedule(state, delay=0.0)
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
            self._generation += 1
            current = self.server.documents.get(state.uri)
            if current is not None:
                current.findings = None  # the known values changed: check again
                self._schedule(current, delay=0.0)

    def document_closed(self, uri: str) -> None:
        self.server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def settings_changed(self, settings: Settings) -> None:
        self._generation += 1
        for uri in self.server.documents.uris():
            state = self.server.documents.get(uri)
            if state is not None:
                state.findings = None  # the SoC or the disabled rules may have changed
                self._schedule(state, delay=0.0)

    def _warm_later(self, state: DocumentState) -> None:
        history = state.history
        if history.warm_timer is not None:
            history.warm_timer.cancel()
        delay = max(0.3, self.server.settings.diagnostics.debounceMs / 1000)  # a pause in the typing
        history.warm_timer = asyncio.get_running_loop().call_later(delay, self._warm, state)

    def _warm(self, state: DocumentState) -> None:
        state.history.warm_timer = None
        if self.server.documents.is_current(state) and state.built_model() is None:
            asyncio.get_running_loop().create_task(self._build_then_status(state))

    async def _build_then_status(self, state: DocumentState) -> None:
        await asyncio.to_thread(lambda: state.budgets)
        if self.server.documents.is_current(state) and state.findings is not None:
            self._send_status(state)

    def _schedule(self, state: DocumentState, delay: float) -> None:
        history = state.history
        if history.check_timer is not None:
            history.check_timer.cancel()
        history.check_timer = asyncio.get_running_loop().call_later(delay, self._run, state.uri)
        state.mark("scheduled")
        if state.timing is not None:
            state.timing["debounce"] = delay

    def _run(self, uri: str) -> None:
        state = self.server.documents.get(uri)
        if state is None:  # closed while waiting
            return
        history = state.history
        history.check_timer = None
        if history.checking:
            history.recheck = True  # one run per document at a time; the newest text runs next
            return
        if state.findings is not None:
            self.server.publish_diagnostics(state)
            return
        history.last_check = asyncio.get_running_loop().time()
        history.checking = True
        asyncio.get_running_loop().create_task(self.check(state))

    async def check(self, state: DocumentState) -> bool:
        """Run the rules on `state` in a worker thread and publish them; False when the version went stale on the
        way (its findings are then never published)."""
        history = state.history
        published = False
        generation = self._generation
        try:
            # Off the event loop: a huge file must not stall hover or completion while it is checked.
            findings = await asyncio.to_thread(self._findings_if_current, state)
            if findings is None:
                pass  # superseded (edited or closed) while queued: nothing to publish
            elif generation == self._generation:
                state.findings = findings
                published = self.server.publish_diagnostics(state)
                if published and state.built_model() is not None:
                    self._send_status(state)
                elif published:
                    self._warm_later(state)  # the status needs the budgets, of the whole model: once typing pauses
            else:
                history.recheck = True
        except Exception:
            log.exception("diagnostics failed for %s", state.uri)
        finally:
            history.checking = False
        if history.recheck:
            history.recheck = False
            current = self.server.documents.get(state.uri)
            if current is not None:
                self._schedule(current, delay=0.0)
        return published

    def _findings_if_current(self, state: DocumentState) -> list[Diagnostic] | None:
        """The findings of `state`, or None when it is no longer the current version by the time a worker thread
        takes it: a queued run of a version that was edited or closed since is dropped, not computed (a client
        that edits faster than the rules run otherwise queues work, and the states it holds, without bound)."""
        if not self.server.documents.is_current(state):
            return None
        state.mark("check started")
        return self.findings_for(state)

    def findings_for(self, state: DocumentState) -> list[Diagnostic]:
        settings = self.server.settings
        options = CheckOptions(
            soc_name=settings.soc if settings.soc_from_user else None,
            disabled_rules=frozenset(settings.diagnostics.disabledRules),
        )
        # Only the top-level units the edit can reach are checked again (checks/incremental.py); the whole file,
        # with the version's shared model, when that cannot be vouched for.
        checked = check_incrementally(state.history.checked, state.document, options, model_of=lambda: state.model)
        state.history.checked = checked
        state.how = checked.how
        state.mark("checked")
        return checked.findings

    def _send_status(self, state: DocumentState) -> None:
        soc = self.server.soc_profile()
        ub_bytes, reserved = ub_capacity(soc, self.server.settings.soc)
        used = max((b.total("UB") for b in state.budgets), default=0)
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
