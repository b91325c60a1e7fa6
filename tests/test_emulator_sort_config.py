"""Sort with SortConfig (Sort.md, Ascend 950: RADIX_SORT / MERGE_SORT, ascending / descending, with or without
source indices) on the emulator against a NumPy stable argsort: duplicates keep their order, floats follow the
radix (bit) order for RADIX_SORT, and MERGE_SORT's constraints are reported. Compiles with g++: slow."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from ascendc_lsp.toolchain.base import RunOptions, RunResult
from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain
from ascendc_lsp.toolchain.spec import load_spec

pytestmark = pytest.mark.slow

KERNEL = r"""
#include "kernel_operator.h"
constexpr uint32_t N = COUNT;
static constexpr AscendC::SortConfig cfg = {AscendC::SortType::SORT_TYPE, DESCEND};
extern "C" __global__ __aicore__ void sortk(GM_ADDR x, GM_ADDR xi, GM_ADDR y, GM_ADDR yi) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> bx, bxi, by, byi, bt;
    pipe.InitBuffer(bx, 1024 * sizeof(VT));
    pipe.InitBuffer(bxi, 1024 * sizeof(uint32_t));
    pipe.InitBuffer(by, 1024 * 8);
    pipe.InitBuffer(byi, 1024 * sizeof(uint32_t));
    pipe.InitBuffer(bt, 1024);
    AscendC::LocalTensor<VT> lx = bx.Get<VT>(), ly = by.Get<VT>();
    AscendC::LocalTensor<uint32_t> lxi = bxi.Get<uint32_t>(), lyi = byi.Get<uint32_t>();
    AscendC::LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
    AscendC::GlobalTensor<VT> gx, gy;
    AscendC::GlobalTensor<uint32_t> gxi, gyi;
    gx.SetGlobalBuffer((__gm__ VT*)x, N);
    gxi.SetGlobalBuffer((__gm__ uint32_t*)xi, N);
    gy.SetGlobalBuffer((__gm__ VT*)y, N);
    gyi.SetGlobalBuffer((__gm__ uint32_t*)yi, N);
    AscendC::DataCopy(lx, gx, N);
    AscendC::DataCopy(lxi, gxi, N);
    AscendC::PipeBarrier<PIPE_ALL>();
#if WITH_SRC_INDEX
    AscendC::Sort<VT, uint32_t, false, cfg>(ly, lyi, lx, lxi, tmp, N);
#else
    AscendC::Sort<VT, false, cfg>(ly, lyi, lx, N);
#endif
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(gy, ly, N);
    AscendC::DataCopy(gyi, lyi, N);
}
"""

SPEC = """
kernel: sortk
source: kernel.cpp
block_dim: 1
defines: {{COUNT: {n}, VT: {ctype}, SORT_TYPE: {algo}, DESCEND: {desc_c}, WITH_SRC_INDEX: {srcidx}}}
inputs:
  - {{name: x, shape: [{n}], dtype: {dtype}, init: {init}}}
  - {{name: xi, shape: [{n}], dtype: uint32, init: {{randint: [0, 100000]}}}}
outputs:
  - {{name: y, shape: [{n}], dtype: {dtype}}}
  - {{name: yi, shape: [{n}], dtype: uint32}}
reference: |
  {key}
  sign = -1 if {desc} else 1
  order = np.array(sorted(range({n}), key=lambda i: (sign * key[i], i)))
  y = x[order]
  yi = (xi if {srcidx} else np.arange({n}, dtype=np.uint32))[order]
