"""High-level arrangement, filter and quantisation APIs on the emulator against NumPy (tests/emulator_cpp/
adv_misc.cpp): Broadcast along both axes (and in place), Fill of GM, Pad / UnPad, Select with a byte mask, DropOut
in byte and bit modes, AscendQuant (the documented half chain, round half to even, saturation), AscendDequant
(calCount of each row, rows padded to 32 B), AscendAntiQuant per channel and transposed per tensor."""

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

SLOT = 1024
f16, f32 = np.float16, np.float32


def _quant(x: np.ndarray, scale: np.ndarray | float, offset: float) -> np.ndarray:
    """AscendQuant.md: operands converted to half, product and sum rounded to half, rint, saturate to int8."""
    t = (x.astype(f16).astype(f32) * np.asarray(scale).astype(f16).astype(f32)).astype(f16)
    u = (t.astype(f32) + np.float32(f16(offset))).astype(f16).astype(f32)
    return np.clip(np.rint(u), -128, 127).astype(np.int8)


def test_arrangement_filter_quant(tmp_path: Path) -> None:
    _compile(CPP / "adv_misc.cpp", tmp_path / "misc")
    rng = np.random.default_rng(5)
    x = rng.uniform(-4, 4, 1024).astype(f32)
    q = rng.integers(-1000, 1000, 256).astype(np.int32)
    m = rng.integers(0, 256, 256).astype(np.uint8)
    m[::3] = 0
    x.tofile(tmp_path / "x.bin")
    q.tofile(tmp_path / "q.bin")
    m.tofile(tmp_path / "m.bin")
    rc, report, trace = _run(tmp_path / "misc", tmp_path)
    assert rc == 0 and report == [], report
    z = np.fromfile(tmp_path / "z.out.bin", dtype=np.uint8).reshape(16, SLOT)

    def slot(i: int, dt: type, n: int) -> np.ndarray:
        return z[i].view(dt)[:n]

    np.testing.assert_array_equal(slot(0, f32, 120).reshape(4, 30), np.repeat(x[:4, None], 30, 1))
    np.testing.assert_array_equal(slot(1, f32, 128).reshape(8, 16), np.tile(x[16:32], (8, 1)))
    pad = np.full((8, 8), 5, f32)
    pad[:, :7] = x[:56].reshape(8, 7)
    np.testing.assert_array_equal(slot(2, f32, 64).reshape(8, 8), pad)
    np.testing.assert_array_equal(slot(3, f32, 48).reshape(8, 6), x[:64].reshape(8, 8)[:, 1:7])
    h = x[:64].astype(f16).reshape(4, 16)
    mk = m[:128].reshape(4, 32)[:, :16]
    np.testing.assert_array_equal(slot(4, f16, 64).reshape(4, 16), np.where(mk == 0, h, f16(9)))
    keep = mk != 0
    np.testing.assert_array_equal(slot(5, f32, 64).reshape(4, 16),
                                  np.where(keep, x[:64].reshape(4, 16) * np.float32(1 / np.float32(0.8)), 0))
    bits = np.unpackbits(m[:32], bitorder="little").reshape(4, 64).astype(bool)
    np.testing.assert_array_equal(slot(6, f32, 256).reshape(4, 64), np.where(bits, x[:256].reshape(4, 64) * 2, 0))
    np.testing.assert_array_equal(slot(7, np.int8, 256), _quant(x[:256], 3.0, 1.5))
    np.testing.assert_array_equal(slot(8, np.int8, 256), _quant(x[:256], np.resize(x[512:528], 256), 0.25))
    deq = np.zeros((4, 64), f32)
    deq[:, :40] = q.reshape(4, 64)[:, :40].astype(f32) * x[768:808]
    np.testing.assert_array_equal(slot(9, f32, 256).reshape(4, 64), deq)
    np.testing.assert_array_equal(slot(10, f16, 128), (q[:128].astype(f32) * np.float32(0.5)).astype(f16))
    i8 = np.clip(np.rint(x[:256].astype(f16).astype(f32)), -128, 127).astype(np.int8).reshape(8, 32)
    off, scl = x[256:288].astype(f16), x[288:320].astype(f16)
    want = ((i8.astype(f32) + off.astype(f32)).astype(f16).astype(f32) * scl.astype(f32)).astype(f16)
    np.testing.assert_array_equal(slot(11, f16, 256).reshape(8, 32), want)
    want_t = ((i8.astype(f32) - 2).astype(f16).astype(f32) * np.float32(0.5)).astype(f16)
    np.testing.assert_array_equal(slot(12, f16, 256).reshape(8, 32), want_t)
    g = np.fromfile(tmp_path / "g.out.bin", dtype=np.uint16)
    assert np.all(g[:200].view(f16) == 7) and np.all(g[200:] == 0xFFFF)  # Fill wrote exactly 200 elements
    fills = [e for e in trace if e["api"] == "InitGlobalMemory" and e["pipe"] == "mte3"]  # Fill's other name
    assert fills and fills[0]["bytes"] == 400
    assert {"BroadCast", "Broadcast", "Pad", "UnPad", "Select", "DropOut", "AscendQuant", "AscendDequant",
            "AscendAntiQuant"} <= {e.get("adv") for e in trace}


