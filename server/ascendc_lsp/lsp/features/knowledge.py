"""On-save toolchain diagnostics explained by the knowledge base, and the explain/run commands.

On save (setting `diagnostics.onSave`) the document is compiled with the configured backend — the emulator's
g++ `-fsyntax-only` against the emulator headers by default, bisheng when `toolchain.backend = cann` — in a
worker thread; a newer save cancels the running compile (the process is killed) and stale results are dropped.
The output goes through `toolchain.logs.parse_log`; each error on this file gets the best knowledge entry
(log line + the code around it), and is published with the other diagnostics: the entry's title in the message,
its fix summary and hardware rationale as related information, and a quick fix when the entry has a recipe.

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
import os
import re
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from lsprotocol import types

from ascendc_lsp.checks.base import Finding, Fix, Related, TextEdit
from ascendc_lsp.errors import Cancelled
from ascendc_lsp.hardware.limits import DEFAULT_SOC
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
from ascendc_lsp.syntax.positions import Position, Span, position_of, utf16_column, utf16_len

log = logging.getLogger(__name__)

COMPILE_TIMEOUT = 60.0
MAX_TOOLCHAIN_FINDINGS = 30
CODE_WINDOW = 4


@dataclass
class CompileOutput:
    log: str
    compiled_path: str
    seconds: float
    error: str = ""


# ---------------------------------------------------------------------------------------------- compile


def compile_emulator(
    text: str, path: str, cancel: threading.Event, timeout: float = COMPILE_TIMEOUT
) -> CompileOutput:
    """g++ -fsyntax-only of the buffer (a copy named like the file, its folder on the include path), in the
    sandbox like every compile of untrusted code (`#include "/etc/shadow"` must not quote the file back)."""
    from ascendc_lsp.toolchain import sandbox
    from ascendc_lsp.toolchain.emulator.build import (
        BASE_FLAGS,
        COMPILE_MEMORY,
        DIAG_FLAGS,
        find_cxx,
        gxx_command,
        include_dir,
    )

    t0 = time.monotonic()
    cxx = find_cxx()
    if cxx is None:
        return CompileOutput(
            "", "", 0.0, "g++ was not found on PATH (the emulator backend needs a C++17 compiler)"
        )
    name = Path(path).name if path else "kernel.cpp"
    folder = str(Path(path).parent) if path else ""
    with tempfile.TemporaryDirectory(prefix="ascendc-lsp-save-") as tmp:
        copy = Path(tmp) / name
        copy.write_text(text, encoding="utf-8")
        includes: list[str | Path] = [include_dir(), *([folder] if folder and Path(folder).is_dir() else [])]
        cmd = gxx_command(cxx, [copy], flags=[*BASE_FLAGS, *DIAG_FLAGS], include_dirs=includes, mode="syntax",
                          language="c++")  # fmt: skip
        res = sandbox.run_sandboxed(
            cmd,
            Path(tmp),
            sandbox.Limits(timeout=timeout, memory_bytes=COMPILE_MEMORY),
            read_paths=[include_dir(), *([Path(folder)] if folder and Path(folder).is_dir() else [])],
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "LANG": "C"},
            cancel=cancel,
        )
        if res.cancelled:
            raise Cancelled()
        if res.error:
            return CompileOutput("", str(copy), time.monotonic() - t0, res.error)
        out = res.stderr + res.stdout
        if res.timed_out:
            out += f"error: the compile did not finish within {timeout:g} s\n"
        return CompileOutput(out, str(copy), time.monotonic() - t0)


def compile_cann(
    text: str, path: str, cancel: threading.Event, cann_home: str = "", soc: str = DEFAULT_SOC
) -> CompileOutput:
    from ascendc_lsp.toolchain import cann

    t0 = time.monotonic()
    try:
        inst = cann.discover(Path(cann_home)) if cann_home else cann.discover()
    except Exception as exc:
        return CompileOutput("", "", 0.0, f"the cann backend cannot run here: {exc}")
    with tempfile.TemporaryDirectory(prefix="ascendc-lsp-save-") as tmp:
        copy = Path(tmp) / (Path(path).name if path else "kernel.cpp")
        copy.write_text(text, encoding="utf-8")
        extra = [Path(path).parent] if path else []
        result = cann.compile_source(copy, inst=inst, soc=soc, include_dirs=extra)
        if cancel.is_set():
            raise Cancelled()
        return CompileOutput(result.log, str(copy), time.monotonic() - t0)


# -------------------------------------------------------------------------------------------- findings


def recipe_fix(entry: Any, text: str, line0: int) -> Fix | None:
    """The entry's recipe as an edit of this document (None when it does not apply)."""
    recipe = entry.fix.recipe
    if recipe is None:
        return None
    try:
        pattern = re.compile(recipe.pattern, re.MULTILINE)
    except re.error:
        return None
    title = f"Apply fix: {entry.fix.summary.split('. ')[0][:90]} ({entry.id})"
    if recipe.kind == "replace-regex":
        lines = text.splitlines(keepends=True)
        start = sum(len(x) for x in lines[:line0])
        m = pattern.search(text, start, start + len(lines[line0])) if line0 < len(lines) else None
        m = m or pattern.search(text)
        if m is None:
            return None
        try:
            new = m.expand(recipe.replacement)
        except (re.error, IndexError):
            return None
        span = Span(position_of(text, m.start()), position_of(text, m.end()))
        return Fix(title, (TextEdit(span, new),))
    if recipe.replacement.strip() and recipe.replacement.strip() in text:
        return None  # already there
    m = pattern.search(text)
    if m is None:
        return None
    if recipe.kind == "insert-line-before":
        pos = position_of(text, text.rfind("\n", 0, m.start()) + 1)
        return Fix(title, (TextEdit(Span(pos, pos), recipe.replacement + "\n"),))
    end = text.find("\n", m.end())
    if end < 0:
        pos = position_of(text, len(text))
        return Fix(title, (TextEdit(Span(pos, pos), "\n" + recipe.replacement),))
    pos = position_of(text, end + 1)
    return Fix(title, (TextEdit(Span(pos, pos), recipe.replacement + "\n"),))


