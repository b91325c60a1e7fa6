"""The emulator's Cube path (DataCopy Nd2Nz, LoadData, Mmad, Fixpipe) and the Matmul high-level API, run through
the emulator backend with kernels written for these tests. Compiles with g++: slow."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from ascendc_lsp.toolchain.base import RunOptions, RunResult
from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain
from ascendc_lsp.toolchain.spec import load_spec

pytestmark = pytest.mark.slow

# int8 x int8 -> int32 on the basic Cube API. B is given transposed ([N, K] in GM): its NZ image in L1 (16 n-rows
# x 32 k-columns per fractal) is already the ZN layout L0B wants, so LoadData copies it without ifTranspose.
INT8_KERNEL = r"""
#include "kernel_operator.h"
constexpr uint32_t M = 32, N = 48, K = 64, C0 = 32;  // int8: 32 elements per 32-byte fractal row
class KernelInt8 {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR bt, GM_ADDR c) {
        aGm.SetGlobalBuffer((__gm__ int8_t*)a, M * K);
        btGm.SetGlobalBuffer((__gm__ int8_t*)bt, N * K);
        cGm.SetGlobalBuffer((__gm__ int32_t*)c, M * N);
        pipe.InitBuffer(qA1, 1, M * K);
        pipe.InitBuffer(qB1, 1, N * K);
        pipe.InitBuffer(qA2, 1, M * K);
        pipe.InitBuffer(qB2, 1, N * K);
        pipe.InitBuffer(qC, 1, M * N * sizeof(int32_t));
    }
    __aicore__ inline void Process() {
        AscendC::LocalTensor<int8_t> a1 = qA1.AllocTensor<int8_t>();
        AscendC::LocalTensor<int8_t> b1 = qB1.AllocTensor<int8_t>();
        AscendC::DataCopy(a1, aGm, AscendC::Nd2NzParams(1, M, K, 0, K, M, 1, 0));
        AscendC::DataCopy(b1, btGm, AscendC::Nd2NzParams(1, N, K, 0, K, N, 1, 0));
        qA1.EnQue(a1); qB1.EnQue(b1);
        a1 = qA1.DeQue<int8_t>(); b1 = qB1.DeQue<int8_t>();
        AscendC::LocalTensor<int8_t> a2 = qA2.AllocTensor<int8_t>();
        AscendC::LocalTensor<int8_t> b2 = qB2.AllocTensor<int8_t>();
        AscendC::LoadData2DParams p;
        p.repeatTimes = K / C0;
        p.srcStride = M / 16;
        for (uint32_t i = 0; i < M / 16; i++) {  // NZ -> ZZ: one 16-row band at a time
            p.startIndex = i;
            AscendC::LoadData(a2[i * 16 * K], a1, p);
        }
        p.repeatTimes = N / 16;
        p.srcStride = 1;
        for (uint32_t kb = 0; kb < K / C0; kb++) {  // NZ (of B^T) -> ZN: fractals ordered k-block major
            p.startIndex = kb * (N / 16);
            AscendC::LoadData(b2[kb * N * C0], b1, p);
        }
        qA2.EnQue(a2); qB2.EnQue(b2);
        qA1.FreeTensor(a1); qB1.FreeTensor(b1);
        a2 = qA2.DeQue<int8_t>(); b2 = qB2.DeQue<int8_t>();
        AscendC::LocalTensor<int32_t> c1 = qC.AllocTensor<int32_t>();
        AscendC::MmadParams mp;
        mp.m = M; mp.n = N; mp.k = K;
        AscendC::Mmad(c1, a2, b2, mp);
        qC.EnQue(c1);
        qA2.FreeTensor(a2); qB2.FreeTensor(b2);
        c1 = qC.DeQue<int32_t>();
        AscendC::FixpipeParamsV220 fp;
        fp.nSize = N; fp.mSize = M; fp.srcStride = M; fp.dstStride = N;
        AscendC::Fixpipe<int32_t, int32_t, AscendC::CFG_ROW_MAJOR>(cGm, c1, fp);
        qC.FreeTensor(c1);
    }
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::A1, 1> qA1;
    AscendC::TQue<AscendC::TPosition::B1, 1> qB1;
    AscendC::TQue<AscendC::TPosition::A2, 1> qA2;
    AscendC::TQue<AscendC::TPosition::B2, 1> qB2;
    AscendC::TQue<AscendC::TPosition::CO1, 1> qC;
    AscendC::GlobalTensor<int8_t> aGm, btGm;
    AscendC::GlobalTensor<int32_t> cGm;
};
extern "C" __global__ __aicore__ void mm_int8(GM_ADDR a, GM_ADDR bt, GM_ADDR c) {
    KernelInt8 op;
    op.Init(a, bt, c);
    op.Process();
}
"""

INT8_SPEC = """
kernel: mm_int8
source: kernel.cpp
block_dim: 1
inputs:
  - {name: a, shape: [32, 64], dtype: int8, init: {randint: [-20, 20]}}
  - {name: bt, shape: [48, 64], dtype: int8, init: {randint: [-20, 20]}}
outputs:
  - {name: c, shape: [32, 48], dtype: int32}
reference: |
  c = a.astype(np.int32) @ bt.astype(np.int32).T
