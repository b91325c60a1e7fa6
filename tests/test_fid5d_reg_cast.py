"""Reg::Cast (emulator include/ascendc_emu/reg_cast.h; devkit 基础API/Reg矢量计算/类型转换/Cast.md and
辅助数据类型/RegLayout.md) with LoadAlign DIST_UNPACK_B16 and StoreAlign DIST_PACK_B32: half -> int32 (floor,
widening), float -> int16 (round, saturating and not), float -> int32 (rint, same width, tail mask ZEROING) and
float -> half into the odd lanes (RegLayout::ONE), each checked against NumPy. Compiles with g++: slow."""

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
static constexpr R::CastTrait kFloor = {R::RegLayout::ZERO, R::SatMode::UNKNOWN, R::MaskMergeMode::ZEROING,
                                       AscendC::RoundMode::CAST_FLOOR};
static constexpr R::CastTrait kRoundSat = {R::RegLayout::ZERO, R::SatMode::SAT, R::MaskMergeMode::ZEROING,
                                          AscendC::RoundMode::CAST_ROUND};
static constexpr R::CastTrait kRoundWrap = {R::RegLayout::ZERO, R::SatMode::NO_SAT, R::MaskMergeMode::ZEROING,
                                           AscendC::RoundMode::CAST_ROUND};
static constexpr R::CastTrait kRint = {R::RegLayout::UNKNOWN, R::SatMode::SAT, R::MaskMergeMode::ZEROING,
                                      AscendC::RoundMode::CAST_RINT};
static constexpr R::CastTrait kHalfOdd = {R::RegLayout::ONE, R::SatMode::NO_SAT, R::MaskMergeMode::ZEROING,
                                         AscendC::RoundMode::CAST_RINT};

__simd_vf__ inline void Body(__ubuf__ half* x, __ubuf__ float* f, __ubuf__ int32_t* y1, __ubuf__ int16_t* y2,
                            __ubuf__ int16_t* y3, __ubuf__ int32_t* y4, __ubuf__ half* y5) {
    R::MaskReg all32 = R::CreateMask<int32_t, R::MaskPattern::ALL>();
    R::RegTensor<half> xr;
    R::RegTensor<float> fr;
    R::RegTensor<int32_t> ir;
    R::RegTensor<int16_t> sr;
    R::RegTensor<half> hr;
    R::LoadAlign<half, R::PostLiteral::POST_MODE_UPDATE, R::LoadDist::DIST_UNPACK_B16>(xr, x, 64);
    R::Cast<int32_t, half, kFloor>(ir, xr, all32);
    R::StoreAlign(y1, ir, all32);
    R::LoadAlign(fr, f);
    R::Cast<int16_t, float, kRoundSat>(sr, fr, all32);
    R::StoreAlign<int16_t, R::StoreDist::DIST_PACK_B32>(y2, sr, all32);
    R::Cast<int16_t, float, kRoundWrap>(sr, fr, all32);
    R::StoreAlign<int16_t, R::PostLiteral::POST_MODE_UPDATE, R::StoreDist::DIST_PACK_B32>(y3, sr, 64, all32);
    uint32_t count = 40;
    R::MaskReg tail = R::UpdateMask<float>(count);
    R::Cast<int32_t, float, kRint>(ir, fr, tail);
    R::StoreAlign(y4, ir, all32);
    R::Cast<half, float, kHalfOdd>(hr, fr, all32);
    R::MaskReg all16 = R::CreateMask<half>();
    R::StoreAlign(y5, hr, all16);
}
extern "C" __global__ __aicore__ void rcast(GM_ADDR xg, GM_ADDR fg, GM_ADDR y1g, GM_ADDR y2g, GM_ADDR y3g,
                                            GM_ADDR y4g, GM_ADDR y5g) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * 7);
    AscendC::LocalTensor<uint8_t> t = buf.Get<uint8_t>();
    AscendC::GlobalTensor<half> x; x.SetGlobalBuffer((__gm__ half*)xg, 64);
    AscendC::GlobalTensor<float> f; f.SetGlobalBuffer((__gm__ float*)fg, 64);
    AscendC::GlobalTensor<int32_t> y1; y1.SetGlobalBuffer((__gm__ int32_t*)y1g, 64);
    AscendC::GlobalTensor<int16_t> y2; y2.SetGlobalBuffer((__gm__ int16_t*)y2g, 64);
    AscendC::GlobalTensor<int16_t> y3; y3.SetGlobalBuffer((__gm__ int16_t*)y3g, 64);
    AscendC::GlobalTensor<int32_t> y4; y4.SetGlobalBuffer((__gm__ int32_t*)y4g, 64);
    AscendC::GlobalTensor<half> y5; y5.SetGlobalBuffer((__gm__ half*)y5g, 128);
    AscendC::DataCopy(t.ReinterpretCast<half>(), x, 64);
    AscendC::DataCopy(t[256].ReinterpretCast<float>(), f, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    __ubuf__ uint8_t* b = reinterpret_cast<__ubuf__ uint8_t*>(t.GetPhyAddr());
    asc_vf_call<Body>((__ubuf__ half*)b, (__ubuf__ float*)(b + 256), (__ubuf__ int32_t*)(b + 512),
                      (__ubuf__ int16_t*)(b + 768), (__ubuf__ int16_t*)(b + 1024), (__ubuf__ int32_t*)(b + 1280),
                      (__ubuf__ half*)(b + 1536));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(y1, t[512].ReinterpretCast<int32_t>(), 64);
    AscendC::DataCopy(y2, t[768].ReinterpretCast<int16_t>(), 64);
    AscendC::DataCopy(y3, t[1024].ReinterpretCast<int16_t>(), 64);
    AscendC::DataCopy(y4, t[1280].ReinterpretCast<int32_t>(), 64);
    AscendC::DataCopy(y5, t[1536].ReinterpretCast<half>(), 128);
}
"""

SPEC = """
kernel: rcast
source: kernel.cpp
block_dim: 1
soc: Ascend950
inputs:
  - {name: x, shape: [64], dtype: float16, init: {uniform: [-300, 300]}}
  - {name: f, shape: [64], dtype: float32, init: {uniform: [-70000, 70000]}}
