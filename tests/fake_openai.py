"""A FAKE OpenAI-compatible server for tests: a real HTTP server on 127.0.0.1 replaying scripted replies.

It is not a model and not a mock of the openai library: the client under test talks HTTP to it exactly as it
would to vLLM or api.openai.com. Each POST /v1/chat/completions takes the next `FakeReply` from the script
(JSON or SSE streaming, as the request asks), so tests can script the mistakes real models make, HTTP errors,
rate limits, slow answers and streams cut short.

    with FakeOpenAIServer([FakeReply("```cpp\\n...\\n```"), FakeReply(status=500)]) as fake:
        client = ChatClient(LlmConfig(base_url=fake.base_url, model="fake-model"))
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

FAKE_MODEL = "fake-model"


@dataclass
class FakeReply:
    text: str = ""
    status: int = 200
    delay: float = 0.0  # seconds before the response starts
    chunk_delay: float = 0.0  # seconds between stream chunks
    chunk_size: int = 24  # characters per SSE chunk
    truncate_after: int | None = None  # stream: close the connection after this many characters, no [DONE]
    finish_reason: str = "stop"
    headers: dict[str, str] = field(default_factory=dict)
    error: str = "scripted failure"
    reasoning: str = ""  # sent as delta.reasoning_content (vLLM/DeepSeek style)
    usage: tuple[int, int] | None = (120, 80)  # prompt, completion tokens
    stream: bool | None = None  # None: as the request asks


@dataclass
class FakeRequest:
    path: str
    body: dict[str, Any]
    headers: dict[str, str]


class FakeOpenAIServer:
    """Context manager running the fake on an ephemeral port. `requests` records what the client sent."""

    def __init__(
        self,
        script: Iterable[FakeReply | str] = (),
        *,
        default: FakeReply | None = None,
        responder: Callable[[dict[str, Any]], FakeReply] | None = None,
    ) -> None:
        self.script: list[FakeReply] = [r if isinstance(r, FakeReply) else FakeReply(r) for r in script]
        self.default = default
        self.responder = responder
        self.requests: list[FakeRequest] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def add(self, *replies: FakeReply | str) -> None:
        with self._lock:
            self.script.extend(r if isinstance(r, FakeReply) else FakeReply(r) for r in replies)

    def next_reply(self, body: dict[str, Any]) -> FakeReply:
        with self._lock:
            if self.responder is not None:
                return self.responder(body)
            if self.script:
                return self.script.pop(0)
            if self.default is not None:
                return self.default
        return FakeReply(status=500, error="the fake server ran out of scripted replies")

    def chat_requests(self) -> list[FakeRequest]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def __enter__(self) -> FakeOpenAIServer:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
                return

            def _json(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                fake.requests.append(FakeRequest(self.path, {}, dict(self.headers)))
                if self.path.rstrip("/").endswith("/models"):
                    self._json(200, {"object": "list", "data": [{"id": FAKE_MODEL, "object": "model"}]})
                else:
                    self._json(404, {"error": {"message": f"no route {self.path}"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b"{}"
                try:
                    body = json.loads(raw or b"{}")
                except json.JSONDecodeError:
                    body = {}
                fake.requests.append(FakeRequest(self.path, body, dict(self.headers)))
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._json(404, {"error": {"message": f"no route {self.path}"}})
                    return
                reply = fake.next_reply(body)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.status != 200:
                    self._json(
                        reply.status,
                        {"error": {"message": reply.error, "type": "fake_error", "code": reply.status}},
                        reply.headers,
                    )
                    return
                stream = bool(body.get("stream")) if reply.stream is None else reply.stream
                if stream:
                    self._stream(reply)
                else:
                    self._complete(reply, body)

            def _complete(self, reply: FakeReply, body: dict[str, Any]) -> None:
                message: dict[str, Any] = {"role": "assistant", "content": reply.text}
                if reply.reasoning:
                    message["reasoning_content"] = reply.reasoning
                payload: dict[str, Any] = {
                    "id": "chatcmpl-fake",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": body.get("model", FAKE_MODEL),
                    "choices": [{"index": 0, "finish_reason": reply.finish_reason, "message": message}],
                }
                if reply.usage:
                    p, c = reply.usage
                    payload["usage"] = {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}
                self._json(200, payload, reply.headers)

            def _event(self, payload: dict[str, Any] | str) -> None:
                data = payload if isinstance(payload, str) else json.dumps(payload)
                self.wfile.write(f"data: {data}\n\n".encode())
                self.wfile.flush()

            def _stream(self, reply: FakeReply) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                for k, v in reply.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.close_connection = True
                base = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": int(time.time()),
                        "model": FAKE_MODEL}
                try:
                    if reply.reasoning:
                        self._event({**base, "choices": [{"index": 0, "delta": {"reasoning_content": reply.reasoning}}]})
                    text = reply.text
                    limit = len(text) if reply.truncate_after is None else min(len(text), reply.truncate_after)
                    for start in range(0, limit, max(1, reply.chunk_size)):
                        piece = text[start : min(limit, start + reply.chunk_size)]
                        self._event({**base, "choices": [{"index": 0, "delta": {"content": piece},
                                                          "finish_reason": None}]})
                        if reply.chunk_delay:
                            time.sleep(reply.chunk_delay)
                    if reply.truncate_after is not None:
                        return  # cut short: no finish reason, no [DONE]
                    final: dict[str, Any] = {**base, "choices": [{"index": 0, "delta": {},
                                                                  "finish_reason": reply.finish_reason}]}
                    if reply.usage:
                        p, c = reply.usage
                        final["usage"] = {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}
                    self._event(final)
                    self._event("[DONE]")
                except (BrokenPipeError, ConnectionResetError):
                    return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-openai", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)


def fenced(code: str, prose: str = "Here is the kernel.") -> str:
    """A reply the way chat models write it: prose, a fenced C++ block, a closing remark."""
    return f"{prose}\n\n```cpp\n{code.strip()}\n```\n\nThe kernel splits the work across blocks."
