"""The server core in process: one owner of per-document state (lsp/state.py), features that compose
(lsp/aggregate.py), stale versions never published, closing a document frees it.

The server is the real AscendcLanguageServer fed JSON-RPC messages through pygls' own `handle_message`; its output
goes to a writer that records each message (the transport boundary), with the store's current version at that time.
"""

from __future__ import annotations

import asyncio
import gc
import json
import weakref
from pathlib import Path
from typing import Any, TypeVar

import pytest
from lsprotocol import types

from ascendc_lsp.lsp.aggregate import Contributor, aggregated, merge_options
from ascendc_lsp.lsp.features.base import LanguageFeature
from ascendc_lsp.lsp.features.diagnostics import DiagnosticsFeature
from ascendc_lsp.lsp.features.lens import ApiCallHoverFeature
from ascendc_lsp.lsp.features.symbols import HoverFeature
from ascendc_lsp.lsp.server import AscendcLanguageServer
from ascendc_lsp.lsp.state import DocumentStore, carry_findings
from ascendc_lsp.syntax.document import SourceDocument
from tests.conftest import KERNELS

KERNEL = (KERNELS / "add_double_buffer.cpp").read_text(encoding="utf-8")
URI = Path("/tmp/ascendc-lsp-state-tests/kernel.cpp").as_uri()

UB_OVERFLOW = """#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t TILE = 32768;  // a comment to edit
class KernelBig {
public:
    __aicore__ inline void Init() {
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE * sizeof(half));  // in
        pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE * sizeof(half));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE * sizeof(half));
    }
private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueZ;
};
extern "C" __global__ __aicore__ void big(GM_ADDR x) { KernelBig op; op.Init(); }
"""


F = TypeVar("F", bound=LanguageFeature)


def _feature(server: AscendcLanguageServer, kind: type[F]) -> F:
    return next(f for f in server.features if isinstance(f, kind))


class RecordingWriter:
    """The transport boundary: every message the server writes, with the document's current version then."""

    def __init__(self, server: AscendcLanguageServer) -> None:
        self.server = server
        self.messages: list[dict[str, Any]] = []
        self.current_at_write: list[int | None] = []

    def write(self, data: bytes) -> None:
        message = json.loads(data)
        self.messages.append(message)
        state = self.server.documents.get(URI)
        self.current_at_write.append(state.version if state is not None else None)

    def close(self) -> None: ...

    def published(self, uri: str = URI) -> list[tuple[dict[str, Any], int | None]]:
        return [
            (m["params"], current)
            for m, current in zip(self.messages, self.current_at_write, strict=True)
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
        ]


class Session:
    def __init__(self) -> None:
        self.server = AscendcLanguageServer()
        self.writer = RecordingWriter(self.server)
        self.server.protocol.set_writer(self.writer, include_headers=False)
        self._id = 0

    def send(self, method: str, params: Any, request: bool = False) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self._id += 1
            message["id"] = self._id
        protocol = self.server.protocol
        protocol.handle_message(json.loads(json.dumps(message), object_hook=protocol.structure_message))

    async def start(self) -> None:
        self.send("initialize", {"processId": None, "rootUri": None, "capabilities": {}}, request=True)
        self.send("initialized", {})
        await asyncio.sleep(0)

    def open(self, text: str, version: int = 1) -> None:
        item = {"uri": URI, "languageId": "cpp", "version": version, "text": text}
        self.send("textDocument/didOpen", {"textDocument": item})

    def change(self, version: int, line: int, character: int, end_character: int, text: str) -> None:
        change = {"range": {"start": {"line": line, "character": character},
                            "end": {"line": line, "character": end_character}}, "text": text}  # fmt: skip
        self.send("textDocument/didChange", {"textDocument": {"uri": URI, "version": version}, "contentChanges": [change]})

    async def diagnostics(self, version: int, timeout: float = 60.0) -> dict[str, Any]:
        async def wait() -> dict[str, Any]:
            while True:
                for params, _current in self.writer.published():
                    if params.get("version") == version:
                        return params
                await asyncio.sleep(0.01)

        return await asyncio.wait_for(wait(), timeout)


