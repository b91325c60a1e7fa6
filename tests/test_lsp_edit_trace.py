"""The server's edit trace (lsp/server.py EditTrace, read by bench/lsp_latency.py) and where the latency work put
the session's housekeeping: dropped versions are collected after publishes, a few at a time, and the start-up
loads what the first check would otherwise load on an edit.

The server is the real one, in process (the Session harness of test_lsp_state.py).
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from ascendc_lsp.lsp.server import EDIT_TRACE_ENV, live_counts
from ascendc_lsp.lsp.state import WorkLog
from tests.test_lsp_state import KERNEL, URI, Session

STAGES = ["received", "synced", "scheduled", "check started", "checked", "published"]


def _line_of(text: str, needle: str) -> tuple[int, int]:
    for number, line in enumerate(text.splitlines()):
        if needle in line:
            return number, line.index(needle)
    raise AssertionError(f"{needle!r} is not in the kernel")


def test_the_trace_says_how_each_edit_was_checked_and_when_each_stage_ended(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trace = tmp_path / "trace.jsonl"
    monkeypatch.setenv(EDIT_TRACE_ENV, str(trace))

    async def run() -> None:
        session = Session()
        await session.start()
        session.open(KERNEL)
        await session.diagnostics(1)
        line, column = _line_of(KERNEL, "TILE_NUM = 8")
        session.change(2, line, column + len("TILE_NUM = 8"), column + len("TILE_NUM = 8"), "1")  # code: 81
        await session.diagnostics(2)
        comment_line, comment_column = _line_of(KERNEL, "// ")
        session.change(3, comment_line, comment_column + 3, comment_column + 3, "x")  # inside a comment
        await session.diagnostics(3)
        session.server.before_exit()

    asyncio.run(run())
    records = {r["version"]: r for r in map(json.loads, trace.read_text(encoding="utf-8").splitlines())}
    assert set(records) == {2, 3}, "one record per edited version published (the opening is no edit)"
    code, comment = records[2], records[3]
    assert re.fullmatch(r"reused|partial: \d+ of \d+ units|full: .+", code["how"]), code["how"]
    times = [code["timing"][stage] for stage in STAGES]
    assert times == sorted(times), code["timing"]
    assert comment["how"].startswith("carried"), comment["how"]
    assert "checked" not in comment["timing"], "a carried version runs no rules"
    assert comment["timing"]["received"] <= comment["timing"]["synced"] <= comment["timing"]["published"]
    for what, start, end in code["during"]:
        assert start <= end and end > times[0] - 60, (what, start, end)


def test_the_work_log_lists_what_overlapped_a_stretch() -> None:
    log = WorkLog(size=3)
    log.add("before", 0.0, 1.0)
    log.add("across the start", 1.5, 2.5)
    log.add("inside", 3.0, 3.5)
    log.add("after", 5.0, 6.0)  # the oldest ("before") is dropped: the log is bounded
    assert [what for what, *_ in log.during(2.0, 4.0)] == ["across the start", "inside"]
    assert [what for what, *_ in log.during(0.0, 10.0)] == ["across the start", "inside", "after"]


def test_dropped_versions_are_collected_after_publishes_a_few_at_a_time(collections_by_the_server_only: None) -> None:
    """Each version's model is a cyclic graph freed only by a collection; the server collects once a publish is
    out whenever COLLECT_AFTER_PUBLISH_OBJECTS objects were allocated since the last (not every 64 versions in
    the change handler, which made every 64th edit wait ~25 ms): here ~15 versions of this small kernel."""

    async def run() -> None:
        session = Session()
        await session.start()
        baseline = live_counts()["DocumentModel"]
        session.open(KERNEL)
        await session.diagnostics(1)
        most = 0
        for version in range(2, 42):
            session.change(version, 0, 0, 0, f"// {version}\n" if version % 2 else "")
            state = session.server.documents.get(URI)
            assert state is not None and state.model is not None  # every version builds its model
            await session.diagnostics(version)
            await asyncio.sleep(0)  # the collection scheduled after the publish runs
            most = max(most, live_counts()["DocumentModel"] - baseline)
        del state
        assert most <= 20, most  # without the collections after publishing: 41 (one per version)

    asyncio.run(run())


def test_warm_up_loads_the_rule_table_before_any_check() -> None:
    """The rule table is read at a rule's first finding: 25-40 ms on the first edit that finds something, unless
    the start-up read it (checks/engine.warm_up, called by `serve` before it freezes the heap)."""
    from ascendc_lsp.checks.base import rule_table
    from ascendc_lsp.checks.engine import warm_up

    rule_table.cache_clear()
    warm_up()
    assert rule_table.cache_info().currsize == 1


async def _response(session: Session, request_id: int, timeout: float = 30.0) -> dict[str, Any]:
    async def wait() -> dict[str, Any]:
        while True:
            for message in session.writer.messages:
                if message.get("id") == request_id and "method" not in message:
                    return message
            await asyncio.sleep(0.01)

    return await asyncio.wait_for(wait(), timeout)


def test_outline_lens_and_hint_requests_build_the_model_off_the_event_loop() -> None:
    """The requests an editor sends after each change wait for the version's diagnostics and build its model in a
    worker thread: the handler returns to the event loop at once (a didChange can come in), then answers."""

    async def run() -> None:
        session = Session()
        await session.start()
        session.open(KERNEL)
        await session.diagnostics(1)
        comment_line, comment_column = _line_of(KERNEL, "// ")
        session.change(2, comment_line, comment_column + 3, comment_column + 3, "x")  # findings carried, no model
        await session.diagnostics(2)
        state = session.server.documents.get(URI)
        assert state is not None and state.built_model() is None
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": 80, "character": 0}}
        session.send("textDocument/documentSymbol", {"textDocument": {"uri": URI}}, request=True)
        symbols_id = session._id
        session.send("textDocument/codeLens", {"textDocument": {"uri": URI}}, request=True)
        lens_id = session._id
        session.send("textDocument/inlayHint", {"textDocument": {"uri": URI}, "range": whole}, request=True)
        hints_id = session._id
        assert state.built_model() is None, "not built on the event loop inside the handlers"
        symbols, lenses, hints = [await _response(session, i) for i in (symbols_id, lens_id, hints_id)]
        assert state.built_model() is not None
        assert any(item["name"] == "KernelAdd" for item in symbols["result"]), symbols
        assert lenses["result"] and hints["result"] is not None

    asyncio.run(run())


def test_a_request_overtaken_by_an_edit_while_it_waited_gets_content_modified() -> None:
    """An outline request sent before an edit whose diagnostics are not out yet is answered with ContentModified
    (the LSP's "ask again"); the one sent after the edit gets the new version's outline."""

    async def run() -> None:
        session = Session()
        await session.start()
        session.open(KERNEL)
        await session.diagnostics(1)
        session.send("textDocument/documentSymbol", {"textDocument": {"uri": URI}}, request=True)
        stale_id = session._id
        line, column = _line_of(KERNEL, "TILE_NUM = 8")
        session.change(2, line, column + len("TILE_NUM = 8"), column + len("TILE_NUM = 8"), "1")
        session.send("textDocument/documentSymbol", {"textDocument": {"uri": URI}}, request=True)
        fresh_id = session._id
        stale, fresh = await _response(session, stale_id), await _response(session, fresh_id)
        assert stale.get("error", {}).get("code") == -32801, stale
        assert any(item["name"] == "KernelAdd" for item in fresh["result"]), fresh
        state = session.server.documents.get(URI)
        assert state is not None and state.version == 2 and state.built_model() is not None

    asyncio.run(run())


def test_with_pauses_in_the_typing_versions_are_collected_during_the_pauses(
    collections_by_the_server_only: None,
) -> None:
    """Past COLLECT_IDLE_OBJECTS new objects, a publish arms a collection for when the typing pauses (a didChange
    disarms it): edits 100 ms apart leave at most a few versions' models uncollected."""
    from ascendc_lsp.lsp.server import COLLECT_IDLE_SECONDS

    async def run() -> None:
        session = Session()
        await session.start()
        baseline = live_counts()["DocumentModel"]
        session.open(KERNEL)
        await session.diagnostics(1)
        most = 0
        for version in range(2, 22):
            session.change(version, 0, 0, 0, f"// {version}\n" if version % 2 else "")
            state = session.server.documents.get(URI)
            assert state is not None and state.model is not None
            del state
            await session.diagnostics(version)
            await asyncio.sleep(COLLECT_IDLE_SECONDS * 2)  # a pause in the typing
            most = max(most, live_counts()["DocumentModel"] - baseline)
        assert most <= 12, most  # without the collections in the pauses: 21 (one per version)

    asyncio.run(run())
