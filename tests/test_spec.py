"""Kernel spec loading: every key of the design page, and clear one-line errors naming file and field."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from ascendc_lsp.toolchain.spec import SpecError, load_spec, spec_from_dict

FULL = """
kernel: add_custom
source: add_custom.cpp
soc: Ascend910B
block_dim: 8
include_dirs: [.]
inputs:
  - {name: x, shape: [8, 2048], dtype: float16, init: {uniform: [-1, 1]}}
  - {name: y, shape: [8, 2048], dtype: half, init: {normal: [0, 2]}, inject: [[0, .inf], [5, .nan]]}
  - {name: i, shape: [16], dtype: int32, init: {randint: [0, 5]}}
  - {name: a, shape: 4, dtype: bfloat16, init: arange}
  - {name: v, shape: [2, 2], dtype: uint8, init: {values: [[1, 2], [3, 4]]}}
  - {name: b, shape: [1], dtype: bool, init: zeros}
outputs:
  - {name: z, shape: [8, 2048], dtype: float16, tolerance: {rtol: 1e-2, atol: 1.0e-2}}
  - {name: scratch, shape: [64], dtype: float32, compare: false}
workspace_bytes: 1024
tiling:
  struct: AddCustomTilingData
  pass: value
  fields: {totalLength: 16384, tileNum: 8, arr: [1, 2], sub: {m: 1}}
  header: add_custom.cpp
  key: 1
params: [x, y, i, a, v, b, z, scratch, workspace, tiling]
reference: |
  z = x + y
