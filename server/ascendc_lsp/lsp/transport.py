"""The stdio transport: LSP base-protocol framing that a hostile or broken client cannot wedge.

pygls' own loop trusts every frame: a `Content-Length: 1000000000000` makes it read (and hold) a terabyte, LF-only
header lines are never recognised, a Content-Length larger than its body swallows the following messages and
every later header is then glued to a body, and a request whose params do not fit the schema (position.line: -1)
is logged and never answered. Here:

* the header block is bounded (MAX_HEADER_BYTES) and read line by line with CRLF or LF endings; anything that is
  not a header is skipped up to the next `Content-Length:` (resynchronisation);
* a body larger than `max_body` is refused before it is read: the client gets a JSON-RPC error (id null) and the
  reader resynchronises on the next header instead of reading the declared length;
* a body that is not JSON gets ParseError (-32700, id null); when its declared length was too large (a complete JSON
  value followed by the next header), the value is handled and the rest goes back to the parser, and a body still
  incomplete after STALL_SECONDS without new input is handled if it already holds a complete JSON value;
* a request whose params fail the schema gets InvalidParams with the reason; such a notification is logged, and
  a didChange that cannot be applied drops the document (the client's text is unknown from then on) and clears its
  diagnostics rather than keep a copy that silently differs;
* `exit` returns the code pygls decided (1 without a prior `shutdown`) instead of always 0.

bench/fuzz.py and tests/test_lsp_hostile.py drive it with broken frames.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 64 << 20  # the largest message accepted (a 1 MB document is ~1.2 MB of JSON)
MAX_HEADER_BYTES = 8192
STALL_SECONDS = 1.0
READ_CHUNK = 1 << 16
WORKER_THREAD_PREFIX = "lsp-worker"

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602

_HEADER_START = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)
_LENGTH = re.compile(rb"^content-length[ \t]*:[ \t]*(\d+)[ \t]*\r?$", re.IGNORECASE | re.MULTILINE)
_BLANK_LINE = re.compile(rb"\r?\n\r?\n")


@dataclass
class Frame:
    """One unit from the stream: a message body, or a problem to report (with no body)."""

    body: bytes | None = None
    problem: str = ""
    code: int = PARSE_ERROR


class FrameParser:
    """Splits a byte stream into LSP message bodies. Memory stays bounded by max_body + MAX_HEADER_BYTES."""

    def __init__(self, max_body: int = MAX_BODY_BYTES) -> None:
        self.max_body = max_body
        self._buf = bytearray()
        self._skipping = False  # after a refused body: drop input until the next header

    def feed(self, data: bytes) -> None:
        self._buf += data

    def pending(self) -> int:
        return len(self._buf)

    def next(self, stalled: bool = False) -> Frame | None:
        """The next frame, or None when more input is needed (`stalled`: no input came for a while)."""
        while True:
            start = _HEADER_START.search(self._buf)
            if start is None:
                # keep a tail that may be the beginning of a header split across reads
                keep = min(len(self._buf), 32)
                dropped = len(self._buf) - keep
                if dropped > 0 and not self._skipping and self._buf[:dropped].strip():
                    del self._buf[:dropped]
                    return Frame(problem=f"skipped {dropped} bytes that are not an LSP header")
                del self._buf[:dropped]
                return None
            if start.start() > 0:
                junk = bytes(self._buf[: start.start()])
                del self._buf[: start.start()]
                if junk.strip() and not self._skipping:
                    return Frame(problem=f"skipped {len(junk)} bytes that are not an LSP header")
            self._skipping = False
            end = _BLANK_LINE.search(self._buf, 0, MAX_HEADER_BYTES + 4)
            if end is None:
                if len(self._buf) > MAX_HEADER_BYTES:
                    del self._buf[:1]  # not a header block after all: look for the next one
                    return Frame(problem=f"an LSP header block longer than {MAX_HEADER_BYTES} bytes was skipped")
                return None
            headers = bytes(self._buf[: end.start()])
            length_match = _LENGTH.search(headers)
            if length_match is None:
                del self._buf[: end.end()]
                return Frame(problem="an LSP header block without a valid Content-Length was skipped")
            length = int(length_match.group(1))
            if length > self.max_body:
                del self._buf[: end.end()]
                self._skipping = True
                return Frame(problem=f"a message of {length} bytes exceeds the {self.max_body}-byte limit; skipped",
                             code=INVALID_REQUEST)  # fmt: skip
            body_start = end.end()
            available = len(self._buf) - body_start
            if available >= length:
                body = bytes(self._buf[body_start : body_start + length])
                value_end = _json_value_end(body)
                if value_end is None:
                    # the declared length may run into the next message: recover the first JSON value
                    recovered = _json_value_end(bytes(self._buf[body_start:]), prefix_only=True)
                    if recovered is not None and recovered < length:
                        body = bytes(self._buf[body_start : body_start + recovered])
                        del self._buf[: body_start + recovered]
                        return Frame(body=body)
                    del self._buf[: body_start + length]
                    return Frame(problem="a message body is not valid JSON")
                del self._buf[: body_start + length]
                return Frame(body=body)
            if available > 0 and (stalled or _HEADER_START.search(self._buf, body_start)):
                # Content-Length larger than what was sent (the next header is already here, or nothing more is
                # coming): a complete JSON value at the start is the message
                tail = bytes(self._buf[body_start:])
                recovered = _json_value_end(tail, prefix_only=True)
                if recovered is not None:
                    del self._buf[: body_start + recovered]
                    return Frame(body=tail[:recovered])
            return None


_DECODER = json.JSONDecoder()


def _json_value_end(data: bytes, prefix_only: bool = False) -> int | None:
    """Byte length of the JSON value at the start of `data` (the whole of it unless prefix_only), or None."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    stripped = text.lstrip()
    offset = len(text) - len(stripped)
    try:
        _, end = _DECODER.raw_decode(stripped)
    except ValueError:
        return None
    end += offset
    rest = text[end:]
    if not prefix_only:
        return len(data) if not rest.strip() else None
    if rest.strip() and not _HEADER_START.match(rest.lstrip().encode("utf-8")):
        return None
    return len(text[:end].encode("utf-8"))


