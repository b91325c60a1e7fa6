"""AscendQuant with the Ascend 950 8-bit float destinations (tests/emulator_cpp/adv_quant8.cpp) against a NumPy
reference written from the format tables, independently of the C++ encoder: every code of a format is decoded
(内置数据类型.md 表5/表6) and a value is encoded by searching the nearest finite code (fp8_e4m3fn_t / fp8_e5m2_t:
CAST_RINT, ties to the even code; hifloat8_t: CAST_ROUND, ties away from zero), saturating at the largest finite
value (Cast boundary values: Reg矢量计算接口边界值汇总.md 表34). Edge values: NaN, +-inf, +-0, subnormals, ties,
overflow; then random magnitudes over the whole range of each format."""

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

N = 256
f16, f32 = np.float16, np.float32


def decode_ieee8(code: int, eb: int, mb: int, fn: bool) -> float:
    bias = (1 << (eb - 1)) - 1
    e, m, s = (code >> mb) & ((1 << eb) - 1), code & ((1 << mb) - 1), -1.0 if code & 0x80 else 1.0
    if fn and e == (1 << eb) - 1 and m == (1 << mb) - 1:
        return float("nan")
    if not fn and e == (1 << eb) - 1:
        return s * float("inf") if m == 0 else float("nan")
    if e == 0:
        return s * m * 2.0 ** (1 - bias - mb)
    return s * (1 + m / 2**mb) * 2.0 ** (e - bias)


def decode_hif8(code: int) -> float:
    """表6: D = 0000 (subnormal 2^(M-23)), 0001 (Ev 0), 001 (Ev +-1), 01 (+-[2,3]), 10 (+-[4,7]), 11 (+-[8,15]);
    8'b10000000 is NaN, 8'b01101111 / 8'b11101111 are +-inf (Cast.md)."""
    if code == 0x80:
        return float("nan")
    s, u = (-1.0 if code & 0x80 else 1.0), code & 0x7F
    if u == 0x6F:
        return s * float("inf")
    bits = f"{u:07b}"
    if bits.startswith("0000"):
        m = int(bits[4:], 2)
        return s * 2.0 ** (m - 23) if m else 0.0
    if bits.startswith("0001"):
        ev, mant = 0, bits[4:]
    elif bits.startswith("001"):
        ev, mant = (-1 if bits[3] == "1" else 1), bits[4:]
    else:
        width = {"01": 2, "10": 3, "11": 4}[bits[:2]]
        ebits, mant = bits[2:2 + width], bits[2 + width:]
        mag = int("1" + ebits[1:], 2)
        ev = -mag if ebits[0] == "1" else mag
    return s * 2.0**ev * (1 + int(mant, 2) / 2 ** len(mant))


FORMATS = {
    "e4m3": ([decode_ieee8(c, 4, 3, True) for c in range(256)], "even", 0x7F),
    "e5m2": ([decode_ieee8(c, 5, 2, False) for c in range(256)], "even", 0x00),
    "hif8": ([decode_hif8(c) for c in range(256)], "away", 0x80),
}


def encode(x: np.ndarray, fmt: str) -> np.ndarray:
    """Nearest finite code by search (ties: even code or away from zero), saturating; NaN -> the format's
    saturation-mode NaN result (e4m3: NaN, e5m2: 0, hifloat8: NaN); -0 keeps its sign where the format has one."""
    values, ties, nan_code = FORMATS[fmt]
    table = np.array(values)
    finite = [c for c in range(256) if np.isfinite(table[c]) and not (c & 0x80)]
    pos = np.array(sorted(finite, key=lambda c: table[c]))
    pv = table[pos]
    out = np.zeros(x.shape, np.uint8)
    for i, v in enumerate(x.astype(np.float64)):
        if np.isnan(v):
            out[i] = nan_code
            continue
        a = min(abs(v), pv[-1])
        j = int(np.searchsorted(pv, a))
        if j == 0 or pv[j] == a:
            c = int(pos[j])
        else:
            lo, hi = int(pos[j - 1]), int(pos[j])
            dlo, dhi = a - pv[j - 1], pv[j] - a
            c = lo if dlo < dhi else hi if dhi < dlo else (hi if ties == "away" else (lo if lo % 2 == 0 else hi))
        sign = 0x80 if np.signbit(v) else 0
        if fmt == "hif8" and c == 0:
            sign = 0  # 8'b10000000 is NaN: zero has one code
        out[i] = c | sign
    return out


EDGES = [np.nan, np.inf, -np.inf, 0.0, -0.0, 448.0, 464.0, 480.0, 1e6, -1e6, 2.5, 3.5, -2.5, 2.0**-9, 2.0**-10,
         1.5 * 2.0**-10, 2.0**-16, 2.0**-17, 3 * 2.0**-18, 57344.0, 61440.0, 61439.0, 1.75, 14.0, 15.5, 15.4, 32768.0,
         40000.0, 49152.0, 2.0**-22, 2.0**-23, 1.4 * 2.0**-23, 2.0**-24, 1.5 * 2.0**-20, 1.49 * 2.0**-20,
         1.5 * 2.0**-16, 2.0**-15, 17.0, 19.0, -3.75, 0.1, -0.3, 240.0, 232.0, 0.0625 * 17, 24.0, 20.0, 6.0, 7.0, 9.0, 11.0]


