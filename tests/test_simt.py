"""SIMT on the emulator (ascendc_emu/simt.h, simt_api/asc_simt.h, the `__ubuf__` pass of program/simt.py): our own
program tests/programs/simt_probe runs one kernel per part of the model and prints the raw results; each is
checked here against NumPy, computed from the devkit's documented semantics (docs/zh/api/SIMT-API/): block
barriers over block-shared arrays with a partial last warp, the four shuffles with widths 32/16/8 and a partial
warp, votes and warp reductions after some lanes have returned, atomics from many blocks, 2-D grids and blocks,
the dynamic Unified Buffer, short vector types, and a `__simt_vf__` function run by asc_vf_call from a SIMD kernel."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ascendc_lsp.toolchain.program.simt import share_ubuf_arrays
from tests.program_probe import probe_results

PROBE = Path(__file__).parent / "programs" / "simt_probe"
WARP = 32


@pytest.fixture(scope="module")
def results() -> dict[str, np.ndarray]:
    return probe_results(PROBE)


def test_block_barrier_reduction_over_a_shared_array(results: dict[str, np.ndarray]) -> None:
    x = (np.arange(300) * 37 % 101) - 50
    np.testing.assert_array_equal(results["block_sum"], x.reshape(3, 100).sum(axis=1))


def _shuffles(width: int, n: int = 45) -> np.ndarray:
    lane = np.arange(n)
    v = lane * 10 + 1
    live = lambda s: s < n  # noqa: E731 - the lanes of the block
    in_warp = lane % WARP
    base = lane - in_warp % width

    def take(src: np.ndarray) -> np.ndarray:
        return np.where(live(src), v[np.minimum(src, n - 1)], v)

    shfl = take(base + 5 % width)
    up = take(np.where(in_warp % width - 3 < 0, lane, lane - 3))
    down = take(np.where(in_warp % width + 3 >= width, lane, lane + 3))
    d = (in_warp % width) ^ 6
    xor = take(np.where(d >= width, lane, base + d))
    return np.concatenate([shfl, up, down, xor])


@pytest.mark.parametrize("width", [32, 16, 8])
def test_shuffles_with_groups_and_a_partial_warp(results: dict[str, np.ndarray], width: int) -> None:
    np.testing.assert_array_equal(results[f"shuffles{width}"], _shuffles(width))


def test_votes_and_reductions_count_only_live_lanes(results: dict[str, np.ndarray]) -> None:
    n = 64
    t = np.arange(n)
    live = ~((t >= 20) & (t % 2 == 1))
    got = results["votes"].reshape(7, n)
    for w in range(2):
        lanes = t[w * WARP : (w + 1) * WARP]
        lv = live[lanes]
        mask = int(sum(1 << int(i % WARP) for i in lanes[lv]))
        ballot = int(sum(1 << int(i % WARP) for i in lanes[lv & (lanes % 3 == 0)]))
        want = [
            ballot,
            int(np.any(lanes[lv] == 22)),
            int(np.all(lanes[lv] < 40)),
            mask,
            int(lanes[lv].sum()),
            int((lanes[lv] * 7 % 31).max()),
            int((lanes[lv] + 3).min()),
        ]
        for row, value in enumerate(want):
            np.testing.assert_array_equal(got[row, lanes[lv]], value, err_msg=f"warp {w} row {row}")
            np.testing.assert_array_equal(got[row, lanes[~lv]], 0)  # returned lanes wrote nothing
        np.testing.assert_allclose(results["votes_f"][lanes[lv]], (0.5 * lanes[lv]).sum())


def test_atomics_from_many_blocks(results: dict[str, np.ndarray]) -> None:
    keys = results["keys"].astype(np.uint32)
    np.testing.assert_array_equal(keys, ((np.arange(1000, dtype=np.uint64) * 2654435761) % 2**32 >> 7))
    np.testing.assert_array_equal(results["hist"], np.bincount(keys & 15, minlength=16))
    # inc wraps at 9 (1000 % 10 == 0), cas is won by the first thread (i = 0 stores 1) which then exchanges 1,
    # sub takes 2 a thousand times from 5000, dec from 5 cycles through 4..0 (old == 0 -> 4)
    np.testing.assert_array_equal(results["counters"], [0, 1, 1, 5000 - 2000, 0])
    k = (keys % 1000).astype(np.int64) - 500
    np.testing.assert_array_equal(results["imax"], [k.max(), k.min()])


def test_two_dimensional_grid_and_block(results: dict[str, np.ndarray]) -> None:
    gy, gx = np.mgrid[0:10, 0:12]
    got = results["coords"][: 10 * 12].reshape(10, 12)
    np.testing.assert_array_equal(got, gy * 1000 + gx)


def test_dynamic_unified_buffer(results: dict[str, np.ndarray]) -> None:
    x = 0.25 * np.arange(66, dtype=np.float32)
    np.testing.assert_array_equal(results["reverse"], x.reshape(2, 33)[:, ::-1].reshape(-1))


def test_simt_function_from_a_simd_kernel_scans_each_warp(results: dict[str, np.ndarray]) -> None:
    s = (np.arange(64) * 13) % 7 - 3
    np.testing.assert_array_equal(results["scan"], np.cumsum(s.reshape(2, 32), axis=1).reshape(-1))


def test_short_vectors_compute_componentwise(results: dict[str, np.ndarray]) -> None:
    hx = results["hx"].astype(np.float16).reshape(32, 2)
    hy = results["hy"].astype(np.float16).reshape(32, 2)
    prod = (hx.astype(np.float32) * hy.astype(np.float32)).astype(np.float16)  # each operator rounds to half
    want = (prod.astype(np.float32) + hx.astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(results["hz"].astype(np.float16).reshape(32, 2), want)
    t = np.arange(32, dtype=np.float32)
    a = np.stack([t, np.ones(32), np.full(32, 2.0), np.full(32, 3.0)], axis=1)
    b = np.stack([np.full(32, 0.5), t, np.full(32, -1.0), np.full(32, 4.0)], axis=1)
    np.testing.assert_array_equal(results["f4"].reshape(32, 4), (a - b).astype(np.float32))


def test_ubuf_pass_keeps_lines_and_leaves_pointers_and_simd_arrays_alone() -> None:
    src = (
        "extern __ubuf__ char dyn[];\n"
        "__global__ __launch_bounds__(256) void k(float* x)\n{\n"
        "    __ubuf__ float tile[32][33];\n"
        "    __ubuf__ float* p = tile[0];\n"
        "    extern __ubuf__ unsigned int smem[];\n"
        "    // __ubuf__ float not_code[4];\n"
        "}\n"
        "__global__ __aicore__ void simd(float* x)\n{\n    __ubuf__ float local[8];\n}\n"
        "__simt_vf__ inline void vf()\n{\n    if (1) { __ubuf__ int s[4]; }\n}\n"
    )
    out = share_ubuf_arrays(src)
    assert out.count("\n") == src.count("\n")
    lines = out.splitlines()
    assert lines[0] == "__ubuf__ char* const dyn = (char*)::ascendc_emu::dyn_ubuf();"
    assert lines[3] == "    static __ubuf__ float tile[32][33];"
    assert lines[4] == "    __ubuf__ float* p = tile[0];"
    assert lines[5] == "    __ubuf__ unsigned int* const smem = (unsigned int*)::ascendc_emu::dyn_ubuf();"
    assert lines[6] == "    // __ubuf__ float not_code[4];"
    assert lines[10] == "    __ubuf__ float local[8];"
    assert lines[14] == "    if (1) { static __ubuf__ int s[4]; }"
