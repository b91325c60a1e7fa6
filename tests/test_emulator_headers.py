"""Compile the C++ test kernels in tests/emulator_cpp/ against the emulator headers with g++ and check
report.jsonl categories, exit codes and the numbers the correct kernels produce."""

from __future__ import annotations

import json
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = ROOT / "server" / "ascendc_lsp" / "toolchain" / "emulator" / "include"
CPP = Path(__file__).resolve().parent / "emulator_cpp"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed"),
]

# bug macro -> (exit code, severity, category) the kernel must produce
BUGS = {
    "UB_OVERFLOW": (1, "error", "ub-overflow"),
    "UB_OOB": (1, "error", "ub-out-of-bounds"),
    "GM_OOB": (1, "error", "gm-out-of-bounds"),
    "MISALIGNED": (1, "error", "misaligned-access"),
    "TRUNCATION": (0, "warning", "misaligned-access"),
    "DEQUE_EMPTY": (3, "error", "sync-deadlock"),
    "TOO_MANY_LIVE": (1, "error", "queue-misuse"),
    "QUEUE_EXHAUSTED": (3, "error", "queue-misuse"),
    "USE_AFTER_FREE": (1, "error", "queue-misuse"),
    "DOUBLE_FREE": (1, "error", "queue-misuse"),
    "RACE_TBUF": (1, "error", "sync-missing"),
    "RACE_SCALAR": (1, "error", "sync-missing"),
    "SYNCALL": (3, "error", "sync-deadlock"),
    "REPEAT_RANGE": (1, "error", "vector-param-invalid"),
    "MASK_RANGE": (1, "error", "vector-param-invalid"),
    "FLAG_UNMATCHED": (1, "error", "sync-deadlock"),
    "WAIT_UNSET": (3, "error", "sync-deadlock"),
}
# bugs the NPU-faithful defaults leave to the compiler or the runtime: caught in their strict mode
# (tests/test_emulator_modes.py covers each default and its twin)
BUG_FLAGS = {"RACE_SCALAR": ("--strict-sync",), "UB_OVERFLOW": ("--strict-ub",)}
GOOD = {"add": "add_custom_harness.cpp", "tbuf": "tbuf_flags.cpp", "reduce": "reduce.cpp", "cast": "cast.cpp"}


def _compile(src: Path, out: Path, defines: tuple[str, ...] = ()) -> None:
    cmd = ["g++", "-std=c++17", "-O1", "-g0", "-w", "-I", str(INCLUDE), *defines, str(src), "-o", str(out)]
    res = subprocess.run(cmd, capture_output=True, text=True, cwd=CPP)
    assert res.returncode == 0, res.stderr[-4000:]


