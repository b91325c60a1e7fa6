"""The command contract (lsp/protocol.py): the TypeScript mirror is current, and every server command, run over
stdio with the exact argument shapes the VS Code client sends (vscode-client/src/commands/*.ts build them with the
generated types), answers its typed result or a JSON-RPC error with a code and a one-line message."""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from ascendc_lsp.lsp.protocol import (
    CLANGD_CONFIG,
    COMMANDS,
    EXPLAIN_LOG,
    RUN_KERNEL,
    SHOW_BUDGET,
    SHOW_ENTRY_FIX,
    CommandError,
    ErrorCode,
    structure_params,
    typescript,
)
from tests.conftest import KERNELS

REPO = Path(__file__).resolve().parents[1]
PROTOCOL_TS = REPO / "vscode-client" / "src" / "protocol.ts"
EXAMPLE = REPO / "examples" / "add_double_buffer"
OP_CASE = REPO / "tests" / "op_cases" / "square_negate.yaml"
PROGRAM = REPO / "tests" / "lsp_inputs" / "add_one" / "add_one.asc"


def test_the_typescript_mirror_is_current() -> None:
    assert PROTOCOL_TS.read_text(encoding="utf-8") == typescript(), (
        "vscode-client/src/protocol.ts is out of date: python -m ascendc_lsp.lsp.protocol > vscode-client/src/protocol.ts"
    )


def test_every_server_command_id_differs_from_the_client_commands() -> None:
    package = json.loads((REPO / "vscode-client" / "package.json").read_text(encoding="utf-8"))
    client_ids = {c["command"] for c in package["contributes"]["commands"]}
    assert client_ids and not client_ids & set(COMMANDS)


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ([{"spec": "a.yaml"}], "unknown field spec"),  # the old client's key
        (["a.yaml"], "takes one object argument"),
        ([{"specPath": "a.yaml"}, {"trace": True}], "takes one object argument, got 2"),
        ([{"specPath": "a.yaml", "trace": "yes"}], "expected a boolean"),
        ([{"specPath": 7}], "expected a string"),
    ],
)
def test_params_that_do_not_fit_are_invalid_params_naming_the_problem(arguments: list[Any], problem: str) -> None:
    with pytest.raises(CommandError, match=problem) as failure:
        structure_params(RUN_KERNEL, arguments)
    assert failure.value.code == ErrorCode.INVALID_PARAMS and "\n" not in failure.value.message


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "ascendc_lsp", "serve", "--stdio"])
)
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    lsp_client.set_configuration({"soc": "Ascend910B"}, section="ascendc")
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=pytest_lsp.client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()


async def _execute(client: LanguageClient, command: str, *arguments: Any) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=list(arguments))
    )


async def _fails(client: LanguageClient, command: str, argument: Any, code: ErrorCode, match: str) -> str:
    with pytest.raises(JsonRpcException) as failure:
        await _execute(client, command, argument)
    assert failure.value.code == code, failure.value.message
    assert match in failure.value.message and "\n" not in failure.value.message
    return failure.value.message


async def test_the_server_defines_every_command_of_the_contract(client: LanguageClient) -> None:
    for command in COMMANDS:
        # An unknown command is InvalidParams "is not defined"; ours must get past that to their own validation.
        with pytest.raises(JsonRpcException) as failure:
            await _execute(client, command, ["not an object"])
        assert "is not defined" not in failure.value.message and command in failure.value.message


async def test_run_kernel_runs_a_spec_with_the_client_shape_and_writes_the_trace(client: LanguageClient) -> None:
    # vscode-client/src/commands/run.ts: {specPath, source, trace, backend}
    result = await _execute(
        client,
        RUN_KERNEL.id,
        {
            "specPath": str(EXAMPLE / "spec.yaml"),
            "source": str(EXAMPLE / "add_double_buffer.cpp"),
            "trace": True,
            "backend": "emulator",
        },
    )
    assert result["kind"] == "spec" and result["correct"] is True, result["summary"]
    assert result["summary"].startswith("CORRECT") and result["stage"] in ("compare", "done", "run")
    assert result["run"]["outputs"] and result["run"]["estimate"]["cycles"] > 0
    trace = json.loads(Path(result["trace"]).read_text(encoding="utf-8"))
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    assert any(e.get("ph") == "X" for e in events)


async def test_run_kernel_runs_a_buggy_spec_and_says_why(client: LanguageClient) -> None:
    result = await _execute(client, RUN_KERNEL.id, {"specPath": str(EXAMPLE / "spec_buggy.yaml"), "trace": False})
    assert result["correct"] is False and result["summary"].startswith("NOT CORRECT")


async def test_run_kernel_runs_an_op_project_test_case(client: LanguageClient) -> None:
    result = await _execute(client, RUN_KERNEL.id, {"testCase": str(OP_CASE), "trace": False})
    assert result["kind"] == "testCase" and result["correct"] is True, result["summary"]
    # a test case given as specPath (the client picks YAML files beside the kernel) runs as a test case too
    again = await _execute(client, RUN_KERNEL.id, {"specPath": str(OP_CASE)})
    assert again["kind"] == "testCase" and again["correct"] is True


