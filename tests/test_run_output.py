"""What `ascendc-lsp run` prints, read as a newcomer reads it: the verdict says which check failed, each output
line agrees with the verdict (and says where a mismatch starts), --trace says where it wrote, a cube-side overrun
names its buffer and the NPU code it would raise, and a misspelled required spec key gets a did-you-mean."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ascendc_lsp.diagnostics import Diagnostic
from ascendc_lsp.toolchain.base import OutputCheck, RunResult
from ascendc_lsp.toolchain.command import print_text
from ascendc_lsp.toolchain.spec import SpecError, load_spec

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _text(result: RunResult) -> str:
    spec = load_spec(EXAMPLES / "matmul_cube" / "spec.yaml")
    out = io.StringIO()
    print_text(result, spec, out)
    return out.getvalue()


def _result(**kwargs: object) -> RunResult:
    base: dict[str, object] = dict(compiled=True, ran=True, run_seconds=0.1, kernel="matmul_cube", soc="Ascend910B")
    base.update(kwargs)
    return RunResult(**base)  # type: ignore[arg-type]


def test_an_output_that_matches_after_reported_errors_is_not_called_ok() -> None:
    bounds = Diagnostic(message="Mmad writes past its CO1 tensor's buffer in L0C", code="507015", category="ub-out-of-bounds")
    text = _text(_result(ran=False, diagnostics=[bounds], outputs=[OutputCheck("c", elements=1024, rtol=1e-6)]))
    head, output = text.splitlines()[:2]
    assert "NOT CORRECT: the run reported 1 error(s) (below), so its outputs are not trusted" in head
    assert "ran in 0.10 s" in head  # it did run; it did not run cleanly
    assert output.startswith("  output c: matches the reference but is not trusted")
    assert ": ok" not in text


def test_a_mismatching_output_says_how_and_where_it_first_differs() -> None:
    first = {"index": 1248, "position": [39, 0], "expected": -0.33984217047691345, "actual": 2.5}
    c = OutputCheck("c", elements=1024, mismatches=23, max_abs_error=2.84, max_rel_error=8.36, rtol=1e-6,
                    atol=1e-9, first_mismatch=first, unwritten=3)  # fmt: skip
    mismatch = Diagnostic(message="output 'c': 23 of 1,024 elements differ", code="mismatch", category="precision-mismatch")
    text = _text(_result(diagnostics=[mismatch], outputs=[c]))
    head, output = text.splitlines()[:2]
    assert head.endswith("NOT CORRECT: output c differs from the reference")
    assert "output c: MISMATCH, 23/1,024 mismatches, max abs error 2.84, max rel error 8.36" in output
    assert "first at index 1248 [39, 0]: expected -0.339842, actual 2.5" in output
    assert "3 element(s) never written" in output


def test_a_correct_run_says_where_the_trace_went(tmp_path: Path) -> None:
    trace = tmp_path / "t.json"
    text = _text(_result(correct=True, outputs=[OutputCheck("c", elements=1024)], trace_file=str(trace)))
    assert text.splitlines()[0].endswith(": CORRECT")
    assert "  output c: matches the reference, 0/1,024 mismatches" in text
    assert f"trace: wrote {trace} (open it in https://ui.perfetto.dev" in text


@pytest.mark.parametrize(
    ("key", "typo", "line"),
    [("block_dim", "blockdim", 3), ("kernel", "kernal", 1), ("reference", "referance", 13)],
)
def test_a_misspelled_required_key_gets_one_did_you_mean_with_its_line(
    tmp_path: Path, key: str, typo: str, line: int
) -> None:
    for f in (EXAMPLES / "add_double_buffer").iterdir():
        shutil.copy(f, tmp_path / f.name)
    spec = tmp_path / "spec.yaml"
    text = spec.read_text(encoding="utf-8")
    assert text.splitlines()[line - 1].startswith(f"{key}:")
    spec.write_text(text.replace(f"\n{key}:", f"\n{typo}:") if line > 1 else f"{typo}{text[len(key):]}",
                    encoding="utf-8")  # fmt: skip
    with pytest.raises(SpecError) as err:
        load_spec(spec)
    message = str(err.value)
    assert message.startswith(f"{spec}:{line}: {key}: missing (")
    assert message.endswith(f"did you mean '{key}' instead of '{typo}'?") and "\n" not in message


def test_a_misspelled_tensor_key_names_its_line(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("kernel: k\nblock_dim: 1\noutputs:\n  - {nmae: z, shape: [8], dtype: float32}\n",
                    encoding="utf-8")  # fmt: skip
    with pytest.raises(SpecError, match=r"spec.yaml:4: outputs\[0\].name: missing; did you mean 'name' instead of 'nmae'\?"):
        load_spec(spec)


@pytest.mark.slow
def test_the_l0c_overrun_twin_names_l0c_the_cube_fault_and_the_trace(tmp_path: Path) -> None:
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed")
    trace = tmp_path / "mm.json"
    r = subprocess.run(
        [sys.executable, "-m", "ascendc_lsp", "run", str(EXAMPLES / "matmul_cube" / "spec_buggy.yaml"),
         "--trace", str(trace)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert r.returncode == 1, r.stderr
    out = r.stdout
    assert "NOT CORRECT: the run reported 2 error(s)" in out and "output c: matches the reference but is not trusted" in out
    assert f"trace: wrote {trace}" in out and trace.is_file()
    assert "Mmad writes 4,096 B at L0C 0x0..0x1000, past its CO1 tensor's buffer in L0C" in out
    assert "507015 errorStr: The operation address of L0C exceeds the maximum range of L0C." in out
    assert "ub address out of bounds" not in out and "507035" not in out


def test_the_estimate_is_labelled_uncalibrated_and_its_pipes_explained() -> None:
    from ascendc_lsp.toolchain.base import Estimate

    est = Estimate(cycles=20948, microseconds=11.64, bottleneck="mte2", pipes={"s": 2560, "v": 48, "mte2": 7189,
                   "mte3": 3601, "m": 0}, lower_microseconds=11.49, upper_microseconds=14.94,
                   launch_microseconds=7.5, provenance="model:soc-profile")  # fmt: skip
    text = _text(_result(correct=True, outputs=[OutputCheck("c", elements=1024)], estimate=est))
    assert "estimate (cost model, uncalibrated: not measured on an NPU): 11.64 us = 20,948 cycles" in text
    assert "including a launch of 7.5 us; the model's bounds 11.49-14.94 us" in text
    assert "busy cycles per pipe on the critical core: s 2,560  v 48  mte2 7,189  mte3 3,601\n" in text
    assert "(s = scalar unit, v = vector unit, mte2 = GM -> UB/L1 copies, mte3 = UB -> GM copies)" in text
    assert "cube unit" not in text  # only the pipes that were busy are explained
