"""Retrieval against a real Chroma server (`chroma run` on 127.0.0.1), as a team's shared store would be."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from ascendc_lsp.knowledge.entries import default_entry_dir
from ascendc_lsp.knowledge.retrieval import Retriever

CHROMA = Path(sys.executable).parent / "chroma"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not CHROMA.is_file():
        pytest.skip(f"no chroma console script next to {sys.executable}")
    data = tmp_path_factory.mktemp("chroma-server")
    port = _free_port()
    log = (data / "server.log").open("wb")
    proc = subprocess.Popen(
        [str(CHROMA), "run", "--path", str(data / "db"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/v2/heartbeat", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(
                    f"chroma server did not start: {(data / 'server.log').read_text(errors='replace')[-2000:]}"
                )
            time.sleep(0.2)
        yield url
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)
        log.close()


def test_retrieval_against_chroma_server(chroma_server: str, tmp_path: Path) -> None:
    r = Retriever.from_paths([default_entry_dir()], chroma_server, tmp_path / "cache")
    matches = r.search("error: no matching function for call to 'expf'", top=3)
    assert r.store.kind == "http", r.warnings
    assert not r.warnings
    assert matches[0].entry.category == "libm-in-kernel"
    assert r.store.counts()["syntactic"] == len(r.entries)
    # a second client (another editor window) finds the index built and changes nothing
    r2 = Retriever.from_paths([default_entry_dir()], chroma_server, tmp_path / "cache2")
    report = r2.store.sync(list(r2.entries.values()), r2.scopes)
    assert not report.changed and report.unchanged == len(r2.entries)
    assert r2.search("repeatTimes 300 exceeds 255", top=1)[0].entry.category == "vector-param-invalid"