# ---------------------------------------------------------------------------------------------- aggregation


class _Feature:
    def __init__(self, text: str, fail: bool = False) -> None:
        self.text, self.fail = text, fail

    def hover(self, params: types.HoverParams) -> types.Hover | None:
        if self.fail:
            raise RuntimeError("a broken contributor")
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=self.text))

    async def actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        await asyncio.sleep(0)
        return [types.CodeAction(title=self.text)]


def test_two_contributors_merge_and_a_failing_one_is_skipped() -> None:
    a, b, broken = _Feature("**from a**"), _Feature("from b"), _Feature("never", fail=True)
    hover = aggregated(types.TEXT_DOCUMENT_HOVER, [Contributor("a", a.hover), Contributor("x", broken.hover),
                                                   Contributor("b", b.hover)])  # fmt: skip
    params = types.HoverParams(types.TextDocumentIdentifier(URI), types.Position(0, 0))
    merged = hover(params)
    assert isinstance(merged.contents, types.MarkupContent)
    assert merged.contents.value == "**from a**\n\n---\n\nfrom b"

    actions = aggregated(types.TEXT_DOCUMENT_CODE_ACTION, [Contributor("a", a.actions), Contributor("b", b.actions)])
    request = types.CodeActionParams(
        types.TextDocumentIdentifier(URI), types.Range(types.Position(0, 0), types.Position(0, 0)),
        types.CodeActionContext(diagnostics=[]),
    )  # fmt: skip
    assert [action.title for action in asyncio.run(actions(request))] == ["**from a**", "from b"]


def test_registration_options_are_merged() -> None:
    merged = merge_options(types.TEXT_DOCUMENT_CODE_ACTION, [
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.Source]),
    ])  # fmt: skip
    assert merged.code_action_kinds == [types.CodeActionKind.QuickFix, types.CodeActionKind.Source]
    completion = merge_options(types.TEXT_DOCUMENT_COMPLETION, [
        types.CompletionOptions(trigger_characters=[".", ":"]), types.CompletionOptions(trigger_characters=["<", "."],
                                                                                        resolve_provider=True),
    ])  # fmt: skip
    assert completion.trigger_characters == [".", ":", "<"] and completion.resolve_provider


def test_the_server_registers_one_handler_per_method_fed_by_several_features() -> None:
    server = AscendcLanguageServer()
    contributors = {
        method: [type(f).__name__ for f in server.features if method in type(f).methods]
        for method in (types.TEXT_DOCUMENT_HOVER, types.TEXT_DOCUMENT_CODE_ACTION)
    }
    assert contributors[types.TEXT_DOCUMENT_HOVER] == ["ApiCallHoverFeature", "HoverFeature"]
    assert contributors[types.TEXT_DOCUMENT_CODE_ACTION] == ["CodeActionsFeature", "LlmFeature"]
    # no feature extends another to get at a method
    names = {type(f).__name__ for f in server.features}
    for feature in server.features:
        assert not {base.__name__ for base in type(feature).__mro__[1:]} & names


