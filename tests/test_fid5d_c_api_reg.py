"""The register C API (emulator include/ascendc_emu/c_api_reg.h; devkit SIMD-API/C-API/reg/): a direct-launch
program of ours runs masked register arithmetic over a tail that is not a whole VL, and its output is checked
against NumPy; the public C-API samples that use these registers compile and pass their own verification."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ascendc_lsp.toolchain.emulator.build import find_cxx
from ascendc_lsp.toolchain.program.run import ProgramOptions, run_program
from tests.public_sources import tree_or_skip

pytestmark = pytest.mark.skipif(find_cxx() is None, reason="g++ is needed to build programs")

N = 100  # one whole VL of float (64) and a tail of 36

REG_PROGRAM = """#include <cstdio>
#include "acl/acl.h"
#include "c_api/asc_simd.h"

constexpr uint32_t N = %(n)d;
constexpr uint32_t RS = 128;  // row stride: a full-VL asc_store of the tail writes 64 elements

__simd_vf__ inline void ops_vf(__ubuf__ float* x, __ubuf__ float* y, __ubuf__ float* out, uint32_t len)
{
    uint16_t lanes = asc_get_vf_len() / sizeof(float);
    uint16_t repeats = (len + lanes - 1) / lanes;
    vector_float a, b, r;
    vector_bool mask;
    for (uint16_t i = 0; i < repeats; ++i) {
        mask = asc_update_mask_b32(len);
        asc_load(a, x + i * lanes);
        asc_load(b, y + i * lanes);
        asc_add(r, a, b, mask); asc_store(out + 0 * RS + i * lanes, r);
        asc_sub(r, a, b, mask); asc_store(out + 1 * RS + i * lanes, r);
        asc_mul(r, a, b, mask); asc_store(out + 2 * RS + i * lanes, r);
        asc_div(r, a, b, mask); asc_store(out + 3 * RS + i * lanes, r);
        asc_max(r, a, b, mask); asc_store(out + 4 * RS + i * lanes, r);
        asc_min(r, a, b, mask); asc_store(out + 5 * RS + i * lanes, r);
    }
    // PAT_M3: every third element; the others are zeroed (ZEROING), and only the first 10 are stored.
    mask = asc_create_mask_b32(PAT_M3);
    asc_load(a, x);
    asc_add(r, a, a, mask);
    asc_store(out + 6 * RS, r, 10);
}

__global__ __vector__ void ops(__gm__ float* x, __gm__ float* y, __gm__ float* z)
{
    asc_init();
    __ubuf__ float xl[128];
    __ubuf__ float yl[128];
    __ubuf__ float ol[7 * RS];
    for (uint32_t i = 0; i < 7 * RS; ++i) ol[i] = -7.0f;
    asc_copy_gm2ub((__ubuf__ void*)xl, (__gm__ void*)x, N * sizeof(float));
    asc_copy_gm2ub((__ubuf__ void*)yl, (__gm__ void*)y, N * sizeof(float));
    asc_sync_pipe(PIPE_ALL);
    ops_vf(xl, yl, ol, N);
    asc_sync_pipe(PIPE_ALL);
    asc_copy_ub2gm((__gm__ void*)z, (__ubuf__ void*)ol, 7 * RS * sizeof(float));
}

int main()
{
    aclInit(nullptr);
    aclrtSetDevice(0);
    float hx[N], hy[N], hz[7 * RS];
    for (uint32_t i = 0; i < N; ++i) { hx[i] = 0.5f * i - 20.0f; hy[i] = 3.0f - 0.25f * i; if (hy[i] == 0.0f) hy[i] = 1.0f; }
    void *dx, *dy, *dz;
    aclrtMalloc(&dx, sizeof hx, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dy, sizeof hy, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dz, sizeof hz, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, sizeof hx, hx, sizeof hx, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dy, sizeof hy, hy, sizeof hy, ACL_MEMCPY_HOST_TO_DEVICE);
    ops<<<1, nullptr>>>((__gm__ float*)dx, (__gm__ float*)dy, (__gm__ float*)dz);
    aclrtSynchronizeDevice();
    aclrtMemcpy(hz, sizeof hz, dz, sizeof hz, ACL_MEMCPY_DEVICE_TO_HOST);
    for (uint32_t i = 0; i < 7 * RS; ++i) printf("%%.9g\\n", hz[i]);
    aclFinalize();
    return 0;
}
"""


def test_register_c_api_arithmetic_matches_numpy_with_a_tail_and_a_pattern_mask(tmp_path: Path) -> None:
    (tmp_path / "probe.asc").write_text(REG_PROGRAM % {"n": N}, encoding="utf-8")
    r = run_program(tmp_path / "probe.asc", ProgramOptions(timeout=180))
    assert r.compiled and r.ran, [d.message for d in r.diagnostics]
    full = np.array([float(v) for v in r.stdout.split()[: 7 * 128]], dtype=np.float32).reshape(7, 128)
    got = full[:, :N]
    i = np.arange(N, dtype=np.float32)
    x = (np.float32(0.5) * i - np.float32(20)).astype(np.float32)
    y = (np.float32(3) - np.float32(0.25) * i).astype(np.float32)
    y[y == 0] = 1
    for row, want in enumerate([x + y, x - y, x * y, x / y, np.maximum(x, y), np.minimum(x, y)]):
        np.testing.assert_array_equal(got[row], want.astype(np.float32), err_msg=f"row {row}")
    pattern = np.where(np.arange(10) % 3 == 0, x[:10] + x[:10], 0).astype(np.float32)
    np.testing.assert_array_equal(got[6, :10], pattern)  # ZEROING: unselected lanes stored as 0
    assert (got[6, 10:] == -7).all()  # asc_store with count 10 leaves the rest untouched
    assert (full[0, N:] == 0).all()  # the tail's full-VL store writes its masked-off (zeroed) lanes too


@pytest.mark.parametrize(
    "sample",
    [
        "examples/02_simd_c_api/00_introduction/04_reg_base_add_compute/c_api_simd_add",
        "examples/02_simd_c_api/02_features/03_c_api/01_data_movement/00_set_l2_cache_mode",
    ],
)
def test_public_register_c_api_samples_pass_their_own_verification(sample: str) -> None:
    root = tree_or_skip("cannmirror+asc-devkit")
    r = run_program(root / sample, ProgramOptions(timeout=600))
    assert r.correct, ([d.message for d in r.diagnostics], r.stdout[-2000:])
