"""LoadData v2 (卷积数据搬运, im2col from an NC1HWC0 feature map in L1 to L0A / L0B) and its special registers
(SetFmatrix, SetLoadDataPaddingValue), run through the emulator backend against NumPy: a padded, strided, dilated
convolution, a matmul whose A is loaded transposed and whose B is loaded to L0B, the v2 Pro form, and the forms that
are reported instead of guessed. Compiles with g++: slow."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from ascendc_lsp.toolchain.base import RunOptions, RunResult
from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain
from ascendc_lsp.toolchain.spec import load_spec

pytestmark = pytest.mark.slow

# Convolution: x is [C1=2, H=6, W=7, C0=16] half; 3x3 filter, pad 1 on every side with padValue 1.0, strideW 2,
# strideH 1, dilationH 2: 4 x 4 outputs (M = 16), K = 2 * 9 * 16 = 288. The weights come transposed ([N=16, K])
# so their NZ image in L1 is the ZN layout L0B wants (LoadData2D copies it). PRO selects the v2 Pro form (the
# feature map and the padding value through SetFmatrix / SetLoadDataPaddingValue).
CONV_KERNEL = r"""
#include "kernel_operator.h"
constexpr uint32_t C1 = 2, H = 6, W = 7, C0 = 16, M = 16, N = 16, K = C1 * 9 * C0;
extern "C" __global__ __aicore__ void conv(GM_ADDR x, GM_ADDR wt, GM_ADDR y) {
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<half> xGm, wGm;
    AscendC::GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, C1 * H * W * C0);
    wGm.SetGlobalBuffer((__gm__ half*)wt, N * K);
    yGm.SetGlobalBuffer((__gm__ float*)y, M * N);
    AscendC::TQue<AscendC::TPosition::A1, 1> qA1;
    AscendC::TQue<AscendC::TPosition::B1, 1> qB1;
    AscendC::TQue<AscendC::TPosition::A2, 1> qA2;
    AscendC::TQue<AscendC::TPosition::B2, 1> qB2;
    AscendC::TQue<AscendC::TPosition::CO1, 1> qC;
    pipe.InitBuffer(qA1, 1, C1 * H * W * C0 * sizeof(half));
    pipe.InitBuffer(qB1, 1, N * K * sizeof(half));
    pipe.InitBuffer(qA2, 1, M * K * sizeof(half));
    pipe.InitBuffer(qB2, 1, N * K * sizeof(half));
    pipe.InitBuffer(qC, 1, M * N * sizeof(float));
    AscendC::LocalTensor<half> a1 = qA1.AllocTensor<half>();
    AscendC::LocalTensor<half> b1 = qB1.AllocTensor<half>();
    AscendC::DataCopy(a1, xGm, C1 * H * W * C0);
    AscendC::DataCopy(b1, wGm, AscendC::Nd2NzParams(1, N, K, 0, K, N, 1, 0));
    qA1.EnQue(a1); qB1.EnQue(b1);
    a1 = qA1.DeQue<half>(); b1 = qB1.DeQue<half>();
    AscendC::LocalTensor<half> a2 = qA2.AllocTensor<half>();
    AscendC::LocalTensor<half> b2 = qB2.AllocTensor<half>();
#if PRO
    const uint8_t pads[4] = {1, 1, 1, 1};
    AscendC::SetFmatrix(H, W, pads, AscendC::FmatrixMode::FMATRIX_LEFT);
    AscendC::SetLoadDataPaddingValue(half(1.0f));
    AscendC::LoadData3DParamsV2Pro pro;
    pro.channelSize = C1 * C0;
    pro.extConfig = ((uint64_t)0 << 48) | ((uint64_t)0 << 32) | ((uint64_t)M << 16) | (uint64_t)K;
    pro.filterConfig = ((uint64_t)2 << 40) | ((uint64_t)1 << 32) | ((uint64_t)3 << 24) | ((uint64_t)3 << 16) |
                       ((uint64_t)1 << 8) | (uint64_t)2;
    AscendC::LoadData(a2, a1, pro);
#else
    AscendC::LoadData3DParamsV2<half> p;
    p.padList[0] = 1; p.padList[1] = 1; p.padList[2] = 1; p.padList[3] = 1;
    p.l1H = H; p.l1W = W; p.channelSize = C1 * C0;
    p.kExtension = K; p.mExtension = M;
    p.strideW = 2; p.strideH = 1; p.filterW = 3; p.filterH = 3;
    p.dilationFilterW = 1; p.dilationFilterH = 2;
    p.padValue = half(1.0f);
    AscendC::LoadData(a2, a1, p);