tolerance: {rtol: 1.0e-3, atol: 1.0e-3}
seed: 7
description: "test"
defines: {DTYPE_X: half, USE_FAST: 1, FLAG: null}
"""


def write(tmp_path: Path, text: str, name: str = "spec.yaml") -> Path:
    (tmp_path / "add_custom.cpp").write_text("// kernel\n")
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_full_spec(tmp_path: Path) -> None:
    s = load_spec(write(tmp_path, FULL))
    assert s.kernel == "add_custom" and s.block_dim == 8 and s.soc == "Ascend910B"
    assert s.source == (tmp_path / "add_custom.cpp").resolve()
    assert s.include_dirs == [tmp_path.resolve()]
    assert [t.dtype for t in s.inputs] == ["float16", "float16", "int32", "bfloat16", "uint8", "bool"]
    assert s.inputs[0].shape == (8, 2048) and s.inputs[3].shape == (4,)
    assert s.inputs[1].inject[0] == (0, math.inf) and math.isnan(s.inputs[1].inject[1][1])
    assert s.inputs[4].init is not None and s.inputs[4].init.args == [1, 2, 3, 4]
    z = s.outputs[0]
    assert z.tolerance is not None and z.tolerance.rtol == pytest.approx(
        1e-2
    )  # "1e-2" is a string in YAML 1.1
    assert s.tolerance_for(s.outputs[1]).rtol == pytest.approx(1e-3)
    assert not s.outputs[1].compare
    assert s.tiling is not None and s.tiling.pass_mode == "value" and s.tiling.key == 1
    assert s.tiling.fields["sub"] == {"m": 1} and s.tiling.fields["arr"] == [1, 2]
    assert s.param_order()[-2:] == ["workspace", "tiling"]
    assert s.seed == 7 and s.workspace_bytes == 1024
    assert s.defines == {"DTYPE_X": "half", "USE_FAST": "1", "FLAG": None}
    assert s.warnings == []


def test_default_param_order_and_tolerance(tmp_path: Path) -> None:
    s = spec_from_dict(
        {
            "kernel": "k",
            "block_dim": 1,
            "inputs": [{"name": "x", "shape": [32], "dtype": "float32"}],
            "outputs": [{"name": "y", "shape": [32], "dtype": "float16"}],
            "tiling": {"struct": "T", "fields": {"n": 32}},
            "reference": "y = x",
        },
        base_dir=tmp_path,
    )
    assert s.param_order() == ["x", "y", "tiling"]
    assert s.tiling is not None and s.tiling.pass_mode == "pointer"
    tol = s.tolerance_for(s.outputs[0])
    assert (tol.rtol, tol.atol) == (1e-3, 1e-5)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("kernel: [", "invalid YAML at line"),
        ("- a\n- b\n", "expected a YAML mapping"),
        ("", "the spec is empty"),
        ("block_dim: 1\noutputs: []\n", "kernel: missing"),
        (
            "kernel: k\noutputs: [{name: y, shape: [1], dtype: float32}]\nreference: y=1\n",
            "block_dim: missing",
        ),
        ("kernel: k\nblock_dim: 0\n", "block_dim: must be >= 1"),
        (
            "kernel: k\nblock_dim: 1\noutputs: [{name: y, shape: [1], dtype: float64}]\n",
            "outputs[0].dtype: unknown dtype",
        ),
        (
            "kernel: k\nblock_dim: 1\noutputs: [{name: y, shape: [0], dtype: float32}]\n",
            "outputs[0].shape[0]: must be >= 1",
        ),
        ("kernel: k\nblock_dim: 1\noutputs: [{name: y, shape: [4], dtype: float32}]\n", "reference: missing"),
        (
            "kernel: k\nblock_dim: 1\noutputs: [{name: y, shape: [4], dtype: float32}]\nreference: 'y = ('\n",
            "reference: Python syntax error",
        ),
        (
            "kernel: k\nblock_dim: 1\ninputs: [{name: x, shape: [4], dtype: float32, init: {values: [1, 2]}}]\n"
            "outputs: [{name: y, shape: [4], dtype: float32}]\nreference: y = x\n",
            "inputs[0].init.values: has 2 values",
        ),
        (
            "kernel: k\nblock_dim: 1\ninputs: [{name: x, shape: [4], dtype: float32, init: {randint: [3, 3]}}]\n"
            "outputs: [{name: y, shape: [4], dtype: float32}]\nreference: y = x\n",
            "inputs[0].init.randint",
        ),
        (
            "kernel: k\nblock_dim: 1\ninputs: [{name: x, shape: [4], dtype: float32, inject: [[9, 1]]}]\n"
            "outputs: [{name: y, shape: [4], dtype: float32}]\nreference: y = x\n",
            "index 9 is outside",
        ),
        (
            "kernel: k\nblock_dim: 1\ninputs: [{name: y, shape: [4], dtype: float32}]\n"
            "outputs: [{name: y, shape: [4], dtype: float32}]\nreference: y = y\n",
            "'y' is already used",
        ),
        (
            "kernel: k\nblock_dim: 1\noutputs: [{name: y, shape: [4], dtype: float32}]\nparams: [y, q]\nreference: y=1\n",
            "params[1]: 'q' is not an input",
        ),
        (
            "kernel: k\nblock_dim: 1\noutputs: [{name: y, shape: [4], dtype: float32}]\nparams: [tiling]\nreference: y=1\n",
            "no tiling section",
        ),
        (
            "kernel: k\nblock_dim: 1\noutputs: [{name: y, shape: [4], dtype: float32}]\nreference: y=1\n"
            "tiling: {struct: 'bad name', fields: {}}\n",
            "tiling.struct",
        ),
        (
            "kernel: k\nblock_dim: 1\noutputs: [{name: y, shape: [4], dtype: float32}]\nreference: y=1\n"
            "tiling: {struct: T, pass: ref}\n",
            "tiling.pass: expected pointer or value",
        ),
        (
            "kernel: k\nblock_dim: 1\noutputs: [{name: y, shape: [4], dtype: float32}]\nreference: y=1\ninclude_dirs: [nope]\n",
            "include_dirs[0]: directory not found",
        ),
        (
            "kernel: k\nblock_dim: 1\noutputs: [{name: y, shape: [4], dtype: float32}]\nreference: y=1\n"
            "tolerance: {rtol: -1}\n",
            "tolerance.rtol: must be a finite number >= 0",
        ),
        (
            "kernel: int\nblock_dim: 1\noutputs: [{name: y, shape: [4], dtype: float32}]\nreference: y=1\n",
            "C++ keyword",
        ),
        (
            "kernel: k\nblock_dim: 1\noutputs: [{name: workspace, shape: [4], dtype: float32}]\nreference: y=1\n",
            "reserved",
        ),
        (
            "kernel: k\nblock_dim: 1\ninputs: [{name: x, shape: [4], dtype: float32, init: {file: none.npy}}]\n"
            "outputs: [{name: y, shape: [4], dtype: float32}]\nreference: y=1\n",
            "init.file: file not found",
        ),
    ],
)
def test_errors_name_file_and_field(tmp_path: Path, text: str, needle: str) -> None:
    p = write(tmp_path, text)
    with pytest.raises(SpecError) as exc:
        load_spec(p)
    msg = str(exc.value)
    assert needle in msg, msg
    assert msg.startswith(str(p)), msg
    assert "\n" not in msg


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="no such file"):
        load_spec(tmp_path / "nope.yaml")
    with pytest.raises(SpecError, match="is a directory"):
        load_spec(tmp_path)
    bad = tmp_path / "bin.yaml"
    bad.write_bytes(b"\xff\xfe\x00kernel")
    with pytest.raises(SpecError, match="not UTF-8"):
        load_spec(bad)


def test_unknown_keys_warn_with_suggestion(tmp_path: Path) -> None:
    p = write(
        tmp_path,
        "kernel: k\nblock_dim: 1\nblock_num: 2\noutputs: [{name: y, shape: [4], dtype: float32, dtyp: x}]\n"
        "reference: y = 1\nx-note: fine\n",
    )
    s = load_spec(p)
    assert any("block_num: unknown key" in w and "did you mean 'block_dim'" in w for w in s.warnings)
    assert any("outputs[0].dtyp" in w for w in s.warnings)
    assert not any("x-note" in w for w in s.warnings)


def test_tolerance_profile(tmp_path: Path) -> None:
    s = load_spec(
        write(tmp_path, "kernel: k\nblock_dim: 1\noutputs: [{name: y, shape: [4], dtype: float32}]\n"
                        "reference: y = 1\ntolerance: multikernelbench\n")
    )  # fmt: skip
    assert s.tolerance is not None and s.tolerance.rtol == 1e-2 and s.tolerance.atol == 1e-2
