"""Softmax family on the emulator against the Python formulas of the devkit pages (tests/emulator_cpp/
adv_softmax.cpp): SoftMax with a padded last axis, SimpleSoftMax, the SoftmaxFlashV2 update chain (which must
equal a softmax over both chunks), SoftmaxGrad(Front), LogSoftMax (log10), SoftmaxFlashV3 and AdjustSoftMaxRes;
half and float; and a tiling computed for more temporary space than the kernel passes."""

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

M, K, ORI_K = 8, 64, 50
DTYPES = {"float": np.float32, "half": np.float16}


@pytest.fixture(scope="module")
def bins(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("adv_softmax")
    jobs = {"float": ("-DADV_DTYPE=float", "-DADV_FLOAT"), "half": ("-DADV_DTYPE=half",)}
    jobs["bug"] = ("-DBUG_TILING_TMP", "-DADV_FLOAT")
    with ThreadPoolExecutor(max_workers=2) as ex:
        futs = [ex.submit(_compile, CPP / "adv_softmax.cpp", d / n, defs) for n, defs in jobs.items()]
        for f in futs:
            f.result()
    return {n: d / n for n in jobs}


def _softmax(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    mx = x[:, :ORI_K].max(1, keepdims=True)
    e = np.exp(x - mx)
    s = e[:, :ORI_K].sum(1, keepdims=True)
    return e / s, mx, s


@pytest.mark.parametrize("tname", sorted(DTYPES))
def test_softmax_family_matches_numpy(tname: str, bins: dict[str, Path], tmp_path: Path) -> None:
    dtype = DTYPES[tname]
    rng = np.random.default_rng(11)
    x = rng.uniform(-3, 3, (M, K)).astype(dtype)
    y = rng.uniform(-3, 5, (M, K)).astype(dtype)
    x[2, :ORI_K] = np.minimum(x[2, :ORI_K], 3.5)
    x[2, 7] = 4.0  # row 2's max is exactly 4.0: AdjustSoftMaxRes rewrites that row
    x[5, ORI_K:] = 100.0  # padding past oriSrcK must not take part in the row max / sum
    x.tofile(tmp_path / "x.bin")
    y.tofile(tmp_path / "y.bin")
    rc, report, trace = _run(bins[tname], tmp_path)
    assert rc == 0 and report == [], report
    d = np.fromfile(tmp_path / "zd.out.bin", dtype=dtype).reshape(8, M, K).astype(np.float64)
    blk = np.fromfile(tmp_path / "zb.out.bin", dtype=np.float32).reshape(12, M, 8).astype(np.float64)
    xd, yd = x.astype(np.float64), y.astype(np.float64)
    rtol, atol = (1e-5, 1e-6) if tname == "float" else (2e-3, 2e-3)

    def close(got: np.ndarray, want: np.ndarray, what: str) -> None:
        if got.ndim == 2 and got.shape[1] == K:  # past oriSrcK the results are not specified (exp may overflow)
            got, want = got[:, :ORI_K], want[:, :ORI_K]
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=f"{what} ({tname})")

    sm, mx, s = _softmax(xd)
    adjusted = sm.copy()
    if tname == "float":
        adjusted[2] = -1.0
    close(d[0], adjusted, "SoftMax (+AdjustSoftMaxRes)")
    assert (blk[0] == blk[0][:, :1]).all() and (blk[1] == blk[1][:, :1]).all()  # one value per 32-byte block
    close(blk[0][:, 0], s[:, 0], "SoftMax sum")
    close(blk[1][:, 0], mx[:, 0], "SoftMax max")
    close(d[1], sm, "SimpleSoftMax")
    # FlashV2 chain: chunk a, then update with chunk b; exp(x - m_final) / s_final over both = softmax of [a, b]
    m1 = xd[:, :ORI_K].max(1, keepdims=True)
    s1 = np.exp(xd - m1)[:, :ORI_K].sum(1, keepdims=True)
    close(d[2], np.exp(xd - m1), "FlashV2 dst")
    m2 = np.maximum(m1, yd[:, :ORI_K].max(1, keepdims=True))
    exp_max = np.exp(m1 - m2)
    s2 = exp_max * s1 + np.exp(yd - m2)[:, :ORI_K].sum(1, keepdims=True)
    close(d[3], np.exp(yd - m2), "FlashV2 update dst")
    close(blk[4][:, 0], s2[:, 0], "FlashV2 update sum")
    close(blk[5][:, 0], m2[:, 0], "FlashV2 update max")
    both = np.concatenate([xd[:, :ORI_K], yd[:, :ORI_K]], 1)
    full = np.exp(both - both.max(1, keepdims=True))
    full /= full.sum(1, keepdims=True)
    close(np.concatenate([d[2][:, :ORI_K] * exp_max, d[3][:, :ORI_K]], 1) / blk[4][:, :1], full, "flash = softmax")
    per_row = 32 // np.dtype(dtype).itemsize
    close(d[7].reshape(-1)[: M * per_row].reshape(M, per_row)[:, 0], exp_max[:, 0], "FlashV2 expMax")
    if tname == "float":
        g = (yd * sm)[:, :ORI_K].sum(1, keepdims=True)
        close(d[4], (yd - g) * sm, "SoftmaxGrad")
        close(blk[6][:, 0], g[:, 0], "SoftmaxGradFront")
        close(d[5], np.log10(sm), "LogSoftMax (log10)")
        # SoftmaxFlashV3 (update false), SoftmaxFlashV3.md pseudo-code with 8 groups of 8 columns
        scalar = 0.9 / (1 - 0.9)
        gmean = xd.mean(1, keepdims=True)
        lmean = xd.reshape(M, 8, 8).mean(2)
        xs = xd - np.repeat((gmean - lmean) * scalar, 8, axis=1)
        xm = xs.max(1, keepdims=True)
        close(d[6], np.exp(xs - xm), "FlashV3 dst")
        close(blk[11][:, 0], xm[:, 0], "FlashV3 max")
        close(blk[10][:, 0], np.exp(xs - xm).sum(1), "FlashV3 sum")
        close(blk[9][:, 0], gmean[:, 0], "FlashV3 mean")
    apis = {e["adv"] for e in trace if e.get("adv")}
    assert {"SoftMax", "SimpleSoftMax", "SoftmaxFlashV2"} <= apis
    assert all(e["elements"] == M * K for e in trace if e.get("adv") == "SoftMax")


def test_tiling_for_more_tmp_than_passed_is_reported(bins: dict[str, Path], tmp_path: Path) -> None:
    np.zeros((M, K), np.float32).tofile(tmp_path / "x.bin")
    np.zeros((M, K), np.float32).tofile(tmp_path / "y.bin")
    rc, report, _ = _run(bins["bug"], tmp_path)
    assert rc == 1
    bad = [r for r in report if r["check"] == "tmp-buffer-size"]
    assert bad and bad[0]["api"] == "SoftMax" and bad[0]["category"] == "ub-out-of-bounds"
    assert "splitM=8" in bad[0]["message"] and bad[0]["line"] > 0