tolerance: {rtol: 0, atol: 0}
"""

# Matmul API: B transposed in GM, fp32 bias, half output, Iterate + GetTensorC to GM, 2 cores along N.
MATMUL_KERNEL = r"""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace matmul;
extern "C" __global__ __aicore__ void mm_api(GM_ADDR a, GM_ADDR bt, GM_ADDR bias, GM_ADDR c, GM_ADDR ws,
                                             GM_ADDR tilingGm) {
    AscendC::TPipe pipe;
    TCubeTiling tiling;
    uint32_t* dst = reinterpret_cast<uint32_t*>(&tiling);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / 4; i++) dst[i] = reinterpret_cast<__gm__ uint32_t*>(tilingGm)[i];
    AscendC::GlobalTensor<half> aG, bG;
    AscendC::GlobalTensor<float> biasG;
    AscendC::GlobalTensor<half> cG;
    aG.SetGlobalBuffer((__gm__ half*)a, tiling.M * tiling.Ka);
    bG.SetGlobalBuffer((__gm__ half*)bt, tiling.N * tiling.Kb);
    biasG.SetGlobalBuffer((__gm__ float*)bias, tiling.N);
    cG.SetGlobalBuffer((__gm__ half*)c, tiling.M * tiling.N);
    Matmul<MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, true>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    int n0 = GetBlockIdx() * tiling.singleCoreN;
    mm.SetTensorA(aG);
    mm.SetTensorB(bG[n0 * tiling.Kb], true);
    mm.SetBias(biasG[n0]);
    while (mm.Iterate()) {
        mm.GetTensorC(cG[n0]);
    }
    mm.End();
}
"""

MATMUL_SPEC = """
kernel: mm_api
source: kernel.cpp
block_dim: 2
inputs:
  - {name: a, shape: [64, 96], dtype: float16, init: {randint: [-4, 4]}}
  - {name: bt, shape: [80, 96], dtype: float16, init: {randint: [-4, 4]}}
  - {name: bias, shape: [80], dtype: float32, init: {randint: [-8, 8]}}
outputs:
  - {name: c, shape: [64, 80], dtype: float16}
params: [a, bt, bias, c, workspace, tiling]
tiling:
  struct: TCubeTiling
  header: tiling.h
  fields: {usedCoreNum: 2, M: 64, N: 80, Ka: 96, Kb: 96, singleCoreM: 64, singleCoreN: 40, singleCoreK: 96,
           baseM: 32, baseN: 16, baseK: 32, iterateOrder: 1}
reference: |
  c = (a.astype(np.float32) @ bt.astype(np.float32).T + bias).astype(np.float16)
tolerance: {rtol: 1.0e-3, atol: 1.0e-3}
"""

# Faults: Mmad m out of range, and an L0A operand that is not 512-byte aligned.
FAULT_KERNEL = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void cube_fault(GM_ADDR c) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::A2> a2;
    AscendC::TBuf<AscendC::TPosition::B2> b2;
    AscendC::TBuf<AscendC::TPosition::CO1> c1;
    pipe.InitBuffer(a2, 4096);
    pipe.InitBuffer(b2, 4096);
    pipe.InitBuffer(c1, 8192);
    AscendC::MmadParams p;
    p.m = FAULT_M; p.n = 16; p.k = 16;
    AscendC::Mmad(c1.Get<float>(), a2.Get<half>()[FAULT_OFFSET], b2.Get<half>(), p);
}
"""

FAULT_SPEC = """
kernel: cube_fault
source: kernel.cpp
block_dim: 1
inputs: []
outputs:
  - {{name: c, shape: [16], dtype: float32, compare: false}}
defines: {{FAULT_M: {m}, FAULT_OFFSET: {off}}}
reference: |
  c = np.zeros(16, np.float32)
"""


def _run(tmp_path: Path, kernel: str, spec: str, extra: dict[str, str] | None = None) -> RunResult:
    (tmp_path / "kernel.cpp").write_text(textwrap.dedent(kernel), encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent(spec), encoding="utf-8")
    for name, text in (extra or {}).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return EmulatorToolchain().run(load_spec(tmp_path / "spec.yaml"), RunOptions(timeout=120))


def _errors(r: RunResult) -> list[str]:
    return [f"{d.category}: {d.message}" for d in r.diagnostics if d.severity == "error"]


def test_int8_cube_path_is_exact(tmp_path: Path) -> None:
    r = _run(tmp_path, INT8_KERNEL, INT8_SPEC)
    assert r.correct, _errors(r)
    assert not _errors(r)


def test_matmul_api_transposed_b_bias_iterate(tmp_path: Path) -> None:
    r = _run(tmp_path, MATMUL_KERNEL, MATMUL_SPEC, {"tiling.h": '#include "kernel_tiling/kernel_tiling.h"\n'})
    assert r.correct, _errors(r)
    assert not _errors(r)
    assert r.estimate is not None and r.estimate.cycles > 0


@pytest.mark.parametrize(
    ("m", "off", "category", "needle"),
    [
        (5000, 0, "vector-param-invalid", "m value in Mmad, its valid range is 0 ~ 4095"),
        (16, 16, "misaligned-access", "512-byte aligned"),
    ],
)
def test_cube_faults_are_reported(tmp_path: Path, m: int, off: int, category: str, needle: str) -> None:
    r = _run(tmp_path, FAULT_KERNEL, FAULT_SPEC.format(m=m, off=off))
    hits = [d for d in r.diagnostics if d.category == category and needle in d.message]
    assert hits, _errors(r)
    assert hits[0].span.start.line > 0  # located in the kernel source (0-based; the fault is past line 1)
