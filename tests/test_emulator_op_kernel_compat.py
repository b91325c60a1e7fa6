"""Symbols public op libraries' kernels call besides the documented AscendC API (ascendc_emu/op_kernel_compat.h:
PopStackBuffer, the VA address registers and their transposes, get_max_min_cnt, DeQue() without a type, TQueConfig, a TBuf passed by value,
Conditional, the SDK's raw-pointer *Impl forms), run as those kernels use them (cases in tests/emulator_cpp/op_kernel_compat.cpp), checked with NumPy."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from ascendc_lsp.toolchain.emulator.soc import load_soc
from tests.emu_api import CaseRun, compile_cases, run_case

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")]


@pytest.fixture(scope="module")
def binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_cases("op_kernel_compat.cpp", tmp_path_factory.mktemp("opcompat"))


def clean(r: CaseRun) -> None:
    assert r.rc == 0 and not r.errors(), r.report


def test_popstackbuffer_is_the_ub_left_after_the_tpipe_buffers(binary: Path, tmp_path: Path) -> None:
    r = run_case(binary, 1, tmp_path)
    clean(r)
    out = r.array(np.float32, 64)
    ub = int(load_soc("Ascend910B").values["ub_bytes"])
    assert out[0] == 1  # PopStackBuffer returned true
    assert out[1] == (ub - 5 * 32 * 1024) // 4  # api_case.h's Ub takes five 32 KB buffers
    assert np.all(out[2:] == 3.0)  # the popped tensor is memory the kernel can write and read


def test_va_registers_drive_a_16x16_transpose(binary: Path, tmp_path: Path) -> None:
    x = (np.arange(256) % 97 - 40).astype(np.float16)
    r = run_case(binary, 2, tmp_path, a=x)
    clean(r)
    assert np.array_equal(r.array(np.float16, 256).reshape(16, 16), x.reshape(16, 16).T)


def test_get_max_min_cnt_holds_the_reducemax_value_bits_and_index(binary: Path, tmp_path: Path) -> None:
    x = np.sin(np.arange(200, dtype=np.float32))
    x[137] = 5.5
    r = run_case(binary, 3, tmp_path, a=x)
    clean(r)
    bits, index = r.array(np.uint32, 2)
    assert np.array([bits], dtype=np.uint32).view(np.float32)[0] == np.float32(5.5)
    assert index == 137


def test_deque_without_a_type_hands_off_and_the_kernel_keeps_its_tensor(binary: Path, tmp_path: Path) -> None:
    x = np.arange(64, dtype=np.float32)
    r = run_case(binary, 4, tmp_path, a=x)
    clean(r)
    assert np.array_equal(r.array(np.float32, 64), x + 1)


def test_raw_pointer_impl_forms_copy_pad_and_fill(binary: Path, tmp_path: Path) -> None:
    x = np.arange(1, 9, dtype=np.float32)
    r = run_case(binary, 5, tmp_path, a=x)
    clean(r)
    want_x = np.concatenate([x[:5], np.zeros(3, np.float32)])  # 20 B copied, 3 padding elements of 0
    assert np.array_equal(r.array(np.float32, 8), want_x + np.float32(2.5))  # DuplicateImpl + Add, then UB2GM
    assert np.array_equal(r.array(np.float32, 3, offset_bytes=64), x[:3])  # DataCopyPadUB2GMImpl: 12 B


def test_transdatato5hd_impl_with_pointer_lists(binary: Path, tmp_path: Path) -> None:
    x = (np.arange(256) % 89 - 30).astype(np.float16)
    r = run_case(binary, 6, tmp_path, a=x)
    clean(r)
    assert np.array_equal(r.array(np.float16, 256).reshape(16, 16), x.reshape(16, 16).T)


def test_a_tbuf_passed_by_value_writes_the_original_buffer(binary: Path, tmp_path: Path) -> None:
    r = run_case(binary, 7, tmp_path)
    clean(r)
    assert r.array(np.uint32, 8).tolist() == list(range(40, 48))


def test_a_kernel_written_with_the_aicore_attribute_runs() -> None:
    from ascendc_lsp.toolchain.base import RunOptions
    from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain
    from ascendc_lsp.toolchain.spec import spec_from_dict

    data = {
        "kernel": "aicore_attr",
        "source": "aicore_attr.cpp",
        "block_dim": 1,
        "inputs": [{"name": "x", "shape": [256], "dtype": "float32"}],
        "outputs": [{"name": "y", "shape": [256], "dtype": "float32"}],
        "reference": "y = x * np.float32(2) + np.float32(1)",
    }
    folder = Path(__file__).parent / "fixtures" / "dialect"
    res = EmulatorToolchain().run(spec_from_dict(data, base_dir=folder, origin="aicore_attr"), RunOptions(timeout=120))
    assert res.correct, [d.message for d in res.diagnostics]
