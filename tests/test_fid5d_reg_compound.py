"""Register-API forms of the public Reg softmax (emulator include/ascendc_emu/reg_compound.h, scalar_calc.h):
ExpSub on float and on half sources (RegLayout ONE) with a tail mask, Duplicate's tensor mode, ReduceSum /
ReduceMax, StoreAlign DIST_FIRST_ELEMENT_B32 and CeilDivision, checked against NumPy; the public
softmax_high_performance sample passes its own verify_result.py in the scenarios that fit the documented 248 KB UB.
Compiles with g++: slow."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from ascendc_lsp.toolchain.base import RunOptions, RunResult
from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain
from ascendc_lsp.toolchain.spec import load_spec
from tests.public_sources import tree_or_skip

pytestmark = pytest.mark.slow

KERNEL = r"""
#include "kernel_operator.h"
namespace R = AscendC::Reg;
static_assert(AscendC::CeilDivision(100, 64) == 2 && AscendC::CeilDivision(128, 64) == 2, "CeilDivision");

__simd_vf__ inline void Body(__ubuf__ float* a, __ubuf__ float* b, __ubuf__ half* h, __ubuf__ half* g,
                            __ubuf__ float* o) {
    R::MaskReg all = R::CreateMask<float>();
    uint32_t count = 50;
    R::MaskReg tail = R::UpdateMask<float>(count);
    R::RegTensor<float> x, y, r;
    R::RegTensor<half> hx, hy;
    R::LoadAlign(x, a);
    R::LoadAlign(y, b);
    R::ExpSub(r, x, y, tail);                       // lanes >= 50 zeroed
    R::StoreAlign(o, r, all);
    R::LoadAlign(hx, h);
    R::LoadAlign(hy, g);
    R::MaskReg allh = R::CreateMask<half>();
    R::ExpSub<float, half, R::RegLayout::ONE>(r, hx, hy, allh);  // lane k from half lane 2k + 1
    R::StoreAlign(o + 64, r, all);
    R::Duplicate(r, y, all);                        // y[0] everywhere
    R::StoreAlign(o + 128, r, all);
    R::ReduceMax(r, x, tail);
    R::StoreAlign<float, R::StoreDist::DIST_FIRST_ELEMENT_B32>(o + 192, r, tail);
    R::ReduceSum(r, x, all);
    R::StoreAlign<float, R::StoreDist::DIST_FIRST_ELEMENT_B32>(o + 193, r, tail);
}
extern "C" __global__ __aicore__ void rcomp(GM_ADDR ag, GM_ADDR bg, GM_ADDR hxg, GM_ADDR gxg, GM_ADDR og) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * 4 + 1024);
    AscendC::LocalTensor<uint8_t> t = buf.Get<uint8_t>();
    AscendC::GlobalTensor<float> A; A.SetGlobalBuffer((__gm__ float*)ag, 64);
    AscendC::GlobalTensor<float> B; B.SetGlobalBuffer((__gm__ float*)bg, 64);
    AscendC::GlobalTensor<half> H; H.SetGlobalBuffer((__gm__ half*)hxg, 128);
    AscendC::GlobalTensor<half> G; G.SetGlobalBuffer((__gm__ half*)gxg, 128);
    AscendC::GlobalTensor<float> O; O.SetGlobalBuffer((__gm__ float*)og, 200);
    AscendC::LocalTensor<float> ol = t[1024].ReinterpretCast<float>();
    AscendC::Duplicate(ol, -1.0f, 256);
    AscendC::DataCopy(t.ReinterpretCast<float>(), A, 64);
    AscendC::DataCopy(t[256].ReinterpretCast<float>(), B, 64);
    AscendC::DataCopy(t[512].ReinterpretCast<half>(), H, 128);
    AscendC::DataCopy(t[768].ReinterpretCast<half>(), G, 128);
    AscendC::PipeBarrier<PIPE_ALL>();
    __ubuf__ uint8_t* p = reinterpret_cast<__ubuf__ uint8_t*>(t.GetPhyAddr());
    asc_vf_call<Body>((__ubuf__ float*)p, (__ubuf__ float*)(p + 256), (__ubuf__ half*)(p + 512),
                      (__ubuf__ half*)(p + 768), (__ubuf__ float*)(p + 1024));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(O, ol, 200);
}
"""

SPEC = """
kernel: rcomp
source: kernel.cpp
block_dim: 1
soc: Ascend950
inputs:
  - {name: a, shape: [64], dtype: float32, init: {uniform: [-3, 3]}}
  - {name: b, shape: [64], dtype: float32, init: {uniform: [-3, 3]}}
  - {name: hx, shape: [128], dtype: float16, init: {uniform: [-3, 3]}}
  - {name: gx, shape: [128], dtype: float16, init: {uniform: [-3, 3]}}
outputs:
  - {name: o, shape: [200], dtype: float32}
reference: |
  o = np.full(200, -1, np.float32)
  o[0:64] = np.where(np.arange(64) < 50, np.exp(a - b), 0)
  o[64:128] = np.exp(hx[1::2].astype(np.float32) - gx[1::2].astype(np.float32))
  o[128:192] = b[0]
  o[192] = a[:50].max()
  o[193] = a.sum(dtype=np.float32)
tolerance: {rtol: 1.0e-5, atol: 1.0e-5}
"""


def _run(tmp_path: Path) -> RunResult:
    (tmp_path / "kernel.cpp").write_text(textwrap.dedent(KERNEL), encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent(SPEC), encoding="utf-8")
    return EmulatorToolchain().run(load_spec(tmp_path / "spec.yaml"), RunOptions(timeout=180))


def test_reg_softmax_forms_match_numpy(tmp_path: Path) -> None:
    r = _run(tmp_path)
    assert r.correct, [f"{d.category}: {d.message}" for d in r.diagnostics]
    assert not [d for d in r.diagnostics if d.severity == "error"]


@pytest.mark.parametrize("scenario", ["3", "4", "5"])  # 0-2 allocate 256 KB, past the 248 KB UB
def test_public_reg_softmax_sample_passes_its_own_verification(scenario: str) -> None:
    from ascendc_lsp.toolchain.program.run import ProgramOptions, run_program

    root = tree_or_skip("cannmirror+asc-devkit")
    sample = root / "examples/01_simd_cpp_api/05_best_practices/02_reg_compute/softmax_high_performance"
    r = run_program(sample, ProgramOptions(timeout=600, defines={"SCENARIO_NUM": scenario}))
    assert r.correct, [d.message for d in r.diagnostics]
