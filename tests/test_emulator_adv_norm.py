"""High-level normalisations on the emulator against NumPy (tests/emulator_cpp/adv_norm.cpp): LayerNorm in both
forms (padded last axis), Normalize, RmsNorm, DeepNorm, BatchNorm, GroupNorm, WelfordUpdate + WelfordFinalize,
LayerNormGrad + LayerNormGradBeta (the formulas of the devkit's layernorm sample), LayerNorm/RmsNorm in half; and a
LayerNorm tiling that asks for more temporary space than the kernel passes."""

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

R, H, SLOT = 8, 64, 1024
EPS = 1e-5


@pytest.fixture(scope="module")
def bins(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("adv_norm")
    _compile(CPP / "adv_norm.cpp", d / "norm")
    _compile(CPP / "adv_norm.cpp", d / "bug", ("-DBUG_LN_TILING",))
    return {"norm": d / "norm", "bug": d / "bug"}


def _inputs(tmp: Path) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(9)
    v = {
        "x": rng.uniform(-3, 3, (R, H)).astype(np.float32),
        "gx": rng.uniform(-1, 1, (R, H)).astype(np.float32),
        "dy": rng.uniform(-1, 1, (R, H)).astype(np.float32),
        "p": rng.uniform(0.5, 1.5, 1024).astype(np.float32),
    }
    v["p"][320:384] = rng.uniform(0, 2, 64)  # Welford M values
    for k, a in v.items():
        a.tofile(tmp / f"{k}.bin")
    return {k: a.astype(np.float64) for k, a in v.items()}


def _ln(x: np.ndarray, g: np.ndarray, b: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    mu = x[:, :n].mean(1, keepdims=True)
    var = ((x[:, :n] - mu) ** 2).mean(1, keepdims=True)
    y = (x - mu) / np.sqrt(var + EPS)
    y[:, :n] = y[:, :n] * g[:n] + b[:n]
    return y, mu[:, 0], var[:, 0]


def test_norms_match_numpy(bins: dict[str, Path], tmp_path: Path) -> None:
    v = _inputs(tmp_path)
    rc, report, trace = _run(bins["norm"], tmp_path)
    assert rc == 0 and report == [], report
    z = np.fromfile(tmp_path / "z.out.bin", dtype=np.float32).reshape(24, SLOT).astype(np.float64)
    x, p = v["x"], v["p"]
    g, b = p[:64], p[64:128]

    def close(got: np.ndarray, want: np.ndarray, what: str, rtol: float = 2e-5, atol: float = 2e-5) -> None:
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=what)

    # classic LayerNorm: gamma/beta over the whole padded row (hLength), statistics over the 60 valid columns
    mu = x[:, :60].mean(1, keepdims=True)
    var = ((x[:, :60] - mu) ** 2).mean(1, keepdims=True)
    close(z[0, :512].reshape(R, H)[:, :60], ((x - mu) / np.sqrt(var + EPS) * g + b)[:, :60], "LayerNorm")
    close(z[1, :8], mu[:, 0], "LayerNorm mean")
    close(z[2, :8], var[:, 0], "LayerNorm variance")
    y, mu2, var2 = _ln(x, g, b, 60)
    close(z[3, :512].reshape(R, H)[:, :60], y[:, :60], "LayerNorm [A, R]")
    close(z[4, :8], mu2, "LayerNorm [A, R] mean")
    close(z[5, :8], 1 / np.sqrt(var2 + EPS), "LayerNorm [A, R] rstd")
    close(z[6, :512].reshape(R, H)[:, :60], y[:, :60], "Normalize")
    close(z[7, :8], 1 / np.sqrt(var2 + EPS), "Normalize rstd")
    close(z[8, :512].reshape(R, H), x / np.sqrt((x**2).mean(1, keepdims=True) + EPS) * g, "RmsNorm")
    x1 = 0.75 * x + v["gx"]
    m1 = x1.mean(1, keepdims=True)
    v1 = ((x1 - m1) ** 2).mean(1, keepdims=True)
    close(z[9, :512].reshape(R, H), (x1 - m1) / np.sqrt(v1 + EPS) * g + b, "DeepNorm")
    close(z[10, :8], m1[:, 0], "DeepNorm mean")
    # the third output holds the variance (DeepNorm.md's example, the devkit deepnorm sample's golden)
    close(z[11, :8], v1[:, 0], "DeepNorm variance")
    bm = x.mean(0)
    bv = ((x - bm) ** 2).mean(0)
    close(z[12, :512].reshape(R, H), (x - bm) / np.sqrt(bv + EPS) * p[128:136, None] + p[136:144, None], "BatchNorm")
    close(z[13, :64], bm, "BatchNorm mean")
    close(z[14, :64], bv, "BatchNorm variance")
    xg = x.reshape(2, 4, 2 * 32)  # N=2, 4 groups of 2 channels x 32
    gm = xg.mean(2, keepdims=True)
    gv = ((xg - gm) ** 2).mean(2, keepdims=True)
    norm = ((xg - gm) / np.sqrt(gv + EPS)).reshape(2, 8, 32)
    close(z[15, :512].reshape(2, 8, 32), norm * p[160:168, None] + p[168:176, None], "GroupNorm")
    close(z[16, :8], gm.reshape(-1), "GroupNorm mean")
    close(z[17, :8], gv.reshape(-1), "GroupNorm variance")
    m0, s0, xw = p[256:320].copy(), p[320:384].copy(), x.reshape(-1)[:64]
    d = xw - m0
    m_new = m0 + d * 0.25
    mean_w = np.where(np.arange(64) < 40, m_new, m0)
    m_w = np.where(np.arange(64) < 40, s0 + d * (xw - m_new), s0)
    close(z[18, :64], mean_w, "WelfordUpdate mean")
    close(z[19, :64], m_w, "WelfordUpdate M")
    cnt = np.where(np.arange(32) < 24, 5.0, 4.0)
    fmean = (cnt * p[256:288]).sum() / 152
    fvar = (p[320:352].sum() + (cnt * (p[256:288] - fmean) ** 2).sum()) / 152
    close(z[20, 0], fmean, "WelfordFinalize mean")
    close(z[20, 8], fvar, "WelfordFinalize variance", rtol=1e-4)
    # LayerNormGrad / Beta (the devkit layernorm sample's golden formulas)
    dy = v["dy"]
    mu, var = x.mean(1, keepdims=True), x.var(1, keepdims=True)
    xm = x - mu
    rstd = 1 / np.sqrt(var + EPS)
    pd_xl = dy * g
    pd_var = (-0.5 * pd_xl * xm * (var + EPS) ** -1.5).sum(1, keepdims=True)
    pd_mean = (-pd_xl * rstd).sum(1, keepdims=True) + pd_var / H * (-2 * xm).sum(1, keepdims=True)
    pd_x = pd_mean / H + pd_var * 2 / H * xm + pd_xl * rstd
    close(z[22, :512].reshape(R, H), pd_x, "LayerNormGrad pd_x", rtol=1e-4, atol=1e-4)
    close(z[23, :512].reshape(R, H), xm * rstd, "LayerNormGrad resForGamma")
    close(z[21, 896:960], (dy * xm * rstd).sum(0), "LayerNormGradBeta pd_gamma", rtol=1e-4, atol=1e-4)
    close(z[21, 960:1024], dy.sum(0), "LayerNormGradBeta pd_beta")
    hz = np.fromfile(tmp_path / "hz.out.bin", dtype=np.float16).astype(np.float64)
    xh, ph = x.astype(np.float16).astype(np.float64), p.astype(np.float16).astype(np.float64)
    muh = xh[:, :60].mean(1, keepdims=True)
    varh = ((xh[:, :60] - muh) ** 2).mean(1, keepdims=True)
    want = ((xh - muh) / np.sqrt(varh + 1e-3) * ph[:64] + ph[64:128])[:, :60]
    close(hz[1024:1536].reshape(R, H)[:, :60], want, "LayerNorm half", rtol=2e-3, atol=4e-3)
    want = xh / np.sqrt((xh**2).mean(1, keepdims=True) + 1e-3) * ph[:64]
    close(hz[2048:2560].reshape(R, H), want, "RmsNorm half", rtol=2e-3, atol=4e-3)
    apis = {e.get("adv") for e in trace}
    assert {"LayerNorm", "Normalize", "RmsNorm", "DeepNorm", "BatchNorm", "GroupNorm", "WelfordUpdate",
            "WelfordFinalize", "LayerNormGrad", "LayerNormGradBeta"} <= apis


def test_layernorm_tiling_for_more_tmp_is_reported(bins: dict[str, Path], tmp_path: Path) -> None:
    _inputs(tmp_path)
    rc, report, _ = _run(bins["bug"], tmp_path)
    assert rc == 1
    bad = [r for r in report if r["check"] == "tmp-buffer-size"]
    assert bad and bad[0]["api"] == "LayerNorm" and "32,768 B" in bad[0]["message"]
