"""High-level reductions on the emulator against NumPy (tests/emulator_cpp/adv_reduce.cpp): Sum and Mean over
padded rows, the AR/RA pattern reductions, CumSum both ways (line by line and Sklansky), in half and float; and
the shape rules the devkit docs state (inner padded to 32 B, srcInnerPad)."""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from tests.test_emulator_headers import CPP, _compile, _run

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed"),
]

NX, SLOT, SLOTS = 2048, 256, 16
DTYPES = {"float": np.float32, "half": np.float16}


def _pad(n: int, size: int) -> int:
    return (n * size + 31) // 32 * 32 // size


@pytest.fixture(scope="module")
def bins(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("adv_reduce")
    with ThreadPoolExecutor(max_workers=2) as ex:
        futs = {t: ex.submit(_compile, CPP / "adv_reduce.cpp", d / t, (f"-DADV_DTYPE={t}",)) for t in DTYPES}
        for f in futs.values():
            f.result()
    return {t: d / t for t in DTYPES}


def _rows(x: np.ndarray, rows: int, n: int, size: int) -> np.ndarray:
    inner = _pad(n, size)
    return x[: rows * inner].reshape(rows, inner)[:, :n]


@pytest.mark.parametrize("tname", sorted(DTYPES))
def test_reductions_match_numpy(tname: str, bins: dict[str, Path], tmp_path: Path) -> None:
    dtype = DTYPES[tname]
    size = np.dtype(dtype).itemsize
    rng = np.random.default_rng(7)
    x = rng.uniform(-2, 2, NX).astype(dtype)
    x[5] = 0.0  # ReduceAll sees a zero in row 0 / column 5
    x.tofile(tmp_path / "x.bin")
    rc, report, trace = _run(bins[tname], tmp_path)
    assert rc == 0 and report == [], report
    z = np.fromfile(tmp_path / "z.out.bin", dtype=dtype).reshape(SLOTS, SLOT).astype(np.float64)
    xd = x.astype(np.float64)
    rtol = 1e-5 if tname == "float" else 4e-3
    atol = 1e-5 if tname == "float" else 2e-2

    def close(got: np.ndarray, want: np.ndarray, what: str) -> None:
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=f"{what} ({tname})")

    close(z[0, :3], _rows(xd, 3, 37, size).sum(1), "Sum")
    close(z[1, :4], _rows(xd, 4, 21, size).mean(1), "Mean<float acc>")
    close(z[2, :2], _rows(xd, 2, 300, size).mean(1), "Mean")
    ar = _rows(xd, 5, 37, size)
    ra = _rows(xd, 7, 20, size)
    close(z[3, :5], ar.sum(1), "ReduceSum AR")
    close(z[4, :20], ra.sum(0), "ReduceSum RA")
    close(z[5, :5], ar.max(1), "ReduceMax AR")
    close(z[6, :20], ra.min(0), "ReduceMin RA")
    if tname == "float":
        close(z[7, :5], ar.mean(1), "ReduceMean AR")
        close(z[8, :20], ra.prod(0), "ReduceProd RA")
        np.testing.assert_array_equal(z[9, :5], np.ones(5))  # ReduceAny: every row has a non-zero
        np.testing.assert_array_equal(z[10, :20], (ra != 0).all(0).astype(float))
        assert z[10, 5] == 0.0
    first = np.cumsum(xd[: 8 * 32].reshape(8, 32).astype(np.float32), axis=0, dtype=np.float32)
    close(z[11, : 8 * 32], first.reshape(-1), "CumSum first axis")
    close(z[13, :32], first[-1], "CumSum last row")
    last = np.cumsum(xd[: 4 * 64].reshape(4, 64), axis=1)
    close(z[12, : 4 * 64], last.reshape(-1), "CumSum last axis (Sklansky)")
    steps = {e["adv"] for e in trace if e.get("adv")}
    assert {"Sum", "Mean", "ReduceSum", "ReduceMax", "ReduceMin", "CumSum"} <= steps


def test_sum_rejects_unpadded_inner(tmp_path: Path) -> None:
    src = tmp_path / "sum_bad.cpp"
    src.write_text(
        '#include "ascendc_emu/harness.h"\n#include "kernel_operator.h"\nusing namespace AscendC;\n'
        "extern \"C\" __global__ __aicore__ void k() {\n"
        "  TPipe pipe; TBuf<TPosition::VECCALC> a, b; pipe.InitBuffer(a, 4096); pipe.InitBuffer(b, 64);\n"
        "  LocalTensor<float> x = a.Get<float>(), y = b.Get<float>(); Duplicate(x, 1.0f, 1024);\n"
        "  Sum(y, x, SumParams{2, 37, 37});\n"  # inner must be 40 for float
        "  uint32_t shape[2] = {3, 37};\n"
        "  ReduceSum<float, Pattern::Reduce::AR>(y, x, shape, false);\n"  # unpadded last axis needs srcInnerPad
        "}\nint main(int c, char** v) { ascendc_emu::Harness h(c, v); h.Launch(1, [&] { k(); }); return h.Finish(); }\n"
    )
    _compile(src, tmp_path / "sum_bad")
    rc, report, _ = _run(tmp_path / "sum_bad", tmp_path)
    assert rc == 1
    bad = [r for r in report if r["check"] == "adv-shape"]
    assert [r["api"] for r in bad] == ["Sum", "ReduceSum"]
    assert "inner must be n rounded up to 32 B" in bad[0]["message"] and "= 40" in bad[0]["message"]
    assert all(r["category"] == "misaligned-access" and r["line"] > 0 for r in bad)