#endif
    AscendC::LoadData2DParams l2;
    l2.repeatTimes = K / C0;
    l2.srcStride = 1;
    AscendC::LoadData(b2, b1, l2);
    qA2.EnQue(a2); qB2.EnQue(b2);
    qA1.FreeTensor(a1); qB1.FreeTensor(b1);
    a2 = qA2.DeQue<half>(); b2 = qB2.DeQue<half>();
    AscendC::LocalTensor<float> c1 = qC.AllocTensor<float>();
    AscendC::MmadParams mp;
    mp.m = M; mp.n = N; mp.k = K;
    AscendC::Mmad(c1, a2, b2, mp);
    qC.EnQue(c1);
    qA2.FreeTensor(a2); qB2.FreeTensor(b2);
    c1 = qC.DeQue<float>();
    AscendC::FixpipeParamsV220 fp;
    fp.nSize = N; fp.mSize = M; fp.srcStride = M; fp.dstStride = N;
    AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(yGm, c1, fp);
    qC.FreeTensor(c1);
}
"""

CONV_SPEC = """
kernel: conv
source: kernel.cpp
block_dim: 1
defines: {{PRO: {pro}}}
inputs:
  - {{name: x, shape: [2, 6, 7, 16], dtype: float16, init: {{randint: [-3, 4]}}}}
  - {{name: wt, shape: [16, 288], dtype: float16, init: {{randint: [-2, 3]}}}}
outputs:
  - {{name: y, shape: [16, 16], dtype: float32}}
reference: |
  xp = np.pad(x.astype(np.float32), ((0, 0), (1, 1), (1, 1), (0, 0)), constant_values=1.0)
  a = np.zeros((16, 288), np.float32)
  for oh in range(4):
      for ow in range(4):
          for c1 in range(2):
              for fh in range(3):
                  for fw in range(3):
                      k = ((c1 * 3 + fh) * 3 + fw) * 16
                      a[oh * 4 + ow, k:k + 16] = xp[c1, oh + fh * 2, ow * 2 + fw, :]
  y = a @ wt.astype(np.float32).T
tolerance: {{rtol: 0, atol: 0}}
"""

# C = A @ B with A given transposed ([K, M] in GM: its NZ image is an NC1HWC0 map of W = K, channels = M, loaded
# to L0A with enTranspose) and B [K, N] (NZ image: W = K, channels = N, loaded to L0B, which transposes).
MATMUL_KERNEL = r"""
#include "kernel_operator.h"
constexpr uint32_t M = 32, N = 48, K = 64;
extern "C" __global__ __aicore__ void mm3d(GM_ADDR at, GM_ADDR b, GM_ADDR c) {
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<half> atGm, bGm;
    AscendC::GlobalTensor<float> cGm;
    atGm.SetGlobalBuffer((__gm__ half*)at, K * M);
    bGm.SetGlobalBuffer((__gm__ half*)b, K * N);
    cGm.SetGlobalBuffer((__gm__ float*)c, M * N);
    AscendC::TBuf<AscendC::TPosition::A1> tA1;
    AscendC::TBuf<AscendC::TPosition::B1> tB1;
    AscendC::TBuf<AscendC::TPosition::A2> tA2;
    AscendC::TBuf<AscendC::TPosition::B2> tB2;
    AscendC::TBuf<AscendC::TPosition::CO1> tC;
    pipe.InitBuffer(tA1, K * M * sizeof(half));
    pipe.InitBuffer(tB1, K * N * sizeof(half));
    pipe.InitBuffer(tA2, K * M * sizeof(half));
    pipe.InitBuffer(tB2, K * N * sizeof(half));
    pipe.InitBuffer(tC, M * N * sizeof(float));
    AscendC::LocalTensor<half> a1 = tA1.Get<half>(), b1 = tB1.Get<half>(), a2 = tA2.Get<half>(), b2 = tB2.Get<half>();
    AscendC::LocalTensor<float> c1 = tC.Get<float>();
    AscendC::DataCopy(a1, atGm, AscendC::Nd2NzParams(1, K, M, 0, M, K, 1, 0));
    AscendC::DataCopy(b1, bGm, AscendC::Nd2NzParams(1, K, N, 0, N, K, 1, 0));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::LoadData3DParamsV2<half> p;
    p.l1H = 1; p.l1W = K; p.channelSize = M; p.kExtension = M; p.mExtension = K; p.enTranspose = true;
    AscendC::LoadData(a2, a1, p);
    p.channelSize = N; p.kExtension = N; p.enTranspose = false;
    AscendC::LoadData(b2, b1, p);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::MmadParams mp;
    mp.m = M; mp.n = N; mp.k = K;
    AscendC::Mmad(c1, a2, b2, mp);
    AscendC::PipeBarrier<PIPE_ALL>();
#if FIX_FORM == 0
    AscendC::FixpipeParamsV220 fp;
    fp.nSize = N; fp.mSize = M; fp.srcStride = M; fp.dstStride = N;
    AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(cGm, c1, fp);
#elif FIX_FORM == 1
    AscendC::FixpipeParamsM300 fp;
    fp.nSize = N; fp.mSize = M; fp.srcStride = M; fp.dstStride = N;
    AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(cGm, c1, fp);
#elif FIX_FORM == 2
    AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR> fp;
    fp.nSize = N; fp.mSize = M; fp.srcStride = M; fp.dstStride = N;
    AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(cGm, c1, fp);
#else
    AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::NZ> fp;  // dstStride in elements: M rows of 8 floats
    fp.nSize = N; fp.mSize = M; fp.srcStride = M; fp.dstStride = M * 8;
    AscendC::Fixpipe<float, float, AscendC::CFG_NZ>(cGm, c1, fp);
#endif
}
"""

MATMUL_SPEC = """
kernel: mm3d
source: kernel.cpp
block_dim: 1
defines: {{FIX_FORM: {form}}}
inputs:
  - {{name: at, shape: [64, 32], dtype: float16, init: {{randint: [-4, 4]}}}}
  - {{name: b, shape: [64, 48], dtype: float16, init: {{randint: [-4, 4]}}}}
