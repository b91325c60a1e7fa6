"""The language server: document sync, settings, the feature core, and the transports."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import gc
import inspect
import json
import logging
import os
import sys
import threading
import time
import tracemalloc
import weakref
from collections import Counter
from collections.abc import Callable, Generator
from functools import cache
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcContentModified, JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import _prepare_command_arguments, lsp_method
from pygls.uris import to_fs_path

from ascendc_lsp import __version__
from ascendc_lsp.lsp.aggregate import Contributor, aggregated, empty_answer, merge_options
from ascendc_lsp.lsp.convert import to_diagnostic
from ascendc_lsp.lsp.core import ServerCore
from ascendc_lsp.lsp.features import FEATURES
from ascendc_lsp.lsp.features.base import LanguageFeature, guarded, typed_command
from ascendc_lsp.lsp.memory import pin_allocator_thresholds, release_freed_memory
from ascendc_lsp.lsp.protocol import COMMANDS
from ascendc_lsp.lsp.state import DocumentState, DocumentStore, WorkLog
from ascendc_lsp.lsp.transport import WORKER_THREAD_PREFIX
from ascendc_lsp.settings import Settings, merge_settings, settings_for_path

log = logging.getLogger("ascendc_lsp")

CONFIG_SECTION = "ascendc"


class AscendcProtocol(LanguageServerProtocol):
    """Positions are UTF-16 throughout (ascendc_lsp.syntax.positions), so that is all we negotiate."""

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams) -> Generator[Any, Any, types.InitializeResult]:
        general = params.capabilities.general
        if general is not None and general.position_encodings:
            general.position_encodings = [types.PositionEncodingKind.Utf16]
        result: types.InitializeResult = yield from super().lsp_initialize(params)
        return result

    def _handle_request(self, msg_id: Any, method_name: str, params: Any) -> None:
        """As pygls' own; for a request answered once the model is built (MODEL_REQUESTS), the document's version
        when the request came is noted first: pygls starts a coroutine handler only on a later turn of the event
        loop, after a didChange that came in the same read (`AscendcLanguageServer._after_model`)."""
        if method_name in MODEL_REQUESTS:
            uri = getattr(getattr(params, "text_document", None), "uri", None)
            server = self._server
            if isinstance(uri, str) and isinstance(server, AscendcLanguageServer):
                state = server.documents.get(uri)
                # in this message's own context (pygls copies one each); weak: a context can outlive the request
                _ASKED_STATE.set(weakref.ref(state) if state is not None else None)
        super()._handle_request(msg_id, method_name, params)

    @lsp_method(types.WORKSPACE_EXECUTE_COMMAND)
    async def lsp_workspace__execute_command(self, params: types.ExecuteCommandParams) -> Any:  # type: ignore[override]
        """As pygls' own, but the command is awaited in the request's own task: pygls runs it in a task of its
        own that `$/cancelRequest` never reaches, so a cancelled Run Kernel went on compiling and running."""
        handler = self.fm.commands.get(params.command)
        if handler is None:
            raise JsonRpcInvalidParams.of(ValueError(f"Command name {params.command!r} is not defined"))
        try:
            args, kwargs = _prepare_command_arguments(handler, params, self._converter)
        except Exception as exc:
            raise JsonRpcInvalidParams.of(exc) from None
        result = handler(*args, **kwargs)
        if inspect.isawaitable(result):
            result = await result
        return result

    def _execute_handler(
        self,
        msg_id: Any,
        handler: Any,
        callback: Any,
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> None:
        """pygls (2.1) files the future of a generator or coroutine handler in `_request_futures` and removes it
        only when it answers a request: the futures of notifications (didOpen, didChange, didClose... under a fresh
        uuid) and of the user handlers its built-in generators yield to stayed for the whole session, a failed one
        with its exception, traceback and frames (the message's params): ~6 per bench/fuzz_lsp.py round. A future
        is dropped once done; a pending one stays, cancellable by $/cancelRequest and at shutdown."""
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        future = self._request_futures.get(msg_id)
        if future is None:
            return

        def drop() -> None:
            if self._request_futures.get(msg_id) is future:
                del self._request_futures[msg_id]

        if future.done():
            drop()
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no event loop (a test feeding messages by hand): nothing to run the removal later
        # Later on the loop, not in the callback: a concurrent Future runs its callbacks inside `cancel()`, which
        # pygls' shutdown calls while it iterates `_request_futures` (and a thread handler's, in its thread).
        def drop_later(_done: Any) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: the session, and the dict, are over
                loop.call_soon_threadsafe(drop)

        future.add_done_callback(drop_later)


class AscendcLanguageServer(ServerCore):
    def __init__(self) -> None:
        super().__init__("ascendc-lsp", __version__, protocol_cls=AscendcProtocol)
        trace = os.environ.get(EDIT_TRACE_ENV)
        self._edit_trace = EditTrace(trace) if trace else None
        self.documents = DocumentStore(self._edit_trace.work_log if self._edit_trace is not None else None)
        self.settings = Settings()
        self._client_settings: dict[str, Any] = {}
        self._dropped_versions = 0  # since the last full garbage collection
        self._idle_collection: asyncio.TimerHandle | None = None  # a collection once the typing pauses
        self.features: list[LanguageFeature] = [feature(self) for feature in FEATURES]
        self._register()

    # -- core ----------------------------------------------------------------------------------

    def _register(self) -> None:
        contributors: dict[str, list[Contributor]] = {}
        options: dict[str, list[Any]] = {}
        for feature in self.features:
            for method, spec in type(feature).methods.items():
                name = f"{type(feature).__name__}.{spec.handler}"
                contributors.setdefault(method, []).append(Contributor(name, getattr(feature, spec.handler)))
                options.setdefault(method, []).append(spec.options)
        for method, group in contributors.items():
            handler = guarded(method, aggregated(method, group), empty_answer(method))
            if self._edit_trace is not None:
                handler = self._edit_trace.timed(method, handler)
            if method in MODEL_REQUESTS:
                handler = self._after_model(method, handler)
            merged = merge_options(method, options[method])
            if merged is not None:
                self.feature(method, merged)(handler)
            else:
                self.feature(method)(handler)
        for feature in self.features:
            for command_id, attribute in type(feature).commands.items():
                self.command(command_id)(typed_command(COMMANDS[command_id], getattr(feature, attribute)))

        core: dict[str, Callable[..., Any]] = {
            types.INITIALIZED: self._on_initialized,
            types.TEXT_DOCUMENT_DID_OPEN: self._on_open,
            types.TEXT_DOCUMENT_DID_CHANGE: self._on_change,
            types.TEXT_DOCUMENT_DID_SAVE: self._on_save,
            types.TEXT_DOCUMENT_DID_CLOSE: self._on_close,
            types.WORKSPACE_DID_CHANGE_CONFIGURATION: self._on_configuration,
        }
        for method, core_handler in core.items():
            self.feature(method)(guarded(method, core_handler, None))

    def _each(self, hook: str, *args: Any) -> None:
        for feature in self.features:
            try:
                getattr(feature, hook)(*args)
            except Exception:
                log.exception("%s.%s failed", type(feature).__name__, hook)

    # -- document sync -------------------------------------------------------------------------

    def _sync(self, uri: str) -> DocumentState | None:
        try:
            text_document = self.workspace.get_text_document(uri)
            source = text_document.source
        except Exception:
            log.exception("cannot read document %s", uri)
            return None
        path = to_fs_path(uri) or ""
        return self.documents.update(uri, source, text_document.version or 0, path)

    def _version_dropped(self) -> None:
        """A version was superseded or a document closed. Each version's syntax model is a graph with reference
        cycles: it is freed only by a collection of the oldest generation, which the thresholds `command` sets
        (tuned for keystroke latency) would run after some 250 million allocations, so the dropped versions of a
        long session piled up (RSS +400 KB per fuzz round, bench/fuzz_lsp.py). They are collected after a
        publish (`_collect_after_publish`), a bounded amount at a time; here only when COLLECT_EVERY_VERSIONS
        piled up with no collection in between (diagnostics off, edits faster than the rules)."""
        self._dropped_versions += 1
        if self._dropped_versions >= COLLECT_EVERY_VERSIONS:
            self._collect()

    def _collect(self) -> None:
        self._dropped_versions = 0
        gc.collect()
        release_freed_memory()  # else the freed pages stay in the allocator's arenas: RSS at its high-water mark

    def _collect_after_publish(self) -> None:
        """Collect once a publish is out, not ahead of the next edit's check (a collection in the change handler
        made every 64th edit wait for it: 20-27 ms freeing ~29,000 objects, the three slowest of 200 edits in
        bench/lsp_latency.py --edit code), by the objects allocated (and alive) since the last one (gc.get_count:
        a partial check keeps ~450 per edit, a whole model thousands, a comment edit none), so each frees a
        bounded amount: past COLLECT_IDLE_OBJECTS when the typing pauses for COLLECT_IDLE_SECONDS (the next
        didChange disarms it: no collection on the edit path), past COLLECT_AFTER_PUBLISH_OBJECTS at once (typing
        with no pause). The start-up heap is frozen, so a collection walks only the session's objects."""
        young = gc.get_count()[0]
        if young < COLLECT_IDLE_OBJECTS:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a test calling in by hand): now
            self._collect()
            return
        if self._idle_collection is not None:
            self._idle_collection.cancel()
            self._idle_collection = None

        def collect() -> None:
            self._idle_collection = None
            if gc.get_count()[0] >= COLLECT_IDLE_OBJECTS:
                self._collect()

        if young >= COLLECT_AFTER_PUBLISH_OBJECTS:
            loop.call_soon(collect)
        else:
            self._idle_collection = loop.call_later(COLLECT_IDLE_SECONDS, collect)

    def _on_open(self, params: types.DidOpenTextDocumentParams) -> None:
        state = self._sync(params.text_document.uri)
        if state is not None:
            self._each("document_opened", state)

    def _on_change(self, params: types.DidChangeTextDocumentParams) -> None:
        received = time.perf_counter()
        if params.text_document.uri not in self.documents:
            return  # closed, or forgotten after a change that could not be applied (transport.py)
        if self._idle_collection is not None:
            self._idle_collection.cancel()  # the typing goes on: collect after a later publish
            self._idle_collection = None
        state = self._sync(params.text_document.uri)
        if state is not None:
            if self._edit_trace is not None:
                state.timing = {"received": received}
                state.mark("synced")
            self._version_dropped()
            self._each("document_changed", state)

    def _on_save(self, params: types.DidSaveTextDocumentParams) -> None:
        state = self.documents.get(params.text_document.uri)
        if state is not None:
            self._each("document_saved", state)

    def _on_close(self, params: types.DidCloseTextDocumentParams) -> None:
        self.documents.close(params.text_document.uri)
        self._version_dropped()
        self._each("document_closed", params.text_document.uri)

    def before_exit(self) -> None:
        """The session ends (transport.py): every document's scheduled work is cancelled (on-save compiles killed)."""
        for uri in self.documents.uris():
            self.documents.close(uri)
        if self._edit_trace is not None:
            self._edit_trace.close()
        report = os.environ.get(MEMORY_REPORT_ENV)
        if report:
            _write_memory_report(report)

    def publish_diagnostics(self, state: DocumentState) -> bool:
        """Publish a version's findings (rules, carried or computed, plus the last save's toolchain findings);
        a version that is no longer current is dropped (False): its results would overwrite newer ones."""
        if not self.documents.is_current(state):
            return False
        findings = [*(state.findings or []), *state.history.toolchain_findings]
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=state.uri, version=state.version, diagnostics=[to_diagnostic(f, state.uri) for f in findings]
            )
        )
        if self._edit_trace is not None and state.timing is not None and "published" not in state.timing:
            state.mark("published")
            self._edit_trace.write(state)
        self._collect_after_publish()
        return True

    def _after_model(self, method: str, handler: Callable[..., Any]) -> Callable[..., Any]:
        """`handler` of a request an editor sends after every change (MODEL_REQUESTS), answered once the current
        version's model is built off the event loop (`modelled_state`); a request that a change overtook while it
        waited gets ContentModified (the LSP's "ask again": the editor asks for the new text anyway), so a burst
        of typing does not end with every waiting request answered at once ahead of the next publish."""

        async def answer_after_model(params: Any) -> Any:
            uri = params.text_document.uri
            noted = _ASKED_STATE.get()
            asked = self.documents.get(uri) if noted is None else noted()  # None: freed, so superseded
            opened = noted is not None or asked is not None
            state = await self.modelled_state(uri)
            overtaken = opened and state is not None and (state is not asked or not self.documents.is_current(state))
            del asked, state  # not kept by the traceback of the error below
            if overtaken:
                raise JsonRpcContentModified(message=f"{method}: {uri} changed while the request waited")
            result = handler(params)
            return await result if inspect.isawaitable(result) else result

        answer_after_model.__name__ = f"after_model_{getattr(handler, '__name__', 'handler')}"
        return answer_after_model

    async def modelled_state(self, uri: str) -> DocumentState | None:
        """The current version of `uri` with its model and budgets built, for the requests an editor sends after
        every change (the outline, the lenses, the inlay hints). A build (12-25 ms on a 1,000-line kernel) on the
        event loop made the next didChange wait for it: p50 37 ms, p99 74 ms with those requests in
        bench/lsp_latency.py --requests. Here it runs in a worker thread, once per document however many requests
        wait (`_build_when_settled`)."""
        state = self.documents.get(uri)
        if state is None or state.built_model() is not None:
            return state
        history = state.history
        task = history.model_task
        if task is None or task.done():
            # in a context of its own: the request's would keep the state it noted (above) for the task's life
            task = asyncio.get_running_loop().create_task(self._build_when_settled(uri), context=contextvars.Context())
            history.model_task = task

            def forget(done: asyncio.Task[DocumentState | None]) -> None:
                if history.model_task is done:
                    history.model_task = None  # nor keep its result (a version's state) once answered

            task.add_done_callback(forget)
        try:
            # shielded: a request cancelled by the client leaves the build to the others waiting
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if task.cancelled() and (current is None or not current.cancelling()):
                return None  # the document was closed (its work cancelled): not this request
            raise

    async def _build_when_settled(self, uri: str) -> DocumentState | None:
        """Build the model of the current version once its diagnostics are out and no newer version came for
        REQUEST_SETTLE_SECONDS (a newer one is taken instead: the editor shows the newest text); past
        REQUEST_MAX_WAIT_SECONDS of continuous typing, the current version is built once its rules ran."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + REQUEST_MAX_WAIT_SECONDS
        while True:
            state = self.documents.get(uri)
            if state is None:
                return None
            if state.built_model() is not None:
                break
            history = state.history
            if state.findings is None and (history.checking or history.check_timer is not None):
                await asyncio.sleep(REQUEST_POLL_SECONDS)  # its rules run goes first, even past the deadline
                continue
            if loop.time() >= deadline:
                break
            await asyncio.sleep(REQUEST_SETTLE_SECONDS)
            if self.documents.get(uri) is state:
                break
        await asyncio.to_thread(lambda: state.budgets)  # the model, then the budgets of its classes
        return state

    def forget_document(self, uri: str, why: str) -> None:
        """Drop a document whose text is no longer known to match the client's; its diagnostics are cleared."""
        if uri not in self.documents:
            return
        self.documents.close(uri)
        self.workspace.remove_text_document(uri)
        self._each("document_closed", uri)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        self.window_log_message(
            types.LogMessageParams(type=types.MessageType.Warning, message=f"ascendc-lsp: {uri}: {why}")
        )

    # -- settings ------------------------------------------------------------------------------

    async def _on_initialized(self, params: types.InitializedParams) -> None:
        self._each("initialized")
        await self._pull_configuration()

    async def _on_configuration(self, params: types.DidChangeConfigurationParams) -> None:
        if isinstance(params.settings, dict) and CONFIG_SECTION in params.settings:
            self._client_settings = params.settings[CONFIG_SECTION] or {}
            self._apply_settings()
        else:
            await self._pull_configuration()

    async def _pull_configuration(self) -> None:
        workspace = self.client_capabilities.workspace
        if workspace is not None and workspace.configuration:
            try:
                result = await asyncio.wait_for(
                    self.workspace_configuration_async(
                        types.ConfigurationParams(items=[types.ConfigurationItem(section=CONFIG_SECTION)])
                    ),
                    timeout=5,
                )
                raw = result[0] if result else None
                self._client_settings = raw if isinstance(raw, dict) else {}
            except Exception as exc:
                log.warning("could not read the client's settings: %s", exc)
        self._apply_settings()

    def _apply_settings(self) -> None:
        base = Settings()
        problems: list[str] = []
        root = self.workspace.root_path if self.workspace is not None else None
        if root:
            base, problems = settings_for_path(Path(root))
        merged, more = merge_settings(base, self._client_settings)
        for problem in problems + more:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Warning, message=problem))
        if self._soc_known(merged.soc) is False:
            self.window_show_message(
                types.ShowMessageParams(
                    type=types.MessageType.Warning,
                    message=f"ascendc-lsp: unknown SoC '{merged.soc}'; using {Settings().soc}",
                )
            )
            merged = Settings(
                toolchain=merged.toolchain, knowledge=merged.knowledge, llm=merged.llm, diagnostics=merged.diagnostics
            )
        self.settings = merged
        self._each("settings_changed", merged)

    # -- hardware and API knowledge --------------------------------------------------------------

    def _soc_known(self, name: str) -> bool | None:
        try:
            load_soc_profile(name)
        except LookupError:
            return False
        except Exception:
            return None
        return True

    def soc_profile(self) -> object | None:
        try:
            return load_soc_profile(self.settings.soc)
        except Exception:
            return None

    def api_hover(self, name: str) -> str | None:
        try:
            from ascendc_lsp.hardware.api_hover import api_markdown
        except ImportError:
            return None
        return api_markdown(name, self.settings.soc)


