"""Transpose, TransDataTo5HD and the basic sort APIs on the emulator, checked against NumPy
(cases in tests/emulator_cpp/api_layout.cpp)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.emu_api import CaseRun, compile_cases, run_case

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")]


@pytest.fixture(scope="module")
def binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_cases("api_layout.cpp", tmp_path_factory.mktemp("layout"))


def clean(r: CaseRun) -> None:
    assert r.rc == 0 and r.report == [], r.report


def test_transdata5hd_b16_is_a_16x16_transpose(binary: Path, tmp_path: Path) -> None:
    src = np.arange(256, dtype=np.float16)
    r = run_case(binary, 1, tmp_path, a=src)
    clean(r)
    assert np.array_equal(r.array(np.float16, 256).reshape(16, 16), src.reshape(16, 16).T)


def test_transdata5hd_impl_form_with_raw_pointer_lists(binary: Path, tmp_path: Path) -> None:
    src = np.arange(256, dtype=np.float16)
    r = run_case(binary, 8, tmp_path, a=src)
    clean(r)
    assert np.array_equal(r.array(np.float16, 256).reshape(16, 16), src.reshape(16, 16).T)


def test_transdata5hd_b8_high_halves(binary: Path, tmp_path: Path) -> None:
    src = (np.arange(512) % 128).astype(np.int8)  # the docs' example: rows of 0..127 repeated
    r = run_case(binary, 2, tmp_path, a=src)
    clean(r)
    out = r.array(np.int8, 512).reshape(16, 32)
    s = src.reshape(16, 32)
    assert np.all(out[:, :16] == 0)  # the low halves are not written
    assert np.array_equal(out[:, 16:], s[:, 16:].T)  # dst[j][16 + i] = src[i][16 + j]
    assert list(out[0, 16:20]) == [16, 48, 80, 112]  # as printed in TransDataTo5HD.md


def test_transdata5hd_b32(binary: Path, tmp_path: Path) -> None:
    src = np.arange(128, dtype=np.int32)
    r = run_case(binary, 3, tmp_path, a=src)
    clean(r)
    out = r.array(np.int32, 128).reshape(8, 16)  # two blocks per row
    assert np.array_equal(out, src.reshape(16, 8).T)  # row j = column j of the 16 x 8 source
    assert list(out[0, :4]) == [0, 8, 16, 24]


def test_transdata5hd_nchw_to_nc1hwc0(binary: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    x = rng.standard_normal((16, 64)).astype(np.float16)  # C = 16 = C0, HW = 64
    r = run_case(binary, 4, tmp_path, a=x)
    clean(r)
    assert np.array_equal(r.array(np.float16, 1024).reshape(64, 16), x.T)  # NC1HWC0 with C1 = 1: [HW][C0]


def test_transdata5hd_tensor_lists_two_repeats(binary: Path, tmp_path: Path) -> None:
    src = np.arange(2048, dtype=np.float32)
    r = run_case(binary, 5, tmp_path, a=src)
    clean(r)
    out = r.array(np.float32, 2048)
    for rep in range(2):
        blk = src[rep * 128:(rep + 1) * 128].reshape(16, 8)
        assert np.array_equal(out[rep * 128:(rep + 1) * 128].reshape(8, 16), blk.T)
    assert np.all(out[256:] == 0)


def test_transdata5hd_single_repeat_applies_the_stride(binary: Path, tmp_path: Path) -> None:
    src = np.arange(512, dtype=np.float16)
    r = run_case(binary, 6, tmp_path, a=src)
    clean(r)
    out = r.array(np.float16, 512)
    assert np.all(out[:256] == 0)  # repeatTimes 1 with stride 16: both sides start 16 blocks in
    assert np.array_equal(out[256:].reshape(16, 16), src[256:].reshape(16, 16).T)


def test_transdata5hd_address_outside_ub(binary: Path, tmp_path: Path) -> None:
    r = run_case(binary, 7, tmp_path, a=np.zeros(256, np.float16))
    assert r.rc == 1 and "local-bounds" in r.checks()
    assert "Unified Buffer" in r.errors()[0]["message"]


def test_transpose_16x16(binary: Path, tmp_path: Path) -> None:
    src = np.random.default_rng(5).standard_normal(256).astype(np.float16)
    r = run_case(binary, 10, tmp_path, a=src)
    clean(r)
    assert np.array_equal(r.array(np.float16, 256).reshape(16, 16), src.reshape(16, 16).T)


def test_transpose_nchw_nhwc(binary: Path, tmp_path: Path) -> None:
    x = np.arange(96, dtype=np.float32)
    r = run_case(binary, 11, tmp_path, a=x)
    clean(r)
    nhwc = x.reshape(2, 3, 4, 4).transpose(0, 2, 3, 1).ravel()
    out = r.array(np.float32, 128)
    assert np.array_equal(out[:96], nhwc) and np.all(out[96:] == -1)
    r = run_case(binary, 12, tmp_path, a=x)
    clean(r)
    assert np.array_equal(r.array(np.float32, 96), x.reshape(2, 4, 4, 3).transpose(0, 3, 1, 2).ravel())


def test_transpose_tmp_buffer_too_small(binary: Path, tmp_path: Path) -> None:
    x = np.arange(96, dtype=np.float32)
    r = run_case(binary, 13, tmp_path, a=x)
    assert r.rc == 1 and r.checks() == {"local-bounds"}
    assert r.errors()[0]["api"] == "Transpose" and "2,560" in r.errors()[0]["message"]
    r = run_case(binary, 13, tmp_path, a=x, soc="Ascend310P")  # no temporary buffer on 310P
    clean(r)


def sort32_expect(score: np.ndarray, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    s, i = [], []
    for r in range(len(score) // 32):
        sc, ix = score[r * 32:(r + 1) * 32], idx[r * 32:(r + 1) * 32]
        order = np.argsort(-sc.astype(np.float64), kind="stable")  # descending, ties keep the lower position
        s.append(sc[order])
        i.append(ix[order])
    return np.concatenate(s), np.concatenate(i)


@pytest.mark.parametrize("case,dt", [(20, np.float32), (21, np.float16)])
def test_sort32(binary: Path, tmp_path: Path, case: int, dt: type) -> None:
    rng = np.random.default_rng(case)
    score = rng.integers(-20, 20, 64).astype(dt)  # small integers: many ties
    idx = np.arange(1000, 1064, dtype=np.uint32)
    r = run_case(binary, case, tmp_path, a=score, b=idx)
    clean(r)
    rec = np.frombuffer(r.out[: 64 * 8], dtype=np.uint8).reshape(64, 8)
    es, ei = sort32_expect(score, idx)
    assert np.array_equal(rec[:, :np.dtype(dt).itemsize].copy().view(dt).ravel(), es)
    assert np.array_equal(rec[:, 4:].copy().view(np.uint32).ravel(), ei)
    if dt == np.float16:
        assert np.all(rec[:, 2:4] == 0)  # reserved bytes


def records(r: CaseRun, n: int) -> tuple[np.ndarray, np.ndarray]:
    rec = np.frombuffer(r.out[: n * 8], dtype=np.uint8).reshape(n, 8)
    return rec[:, :4].copy().view(np.float32).ravel(), rec[:, 4:].copy().view(np.uint32).ravel()


def test_mrgsort_four_lists(binary: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(9)
    score = rng.standard_normal(256).astype(np.float32)
    idx = np.arange(256, dtype=np.uint32)
    r = run_case(binary, 22, tmp_path, a=score, b=idx)
    clean(r)
    s, i = records(r, 128)
    order = np.argsort(-score[:128], kind="stable")
    assert np.array_equal(s, score[:128][order]) and np.array_equal(i, idx[order])
    assert list(r.array(np.uint16, 4, offset_bytes=4096)) == [32, 32, 32, 32]
    r = run_case(binary, 23, tmp_path, a=score, b=idx)  # repeatTimes 2: two independent merges
    clean(r)
    s, i = records(r, 256)
    for h in range(2):
        part = score[h * 128:(h + 1) * 128]
        assert np.array_equal(s[h * 128:(h + 1) * 128], np.sort(part)[::-1])


def test_mrgsort_exhausted_suspension(binary: Path, tmp_path: Path) -> None:
    score = np.arange(256, dtype=np.float32)[::-1].copy()  # list 1 holds the largest scores
    idx = np.arange(256, dtype=np.uint32)
    r = run_case(binary, 24, tmp_path, a=score, b=idx)
    clean(r)
    # lists 1 (32 records), 2 (5 records) and 3 (32): the merge stops once list 1 runs out
    counts = list(r.array(np.uint16, 4, offset_bytes=4096))
    assert counts == [32, 0, 0, 0]
    s, _ = records(r, 33)
    assert np.array_equal(s[:32], score[:32]) and s[32] == -1


def test_mrgsort_bad_validbit(binary: Path, tmp_path: Path) -> None:
    r = run_case(binary, 25, tmp_path, a=np.zeros(256, np.float32), b=np.arange(256, dtype=np.uint32))
    assert r.rc == 1 and r.checks() == {"mrgsort-validbit"}


def test_region_proposals_on_310p(binary: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(11)
    rows = rng.integers(0, 500, (6, 32)).astype(np.float16)
    r = run_case(binary, 30, tmp_path, a=rows, soc="Ascend310P")
    clean(r)
    props = np.zeros((32, 8), np.float16)
    props[:, :6] = rows.T
    sorted_ = r.array(np.float16, 256).reshape(32, 8)
    for g in range(2):
        grp = props[g * 16:(g + 1) * 16]
        order = np.argsort(-grp[:, 4].astype(np.float64), kind="stable")
        assert np.array_equal(sorted_[g * 16:(g + 1) * 16], grp[order])
    assert np.array_equal(r.array(np.float16, 32, offset_bytes=1024), sorted_[:, 4])
    merged = r.array(np.float16, 256, offset_bytes=2048).reshape(32, 8)
    assert np.array_equal(merged[:, 4], np.sort(rows[4])[::-1])
    # the same kernel on Ascend910B: the Region Proposal APIs do not exist there
    r = run_case(binary, 30, tmp_path, a=rows, soc="Ascend910B")
    assert r.rc == 1 and r.checks() == {"api-unavailable"}


@pytest.mark.parametrize("case,dt", [(40, np.int8), (41, np.float16), (42, np.float32)])
def test_load_data_with_transpose(binary: Path, tmp_path: Path, case: int, dt: type) -> None:
    frac = 1 if dt == np.float16 else 2
    src = (np.arange(3 * frac * 512 // np.dtype(dt).itemsize) % 120).astype(dt)
    r = run_case(binary, case, tmp_path, a=src)
    clean(r)
    out = np.frombuffer(r.out[: 6 * 512], np.uint8)
    n = 32 if dt == np.int8 else 16
    per_frac = 512 // np.dtype(dt).itemsize
    for i in range(3):
        sq = src[i * frac * per_frac:(i + 1) * frac * per_frac]
        if dt == np.float32:  # two 16x8 fractals side by side
            m = np.concatenate([sq[:128].reshape(16, 8), sq[128:].reshape(16, 8)], axis=1)
            t = m.T
            frags = [t[:, :8].ravel(), t[:, 8:].ravel()]
        else:  # b16: one 16x16 fractal; b8: two 16x32 fractals stacked into 32x32
            t = sq.reshape(n, n).T
            frags = [t.ravel()[k * per_frac:(k + 1) * per_frac] for k in range(frac)]
        for k, f in enumerate(frags):
            at = (i + k * 3) * 512  # dstGap 0: iterations 1 fractal apart; dstFracGap 2: 3 fractals apart
            assert np.array_equal(out[at:at + 512].view(dt), f), (i, k)


def test_sort32_orders_infinities_and_nan(binary: Path, tmp_path: Path) -> None:
    score = np.random.default_rng(27).standard_normal(64).astype(np.float32)
    score[3], score[10], score[40] = np.inf, -np.inf, np.nan
    idx = np.arange(64, dtype=np.uint32)
    r = run_case(binary, 20, tmp_path, a=score, b=idx)
    clean(r)
    rec = np.frombuffer(r.out[: 64 * 8], dtype=np.uint8).reshape(64, 8)
    s = rec[:, :4].copy().view(np.float32).ravel()
    i = rec[:, 4:].copy().view(np.uint32).ravel()
    assert s[0] == np.inf and i[0] == 3 and s[31] == -np.inf and i[31] == 10
    assert np.isnan(s[32]) and i[32] == 40  # NaN sorts as the largest score (the emulator's assumption)
