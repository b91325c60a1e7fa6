"""On-save toolchain diagnostics explained by the knowledge base, and the explain/run commands.

On save (setting `diagnostics.onSave`) the document is compiled with the configured backend
(toolchain/syntax_check.py) in a worker thread; a newer save cancels the running compile (the process is killed)
and stale results are dropped. Each error on this file gets the best knowledge entry (knowledge/log_findings.py)
and is published with the other diagnostics by the server core.

Commands (typed in lsp/protocol.py):
* `ascendc.server.explainLog` ({log} text or {path} of a file; {uri} of the open kernel or {source} path, and
  {run}, to triage with the kernel) -> the matching entries, confidence, families and triage (`explain` JSON).
* `ascendc.server.showEntryFix` ({entryId}) -> writes the entry's before/after as a diff into the cache and asks
  the client to show it (`window/showDocument`); returns the file path.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from pathlib import Path
from typing import Any, ClassVar

from lsprotocol import types

from ascendc_lsp.diagnostics import Diagnostic
from ascendc_lsp.lsp.features.base import LanguageFeature
from ascendc_lsp.lsp.protocol import (
    EXPLAIN_LOG,
    SHOW_ENTRY_FIX,
    CommandError,
    ErrorCode,
    ExplainLogParams,
    ExplainLogResult,
    ShowEntryFixParams,
    ShowEntryFixResult,
)
from ascendc_lsp.lsp.state import DocumentState

log = logging.getLogger(__name__)


class KnowledgeFeature(LanguageFeature):
    commands: ClassVar[dict[str, str]] = {EXPLAIN_LOG.id: "explain_log", SHOW_ENTRY_FIX.id: "show_entry_fix"}

    def __init__(self, server: Any) -> None:
        super().__init__(server)
        self._retriever: Any = None
        self._retriever_key: tuple[Any, ...] | None = None

    # -- retrieval

    def retriever(self) -> Any:
        """The default retriever for the current settings (built lazily, off the event loop)."""
        from ascendc_lsp.knowledge.retrieval import Retriever

        settings = self.server.settings
        key = (settings.knowledge.paths, settings.knowledge.store)
        if self._retriever is None or key != self._retriever_key:
            self._retriever = Retriever.default(settings)
            self._retriever_key = key
        return self._retriever

    # -- on save

    def document_saved(self, state: DocumentState) -> None:
        if not self.server.settings.diagnostics.onSave:
            return
        history = state.history
        if history.compile_cancel is not None:
            history.compile_cancel.set()  # a newer save: kill the running compile
        if history.compile_task is not None:
            history.compile_task.cancel()
        cancel = threading.Event()
        history.compile_cancel = cancel
        history.compile_task = asyncio.get_running_loop().create_task(self._check(state, cancel))

    async def _check(self, state: DocumentState, cancel: threading.Event) -> None:
        from ascendc_lsp.toolchain.syntax_check import Cancelled

        settings = self.server.settings
        text, path = state.document.text, state.document.path or ""
        try:
            findings = await asyncio.to_thread(self._compile_findings, text, path, settings, cancel)
        except (Cancelled, asyncio.CancelledError):
            return
        except Exception:
            log.exception("on-save toolchain check failed for %s", state.uri)
            return
        if cancel.is_set():
            return
        history = state.history
        if history.compile_cancel is cancel:
            history.compile_cancel, history.compile_task = None, None
        current = self.server.documents.set_toolchain_findings(state.uri, findings)
        if current is not None and current.findings is not None:
            self.server.publish_diagnostics(current)  # else the rules run under way publishes both

    def _compile_findings(self, text: str, path: str, settings: Any, cancel: threading.Event) -> list[Diagnostic]:
        from ascendc_lsp.knowledge.log_findings import compile_findings
        from ascendc_lsp.toolchain.syntax_check import compile_buffer

        out = compile_buffer(text, path, cancel, settings.toolchain.backend, settings.toolchain.cannHome, settings.soc)
        retriever = None
        if not out.error:
            try:
                retriever = self.retriever()
            except Exception:
                log.warning("knowledge retrieval unavailable", exc_info=True)
        return compile_findings(out, text, path, retriever, cancel)

    # -- commands

    async def explain_log(self, params: ExplainLogParams) -> ExplainLogResult:
        """`ascendc.server.explainLog`: the knowledge entries matching a log given as text or as a file; with a
        kernel (the open document by uri, else the source file) the answer is triaged with its static findings
        and, when `run` and a kernel spec sits next to it, an emulator run."""
        from ascendc_lsp import safeio
        from ascendc_lsp.knowledge.explain import InputError, decode_log, explain_log

        text = params.log or ""
        if not text.strip() and params.path:
            log_path = Path(params.path).expanduser()
            try:
                text = decode_log(safeio.read_bytes(log_path, safeio.MAX_LOG_BYTES, "log"), params.path)
            except (InputError, OSError, ValueError) as exc:
                raise CommandError(f"cannot read the log {params.path}: {exc}", command=EXPLAIN_LOG.id) from None
        if not text.strip():
            raise CommandError("explainLog: the log is empty (give `log` text or a `path`)", ErrorCode.INVALID_PARAMS,
                               EXPLAIN_LOG.id)  # fmt: skip
        source_path, source_text = "", ""
        state = self.server.documents.get(params.uri) if params.uri else None
        if state is not None:
            source_text, source_path = state.document.text, state.document.path or ""
        elif params.source and Path(params.source).is_file():
            source_path = params.source
            try:
                source_text = safeio.read_text(source_path, safeio.MAX_SOURCE_BYTES, "source", errors="replace")
            except (OSError, ValueError) as exc:
                raise CommandError(f"cannot read the source {source_path}: {exc}", command=EXPLAIN_LOG.id) from None
        retriever = await asyncio.to_thread(self.retriever)
        out = await asyncio.to_thread(
            lambda: explain_log(text, "", 5, retriever, source_path=source_path, source_text=source_text,
                                soc=self.server.settings.soc, run=params.run)
        )  # fmt: skip
        return ExplainLogResult(
            matches=list(out.get("matches", [])),
            events=int(out.get("events") or 0),
            warnings=list(out.get("warnings", [])),
            confidence=out.get("confidence"),
            uncertain=bool(out.get("uncertain")),
            message=str(out.get("message") or ""),
            families=list(out.get("families", [])),
            triage=out.get("triage"),
        )

    async def show_entry_fix(self, params: ShowEntryFixParams) -> ShowEntryFixResult:
        """`ascendc.server.showEntryFix`: write the entry's before/after diff to the cache and show it."""
        import difflib

        from ascendc_lsp.paths import atomic_write, cache_dir

        retriever = await asyncio.to_thread(self.retriever)
        entry = retriever.entries.get(params.entry_id)
        if entry is None:
            raise CommandError(f"no knowledge entry '{params.entry_id}'", command=SHOW_ENTRY_FIX.id)
        diff = "\n".join(
            difflib.unified_diff(entry.fix.before.splitlines(), entry.fix.after.splitlines(),
                                 f"{entry.id} (before)", f"{entry.id} (after)", lineterm="")
        )  # fmt: skip
        header = (
            f"# {entry.title}\n# fix: {entry.fix.summary}\n# why: {' '.join(entry.rationale.text.split())}\n"
        )
        path = cache_dir() / "fixes" / f"{entry.id}.diff"
        atomic_write(path, header + diff + "\n")
        with contextlib.suppress(Exception):
            await self.server.window_show_document_async(
                types.ShowDocumentParams(uri=path.as_uri(), take_focus=True)
            )
        return ShowEntryFixResult(path=str(path))
