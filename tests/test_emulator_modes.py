"""The emulator's modes (PROTOCOL.md "Modes"): every NPU-faithful default lets a kernel that is correct on the NPU
pass, and its buggy twin proves the stricter mode still catches what it should. Also the CCE layer's race
detection with raw set_flag/wait_flag and the TPipe/TQue/TBuf surface. The kernels are tests/emulator_cpp/modes.cpp
(one binary, the case picked by EMU_CASE); ASSERT's trap is compile-time, so it has a second build."""

from __future__ import annotations

import json
import os
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

X = np.arange(4096, dtype=np.float32)


def _compile(out: Path, *defines: str) -> None:
    cmd = ["g++", "-std=c++17", "-O1", "-g0", "-w", "-I", str(INCLUDE), *defines, str(CPP / "modes.cpp"), "-o", str(out)]
    res = subprocess.run(cmd, capture_output=True, text=True, cwd=CPP)
    assert res.returncode == 0, res.stderr[-4000:]


@pytest.fixture(scope="module")
def binaries(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("emu_modes")
    jobs = {"npu": (), "trap": ("-DASCENDC_EMU_ASSERT_TRAP=1",)}
    with ThreadPoolExecutor(max_workers=2) as ex:
        for f in [ex.submit(_compile, d / k, *v) for k, v in jobs.items()]:
            f.result()
    return {k: d / k for k in jobs}


class Run:
    def __init__(self, rc: int, report: list[dict], stdout: str, z: np.ndarray | None) -> None:
        self.rc, self.report, self.stdout, self.z = rc, report, stdout, z

    def errors(self, category: str | None = None) -> list[dict]:
        return [r for r in self.report if r["severity"] == "error" and category in (None, r["category"])]

    def warnings(self, category: str | None = None) -> list[dict]:
        return [r for r in self.report if r["severity"] == "warning" and category in (None, r["category"])]


def run(binary: Path, tmp_path: Path, case: str, *flags: str, env: dict[str, str] | None = None) -> Run:
    work = tmp_path / case
    work.mkdir(exist_ok=True)
    X.tofile(work / "x.bin")
    report = work / "report.jsonl"
    res = subprocess.run(
        [str(binary), "--dir", str(work), "--report", str(report), *flags],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "EMU_CASE": case, **(env or {})},
    )
    lines = [json.loads(x) for x in report.read_text().splitlines() if x.strip()]
    z_path = work / "z.out.bin"
    z = np.fromfile(z_path, dtype=np.float32) if z_path.is_file() else None
    return Run(res.returncode, lines, res.stdout, z)


def assert_clean(r: Run) -> None:
    assert r.rc == 0 and not r.errors(), r.report


# ---- reserved UB: taken only by the APIs that use it
def test_whole_ub_is_the_kernels(binaries: dict[str, Path], tmp_path: Path) -> None:
    r = run(binaries["npu"], tmp_path, "ub_full")
    assert_clean(r)
    assert r.z is not None and np.array_equal(r.z, X + 1)
    # twin: the CPU-debug view keeps the 8 KB reserve off UB for every kernel
    strict = run(binaries["npu"], tmp_path, "ub_full", "--strict-ub")
    hits = strict.errors("ub-overflow")
    assert strict.rc == 1 and hits and "8,192 B reserved" in hits[0]["message"], strict.report


def test_reserved_ub_api_is_checked_where_it_runs(binaries: dict[str, Path], tmp_path: Path) -> None:
    assert_clean(run(binaries["npu"], tmp_path, "ub_select_fits"))
    r = run(binaries["npu"], tmp_path, "ub_select_full")
    hits = r.errors("ub-overflow")
    assert r.rc == 1 and hits and hits[0]["api"] == "Select" and hits[0]["check"] == "ub-reserved"
    assert "196,608 B" in hits[0]["message"] and "8,192 B into the reserve" in hits[0]["message"]
    # --ub-reserve off (--cce-disable-asc-reserved-ubuf): the API itself is rejected
    off = run(binaries["npu"], tmp_path, "ub_select_fits", "--ub-reserve", "off")
    assert off.errors("api-dtype-unsupported"), off.report


