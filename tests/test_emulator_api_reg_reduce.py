"""Reg::Reduce (Reg矢量计算/归约计算/Reduce.md) against NumPy: SUM by the documented binary tree (pairwise adds over
the whole register, unselected lanes as 0, each add rounded to the element type: float and half), MAX with the
first maximum's index in lane 1 under a tail mask, MIN over int32 with ties (the first index), other lanes zero; Reg::Gather with indices past the register (taken modulo its lanes);
PairReduceElem of half under a tail mask (the high half zero).
Compiles with g++: slow."""

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
__simd_vf__ inline void Body(__ubuf__ float* xf, __ubuf__ half* xh, __ubuf__ int32_t* xi, __ubuf__ float* sf,
                            __ubuf__ float* mf, __ubuf__ half* sh, __ubuf__ int32_t* mi, __ubuf__ uint32_t* ix,
                            __ubuf__ float* gf, __ubuf__ half* ph) {
    AscendC::Reg::RegTensor<float> rf, of;
    AscendC::Reg::RegTensor<half> rh, oh;
    AscendC::Reg::RegTensor<int32_t> ri, oi;
    AscendC::Reg::MaskReg allf = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::MaskReg allh = AscendC::Reg::CreateMask<half>();
    uint32_t n50 = 50, n40 = 40;
    AscendC::Reg::MaskReg m50 = AscendC::Reg::UpdateMask<float>(n50);
    AscendC::Reg::MaskReg m40 = AscendC::Reg::UpdateMask<float>(n40);
    AscendC::Reg::LoadAlign(rf, xf);
    AscendC::Reg::Reduce<AscendC::Reg::ReduceType::SUM>(of, rf, m50);
    AscendC::Reg::StoreAlign(sf, of, allf);
    AscendC::Reg::Reduce<AscendC::Reg::ReduceType::MAX>(of, rf, m40);
    AscendC::Reg::StoreAlign(mf, of, allf);
    AscendC::Reg::LoadAlign(rh, xh);
    AscendC::Reg::Reduce(oh, rh, allh);
    AscendC::Reg::StoreAlign(sh, oh, allh);
    uint32_t n100 = 100;
    AscendC::Reg::MaskReg m100 = AscendC::Reg::UpdateMask<half>(n100);
    AscendC::Reg::PairReduceElem(oh, rh, m100);
    AscendC::Reg::StoreAlign(ph, oh, allh);
    AscendC::Reg::LoadAlign(ri, xi);
    AscendC::Reg::Reduce<AscendC::Reg::ReduceType::MIN>(oi, ri, allf);
    AscendC::Reg::StoreAlign(mi, oi, allf);
    AscendC::Reg::RegTensor<uint32_t> rx;
    AscendC::Reg::LoadAlign(rx, ix);
    AscendC::Reg::Gather<float, uint32_t>(of, rf, rx);
    AscendC::Reg::StoreAlign(gf, of, allf);
}
extern "C" __global__ __aicore__ void red(GM_ADDR xfg, GM_ADDR xhg, GM_ADDR xig, GM_ADDR ixg, GM_ADDR sfg,
                                          GM_ADDR mfg, GM_ADDR shg, GM_ADDR mig, GM_ADDR gfg, GM_ADDR phg) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 10 * 256);
    AscendC::LocalTensor<uint8_t> t = buf.Get<uint8_t>();
    AscendC::GlobalTensor<float> xf, sf, mf;
    AscendC::GlobalTensor<half> xh, sh;
    AscendC::GlobalTensor<int32_t> xi, mi;
    xf.SetGlobalBuffer((__gm__ float*)xfg, 64); xh.SetGlobalBuffer((__gm__ half*)xhg, 128);
    xi.SetGlobalBuffer((__gm__ int32_t*)xig, 64); sf.SetGlobalBuffer((__gm__ float*)sfg, 64);
    mf.SetGlobalBuffer((__gm__ float*)mfg, 64); sh.SetGlobalBuffer((__gm__ half*)shg, 128);
    mi.SetGlobalBuffer((__gm__ int32_t*)mig, 64);
    AscendC::GlobalTensor<uint32_t> ixG;
    AscendC::GlobalTensor<float> gfG;
    ixG.SetGlobalBuffer((__gm__ uint32_t*)ixg, 64); gfG.SetGlobalBuffer((__gm__ float*)gfg, 64);
    AscendC::GlobalTensor<half> phG;
    phG.SetGlobalBuffer((__gm__ half*)phg, 128);
    AscendC::DataCopy(t.ReinterpretCast<float>(), xf, 64);
    AscendC::DataCopy(t[256].ReinterpretCast<half>(), xh, 128);
    AscendC::DataCopy(t[512].ReinterpretCast<int32_t>(), xi, 64);
    AscendC::DataCopy(t[1792].ReinterpretCast<uint32_t>(), ixG, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    __ubuf__ uint8_t* b = reinterpret_cast<__ubuf__ uint8_t*>(t.GetPhyAddr());
    asc_vf_call<Body>((__ubuf__ float*)b, (__ubuf__ half*)(b + 256), (__ubuf__ int32_t*)(b + 512),
                      (__ubuf__ float*)(b + 768), (__ubuf__ float*)(b + 1024), (__ubuf__ half*)(b + 1280),
                      (__ubuf__ int32_t*)(b + 1536), (__ubuf__ uint32_t*)(b + 1792), (__ubuf__ float*)(b + 2048),
                      (__ubuf__ half*)(b + 2304));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(sf, t[768].ReinterpretCast<float>(), 64);
    AscendC::DataCopy(mf, t[1024].ReinterpretCast<float>(), 64);
    AscendC::DataCopy(sh, t[1280].ReinterpretCast<half>(), 128);
    AscendC::DataCopy(mi, t[1536].ReinterpretCast<int32_t>(), 64);
    AscendC::DataCopy(gfG, t[2048].ReinterpretCast<float>(), 64);
    AscendC::DataCopy(phG, t[2304].ReinterpretCast<half>(), 128);
}
"""

SPEC = """
kernel: red
source: kernel.cpp
block_dim: 1
soc: Ascend950
inputs:
  - {name: xf, shape: [64], dtype: float32, init: {uniform: [-100, 100]}}
  - {name: xh, shape: [128], dtype: float16, init: {uniform: [-4, 4]}}
  - {name: xi, shape: [64], dtype: int32, init: {randint: [-3, 3]}}
  - {name: ix, shape: [64], dtype: uint32, init: {randint: [0, 200]}}
