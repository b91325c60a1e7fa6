"""ReduceRepeat / ReduceDataBlock / ReducePairElem / RepeatReduceSum, the ReduceMax/Min/Sum mask forms and the
reduce special registers; Compare / Compares / Select level-0 and register forms, checked against NumPy
(cases in tests/emulator_cpp/api_reduce_cmp.cpp)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.emu_api import CaseRun, compile_cases, run_case

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")]


@pytest.fixture(scope="module")
def binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_cases("api_reduce_cmp.cpp", tmp_path_factory.mktemp("reduce_cmp"))


def clean(r: CaseRun) -> None:
    assert r.rc == 0 and r.report == [], r.report


def tree_sum(v: np.ndarray, dt: type) -> np.generic:
    """The vector unit's pairwise sum inside one repeat, each partial rounded to the element type."""
    x = [np.float32(e) for e in v]
    while len(x) > 1:
        nxt = [np.float32(dt(x[2 * i] + x[2 * i + 1])) for i in range(len(x) // 2)]
        if len(x) % 2:
            nxt.append(x[-1])
        x = nxt
    return dt(x[0])


def level_sum(v: np.ndarray, dt: type, lanes: int) -> np.generic:
    x = np.asarray(v, dt)
    while len(x) > 1:
        x = np.array([tree_sum(x[i:i + lanes], dt) for i in range(0, len(x), lanes)], dt)
    return dt(x[0])


def test_reduce_repeat_sum_half(binary: Path, tmp_path: Path) -> None:
    x = np.random.default_rng(1).uniform(-2, 2, 1024).astype(np.float16)
    r = run_case(binary, 1, tmp_path, a=x)
    clean(r)
    out = r.array(np.float16, 4)
    for rep in range(3):
        assert out[rep] == tree_sum(x[rep * 128:rep * 128 + 100], np.float16)
    assert out[3] == -1


def test_reduce_repeat_max_with_index_and_spr(binary: Path, tmp_path: Path) -> None:
    x = np.random.default_rng(2).standard_normal(512).astype(np.float32)
    x[70] = x[100] = 50.0  # tie inside repeat 1: the smaller index wins
    r = run_case(binary, 2, tmp_path, a=x)
    clean(r)
    out = r.array(np.float32, 8)
    for rep in range(4):
        part = x[rep * 64:(rep + 1) * 64]
        assert out[2 * rep] == part.max()
        assert out[2 * rep + 1:2 * rep + 2].view(np.uint32)[0] == part.argmax()
    spr = r.array(np.float32, 4, offset_bytes=256)
    assert spr[0] == 50.0 and spr[1:2].view(np.uint32)[0] == 70  # overall extreme, index r * 64 + lane
    assert spr[2] == spr[0] and spr[3:4].view(np.uint32)[0] == 70  # GetReduceMaxMinCount is the same register


def test_reduce_repeat_min_only_index(binary: Path, tmp_path: Path) -> None:
    x = np.random.default_rng(3).standard_normal(512).astype(np.float32)
    r = run_case(binary, 3, tmp_path, a=x)
    clean(r)
    idx = r.array(np.uint32, 4)
    assert list(idx) == [int(x[rep * 64:(rep + 1) * 64].argmin()) for rep in range(4)]


def test_reduce_data_block_max(binary: Path, tmp_path: Path) -> None:
    x = np.random.default_rng(4).standard_normal(256).astype(np.float16)
    r = run_case(binary, 4, tmp_path, a=x)
    clean(r)
    blocks = x.reshape(16, 16)[:, ::2]  # every other lane is masked in
    assert np.array_equal(r.array(np.float16, 16), blocks.max(axis=1))


def test_reduce_pair_elem(binary: Path, tmp_path: Path) -> None:
    x = np.random.default_rng(5).standard_normal(128).astype(np.float32)
    r = run_case(binary, 5, tmp_path, a=x)
    clean(r)
    assert np.array_equal(r.array(np.float32, 64), x[0::2] + x[1::2])


def test_repeat_reduce_sum_old_name(binary: Path, tmp_path: Path) -> None:
    x = np.random.default_rng(6).standard_normal(256).astype(np.float32)
    r = run_case(binary, 6, tmp_path, a=x)
    clean(r)
    out = r.array(np.float32, 8)
    assert [out[i] for i in range(4)] == [tree_sum(x[i * 64:(i + 1) * 64], np.float32) for i in range(4)]
    assert np.all(out[4:] == -1)


def test_reduce_max_mask_form_with_index(binary: Path, tmp_path: Path) -> None:
    x = np.random.default_rng(7).standard_normal(512).astype(np.float32)
    r = run_case(binary, 7, tmp_path, a=x)
    clean(r)
    out = r.array(np.float32, 2)
    assert out[0] == x.max() and out[1:].view(np.uint32)[0] == x.argmax()
    r = run_case(binary, 8, tmp_path, a=x)  # 8 floats of work space where 24 are needed
    assert r.rc == 1 and r.checks() == {"local-bounds"} and r.errors()[0]["api"] == "ReduceMax"


def test_reduce_min_bit_mask_half(binary: Path, tmp_path: Path) -> None:
    x = np.random.default_rng(8).uniform(-100, 100, 512).astype(np.float16)
    r = run_case(binary, 9, tmp_path, a=x)
    clean(r)
    lanes = np.array([rep * 128 + lane for rep in range(3) for lane in range(64, 128)])
    best = lanes[np.argmin(x[lanes])]
    out = r.array(np.float16, 2)
    assert out[0] == x[best] and out[1:].view(np.uint16)[0] == best


def test_reduce_sum_spr_and_bit_mask(binary: Path, tmp_path: Path) -> None:
    x = np.random.default_rng(10).standard_normal(1024).astype(np.float32)
    r = run_case(binary, 10, tmp_path, a=x)
    clean(r)
    out = r.array(np.float32, 16)
    total = level_sum(x[:1000], np.float32, 64)
    assert out[0] == total
    spr = r.array(np.float32, 2, offset_bytes=256)
    assert spr[0] == total and spr[1] == total  # GetReduceRepeatSumSpr, and GetAccVal()'s raw low word
    sub = np.concatenate([x[0:8], x[64:72]])
    assert out[8] == level_sum(np.array([tree_sum(x[0:8], np.float32), tree_sum(x[64:72], np.float32)]),
                               np.float32, 64)
    assert np.isclose(out[8], sub.sum(dtype=np.float64), rtol=1e-5)


def bits(b: bytes, n: int) -> np.ndarray:
    return np.unpackbits(np.frombuffer(b, np.uint8), bitorder="little")[:n]


@pytest.mark.parametrize("soc", ["Ascend910B", "Ascend310B"])
def test_compare_mask_form(binary: Path, tmp_path: Path, soc: str) -> None:
    rng = np.random.default_rng(20)
    x, y = rng.standard_normal(128).astype(np.float32), rng.standard_normal(128).astype(np.float32)
    r = run_case(binary, 20, tmp_path, a=x, b=y, soc=soc)
    clean(r)
    got = bits(r.out[:64], 512)
    exp = np.unpackbits(np.full(64, 0xAA, np.uint8), bitorder="little").copy()
    lt = x < y
    for i in range(128):
        if soc == "Ascend910B" or i % 64 < 40:  # A2 ignores the mask of Compare; 310B applies it
            exp[i] = lt[i]
    assert np.array_equal(got, exp)


def test_compares_half_ge(binary: Path, tmp_path: Path) -> None:
    x = np.random.default_rng(21).uniform(-1, 2, 256).astype(np.float16)
    r = run_case(binary, 21, tmp_path, a=x)
    clean(r)
    assert np.array_equal(bits(r.out[:32], 256), (x >= np.float16(0.5)).astype(np.uint8))


def test_compare_count_not_whole_repeats(binary: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(22)
    x, y = rng.standard_normal(128).astype(np.float32), rng.standard_normal(128).astype(np.float32)
    r = run_case(binary, 22, tmp_path, a=x, b=y)
    assert r.rc == 1 and r.checks() == {"compare-count"} and "last 36 results" in r.errors()[0]["message"]
    out = np.frombuffer(r.out[:64], np.uint8)
    assert np.array_equal(bits(r.out[:8], 64), (x[:64] > y[:64]).astype(np.uint8))
    assert np.all(out[8:] == 0xAA)  # elements 64..99 were not compared


def test_compare_int32_needs_eq_on_a2(binary: Path, tmp_path: Path) -> None:
    x = np.arange(64, dtype=np.int32)
    r = run_case(binary, 23, tmp_path, a=x, b=x[::-1].copy())
    assert r.rc == 1 and r.checks() == {"dtype-unsupported"} and "CMPMODE::EQ" in r.errors()[0]["message"]
    r = run_case(binary, 23, tmp_path, a=x, b=x[::-1].copy(), soc="Ascend950")
    clean(r)
    assert np.array_equal(bits(r.out[:8], 64), (x > x[::-1]).astype(np.uint8))


def test_compare_to_register_and_get_cmp_mask(binary: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(24)
    x, y = rng.standard_normal(64).astype(np.float32), rng.standard_normal(64).astype(np.float32)
    r = run_case(binary, 24, tmp_path, a=x, b=y)
    clean(r)
    reg = bits(r.out[:16], 128)
    assert np.array_equal(reg[:32], (x[:32] < y[:32]).astype(np.uint8))
    assert not reg[32:].any()  # masked lanes and the unused half read 0
    assert np.all(np.frombuffer(r.out[16:128], np.uint8) == 0xAA)


@pytest.fixture()
def sel_inputs() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(30)
    return (rng.standard_normal(128).astype(np.float32), rng.standard_normal(128).astype(np.float32),
            rng.integers(0, 256, 32).astype(np.uint8))


@pytest.mark.parametrize("case", [30, 31, 32])
def test_select_mask_forms(binary: Path, tmp_path: Path, sel_inputs: tuple, case: int) -> None:
    x, y, sel = sel_inputs
    r = run_case(binary, case, tmp_path, a=x, b=y, c=sel)
    clean(r)
    sb = np.unpackbits(sel, bitorder="little")
    exp = np.full(128, -1.0, np.float32)
    for rep in range(2):
        for lane in range(40):
            i = rep * 64 + lane
            bit = sb[lane] if case == 30 else sb[i]  # mode 0 reuses the first 64 bits every repeat
            other = np.float32(7.0) if case == 32 else y[i]
            exp[i] = x[i] if bit else other
    assert np.array_equal(r.array(np.float32, 128), exp)


@pytest.mark.parametrize("case", [33, 34, 35, 36])
def test_select_register_forms(binary: Path, tmp_path: Path, sel_inputs: tuple, case: int) -> None:
    x, y, sel = sel_inputs
    r = run_case(binary, case, tmp_path, a=x, b=y, c=sel)
    clean(r)
    sb = np.unpackbits(sel, bitorder="little")
    gt = (x[:64] > y[:64]).astype(np.uint8)
    exp = np.empty(128, np.float32)
    for i in range(128):
        lane = i % 64
        bit = {33: sb[lane], 34: gt[lane], 35: sb[i], 36: sb[i]}[case]
        exp[i] = x[i] if bit else (np.float32(9.0) if case == 36 else y[i])
    assert np.array_equal(r.array(np.float32, 128), exp)


def test_compare_nan_and_inf(binary: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(25)
    special = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0], np.float32)
    x = rng.choice(special, 64).astype(np.float32)
    y = rng.choice(special, 64).astype(np.float32)
    r = run_case(binary, 25, tmp_path, a=x, b=y)
    clean(r)
    with np.errstate(invalid="ignore"):
        want = [x < y, x > y, x == y, x <= y, x >= y, x != y]  # IEEE: NaN compares false except !=
    for k, w in enumerate(want):
        assert np.array_equal(bits(r.out[32 * k:32 * k + 8], 64), w.astype(np.uint8)), k


def test_reduce_max_min_with_infinities(binary: Path, tmp_path: Path) -> None:
    x = np.random.default_rng(26).standard_normal(256).astype(np.float32)
    x[77], x[200] = np.inf, -np.inf
    r = run_case(binary, 26, tmp_path, a=x)
    clean(r)
    out = r.array(np.float32, 8)
    assert out[0] == np.inf and out[1:2].view(np.uint32)[0] == 77
    assert out[4] == -np.inf and out[5:6].view(np.uint32)[0] == 200