# ---- InitBuffer totals beyond UB: the NPU faults only on access
def test_initbuffer_beyond_ub_faults_only_on_access(binaries: dict[str, Path], tmp_path: Path) -> None:
    r = run(binaries["npu"], tmp_path, "ub_beyond_untouched")
    assert_clean(r)
    assert r.warnings("ub-overflow"), r.report  # still said, at InitBuffer
    touched = run(binaries["npu"], tmp_path, "ub_beyond_touched")
    hits = touched.errors("ub-overflow")
    assert touched.rc == 1 and hits and hits[0]["api"] == "Duplicate" and "past the end of UB" in hits[0]["message"]
    strict = run(binaries["npu"], tmp_path, "ub_beyond_untouched", "--strict-ub")
    assert strict.rc == 1 and strict.errors("ub-overflow")[0]["api"] == "InitBuffer"


# ---- synchronisation: bisheng's auto-sync is the default
def test_scalar_vector_sync_is_the_compilers(binaries: dict[str, Path], tmp_path: Path) -> None:
    assert_clean(run(binaries["npu"], tmp_path, "sync_vs"))
    strict = run(binaries["npu"], tmp_path, "sync_vs", "--strict-sync")
    hits = strict.errors("sync-missing")
    assert strict.rc == 1 and hits and "V_S" in hits[0]["message"] and "--strict-sync" in hits[0]["message"]
    legacy = run(binaries["npu"], tmp_path, "sync_vs", "--auto-sync", "none")  # the old spelling
    assert legacy.errors("sync-missing")
    via_env = run(binaries["npu"], tmp_path, "sync_vs", env={"ASCENDC_EMU_MODES": "strict-sync"})
    assert via_env.errors("sync-missing")


def test_vector_barriers_are_the_compilers(binaries: dict[str, Path], tmp_path: Path) -> None:
    r = run(binaries["npu"], tmp_path, "sync_vv")
    assert_clean(r)
    assert r.z is not None and np.array_equal(r.z, X * 2 + 1)
    strict = run(binaries["npu"], tmp_path, "sync_vv", "--strict-sync")
    hits = strict.errors("sync-missing")
    assert hits and "PipeBarrier<PIPE_V>" in hits[0]["message"] and "PIPE_V writes it" in hits[0]["message"]


def test_overlapping_mte2_copies_need_a_barrier(binaries: dict[str, Path], tmp_path: Path) -> None:
    r = run(binaries["npu"], tmp_path, "mte2_waw")  # the compiler does not insert this one
    hits = r.errors("sync-missing")
    assert r.rc == 1 and hits and "WAW" in hits[0]["message"] and "PipeBarrier<PIPE_MTE2>" in hits[0]["message"]
    assert_clean(run(binaries["npu"], tmp_path, "mte2_waw_barrier"))


# ---- ASSERT as the NPU build defines it
def test_assert_is_compiled_out_on_the_npu(binaries: dict[str, Path], tmp_path: Path) -> None:
    r = run(binaries["npu"], tmp_path, "assert_sdk")  # `n ASSERT(n != 0)` compiles and does nothing
    assert_clean(r)
    trap = run(binaries["trap"], tmp_path, "assert_sdk")  # --strict-assert: the CPU-debug trap
    hits = trap.errors("aicore-exception-triage")
    assert trap.rc == 1 and hits and hits[0]["check"] == "assert" and "ASSERT(n != 0" in hits[0]["message"]


def test_ascendc_assert_prints_and_stops_the_core(binaries: dict[str, Path], tmp_path: Path) -> None:
    r = run(binaries["npu"], tmp_path, "assert_kernel")
    hits = r.errors("aicore-exception-triage")
    assert r.rc == 1 and hits and "The flag value is 10." in hits[0]["message"]
    assert "[ASSERT]" in r.stdout and "Assertion `flag != 10'" in r.stdout


# ---- GM allocations as the runtime makes them
def test_reads_inside_the_runtime_padding_do_not_fault(binaries: dict[str, Path], tmp_path: Path) -> None:
    assert_clean(run(binaries["npu"], tmp_path, "gm_pad"))  # 32 B past the end: inside ALIGN_UP(n, 32) + 32
    strict = run(binaries["npu"], tmp_path, "gm_pad", "--strict-gm")
    assert strict.rc == 1 and strict.errors("gm-out-of-bounds"), strict.report
    past = run(binaries["npu"], tmp_path, "gm_past_pad")  # 64 B past: beyond the padding
    hits = past.errors("gm-out-of-bounds")
    assert past.rc == 1 and hits and "16,416 B (ALIGN_UP(16,384, 32) + 32)" in hits[0]["message"]


