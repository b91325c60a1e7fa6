"""The SIMD C API subset (c_api/asc_simd.h, ascendc_emu/c_api.h) on the emulator: our own program
tests/programs/c_api_probe prints the raw results of each call and this test checks them against NumPy, computed
from the devkit pages (docs/zh/api/SIMD-API/C-API/): element-wise ops over a count that is not a multiple of a
DataBlock, their `_sync` forms, scalar and unary ops, duplicate, half rounding, and the aligned GM->UB copy of
strided rows (32-byte UB rows, a constant left pad) with its way back, and the repeat form's DataBlock strides."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.program_probe import probe_results

PROBE = Path(__file__).parent / "programs" / "c_api_probe"
N, BLOCKS = 77, 2  # the program's stdout is kept to its last 20,000 characters: keep it short


@pytest.fixture(scope="module")
def results() -> dict[str, np.ndarray]:
    return probe_results(PROBE)


def test_elementwise_ops_over_an_odd_count(results: dict[str, np.ndarray]) -> None:
    i = np.arange(BLOCKS * N)
    x = (0.125 * ((i * 7 % 41) - 20)).astype(np.float32)
    y = (0.25 * ((i * 5 % 23) + 1)).astype(np.float32)
    got = results["elementwise"].reshape(9, BLOCKS * N)
    want = [
        x + y,
        x - y,
        x * y,
        x / y,
        np.maximum(x, y),
        x + np.float32(1.5),
        np.maximum(x, 0),
        np.exp(x),
        np.full_like(x, -2.0),
    ]
    for row, w in enumerate(want):
        np.testing.assert_allclose(got[row], w.astype(np.float32), rtol=1e-6, err_msg=f"row {row}")


def test_half_add_rounds_once(results: dict[str, np.ndarray]) -> None:
    hx = results["hx"].astype(np.float16)
    hy = results["hy"].astype(np.float16)
    want = (hx.astype(np.float32) + hy.astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(results["hz"].astype(np.float16), want)


def test_aligned_copy_of_strided_rows_pads_each_row_to_a_datablock(results: dict[str, np.ndarray]) -> None:
    m = np.arange(55).reshape(5, 11)
    rows = m[:, 2:9]  # 7 int32 per row from column 2, row pitch 11
    image = np.full(48, -1)
    for r in range(5):
        image[r * 8] = 99  # one left pad element of the constant pad value
        image[r * 8 + 1 : r * 8 + 8] = rows[r]
    np.testing.assert_array_equal(results["ub_image"], image)
    np.testing.assert_array_equal(results["packed"], image[:40])


def test_repeat_form_walks_datablocks_by_their_strides(results: dict[str, np.ndarray]) -> None:
    i = np.arange(128)
    x = (0.125 * ((i * 7 % 41) - 20)).astype(np.float32)
    y = (0.25 * ((i * 5 % 23) + 1)).astype(np.float32)
    got = results["repeat"]
    np.testing.assert_array_equal(got[:128], x + y)  # 2 repeats x 8 DataBlocks of 8 floats, packed
    spread = np.full(128, -1.0, dtype=np.float32)
    for k in range(8):  # one repeat: destination DataBlock k at 2k, sources packed
        spread[16 * k : 16 * k + 8] = x[8 * k : 8 * k + 8] * y[8 * k : 8 * k + 8]
    np.testing.assert_array_equal(got[128:], spread)
