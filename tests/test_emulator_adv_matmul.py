"""The Matmul configuration surface on the emulator against NumPy (tests/emulator_cpp/adv_matmul.cpp): global
config names and GetMMConfig (checked at compile time), a fully constant tiling from GetMatmulApiTiling with a null
runtime tiling, TrianUpperMatmulPolicy, SetQuantScalar / SetQuantVector (de)quantisation with enableRelu, and the
faults: a constant base block that differs from the runtime tiling, int8 inputs to a half C without quantisation."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.test_emulator_headers import CPP, _compile, _run

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed"),
]

M, N, K = 64, 48, 32


def _inputs(d: Path) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(7)
    v = {
        "a": rng.integers(-4, 5, (M, K)).astype(np.float16),
        "b": rng.integers(-4, 5, (K, N)).astype(np.float16),
        "qa": rng.integers(-20, 21, (M, K)).astype(np.int8),
        "qb": rng.integers(-20, 21, (K, N)).astype(np.int8),
    }
    scales = rng.choice(np.array([0.5, 0.125, 0.0625, 0.03125], np.float32), N)
    offsets = (np.arange(N) % 7 - 3).astype(np.int64)
    qv = scales.view(np.uint32).astype(np.uint64) | ((offsets & 0x1FF).astype(np.uint64) << 37) | (1 << 46)
    v["qv"] = qv.astype(np.uint64)
    v["scales"], v["offsets"] = scales, offsets.astype(np.float32)
    for k in ("a", "b", "qa", "qb", "qv"):
        v[k].tofile(d / f"{k}.bin")
    return v


def test_matmul_configs_policies_quant(tmp_path: Path) -> None:
    _compile(CPP / "adv_matmul.cpp", tmp_path / "mm")
    v = _inputs(tmp_path)
    rc, report, trace = _run(tmp_path / "mm", tmp_path)
    assert rc == 0 and report == [], report
    ref = v["a"].astype(np.float32) @ v["b"].astype(np.float32)
    c0 = np.fromfile(tmp_path / "c0.out.bin", np.float32).reshape(M, N)
    np.testing.assert_array_equal(c0, ref)
    # TrianUpperMatmulPolicy, base 16 x 16: block (i, j) with i > j is left as it was
    c1 = np.fromfile(tmp_path / "c1.out.bin", np.uint32).reshape(M, N)
    bi, bj = np.arange(M)[:, None] // 16, np.arange(N)[None, :] // 16
    upper = np.broadcast_to(bi <= bj, (M, N))
    np.testing.assert_array_equal(c1[upper].view(np.float32), ref[upper])
    assert np.all(c1[~upper] == 0xFFFFFFFF)
    acc = v["qa"].astype(np.int32) @ v["qb"].astype(np.int32)
    c2 = np.fromfile(tmp_path / "c2.out.bin", np.float16).reshape(M, N)
    np.testing.assert_array_equal(c2, (acc.astype(np.float32) * np.float32(0.25)).astype(np.float16))
    c3 = np.fromfile(tmp_path / "c3.out.bin", np.int8).reshape(M, N)
    q = acc.astype(np.float32) * v["scales"] + v["offsets"]
    np.testing.assert_array_equal(c3, np.clip(np.rint(np.maximum(q, 0)), -128, 127).astype(np.int8))
    c4 = np.fromfile(tmp_path / "c4.out.bin", np.float32).reshape(16, 16)
    np.testing.assert_array_equal(c4, ref[:16, :16])
    w = np.fromfile(tmp_path / "w.out.bin", np.float32).reshape(16, 16)
    np.testing.assert_array_equal(w, ref[16:32, :16])  # the second GetTensorC<false> took the second block
    mmads = [e for e in trace if e["pipe"] == "m" and e.get("matmul") == "IterateAll"]
    # c0: 2 x 3 blocks of 32 x 16; c1: the 6 blocks on or above the diagonal of 4 x 3; c2, c3: 12 blocks each
    assert len(mmads) == 6 + 6 + 12 + 12


@pytest.mark.parametrize(
    ("bug", "severity", "check", "needle"),
    [
        ("STATIC_MISMATCH", "error", "matmul-static-tiling", "base block 32 x 16 x 32"),
        ("NO_QUANT", "warning", "matmul-quant", "SetQuantScalar"),
    ],
)
def test_matmul_config_faults(tmp_path: Path, bug: str, severity: str, check: str, needle: str) -> None:
    _compile(CPP / "adv_matmul.cpp", tmp_path / "mm", (f"-DBUG_{bug}",))
    _inputs(tmp_path)
    _, report, _ = _run(tmp_path / "mm", tmp_path)
    hits = [r for r in report if r["check"] == check]
    assert hits and all(r["severity"] == severity for r in hits), report
    assert needle in hits[0]["message"] and hits[0]["file"].endswith("adv_matmul.cpp") and hits[0]["line"] > 0
