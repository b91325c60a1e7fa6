"""Scalar GM atomics (AtomicAdd / AtomicMax / AtomicMin / AtomicCas / AtomicExch, 原子操作/*.md) from several
cores at once, run through the emulator backend against NumPy: the returned old values and the final GM values.
Compiles with g++: slow."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from ascendc_lsp.toolchain.base import RunOptions
from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain
from ascendc_lsp.toolchain.spec import load_spec

pytestmark = pytest.mark.slow

# Every block adds b + 1 to acc[0] and takes max/min of (b * 7) % 5 - 2 into acc[1] / acc[2]; a CAS from 12345
# never matches, a CAS from 0 to 5 succeeds for exactly one block, every block exchanges 99 in; after SyncAll
# block 0 copies the GM words out, and each block checks the old values it was returned (whichever order the
# blocks ran in).
KERNEL = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void atomics(GM_ADDR acc, GM_ADDR flag, GM_ADDR out, GM_ADDR oldsum) {
    int32_t b = (int32_t)AscendC::GetBlockIdx();
    __gm__ int32_t* a = reinterpret_cast<__gm__ int32_t*>(acc);
    __gm__ uint32_t* f = reinterpret_cast<__gm__ uint32_t*>(flag);
    int32_t before = AscendC::AtomicAdd(a, b + 1);
    AscendC::AtomicMax(a + 1, (b * 7) % 5 - 2);
    AscendC::AtomicMin(a + 2, (b * 7) % 5 - 2);
    uint32_t never = AscendC::AtomicCas(f, 12345u, 7u);
    uint32_t seen = AscendC::AtomicCas(f + 1, 0u, 5u);
    uint32_t prev = AscendC::AtomicExch(f + 2, 99u);
    AscendC::SyncAll();
    __gm__ int32_t* o = reinterpret_cast<__gm__ int32_t*>(out);
    if (b == 0) {
        for (int i = 0; i < 3; i++) o[i] = a[i];
        for (int i = 0; i < 3; i++) o[3 + i] = (int32_t)f[i];
    }
    reinterpret_cast<__gm__ int32_t*>(oldsum)[b] = (int32_t)(before >= 0 && before <= 9) + (seen == 0u || seen == 5u ? 10 : 0) +
                                                   (never == 0u ? 100 : 0) + ((prev == 0u || prev == 99u) ? 1000 : 0);
}
"""

SPEC = """
kernel: atomics
source: kernel.cpp
block_dim: 4
inputs:
  - {name: acc, shape: [3], dtype: int32, init: zeros}
  - {name: flag, shape: [3], dtype: uint32, init: zeros}
outputs:
  - {name: out, shape: [6], dtype: int32}
  - {name: oldsum, shape: [4], dtype: int32}
reference: |
  vals = np.array([(b * 7) % 5 - 2 for b in range(4)])
  out = np.array([10, max(0, vals.max()), min(0, vals.min()), 0, 5, 99], np.int32)
  oldsum = np.full(4, 1111, np.int32)
tolerance: {rtol: 0, atol: 0}
"""


def test_scalar_atomics_across_cores(tmp_path: Path) -> None:
    (tmp_path / "kernel.cpp").write_text(textwrap.dedent(KERNEL), encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent(SPEC), encoding="utf-8")
    r = EmulatorToolchain().run(load_spec(tmp_path / "spec.yaml"), RunOptions(timeout=120))
    assert r.correct, [d.message for d in r.diagnostics]
    assert not [d for d in r.diagnostics if d.severity == "error"]