@cache
def load_soc_profile(name: str) -> object | None:
    try:
        from ascendc_lsp.hardware.soc import get_soc
    except ImportError:
        return None
    return get_soc(name)


# -- transports --------------------------------------------------------------------------------


def _configure_logging(log_file: str | None) -> None:
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log_file:
        handlers.append(logging.FileHandler(log_file, encoding="utf-8"))
    logging.basicConfig(level=logging.INFO, handlers=handlers, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("pygls").setLevel(logging.WARNING)
    # pygls logs a traceback for every JSON-RPC error a handler raises, including our commands' CommandError (the
    # contract's failure shape, answered to the client); unexpected failures are logged by the handlers' guards.
    logging.getLogger("pygls.protocol.json_rpc").setLevel(logging.CRITICAL)


def serve_websocket(server: AscendcLanguageServer, host: str, port: int) -> None:
    """WebSocket transport sending text frames (browsers' JSON-RPC clients reject pygls's binary frames)."""
    from websockets.asyncio.server import ServerConnection, serve
    from websockets.exceptions import ConnectionClosed

    class TextWriter:
        def __init__(self, connection: ServerConnection) -> None:
            self._connection = connection

        def close(self) -> Any:
            return self._connection.close()

        def write(self, data: bytes | str) -> Any:
            return self._connection.send(data.decode("utf-8") if isinstance(data, bytes) else data)

    async def connection(websocket: ServerConnection) -> None:
        protocol = server.protocol
        protocol.set_writer(TextWriter(websocket), include_headers=False)
        while True:
            try:
                data = await websocket.recv(decode=False)
            except ConnectionClosed:
                return
            try:
                protocol.handle_message(json.loads(data, object_hook=protocol.structure_message))
            except Exception:
                log.exception("cannot handle a WebSocket message")

    async def main() -> None:
        async with serve(connection, host, port) as ws_server:
            log.info("serving LSP over WebSocket on ws://%s:%d", host, port)
            await ws_server.serve_forever()

    asyncio.run(main())


# The requests an editor sends after every change that need the whole model (VS Code: the outline, the lenses,
# the inlay hints of the visible range): answered once the model is built in a worker thread (`_after_model`).
MODEL_REQUESTS = frozenset({
    types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, types.TEXT_DOCUMENT_CODE_LENS, types.TEXT_DOCUMENT_INLAY_HINT,
})  # fmt: skip
# The current version of the document when a MODEL_REQUESTS request came (set in its message's context).
_ASKED_STATE: contextvars.ContextVar[weakref.ref[DocumentState] | None] = contextvars.ContextVar(
    "asked_state", default=None
)
REQUEST_SETTLE_SECONDS = 0.02  # a request needing the model waits this long for a didChange already on its way
REQUEST_POLL_SECONDS = 0.005  # ... and polls this often while the version's rules run is pending
REQUEST_MAX_WAIT_SECONDS = 1.0  # ... but no longer than this in all
EDIT_TRACE_ENV = "ASCENDC_LSP_EDIT_TRACE"  # a file: one JSON line per edited version published (EditTrace)
MEMORY_REPORT_ENV = "ASCENDC_LSP_MEMORY_REPORT"  # a file: live object counts (and traced allocations) at exit
TRACE_FRAMES_ENV = "ASCENDC_LSP_TRACE_FRAMES"  # > 0: tracemalloc with that many frames for the report (slow)
EXIT_GRACE_SECONDS = 1.0
COLLECT_EVERY_VERSIONS = 64  # document versions dropped with no publish in between: a full garbage collection
# Objects allocated (and alive) since the last full collection (gc.get_count) past which one runs after a publish
# once the typing pauses (about 4 code edits' worth of the bench's partial checks, a whole model of a 1,000-line
# kernel), and past which one runs right after the publish (2-4 ms; ~9 edits' worth).
COLLECT_IDLE_OBJECTS = 2000
COLLECT_IDLE_SECONDS = 0.05
COLLECT_AFTER_PUBLISH_OBJECTS = 4000


class EditTrace:
    """Where each edit's time went, for bench/lsp_latency.py: per published version, one JSON line with the
    perf_counter time of each stage it reached (DocumentState.timing), how its findings were found (carried,
    reused, partial, full and why) and the other work that overlapped it (garbage collections, model builds,
    requests: WorkLog). perf_counter is the system's monotonic clock, so the bench can join the lines with the
    times it sent each didChange."""

    def __init__(self, path: str) -> None:
        self.work_log = WorkLog()
        self._out = open(path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 (open for the whole session)
        self._gc_started = 0.0
        self._written = 0.0  # when the last record's version was published
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            what = f"gc generation {info['generation']} ({info['collected']} freed)"
            self.work_log.add(what, self._gc_started, time.perf_counter())

    def timed(self, method: str, handler: Callable[..., Any]) -> Callable[..., Any]:
        """`handler`, its runs recorded in the work log when it answers on the event loop (a coroutine mostly
        waits: what it runs in a worker, like a model build, is recorded there)."""
        if inspect.iscoroutinefunction(handler):
            return handler

        def timed_sync(*args: Any) -> Any:
            started = time.perf_counter()
            try:
                return handler(*args)
            finally:
                self.work_log.add(method, started, time.perf_counter())

        return timed_sync

    def write(self, state: DocumentState) -> None:
        # From the previous publish on: the work between it and this didChange's arrival delayed the arrival.
        timing = state.timing or {}
        published = timing.get("published", 0.0)
        during = self.work_log.during(min(self._written, timing.get("received", 0.0)), published)
        self._written = published
        record = {"version": state.version, "how": state.how, "timing": timing, "during": during}
        with contextlib.suppress(OSError, ValueError):  # a full disk or a closed file never fails a publish
            self._out.write(json.dumps(record) + "\n")

    def close(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._on_gc)
        self._out.close()


def live_counts() -> dict[str, int]:
    """Objects of the kinds a long session could leak (versions, documents, models; threads), counted among
    everything the garbage collector tracks: unreachable cycles not yet collected count too."""
    from ascendc_lsp.lsp.state import DocumentHistory
    from ascendc_lsp.syntax.document import SourceDocument
    from ascendc_lsp.syntax.model import DocumentModel

    kinds: dict[type, str] = {
        DocumentState: "DocumentState",
        DocumentHistory: "DocumentHistory",
        SourceDocument: "SourceDocument",
        DocumentModel: "DocumentModel",
    }  # a tree-sitter tree is not tracked by gc: each belongs to one SourceDocument
    counts = dict.fromkeys(kinds.values(), 0)
    for obj in gc.get_objects():
        name = kinds.get(type(obj))
        if name is not None:
            counts[name] += 1
    counts["threads"] = threading.active_count()
    with contextlib.suppress(RuntimeError):  # no running event loop
        counts["asyncio tasks"] = len(asyncio.all_tasks())
    return counts


def _referrer_chains(kinds: tuple[type, ...], depth: int = 6) -> list[str]:
    """For the first live object of each kind, who holds it: referrers up to `depth` levels (a leak's path)."""
    lines: list[str] = []
    for kind in kinds:
        target = next((obj for obj in gc.get_objects() if type(obj) is kind), None)
        if target is None:
            continue
        lines.append(f"a live {kind.__name__} is held by:")
        level: list[Any] = [target]
        seen = {id(target), id(level)}
        for step in range(depth):
            holders: list[Any] = []
            seen.add(id(holders))
            for obj in level:
                holders.extend(r for r in gc.get_referrers(obj) if id(r) not in seen and not inspect.isframe(r))
            if not holders:
                break
            for holder in holders[:6]:
                seen.add(id(holder))
                shown = list(holder)[:6] if isinstance(holder, dict) else repr(holder)[:120]
                lines.append(f"  {'  ' * step}{type(holder).__qualname__}: {shown}")
            level = holders[:6]
            seen.add(id(level))
    return lines


def _write_memory_report(path: str) -> None:
    """The 40 biggest live allocation sites (by traceback) and the live object counts, after a full collection."""
    gc.collect()
    lines = [f"{name}: {count}" for name, count in live_counts().items()]
    by_type = Counter(type(obj).__qualname__ for obj in gc.get_objects())
    lines.append("most numerous gc-tracked types: " + ", ".join(f"{n} {t}" for t, n in by_type.most_common(15)))
    from ascendc_lsp.syntax.model import DocumentModel

    lines.extend(_referrer_chains((DocumentModel, DocumentState)))
    if tracemalloc.is_tracing():
        stats = tracemalloc.take_snapshot().statistics("traceback")
        lines.append(f"traced: {sum(s.size for s in stats) / 1e6:.1f} MB in {len(stats)} sites")
        for stat in stats[:40]:
            lines.append(f"\n{stat.size / 1024:.0f} KiB in {stat.count} blocks")
            lines.extend(stat.traceback.format(limit=12))
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


def command(args: argparse.Namespace) -> int:
    _configure_logging(getattr(args, "log_file", None))
    frames = os.environ.get(TRACE_FRAMES_ENV, "")
    if os.environ.get(MEMORY_REPORT_ENV) and frames.isdigit() and int(frames) > 0:
        tracemalloc.start(min(int(frames), 64))
    code = _serve(args)
    _end_promptly(code)
    return code


def _end_promptly(code: int) -> None:
    """After `exit`, a rules run still computing in a worker thread (it cannot be interrupted) would keep the
    process alive until it ends, as the interpreter joins worker threads: give them a moment, then end."""
    deadline = time.monotonic() + EXIT_GRACE_SECONDS
    for thread in threading.enumerate():
        if thread.name.startswith(WORKER_THREAD_PREFIX):
            thread.join(max(0.0, deadline - time.monotonic()))
    if any(t.name.startswith(WORKER_THREAD_PREFIX) and t.is_alive() for t in threading.enumerate()):
        logging.shutdown()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(ValueError, OSError):  # `exit` closed stdout (pygls closes its writer)
                stream.flush()
        os._exit(code)


def _serve(args: argparse.Namespace) -> int:
    # Diagnostics run in a worker thread; a 1 ms switch interval (default 5 ms) lets hover and
    # completion on the event loop get the GIL promptly while a check is running.
    sys.setswitchinterval(0.001)
    pin_allocator_thresholds()  # large blocks keep their own mappings: fewer pages a trim cannot return
    # Each edit builds thousands of short-lived model objects; the default thresholds run full collections
    # over the (large, long-lived) start-up heap every few edits. Freeze that heap and collect less often.
    # Measured (bench/lsp_latency.py A/B, 1,000-line kernel): p95 100 -> 68 ms, p99 117 -> 83 ms.
    # The server and what the first check would load lazily (rule modules and table, API catalogue, SoC profile)
    # are made first, so that they are frozen too: a collection then walks only what the session's documents
    # allocated, and the first edit with a finding does not wait for the rule table.
    server = AscendcLanguageServer()
    from ascendc_lsp.checks.engine import warm_up

    try:
        warm_up()
    except Exception:  # a broken rule module or table: the first check reports it (checks/engine.py)
        log.exception("cannot load the rules at start-up")
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    host = getattr(args, "host", "127.0.0.1")
    if getattr(args, "tcp", None):
        server.start_tcp(host, args.tcp)
    elif getattr(args, "ws", None):
        serve_websocket(server, host, args.ws)
    else:
        from ascendc_lsp.lsp.transport import serve_stdio

        return serve_stdio(server)
    return 0