@pytest.fixture(scope="module")
def binaries(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Builds every test kernel once, in parallel."""
    d = tmp_path_factory.mktemp("emu_bin")
    jobs: dict[str, tuple[Path, tuple[str, ...]]] = {k: (CPP / v, ()) for k, v in GOOD.items()}
    for bug in BUGS:
        jobs["bug_" + bug] = (CPP / "bugs.cpp", (f"-DBUG_{bug}",))
    with ThreadPoolExecutor(max_workers=4) as ex:
        futs = {k: ex.submit(_compile, src, d / k, defs) for k, (src, defs) in jobs.items()}
        for f in futs.values():
            f.result()
    return {k: d / k for k in jobs}


def _run(binary: Path, workdir: Path, *extra: str) -> tuple[int, list[dict], list[dict]]:
    report, trace = workdir / "report.jsonl", workdir / "trace.jsonl"
    res = subprocess.run(
        [str(binary), "--dir", str(workdir), "--report", str(report), "--trace", str(trace), *extra],
        capture_output=True, text=True, timeout=30,
    )
    lines = [json.loads(x) for x in report.read_text().splitlines() if x.strip()]
    events = [json.loads(x) for x in trace.read_text().splitlines() if x.strip()] if trace.exists() else []
    return res.returncode, lines, events


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_buggy_kernel_is_caught(bug: str, binaries: dict[str, Path], tmp_path: Path) -> None:
    np.arange(4096, dtype=np.float32).tofile(tmp_path / "x.bin")
    rc, report, _ = _run(binaries["bug_" + bug], tmp_path, *BUG_FLAGS.get(bug, ()))
    want_rc, severity, category = BUGS[bug]
    assert rc == want_rc, report
    hits = [r for r in report if r["category"] == category and r["severity"] == severity]
    assert hits, report
    for r in hits:
        assert r["file"].endswith("bugs.cpp") and r["line"] > 0  # the user's line, not a header's
        assert any(ch.isdigit() for ch in r["message"])  # messages name the numbers
    if category == "sync-deadlock" and want_rc == 3:
        assert any(r["code"] == "507014" for r in hits)


def test_add_double_buffer(binaries: dict[str, Path], tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, 16384).astype(np.float16)
    y = rng.uniform(-1, 1, 16384).astype(np.float16)
    x.tofile(tmp_path / "x.bin")
    y.tofile(tmp_path / "y.bin")
    for order in ("sequential", "reverse", "interleaved"):
        rc, report, trace = _run(binaries["add"], tmp_path, "--block-order", order)
        assert rc == 0 and report == []
        z = np.fromfile(tmp_path / "z.out.bin", dtype=np.float16)
        assert np.array_equal(z, x + y)  # fp32 add rounded once to fp16 == numpy's fp16 add
    # trace: 8 blocks, queue events carry their happens-before edges
    assert {e["block"] for e in trace} == set(range(8))
    deq = [e for e in trace if e["api"] == "DeQue"]
    assert deq and all(e.get("after") for e in deq)
    copies = [e for e in trace if e["api"] == "DataCopy"]
    assert all(e["bytes"] == 256 for e in copies)
    assert {(e["pipe"], e["src"], e["dst"]) for e in copies} == {("mte2", "gm", "ub"), ("mte3", "ub", "gm")}
    adds = [e for e in trace if e["api"] == "Add"]
    assert adds[0]["dtype"] == "half" and adds[0]["elements"] == 128 and adds[0]["repeats"] == 1
    for b in range(8):
        seqs = [e["seq"] for e in trace if e["block"] == b]
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)


def test_tbuf_with_flags(binaries: dict[str, Path], tmp_path: Path) -> None:
    x = np.random.default_rng(1).uniform(-10, 10, 4 * 4096).astype(np.float32)
    x.tofile(tmp_path / "x.bin")
    rc, report, trace = _run(binaries["tbuf"], tmp_path)
    assert rc == 0 and report == []
    z = np.fromfile(tmp_path / "z.out.bin", dtype=np.float32)
    assert np.array_equal(z, (x * np.float32(2)) + np.float32(1))
    waits = [e for e in trace if e["api"] == "WaitFlag"]
    sets = {(e["block"], e["seq"]) for e in trace if e["api"] == "SetFlag"}
    assert waits and all((w["block"], w["after"][0]) in sets for w in waits)


def test_reduce(binaries: dict[str, Path], tmp_path: Path) -> None:
    x = np.random.default_rng(2).uniform(-10, 10, 4 * 2048).astype(np.float32)
    x.tofile(tmp_path / "x.bin")
    rc, report, _ = _run(binaries["reduce"], tmp_path)
    assert rc == 0 and report == []
    o = np.fromfile(tmp_path / "out.out.bin", dtype=np.float32).reshape(4, 64)
    xs = x.reshape(4, 2048).astype(np.float64)
    assert np.allclose(o[:, 0], xs.sum(1), rtol=1e-5, atol=1e-3)
    assert np.array_equal(o[:, 8], x.reshape(4, 2048).max(1))
    assert np.array_equal(o[:, 9].view(np.int32), xs.argmax(1))
    assert np.allclose(o[:, 16:48], xs.reshape(4, 32, 64).sum(2), rtol=1e-5, atol=1e-4)
    assert np.allclose(o[:, 48], xs.sum(1), rtol=1e-5, atol=1e-3)


def test_cast(binaries: dict[str, Path], tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    x = np.array([*rng.uniform(-100, 100, 248), 2.5, -2.5, 0.5, 1.5, -3.5, 70000.0, 1e-8, 3.0e-5],
                 dtype=np.float32)
    x.tofile(tmp_path / "x.bin")
    rc, report, _ = _run(binaries["cast"], tmp_path)
    assert rc == 0 and report == []
    h = np.fromfile(tmp_path / "h.out.bin", dtype=np.float16)
    with np.errstate(over="ignore"):
        assert np.array_equal(h, x.astype(np.float16))  # RNE incl. overflow to inf and subnormals
    i = np.fromfile(tmp_path / "i.out.bin", dtype=np.int32).reshape(5, 256)
    xd = x.astype(np.float64)
    assert np.array_equal(i[0], np.floor(xd))
    assert np.array_equal(i[1], np.ceil(xd))
    assert np.array_equal(i[2], np.sign(xd) * np.floor(np.abs(xd) + 0.5))  # ties away from zero
    assert np.array_equal(i[3], np.trunc(xd))
    assert np.array_equal(i[4], np.rint(xd))  # ties to even


def test_truncation_is_emulated(binaries: dict[str, Path], tmp_path: Path) -> None:
    np.arange(4096, dtype=np.float32).tofile(tmp_path / "x.bin")
    rc, _, _ = _run(binaries["bug_TRUNCATION"], tmp_path)
    z = np.fromfile(tmp_path / "z.out.bin", dtype=np.float32)
    assert np.array_equal(z[:1000], np.arange(1000, dtype=np.float32))
    assert np.isnan(z[1000])  # the last 4 B never reached GM (poison stays)
    rc, report, _ = _run(binaries["bug_TRUNCATION"], tmp_path, "--strict")
    assert rc == 1 and report[0]["severity"] == "error"
