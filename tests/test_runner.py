"""Emulator runner: harness generation, data and verification, report/compile-error mapping, and end-to-end
runs (slow) against the stand-in headers of tests/fixtures/emu_stub (so the runner is tested on its own)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from ascendc_lsp.cli import main as cli_main
from ascendc_lsp.toolchain.base import RunOptions
from ascendc_lsp.toolchain.emulator import data, gccdiag, harness, report
from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain, kernel_entry_line
from ascendc_lsp.toolchain.spec import SpecError, Tolerance, load_spec, spec_from_dict

STUB = Path(__file__).parent / "fixtures" / "emu_stub" / "include"

KERNEL = r"""#include "kernel_operator.h"
// 中文注释: UTF-16 columns
struct TD { uint32_t n; uint32_t mode; };
extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR z, GM_ADDR tiling) {
    TD* t = (TD*)tiling;
    uint32_t per = t->n / AscendC::GetBlockNum();
    float* xs = (float*)x + per * AscendC::GetBlockIdx();
    float* zs = (float*)z + per * AscendC::GetBlockIdx();
    stub::Trace("\"pipe\":\"mte2\",\"api\":\"DataCopy\",\"bytes\":4096,\"src\":\"gm\",\"dst\":\"ub\"");
    stub::Trace("\"pipe\":\"v\",\"api\":\"Muls\",\"dtype\":\"float\",\"elements\":1024,\"after\":[0]");
    stub::Trace("\"pipe\":\"mte3\",\"api\":\"DataCopy\",\"bytes\":4096,\"src\":\"ub\",\"dst\":\"gm\",\"after\":[1]");
    uint32_t todo = t->mode == 1 ? per - 1 : per;
    for (uint32_t i = 0; i < todo; i++) zs[i] = xs[i] * 2.0f;
    if (t->mode == 2) stub::Report("ub-overflow", "507035", "InitBuffer needs too much");
    if (t->mode == 3) stub::Deadlock();
    if (t->mode == 4) { volatile int* p = nullptr; *p = 1; }
    if (t->mode == 5) { for (;;) {} }
    if (t->mode == 6) zs[0] = 7.0f;
}
"""

SPEC = """kernel: scale
source: k.cpp
block_dim: 4
inputs: [{name: x, shape: [4096], dtype: float32, init: {uniform: [-1, 1]}}]
outputs: [{name: z, shape: [4096], dtype: float32}]
tiling: {struct: TD, pass: pointer, fields: {n: 4096, mode: MODE}}
reference: |
  z = x * 2