tolerance: {{rtol: 0, atol: 0}}
"""

# RADIX_SORT orders floats by their bits (-inf < -1 < -0 < +0 < 1 < inf); ints as integers.
FLOAT_VALUES = [3.0, -0.0, 0.0, -1.0, float("inf"), 3.0, -0.0, float("-inf"), 2.5, 0.0, -1.0, 7.0, 3.0, -2.0, 0.0,
                1.0] * 2
RADIX_FLOAT_KEY = ("bits = x.view(np.uint32).astype(np.int64); "
                   "key = [int(b ^ 0xFFFFFFFF) if b & 0x80000000 else int(b | 0x80000000) for b in bits]")
INT_KEY = "key = [int(v) for v in x]"
FLOAT_KEY = "key = [float(v) for v in x]"


def _run(tmp_path: Path, **kw: object) -> RunResult:
    (tmp_path / "kernel.cpp").write_text(textwrap.dedent(KERNEL), encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent(SPEC.format(**kw)), encoding="utf-8")
    return EmulatorToolchain().run(load_spec(tmp_path / "spec.yaml"), RunOptions(timeout=120))


@pytest.mark.parametrize(
    ("ctype", "dtype", "algo", "desc", "srcidx", "init", "key"),
    [
        ("float", "float32", "RADIX_SORT", "false", 0, "{values: " + str(FLOAT_VALUES).replace("inf", ".inf") + "}",
         RADIX_FLOAT_KEY),
        ("int32_t", "int32", "RADIX_SORT", "true", 1, "{randint: [-6, 6]}", INT_KEY),
        ("half", "float16", "MERGE_SORT", "true", 1, "{randint: [-6, 6]}", FLOAT_KEY),
    ],
)
def test_sort_with_config(tmp_path: Path, ctype: str, dtype: str, algo: str, desc: str, srcidx: int, init: str,
                          key: str) -> None:
    r = _run(tmp_path, n=32 if ctype == "float" else 96, ctype=ctype, dtype=dtype, algo=algo,
             desc="True" if desc == "true" else "False", desc_c=desc, srcidx=srcidx, init=init, key=key)
    assert r.correct, [f"{d.category}: {d.message}" for d in r.diagnostics]
    assert not [d for d in r.diagnostics if d.severity == "error"]


def test_merge_sort_needs_a_multiple_of_32(tmp_path: Path) -> None:
    r = _run(tmp_path, n=40, ctype="float", dtype="float32", algo="MERGE_SORT", desc="False", desc_c="false", srcidx=0,
             init="{randint: [-6, 6]}", key=FLOAT_KEY)
    assert any("multiple of 32" in d.message for d in r.diagnostics), [d.message for d in r.diagnostics]


# The high-level MrgSort (MrgSort-93.md): two lists of 32 sorted (score, index) records from Sort<float, false>
# merged into one descending list; sortedNum holds the records taken from each list.
MRG_KERNEL = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void mrgk(GM_ADDR x, GM_ADDR y, GM_ADDR taken) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> bx, bi, bs, bd, bt;
    pipe.InitBuffer(bx, 64 * sizeof(float));
    pipe.InitBuffer(bi, 64 * sizeof(uint32_t));
    pipe.InitBuffer(bs, 64 * 8);
    pipe.InitBuffer(bd, 64 * 8);
    pipe.InitBuffer(bt, 64 * 8);
    AscendC::LocalTensor<float> lx = bx.Get<float>(), ls = bs.Get<float>(), ld = bd.Get<float>(), lt = bt.Get<float>();
    AscendC::LocalTensor<uint32_t> li = bi.Get<uint32_t>();
    AscendC::GlobalTensor<float> gx;
    AscendC::GlobalTensor<uint32_t> gy;
    AscendC::GlobalTensor<int32_t> gt;
    gx.SetGlobalBuffer((__gm__ float*)x, 64);
    gy.SetGlobalBuffer((__gm__ uint32_t*)y, 128);
    gt.SetGlobalBuffer((__gm__ int32_t*)taken, 8);
    AscendC::DataCopy(lx, gx, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < 64; i++) li.SetValue(i, i);
    AscendC::Sort<float, false>(ls, lx, li, lt, 2);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::MrgSortSrcList<float> list(ls, ls[64], ls[64], ls[64]);
    const uint16_t counts[4] = {32, 32, 0, 0};
    uint32_t sortedNum[4] = {0, 0, 0, 0};
    AscendC::MrgSort<float>(ld, list, counts, sortedNum, 0b11, 1);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(gy, ld.ReinterpretCast<uint32_t>(), 128);
    for (int i = 0; i < 4; i++) gt.SetValue(i, (int32_t)sortedNum[i]);
    for (int i = 4; i < 8; i++) gt.SetValue(i, 0);
}
"""

MRG_SPEC = """
kernel: mrgk
source: kernel.cpp
block_dim: 1
inputs:
  - {name: x, shape: [64], dtype: float32, init: {uniform: [-10, 10]}}
outputs:
  - {name: y, shape: [128], dtype: uint32}
  - {name: taken, shape: [8], dtype: int32}
reference: |
  order = np.argsort(-x, kind="stable")
  y = np.stack([x[order].view(np.uint32), order.astype(np.uint32)], axis=1).reshape(-1)
  taken = np.array([32, 32, 0, 0, 0, 0, 0, 0], np.int32)
tolerance: {rtol: 0, atol: 0}
"""


def test_high_level_mrgsort_merges_two_sorted_lists(tmp_path: Path) -> None:
    r = _run_text(tmp_path, MRG_KERNEL, MRG_SPEC)
    assert r.correct, [f"{d.category}: {d.message}" for d in r.diagnostics]
    assert not [d for d in r.diagnostics if d.severity == "error"]


def _run_text(tmp_path: Path, kernel: str, spec: str) -> RunResult:
    (tmp_path / "kernel.cpp").write_text(textwrap.dedent(kernel), encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent(spec), encoding="utf-8")
    return EmulatorToolchain().run(load_spec(tmp_path / "spec.yaml"), RunOptions(timeout=120))
