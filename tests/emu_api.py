"""Helpers for the basic-API emulator tests (tests/test_emulator_api_*.py).

A test file builds one C++ case file from tests/emulator_cpp/ (see api_case.h) against the emulator headers,
with the cached runtime object and precompiled header the real builder uses, then runs it once per case
(`--tiling-key N`) on the SoC profile the case needs, and compares `out.out.bin` with NumPy.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ascendc_lsp.toolchain.emulator import build as emu_build
from ascendc_lsp.toolchain.emulator.soc import load_soc

CPP = Path(__file__).resolve().parent / "emulator_cpp"


def compile_cases(source: str, out_dir: Path) -> Path:
    """Builds tests/emulator_cpp/<source> (split runtime + PCH, as the runner builds kernels)."""
    cxx = emu_build.find_cxx()
    assert cxx, "g++ not found"
    inc = emu_build.include_dir()
    runtime = emu_build.ensure_runtime(cxx, 300)
    pch = emu_build.ensure_pch(cxx, 300)
    cmd = [cxx, *emu_build.BASE_FLAGS]
    if pch is not None:
        cmd += [f"-I{pch}", "-include", emu_build.PCH_HEADER]
    cmd += [f"-I{inc}", f"-I{CPP}", str(CPP / source)]
    if runtime is not None:
        cmd.append(str(runtime))
    else:  # no cached runtime object: compile the bodies into this binary
        cmd = [c for c in cmd if c != emu_build.SPLIT_FLAG]
    binary = out_dir / Path(source).stem
    cmd += ["-o", str(binary)]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-6000:]
    return binary


@dataclass
class CaseRun:
    rc: int
    report: list[dict]
    out: bytes
    stderr: str = ""
    trace: list[dict] = field(default_factory=list)

    def array(self, dtype: str | type, count: int, offset_bytes: int = 0) -> np.ndarray:
        dt = np.dtype(dtype)
        return np.frombuffer(self.out, dtype=dt, count=count, offset=offset_bytes).copy()

    def checks(self) -> set[str]:
        return {r["check"] for r in self.report}

    def errors(self) -> list[dict]:
        return [r for r in self.report if r["severity"] == "error"]


def _as_bytes(a: np.ndarray | bytes | None) -> bytes:
    """Raw input bytes padded to a multiple of 64 (an absent input is 64 zero bytes)."""
    data = b"" if a is None else a if isinstance(a, bytes) else np.ascontiguousarray(a).tobytes()
    return data + bytes(-len(data) % 64) if data else bytes(64)


def run_case(binary: Path, case: int, workdir: Path, a: np.ndarray | bytes | None = None,
             b: np.ndarray | bytes | None = None, c: np.ndarray | bytes | None = None,
             soc: str = "Ascend910B", trace: bool = False) -> CaseRun:
    """Runs case `case` with inputs a/b/c (raw little-endian bytes, padded to 64 B) on SoC profile `soc`."""
    d = workdir / f"case{case}_{soc}"
    d.mkdir(parents=True, exist_ok=True)
    for name, arr in (("a", a), ("b", b), ("c", c)):
        (d / f"{name}.bin").write_bytes(_as_bytes(arr))
    (d / "soc.txt").write_text(load_soc(soc).soc_txt(), encoding="utf-8")
    cmd = [str(binary), "--dir", str(d), "--soc-file", str(d / "soc.txt"), "--report", str(d / "report.jsonl"),
           "--tiling-key", str(case)]
    if trace:
        cmd += ["--trace", str(d / "trace.jsonl")]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    report = [json.loads(x) for x in (d / "report.jsonl").read_text().splitlines() if x.strip()]
    events: list[dict] = []
    if trace and (d / "trace.jsonl").exists():
        events = [json.loads(x) for x in (d / "trace.jsonl").read_text().splitlines() if x.strip()]
    out = (d / "out.out.bin").read_bytes() if (d / "out.out.bin").exists() else b""
    return CaseRun(res.returncode, report, out, res.stderr, events)
