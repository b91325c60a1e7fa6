"""The register-level vector API (AscendC::Reg, Reg矢量计算 docs) on the emulator against NumPy: UpdateMask over a
tail that is not a multiple of VL, ZEROING and MERGING destinations, CreateMask patterns, masked StoreAlign,
binary / scalar / unary ops, Duplicate and Arange, the PostUpdate load / store forms. Compiles with g++: slow."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from ascendc_lsp.toolchain.base import RunOptions, RunResult
from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain
from ascendc_lsp.toolchain.spec import load_spec

pytestmark = pytest.mark.slow

# N = 200 floats (VL holds 64): 4 iterations, the last with 8 lanes.
#   y = max(exp(x) * 2, x + z) / (z + 3)           (UpdateMask tail; StoreAlign writes the 200 only)
#   m[i] = -1 where i % 3 == 0 (MaskPattern::M3) else z[i] (MERGING Duplicate into z), first 64 lanes
#   h[i] = ZEROING Adds(x, 1) under MaskPattern::H over 64 lanes: x + 1 in the low 32, 0 in the high 32
#   a[i] = Arange(10) + Abs(-x)
KERNEL = r"""
#include "kernel_operator.h"
constexpr uint32_t N = 200, L = 64;
__simd_vf__ inline void Body(__ubuf__ float* x, __ubuf__ float* z, __ubuf__ float* y, __ubuf__ float* m,
                            __ubuf__ float* h, __ubuf__ float* a, uint32_t count) {
    AscendC::Reg::RegTensor<float> rx, rz, t0, t1;
    AscendC::Reg::MaskReg mask;
    for (uint32_t i = 0; i < (N + L - 1) / L; i++) {
        mask = AscendC::Reg::UpdateMask<float>(count);
        AscendC::Reg::LoadAlign<float, AscendC::Reg::PostLiteral::POST_MODE_UPDATE>(rx, x, (int32_t)L);
        AscendC::Reg::LoadAlign(rz, z + i * L);
        AscendC::Reg::Exp(t0, rx, mask);
        AscendC::Reg::Muls(t0, t0, 2.0f, mask);
        AscendC::Reg::Add(t1, rx, rz, mask);
        AscendC::Reg::Max(t0, t0, t1, mask);
        AscendC::Reg::Adds(t1, rz, 3.0f, mask);
        AscendC::Reg::Div(t0, t0, t1, mask);
        AscendC::Reg::StoreAlign<float, AscendC::Reg::PostLiteral::POST_MODE_UPDATE>(y, t0, (int32_t)L, mask);
    }
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::MaskReg m3 = AscendC::Reg::CreateMask<float, AscendC::Reg::MaskPattern::M3>();
    AscendC::Reg::MaskReg half = AscendC::Reg::CreateMask<float, AscendC::Reg::MaskPattern::H>();
    AscendC::Reg::LoadAlign(rz, z);
    AscendC::Reg::Duplicate<float, AscendC::Reg::MaskMergeMode::MERGING>(rz, -1.0f, m3);
    AscendC::Reg::StoreAlign(m, rz, all);
    AscendC::Reg::LoadAlign(rx, x - 4 * L);  // x moved on by the PostUpdate loads
    AscendC::Reg::Adds(t0, rx, 1.0f, half);
    AscendC::Reg::StoreAlign(h, t0, all);
    AscendC::Reg::Arange(t1, 10.0f);
    AscendC::Reg::Neg(t0, rx, all);
    AscendC::Reg::Abs(t0, t0, all);
    AscendC::Reg::Add(t1, t1, t0, all);
    AscendC::Reg::StoreAlign(a, t1, all);
}
extern "C" __global__ __aicore__ void regk(GM_ADDR xg, GM_ADDR zg, GM_ADDR yg, GM_ADDR mg, GM_ADDR hg, GM_ADDR ag) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 6 * 256 * sizeof(float));
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::GlobalTensor<float> x, z, y, m, h, a;
    x.SetGlobalBuffer((__gm__ float*)xg, N);
    z.SetGlobalBuffer((__gm__ float*)zg, N);
    y.SetGlobalBuffer((__gm__ float*)yg, N);
    m.SetGlobalBuffer((__gm__ float*)mg, L);
    h.SetGlobalBuffer((__gm__ float*)hg, L);
    a.SetGlobalBuffer((__gm__ float*)ag, L);
    AscendC::DataCopy(t, x, N);
    AscendC::DataCopy(t[256], z, N);
    AscendC::PipeBarrier<PIPE_ALL>();
    __ubuf__ float* base = reinterpret_cast<__ubuf__ float*>(t.GetPhyAddr());
    asc_vf_call<Body>(base, base + 256, base + 512, base + 768, base + 1024, base + 1280, N);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(y, t[512], N);
    AscendC::DataCopy(m, t[768], L);
    AscendC::DataCopy(h, t[1024], L);
    AscendC::DataCopy(a, t[1280], L);
}
"""

SPEC = """
kernel: regk
source: kernel.cpp
block_dim: 1
inputs:
  - {name: x, shape: [200], dtype: float32, init: {uniform: [-2, 2]}}
  - {name: z, shape: [200], dtype: float32, init: {uniform: [0, 4]}}
outputs:
  - {name: y, shape: [200], dtype: float32}
  - {name: m, shape: [64], dtype: float32}
  - {name: hv, shape: [64], dtype: float32}
  - {name: av, shape: [64], dtype: float32}
reference: |
  y = (np.maximum(np.exp(x) * np.float32(2), x + z) / (z + np.float32(3))).astype(np.float32)
  m = z[:64].copy()
  m[::3] = -1
  hv = np.zeros(64, np.float32)
  hv[:32] = x[:32] + 1
  av = (np.arange(64, dtype=np.float32) + 10 + np.abs(x[:64])).astype(np.float32)
tolerance: {rtol: 1.0e-6, atol: 1.0e-6}
"""


def _run(tmp_path: Path, kernel: str, spec: str) -> RunResult:
    (tmp_path / "kernel.cpp").write_text(textwrap.dedent(kernel), encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent(spec), encoding="utf-8")
    return EmulatorToolchain().run(load_spec(tmp_path / "spec.yaml"), RunOptions(timeout=120))


def test_reg_api_masks_tails_and_ops(tmp_path: Path) -> None:
    r = _run(tmp_path, KERNEL, SPEC)
    assert r.correct, [f"{d.category}: {d.message}" for d in r.diagnostics]
    assert not [d for d in r.diagnostics if d.severity == "error"]

