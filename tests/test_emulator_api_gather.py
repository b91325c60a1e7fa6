"""Gather / Scatter / GatherMask / CreateVecIndex / Arange / Copy on the emulator, checked against NumPy
(cases in tests/emulator_cpp/api_gather.cpp)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.emu_api import CaseRun, compile_cases, run_case

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")]


@pytest.fixture(scope="module")
def binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_cases("api_gather.cpp", tmp_path_factory.mktemp("gather"))


def clean(r: CaseRun) -> None:
    assert r.rc == 0 and r.report == [], r.report


def lane_positions(lanes: int, repeat: int, mask: int | tuple[int, int], blk: int, rep: int, sz: int) -> list[int]:
    """Element offsets (in elements) of the active lanes of a level-0 call, in issue order."""
    epb = 32 // sz
    out = []
    for r in range(repeat):
        for lane in range(lanes):
            on = lane < mask if isinstance(mask, int) else (mask[lane // 64] >> (lane % 64)) & 1
            if on:
                out.append(r * rep * epb + (lane // epb) * blk * epb + lane % epb)
    return out


def test_gather_count_half(binary: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    src = (np.arange(16384) % 2048).astype(np.float16)
    off = rng.integers(0, 16384, 256).astype(np.uint32) * 2
    r = run_case(binary, 1, tmp_path, a=src, b=off)
    clean(r)
    exp = np.zeros(512, np.float16)
    exp[:200] = src[off[:200] // 2]
    assert np.array_equal(r.array(np.float16, 512), exp)  # count 200: the tail stays untouched


def test_gather_count_float_base_address(binary: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    src = rng.standard_normal(8192).astype(np.float32)
    off = rng.integers(0, 8000, 256).astype(np.uint32) * 4
    r = run_case(binary, 2, tmp_path, a=src, b=off)
    clean(r)
    assert np.array_equal(r.array(np.float32, 256), src[(off + 64) // 4])  # srcBaseAddr 64 B


@pytest.mark.parametrize("case", [3, 4, 5])
def test_gather_mask_forms(binary: Path, tmp_path: Path, case: int) -> None:
    rng = np.random.default_rng(case)
    src = rng.standard_normal(2048).astype(np.float32)
    off = rng.integers(0, 2048, 256).astype(np.uint32) * 4
    r = run_case(binary, case, tmp_path, a=src, b=off)
    clean(r)
    exp = np.full(1024, -1.0, np.float32)
    if case == 3:  # 40 lanes, 3 repeats, dstRepStride 16 blocks
        pos = lane_positions(64, 3, 40, 1, 16, 4)
        idx = [rr * 64 + lane for rr in range(3) for lane in range(40)]
    elif case == 4:  # bit mask 0x...0F0F0F0F, 2 repeats, dstRepStride 8
        m = (0xF0F0F0F00F0F0F0F, 0)
        pos = lane_positions(64, 2, m, 1, 8, 4)
        idx = [rr * 64 + lane for rr in range(2) for lane in range(64) if (m[0] >> lane) & 1]
    else:  # counter mode: the first 150 elements, repeats follow from the count
        pos, idx = list(range(150)), list(range(150))
    exp[pos] = src[off[idx] // 4]
    assert np.array_equal(r.array(np.float32, 1024), exp)


def test_gather_offset_outside_source_is_reported(binary: Path, tmp_path: Path) -> None:
    src = np.arange(2048, dtype=np.float32)
    off = np.arange(256, dtype=np.uint32) * 4
    off[17] = 40000  # past the 32 KB source buffer
    r = run_case(binary, 6, tmp_path, a=src, b=off)
    assert r.rc == 1
    err = [x for x in r.report if x["check"] == "local-bounds"]
    assert err and err[0]["category"] == "ub-out-of-bounds" and "40000" in err[0]["message"]
    assert err[0]["file"].endswith("api_gather.cpp") and err[0]["line"] > 0


def test_scatter_count(binary: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    src = rng.standard_normal(256).astype(np.float32)
    perm = rng.permutation(1024)[:256].astype(np.uint32)
    r = run_case(binary, 7, tmp_path, a=src, b=perm * 4, soc="Ascend310B")
    clean(r)
    exp = np.full(1024, -1.0, np.float32)
    exp[perm] = src
    assert np.array_equal(r.array(np.float32, 1024), exp)
    # Scatter does not exist on Ascend910B: reported as the build would refuse it
    r = run_case(binary, 7, tmp_path, a=src, b=perm * 4, soc="Ascend910B")
    assert r.rc == 1 and r.checks() == {"api-unavailable"}


PATTERNS = {1: lambda i: i % 2 == 0, 2: lambda i: i % 2 == 1, 3: lambda i: i % 4 == 0, 4: lambda i: i % 4 == 1,
            5: lambda i: i % 4 == 2, 6: lambda i: i % 4 == 3, 7: lambda i: True}


@pytest.mark.parametrize("case", [10, 11])
def test_gathermask_builtin_patterns(binary: Path, tmp_path: Path, case: int) -> None:
    src = np.arange(256, dtype=np.float16)
    r = run_case(binary, case, tmp_path, a=src)
    clean(r)
    out = r.array(np.float16, 8 * 256).reshape(8, 256)
    counts = r.array(np.uint32, 8, offset_bytes=8 * 256 * 2)
    n = 128 if case == 10 else 160  # normal mode: one 256-B repeat; counter mode: mask = 160 elements
    for p, sel in PATTERNS.items():
        kept = np.array([i for i in range(n) if sel(i)], np.float16)
        assert counts[p] == len(kept)
        assert np.array_equal(out[p, : len(kept)], kept)
        assert np.all(out[p, len(kept):] == -1)  # the rest of dst is untouched


def test_gathermask_counter_mode_on_310p_counts_in_total(binary: Path, tmp_path: Path) -> None:
    src = np.arange(256, dtype=np.float16)
    r = run_case(binary, 11, tmp_path, a=src, soc="Ascend310P")
    # 310P has built-in patterns 1..6 only: pattern 7 is refused (and keeps nothing)
    assert r.rc == 1 and r.checks() == {"gathermask-pattern"} and "1 ~ 6 on Ascend310P" in r.report[0]["message"]
    counts = r.array(np.uint32, 8, offset_bytes=8 * 256 * 2)
    # 310P: mask is the total element count (160), i.e. one full repeat and 32 elements of the next
    assert counts[1] == 80 and counts[3] == 40 and counts[7] == 0


def test_gathermask_tensor_pattern_counter_mode(binary: Path, tmp_path: Path) -> None:
    src = np.arange(512, dtype=np.float16)
    pat = np.full(64, 0x9999, np.uint16)  # 1001 1001 ...: the 1st and 4th of every 4 elements
    r = run_case(binary, 12, tmp_path, a=src, b=pat)
    clean(r)
    # 2 repeats of 70 elements; the 2nd starts 4 blocks (64 halves) in; the pattern restarts (stride 0)
    kept = [r_ * 64 + i for r_ in range(2) for i in range(70) if i % 4 in (0, 3)]
    assert r.array(np.uint32, 1, offset_bytes=1024)[0] == len(kept)
    assert np.array_equal(r.array(np.float16, len(kept)), src[kept])


def test_gathermask_tensor_pattern_normal_mode_strided(binary: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    src = np.arange(512, dtype=np.float16)
    pat = rng.integers(0, 1 << 16, 64).astype(np.uint16)
    r = run_case(binary, 13, tmp_path, a=src, b=pat)
    clean(r)
    bits = np.unpackbits(pat.view(np.uint8), bitorder="little")
    kept = [rr * 128 + i for rr in range(3) for i in range(128) if bits[rr * 256 + i]]  # pattern moves 32 B/repeat
    assert r.array(np.uint32, 1, offset_bytes=1024)[0] == len(kept)
    assert np.array_equal(r.array(np.float16, len(kept)), src[kept])


def test_gathermask_in_place(binary: Path, tmp_path: Path) -> None:
    src = np.arange(256, dtype=np.float32)
    r = run_case(binary, 14, tmp_path, a=src)
    clean(r)
    assert np.array_equal(r.array(np.float32, 128), src[1::2])


def test_gathermask_bad_pattern_and_dtype(binary: Path, tmp_path: Path) -> None:
    src = np.arange(256, dtype=np.float32)
    r = run_case(binary, 15, tmp_path, a=src)
    assert r.rc == 1 and r.checks() == {"gathermask-pattern"} and "1 ~ 7" in r.report[0]["message"]
    r = run_case(binary, 16, tmp_path, a=np.zeros(256, np.uint16), soc="Ascend310P")
    assert r.rc == 1 and r.checks() == {"dtype-unsupported"}
    assert r.report[0]["category"] == "api-dtype-unsupported" and "bfloat16_t" in r.report[0]["message"]
    r = run_case(binary, 16, tmp_path, a=np.zeros(256, np.uint16), soc="Ascend910B")
    clean(r)


def test_create_vec_index(binary: Path, tmp_path: Path) -> None:
    r = run_case(binary, 20, tmp_path)
    clean(r)
    i32 = r.array(np.int32, 512)
    assert np.array_equal(i32[:300], np.arange(5, 305)) and np.all(i32[300:] == -7)
    f16 = r.array(np.float16, 512, offset_bytes=4096)
    assert np.array_equal(f16[:300], np.arange(-3, 297).astype(np.float16)) and np.all(f16[300:] == -7)
    i16 = r.array(np.int16, 512, offset_bytes=6144)
    exp = np.full(512, -7, np.int16)
    exp[lane_positions(128, 2, 100, 1, 8, 2)] = [rr * 128 + i for rr in range(2) for i in range(100)]
    assert np.array_equal(i16, exp)


def arange_steps(first: float, diff: float, n: int, dt: type) -> np.ndarray:
    """The documented Arange steps: 8 scalar terms, Adds of 8k*diff up to 64, Adds of 64k*diff beyond."""
    t = np.dtype(dt).type
    out = np.zeros(n, dt)
    for i in range(min(n, 8)):
        out[i] = t(np.float32(first) + np.float32(diff) * np.float32(i))
    for i in range(8, min(n, 64)):
        out[i] = t(np.float32(out[i % 8]) + np.float32(t(np.float32(diff) * np.float32(i // 8 * 8))))
    for i in range(64, n):
        out[i] = t(np.float32(out[i % 64]) + np.float32(t(np.float32(diff) * np.float32(i // 64 * 64))))
    return out


def test_arange(binary: Path, tmp_path: Path) -> None:
    r = run_case(binary, 21, tmp_path)
    clean(r)
    f = r.array(np.float32, 512)
    assert np.array_equal(f[:300], arange_steps(0.1, 0.3, 300, np.float32)) and np.all(f[300:] == -1)
    assert np.allclose(f[:300], 0.1 + 0.3 * np.arange(300), rtol=1e-5)
    h = r.array(np.float16, 512, offset_bytes=4096)
    assert np.array_equal(h[:200], (1 + 0.5 * np.arange(200)).astype(np.float16))  # exact in half
    i = r.array(np.int32, 130, offset_bytes=8192)
    assert np.array_equal(i, -5 + 3 * np.arange(130))


def test_copy_mask_forms(binary: Path, tmp_path: Path) -> None:
    src = np.arange(2048, dtype=np.float32)
    r = run_case(binary, 30, tmp_path, a=src)
    clean(r)
    exp = np.full(2048, -1.0, np.float32)
    exp[lane_positions(64, 3, 40, 1, 4, 4)] = src[lane_positions(64, 3, 40, 1, 8, 4)]
    assert np.array_equal(r.array(np.float32, 2048), exp)
    # counter mode: 144 elements in the single repeat, source block stride 8 (first block of each 64-float row)
    r = run_case(binary, 31, tmp_path, a=src)
    clean(r)
    out = r.array(np.float32, 2048)
    rows = np.arange(144) // 8
    assert np.array_equal(out[:144], src[rows * 64 + np.arange(144) % 8])
    assert np.all(out[144:] == -1)


def test_copy_count_form_is_950_only(binary: Path, tmp_path: Path) -> None:
    src = np.arange(2048, dtype=np.float32)
    r = run_case(binary, 32, tmp_path, a=src, soc="Ascend950")
    clean(r)
    assert np.array_equal(r.array(np.float32, 512), src[:512])
    r = run_case(binary, 32, tmp_path, a=src, soc="Ascend910B")
    assert r.rc == 1 and r.checks() == {"api-unavailable"}