def explain_events(
    log_text: str,
    compiled_path: str,
    doc_path: str,
    text: str,
    retriever: Any,
    cancel: threading.Event | None = None,
) -> list[Finding]:
    """Findings for the errors (and warnings) that the log places in this document."""
    from ascendc_lsp.toolchain.logs import parse_log

    lines = text.splitlines()
    names = {Path(compiled_path).name, Path(doc_path).name} - {""}
    findings: list[Finding] = []
    seen: set[tuple[int, str]] = set()
    fallback_line = 0
    for ev in parse_log(log_text):
        if cancel is not None and cancel.is_set():
            raise Cancelled()
        if ev.severity not in ("error", "warning"):
            continue
        here = ev.file is not None and Path(ev.file).name in names and ev.line is not None
        if ev.file is not None and not here and ev.kind == "compiler-diagnostic":
            continue  # an error inside a header: its "required from" note usually names our line
        line0 = min(max(0, (ev.line or 1) - 1), max(0, len(lines) - 1)) if here else fallback_line
        key = (line0, ev.message)
        if key in seen:
            continue
        seen.add(key)
        line_text = lines[line0] if line0 < len(lines) else ""
        col = utf16_column(line_text, (ev.column or 1) - 1) if here else 0
        code = "\n".join(lines[max(0, line0 - CODE_WINDOW) : line0 + CODE_WINDOW + 1])
        query = "\n".join([ev.message, *(n.message for n in ev.notes[:4]), *(ev.codes or [])])
        matches = retriever.search(query, code, top=1) if retriever is not None else []
        span = Span(Position(line0, col), Position(line0, max(col, utf16_len(line_text))))
        message = ev.message
        knowledge: list[str] = []
        category = None
        related: list[Related] = []
        fixes: list[Fix] = []
        if matches:
            entry = matches[0].entry
            message = f"{ev.message} — {entry.title}"
            knowledge = [entry.id]
            category = entry.category
            related = [
                Related(span, f"Fix ({entry.id}): {entry.fix.summary}"),
                Related(span, f"Why: {' '.join(entry.rationale.text.split())}"),
            ]
            fix = recipe_fix(entry, text, line0)
            if fix is not None:
                fixes.append(fix)
        findings.append(
            Finding(span, "error" if ev.severity == "error" else "warning", "toolchain", message, category,
                    knowledge, fixes, related)
        )  # fmt: skip
        if len(findings) >= MAX_TOOLCHAIN_FINDINGS:
            break
    return findings


# ---------------------------------------------------------------------------------------------- feature


class KnowledgeFeature(LanguageFeature):
    commands: ClassVar[dict[str, str]] = {EXPLAIN_LOG.id: "explain_log", SHOW_ENTRY_FIX.id: "show_entry_fix"}

    def __init__(self, server: Any) -> None:
        super().__init__(server)
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._cancels: dict[str, threading.Event] = {}
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
        uri = state.uri
        previous = self._cancels.pop(uri, None)
        if previous is not None:
            previous.set()
        task = self._tasks.pop(uri, None)
        if task is not None:
            task.cancel()
        cancel = threading.Event()
        self._cancels[uri] = cancel
        self._tasks[uri] = asyncio.get_running_loop().create_task(self._check(state, cancel))

    def document_closed(self, uri: str) -> None:
        cancel = self._cancels.pop(uri, None)
        if cancel is not None:
            cancel.set()
        task = self._tasks.pop(uri, None)
        if task is not None:
            task.cancel()

    def _diagnostics_feature(self) -> Any:
        from ascendc_lsp.lsp.features.diagnostics import DiagnosticsFeature

        return next((f for f in self.server.features if isinstance(f, DiagnosticsFeature)), None)

    async def _check(self, state: DocumentState, cancel: threading.Event) -> None:
        settings = self.server.settings
        text = state.document.text
        path = state.document.path or ""
        try:
            findings = await asyncio.to_thread(self.toolchain_findings, text, path, settings, cancel)
        except (Cancelled, asyncio.CancelledError):
            return
        except Exception:
            log.exception("on-save toolchain check failed for %s", state.uri)
            return
        if cancel.is_set():
            return
        current = self.server.documents.get(state.uri)
        if current is None:
            return
        current.toolchain_findings = findings
        diagnostics = self._diagnostics_feature()
        if diagnostics is not None:
            diagnostics.publish(current)
        if self._cancels.get(state.uri) is cancel:
            self._cancels.pop(state.uri, None)
            self._tasks.pop(state.uri, None)

    def toolchain_findings(
        self, text: str, path: str, settings: Any, cancel: threading.Event
    ) -> list[Finding]:
        if settings.toolchain.backend == "cann":
            out = compile_cann(text, path, cancel, settings.toolchain.cannHome, settings.soc)
        else:
            out = compile_emulator(text, path, cancel)
        if out.error:
            return [
                Finding(
                    Span(Position(0, 0), Position(0, 0)), "warning", "toolchain", out.error, "toolchain-env"
                )
            ]
        if cancel.is_set():
            raise Cancelled()
        try:
            retriever = self.retriever()
        except Exception:
            log.warning("knowledge retrieval unavailable", exc_info=True)
            retriever = None
        return explain_events(out.log, out.compiled_path, path, text, retriever, cancel)

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