outputs:
  - {name: sf, shape: [64], dtype: float32}
  - {name: mf, shape: [64], dtype: float32}
  - {name: sh, shape: [128], dtype: float16}
  - {name: mi, shape: [64], dtype: int32}
  - {name: gf, shape: [64], dtype: float32}
  - {name: ph, shape: [128], dtype: float16}
reference: |
  def tree(v):
      while len(v) > 1:
          v = (v[0::2] + v[1::2]).astype(v.dtype)
      return v[0]
  sf = np.zeros(64, np.float32)
  sf[0] = tree(np.where(np.arange(64) < 50, xf, np.float32(0)).astype(np.float32))
  mf = np.zeros(64, np.float32)
  mf[0] = xf[:40].max()
  mf[1:2] = np.array([np.argmax(xf[:40])], np.uint32).view(np.float32)
  sh = np.zeros(128, np.float16)
  sh[0] = tree(xh.copy())
  mi = np.zeros(64, np.int32)
  mi[0] = xi.min()
  mi[1] = np.argmin(xi)
  gf = xf[ix % 64]
  sel = np.where(np.arange(128) < 100, xh, np.float16(0)).astype(np.float32)
  ph = np.zeros(128, np.float16)
  ph[:64] = (sel[0::2] + sel[1::2]).astype(np.float16)
tolerance: {rtol: 0, atol: 0}
"""


def _run(tmp_path: Path) -> RunResult:
    (tmp_path / "kernel.cpp").write_text(textwrap.dedent(KERNEL), encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent(SPEC), encoding="utf-8")
    return EmulatorToolchain().run(load_spec(tmp_path / "spec.yaml"), RunOptions(timeout=120))


def test_reg_reduce_and_gather(tmp_path: Path) -> None:
    r = _run(tmp_path)
    assert r.correct, [f"{d.category}: {d.message}" for d in r.diagnostics]
    assert not [d for d in r.diagnostics if d.severity == "error"]