outputs:
  - {name: y1, shape: [64], dtype: int32}
  - {name: y2, shape: [64], dtype: int16}
  - {name: y3, shape: [64], dtype: int16}
  - {name: y4, shape: [64], dtype: int32}
  - {name: y5, shape: [128], dtype: float16}
reference: |
  y1 = np.floor(x.astype(np.float64)).astype(np.int32)
  r = np.where(f >= 0, np.floor(f.astype(np.float64) + 0.5), np.ceil(f.astype(np.float64) - 0.5))
  y2 = np.clip(r, -32768, 32767).astype(np.int16)
  y3 = r.astype(np.int64).astype(np.int16)
  y4 = np.where(np.arange(64) < 40, np.clip(np.rint(f.astype(np.float64)), -2**31, 2**31 - 1), 0).astype(np.int32)
  y5 = np.zeros(128, np.float16)
  y5[1::2] = f.astype(np.float16)
tolerance: {rtol: 0, atol: 0}
"""


def _run(tmp_path: Path) -> RunResult:
    (tmp_path / "kernel.cpp").write_text(textwrap.dedent(KERNEL), encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent(SPEC), encoding="utf-8")
    return EmulatorToolchain().run(load_spec(tmp_path / "spec.yaml"), RunOptions(timeout=180))


def test_reg_cast_layouts_rounding_and_saturation_match_numpy(tmp_path: Path) -> None:
    r = _run(tmp_path)
    assert r.correct, [f"{d.category}: {d.message}" for d in r.diagnostics]
    assert not [d for d in r.diagnostics if d.severity == "error"]


def test_public_reg_cast_sample_passes_its_own_verification() -> None:
    from ascendc_lsp.toolchain.program.run import ProgramOptions, run_program

    root = tree_or_skip("cannmirror+asc-devkit")
    r = run_program(
        root / "examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/cast", ProgramOptions(timeout=600)
    )
    assert r.correct, [d.message for d in r.diagnostics]
