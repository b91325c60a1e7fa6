"""clangd beside our server: with the flags "AscendC: Configure clangd" writes when no CANN is installed (the emulator
headers in IDE mode), clangd reads a kernel without an error and its signature help shows the API's parameters
without the emulator's call-site capture (`Loc loc = Loc()`). Skipped when clangd is not installed."""

from __future__ import annotations

import json
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from ascendc_lsp.lsp.features.clangd import clangd_setup, dot_clangd, op_kernel_fragments

CLANGD = shutil.which("clangd-19") or shutil.which("clangd")
pytestmark = pytest.mark.skipif(CLANGD is None, reason="clangd is not installed")

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void add_one(GM_ADDR x) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)x, 128);
    pipe.InitBuffer(q, 1, 256);
    LocalTensor<half> t = q.AllocTensor<half>();
    DataCopy(t, g, 128);
    Adds(t, t, (half)1, 128);
    q.FreeTensor(t);
}
"""
WORK = Path("/tmp/ascendc-lsp-tests/clangd-ide")
OP_PROJECTS = Path(__file__).resolve().parent / "op_projects"
SQUARE = OP_PROJECTS / "square" / "op_kernel" / "square_custom.cpp"


def _workspace() -> Path:
    WORK.mkdir(parents=True, exist_ok=True)
    setup = clangd_setup("Ascend910B")
    (WORK / ".clangd").write_text(dot_clangd(setup), encoding="utf-8")
    (WORK / "add_one.cpp").write_text(KERNEL, encoding="utf-8")
    command = {"directory": str(WORK), "file": str(WORK / "add_one.cpp"),
               "arguments": ["clang++", *setup.flags, "-c", str(WORK / "add_one.cpp")]}  # fmt: skip
    # an op kernel: what its op build generates (DTYPE_<X>, the tiling struct at global scope) force-included
    fragments, problems = op_kernel_fragments(OP_PROJECTS, setup)
    assert not problems and "square/op_kernel/square_custom.cpp" in fragments
    op_flags = fragments["square/op_kernel/square_custom.cpp"]
    op_command = {"directory": str(SQUARE.parent), "file": str(SQUARE),
                  "arguments": ["clang++", *setup.flags, *op_flags, "-c", str(SQUARE)]}  # fmt: skip
    (WORK / "compile_commands.json").write_text(json.dumps([command, op_command]), encoding="utf-8")
    return WORK


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[CLANGD or "clangd", "--background-index=0", "--clang-tidy=0", f"--compile-commands-dir={WORK}"]
    )
)
async def clangd(lsp_client: LanguageClient) -> AsyncIterator[None]:
    root = _workspace()
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=root.as_uri()
        )
    )
    yield
    await lsp_client.shutdown_session()


async def test_clangd_reads_a_kernel_against_the_ide_mode_headers(clangd: LanguageClient) -> None:
    lsp_client = clangd
    if clangd_setup("Ascend910B").substrate != "emulator":
        pytest.skip("a CANN toolkit is installed: the flags name its headers")
    uri = (WORK / "add_one.cpp").as_uri()
    lsp_client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri, "cpp", 1, KERNEL))
    )
    await lsp_client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    errors = [d for d in lsp_client.diagnostics.get(uri, []) if d.severity == types.DiagnosticSeverity.Error]
    assert not errors, [d.message for d in errors]
    line = KERNEL.splitlines().index("    DataCopy(t, g, 128);")
    help_ = await lsp_client.text_document_signature_help_async(
        types.SignatureHelpParams(types.TextDocumentIdentifier(uri), types.Position(line, len("    DataCopy(t, ")))
    )
    assert help_ is not None and help_.signatures
    labels = [s.label for s in help_.signatures]
    assert any("count" in label for label in labels), labels
    assert all(label.split("(", 1)[1].rstrip(") ->void").endswith("...") for label in labels), labels
    assert not any("Loc loc" in label or "ascendc_emu::Loc" in label for label in labels), labels


async def test_clangd_reads_an_op_kernel_with_its_op_build_header(clangd: LanguageClient) -> None:
    if clangd_setup("Ascend910B").substrate != "emulator":
        pytest.skip("a CANN toolkit is installed: the flags name its headers")
    uri = SQUARE.as_uri()
    text = SQUARE.read_text(encoding="utf-8")
    assert "GET_TILING_DATA" in text
    clangd.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "cpp", 1, text)))
    await clangd.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    errors = [d for d in clangd.diagnostics.get(uri, []) if d.severity == types.DiagnosticSeverity.Error]
    assert not errors, [d.message for d in errors]