outputs:
  - {{name: c, shape: [32, 48], dtype: float32}}
reference: |
  c = at.astype(np.float32).T @ b.astype(np.float32)
  if {form} == 3:
      c = c.reshape(32, 6, 8).transpose(1, 0, 2).reshape(32, 48)
tolerance: {{rtol: 0, atol: 0}}
"""

# Forms the emulator reports instead of guessing: an 8-bit load to L0B, a channelSize that is not a multiple of C0
# (the small-channel layouts), repeat mode.
FAULT_KERNEL = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void load3d_fault(GM_ADDR y) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::A1> t1;
    AscendC::TBuf<AscendC::TPosition::B2> tB;
    AscendC::TBuf<AscendC::TPosition::A2> tA;
    pipe.InitBuffer(t1, 8192);
    pipe.InitBuffer(tB, 8192);
    pipe.InitBuffer(tA, 8192);
    AscendC::LoadData3DParamsV2<FAULT_T> p;
    p.l1H = 1; p.l1W = 16; p.channelSize = FAULT_C; p.kExtension = 32; p.mExtension = 16;
#if FAULT_REPEAT
    AscendC::LoadDataRepeatParam r;
    r.repeatTime = 2;
    AscendC::SetLoadDataRepeat(r);
#endif
    AscendC::LoadData(FAULT_DST.Get<FAULT_T>(), t1.Get<FAULT_T>(), p);
}
"""

FAULT_SPEC = """
kernel: load3d_fault
source: kernel.cpp
block_dim: 1
inputs: []
outputs:
  - {{name: y, shape: [16], dtype: float32, compare: false}}
defines: {{FAULT_T: {t}, FAULT_C: {c}, FAULT_DST: {dst}, FAULT_REPEAT: {rep}}}
reference: |
  y = np.zeros(16, np.float32)
"""


def _run(tmp_path: Path, kernel: str, spec: str) -> RunResult:
    (tmp_path / "kernel.cpp").write_text(textwrap.dedent(kernel), encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent(spec), encoding="utf-8")
    return EmulatorToolchain().run(load_spec(tmp_path / "spec.yaml"), RunOptions(timeout=120))


def _errors(r: RunResult) -> list[str]:
    return [f"{d.category}: {d.message}" for d in r.diagnostics if d.severity == "error"]


@pytest.mark.parametrize("pro", [0, 1])
def test_load3d_convolution_with_padding_stride_dilation(tmp_path: Path, pro: int) -> None:
    r = _run(tmp_path, CONV_KERNEL, CONV_SPEC.format(pro=pro))
    assert r.correct, _errors(r)
    assert not _errors(r)


@pytest.mark.parametrize("form", [0, 1, 2, 3])  # Fixpipe with V220, M300, Arch3510 ROW_MAJOR, Arch3510 NZ
def test_load3d_matmul_transposed_a_and_l0b(tmp_path: Path, form: int) -> None:
    r = _run(tmp_path, MATMUL_KERNEL, MATMUL_SPEC.format(form=form))
    assert r.correct, _errors(r)
    assert not _errors(r)