def test_forms_public_kernels_use(tmp_path: Path) -> None:
    """adv_compat.cpp: Acos as a template argument and Tanh through a pointer compute like direct calls;
    SelectWithBytesMask is the byte-mask Select; Broadcast of bfloat16_t runs on Ascend 950 and is reported
    (adv-dtype, at the call's line) on the Ascend910B profile, whose page lists int8_t/uint8_t/half/float; integer
    Power (square-and-multiply, wrapping; a negative exponent truncates 1 / base^n) in int32_t, and in int16_t
    on Ascend 950 only."""
    from ascendc_lsp.toolchain.emulator.soc import load_soc

    _compile(CPP / "adv_compat.cpp", tmp_path / "compat")
    rng = np.random.default_rng(11)
    x = rng.uniform(-1, 1, 256).astype(f32)
    m = rng.integers(0, 3, 256).astype(np.uint8)
    x.tofile(tmp_path / "x.bin")
    m.tofile(tmp_path / "m.bin")
    bases = rng.integers(-3, 4, 64).astype(np.int32)
    bases[:4] = [2, 2, 1, -1]
    exps = rng.integers(-2, 11, 64).astype(np.int32)
    exps[:4] = [31, 40, -3, -3]  # 2^31 wraps to INT32_MIN, 2^40 to 0; 1^-3 = 1, (-1)^-3 = -1
    np.concatenate([bases, exps]).tofile(tmp_path / "p.bin")

    def ipow(b: np.ndarray, e: np.ndarray, dt: type) -> np.ndarray:
        out = []
        for bb, ee in zip(b.tolist(), np.broadcast_to(e, b.shape).tolist(), strict=True):
            if ee < 0:
                out.append(1 if bb == 1 else (bb if bb == -1 and ee % 2 else (1 if bb == -1 else 0)))
            else:
                out.append(pow(bb, ee, 1 << 64))
        return np.array([v & ((1 << (8 * np.dtype(dt).itemsize)) - 1) for v in out], np.uint64).astype(dt)

    src_lines = (CPP / "adv_compat.cpp").read_text().splitlines()
    brc_line = next(i for i, s in enumerate(src_lines, 1) if "Broadcast<bfloat16_t" in s)
    pow16_line = next(i for i, s in enumerate(src_lines, 1) if "(int16_t)3" in s)
    for soc in ("Ascend910B", "Ascend950"):
        (tmp_path / "soc.txt").write_text(load_soc(soc).soc_txt())
        rc, report, _ = _run(tmp_path / "compat", tmp_path, "--soc-file", str(tmp_path / "soc.txt"))
        z = np.fromfile(tmp_path / "z.out.bin", dtype=np.uint8).reshape(7, 512)
        np.testing.assert_array_equal(z[4].view(np.int32)[:64], ipow(bases, exps, np.int32))
        np.testing.assert_array_equal(z[5].view(np.int32)[:64], ipow(bases, np.int32(7), np.int32))
        np.testing.assert_allclose(z[0].view(f32)[:64], np.arccos(x[:64]), rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(z[1].view(f32)[:64], np.tanh(x[:64]), rtol=1e-6, atol=1e-6)
        mk = m[:128].reshape(4, 32)[:, :16]
        np.testing.assert_array_equal(z[2].view(f32)[:64].reshape(4, 16), np.where(mk == 0, x[:64].reshape(4, 16), 9))
        if soc == "Ascend910B":
            got = sorted((r["check"], r["line"]) for r in report)
            assert rc != 0 and got == [("adv-dtype", brc_line), ("adv-dtype", pow16_line)], report
            assert all("950" in r["message"] for r in report)
        else:
            assert rc == 0 and report == [], report
            b16 = z[3].view(np.uint16)[:64].astype(np.uint32) << 16
            np.testing.assert_array_equal(z[6].view(np.int16)[:64], ipow(bases.astype(np.int16), np.int16(3), np.int16))
            row = (x[:16].view(np.uint32) + 0x7FFF + ((x[:16].view(np.uint32) >> 16) & 1)) >> 16 << 16  # RNE
            np.testing.assert_array_equal(b16.reshape(4, 16), np.tile(row.astype(np.uint32), (4, 1)))
