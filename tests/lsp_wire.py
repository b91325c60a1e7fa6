"""A raw LSP peer for tests and bench/fuzz_lsp.py: the real server process over stdio, bytes in, frames out."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from typing import Any

SERVER = [sys.executable, "-m", "ascendc_lsp", "serve", "--stdio"]


def frame(message: dict[str, Any] | bytes, newline: bytes = b"\r\n", length: int | None = None) -> bytes:
    body = message if isinstance(message, bytes) else json.dumps(message).encode("utf-8")
    n = len(body) if length is None else length
    return b"Content-Length: " + str(n).encode() + newline + newline + body


def request(msg_id: int, method: str, params: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id, "method": method}
    if params is not None:
        out["params"] = params
    return out


def notification(method: str, params: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        out["params"] = params
    return out


INITIALIZE = request(1, "initialize", {"processId": None, "rootUri": None, "capabilities": {}})


class Peer:
    def __init__(self, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, **(env or {})},
        )  # fmt: skip
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.stderr: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr.append(line)
            del self.stderr[:-4000]

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if not line.strip():
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            if length is None:
                continue
            body = out.read(length)
            try:
                self.messages.put(json.loads(body))
            except ValueError:
                self.messages.put({"unparsable": body.decode("utf-8", "replace")})

    def send(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send_message(self, message: dict[str, Any]) -> None:
        self.send(frame(message))

    def wait(self, predicate: Any, timeout: float = 20.0) -> dict[str, Any]:
        """The first message (from now on) the predicate accepts."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                tail = b"".join(self.stderr[-20:]).decode("utf-8", "replace")
                raise TimeoutError(f"no matching message within {timeout:g} s; server stderr tail:\n{tail}")
            try:
                message = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if predicate(message):
                return message

    def response(self, msg_id: Any, timeout: float = 20.0) -> dict[str, Any]:
        return self.wait(lambda m: m.get("id") == msg_id and "method" not in m, timeout)

    def initialize(self) -> dict[str, Any]:
        self.send_message(INITIALIZE)
        result = self.response(1, timeout=60)
        self.send_message(notification("initialized", {}))
        return result

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> int:
        if self.proc.poll() is None:
            try:
                self.send_message(request(999_999, "shutdown"))
                self.response(999_999, timeout=10)
                self.send_message(notification("exit"))
            except (OSError, TimeoutError):
                pass
        try:
            return self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait(timeout=10)

    def rss_kb(self) -> int:
        try:
            with open(f"/proc/{self.proc.pid}/status", encoding="ascii") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0