# ------------------------------------------------------------------------------------------- dispatch


def _validation_detail(exc: BaseException) -> str:
    import cattrs

    cause: BaseException | None = exc
    while cause is not None and not isinstance(cause, cattrs.BaseValidationError):
        cause = cause.__cause__
    if cause is None:
        return str(exc) or type(exc).__name__
    def describe(error: BaseException, _type: Any) -> str:
        return "required field missing" if isinstance(error, KeyError) else str(error) or type(error).__name__

    problems = cattrs.transform_error(cause, path="message", format_exception=describe)
    return "; ".join(problems[:3]) or str(cause)


def _send_error(server: LanguageServer, msg_id: Any, code: int, message: str) -> None:
    # a plain dict: JSON-RPC wants "id": null when the request's id is unknown, which lsprotocol would omit
    server.protocol._send_data({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})


def dispatch(server: LanguageServer, body: bytes) -> None:
    """Decode and hand one message to pygls; answer what pygls would drop silently."""
    try:
        data = json.loads(body)
    except ValueError:
        _send_error(server, None, PARSE_ERROR, "the message body is not valid JSON")
        return
    if not isinstance(data, dict):
        _send_error(server, None, INVALID_REQUEST, "a JSON-RPC message must be an object (batches are not LSP)")
        return
    protocol = server.protocol
    try:
        message = _structure(protocol, data)
    except Exception as exc:
        method = str(data.get("method", ""))
        detail = _validation_detail(exc)
        if "id" in data and "method" in data:
            _send_error(server, data.get("id"), INVALID_PARAMS, f"invalid params for {method}: {detail}")
        else:
            log.warning("dropped a %s notification whose params do not fit: %s", method or "?", detail)
            _on_invalid_notification(server, method, data)
        return
    protocol.handle_message(message)


