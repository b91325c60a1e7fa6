"""Cancelling `ascendc.server.runKernel` (the editor's "Cancel" on the run's progress) answers RequestCancelled,
stops the kernel's process (no descendant of the server is left spinning) and leaves the server answering.
The slow kernel is the end-to-end test's own fixture: a copy behind 10^12 scalar steps, far longer than the
run's own limit, so only the cancel can stop it in time."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest

from ascendc_lsp.lsp.features.run import run_target
from ascendc_lsp.lsp.protocol import EXPLAIN_LOG, RUN_KERNEL, RunKernelParams
from ascendc_lsp.settings import Settings
from tests.lsp_wire import Peer, notification, request

SLOW_SPEC = Path(__file__).resolve().parents[1] / "vscode-client" / "test" / "e2e" / "workspace" / "slow_copy.yaml"

pytestmark = pytest.mark.slow


def _descendants(pid: int) -> list[int]:
    """Every process below pid (through /proc/<pid>/task/*/children)."""
    out: list[int] = []
    stack = [pid]
    while stack:
        parent = stack.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                continue
            out += children
            stack += children
    return out


@pytest.fixture(autouse=True)
def _needs_gxx() -> None:
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed")


def test_a_cancelled_run_stops_its_kernel_and_says_so(tmp_path: Path) -> None:
    cancel = threading.Event()
    threading.Timer(1.0, cancel.set).start()  # during the compile or the spin: either way the kernel must stop
    result = run_target(RunKernelParams(spec_path=str(SLOW_SPEC)), Settings(), tmp_path, cancel)
    assert result.correct is False
    codes = [d["code"] for d in result.run["diagnostics"]]
    assert "cancelled" in codes, result.run["diagnostics"]
    assert result.run["estimate"] is None and result.run["outputs"] == []


def test_cancel_request_answers_cancelled_kills_the_kernel_and_the_server_keeps_answering() -> None:
    peer = Peer()
    try:
        peer.initialize()
        peer.send_message(request(2, "workspace/executeCommand",
                                  {"command": RUN_KERNEL.id, "arguments": [{"specPath": str(SLOW_SPEC), "timeout": 3600}]}))  # fmt: skip
        # the server asks for a progress token, then begins the run's progress: the work is under way
        create = peer.wait(lambda m: m.get("method") == "window/workDoneProgress/create", timeout=60)
        peer.send_message({"jsonrpc": "2.0", "id": create["id"], "result": None})
        token = create["params"]["token"]
        peer.wait(lambda m: m.get("method") == "$/progress" and m["params"]["value"].get("kind") == "begin", 60)
        # generous bounds, not a speed target: the kernel alone would spin for far longer (its run limit is an hour)
        deadline = time.monotonic() + 300
        while not _descendants(peer.proc.pid) and time.monotonic() < deadline:  # g++ or the kernel itself
            time.sleep(0.2)
        assert _descendants(peer.proc.pid), "the run started no process"
        peer.send_message(notification("$/cancelRequest", {"id": 2}))
        # the command itself is cancelled (pygls alone only dropped the answer): its progress ends, then the answer
        peer.wait(lambda m: m.get("method") == "$/progress" and m["params"]["token"] == token
                  and m["params"]["value"].get("kind") == "end", 30)  # fmt: skip
        answer = peer.response(2, timeout=30)
        assert answer["error"]["code"] == -32800, answer  # RequestCancelled
        # the kernel is stopped: once the compile (not cancelled: its cache serves the next run) ends, the run
        # is killed as it starts, so no process is left below the server
        deadline = time.monotonic() + 300
        while _descendants(peer.proc.pid) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not _descendants(peer.proc.pid), "the cancelled kernel is still running"
        peer.send_message(request(3, "workspace/executeCommand", {
            "command": EXPLAIN_LOG.id,
            "arguments": [{"log": "errorStr: The DDR address of the MTE instruction is out of range."}],
        }))  # fmt: skip
        explained = peer.response(3, timeout=60)
        assert "result" in explained and peer.alive(), explained
    finally:
        peer.close()
