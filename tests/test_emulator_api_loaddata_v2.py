"""LoadData with LoadData2DParamsV2 (LoadData_2D_V2.md, Ascend 950: an [M, K] window of 512-byte fractals from
L1 to L0A / L0B): mStartPosition / kStartPosition, srcStride between K-direction fractals, dstStride, and the
per-fractal transposition of 16-bit types, against NumPy; read back through Mmad with an identity B."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from ascendc_lsp.toolchain.base import RunOptions, RunResult
from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain
from ascendc_lsp.toolchain.spec import load_spec

pytestmark = pytest.mark.slow

# x: an [48, 64] half matrix in L1 as NZ fractals (fractal (mb, kb) at kb * 3 + mb); e: identity [32, 32] as
# L0B fractals. c = rows 16..47, columns 16..47 of x; t: band 0 of x, columns 0..31, each fractal transposed.
KERNEL = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void ld_v2(GM_ADDR x, GM_ADDR e, GM_ADDR c, GM_ADDR t) {
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<half> xGm, eGm;
    AscendC::GlobalTensor<float> cGm, tGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, 48 * 64);
    eGm.SetGlobalBuffer((__gm__ half*)e, 32 * 32);
    cGm.SetGlobalBuffer((__gm__ float*)c, 32 * 32);
    tGm.SetGlobalBuffer((__gm__ float*)t, 16 * 32);
    AscendC::TBuf<AscendC::TPosition::A1> a1b;
    AscendC::TBuf<AscendC::TPosition::B1> b1b;
    AscendC::TBuf<AscendC::TPosition::A2> a2b;
    AscendC::TBuf<AscendC::TPosition::B2> b2b;
    AscendC::TBuf<AscendC::TPosition::CO1> c1b;
    pipe.InitBuffer(a1b, 48 * 64 * 2);
    pipe.InitBuffer(b1b, 32 * 32 * 2);
    pipe.InitBuffer(a2b, 2 * 32 * 32 * 2);
    pipe.InitBuffer(b2b, 32 * 32 * 2);
    pipe.InitBuffer(c1b, 2 * 32 * 32 * 4);
    AscendC::LocalTensor<half> a1 = a1b.Get<half>(), b1 = b1b.Get<half>(), a2 = a2b.Get<half>(), b2 = b2b.Get<half>();
    AscendC::LocalTensor<float> c1 = c1b.Get<float>();
    AscendC::DataCopy(a1, xGm, 48 * 64);
    AscendC::DataCopy(b1, eGm, 32 * 32);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    // two 16-row bands (m blocks 1 and 2), k blocks 1..2 each: one ZZ band of 2 fractals per call
    for (uint32_t band = 0; band < 2; band++)
        AscendC::LoadData(a2[band * 16 * 32], a1, AscendC::LoadData2DParamsV2{1 + band, 1, 1, 2, 3, 1, false, 0});
    AscendC::LoadData2DParamsV2 ident;
    ident.mStep = 4;
    ident.kStep = 1;
    ident.srcStride = 4;
    ident.dstStride = 4;
    AscendC::LoadData(b2, b1, ident);
    // band 0, k blocks 0..1, transposed: fractal m * dstStride + k = k
    AscendC::LoadData2DParamsV2 tr{0, 0, 1, 2, 3, 7, true, 0};
    AscendC::LoadData(a2[32 * 32], a1, tr);
    AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{32, 32, 32, 0, false, true});
    AscendC::Mmad(c1[32 * 32], a2[32 * 32], b2, AscendC::MmadParams{16, 32, 32, 0, false, true});
    AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::FixpipeParamsV220 fp;
    fp.nSize = 32; fp.mSize = 32; fp.srcStride = 32; fp.dstStride = 32;
    AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(cGm, c1, fp);
    fp.mSize = 16; fp.srcStride = 16;
    AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(tGm, c1[32 * 32], fp);
}
"""

SPEC = """
kernel: ld_v2
source: kernel.cpp
block_dim: 1
soc: Ascend950
inputs:
  - {name: x, shape: [4, 3, 16, 16], dtype: float16, init: {randint: [-8, 8]}}
  - {name: e, shape: [4, 16, 16], dtype: float16, init: {values: IDENTITY}}
outputs:
  - {name: c, shape: [32, 32], dtype: float32}
  - {name: t, shape: [16, 32], dtype: float32}
reference: |
  X = x.astype(np.float32).transpose(1, 2, 0, 3).reshape(48, 64)  # NZ fractal (kb, mb) -> rows mb, cols kb
  c = X[16:48, 16:48]
  t = np.concatenate([x[0, 0].T, x[1, 0].T], axis=1).astype(np.float32)
tolerance: {rtol: 0, atol: 0}
"""


def _run(tmp_path: Path) -> RunResult:
    (tmp_path / "kernel.cpp").write_text(textwrap.dedent(KERNEL), encoding="utf-8")
    # L0B (ZN) fractals of the 32 x 32 identity: the diagonal fractals (0, 0) and (1, 1) are 16 x 16 identities
    ident = [1 if f in (0, 3) and i // 16 == i % 16 else 0 for f in range(4) for i in range(256)]
    spec = textwrap.dedent(SPEC).replace("IDENTITY", str(ident))
    (tmp_path / "spec.yaml").write_text(spec, encoding="utf-8")
    return EmulatorToolchain().run(load_spec(tmp_path / "spec.yaml"), RunOptions(timeout=120))


def test_loaddata_v2_window_and_transpose(tmp_path: Path) -> None:
    r = _run(tmp_path)
    assert r.correct, [f"{d.category}: {d.message}" for d in r.diagnostics if d.severity == "error"]


def test_fixpipe_arch3510_dual_dst_field_has_both_spellings(tmp_path: Path) -> None:
    """The Fixpipe pages write dualDstCtrl, the devkit's examples dualDstCtl: both name one field."""
    import subprocess

    from tests.test_emulator_headers import INCLUDE

    src = tmp_path / "f.cpp"
    src.write_text('#include "kernel_operator.h"\nint main() {\n'
                   "  AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR> p, q{};\n"
                   "  p.dualDstCtl = 2;\n  return p.dualDstCtrl == 2 && q.dualDstCtrl == 0 ? 0 : 1;\n}\n")
    res = subprocess.run(["g++", "-std=c++17", "-w", f"-I{INCLUDE}", str(src), "-o", str(tmp_path / "f")],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-2000:]
    assert subprocess.run([str(tmp_path / "f")]).returncode == 0
