"""The editor's on-save values path, end to end: a kernel with an op test case beside it is opened in the real
server (pytest-lsp over stdio); before a save its UB total needs the tiling values (information naming them),
and the save runs the op's host TilingFunc once (off the event loop), after which the server publishes the
value-dependent finding that names the values used."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

TESTS = Path(__file__).resolve().parent

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="the op host build needs g++")


async def _diagnostics_until(
    client: LanguageClient, uri: str, done: Callable[[list[types.Diagnostic]], bool], timeout: float
) -> list[types.Diagnostic]:
    """The first diagnostics published for `uri` that satisfy `done` (the server may publish several)."""

    async def wait() -> list[types.Diagnostic]:
        while True:
            params = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            if params.uri == uri and done(params.diagnostics):
                return params.diagnostics

    return await asyncio.wait_for(wait(), timeout)


def _ub(diagnostics: list[types.Diagnostic]) -> list[types.Diagnostic]:
    return [d for d in diagnostics if d.code == "ASC001"]


async def test_saving_a_kernel_with_a_test_case_beside_it_folds_the_host_tiling_values(
    client: LanguageClient, tmp_path: Path
) -> None:
    # Our own op project (tests/op_projects/square): its TilingFunc sets tileLength = 1024 for this case, and
    # the kernel's UB buffer is sized by it; 64 times that is 256 KiB, over Ascend910B's UB.
    shutil.copytree(TESTS / "op_projects", tmp_path / "ops")
    kernel = tmp_path / "ops" / "square" / "op_kernel" / "square_custom.cpp"
    (tmp_path / "ops" / "square" / "case.yaml").write_text(
        "project: op_kernel/square_custom.cpp\n"
        "inputs:\n  - {name: x, shape: [64, 128], dtype: float32}\n"
        "outputs:\n  - {name: y, shape: [64, 128]}\n"
        "attrs: {negate: true}\nreference: 'y = -(x * x)'\n",
        encoding="utf-8",
    )
    text = kernel.read_text(encoding="utf-8").replace("t.tileLength * sizeof(float)", "t.tileLength * sizeof(float) * 64")
    kernel.write_text(text, encoding="utf-8")
    uri = kernel.as_uri()

    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=text)
        )
    )
    opened = await _diagnostics_until(client, uri, lambda ds: True, timeout=60)
    # Nothing runs on open or on a keystroke: the total is information that names the value it needs.
    assert [d.severity for d in _ub(opened)] == [types.DiagnosticSeverity.Information]
    assert "tileLength" in _ub(opened)[0].message

    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    saved = await _diagnostics_until(
        client, uri, lambda ds: any(d.severity == types.DiagnosticSeverity.Error for d in _ub(ds)), timeout=300
    )
    error = next(d for d in _ub(saved) if d.severity == types.DiagnosticSeverity.Error)
    assert "tileLength=1024 from case.yaml" in error.message
    assert error.range.start.line == next(i for i, line in enumerate(text.splitlines()) if "InitBuffer" in line)