@pytest.mark.parametrize(
    ("t", "c", "dst", "rep", "needle"),
    [
        ("int8_t", 32, "tB", 0, "to L0B does not support 8-bit types"),
        ("half", 8, "tA", 0, "channelSize 8 is not a multiple of C0 = 16"),
        ("half", 32, "tA", 1, "repeat mode (SetLoadDataRepeat repeatTime 2) is not emulated"),
    ],
)
def test_load3d_unemulated_forms_are_reported(tmp_path: Path, t: str, c: int, dst: str, rep: int,
                                              needle: str) -> None:
    r = _run(tmp_path, FAULT_KERNEL, FAULT_SPEC.format(t=t, c=c, dst=dst, rep=rep))
    hits = [d for d in r.diagnostics if needle in d.message]
    assert hits, _errors(r)
    assert hits[0].span.start.line > 0  # located in the kernel source (0-based; the fault is past line 1)


# Bias through the bias table: half bias GM -> L1 (C1) -> DataCopy<float, half> (widening, blockLen in 64-byte units
# of the source) -> C2 -> Mmad with bias. A is loaded to L0A (NZ image: W = M, channels = K), B to L0B.
BIAS_KERNEL = r"""
#include "kernel_operator.h"
constexpr uint32_t M = 16, N = 32, K = 32;
extern "C" __global__ __aicore__ void mmbias(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c) {
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<half> aGm, bGm, biasGm;
    AscendC::GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half*)a, M * K);
    bGm.SetGlobalBuffer((__gm__ half*)b, K * N);
    biasGm.SetGlobalBuffer((__gm__ half*)bias, N);
    cGm.SetGlobalBuffer((__gm__ float*)c, M * N);
    AscendC::TBuf<AscendC::TPosition::A1> tA1;
    AscendC::TBuf<AscendC::TPosition::B1> tB1;
    AscendC::TBuf<AscendC::TPosition::C1> tBias1;
    AscendC::TBuf<AscendC::TPosition::C2> tBias2;
    AscendC::TBuf<AscendC::TPosition::A2> tA2;
    AscendC::TBuf<AscendC::TPosition::B2> tB2;
    AscendC::TBuf<AscendC::TPosition::CO1> tC;
    pipe.InitBuffer(tA1, M * K * sizeof(half));
    pipe.InitBuffer(tB1, K * N * sizeof(half));
    pipe.InitBuffer(tBias1, N * sizeof(half));
    pipe.InitBuffer(tBias2, N * sizeof(float));
    pipe.InitBuffer(tA2, M * K * sizeof(half));
    pipe.InitBuffer(tB2, K * N * sizeof(half));
    pipe.InitBuffer(tC, M * N * sizeof(float));
    AscendC::LocalTensor<half> a1 = tA1.Get<half>(), b1 = tB1.Get<half>(), a2 = tA2.Get<half>(), b2 = tB2.Get<half>();
    AscendC::LocalTensor<half> bias1 = tBias1.Get<half>();
    AscendC::LocalTensor<float> bias2 = tBias2.Get<float>(), c1 = tC.Get<float>();
    AscendC::DataCopy(a1, aGm, AscendC::Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    AscendC::DataCopy(b1, bGm, AscendC::Nd2NzParams(1, K, N, 0, N, K, 1, 0));
    AscendC::DataCopy(bias1, biasGm, N);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(bias2, bias1, {1, (uint16_t)(N * sizeof(half) / 64), 0, 0});
    AscendC::LoadData3DParamsV2<half> p;
    p.l1H = 1; p.l1W = M; p.channelSize = K; p.kExtension = K; p.mExtension = M;
    AscendC::LoadData(a2, a1, p);
    p.l1W = K; p.channelSize = N; p.kExtension = N; p.mExtension = K;
    AscendC::LoadData(b2, b1, p);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::MmadParams mp;
    mp.m = M; mp.n = N; mp.k = K;
    AscendC::Mmad(c1, a2, b2, bias2, mp);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::FixpipeParamsV220 fp;
    fp.nSize = N; fp.mSize = M; fp.srcStride = M; fp.dstStride = N;
    AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(cGm, c1, fp);
}
"""

BIAS_SPEC = """
kernel: mmbias
source: kernel.cpp
block_dim: 1
inputs:
  - {name: a, shape: [16, 32], dtype: float16, init: {randint: [-4, 4]}}
  - {name: b, shape: [32, 32], dtype: float16, init: {randint: [-4, 4]}}
  - {name: bias, shape: [32], dtype: float16, init: {randint: [-50, 50]}}
outputs:
  - {name: c, shape: [16, 32], dtype: float32}
reference: |
  c = a.astype(np.float32) @ b.astype(np.float32) + bias.astype(np.float32)
tolerance: {rtol: 0, atol: 0}
"""


def test_bias_table_copy_widens_half_to_float(tmp_path: Path) -> None:
    r = _run(tmp_path, BIAS_KERNEL, BIAS_SPEC)
    assert r.correct, _errors(r)
    assert not _errors(r)
