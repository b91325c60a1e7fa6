"""The emulator's fast paths keep their meaning: exact 16-bit float conversions, intra-block GM hazards found by
the per-field GM shadow, fresh on-chip memory poisoned in every block (copy-on-write image), DataCopy's
out-of-bounds bytes."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ascendc_lsp.toolchain.base import RunOptions, RunResult
from ascendc_lsp.toolchain.emulator import build
from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain
from ascendc_lsp.toolchain.spec import spec_from_dict

FIXTURES = Path(__file__).parent / "fixtures" / "cost"
CPP = Path(__file__).parent / "emulator_cpp"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed"),
]


def test_fp16_conversions_match_the_general_encoder(tmp_path: Path) -> None:
    """fp16.h's bit-level conversions against the libm-based encoder, on every half, every tie and ~10^8 more."""
    binary = tmp_path / "fp16"
    cmd = [
        "g++",
        "-std=c++17",
        "-O1",
        f"-I{build.include_dir()}",
        str(CPP / "fp16_convert.cpp"),
        "-o",
        str(binary),
    ]
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr[-2000:]
    run = subprocess.run([str(binary)], capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0 and run.stdout.startswith("ok "), run.stdout


def _run(data: dict[str, Any]) -> RunResult:
    spec = spec_from_dict(data, base_dir=FIXTURES, origin=data["kernel"])
    return EmulatorToolchain().run(spec, RunOptions(timeout=60))


@pytest.mark.parametrize("synced", [False, True])
def test_gm_hazard_between_mte3_and_mte2(synced: bool) -> None:
    n = 4 * 2048
    res = _run(
        {
            "kernel": "gm_hazard",
            "source": "gm_hazard.cpp",
            "block_dim": 4,
            "defines": {"SYNCED": None} if synced else {},
            "inputs": [{"name": "x", "shape": [n], "dtype": "float32"}],
            "outputs": [
                {"name": "y", "shape": [n], "dtype": "float32"},
                {"name": "z", "shape": [n], "dtype": "float32"},
            ],
            "reference": "y = x + np.float32(1)\nz = y * np.float32(2)",
        }
    )
    races = [
        d for d in res.diagnostics if (d.data or {}).get("check") == "pipe-race" or "hazard" in d.message
    ]
    if synced:
        assert res.correct and not races, [d.message for d in res.diagnostics]
    else:
        assert races and "RAW hazard on GM" in races[0].message and "PIPE_MTE3" in races[0].message
        assert races[0].category == "sync-missing"


def test_fresh_ub_is_poisoned_in_every_block() -> None:
    n = 4 * 1024
    res = _run(
        {
            "kernel": "fresh_ub",
            "source": "fresh_ub.cpp",
            "block_dim": 4,
            "inputs": [],
            "outputs": [{"name": "z", "shape": [n], "dtype": "float32"}],
            "reference": "z = np.full(4096, np.nan, dtype=np.float32)\nz[:1024] = 1",
        }
    )
    assert res.correct, [d.message for d in res.diagnostics]


def test_datacopy_past_the_end_reads_poison(tmp_path: Path) -> None:
    """DataCopy copies the in-bounds bytes and fills the rest with 0xFF (NaN for float)."""
    data = {
        "kernel": "oob_copy",
        "source": "oob_copy.cpp",
        "block_dim": 1,
        "inputs": [{"name": "x", "shape": [1024], "dtype": "float32", "init": {"arange": [0, 1]}}],
        "outputs": [{"name": "z", "shape": [512], "dtype": "float32"}],
        "reference": "z = np.concatenate([x[768:], np.full(256, np.nan, dtype=np.float32)])",
    }
    spec = spec_from_dict(data, base_dir=FIXTURES, origin="oob_copy")
    res = EmulatorToolchain().run(spec, RunOptions(timeout=60, keep_dir=tmp_path / "run"))
    assert res.category == "gm-out-of-bounds"
    z = np.fromfile(tmp_path / "run" / "z.out.bin", dtype=np.float32)
    assert np.array_equal(z[:256], np.arange(768, 1024, dtype=np.float32))
    assert (z[256:].view(np.uint32) == 0xFFFFFFFF).all()
