"""LoadData (LoadData_2D.md) with a GM source: 512-byte fractals straight from GM into L0A / L0B on PIPE_MTE2
(startIndex, srcStride between fractal starts, dstGap), then Mmad and Fixpipe, against NumPy; Ascend 950 (L1
sources only) reports the form; a fractal walk past the GM buffer is a gm-bounds error. Compiles with g++: slow."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from ascendc_lsp.toolchain.base import RunOptions, RunResult
from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain
from ascendc_lsp.toolchain.spec import load_spec

pytestmark = pytest.mark.slow

# A is given in GM as its L0A (ZZ) fractals, [M/16, K/16, 16, 16]; B as its L0B (ZN) fractals [K/16, N/16, n, k]
# with a junk fractal after each real one (srcStride 2). A loads one 16-row band per call, into bands with a
# one-fractal gap that Mmad does not see: the band start moves by K/16 + 1 fractals (dstGap 0, then the next call).
KERNEL = r"""
#include "kernel_operator.h"
constexpr uint32_t M = 32, N = 32, K = 48, KB = K / 16, NB = N / 16;
extern "C" __global__ __aicore__ void mm_gm(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<half> aGm, bGm;
    AscendC::GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half*)a, M * K);
    bGm.SetGlobalBuffer((__gm__ half*)b, 2 * K * N);
    cGm.SetGlobalBuffer((__gm__ float*)c, M * N);
    AscendC::TBuf<AscendC::TPosition::A2> a2b;
    AscendC::TBuf<AscendC::TPosition::B2> b2b;
    AscendC::TBuf<AscendC::TPosition::CO1> c1b;
    pipe.InitBuffer(a2b, M * K * sizeof(half));
    pipe.InitBuffer(b2b, K * N * sizeof(half));
    pipe.InitBuffer(c1b, M * N * sizeof(float));
    AscendC::LocalTensor<half> a2 = a2b.Get<half>(), b2 = b2b.Get<half>();
    AscendC::LocalTensor<float> c1 = c1b.Get<float>();
    AscendC::LoadData2DParams p;
    p.repeatTimes = KB;
    p.srcStride = 1;
    for (uint32_t i = 0; i < M / 16; i++) {
        p.startIndex = i * KB;
        AscendC::LoadData(a2[i * 16 * K], aGm, p);
    }
    AscendC::LoadData2DParams q;
    q.startIndex = 0;
    q.repeatTimes = KB * NB;
    q.srcStride = 2;
    AscendC::LoadData(b2, bGm[GM_SHIFT], q);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_M>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_M>(EVENT_ID0);
    AscendC::MmadParams mp;
    mp.m = M; mp.n = N; mp.k = K;
    AscendC::Mmad(c1, a2, b2, mp);
    AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::FixpipeParamsV220 fp;
    fp.nSize = N; fp.mSize = M; fp.srcStride = M; fp.dstStride = N;
    AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(cGm, c1, fp);
}
"""

SPEC = """
kernel: mm_gm
source: kernel.cpp
block_dim: 1
inputs:
  - {{name: a, shape: [2, 3, 16, 16], dtype: float16, init: {{randint: [-4, 4]}}}}
  - {{name: b, shape: [12, 16, 16], dtype: float16, init: {{randint: [-4, 4]}}}}
outputs:
  - {{name: c, shape: [32, 32], dtype: float32}}
defines: {{GM_SHIFT: {shift}}}
reference: |
  A = a.astype(np.float32).transpose(0, 2, 1, 3).reshape(32, 48)
  fb = b[0::2].astype(np.float32).reshape(3, 2, 16, 16)  # [kb, nb, n, k]
  B = fb.transpose(0, 3, 1, 2).reshape(48, 32)
  c = A @ B
