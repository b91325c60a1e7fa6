"""The language server's LLM commands and code actions over stdio (pytest-lsp), against the FAKE OpenAI server.

The fake server runs in the test process; the language server (a subprocess) talks HTTP to it."""

from __future__ import annotations

import ast
import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from ascendc_lsp.lsp.protocol import GENERATE_KERNEL, REWRITE_KERNEL, ErrorCode
from tests.fake_openai import FakeOpenAIServer, FakeReply, fenced
from tests.test_llm_loop import COMPUTE_LIBM, queue_kernel, spec_yaml

pytestmark = pytest.mark.slow  # every test here may compile a kernel with g++

FAKE = FakeOpenAIServer(default=FakeReply(status=500, error="no scripted reply"))


@pytest.fixture(scope="module", autouse=True)
def fake_server() -> Any:
    with FAKE:
        yield FAKE


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "ascendc_lsp", "serve", "--stdio"])
)
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    lsp_client.set_configuration(
        {"soc": "Ascend910B", "llm": {"baseUrl": FAKE.base_url, "model": "fake-model"}}, section="ascendc"
    )
    edits: list[types.ApplyWorkspaceEditParams] = []
    lsp_client.applied_edits = edits  # type: ignore[attr-defined]

    @lsp_client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        edits.append(params)
        return types.ApplyWorkspaceEditResult(applied=True)

    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=pytest_lsp.client_capabilities("visual-studio-code"))
    )
    settings = {"ascendc": {"soc": "Ascend910B", "llm": {"baseUrl": FAKE.base_url, "model": "fake-model"}}}
    lsp_client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=settings))
    await asyncio.sleep(0.5)
    yield
    await lsp_client.shutdown_session()


def _actions(items: Any) -> dict[str, tuple[str, list[Any]]]:
    """title -> (command, arguments). lsprotocol's client-side parser reads any CodeAction carrying a command as a
    Command (its `command` field then holds the dict's repr), so both shapes are accepted here."""
    out: dict[str, tuple[str, list[Any]]] = {}
    for a in items or []:
        if isinstance(a, types.CodeAction) and a.command is not None:
            out[a.title] = (a.command.command, list(a.command.arguments or []))
        elif isinstance(a, types.Command) and a.command.startswith("{"):
            inner = ast.literal_eval(a.command)
            out[a.title] = (inner["command"], list(inner.get("arguments") or []))
    return out


async def _open(client: LanguageClient, path: Path) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="cpp", version=1, text=path.read_text())))
    for _ in range(100):
        if uri in client.diagnostics:
            break
        await asyncio.sleep(0.05)
    return uri


async def test_generate_kernel_from_inline_spec(client: LanguageClient, tmp_path: Path) -> None:
    import yaml

    FAKE.add(fenced(queue_kernel(compute=COMPUTE_LIBM)), fenced(queue_kernel()), "No libm.\nTITLE: t")
    spec = yaml.safe_load(spec_yaml())
    spec.pop("source")
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=GENERATE_KERNEL.id, arguments=[{"spec": spec, "folder": str(tmp_path), "maxIterations": 3}]))
    assert result.get("correct") is True and result["iterations"] == 2, (result, [m.message for m in client.messages])
    kernel, spec_file = Path(result["kernel"]), Path(result["spec"])
    assert kernel == tmp_path / "vexp.cpp" and "AscendC::Exp(" in kernel.read_text()
    assert spec_file == tmp_path / "vexp.spec.yaml" and "source: vexp.cpp" in spec_file.read_text()
    reports = [r for rs in client.progress_reports.values() for r in rs]
    assert any(isinstance(r, types.WorkDoneProgressBegin) for r in reports)
    assert any(isinstance(r, types.WorkDoneProgressReport) and "attempt 2/3" in (r.message or "") for r in reports)
    assert any(isinstance(r, types.WorkDoneProgressEnd) for r in reports)


async def test_generate_kernel_with_the_vscode_client_argument_shape(client: LanguageClient, tmp_path: Path) -> None:
    # The extension sends one object: {specPath, out, soc} (vscode-client/README.md, "Server command contract").
    FAKE.add(fenced(queue_kernel()))
    spec_path = tmp_path / "gen.yaml"
    spec_path.write_text(spec_yaml(), encoding="utf-8")
    out = tmp_path / "op_kernel" / "vexp.cpp"
    out.parent.mkdir()
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=GENERATE_KERNEL.id,
        arguments=[{"specPath": str(spec_path), "out": str(out), "soc": "Ascend910B"}]))
    assert result.get("correct") is True, (result, [m.message for m in client.messages])
    assert Path(result["kernel"]) == out and "AscendC::Exp(" in out.read_text()


async def test_rewrite_action_applies_only_a_passing_result(client: LanguageClient, tmp_path: Path) -> None:
    src = tmp_path / "vexp.cpp"
    src.write_text(queue_kernel(compute=COMPUTE_LIBM))
    (tmp_path / "spec.yaml").write_text(spec_yaml())
    uri = await _open(client, src)
    diags = client.diagnostics.get(uri, [])
    assert any(d.code == "ASC024" for d in diags)
    line = next(i for i, t in enumerate(src.read_text().splitlines()) if "expf" in t)
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=line, character=8), end=types.Position(line=line, character=8)),
        context=types.CodeActionContext(diagnostics=[d for d in diags if d.code == "ASC024"])))
    found = _actions(actions)
    assert "Rewrite with LLM (checked)" in found and any(t.startswith("Optimise with LLM (checked)") for t in found)
    command, arguments = found["Rewrite with LLM (checked)"]
    assert command == REWRITE_KERNEL.id  # a command: the edit comes only after the loop passes
    on_request = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=line, character=8), end=types.Position(line=line, character=8)),
        context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.RefactorRewrite])))
    requested = _actions(on_request)
    assert "Rewrite with LLM (checked) `Compute`" in requested and "Optimise with LLM (checked) `Compute`" in requested

    # a first run whose attempts all fail: nothing applied, the reason shown
    FAKE.add(*[fenced(queue_kernel(compute=COMPUTE_LIBM))] * 5)
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=command, arguments=arguments))
    assert result["accepted"] is False and result["bestAttempt"]
    assert not client.applied_edits  # type: ignore[attr-defined]
    assert any("Kept the original" in m.message for m in client.messages)

    FAKE.add(fenced(queue_kernel()))
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=command, arguments=arguments))
    assert result["accepted"] is True and result["applied"] is True, result
    edit = client.applied_edits[-1].edit  # type: ignore[attr-defined]
    new_text = edit.document_changes[0].edits[0].new_text
    assert "AscendC::Exp(" in new_text and "expf" not in new_text


async def test_rewrite_without_spec_says_so(client: LanguageClient, tmp_path: Path) -> None:
    src = tmp_path / "lonely.cpp"
    src.write_text(queue_kernel(name="lonely"))
    uri = await _open(client, src)
    with pytest.raises(JsonRpcException, match="needs a kernel spec") as failure:
        await client.workspace_execute_command_async(types.ExecuteCommandParams(
            command=REWRITE_KERNEL.id, arguments=[{"uri": uri, "position": {"line": 10, "character": 0}, "version": 1}]))
    assert "spec.yaml" in failure.value.message and "lonely" in failure.value.message
    assert failure.value.code == ErrorCode.COMMAND_FAILED
