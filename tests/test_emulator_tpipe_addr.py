"""TPipe::InitBuffer with user addresses (InitBuffer.md: one (start, length) tuple per buffer of a queue) on the
emulator: the buffers sit where the tuples say, carry data through EnQue/DeQue, later automatic InitBuffer calls do
not overlap them, and bad ranges are reported. Compiles with g++: slow."""

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
extern "C" __global__ __aicore__ void addrk(GM_ADDR x, GM_ADDR y, GM_ADDR offs) {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> qIn;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> qOut;
    auto a0 = AscendC::Std::make_tuple(SECOND_START, 1024);
    auto a1 = AscendC::Std::make_tuple(0, 1024);
    pipe.InitBuffer(qIn, a0, a1);
    pipe.InitBuffer(qOut, 1, 1024);
    AscendC::GlobalTensor<float> xg, yg;
    AscendC::GlobalTensor<int32_t> og;
    xg.SetGlobalBuffer((__gm__ float*)x, 256);
    yg.SetGlobalBuffer((__gm__ float*)y, 256);
    og.SetGlobalBuffer((__gm__ int32_t*)offs, 8);
    AscendC::LocalTensor<float> t0 = qIn.AllocTensor<float>();
    AscendC::LocalTensor<float> t1 = qIn.AllocTensor<float>();
    AscendC::LocalTensor<float> o = qOut.AllocTensor<float>();
    og.SetValue(0, (int32_t)(t0.GetPhyAddr() - t1.GetPhyAddr()));
    og.SetValue(1, (int32_t)(o.GetPhyAddr() - t1.GetPhyAddr()));
    for (int i = 2; i < 8; i++) og.SetValue(i, 0);
    AscendC::DataCopy(t0, xg, 256);
    AscendC::DataCopy(t1, xg, 256);
    qIn.EnQue(t0); qIn.EnQue(t1);
    t0 = qIn.DeQue<float>(); t1 = qIn.DeQue<float>();
    AscendC::Add(o, t0, t1, 256);
    qOut.EnQue(o);
    o = qOut.DeQue<float>();
    AscendC::DataCopy(yg, o, 256);
    qIn.FreeTensor(t0); qIn.FreeTensor(t1); qOut.FreeTensor(o);
}
"""

SPEC = """
kernel: addrk
source: kernel.cpp
block_dim: 1
defines: {{SECOND_START: {start}}}
inputs:
  - {{name: x, shape: [256], dtype: float32, init: {{uniform: [-1, 1]}}}}
outputs:
  - {{name: y, shape: [256], dtype: float32}}
  - {{name: offs, shape: [8], dtype: int32}}
reference: |
  y = x + x
  offs = np.array([{start}, {end}, 0, 0, 0, 0, 0, 0], np.int32)
tolerance: {{rtol: 0, atol: 0}}
"""


def _run(tmp_path: Path, start: int) -> RunResult:
    (tmp_path / "kernel.cpp").write_text(textwrap.dedent(KERNEL), encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent(SPEC.format(start=start, end=max(start + 1024, 1024))),
                                        encoding="utf-8")
    return EmulatorToolchain().run(load_spec(tmp_path / "spec.yaml"), RunOptions(timeout=120))


def test_initbuffer_user_addresses(tmp_path: Path) -> None:
    r = _run(tmp_path, 4096)
    assert r.correct, [f"{d.category}: {d.message}" for d in r.diagnostics]
    assert not [d for d in r.diagnostics if d.severity == "error"]


def test_initbuffer_overlapping_user_addresses_are_reported(tmp_path: Path) -> None:
    r = _run(tmp_path, 512)
    assert any("buffers 0 and 1 overlap" in d.message for d in r.diagnostics), [d.message for d in r.diagnostics]