def test_two_real_features_contribute_to_one_hover_and_one_code_action_request() -> None:
    async def run() -> None:
        session = Session()
        await session.start()
        session.open(UB_OVERFLOW)
        published = await session.diagnostics(1)
        handlers = session.server.protocol.fm.features
        # hover on `InitBuffer`: the call's facts (ApiCallHoverFeature) above the catalogue's API (HoverFeature)
        line = 7
        character = UB_OVERFLOW.splitlines()[line].index("InitBuffer") + 2
        params = types.HoverParams(types.TextDocumentIdentifier(URI), types.Position(line, character))
        hover = handlers[types.TEXT_DOCUMENT_HOVER](params)
        api_call = _feature(session.server, ApiCallHoverFeature).hover(params)  # alone
        model = _feature(session.server, HoverFeature).hover(params)  # alone
        assert api_call is not None and model is not None
        parts = [h.contents for h in (hover, api_call, model)]
        assert all(isinstance(p, types.MarkupContent) for p in parts)
        merged, first, second = (p.value for p in parts if isinstance(p, types.MarkupContent))
        assert merged == f"{first}\n\n---\n\n{second}"

        # a code action on the UB diagnostic: its quick fix (CodeActionsFeature) and the LLM rewrite (LlmFeature)
        diagnostic = next(d for d in published["diagnostics"] if d["code"] == "ASC001")
        context = session.server.protocol.structure_message
        request = {"jsonrpc": "2.0", "id": 99, "method": "textDocument/codeAction", "params": {
            "textDocument": {"uri": URI}, "range": diagnostic["range"], "context": {"diagnostics": [diagnostic]}}}
        session.server.protocol.handle_message(json.loads(json.dumps(request), object_hook=context))
        for _ in range(500):
            answer = next((m for m in session.writer.messages if m.get("id") == 99), None)
            if answer is not None:
                break
            await asyncio.sleep(0.01)
        assert answer is not None
        titles = [action["title"] for action in answer["result"]]
        assert any(t.startswith("Rewrite with LLM") for t in titles)
        assert any(not t.startswith("Rewrite with LLM") for t in titles), titles  # the rule's own fix

    asyncio.run(run())


# ------------------------------------------------------------------------------------- one owner of state


def test_closing_a_document_frees_its_state_and_cancels_its_work() -> None:
    async def run() -> None:
        session = Session()
        await session.start()
        session.open(KERNEL)
        await session.diagnostics(1)
        state = session.server.documents.get(URI)
        assert state is not None and state.findings is not None
        assert state.model is not None
        history = state.history
        freed: list[weakref.ref[Any]] = [weakref.ref(state), weakref.ref(history)]
        session.change(2, 0, 0, 0, "// first line\n")
        session.change(3, 0, 0, 0, "int x;\n")  # a debounced run is now scheduled
        assert history.check_timer is not None or history.checking  # either is in flight
        session.send("textDocument/didClose", {"textDocument": {"uri": URI}})
        assert URI not in session.server.documents and len(session.server.documents) == 0
        assert history.check_timer is None and history.compile_task is None
        assert URI not in session.server.workspace.text_documents
        del state, history
        await asyncio.sleep(0.3)  # a run in flight finishes and publishes nothing
        gc.collect()
        assert [ref() for ref in freed] == [None, None]
        # the last message for the document clears its diagnostics
        last, _ = session.writer.published()[-1]
        assert last["diagnostics"] == [] and last.get("version") is None

    asyncio.run(run())


def test_a_stale_versions_findings_are_never_published() -> None:
    async def run() -> None:
        session = Session()
        await session.start()
        session.open(UB_OVERFLOW)
        await session.diagnostics(1)
        feature = _feature(session.server, DiagnosticsFeature)
        store = session.server.documents
        # a check of version 2 that finishes after version 3 arrived
        stale = store.update(URI, UB_OVERFLOW.replace("32768", "32"), 2)
        store.update(URI, UB_OVERFLOW.replace("32768", "64"), 3)
        before = len(session.writer.published())
        assert await feature.check(stale) is False
        assert stale.findings is None  # superseded before a worker thread took it: never computed, never published
        assert len(session.writer.published()) == before

        # a burst of real edits: every publish is of the version current at that moment, in order
        lines = UB_OVERFLOW.splitlines()
        line = 3
        column = lines[line].index("32768")
        for version in range(4, 12):
            session.change(version, line, column, column + 1, str(version % 3 + 1))
            await asyncio.sleep(0.005 * (version % 3))
        await session.diagnostics(11)
        versions = []
        for params, current in session.writer.published():
            if params.get("version") is not None:
                assert params["version"] == current
                versions.append(params["version"])
        assert versions == sorted(versions) and versions[-1] == 11

    asyncio.run(run())