def _inputs(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    rnd = rng.choice([-1.0, 1.0], N) * 2.0 ** rng.uniform(-25, 17, N)
    x = rnd.astype(f32)
    x[: len(EDGES)] = EDGES
    s = np.concatenate([rng.uniform(-2, 2, 32), rng.uniform(-3, 3, 32)]).astype(f32)
    return x, s


def test_edge_values_of_the_reference() -> None:
    """The reference itself, on values whose codes the format pages give: 14 = 8'b0_01_01_110 (表6's example),
    hifloat8 1.75 exact, e4m3 ties to even, e4m3 inf -> 448, e5m2 NaN -> 0, hifloat8 overflow -> 2^15."""
    assert decode_hif8(0b00101110) == 14.0
    assert max(v for v in FORMATS["hif8"][0] if np.isfinite(v)) == 2.0**15
    assert min(v for v in FORMATS["hif8"][0] if v > 0) == 2.0**-22
    assert max(v for v in FORMATS["e4m3"][0] if np.isfinite(v)) == 448.0
    assert max(v for v in FORMATS["e5m2"][0] if np.isfinite(v)) == 57344.0
    got = encode(np.array([14.0, 1.75, 1e9, 2.0**-23, 2.0**-24]), "hif8")
    assert [decode_hif8(int(c)) for c in got] == [14.0, 1.75, 32768.0, 2.0**-22, 0.0]
    # the page's "2.5 -> 2" example illustrates CAST_RINT on integers: 2.5 = 1.010b x 2 is exact in e4m3; 17 and 19
    # are ties between codes 2 apart at 2^4 (16 | 18 | 20): to the even mantissa
    want = [2.5, 448, 16, 20]
    assert [decode_ieee8(int(c), 4, 3, True) for c in encode(np.array([2.5, np.inf, 17, 19]), "e4m3")] == want
    assert encode(np.array([np.nan]), "e5m2")[0] == 0


def test_fp8_destinations_against_numpy(tmp_path: Path) -> None:
    from ascendc_lsp.toolchain.emulator.soc import load_soc

    _compile(CPP / "adv_quant8.cpp", tmp_path / "q8")
    x, s = _inputs(np.random.default_rng(8))
    x.tofile(tmp_path / "x.bin")
    s.tofile(tmp_path / "s.bin")
    (tmp_path / "soc.txt").write_text(load_soc("Ascend950").soc_txt())
    rc, report, trace = _run(tmp_path / "q8", tmp_path, "--soc-file", str(tmp_path / "soc.txt"))
    assert rc == 0 and report == [], report
    z = np.fromfile(tmp_path / "z.out.bin", dtype=np.uint8).reshape(8, N)
    with np.errstate(invalid="ignore", over="ignore"):
        plain = x * f32(1) + f32(0)  # the fp32 chain: -0 * 1 + 0 is +0
        np.testing.assert_array_equal(z[0], encode(plain, "e4m3"))
        np.testing.assert_array_equal(z[1], encode(plain, "e5m2"))
        np.testing.assert_array_equal(z[2], encode(plain, "hif8"))
        np.testing.assert_array_equal(z[3], encode(x * f32(0.75) + f32(-1.25), "e4m3"))
        np.testing.assert_array_equal(z[4], encode(x * np.resize(s[:32], N) + f32(0.5), "e5m2"))
        h = x.astype(f16).astype(f32)
        sh, oh = s[:32].astype(f16).astype(f32), s[32:].astype(f16).astype(f32)
        np.testing.assert_array_equal(z[5], encode(h * np.resize(sh, N) + np.resize(oh, N), "hif8"))
        t = (x.astype(f16).astype(f32) * f32(3)).astype(f16)
        u = (t.astype(f32) + f32(1.5)).astype(f16).astype(f32)
        want_i8 = np.clip(np.nan_to_num(np.rint(u), nan=0), -128, 127).astype(np.int8)
    np.testing.assert_array_equal(z[6].view(np.int8), want_i8)
    # scalar types: hifloat8_t(1.75) exact; fp8_e4m3fn_t(17) = 16 and fp8_e5m2_t(-3.75) = -4 (ties to even)
    assert [decode_hif8(int(c)) for c in z[7][:3]] == [1.75, 16.0, -4.0]
    assert list(z[7][8:11]) == [126, 128, 0]
    assert sum(e.get("adv") == "AscendQuant" for e in trace) >= 6


def test_fp8_destinations_are_ascend950_only(tmp_path: Path) -> None:
    from ascendc_lsp.toolchain.emulator.soc import load_soc

    _compile(CPP / "adv_quant8.cpp", tmp_path / "q8")
    x, s = _inputs(np.random.default_rng(8))
    x.tofile(tmp_path / "x.bin")
    s.tofile(tmp_path / "s.bin")
    (tmp_path / "soc.txt").write_text(load_soc("Ascend910B").soc_txt())
    rc, report, _ = _run(tmp_path / "q8", tmp_path, "--soc-file", str(tmp_path / "soc.txt"))
    hits = [r for r in report if r["category"] == "api-signature" and "Ascend 950" in r["message"]]
    assert rc != 0 and hits, report
    assert {"fp8_e4m3fn_t", "fp8_e5m2_t", "hifloat8_t"} <= {w for r in hits for w in r["message"].split()}