# ---- alignment exactly as the API docs state
def test_reduction_dst_alignment_follows_the_table(binaries: dict[str, Path], tmp_path: Path) -> None:
    assert_clean(run(binaries["npu"], tmp_path, "align_wrm_half"))  # value only, half: 2 B is enough
    r = run(binaries["npu"], tmp_path, "align_wrs_float")  # float sum: 4 B
    hits = r.errors("misaligned-access")
    assert r.rc == 1 and hits and "4-byte aligned" in hits[0]["message"]


# ---- the CCE layer
def test_raw_flags_take_part_in_race_detection(binaries: dict[str, Path], tmp_path: Path) -> None:
    r = run(binaries["npu"], tmp_path, "cce_flags")
    assert_clean(r)
    assert r.z is not None and np.array_equal(r.z, X * 2)
    bad = run(binaries["npu"], tmp_path, "cce_noflags")
    hits = bad.errors("sync-missing")
    assert bad.rc == 1 and {h["api"] for h in hits} >= {"Muls", "DataCopy"}
    assert any("MTE2_V" in h["message"] for h in hits)


def test_vcadd_accumulates_into_getaccval(binaries: dict[str, Path], tmp_path: Path) -> None:
    r = run(binaries["npu"], tmp_path, "cce_vcadd")
    assert_clean(r)
    sums = X.reshape(4, 1024).sum(axis=1, keepdims=True)
    assert r.z is not None and np.allclose(r.z.reshape(4, 1024), X.reshape(4, 1024) + sums, rtol=1e-6)


# ---- TPipe / TBufPool / static tensors / cross-core flags
def test_tbufpool_shared_regions(binaries: dict[str, Path], tmp_path: Path) -> None:
    r = run(binaries["npu"], tmp_path, "bufpool")
    assert_clean(r)
    assert r.z is not None and np.array_equal(r.z, X * 2 + 1)


def test_static_tensors(binaries: dict[str, Path], tmp_path: Path) -> None:
    r = run(binaries["npu"], tmp_path, "static_tensor")
    assert_clean(r)
    assert r.z is not None and np.array_equal(r.z, X + 1)


def test_crosscore_mode0_is_a_barrier(binaries: dict[str, Path], tmp_path: Path) -> None:
    for order in ("sequential", "reverse", "interleaved"):
        assert_clean(run(binaries["npu"], tmp_path, "crosscore", "--block-order", order))
    hang = run(binaries["npu"], tmp_path, "crosscore_hang")
    hits = hang.errors("sync-deadlock")
    assert hang.rc == 3 and hits and hits[0]["code"] == "507014" and hits[0]["api"] == "CrossCoreWaitFlag"


def test_group_barrier(binaries: dict[str, Path], tmp_path: Path) -> None:
    for order in ("sequential", "reverse", "interleaved"):
        r = run(binaries["npu"], tmp_path, "group_barrier", "--block-order", order)
        assert_clean(r)
        assert r.z is not None
        z = r.z.view(np.int32)
        assert list(z[:8]) == [3] * 8 and list(z[10:12]) == [3, 3]
    hang = run(binaries["npu"], tmp_path, "group_barrier_hang")
    hits = hang.errors("sync-deadlock")
    assert hang.rc == 3 and hits and hits[0]["api"] == "GroupBarrier::Wait"


# ---- Data Cache coherence: auto-sync orders the pipes but does not clean the cache
def test_dcache_coherence(binaries: dict[str, Path], tmp_path: Path) -> None:
    dirty = run(binaries["npu"], tmp_path, "dcache_dirty")
    hits = dirty.errors("sync-missing")
    assert dirty.rc == 1 and hits and hits[0]["check"] == "dcache-coherence" and hits[0]["api"] == "DataCopy"
    assert "SetValue" in hits[0]["message"] and "DataCacheCleanAndInvalid" in hits[0]["message"]
    assert_clean(run(binaries["npu"], tmp_path, "dcache_dirty_clean"))
    stale = run(binaries["npu"], tmp_path, "dcache_stale")
    hits = stale.errors("sync-missing")
    assert stale.rc == 1 and hits and hits[0]["api"] == "GetValue" and "DataCopy" in hits[0]["message"]
    assert_clean(run(binaries["npu"], tmp_path, "dcache_stale_clean"))
