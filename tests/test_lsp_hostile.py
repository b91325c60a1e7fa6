"""A server that survives hostile clients (issue 17 items 7, 10, 11, 12, 13; issue 16 part 4): every test drives the
real server process with raw bytes (tests/lsp_wire.py) and then checks it still answers."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ascendc_lsp.lsp.transport import FrameParser
from tests.conftest import KERNELS
from tests.lsp_wire import INITIALIZE, Peer, frame, notification, request

URI = Path("/tmp/ascendc-lsp-tests/hostile.cpp").as_uri()
KERNEL = (KERNELS / "add_double_buffer.cpp").read_text(encoding="utf-8")


@pytest.fixture
def peer() -> Iterator[Peer]:
    p = Peer()
    yield p
    p.close()


def _hover(msg_id: int, line: int = 0, character: int = 0) -> bytes:
    params = {"textDocument": {"uri": URI}, "position": {"line": line, "character": character}}
    return frame(request(msg_id, "textDocument/hover", params))


def _open(peer: Peer, text: str = KERNEL, version: int = 1) -> None:
    item = {"uri": URI, "languageId": "cpp", "version": version, "text": text}
    peer.send_message(notification("textDocument/didOpen", {"textDocument": item}))


def _diagnostics(peer: Peer, timeout: float = 30.0) -> dict:
    return peer.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                     and m["params"]["uri"] == URI, timeout)  # fmt: skip


# -- framing (unit) ---------------------------------------------------------------------------------


def test_the_parser_refuses_a_huge_length_before_reading_and_resynchronises() -> None:
    p = FrameParser(max_body=1000)
    p.feed(b"Content-Length: 1000000000000\r\n\r\n{\"jsonrpc\": \"2.0\"")
    refused = p.next()
    assert refused is not None and refused.body is None and "exceeds" in refused.problem
    p.feed(b" garbage " * 50 + frame({"jsonrpc": "2.0", "method": "x"}))
    got = p.next()
    assert got is not None and got.body == b'{"jsonrpc": "2.0", "method": "x"}'
    assert p.pending() < 100


def test_the_parser_reads_lf_only_headers_and_recovers_from_a_long_length() -> None:
    p = FrameParser()
    p.feed(frame({"a": 1}, newline=b"\n") + frame({"b": 2}, length=500) + frame({"c": 3}))
    assert [f.body for f in iter(lambda: p.next(), None)] == [b'{"a": 1}', b'{"b": 2}', b'{"c": 3}']
    p.feed(b"Content-Length: 8\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{\"e\": 5}")
    assert p.next() is not None  # a Content-Type header after Content-Length (what pygls' own client sends)
    p.feed(frame({"d": 4}, length=50))  # too long and nothing follows: taken once input stalls
    assert p.next() is None
    stalled = p.next(stalled=True)
    assert stalled is not None and stalled.body == b'{"d": 4}'


# -- the server process -----------------------------------------------------------------------------


def test_a_terabyte_content_length_is_refused_and_the_server_keeps_answering(peer: Peer) -> None:
    peer.send(b"Content-Length: 1000000000000\r\n\r\n{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"shutdown\"}")
    refused = peer.wait(lambda m: m.get("id") is None and "error" in m, timeout=20)
    assert "exceeds" in refused["error"]["message"]
    assert peer.initialize()["result"]["capabilities"]
    assert peer.rss_kb() < 1_000_000


def test_lf_only_headers_and_a_content_length_larger_than_the_body(peer: Peer) -> None:
    peer.send(frame(INITIALIZE, newline=b"\n"))
    assert peer.response(1, timeout=60)["result"]["capabilities"]
    peer.send_message(notification("initialized", {}))
    _open(peer)
    # a length 40 bytes too long, followed by a good request: both answered
    peer.send(b"Content-Length: 999\r\n\r\n" + b'{"jsonrpc": "2.0", "id": 2, "method": "no/suchMethod"}' + _hover(3))
    assert "error" in peer.response(2)
    assert "id" in peer.response(3)
    # a length too long and nothing after it: answered once input stalls
    peer.send(b"Content-Length: 400\r\n\r\n" + b'{"jsonrpc": "2.0", "id": 4, "method": "textDocument/hover", '
              b'"params": {"textDocument": {"uri": "' + URI.encode() + b'"}, "position": {"line": 1, '
              b'"character": 0}}}')  # fmt: skip
    assert "id" in peer.response(4, timeout=10)


def test_malformed_frames_are_answered_and_skipped(peer: Peer) -> None:
    peer.initialize()
    peer.send(frame(b"{not json"))
    assert peer.wait(lambda m: "error" in m and m["error"]["code"] == -32700)["id"] is None
    peer.send(frame(b"[1, 2, 3]"))
    assert peer.wait(lambda m: "error" in m and m["error"]["code"] == -32600)["id"] is None
    peer.send(b"garbage line\r\nX-Other: 1\r\n\r\n")
    peer.send(_hover(5))
    assert "id" in peer.response(5)


def test_schema_invalid_params_get_invalid_params(peer: Peer) -> None:
    peer.initialize()
    _open(peer)
    peer.send(_hover(6, line=-1))
    answer = peer.response(6)
    assert answer["error"]["code"] == -32602 and "line" in answer["error"]["message"]


def test_an_invalid_change_forgets_the_document_instead_of_diverging(peer: Peer) -> None:
    peer.initialize()
    _open(peer)
    _diagnostics(peer)
    bad = {"textDocument": {"uri": URI, "version": 2},
           "contentChanges": [{"range": {"start": {"line": -3, "character": 0}, "end": {"line": 0, "character": 0}},
                               "text": "x"}]}  # fmt: skip
    peer.send_message(notification("textDocument/didChange", bad))
    cleared = _diagnostics(peer)
    assert cleared["params"]["diagnostics"] == []
    # later changes to the forgotten document are ignored; a reopen starts again from the client's text
    good = {"textDocument": {"uri": URI, "version": 3}, "contentChanges": [{"text": "int x;\n"}]}
    peer.send_message(notification("textDocument/didChange", good))
    _open(peer, version=4)
    assert _diagnostics(peer)["params"].get("version") in (4, None)
    peer.send(_hover(8, line=3))
    assert "result" in peer.response(8)


def test_a_version_going_backwards_still_gets_diagnostics_for_the_new_text(peer: Peer) -> None:
    peer.initialize()
    _open(peer, version=10)
    _diagnostics(peer)
    change = {"textDocument": {"uri": URI, "version": 3}, "contentChanges": [{"text": "int broken( {\n"}]}
    peer.send_message(notification("textDocument/didChange", change))
    published = peer.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and any(d.get("code") == "syntax" for d in m["params"]["diagnostics"]), 30)  # fmt: skip
    assert published["params"]["uri"] == URI


def test_exit_without_shutdown_exits_1_and_with_shutdown_0() -> None:
    rude = Peer()
    rude.initialize()
    rude.send_message(notification("exit"))
    assert rude.proc.wait(timeout=20) == 1
    polite = Peer()
    polite.initialize()
    assert polite.close() == 0


def test_a_lone_surrogate_and_a_late_non_ascii_character_keep_diagnostics(peer: Peer) -> None:
    peer.initialize()
    text = "// caf\udce9 lone surrogate\n" + KERNEL + "void broken( {\n"
    body = frame(notification("textDocument/didOpen", {"textDocument": {
        "uri": URI, "languageId": "cpp", "version": 1, "text": text}}))  # fmt: skip
    peer.send(body)
    first = peer.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                      and any(d.get("code") == "syntax" for d in m["params"]["diagnostics"]), 30)  # fmt: skip
    assert first["params"]["uri"] == URI
    big = "// \u00e9\n" + ("int filler_variable_for_size = 0;\n" * 8000) + "void f( {\n"
    item = {"uri": URI, "version": 2}
    t0 = time.monotonic()
    peer.send_message(notification("textDocument/didChange", {"textDocument": item, "contentChanges": [{"text": big}]}))
    published = peer.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and any(d.get("code") == "syntax" for d in m["params"]["diagnostics"]), 60)  # fmt: skip
    assert published["params"]["diagnostics"]
    assert time.monotonic() - t0 < 60