def _structure(protocol: Any, data: dict[str, Any]) -> Any:
    """pygls' structure_message for the top-level message, without its logged traceback for params that do not
    fit (those are answered here, and a fuzzing client would fill the log)."""
    from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage

    if "jsonrpc" not in data:
        return data
    converter = protocol._converter
    if "id" in data:
        if "error" in data:
            from lsprotocol.types import ResponseErrorMessage

            return converter.structure(data, ResponseErrorMessage)
        if "method" in data:
            return converter.structure(data, protocol.get_message_type(data["method"]) or JsonRPCRequestMessage)
        return converter.structure(data, protocol._result_types.pop(data["id"], None) or JsonRPCResponseMessage)
    return converter.structure(data, protocol.get_message_type(data.get("method", "")) or JsonRPCNotification)


def _on_invalid_notification(server: LanguageServer, method: str, data: dict[str, Any]) -> None:
    """A didChange that cannot be applied: forget the document rather than keep text that differs from the client's."""
    if method != "textDocument/didChange":
        return
    params = data.get("params")
    document = params.get("textDocument") if isinstance(params, dict) else None
    uri = document.get("uri") if isinstance(document, dict) else None
    if not isinstance(uri, str):
        return
    forget = getattr(server, "forget_document", None)
    if callable(forget):
        forget(uri, "a change to it could not be applied (invalid range); reopen it")


# ------------------------------------------------------------------------------------------- loop


async def _serve(server: LanguageServer, stdin: BinaryIO, max_body: int) -> None:
    loop = asyncio.get_running_loop()
    # The worker threads (asyncio.to_thread: rules runs, model builds, compiles) belong to this session: at the end
    # queued work is dropped, not run. asyncio.run would otherwise run every queued check before returning
    # (a fuzzing client queued minutes of them and had to be killed after `exit`).
    workers = ThreadPoolExecutor(thread_name_prefix=WORKER_THREAD_PREFIX)
    loop.set_default_executor(workers)
    try:
        await _read_loop(server, stdin, max_body)
    finally:
        before_exit = getattr(server, "before_exit", None)
        if callable(before_exit):
            before_exit()
        workers.shutdown(wait=False, cancel_futures=True)
        loop.set_default_executor(ThreadPoolExecutor(max_workers=1))  # what asyncio.run waits for: nothing


async def _read_loop(server: LanguageServer, stdin: BinaryIO, max_body: int) -> None:
    loop = asyncio.get_running_loop()
    chunks: asyncio.Queue[bytes] = asyncio.Queue()
    fd = stdin.fileno()

    def pump() -> None:
        while True:
            try:
                data = os.read(fd, READ_CHUNK)
            except OSError:
                data = b""
            loop.call_soon_threadsafe(chunks.put_nowait, data)
            if not data:
                return

    threading.Thread(target=pump, name="lsp-stdin", daemon=True).start()
    parser = FrameParser(max_body)
    eof = False
    stop = server._stop_event
    while not eof and (stop is None or not stop.is_set()):
        stalled = False
        try:
            data = await asyncio.wait_for(chunks.get(), STALL_SECONDS if parser.pending() else None)
            if not data:
                eof = True
            parser.feed(data)
        except TimeoutError:
            stalled = True
        while (frame := parser.next(stalled=stalled or eof)) is not None:
            if frame.body is None:
                log.warning("LSP stream: %s", frame.problem)
                _send_error(server, None, frame.code, frame.problem)
                continue
            try:
                dispatch(server, frame.body)
            except Exception:
                log.exception("cannot handle a message")


def serve_stdio(server: LanguageServer, max_body: int = MAX_BODY_BYTES) -> int:
    """Serve LSP over stdin/stdout until EOF or `exit`; the process exit code (1: exit without shutdown)."""
    from pygls.io_ import StdoutWriter

    server._stop_event = threading.Event()
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    code = 0
    try:
        asyncio.run(_serve(server, sys.stdin.buffer, max_body))
    except BrokenPipeError:
        log.error("the connection to the client is lost; shutting down")
    except SystemExit as exc:  # pygls' `exit` handler: 0 after shutdown, 1 without
        code = exc.code if isinstance(exc.code, int) else 1
    except KeyboardInterrupt:
        code = 130
    finally:
        server.shutdown()
    return code
