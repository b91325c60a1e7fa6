"""A long session keeps memory bounded: dropped versions and closed documents are freed, and `exit` ends the
process promptly. The server is the real one, in process (the Session harness of test_lsp_state.py), or over stdio.

The counts are of objects the garbage collector tracks, unreachable ones included (lsp/server.py `live_counts`):
with automatic collection off, they show what the server itself frees, not what a test's gc.collect() would.
"""

from __future__ import annotations

import asyncio
import gc
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from ascendc_lsp.lsp.memory import release_freed_memory
from ascendc_lsp.lsp.server import COLLECT_EVERY_VERSIONS, live_counts
from tests.lsp_wire import Peer, notification
from tests.test_lsp_state import KERNEL, URI, Session

TRACKED = ("DocumentState", "DocumentHistory", "SourceDocument", "DocumentModel")


def _counts() -> dict[str, int]:
    counts = live_counts()
    return {name: counts[name] for name in TRACKED}


def _edit(session: Session, uri: str, version: int, text: str) -> None:
    session.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                            "contentChanges": [{"text": text}]})  # fmt: skip


def test_200_versions_of_a_document_then_close_return_to_the_baseline(collections_by_the_server_only: None) -> None:
    async def run() -> None:
        session = Session()
        await session.start()
        baseline = _counts()
        session.open(KERNEL)
        await session.diagnostics(1)
        most_models = 0
        for version in range(2, 202):
            _edit(session, URI, version, KERNEL + f"\nint v{version};\n")
            state = session.server.documents.get(URI)
            assert state is not None
            assert state.model is not None  # every version builds its model (a cyclic graph)
            await asyncio.sleep(0)
            most_models = max(most_models, _counts()["DocumentModel"] - baseline["DocumentModel"])
        del state
        # dropped versions are collected as the session goes (without that: one model per version, 200)
        assert most_models <= COLLECT_EVERY_VERSIONS + 4
        session.send("textDocument/didClose", {"textDocument": {"uri": URI}})
        await asyncio.sleep(0.5)  # a rules run in flight ends and publishes nothing
        gc.collect()
        assert _counts() == baseline
        assert len(session.server.documents) == 0 and not session.server.workspace.text_documents

    asyncio.run(run())


def test_many_documents_opened_edited_and_closed_return_to_the_baseline() -> None:
    async def run() -> None:
        session = Session()
        await session.start()
        gc.collect()
        baseline = _counts()
        uris = [Path(f"/tmp/ascendc-lsp-memory-tests/k{i}.cpp").as_uri() for i in range(100)]
        for i, uri in enumerate(uris):
            item = {"uri": uri, "languageId": "cpp", "version": 1, "text": KERNEL}
            session.send("textDocument/didOpen", {"textDocument": item})
            _edit(session, uri, 2, KERNEL + f"// {i}\n")
            _edit(session, uri, 3, KERNEL + f"int k{i};\n")
            await asyncio.sleep(0)
        assert len(session.server.documents) == 100
        for uri in uris:
            session.send("textDocument/didClose", {"textDocument": {"uri": uri}})
        assert len(session.server.documents) == 0 and not session.server.workspace.text_documents
        for uri in uris:  # every document's scheduled work was cancelled
            assert session.server.documents.get(uri) is None
        await asyncio.sleep(0.5)
        gc.collect()
        assert _counts() == baseline

    asyncio.run(run())


def test_exit_ends_the_process_with_rules_runs_queued() -> None:
    """Edits faster than the rules run queue work in the worker threads: `exit` drops it instead of running it,
    and the process ends by itself (tests/lsp_wire.py kills it, exit -9, when it is still alive 10 s after)."""
    peer = Peer()
    peer.initialize()
    heavy = KERNEL + "".join(f"int v{i} = {' + '.join(['1'] * 100)};\n" for i in range(100))
    item = {"uri": URI, "languageId": "cpp", "version": 1, "text": heavy}
    peer.send_message(notification("textDocument/didOpen", {"textDocument": item}))
    for version in range(2, 40):  # close and reopen: each opening schedules a rules run at once
        peer.send_message(notification("textDocument/didClose", {"textDocument": {"uri": URI}}))
        item = {**item, "version": version, "text": heavy + f"// {version}\n"}
        peer.send_message(notification("textDocument/didOpen", {"textDocument": item}))
    code = peer.close()  # shutdown, then exit
    assert code == 0, b"".join(peer.stderr[-20:]).decode("utf-8", "replace")


def test_notifications_leave_no_futures_behind() -> None:
    """pygls keeps each notification handler's future (with a failed one's traceback) unless the server drops it."""

    async def run() -> None:
        session = Session()
        await session.start()
        session.open(KERNEL)
        for version in range(2, 52):
            _edit(session, URI, version, KERNEL + f"// {version}\n")
            session.send("textDocument/didClose", {"textDocument": {"uri": URI}})
            session.open(KERNEL, version)
            await asyncio.sleep(0)
        await asyncio.sleep(0.3)
        futures = session.server.protocol._request_futures
        assert [f for f in futures.values() if f.done()] == []
        assert len(futures) <= 2  # at most a pending async handler (none of the 150 notifications above)

    asyncio.run(run())


