"""The sandbox: limits, timeouts that kill the whole process group, no network, signals reported."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from ascendc_lsp.toolchain import sandbox
from ascendc_lsp.toolchain.sandbox import Limits, run_sandboxed

MODES = ["rlimits"]
if shutil.which("bwrap") and sandbox._probe(sandbox._bwrap_prefix(Path("/tmp"), [], [])):
    MODES.append("bwrap")
if shutil.which("unshare") and sandbox._probe(sandbox._unshare_prefix()):
    MODES.append("unshare")


@pytest.fixture(autouse=True)
def _allow_unisolated(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests check each mode's mechanisms (limits, kill, signals) on our own commands; the refusal of
    untrusted code without bubblewrap is tested in test_sandbox_hostile.py."""
    monkeypatch.setenv(sandbox.ALLOW_UNISOLATED_ENV, "1")


def test_detection_is_a_known_mode() -> None:
    assert sandbox.isolation_mode() in ("bwrap", "unshare", "rlimits")


@pytest.mark.parametrize("mode", MODES)
def test_exit_code_and_output(tmp_path: Path, mode: str) -> None:
    r = run_sandboxed(
        ["sh", "-c", "echo out; echo err >&2; exit 3"], tmp_path, Limits(timeout=10), isolation=mode
    )
    assert (r.returncode, r.stdout, r.stderr, r.timed_out, r.signal) == (3, "out\n", "err\n", False, None)
    assert r.isolation == mode


@pytest.mark.parametrize("mode", MODES)
def test_signal_is_reported(tmp_path: Path, mode: str) -> None:
    r = run_sandboxed(["sh", "-c", "kill -SEGV $$"], tmp_path, Limits(timeout=10), isolation=mode)
    assert r.signal_name == "SIGSEGV"


@pytest.mark.parametrize("mode", MODES)
def test_timeout_kills_the_group(tmp_path: Path, mode: str) -> None:
    marker = tmp_path / "alive"
    # a grandchild that would outlive its parent if only the parent were killed
    script = f"(sleep 3; touch {marker}) & sleep 30"
    t = time.monotonic()
    r = run_sandboxed(["sh", "-c", script], tmp_path, Limits(timeout=0.5), isolation=mode)
    assert r.timed_out and r.returncode is None
    assert time.monotonic() - t < 5
    time.sleep(3.5)
    assert not marker.exists()


@pytest.mark.parametrize("mode", MODES)
def test_memory_limit(tmp_path: Path, mode: str) -> None:
    py = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else shutil.which("python3")
    if py is None or (mode == "bwrap" and not py.startswith("/usr/")):
        pytest.skip("no system python3 visible inside the sandbox")
    r = run_sandboxed(
        [py, "-c", "x = bytearray(3 << 30)"],
        tmp_path,
        Limits(timeout=20, memory_bytes=1 << 30),
        isolation=mode,
    )
    assert r.returncode != 0
    assert "MemoryError" in r.stderr or r.signal is not None


def test_file_size_limit(tmp_path: Path) -> None:
    r = run_sandboxed(
        ["sh", "-c", "head -c 4000000 /dev/zero > big"], tmp_path, Limits(timeout=10, file_bytes=1 << 20)
    )
    assert r.returncode != 0
    assert (tmp_path / "big").stat().st_size <= 1 << 20


@pytest.mark.skipif("bwrap" not in MODES and "unshare" not in MODES, reason="no namespace isolation here")
def test_no_network(tmp_path: Path) -> None:
    mode = "bwrap" if "bwrap" in MODES else "unshare"
    py = "/usr/bin/python3"
    if not os.path.exists(py):
        pytest.skip("no system python3 visible inside the sandbox")
    code = (
        "import socket,sys\n"
        "s=socket.socket(); s.settimeout(2)\n"
        "try:\n s.connect(('1.1.1.1', 80)); print('connected')\n"
        "except OSError as e: print('blocked', e)\n"
    )
    r = run_sandboxed([py, "-c", code], tmp_path, Limits(timeout=10), isolation=mode)
    assert "blocked" in r.stdout, r.stdout + r.stderr


@pytest.mark.skipif("bwrap" not in MODES, reason="bwrap does not work here")
def test_bwrap_hides_home_and_keeps_workdir_writable(tmp_path: Path) -> None:
    secret_dir = Path(os.environ["HOME"]) / "secret-dir"
    secret_dir.mkdir(exist_ok=True)
    (secret_dir / "key").write_text("x")
    r = run_sandboxed(
        ["sh", "-c", f"cat {secret_dir}/key; echo ok > written"],
        tmp_path,
        Limits(timeout=10),
        isolation="bwrap",
    )
    assert "No such file" in r.stderr
    assert (tmp_path / "written").read_text() == "ok\n"


def test_missing_program(tmp_path: Path) -> None:
    r = run_sandboxed(["/nonexistent/prog"], tmp_path, Limits(timeout=5), isolation="rlimits")
    assert r.returncode != 0


def test_environment_is_clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    r = run_sandboxed(
        ["sh", "-c", "echo ${OPENAI_API_KEY:-none}"], tmp_path, Limits(timeout=5), isolation="rlimits"
    )
    assert r.stdout.strip() == "none"
