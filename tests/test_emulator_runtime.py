"""The emulator modes as the spec, the run options and the CLI carry them to the kernel binary (no g++ needed
except for the end-to-end runs at the bottom, marked slow)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ascendc_lsp.cli import build_parser
from ascendc_lsp.toolchain.base import RunOptions
from ascendc_lsp.toolchain.emulator import harness
from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain, mode_argv, strict_modes
from ascendc_lsp.toolchain.emulator.soc import load_soc
from ascendc_lsp.toolchain.spec import SpecError, load_spec, spec_from_dict

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _spec(tmp_path: Path, **extra: object):  # type: ignore[no-untyped-def]
    data = {
        "kernel": "k",
        "block_dim": 1,
        "inputs": [{"name": "x", "shape": [8], "dtype": "float32"}],
        "outputs": [{"name": "z", "shape": [8], "dtype": "float32"}],
        "reference": "z = x",
        **extra,
    }
    return spec_from_dict(data, base_dir=tmp_path)


def test_spec_strict_key(tmp_path: Path) -> None:
    assert _spec(tmp_path).strict == ()
    assert _spec(tmp_path, strict=True).strict == ("sync", "ub", "gm", "assert", "truncation")
    assert _spec(tmp_path, strict=["sync", "gm"]).strict == ("sync", "gm")
    assert _spec(tmp_path, strict="sync").strict == ("sync",)
    with pytest.raises(SpecError, match=r"strict\[0\]: 'race' is not one of sync"):
        _spec(tmp_path, strict=["race"])
    with pytest.raises(SpecError, match="ub_reserve: 'never' is not one of auto, always, off"):
        _spec(tmp_path, ub_reserve="never")
    assert _spec(tmp_path, ub_reserve="off").ub_reserve == "off"


def test_modes_reach_the_binary(tmp_path: Path) -> None:
    plain = _spec(tmp_path)
    assert mode_argv(plain, RunOptions()) == []
    assert mode_argv(plain, RunOptions(strict_sync=True, strict_gm=True)) == ["--strict-sync", "--strict-gm"]
    assert mode_argv(plain, RunOptions(strict=True)) == [
        "--strict-sync",
        "--strict-ub",
        "--strict-gm",
        "--strict-truncation",
    ]
    spec = _spec(tmp_path, strict=["sync"], ub_reserve="off")
    assert mode_argv(spec, RunOptions()) == ["--strict-sync", "--ub-reserve", "off"]
    assert mode_argv(spec, RunOptions(ub_reserve="always")) == ["--strict-sync", "--ub-reserve", "always"]
    assert "assert" in strict_modes(plain, RunOptions(strict_assert=True))
    assert "assert" not in strict_modes(plain, RunOptions(strict_sync=True))


def test_strict_assert_is_a_harness_define(tmp_path: Path) -> None:
    spec = _spec(tmp_path)
    src = tmp_path / "k.cpp"
    npu = harness.generate(spec, src)
    trap = harness.generate(spec, src, strict_assert=True)
    assert "ASCENDC_EMU_ASSERT_TRAP" not in npu
    lines = trap.splitlines()
    pch = next(i for i, line in enumerate(lines) if "ascendc_emu_pch.h" in line)
    assert lines[pch + 1 : pch + 3] == ["#undef ASCENDC_EMU_ASSERT_TRAP", "#define ASCENDC_EMU_ASSERT_TRAP 1"]


def test_cli_mode_flags() -> None:
    args = build_parser().parse_args(["run", "s.yaml", "--strict-sync", "--ub-reserve", "off"])
    assert args.strict_sync and not args.strict and args.ub_reserve == "off"
    assert build_parser().parse_args(["run", "s.yaml"]).ub_reserve == "auto"


def test_soc_file_names_the_architecture() -> None:
    assert "arch 2201" in load_soc("Ascend910B").soc_txt()
    assert "arch 2002" in load_soc("Ascend310P").soc_txt()
    assert "ub_reserved_bytes 8192" in load_soc("Ascend910B").soc_txt()


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")
def test_reduce_rows_relies_on_auto_sync_only_in_its_twin() -> None:
    """reduce_rows' buggy twin drops its V_S event: correct under bisheng's auto-sync, a race with it off."""
    spec = load_spec(EXAMPLES / "reduce_rows" / "spec_buggy.yaml")
    assert spec.strict == ("sync",)
    tc = EmulatorToolchain()
    strict = tc.run(spec, RunOptions(timeout=120))
    assert not strict.correct and strict.category == "sync-missing"
    spec.strict = ()
    npu = tc.run(spec, RunOptions(timeout=120))
    assert npu.correct, [d.message for d in npu.diagnostics if d.severity == "error"]
    forced = tc.run(spec, RunOptions(timeout=120, strict_sync=True))
    assert forced.category == "sync-missing"