"""


# ------------------------------------------------------------------------------------------------ fast units


def _spec(tmp_path: Path, **over: object) -> object:
    d: dict[str, object] = {
        "kernel": "k",
        "block_dim": 2,
        "inputs": [{"name": "x", "shape": [64], "dtype": "float16"}],
        "outputs": [{"name": "y", "shape": [64], "dtype": "float16"}],
        "reference": "y = x",
    }
    d.update(over)
    return spec_from_dict(d, base_dir=tmp_path)


def test_harness_pointer_tiling_and_workspace(tmp_path: Path) -> None:
    spec = _spec(
        tmp_path,
        workspace_bytes=256,
        tiling={
            "struct": "ns::T",
            "fields": {"n": 64, "f": 0.5, "arr": [1, 2], "sub": {"m": 3}, "big": 2**40},
        },
    )
    text = harness.generate(spec, tmp_path / "k.cpp")  # type: ignore[arg-type]
    assert text.index('#include "ascendc_emu_pch.h"') < text.index('#include "ascendc_emu/harness.h"')
    assert "#define ASCENDC_EMU_TILING_STRUCT ns::T" in text
    assert 'GM_ADDR emu_x = emu_h.Input("x");' in text
    assert 'GM_ADDR emu_y = emu_h.Output("y", 128);' in text
    assert "emu_h.Workspace(256)" in text
    assert (
        "emu_tiling_value.arr[1] = " in text
        and "emu_tiling_value.sub.m = " in text
        and "1099511627776ULL" in text
    )
    assert 'emu_h.Bytes("tiling", &emu_tiling_value, sizeof(emu_tiling_value))' in text
    assert "emu_h.Launch(2, [&] { k(emu_x, emu_y, emu_workspace, emu_tiling); });" in text


def test_harness_value_tiling_and_params_order(tmp_path: Path) -> None:
    spec = _spec(tmp_path, tiling={"struct": "T", "pass": "value", "fields": {}}, params=["y", "tiling", "x"])
    text = harness.generate(spec, tmp_path / "k.cpp")  # type: ignore[arg-type]
    assert "k(emu_y, emu_tiling_value, emu_x)" in text


def test_bf16_roundtrip_and_storage() -> None:
    vals = np.array([1.0, -2.5, 3.14159, 65504.0, np.inf, np.nan], dtype=np.float32)
    back = data.bf16_bits_to_f32(data.f32_to_bf16_bits(vals))
    assert back[0] == 1.0 and back[1] == -2.5 and abs(back[2] - 3.14159) < 0.02 and np.isinf(back[4])
    assert np.isnan(back[5])
    assert data.to_storage(np.array([0, 2, -1]), "bool").tolist() == [0, 1, 1]
    assert data.to_storage(np.array([300.0, -300.0]), "int8").tolist() == [127, -128]


def test_inputs_are_seeded_and_injected(tmp_path: Path) -> None:
    spec = _spec(
        tmp_path,
        inputs=[
            {"name": "x", "shape": [4, 4], "dtype": "float32", "init": {"normal": [0, 1]},
             "inject": [[0, ".nan"], [15, "-.inf"]]},
            {"name": "i", "shape": [8], "dtype": "int32", "init": {"randint": [0, 3]}},
            {"name": "a", "shape": [5], "dtype": "bfloat16", "init": {"arange": [1, 0.5]}},
            {"name": "v", "shape": [3], "dtype": "uint8", "init": {"values": [1, 2, 3]}},
        ],
        reference="y = np.zeros(64)",
    )  # fmt: skip
    a = data.generate_inputs(spec)  # type: ignore[arg-type]
    b = data.generate_inputs(spec)  # type: ignore[arg-type]
    assert np.array_equal(a["i"], b["i"]) and a["x"].shape == (4, 4)
    assert np.isnan(a["x"].reshape(-1)[0]) and a["x"].reshape(-1)[15] == -np.inf
    assert set(a["i"].tolist()) <= {0, 1, 2} and a["i"].dtype == np.int32
    assert data.to_values(a["a"], "bfloat16").tolist() == [1.0, 1.5, 2.0, 2.5, 3.0]
    assert a["v"].tolist() == [1, 2, 3]


def test_npy_file_init(tmp_path: Path) -> None:
    np.save(tmp_path / "x.npy", np.arange(64, dtype=np.float64))
    spec = _spec(
        tmp_path, inputs=[{"name": "x", "shape": [8, 8], "dtype": "float16", "init": {"file": "x.npy"}}]
    )
    a = data.generate_inputs(spec)  # type: ignore[arg-type]
    assert a["x"].dtype == np.float16 and a["x"][7, 7] == 63


def test_reference_errors_are_clear(tmp_path: Path) -> None:
    inputs = {"x": np.zeros(64, dtype=np.float16)}
    with pytest.raises(data.DataError, match=r"reference failed: line 2: NameError"):
        data.evaluate_reference(_spec(tmp_path, reference="a = 1\ny = nope"), inputs)  # type: ignore[arg-type]
    with pytest.raises(data.DataError, match="does not assign output 'y'"):
        data.evaluate_reference(_spec(tmp_path, reference="q = x"), inputs)  # type: ignore[arg-type]
    with pytest.raises(data.DataError, match=r"has shape \[3\]"):
        data.evaluate_reference(_spec(tmp_path, reference="y = np.zeros(3)"), inputs)  # type: ignore[arg-type]
    with pytest.raises(data.DataError, match="NameError"):
        data.evaluate_reference(_spec(tmp_path, reference="y = open('/etc/passwd')"), inputs)  # type: ignore[arg-type]
    ref = data.evaluate_reference(_spec(tmp_path, reference="y = 2"), inputs)  # type: ignore[arg-type]
    assert ref["y"].shape == (64,) and ref["y"][0] == 2


def test_compare_tolerance_and_nan_rules(tmp_path: Path) -> None:
    spec = _spec(tmp_path, outputs=[{"name": "y", "shape": [6], "dtype": "float32"}])
    t = spec.outputs[0]  # type: ignore[attr-defined]
    ref = np.array([1.0, 2.0, np.nan, np.inf, 0.0, 5.0])
    out = np.array([1.0005, 2.0, np.nan, np.inf, np.nan, 5.5], dtype=np.float32)
    c = data.compare("y", out, ref, t, Tolerance(rtol=1e-3, atol=0.0), [b"\xff"])
    assert c.mismatches == 2  # NaN where the reference is finite; 5.5 vs 5.0
    assert c.first_mismatch is not None and c.first_mismatch["index"] == 4
    assert math.isinf(c.max_abs_error)
    out2 = np.array([1.0, 2.0, 0.0, np.inf, 0.0, 5.0], dtype=np.float32)
    c2 = data.compare("y", out2, ref, t, Tolerance(rtol=0, atol=0), [])
    assert c2.mismatches == 1 and c2.first_mismatch["index"] == 2  # type: ignore[index]


def test_poison_counts_unwritten(tmp_path: Path) -> None:
    spec = _spec(tmp_path, outputs=[{"name": "y", "shape": [4], "dtype": "float32"}])
    out = np.array([1.0, 1.0, 0.0, 0.0], dtype=np.float32)
    out.view(np.uint32)[2:] = 0xFFFFFFFF
    c = data.compare("y", out, np.ones(4), spec.outputs[0], Tolerance(0, 0), [b"\xff"])  # type: ignore[attr-defined]
    assert c.mismatches == 2 and c.unwritten == 2


def test_gcc_errors_map_to_user_lines(tmp_path: Path) -> None:
    k = tmp_path / "k.cpp"
    k.write_text('#include "kernel_operator.h"\n// 中文\nvoid g() { undeclared_fn(1); }\n', encoding="utf-8")
    inc = "/opt/emu/include"
    stderr = (
        f"In file included from harness.cpp:4:\n{k}: In function 'void g()':\n"
        f"{k}:3:12: error: 'undeclared_fn' was not declared in this scope\n"
        f"{inc}/ascendc_emu/vector.h: In instantiation of 'void AscendC::Add(...)':\n"
        f"{k}:3:5:   required from here\n"
        f"{inc}/ascendc_emu/vector.h:10:3: error: no matching function for call to 'foo(int)'\n"
        f"harness.cpp:9:5: error: too few arguments to function 'void k(uint8_t*)'\n"
        f"{k}:2:1: error: 'expf' was not declared in this scope\n"
    )

    def is_user(f: str) -> bool:
        return f == str(k)

    def line_text(f: str, i: int) -> str:
        lines = Path(f).read_text(encoding="utf-8").splitlines() if Path(f).is_file() else []
        return lines[i] if 0 <= i < len(lines) else ""

    diags = gccdiag.to_diagnostics(stderr, is_user, (str(k), 0), line_text, lambda m: "spec params")
    assert [(d.span.start.line, d.category) for d in diags] == [
        (2, "undeclared-ascendc-symbol"),
        (2, "api-signature"),
        (0, "api-signature"),
        (1, "libm-in-kernel"),
    ]
    assert diags[0].span.start.character == 11 and diags[0].span.end.character == 24
    assert "[in vector.h:10]" in diags[1].message and "spec params" in diags[2].message


def test_report_lines_and_folding(tmp_path: Path) -> None:
    k = tmp_path / "k.cpp"
    k.write_text("a\n    // 中文 DataCopy(x);\n", encoding="utf-8")
    rows = [
        {"severity": "error", "check": "gm-bounds", "category": "gm-out-of-bounds", "code": "507015", "block": b,
         "file": str(k), "line": 2, "message": "out of range", "errorStr": "DDR"}
        for b in range(3)
    ] + [{"severity": "warning", "check": "x", "category": "misaligned-access", "message": "m", "line": 99}]  # fmt: skip
    diags = report.to_diagnostics(
        rows, k, lambda f, i: (Path(f).read_text(encoding="utf-8").splitlines() + [""] * 200)[i]
    )
    assert len(diags) == 2
    d = diags[0]
    assert (d.span.start.line, d.span.start.character, d.code, d.category) == (1, 4, "507015", "gm-out-of-bounds")
    assert d.span.end.character == 4 + len("// 中文 DataCopy(x);")
    assert d.data["blocks"] == [0, 1, 2] and "507015" in d.message
    assert diags[1].severity == "warning" and diags[1].span.start.line == 98


def test_report_reader_skips_partial_lines(tmp_path: Path) -> None:
    p = tmp_path / "r.jsonl"
    p.write_text('{"a": 1}\n{"b": \n', encoding="utf-8")
    assert report.read_jsonl(p) == [{"a": 1}]
    assert report.read_jsonl(tmp_path / "missing.jsonl") == []


def test_kernel_entry_line() -> None:
    src = 'void helper();\nint scale(int);\nextern "C" __global__ __aicore__ void scale(GM_ADDR x)\n{}\n'
    assert kernel_entry_line(src, "scale") == 2
    assert kernel_entry_line("nothing", "scale") == 0


# ------------------------------------------------------------------------------------------------ end to end


@pytest.fixture
def stub_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASCENDC_LSP_EMULATOR_INCLUDE", str(STUB))


def _write(tmp_path: Path, mode: int) -> Path:
    (tmp_path / "k.cpp").write_text(KERNEL, encoding="utf-8")
    p = tmp_path / f"spec{mode}.yaml"
    p.write_text(SPEC.replace("MODE", str(mode)), encoding="utf-8")
    return p


def _run(spec_path: Path, **kw: object) -> object:
    return EmulatorToolchain().run(load_spec(spec_path), RunOptions(**kw))  # type: ignore[arg-type]


@pytest.mark.slow
@pytest.mark.usefixtures("stub_env")
def test_correct_run_then_cache_hit(tmp_path: Path) -> None:
    trace = tmp_path / "trace.json"
    r = _run(_write(tmp_path, 0), trace_out=trace)
    j = r.to_json()  # type: ignore[attr-defined]
    assert (j["stage_reached"], j["compiled"], j["ran"], j["correct"]) == ("done", True, True, True)
    assert j["mismatches"] == 0 and j["max_abs_error"] == 0
    est = j["estimate"]
    assert (
        est["cycles"] > 0
        and set(est["pipes"]) >= {"mte2", "v", "mte3"}
        and est["bottleneck"] in ("mte2", "mte3")
    )
    assert est["lower_bound"]["cycles"] <= est["cycles"] <= est["upper_bound"]["cycles"]
    assert json.loads(trace.read_text())["traceEvents"]
    r2 = _run(_write(tmp_path, 0))
    assert r2.compile_cached and r2.correct  # type: ignore[attr-defined]


@pytest.mark.slow
@pytest.mark.usefixtures("stub_env")
@pytest.mark.parametrize(
    ("mode", "stage", "category", "code"),
    [
        (1, "verify", "multicore-partition", "mismatch"),
        (2, "run", "ub-overflow", "507035"),
        (3, "run", "sync-deadlock", "507014"),
        (4, "run", "aicore-exception-triage", "crash"),
        (6, "verify", "precision-mismatch", "mismatch"),
    ],
)
def test_failures_have_categories(tmp_path: Path, mode: int, stage: str, category: str, code: str) -> None:
    r = _run(_write(tmp_path, mode), timeout=20)
    assert not r.correct and r.stage_reached == stage  # type: ignore[attr-defined]
    assert r.category == category  # type: ignore[attr-defined]
    d = next(d for d in r.diagnostics if d.category == category)  # type: ignore[attr-defined]
    assert d.code == code and d.file is not None and d.file.endswith("k.cpp")
    if mode == 2:
        assert d.span.start.line == 13  # the kernel line the report names (0-based)
    if mode == 4:
        assert "SIGSEGV" in d.message


@pytest.mark.slow
@pytest.mark.usefixtures("stub_env")
def test_timeout_is_a_clear_diagnostic(tmp_path: Path) -> None:
    r = _run(_write(tmp_path, 5), timeout=1.5, compile_timeout=120.0)
    assert not r.ran and r.category == "sync-deadlock"  # type: ignore[attr-defined]
    assert any("timeout" in d.message for d in r.diagnostics)  # type: ignore[attr-defined]


@pytest.mark.slow
@pytest.mark.usefixtures("stub_env")
def test_compile_error_at_kernel_line(tmp_path: Path) -> None:
    p = _write(tmp_path, 0)
    bad = KERNEL.replace("uint32_t todo", "uint32_t todo = expf(1.0f); uint32_t todo2")
    (tmp_path / "k.cpp").write_text(bad, encoding="utf-8")
    r = _run(p)
    assert r.stage_reached == "compile" and not r.compiled  # type: ignore[attr-defined]
    d = r.diagnostics[0]  # type: ignore[attr-defined]
    assert d.span.start.line == 11 and d.category == "libm-in-kernel" and d.code == "compile-error"


@pytest.mark.slow
@pytest.mark.usefixtures("stub_env")
def test_params_mismatch_points_at_the_spec(tmp_path: Path) -> None:
    p = _write(tmp_path, 0)
    p.write_text(SPEC.replace("MODE", "0").replace("pass: pointer, ", "pass: pointer, ") + "params: [x, z]\n")
    r = _run(p)
    assert not r.compiled  # type: ignore[attr-defined]
    assert any("params order" in d.message for d in r.diagnostics)  # type: ignore[attr-defined]


def test_missing_source_is_a_spec_error(tmp_path: Path) -> None:
    p = tmp_path / "s.yaml"
    p.write_text(SPEC.replace("MODE", "0"), encoding="utf-8")
    with pytest.raises(SpecError, match="kernel source not found"):
        _run(p)


@pytest.mark.slow
@pytest.mark.usefixtures("stub_env")
def test_cli_exit_codes_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _write(tmp_path, 0)
    assert cli_main(["run", str(good), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"stage_reached", "compiled", "ran", "correct", "diagnostics", "max_abs_error",
                        "mismatches", "estimate"}  # fmt: skip
    assert cli_main(["run", str(_write(tmp_path, 6))]) == 1
    assert "precision-mismatch" in capsys.readouterr().out
    assert cli_main(["run", str(tmp_path / "none.yaml")]) == 2
    err = capsys.readouterr().err
    assert "no such file" in err and err.count("\n") == 1
    bad = tmp_path / "bad.yaml"
    bad.write_text("kernel: k\nblock_dim: x\n")
    assert cli_main(["run", str(bad)]) == 2
    assert "block_dim: expected an integer" in capsys.readouterr().err
    assert cli_main(["run", str(good), "--source", str(tmp_path / "nope.cpp")]) == 2
    assert cli_main(["run", str(good), "--trace", str(tmp_path / "no" / "dir" / "t.json")]) == 2
