"""On-save toolchain diagnostics explained by the knowledge base, over a real LSP session (pytest-lsp).

Opens a kernel that g++ rejects against the emulator headers (AscendC names without the namespace), saves it,
and expects the compiler error at its line with the knowledge entry's title, related information, and a quick
fix applying the entry's recipe; then the `ascendc.server.explainLog` command.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from ascendc_lsp.lsp.protocol import EXPLAIN_LOG, ErrorCode

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="the emulator backend needs g++")

NO_NAMESPACE = """#include "kernel_operator.h"

extern "C" __global__ __aicore__ void copy_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    (void)pipe;
}
"""


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "ascendc_lsp", "serve", "--stdio"])
)
async def client(lsp_client: LanguageClient) -> Any:
    lsp_client.set_configuration({"soc": "Ascend910B", "diagnostics": {"onSave": True}}, section="ascendc")
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=pytest_lsp.client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()


async def _toolchain_diagnostics(
    client: LanguageClient, uri: str, timeout: float = 90.0
) -> list[types.Diagnostic]:
    async def wait() -> list[types.Diagnostic]:
        while True:
            params = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            found = [d for d in params.diagnostics if d.code == "toolchain"]
            if params.uri == uri and found:
                return found

    return await asyncio.wait_for(wait(), timeout)


async def test_save_publishes_explained_compiler_error_with_fix(
    client: LanguageClient, tmp_path: Path
) -> None:
    path = tmp_path / "copy_kernel.cpp"
    path.write_text(NO_NAMESPACE, encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=NO_NAMESPACE)
        )
    )
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    diagnostics = await _toolchain_diagnostics(client, uri)
    first = diagnostics[0]
    assert first.range.start.line == 4  # `TPipe pipe;`
    assert "TPipe" in first.message
    assert "namespace" in first.message.lower() or "AscendC" in first.message
    assert isinstance(first.data, dict) and "ascendc-namespace-missing" in first.data["knowledge"]
    assert first.related_information and any(r.message.startswith("Why:") for r in first.related_information)

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=first.range,
            context=types.CodeActionContext(diagnostics=[first]),
        )
    )
    assert actions
    fixes = [a for a in actions if isinstance(a, types.CodeAction) and a.edit is not None]
    assert fixes, [a.title for a in actions]
    change = fixes[0].edit.document_changes[0]  # type: ignore[union-attr,index]
    assert isinstance(change, types.TextDocumentEdit)
    edit = change.edits[0]
    assert isinstance(edit, types.TextEdit)
    new_text = edit.new_text
    assert "using namespace AscendC;" in new_text


async def test_explain_log_command(client: LanguageClient) -> None:
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command=EXPLAIN_LOG.id,
            arguments=[{"log": "add.cpp:12:5: error: no matching function for call to 'expf'"}],
        )
    )
    assert result is not None
    assert result["matches"][0]["category"] == "libm-in-kernel"
    assert {"id", "category", "title", "score", "fix"} <= set(result["matches"][0])


@pytest.mark.parametrize("argument", [{"log": ""}, {"log": " \n"}, {}])
async def test_explain_log_command_bad_input(client: LanguageClient, argument: dict[str, str]) -> None:
    with pytest.raises(JsonRpcException, match="the log is empty") as failure:
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=EXPLAIN_LOG.id, arguments=[argument])
        )
    assert failure.value.code == ErrorCode.INVALID_PARAMS