def test_no_model_of_a_closed_document_stays_reachable_after_requests_and_close_cycles() -> None:
    """Open/edit/close cycles over three documents with every request kind in between (the fuzz bench's mix):
    once the rules runs in flight have ended, no state, document or model of a closed document is reachable.
    (A model seen alive in the fuzz bench's exit report was a rules run still in its worker thread at `exit`.)"""

    def requests_for(uri: str) -> list[tuple[str, dict[str, object]]]:
        at = {"textDocument": {"uri": uri}, "position": {"line": 20, "character": 8}}
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": 80, "character": 0}}
        return [
            ("textDocument/hover", at),
            ("textDocument/completion", at),
            ("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": whole, "context": {"diagnostics": []}}),
            ("textDocument/codeLens", {"textDocument": {"uri": uri}}),
            ("textDocument/documentSymbol", {"textDocument": {"uri": uri}}),
            ("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": whole}),
        ]

    async def run() -> None:
        session = Session()
        await session.start()
        gc.collect()
        baseline = _counts()
        uris = [Path(f"/tmp/ascendc-lsp-memory-tests/cycle{i}.cpp").as_uri() for i in range(3)]
        for cycle in range(4):
            for i, uri in enumerate(uris):
                item = {"uri": uri, "languageId": "cpp", "version": 1, "text": KERNEL + f"// {cycle}\n"}
                session.send("textDocument/didOpen", {"textDocument": item})
                for method, params in requests_for(uri):
                    session.send(method, params, request=True)
                _edit(session, uri, 2, KERNEL + f"int c{cycle}_{i};\n")
                await asyncio.sleep(0.05)
            for uri in uris:
                session.send("textDocument/didClose", {"textDocument": {"uri": uri}})
        assert len(session.server.documents) == 0
        for _ in range(300):  # the rules runs in flight end (a guard, not a timing assertion)
            await asyncio.sleep(0.1)
            gc.collect()
            if _counts() == baseline:
                break
        assert _counts() == baseline, _holders_of_models()

    asyncio.run(run())


def _holders_of_models() -> str:
    from ascendc_lsp.lsp.server import _referrer_chains
    from ascendc_lsp.syntax.model import DocumentModel

    return "\n".join(_referrer_chains((DocumentModel,)))


def _rss_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc", reason="glibc only")
def test_freed_memory_kept_by_the_allocator_goes_back_to_the_os() -> None:
    """Holes left by freed blocks between survivors stay resident (the allocator cannot shrink its heap past the
    survivors) until release_freed_memory, which the server's full collection calls, hands them back."""
    blocks = [bytearray(b"\x01" * 4000) for _ in range(20_000)]  # ~80 MB through malloc, written so resident
    survivors = blocks[::64]  # pin the heap so the freed blocks are holes, not a top the allocator trims itself
    del blocks
    gc.collect()
    before = _rss_kib()
    assert release_freed_memory() is True
    after = _rss_kib()
    assert before - after > 30_000, (before, after)
    assert len(survivors) == 313


def test_release_freed_memory_is_safe_to_repeat() -> None:
    assert release_freed_memory() == release_freed_memory()


_MMAPPED_AFTER_A_LARGE_FREE = """
import ctypes, sys
from ascendc_lsp.lsp.memory import pin_allocator_thresholds

class MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                               "fsmblks", "uordblks", "fordblks", "keepcost")]

libc = ctypes.CDLL("libc.so.6")
libc.mallinfo2.restype = MallInfo2
big = bytearray(8 << 20)  # mmapped; its free raises glibc's dynamic threshold to 8 MiB
del big
if sys.argv[1] == "pin":
    assert pin_allocator_thresholds()
before = libc.mallinfo2().hblkhd
block = bytearray(1 << 20)
print(libc.mallinfo2().hblkhd - before)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc"
                    or tuple(int(p) for p in platform.libc_ver()[1].split(".")[:2]) < (2, 33),
                    reason="glibc 2.33+ (mallinfo2)")  # fmt: skip
def test_pinned_threshold_keeps_large_blocks_in_their_own_mappings() -> None:
    """glibc raises its mmap threshold to the size of each mmapped block freed (and keeps a heap top twice that
    size): after an 8 MiB block was freed, a 1 MiB block comes from the heap, where it can leave a hole; pinned,
    it gets its own mapping, given back whole when freed. A fresh process each: a test run's heap may already
    hold a free chunk that fits, which malloc uses first whatever the threshold."""

    def mmapped(mode: str) -> int:
        out = subprocess.run([sys.executable, "-c", _MMAPPED_AFTER_A_LARGE_FREE, mode], capture_output=True,
                             text=True, timeout=60, check=True)  # fmt: skip
        return int(out.stdout.strip())

    assert mmapped("dynamic") < 1 << 20  # the control: the threshold did rise
    assert mmapped("pin") >= 1 << 20
