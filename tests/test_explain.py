"""`ascendc-lsp explain`: JSON shape, text output, --source, and the bad-input exits."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def _run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "ascendc_lsp", "explain", *args], input=stdin,
                          capture_output=True, timeout=120, check=False)  # fmt: skip


def test_json_shape(tmp_path: Path) -> None:
    log = tmp_path / "build.log"
    log.write_text("add.cpp:12:5: error: no matching function for call to 'expf'\n", encoding="utf-8")
    r = _run(str(log), "--format", "json", "--top", "2")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert len(data["matches"]) == 2
    first = data["matches"][0]
    assert {"id", "category", "title", "score", "fix"} <= set(first)
    assert first["category"] == "libm-in-kernel"
    assert data["matches"][0]["score"] >= data["matches"][1]["score"]


def test_stdin_and_text(tmp_path: Path) -> None:
    r = _run("-", stdin=b"DataCopy moves 200 B; hardware copies 192 B\n")
    assert r.returncode == 0
    assert b"misaligned-access" in r.stdout and b"fix:" in r.stdout


def test_source_context(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\nvoid f() {\n  float y = expf(x);\n}\n', encoding="utf-8")
    log = tmp_path / "b.log"
    log.write_text("k.cpp:3:13: error: no matching function for call to 'expf'\n", encoding="utf-8")
    r = _run(str(log), "--source", str(src), "--format", "json", "--top", "1")
    assert json.loads(r.stdout)["matches"][0]["category"] == "libm-in-kernel"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", b"empty"),
        (b"   \n", b"empty"),
        (b"\x7fELF\x00\x00\x01", b"binary"),
        (bytes(range(256)) * 4, b"binary"),
    ],
)
def test_bad_input_exits_2(tmp_path: Path, content: bytes, message: bytes) -> None:
    log = tmp_path / "bad.log"
    log.write_bytes(content)
    r = _run(str(log))
    assert r.returncode == 2
    assert message in r.stderr


def test_unreadable_and_folder(tmp_path: Path) -> None:
    assert _run(str(tmp_path / "missing.log")).returncode == 2
    assert _run(str(tmp_path)).returncode == 2
    assert _run("-", "--top", "0", stdin=b"x").returncode == 2