async def test_run_kernel_runs_a_direct_launch_program(client: LanguageClient) -> None:
    result = await _execute(client, RUN_KERNEL.id, {"program": str(PROGRAM), "trace": True})
    assert result["kind"] == "program" and result["correct"] is True, result["summary"]
    assert result["run"]["verified"] is True and result["run"]["launches"][0]["kernel"] == "add_one"
    assert result["trace"] and Path(result["trace"]).is_file()


async def test_run_kernel_failures_have_one_shape(client: LanguageClient, tmp_path: Path) -> None:
    await _fails(client, RUN_KERNEL.id, {"spec": "x.yaml"}, ErrorCode.INVALID_PARAMS, "unknown field spec")
    await _fails(client, RUN_KERNEL.id, {}, ErrorCode.INVALID_PARAMS, "exactly one target")
    both = {"specPath": str(EXAMPLE / "spec.yaml"), "program": str(PROGRAM)}
    await _fails(client, RUN_KERNEL.id, both, ErrorCode.INVALID_PARAMS, "specPath, program")
    missing = str(tmp_path / "nope.yaml")
    await _fails(client, RUN_KERNEL.id, {"specPath": missing}, ErrorCode.COMMAND_FAILED, "no such file")
    bad = tmp_path / "bad.yaml"
    bad.write_text("kernel: k\ninputz: []\n", encoding="utf-8")
    await _fails(client, RUN_KERNEL.id, {"specPath": str(bad)}, ErrorCode.COMMAND_FAILED, "bad.yaml")


async def test_explain_log_with_the_client_shapes(client: LanguageClient, tmp_path: Path) -> None:
    line = "add.cpp:12:5: error: no matching function for call to 'expf'"
    # vscode-client/src/commands/explain.ts: {log, path?, source?}
    result = await _execute(client, EXPLAIN_LOG.id, {"log": line, "source": str(KERNELS / "add_double_buffer.cpp")})
    assert result["matches"][0]["category"] == "libm-in-kernel"
    log_file = tmp_path / "build.log"
    log_file.write_text(line + "\n", encoding="utf-8")
    from_file = await _execute(client, EXPLAIN_LOG.id, {"path": str(log_file)})
    assert from_file["matches"][0]["id"] == result["matches"][0]["id"]
    await _fails(client, EXPLAIN_LOG.id, {"path": str(tmp_path / "none.log")}, ErrorCode.COMMAND_FAILED, "none.log")


async def test_show_entry_fix_and_show_budget(client: LanguageClient) -> None:
    explained = await _execute(client, EXPLAIN_LOG.id, {"log": "error: no matching function for call to 'expf'"})
    entry = explained["matches"][0]["id"]
    shown = await _execute(client, SHOW_ENTRY_FIX.id, {"entryId": entry})
    assert Path(shown["path"]).is_file() and entry in Path(shown["path"]).read_text(encoding="utf-8")
    await _fails(client, SHOW_ENTRY_FIX.id, {"entryId": "no-such-entry"}, ErrorCode.COMMAND_FAILED, "no-such-entry")

    uri = Path("/tmp/ascendc-lsp-tests/protocol_add.cpp").as_uri()
    text = (KERNELS / "add_double_buffer.cpp").read_text(encoding="utf-8")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri, "cpp", 1, text))
    )
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri))
    )
    assert lenses and lenses[0].command is not None and lenses[0].command.command == SHOW_BUDGET.id
    table = await _execute(client, SHOW_BUDGET.id, *(lenses[0].command.arguments or []))
    assert "outQueueZ" in table["markdown"]
    await _fails(client, SHOW_BUDGET.id, {"uri": "file:///nowhere.cpp"}, ErrorCode.NOT_AVAILABLE, "not open")


async def test_clangd_config_uses_the_emulator_headers_without_cann(client: LanguageClient, tmp_path: Path) -> None:
    from ascendc_lsp.toolchain.emulator.build import include_dir

    result = await _execute(client, CLANGD_CONFIG.id, {"folder": str(tmp_path), "soc": "Ascend910B"})
    if result["substrate"] == "cann":
        pytest.skip("a CANN toolkit is installed here: the .clangd names its headers")
    assert f"-I{include_dir()}" in result["flags"] and "-DASCENDC_EMU_IDE=1" in result["flags"]
    assert "-D__NPU_ARCH__=2201" in result["flags"]  # the Ascend910B profile's npu_arch
    assert result["text"].startswith("# Written by") and "PathMatch: [.*\\.asc]" in result["text"]
    await _fails(client, CLANGD_CONFIG.id, {"folder": str(tmp_path / "nope")}, ErrorCode.COMMAND_FAILED, "not a folder")
