"""High-level sort APIs on the emulator against NumPy (tests/emulator_cpp/adv_sort.cpp): Concat + Sort (per 32
and full) + Extract, and TopK in Normal mode (largest, a finished row, padded value/index rows) and Small mode
(smallest, caller's indices); with ties (the lower position first), +inf and NaN (first in both orders, TopK.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.test_emulator_headers import CPP, _compile, _run

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed"),
]

SLOT = 256


def _order(v: np.ndarray, largest: bool) -> np.ndarray:
    """Positions in sorted order: NaN first, then by value, ties by the lower position (stable)."""
    key = np.where(np.isnan(v), 0, -v if largest else v)
    nan_first = ~np.isnan(v)  # False (NaN) sorts before True
    return np.lexsort((np.arange(len(v)), key, nan_first))


def test_sort_and_topk(tmp_path: Path) -> None:
    _compile(CPP / "adv_sort.cpp", tmp_path / "sort")
    rng = np.random.default_rng(3)
    x = rng.integers(-20, 20, 256).astype(np.float32)  # many ties
    x[7], x[40], x[100] = np.inf, np.nan, -np.inf
    ix = np.arange(256, dtype=np.uint32)[::-1].copy()  # indices that differ from positions
    fin = np.zeros(32, np.uint8)
    fin[2] = 1
    x.tofile(tmp_path / "x.bin")
    ix.tofile(tmp_path / "ix.bin")
    fin.tofile(tmp_path / "fin.bin")
    rc, report, trace = _run(tmp_path / "sort", tmp_path)
    assert rc == 0 and report == [], report
    z = np.fromfile(tmp_path / "z.out.bin", dtype=np.float32).reshape(10, SLOT)
    zi = z.view(np.int32)
    v, i = x[:128], ix[:128]
    per32 = np.concatenate([g * 32 + _order(v[g * 32:(g + 1) * 32], True) for g in range(4)])
    np.testing.assert_array_equal(z[0, :128], v[per32])
    np.testing.assert_array_equal(zi[1, :128], i[per32].astype(np.int32))
    full = _order(v, True)
    np.testing.assert_array_equal(z[2, :128], v[full])
    np.testing.assert_array_equal(zi[3, :128], i[full].astype(np.int32))
    for r in range(4):  # Normal TopK: rows of 64, 60 valid, k 5; value rows padded to 8, index rows to 8
        row = x[r * 64:r * 64 + 60]
        top = _order(row, True)[:5]
        np.testing.assert_array_equal(z[4, r * 8:r * 8 + 5], row[top])
        want = np.full(5, 60) if r == 2 else top
        np.testing.assert_array_equal(zi[5, r * 8:r * 8 + 5], want)
    for r in range(8):  # Small TopK: rows of 32, k 3 smallest, packed at 3, caller's indices
        row, ri = x[r * 32:(r + 1) * 32], ix[r * 32:(r + 1) * 32].astype(np.int64)
        top = _order(row, False)[:3]
        np.testing.assert_array_equal(z[6, r * 3:r * 3 + 3], row[top])
        np.testing.assert_array_equal(zi[7, r * 3:r * 3 + 3], ri[top])
    assert {"Concat", "Sort", "Extract", "TopK"} <= {e.get("adv") for e in trace}