tolerance: {{rtol: 0, atol: 0}}
"""


def _run(tmp_path: Path, shift: int = 0, soc: str | None = None) -> RunResult:
    (tmp_path / "kernel.cpp").write_text(textwrap.dedent(KERNEL), encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent(SPEC.format(shift=shift)), encoding="utf-8")
    return EmulatorToolchain().run(load_spec(tmp_path / "spec.yaml"), RunOptions(timeout=120, soc=soc))


def _errors(r: RunResult) -> list[str]:
    return [f"{d.category}: {d.message}" for d in r.diagnostics if d.severity == "error"]


def test_loaddata_from_gm_feeds_mmad_exactly(tmp_path: Path) -> None:
    r = _run(tmp_path)
    assert r.correct, _errors(r)


def test_loaddata_from_gm_past_the_buffer_is_reported(tmp_path: Path) -> None:
    r = _run(tmp_path, shift=512)  # the B walk starts 1 KB late: its last fractals lie past b (and its padding)
    assert not r.correct
    assert any("LoadData" in e and "gm" in e.split(":")[0] for e in _errors(r)), _errors(r)


def test_loaddata_from_gm_is_not_an_ascend950_form(tmp_path: Path) -> None:
    r = _run(tmp_path, soc="Ascend950")
    assert any("LoadData from GM is not available" in e for e in _errors(r)), _errors(r)


# Fill (Fill.md) on L0A: 512-byte blocks. All four fractals of a 32 x 32 half A to 0, then fractals 0 and 2 (one
# block per repeat, a one-block gap) to 1: in ZZ order those are (m-block 0, k-block 0) and (1, 0), so A is 1 in
# columns 0..15; times the identity (loaded from GM), C = A.
FILL_KERNEL = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void fill_l0(GM_ADDR e, GM_ADDR c) {
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<half> eGm;
    AscendC::GlobalTensor<float> cGm;
    eGm.SetGlobalBuffer((__gm__ half*)e, 32 * 32);
    cGm.SetGlobalBuffer((__gm__ float*)c, 32 * 32);
    AscendC::TBuf<AscendC::TPosition::A2> a2b;
    AscendC::TBuf<AscendC::TPosition::B2> b2b;
    AscendC::TBuf<AscendC::TPosition::CO1> c1b;
    pipe.InitBuffer(a2b, 32 * 32 * 2);
    pipe.InitBuffer(b2b, 32 * 32 * 2);
    pipe.InitBuffer(c1b, 32 * 32 * 4);
    AscendC::LocalTensor<half> a2 = a2b.Get<half>(), b2 = b2b.Get<half>();
    AscendC::LocalTensor<float> c1 = c1b.Get<float>();
    AscendC::Fill(a2, AscendC::InitConstValueParams<half>(1, 4, 0, (half)0));
    AscendC::PipeBarrier<PIPE_MTE2>();  // two writes of one pipe to the same bytes are not ordered by themselves
    AscendC::Fill(a2, AscendC::InitConstValueParams<half>(2, 1, 1, (half)1));
    AscendC::LoadData2DParams q;
    q.repeatTimes = 4;
    q.srcStride = 1;
    AscendC::LoadData(b2, eGm, q);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_M>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_M>(EVENT_ID0);
    AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{32, 32, 32, 0, false, true});
    AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::FixpipeParamsV220 fp;
    fp.nSize = 32; fp.mSize = 32; fp.srcStride = 32; fp.dstStride = 32;
    AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(cGm, c1, fp);
}
"""

FILL_SPEC = """
kernel: fill_l0
source: kernel.cpp
block_dim: 1
inputs:
  - {name: e, shape: [4, 16, 16], dtype: float16, init: {values: IDENTITY}}
outputs:
  - {name: c, shape: [32, 32], dtype: float32}
reference: |
  c = np.zeros((32, 32), np.float32)
  c[:, :16] = 1
tolerance: {rtol: 0, atol: 0}
"""


def test_fill_l0a_counts_512_byte_blocks(tmp_path: Path) -> None:
    ident = [1 if f in (0, 3) and i // 16 == i % 16 else 0 for f in range(4) for i in range(256)]
    (tmp_path / "kernel.cpp").write_text(textwrap.dedent(FILL_KERNEL), encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent(FILL_SPEC).replace("IDENTITY", str(ident)), encoding="utf-8")
    r = EmulatorToolchain().run(load_spec(tmp_path / "spec.yaml"), RunOptions(timeout=120))
    assert r.correct, _errors(r)
