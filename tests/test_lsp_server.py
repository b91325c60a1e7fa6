"""End-to-end tests of the language server over stdio with pytest-lsp (a real client, a real server process)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.conftest import KERNELS

UB_OVERFLOW = """#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t TILE = 32768;
class KernelBig {
public:
    __aicore__ inline void Init() {
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE * sizeof(half));
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


def _uri(name: str) -> str:
    return Path("/tmp/ascendc-lsp-tests", name).as_uri()


async def _open(client: LanguageClient, name: str, text: str, version: int = 1) -> str:
    uri = _uri(name)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=version, text=text)
        )
    )
    await _wait_diagnostics(client, uri, version)
    return uri


async def _wait_diagnostics(client: LanguageClient, uri: str, version: int, timeout: float = 10.0) -> None:
    async def wait() -> None:
        while True:
            params = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            if params.uri == uri and (params.version is None or params.version >= version):
                return

    await asyncio.wait_for(wait(), timeout)


def _change(client: LanguageClient, uri: str, version: int, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=types.Position(*start), end=types.Position(*end)), text=text
                )
            ],
        )
    )


async def test_ub_overflow_diagnostic_then_fixed_by_incremental_edit(client: LanguageClient) -> None:
    uri = await _open(client, "big.cpp", UB_OVERFLOW)
    diagnostics = client.diagnostics[uri]
    assert [d.code for d in diagnostics] == ["ASC001"]
    assert "393,216 B" in diagnostics[0].message and "Ascend910B" in diagnostics[0].message
    assert diagnostics[0].data["category"] == "ub-overflow"
    # TILE = 32768 -> 8192: 3 queues x 2 x 16 KB = 96 KB fits.
    line = UB_OVERFLOW.splitlines().index("constexpr int32_t TILE = 32768;")
    _change(client, uri, 2, (line, 25), (line, 30), "8192")
    await _wait_diagnostics(client, uri, 2)
    assert len(client.diagnostics[uri]) == 0


async def test_syntax_error_is_reported_and_cleared(client: LanguageClient) -> None:
    uri = await _open(client, "broken.cpp", "extern \"C\" __global__ __aicore__ void k(GM_ADDR x) {\n    int a = 1\n}\n")
    codes = [d.code for d in client.diagnostics[uri]]
    assert "syntax" in codes
    _change(client, uri, 2, (1, 13), (1, 13), ";")
    await _wait_diagnostics(client, uri, 2)
    assert [d.code for d in client.diagnostics[uri]] == []


async def test_document_symbols(client: LanguageClient) -> None:
    text = (KERNELS / "add_double_buffer.cpp").read_text(encoding="utf-8")
    uri = await _open(client, "add.cpp", text)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert symbols is not None
    names = [s.name for s in symbols]  # type: ignore[union-attr]
    assert "KernelAdd" in names and "add_custom" in names
    kernel_class = next(s for s in symbols if s.name == "KernelAdd")  # type: ignore[union-attr]
    children = {c.name: c.detail for c in kernel_class.children or []}  # type: ignore[union-attr]
    assert children["inQueueX"] == "TQue<VECIN, BUFFER_NUM>"
    assert {"Init", "Process", "CopyIn", "Compute", "CopyOut", "pipe"} <= set(children)


async def test_hover_on_queue_constant_and_class(client: LanguageClient) -> None:
    text = (KERNELS / "add_double_buffer.cpp").read_text(encoding="utf-8")
    uri = await _open(client, "hover.cpp", text)
    lines = text.splitlines()

    async def hover(line_text: str, word: str) -> str:
        line = next(i for i, text_line in enumerate(lines) if line_text in text_line)
        character = lines[line].index(word) + 1
        result = await client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line, character))
        )
        assert result is not None
        return result.contents.value  # type: ignore[union-attr]

    queue = await hover("pipe.InitBuffer(inQueueX", "inQueueX")
    assert "VECIN" in queue and "2 buffer(s) x 256 B" in queue and "512 B" in queue
    constant = await hover("constexpr int32_t TILE_LENGTH", "TILE_LENGTH")
    assert "**128**" in constant
    budget = await hover("class KernelAdd", "KernelAdd")
    assert "UB 1,536 B of" in budget


async def test_bad_input_never_crashes(client: LanguageClient) -> None:
    uri = await _open(client, "empty.cpp", "")
    assert len(client.diagnostics[uri]) == 0
    binary = "".join(chr(c) for c in range(0, 256)) * 20
    uri = await _open(client, "binary.cpp", binary)
    assert all(d.code in ("syntax",) or d.code.startswith("ASC") for d in client.diagnostics[uri])
    # A document closed right after an edit: the pending run is dropped and diagnostics are cleared.
    uri = await _open(client, "closing.cpp", UB_OVERFLOW)
    _change(client, uri, 2, (0, 0), (0, 0), "// edit\n")
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    # Requests on unknown documents answer empty results.
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=_uri("never-opened.cpp")))
    )
    assert symbols == []
    # The server is still alive and answering.
    uri = await _open(client, "after.cpp", UB_OVERFLOW)
    assert [d.code for d in client.diagnostics[uri]] == ["ASC001"]


async def test_large_document(client: LanguageClient) -> None:
    block = (KERNELS / "add_double_buffer.cpp").read_text(encoding="utf-8").replace("add_custom", "k{n}")
    text = "\n".join(block.replace("{n}", str(i)).replace("KernelAdd", f"KernelAdd{i}") for i in range(1600))
    assert len(text.encode()) > 5_000_000
    uri = _uri("large.cpp")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=text))
    )
    await _wait_diagnostics(client, uri, 1, timeout=120)
    assert [d.code for d in client.diagnostics[uri]] == []


async def test_unknown_settings_and_soc_are_reported_not_fatal(client: LanguageClient) -> None:
    client.set_configuration(
        {"soc": "Ascend310P", "bogus": 1, "diagnostics": {"debounceMs": "fast"}}, section="ascendc"
    )
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    uri = _uri("soc.cpp")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=UB_OVERFLOW)
        )
    )
    for _ in range(6):
        await _wait_diagnostics(client, uri, 1)
        messages = [d.message for d in client.diagnostics[uri]]
        if messages and "Ascend310P" in messages[0]:
            break
    assert any("Ascend310P" in m for m in messages)
    logged = [m.message for m in client.log_messages]
    assert any("bogus" in m for m in logged)
    assert any("debounceMs" in m for m in logged)