def test_the_model_is_built_once_per_version_and_shared() -> None:
    store = DocumentStore()
    state = store.update(URI, KERNEL, 1)
    assert state.built_model() is None
    model = state.model
    assert state.model is model and state.built_model() is model
    assert state.budgets is state.budgets
    # one budget computation per model: the memory rules, hover, completion and lenses call class_budgets directly
    from ascendc_lsp.hardware.budget import class_budgets

    assert class_budgets(model) is state.budgets and state.budgets
    # completion may answer from the newest built model until the new version's is built
    newer = store.update(URI, KERNEL + "\n", 2)
    assert store.recent_model(URI) is model
    assert newer.model is not model and store.recent_model(URI) is newer.model
    store.close(URI)
    assert store.recent_model(URI) is None and store.get(URI) is None


# ------------------------------------------------------------------------------------- comment-only edits


def _check(text: str, previous: SourceDocument | None = None) -> tuple[SourceDocument, list[Any]]:
    from ascendc_lsp.checks.engine import CheckOptions, check_document

    document = SourceDocument(text, path="", version=(previous.version + 1) if previous else 1, previous=previous)
    return document, check_document(document, CheckOptions(use_project=False))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("constexpr int32_t TILE = 32768;  // a comment to edit", "constexpr int32_t TILE = 32768;  // a comment to edit!"),
        ("constexpr int32_t TILE = 32768;  // a comment to edit", "constexpr int32_t TILE = 32768;  // a comment, edited"),
        ("pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE * sizeof(half));  // in",
         "pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE * sizeof(half));  // i"),
    ],
)  # fmt: skip
def test_comment_edits_keep_the_findings_moved_with_the_text(old: str, new: str) -> None:
    first, findings = _check(UB_OVERFLOW)
    assert findings
    edited = UB_OVERFLOW.replace(old, new)
    second, expected = _check(edited, first)
    carried = carry_findings(first, second, findings)
    assert carried is not None
    assert [(f.span, f.code, f.message, f.fixes, f.related) for f in carried] == [
        (f.span, f.code, f.message, f.fixes, f.related) for f in expected
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("32768;  // a comment to edit", "32;  // a comment to edit"),  # code
        ("// a comment to edit", "// a comment to edit \\"),  # continues the comment onto the next line
        ("// a comment to edit", "/* a comment to edit"),  # opens a block comment
        ("// a comment to edit", "a comment to edit"),  # the comment becomes code
    ],
)
def test_edits_that_change_what_the_rules_see_are_checked_again(old: str, new: str) -> None:
    first, findings = _check(UB_OVERFLOW)
    second, _ = _check(UB_OVERFLOW.replace(old, new), first)
    assert carry_findings(first, second, findings) is None


def test_a_launch_that_the_dialect_layer_hides_as_a_comment_is_not_trivia() -> None:
    text = 'void f(int* x) { big<<<8, nullptr, s>>>(x); }\n'
    first, findings = _check(text)
    second, _ = _check(text.replace("<<<8", "<<<9"), first)
    assert carry_findings(first, second, findings) is None


def test_a_comment_edit_publishes_the_moved_findings_and_builds_the_model_when_typing_pauses() -> None:
    async def run() -> None:
        session = Session()
        await session.start()
        session.open(UB_OVERFLOW)
        first = await session.diagnostics(1)
        line = 3
        column = len(UB_OVERFLOW.splitlines()[line])
        session.change(2, line, column, column, "!")  # at the end of `// a comment to edit`
        state = session.server.documents.get(URI)
        assert state is not None and state.findings is not None and state.built_model() is None
        second = await session.diagnostics(2, timeout=5)
        assert second["diagnostics"] == first["diagnostics"]
        for _ in range(300):
            if state.built_model() is not None:
                break
            await asyncio.sleep(0.02)
        assert state.built_model() is not None

    asyncio.run(run())
