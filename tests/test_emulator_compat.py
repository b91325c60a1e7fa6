"""Constructs public kernels write that the emulator takes as the NPU build does, checked against NumPy (cases in
tests/emulator_cpp/api_compat.cpp): found by bench/fidelity.py on public code, each written here from the docs."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.emu_api import CPP, CaseRun, compile_cases, run_case

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")]


@pytest.fixture(scope="module")
def binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_cases("api_compat.cpp", tmp_path_factory.mktemp("compat"))


def clean(r: CaseRun) -> None:
    assert r.rc == 0 and not r.errors(), r.report


def test_four_value_brace_list_is_datacopyparams(binary: Path, tmp_path: Path) -> None:
    x = np.arange(100, dtype=np.float32) * 0.5
    r = run_case(binary, 1, tmp_path, a=x)
    clean(r)
    assert np.array_equal(r.array(np.float32, 100), x)


def test_setpadvalue_fills_the_padding_when_ispad_is_false(binary: Path, tmp_path: Path) -> None:
    x = (np.arange(20) + 10).astype(np.float16)
    r = run_case(binary, 2, tmp_path, a=x)
    clean(r)
    out = r.array(np.float16, 32)
    assert np.array_equal(out[2:22], x)  # the data starts after the left padding
    assert np.all(out[[0, 1]] == 1) and np.all(out[22:32] == 1)


def test_padding_without_setpadvalue_keeps_ub_contents(binary: Path, tmp_path: Path) -> None:
    x = (np.arange(20) + 10).astype(np.float16)
    r = run_case(binary, 3, tmp_path, a=x)
    clean(r)
    out = r.array(np.float16, 32)
    assert np.array_equal(out[2:22], x)
    assert np.all(out[[0, 1]] == 7) and np.all(out[22:32] == 7)


def test_ascendc_std_max_min_abs_and_tuple(binary: Path, tmp_path: Path) -> None:
    r = run_case(binary, 4, tmp_path, a=np.array([96, 160, 0, 0, 0, 0, 0, 0], dtype=np.uint32))
    clean(r)
    assert r.array(np.uint32, 3).tolist() == [160, 96, 7]


def test_ascend950_system_constants(tmp_path: Path) -> None:
    from tests.test_emulator_headers import _compile

    binary = tmp_path / "compat950"
    _compile(CPP / "api_compat.cpp", binary, ("-D__NPU_ARCH__=3510",))
    r = run_case(binary, 5, tmp_path, soc="Ascend950")
    clean(r)
    assert r.array(np.uint32, 2).tolist() == [248 * 1024, 64]


def test_cce_vcadd_with_a_plain_nullptr_destination(binary: Path, tmp_path: Path) -> None:
    x = np.arange(128, dtype=np.float32)
    r = run_case(binary, 6, tmp_path, a=x)
    clean(r)
    assert r.array(np.float32, 1)[0] == x.sum()
