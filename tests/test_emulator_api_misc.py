"""Compound and conversion ops, DEQSCALE, shifts, the Ascend950 ISASI ops, scalar APIs and vector APIs used as
function pointers, on the emulator and checked against NumPy (cases in tests/emulator_cpp/api_misc.cpp)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.emu_api import CPP, CaseRun, compile_cases, run_case

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")]
f32, f16 = np.float32, np.float16


@pytest.fixture(scope="module")
def binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_cases("api_misc.cpp", tmp_path_factory.mktemp("misc"))


def clean(r: CaseRun) -> None:
    assert r.rc == 0 and r.report == [], r.report


def test_mul_add_relu(binary: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    x, y, d = (rng.standard_normal(256).astype(f32) for _ in range(3))
    r = run_case(binary, 1, tmp_path, a=x, b=y, c=d)
    clean(r)
    out = r.array(f32, 256)
    full = np.maximum((x * d).astype(f32) + y, f32(0))
    assert np.array_equal(out[:128], full[:128])
    lanes = np.array([128 + rep * 64 + lane for rep in range(2) for lane in range(32)])
    exp = d.copy()
    exp[:128] = full[:128]
    exp[lanes] = full[lanes]
    assert np.array_equal(out, exp)


def to_int8(h: np.ndarray) -> np.ndarray:
    return np.clip(np.rint(h.astype(np.float64)), -128, 127).astype(np.int8)


def test_relu_cast_and_mul_cast(binary: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    x = rng.uniform(-100, 100, 256).astype(f16)
    y = rng.uniform(-100, 100, 256).astype(f16)
    r = run_case(binary, 2, tmp_path, a=x, b=y)
    clean(r)
    s = (x.astype(f32) + y.astype(f32)).astype(f16)
    assert np.array_equal(r.array(np.int8, 256), to_int8(np.maximum(s, f16(0))))
    p = (x.astype(f32) * y.astype(f32)).astype(f16)  # overflows to inf for large products: saturates
    with np.errstate(invalid="ignore"):
        assert np.array_equal(r.array(np.int8, 256, offset_bytes=256), to_int8(p))
    xf = x.astype(f32)
    assert np.array_equal(r.array(f16, 64, offset_bytes=512), np.maximum(xf[:64] - xf[64:128], 0).astype(f16))


def test_deqscale_int32_to_half(binary: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    x = rng.integers(-5000, 5000, 64).astype(np.int32)
    y = rng.integers(-5000, 5000, 64).astype(np.int32)
    r = run_case(binary, 3, tmp_path, a=x, b=y)
    clean(r)
    assert np.array_equal(r.array(f16, 64), (x * 0.25).astype(f16))
    assert np.array_equal(r.array(f16, 64, offset_bytes=128), np.maximum((x + y) * 0.25, 0).astype(f16))
    r = run_case(binary, 4, tmp_path, a=x, b=y)  # no SetDeqScale: warned (the NPU result is undefined)
    assert r.rc == 0 and r.checks() == {"deqscale-unset"} and len(r.report) == 2
    assert {x_["api"] for x_ in r.report} == {"Cast", "AddDeqRelu"}


def test_cast_dequant_int16_to_int8(binary: Path, tmp_path: Path) -> None:
    x = np.random.default_rng(5).integers(-400, 400, 64).astype(np.int16)
    r = run_case(binary, 5, tmp_path, a=x)
    clean(r)
    q = np.clip(np.rint(x * 0.5) + 3, -128, 127).astype(np.int8)
    half_block = r.array(np.int8, 128).reshape(4, 32)
    assert np.array_equal(half_block[:, :16].ravel(), q)  # 16 results in the lower half of each 32-B block
    assert np.all(half_block[:, 16:] == 0x7F)
    assert np.array_equal(r.array(np.int8, 64, offset_bytes=128), q)


def test_fused_mul_add_family_bit_mask(binary: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(6)
    x, y, d = (rng.uniform(-2, 2, 128).astype(f16) for _ in range(3))
    r = run_case(binary, 6, tmp_path, a=x, b=y, c=d)
    clean(r)
    on = np.zeros(128, bool)
    on[:32] = True
    on[112:] = True
    xf, yf, df = x.astype(f32), y.astype(f32), d.astype(f32)
    for k, val in enumerate([xf * df + yf, xf * yf + df, df + xf * f32(0.5)]):
        exp = d.copy()
        exp[on] = val[on].astype(f16)
        assert np.array_equal(r.array(f16, 128, offset_bytes=256 * k), exp)


def test_shift_right_round_and_duplicate_from_tensor(binary: Path, tmp_path: Path) -> None:
    x = np.random.default_rng(7).integers(-1000, 1000, 64).astype(np.int32)
    r = run_case(binary, 7, tmp_path, a=x, soc="Ascend950")  # Duplicate from a tensor: Ascend950 only
    clean(r)
    assert np.array_equal(r.array(np.int32, 64), (x >> 3) + ((x >> 2) & 1))
    assert np.all(r.array(np.int32, 64, offset_bytes=256) == x[8])
    r = run_case(binary, 7, tmp_path, a=x)
    assert r.rc == 1 and r.checks() == {"api-unavailable"} and r.report[0]["api"] == "Duplicate"


def test_static_gm_table_of_the_kernel_is_readable_not_writable(binary: Path, tmp_path: Path) -> None:
    r = run_case(binary, 17, tmp_path)
    clean(r)
    assert np.array_equal(r.array(np.int32, 64), np.arange(64) * 3)
    r = run_case(binary, 18, tmp_path)
    assert r.rc == 1 and r.checks() == {"gm-bounds"}


def test_shifts_by_the_element_width(binary: Path, tmp_path: Path) -> None:
    """Reg ShiftRight.md / ShiftLeft.md: a count of the width or more gives the sign fill (arithmetic) or 0, as
    public kernels rely on for |x| = (x ^ (x >> 32)) - (x >> 32); C++ leaves such shifts undefined."""
    x = np.random.default_rng(9).integers(-1000, 1000, 64).astype(np.int32)
    r = run_case(binary, 16, tmp_path, a=x)
    clean(r)
    assert np.array_equal(r.array(np.int32, 64), np.where(x < 0, -1, 0))
    assert np.all(r.array(np.int32, 64, offset_bytes=256) == 0)


def test_ascend950_isasi_ops(binary: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(8)
    x = rng.integers(-100000, 100000, 64).astype(np.int32)
    s = rng.integers(0, 40, 64).astype(np.int32)
    s[48:56] = rng.integers(-70000, 70000, 8)  # Mull operands
    x[:8] = rng.integers(-5, 5, 8)  # ExpSub operands: keep exp(f - x) finite
    f = rng.uniform(-3, 3, 64).astype(f32)
    r = run_case(binary, 8, tmp_path, a=x, b=s, c=f, soc="Ascend950")
    clean(r)
    d = r.array(np.int32, 64)
    sh = s[:16].astype(np.int64)
    assert np.array_equal(d[:16], np.where(sh >= 32, 0, (x[:16].astype(np.int64) << np.minimum(sh, 31)) & 0xFFFFFFFF)
                          .astype(np.uint32).view(np.int32))
    sr = s[16:32]
    assert np.array_equal(d[16:32], np.where(sr >= 32, np.where(x[16:32] < 0, -1, 0), x[16:32] >> np.minimum(sr, 31)))
    assert np.array_equal(d[32:48], -x[32:48])
    prod = x[48:56].astype(np.int64) * s[48:56].astype(np.int64)
    assert np.array_equal(d[48:56], (prod & 0xFFFFFFFF).astype(np.uint32).view(np.int32))
    assert np.array_equal(d[56:64], (prod >> 32).astype(np.int32))
    out = r.array(f32, 128, offset_bytes=256)
    g = x.astype(f32)
    assert np.allclose(out[:8], np.exp(f[:8] - g[:8]), rtol=1e-6)
    assert np.array_equal(out[8:16], np.floor(f[8:16]))
    assert np.array_equal(out[16:24], np.sign(f[16:24]) * np.floor(np.abs(f[16:24]) + 0.5))
    assert np.array_equal(out[24:32], np.where(f[24:32] >= 0, f[24:32], f[24:32] * g[24:32]))
    assert np.array_equal(out[32:40], np.abs(f[32:40] - g[32:40]))
    assert np.array_equal(out[64:80], np.stack([f[:8], f[8:16]], axis=1).ravel())
    assert np.array_equal(out[80:88], f[16:32:2]) and np.array_equal(out[88:96], f[17:32:2])
    r = run_case(binary, 8, tmp_path, a=x, b=s, c=f, soc="Ascend910B")  # none of them exists on A2
    assert r.rc == 1 and r.checks() == {"api-unavailable"}


def test_function_pointer_forms(binary: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(9)
    x = rng.uniform(0.5, 2, 256).astype(f32)
    y = rng.uniform(0.5, 2, 256).astype(f32)
    r = run_case(binary, 9, tmp_path, a=x, b=y)
    clean(r)
    out = r.array(f32, 256)
    assert np.array_equal(out[:64], x[:64] / y[:64])
    assert np.array_equal(out[64:128], np.maximum(x[64:128], y[64:128]))
    assert np.allclose(out[128:192], np.exp(x[128:192]), rtol=1e-6)
    assert np.array_equal(out[192:], x[192:] * f32(3))


def test_function_pointer_bug_is_reported_near_the_call(binary: Path, tmp_path: Path) -> None:
    r = run_case(binary, 10, tmp_path, a=np.zeros(256, f32), b=np.zeros(256, f32))
    assert r.rc == 1 and "local-bounds" in r.checks()
    lines = (CPP / "api_misc.cpp").read_text().splitlines()
    dup = next(i + 1 for i, t in enumerate(lines) if "Duplicate(d, 0.0f, 64);" in t)
    err = next(x_ for x_ in r.errors() if x_["check"] == "local-bounds")
    assert err["file"].endswith("api_misc.cpp") and err["line"] == dup and err["api"] == "Add"


def test_scalar_apis(binary: Path, tmp_path: Path) -> None:
    a = np.arange(8, dtype=f32) * 1.5
    r = run_case(binary, 11, tmp_path, a=a)
    clean(r)
    f = r.array(f32, 6)
    assert f[0] == 1.0  # 1 + 2^-8 is halfway between two bfloat16 values: ties to even
    assert f[1] == 3.140625 and f[2] == f32(f16(0.1)) and f[3] == -3 and f[4] == -3 and f[5] == 3.0
    assert list(r.array(np.int64, 7, offset_bytes=256)) == [8, 56, 16, 8, -1, 6, 64]


def test_whole_tensor_operators(binary: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(12)
    x, y = rng.uniform(0.5, 2, 256).astype(f32), rng.uniform(0.5, 2, 256).astype(f32)
    r = run_case(binary, 12, tmp_path, a=x, b=y)
    clean(r)
    out = r.array(f32, 256)
    assert np.array_equal(out[:64], x[:64] * y[:64])
    assert np.array_equal(out[64:128], x[:64] + y[:64])
    assert np.array_equal(out[128:], x[:128] / y[:128])
    assert np.array_equal(np.unpackbits(np.frombuffer(r.out[1024:1056], np.uint8), bitorder="little"),
                          (x < y).astype(np.uint8))


def test_cast_dequant_vector_quantisation(binary: Path, tmp_path: Path) -> None:
    x = np.random.default_rng(13).integers(-300, 300, 64).astype(np.int16)
    r = run_case(binary, 13, tmp_path, a=x)
    clean(r)
    j = np.arange(64) % 16
    v = np.rint(x * (0.5 * (j + 1))) + (j - 8)
    signed = j % 2 == 0
    exp = np.where(signed, np.clip(v, -128, 127), np.clip(v, 0, 255)).astype(np.int64) & 0xFF
    assert np.array_equal(np.frombuffer(r.out[:64], np.uint8), exp.astype(np.uint8))


def test_level0_function_pointer_and_direct_call_line(binary: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(14)
    x = rng.standard_normal(64).astype(f32)
    d = rng.standard_normal(256).astype(f32)
    r = run_case(binary, 14, tmp_path, a=x, b=d)
    assert r.rc == 1 and r.checks() == {"mask-range"}
    lines = (CPP / "api_misc.cpp").read_text().splitlines()
    mul = next(i + 1 for i, t in enumerate(lines) if "Mul(d, d, d, badMask, rep" in t)
    assert r.report[0]["line"] == mul  # a direct call with a uint8_t repeat count still reports its own line
    out = r.array(f32, 256)
    sub = np.tile(x[:8], 32) - d  # src0 block stride 0 and repeat stride 0: its first block in every position
    assert np.array_equal(out[64:], sub[64:])  # the bad Mul squared only the first repeat's lanes


def test_element_types_per_soc(binary: Path, tmp_path: Path) -> None:
    r = run_case(binary, 15, tmp_path)
    assert r.rc == 1 and r.checks() == {"dtype-unsupported"}
    msgs = sorted((x["api"], x["message"]) for x in r.report)
    assert len(msgs) == 2 and msgs[0][0] == "Add" and "int8_t" in msgs[0][1] and "Ascend910B" in msgs[0][1]
    assert msgs[1][0] == "Cast" and "float->int8_t" in msgs[1][1]
    r = run_case(binary, 15, tmp_path, soc="Ascend950")  # Add<int8_t> exists there, float->int8_t still not
    assert [x["api"] for x in r.report] == ["Cast"]
