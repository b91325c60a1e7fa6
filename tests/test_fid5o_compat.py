"""Op-library symbols of ascendc_emu/op_kernel_compat.h that span blocks: IBSet / IBWait (GM-flag inter-block sync,
docs/zh/api/SIMD-API/基础API/同步控制/核间同步/IBSet.md, IBWait.md), run on 4 blocks in every block order, and a
TQue passed by value (a view of the original, as a TBuf copy is); cases in tests/emulator_cpp/fid5o_compat.cpp,
checked with NumPy."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from tests.emu_api import CaseRun, compile_cases, run_case

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")]


@pytest.fixture(scope="module")
def binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_cases("fid5o_compat.cpp", tmp_path_factory.mktemp("fid5o"))


def run_in_order(binary: Path, case: int, workdir: Path, order: str, a: np.ndarray, b: np.ndarray) -> CaseRun:
    """run_case with --block-order: the harness reads the flag, the helper has no parameter for it."""
    run_case(binary, case, workdir, a=a, b=b)  # writes the inputs and the SoC file into workdir/case<N>_<soc>
    d = workdir / f"case{case}_Ascend910B"
    (d / "report.jsonl").unlink(missing_ok=True)
    cmd = [str(binary), "--dir", str(d), "--soc-file", str(d / "soc.txt"), "--report", str(d / "report.jsonl"),
           "--tiling-key", str(case), "--block-order", order]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    report = [json.loads(x) for x in (d / "report.jsonl").read_text().splitlines() if x.strip()]
    out = (d / "out.out.bin").read_bytes() if (d / "out.out.bin").exists() else b""
    return CaseRun(res.returncode, report, out, res.stderr, [])


@pytest.mark.parametrize("order", ["sequential", "reverse", "interleaved"])
def test_ibwait_holds_a_block_until_the_previous_one_ibsets(binary: Path, tmp_path: Path, order: str) -> None:
    x = (np.arange(32, dtype=np.float32) * 0.5 - 3).astype(np.float32)
    sync = np.zeros(256, np.int32)  # IBSet.md: the GM workspace starts zeroed
    r = run_in_order(binary, 1, tmp_path, order, x, sync)
    assert r.rc == 0 and not r.errors(), r.report
    want = np.cumsum(x.reshape(4, 8), axis=0).reshape(-1)
    assert np.array_equal(r.array(np.float32, 32), want)


def test_an_ibwait_nobody_releases_is_reported_as_a_hang(binary: Path, tmp_path: Path) -> None:
    r = run_in_order(binary, 2, tmp_path, "sequential", np.zeros(8, np.float32), np.zeros(256, np.int32))
    hangs = [d for d in r.report if d.get("check") == "ib-wait"]
    assert hangs and "IBWait on block 0 waits forever" in hangs[0]["message"], r.report


def test_a_tque_passed_by_value_acts_on_the_original_queue(binary: Path, tmp_path: Path) -> None:
    x = np.linspace(-2, 5, 8, dtype=np.float32)
    r = run_in_order(binary, 3, tmp_path, "sequential", x, np.zeros(8, np.int32))
    assert r.rc == 0 and not r.errors(), r.report
    want = np.concatenate([x * np.float32(2), x * np.float32(3), np.full(8, 7, np.float32)])
    assert np.array_equal(r.array(np.float32, 24), want)


@pytest.mark.parametrize("order", ["sequential", "reverse", "interleaved"])
def test_ffts_cross_core_sync_mode0_and_wait_flag_dev_hold_every_block(binary: Path, tmp_path: Path, order: str) -> None:
    x = np.arange(32, dtype=np.float32) + 1
    r = run_in_order(binary, 4, tmp_path, order, x, np.zeros(8, np.int32))
    assert r.rc == 0 and not r.errors(), r.report
    rows = r.array(np.float32, 5 * 32).reshape(5, 32)
    assert np.array_equal(rows[0], x)
    assert all(np.array_equal(rows[1 + i], x) for i in range(4))  # no block read before every block stored


def test_paramoffset_is_the_blocks_own_slice(binary: Path, tmp_path: Path) -> None:
    r = run_in_order(binary, 5, tmp_path, "reverse", np.zeros(8, np.float32), np.zeros(8, np.int32))
    assert r.rc == 0 and not r.errors(), r.report
    assert np.array_equal(r.array(np.float32, 32), np.repeat(np.arange(4, dtype=np.float32), 8))


OPERATOR_PROGRAM = r"""
#include "graph/operator.h"
#include "base/alog_pub.h"
#include <cstdio>
// An op_host's own CheckLogLevel (max_pool3_d_with_argmax_v2 defines one): the shim only declares it.
int32_t CheckLogLevel(int32_t, int32_t) { return 7; }
int main() {
    ge::Operator op("ReverseSequence");
    op.UpdateInputDesc("x", ge::TensorDesc(ge::Shape({2, 3, 4}), ge::FORMAT_ND, ge::DT_FLOAT16));
    op.SetAttr("seq_dim", int64_t(1));
    ge::TensorDesc x = op.GetInputDescByName("x");
    ge::TensorDesc missing = op.GetOutputDescByName("y");
    int64_t seq = -1, absent = -1;
    bool has_seq = op.GetAttr("seq_dim", seq) == ge::GRAPH_SUCCESS;
    bool has_absent = op.GetAttr("batch_dim", absent) == ge::GRAPH_SUCCESS;
    std::printf("%zu %lld %d %zu %d %lld %d %d\n", x.GetShape().GetDimNum(), (long long)x.GetShape().GetShapeSize(),
                (int)x.GetDataType(), missing.GetShape().GetDimNum(), (int)has_seq, (long long)seq, (int)has_absent,
                CheckLogLevel(0, 0));
}
"""


def test_host_operator_reads_named_descs_and_attrs(tmp_path: Path) -> None:
    from ascendc_lsp.toolchain.opproject.host import host_include_dir

    src = tmp_path / "operator_check.cpp"
    src.write_text(OPERATOR_PROGRAM, encoding="utf-8")
    exe = tmp_path / "operator_check"
    build = subprocess.run(["g++", "-std=c++17", f"-I{host_include_dir()}", str(src), "-o", str(exe)],
                           capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr[-3000:]
    out = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60).stdout.split()
    # x: 3 dims, 24 elements, DT_FLOAT16 (1); y unknown: empty; seq_dim read back; batch_dim absent; own CheckLogLevel
    assert out == ["3", "24", "1", "0", "1", "1", "0", "7"]
