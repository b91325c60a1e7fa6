"""MaskReg <-> UB (Reg数据搬入/MaskReg搬入（LoadAlign）.md, Reg数据搬出/MaskReg搬出（StoreAlign）.md, DIST_NORM): 32 bytes,
bit b of the mask for VL byte b; a loaded mask selects the lanes of a Duplicate, a stored one reads back as loaded,
a b16 ALL mask stores bit 2i per element, and the PostUpdate form advances by bytes; MaskGenWithRegTensor
broadcasts a 16-byte (b16) / 8-byte (b32) block of a register to the mask. Compiles with g++: slow."""

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
__simd_vf__ inline void Body(__ubuf__ uint8_t* m, __ubuf__ uint8_t* r, __ubuf__ uint8_t* mo, __ubuf__ uint16_t* w,
                            __ubuf__ uint8_t* mg) {
    AscendC::Reg::RegTensor<uint8_t> reg;
    AscendC::Reg::MaskReg mask;
    AscendC::Reg::LoadAlign(mask, m);
    AscendC::Reg::Duplicate<uint8_t>(reg, (uint8_t)2, mask);
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<uint8_t>();
    AscendC::Reg::StoreAlign(r, reg, all);
    AscendC::Reg::StoreAlign<uint8_t, AscendC::Reg::PostLiteral::POST_MODE_UPDATE>(mo, mask, 32);
    AscendC::Reg::MaskReg h = AscendC::Reg::CreateMask<half>();
    AscendC::Reg::StoreAlign(mo, h);
    AscendC::Reg::RegTensor<uint16_t> rw;
    AscendC::Reg::LoadAlign(rw, w);
    AscendC::Reg::MaskGenWithRegTensor<uint16_t, 3>(mask, rw);
    AscendC::Reg::StoreAlign(mg, mask);
    AscendC::Reg::RegTensor<uint32_t> rd;
    AscendC::Reg::LoadAlign(rd, (__ubuf__ uint32_t*)w);
    AscendC::Reg::MaskGenWithRegTensor<uint32_t, 30>(mask, rd);
    AscendC::Reg::StoreAlign(mg + 32, mask);
}
extern "C" __global__ __aicore__ void mio(GM_ADDR mg, GM_ADDR wg, GM_ADDR rg, GM_ADDR mog, GM_ADDR gg) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32 + 256 + 64 + 256 + 64);
    AscendC::LocalTensor<uint8_t> t = buf.Get<uint8_t>();
    AscendC::GlobalTensor<uint8_t> m, r, mo;
    m.SetGlobalBuffer((__gm__ uint8_t*)mg, 32);
    r.SetGlobalBuffer((__gm__ uint8_t*)rg, 256);
    mo.SetGlobalBuffer((__gm__ uint8_t*)mog, 64);
    AscendC::GlobalTensor<uint8_t> wG, gG;
    wG.SetGlobalBuffer((__gm__ uint8_t*)wg, 256);
    gG.SetGlobalBuffer((__gm__ uint8_t*)gg, 64);
    AscendC::DataCopy(t, m, 32);
    AscendC::DataCopy(t[352], wG, 256);
    AscendC::PipeBarrier<PIPE_ALL>();
    __ubuf__ uint8_t* b = reinterpret_cast<__ubuf__ uint8_t*>(t.GetPhyAddr());
    asc_vf_call<Body>(b, b + 32, b + 288, (__ubuf__ uint16_t*)(b + 352), b + 608);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(r, t[32], 256);
    AscendC::DataCopy(mo, t[288], 64);
    AscendC::DataCopy(gG, t[608], 64);
}
"""

SPEC = """
kernel: mio
source: kernel.cpp
block_dim: 1
soc: Ascend950
inputs:
  - {name: m, shape: [32], dtype: uint8, init: {randint: [0, 256]}}
  - {name: w, shape: [256], dtype: uint8, init: {randint: [0, 256]}}
outputs:
  - {name: r, shape: [256], dtype: uint8}
  - {name: mo, shape: [64], dtype: uint8}
  - {name: mg, shape: [64], dtype: uint8}
reference: |
  bits = np.unpackbits(m, bitorder="little").astype(bool)
  r = np.where(bits, 2, 0).astype(np.uint8)
  mo = np.concatenate([m, np.full(32, 0x55, np.uint8)])
  def gen(block, rep):  # each bit of the block broadcast to rep mask bits
      return np.packbits(np.repeat(np.unpackbits(block, bitorder="little"), rep), bitorder="little")
  mg = np.concatenate([gen(w[48:64], 2), gen(w[240:248], 4)])
tolerance: {rtol: 0, atol: 0}
"""


def _run(tmp_path: Path) -> RunResult:
    (tmp_path / "kernel.cpp").write_text(textwrap.dedent(KERNEL), encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent(SPEC), encoding="utf-8")
    return EmulatorToolchain().run(load_spec(tmp_path / "spec.yaml"), RunOptions(timeout=120))


def test_mask_load_store_round_trip(tmp_path: Path) -> None:
    r = _run(tmp_path)
    assert r.correct, [f"{d.category}: {d.message}" for d in r.diagnostics]
    assert not [d for d in r.diagnostics if d.severity == "error"]


@pytest.mark.parametrize(("pair", "ok"), [("VEC_STORE, M::VEC_LOAD", True), ("SCALAR_LOAD, M::VEC_LOAD", False)])
def test_local_mem_bar_takes_the_documented_pairs(tmp_path: Path, pair: str, ok: bool) -> None:
    """LocalMemBar.md 表3 lists the src/dst pairs: a listed pair compiles, another is refused at compile time."""
    import subprocess

    from tests.test_emulator_headers import INCLUDE

    src = tmp_path / "b.cpp"
    src.write_text('#include "kernel_operator.h"\nusing M = AscendC::Reg::MemType;\n'
                   f"int main() {{ AscendC::Reg::LocalMemBar<M::{pair}>(); }}\n")
    res = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", f"-I{INCLUDE}", str(src)], capture_output=True,
                         text=True)
    assert (res.returncode == 0) == ok, res.stderr[-2000:]
    if not ok:
        assert "not one LocalMemBar.md" in res.stderr
