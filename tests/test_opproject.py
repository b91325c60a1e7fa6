"""Op projects as a toolchain unit, on small projects we wrote (tests/op_projects, test cases in tests/op_cases):
discovery and the include rule, OpDef variants and build macros, kernel-side tiling struct generation, the host
program (OpDef + TilingFunc on the CPU), end-to-end runs, failures, and the `run` command."""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from pathlib import Path
from typing import Any

import pytest

from ascendc_lsp.cli import main as cli_main
from ascendc_lsp.toolchain.emulator import build, harness
from ascendc_lsp.toolchain.opproject import host
from ascendc_lsp.toolchain.opproject.discovery import (
    OpProjectError,
    find_project,
    resolve_include_dirs,
    snake_case,
)
from ascendc_lsp.toolchain.opproject.opbuild import Described, Prepared, describe_project, prepare, run_case
from ascendc_lsp.toolchain.opproject.opdef import OpDef, Param, build_macros, pick_variant, variants
from ascendc_lsp.toolchain.opproject.testcase import case_from_dict, load_test_case
from ascendc_lsp.toolchain.opproject.tilingstruct import (
    Binding,
    Field,
    KernelRegistrations,
    TilingClass,
    generate_header,
    kernel_registrations,
    struct_for,
)
from ascendc_lsp.toolchain.spec import KernelSpec, SpecError, TensorSpec, TilingSpec

TESTS = Path(__file__).resolve().parent
PROJECTS = TESTS / "op_projects"
CASES = TESTS / "op_cases"
SCALE_ADD = PROJECTS / "scale_add"
needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="the op build needs g++")


# ----------------------------------------------------------------------------------------------------------------
# discovery


def test_snake_case_follows_msopgen_names() -> None:
    assert snake_case("AddCustom") == "add_custom"
    assert snake_case("AvgPool3D") == "avg_pool3_d"
    assert snake_case("IsFinite") == "is_finite"
    assert snake_case("GeGluV2") == "ge_glu_v2"
    assert snake_case("MatMulV3") == "mat_mul_v3"


def test_find_project_from_any_path_in_it() -> None:
    for p in (SCALE_ADD, SCALE_ADD / "op_host", SCALE_ADD / "op_kernel" / "scale_add_custom.cpp"):
        proj = find_project(p)
        assert proj.root == SCALE_ADD.resolve()
        assert proj.op_host == SCALE_ADD.resolve() / "op_host"
    assert find_project(SCALE_ADD).kernel_for("ScaleAddCustom").name == "scale_add_custom"
    with pytest.raises(OpProjectError, match="not inside an op project"):
        find_project(TESTS / "kernels")
    with pytest.raises(OpProjectError, match="no such file"):
        find_project(TESTS / "no_such_folder")


def test_a_cmake_op_package_in_one_folder_is_an_op_project(tmp_path: Path) -> None:
    """The CANN cmake modules' op package (npu_op_code_gen SRC <host>, npu_op_kernel_sources OP_TYPE/KERNEL_FILE)
    keeps host and kernel in one folder: the host sources and the kernel file are the ones the CMakeLists.txt
    names, so the kernel gets its op's DTYPE_ macros as from op_host/ + op_kernel/."""
    pkg = tmp_path / "SquarePkg"
    pkg.mkdir()
    square = PROJECTS / "square"
    host_text = (square / "op_host" / "square_custom.cpp").read_text()
    (pkg / "square_custom_host.cpp").write_text(host_text.replace("../op_kernel/square_custom_tiling.h", "square_custom_tiling.h"))
    for name in ("square_custom.cpp", "square_custom_tiling.h"):
        shutil.copy(square / "op_kernel" / name, pkg / name.replace("square_custom.cpp", "square_custom_kernel.cpp"))
    (pkg / "CMakeLists.txt").write_text(
        "project(opp)\nfind_package(ASC REQUIRED)\n"
        "file(GLOB host_ops_srcs ${CMAKE_CURRENT_SOURCE_DIR}/square_custom_host.cpp)\n"
        "npu_op_code_gen(SRC ${host_ops_srcs} PACKAGE ${vendor_name} OUT_DIR ${ASCEND_AUTOGEN_PATH})\n"
        "npu_op_kernel_library(ascendc_kernels SRC_BASE ${CMAKE_SOURCE_DIR}/ TILING_LIBRARY cust_optiling)\n"
        "npu_op_kernel_sources(ascendc_kernels OP_TYPE SquareCustom KERNEL_FILE square_custom_kernel.cpp)\n"
    )
    proj = find_project(pkg / "square_custom_kernel.cpp")
    assert proj.root == pkg.resolve() and proj.op_host == pkg.resolve()
    assert [p.name for p in proj.host_sources()] == ["square_custom_host.cpp"]  # not the kernel file
    assert proj.kernel_for("SquareCustom").file.name == "square_custom_kernel.cpp"
    (pkg / "CMakeLists.txt").write_text("project(opp)\nadd_executable(demo main.cpp)\n")  # no op package
    with pytest.raises(OpProjectError, match="not inside an op project"):
        find_project(pkg / "square_custom_kernel.cpp")


def test_tiling_header_included_under_another_snake_case_spelling_resolves(tmp_path: Path) -> None:
    """msOpGen names BAMCustom's files b_a_m_custom*; generated host code includes "bam_custom_tiling.h"."""
    proj = tmp_path / "BAMCustom"
    (proj / "op_host").mkdir(parents=True)
    (proj / "op_kernel").mkdir()
    (proj / "op_host" / "b_a_m_custom_tiling.h").write_text("#pragma once\n")
    (proj / "op_host" / "b_a_m_custom.cpp").write_text(
        '#include "bam_custom_tiling.h"\n#include "missing_tiling.h"\n#include "register/op_def_registry.h"\n'
    )
    project = find_project(proj)
    srcs = [proj.resolve() / "op_host" / "b_a_m_custom.cpp"]
    folder = host.tiling_header_aliases(project, srcs, [project.op_host])
    assert folder is not None
    assert sorted(p.name for p in folder.iterdir()) == ["bam_custom_tiling.h"]  # no alias for an unrelated name
    assert str(project.op_host / "b_a_m_custom_tiling.h") in (folder / "bam_custom_tiling.h").read_text()
    (proj / "op_host" / "bam_custom_tiling.h").write_text("#pragma once\n")  # the file itself exists: no alias
    assert host.tiling_header_aliases(project, srcs, [project.op_host]) is None


def test_kernel_entry_must_match_the_op(tmp_path: Path) -> None:
    proj = tmp_path / "P"
    (proj / "op_host").mkdir(parents=True)
    (proj / "op_kernel").mkdir()
    (proj / "op_kernel" / "a.cpp").write_text(
        'extern "C" __global__ __aicore__ void first_op(GM_ADDR x) {}\n'
    )
    (proj / "op_kernel" / "b.cpp").write_text(
        'extern "C" __global__ __aicore__ void second_op(GM_ADDR x) {}\n'
    )
    p = find_project(proj)
    assert p.kernel_for("SecondOp").file.name == "b.cpp"
    with pytest.raises(OpProjectError, match="expected third_op; found first_op, second_op"):
        p.kernel_for("ThirdOp")


def test_include_rule_picks_the_nearest_match_and_skips_sdk_trees(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    near = repo / "ops" / "common" / "util"
    far = repo / "far" / "deep" / "util"
    sdk = repo / "include" / "util"
    for d in (near, far, sdk):
        d.mkdir(parents=True)
        (d / "helper.h").write_text('#include "more/inner.h"\n')
    (repo / "include" / "kernel_operator.h").write_text("// an SDK\n")
    (repo / "ops" / "common" / "more").mkdir()
    (repo / "ops" / "common" / "more" / "inner.h").write_text("\n")
    src = repo / "ops" / "a" / "op_kernel" / "k.cpp"
    src.parent.mkdir(parents=True)
    src.write_text('#include "util/helper.h"\n#include <vector>\n#include "missing_everywhere.h"\n')
    found = resolve_include_dirs([src], repo, provided=[])
    assert found == [(repo / "ops" / "common").resolve()]


# ----------------------------------------------------------------------------------------------------------------
# OpDef variants and macros


def _param(
    name: str, dtypes: list[str], *, lst: bool = False, follow: str = "", ptype: str = "required"
) -> Param:
    return Param(name, ptype, dtypes, lst, ["FORMAT_ND"] * (len(dtypes) if dtypes else 0), False, follow)


def test_variants_combine_columns_lists_and_follow() -> None:
    op = OpDef(
        "Demo",
        "demo.cpp",
        10,
        inputs=[
            _param("x", ["DT_FLOAT16", "DT_FLOAT"]),
            _param("scale", ["DT_FLOAT", "DT_BF16"], lst=True),
        ],
        outputs=[_param("y", [], follow="x")],
        attrs=[],
    )
    vs = variants(op)
    got = [(v.dtype("x"), v.dtype("scale"), v.dtype("y")) for v in vs]
    assert got == [
        ("DT_FLOAT16", "DT_FLOAT", "DT_FLOAT16"),
        ("DT_FLOAT16", "DT_BF16", "DT_FLOAT16"),
        ("DT_FLOAT", "DT_FLOAT", "DT_FLOAT"),
        ("DT_FLOAT", "DT_BF16", "DT_FLOAT"),
    ]
    v = pick_variant(op, {"x": "float32", "scale": "bfloat16"})
    assert (v.dtype("x"), v.dtype("scale")) == ("DT_FLOAT", "DT_BF16")
    with pytest.raises(
        ValueError, match=r"no dtype combination of Demo matches x=int32: the OpDef registers x=float16"
    ):
        pick_variant(op, {"x": "int32"})


def test_macros_define_dtype_orig_dtype_format_and_ref_outputs() -> None:
    op = OpDef(
        "Inplace", "f.cpp", 1, inputs=[_param("x", ["DT_BF16"])], outputs=[_param("x", ["DT_BF16"])], attrs=[]
    )
    v = variants(op)[0]
    macros = dict(build_macros(op, v, {"DT_FLOAT": 0, "DT_BF16": 27}, {"FORMAT_ND": 2}))
    assert macros["DT_BF16"] == "27" and macros["FORMAT_ND"] == "2"
    assert (
        macros["DTYPE_X"] == "bfloat16_t"
        and macros["ORIG_DTYPE_X"] == "DT_BF16"
        and macros["FORMAT_X"] == "FORMAT_ND"
    )
    assert macros["DTYPE_X_REF"] == "bfloat16_t"


# ----------------------------------------------------------------------------------------------------------------
# tiling structs


def _classes() -> list[TilingClass]:
    sub = TilingClass(
        "Sub",
        "h.h",
        3,
        12,
        [Field("scalar", "uint32_t", "a", 4, 1, 0), Field("array", "uint16_t", "arr", 2, 3, 4)],
    )
    top = TilingClass(
        "TopTiling",
        "h.h",
        9,
        24,
        [
            Field("scalar", "uint64_t", "n", 8, 1, 0),
            Field("struct", "Sub", "sub", 12, 1, 8),
            Field("scalar", "float", "f", 4, 1, 20),
        ],
    )
    return [sub, top]


def test_struct_for_follows_the_registrations() -> None:
    classes = _classes()
    binds = [
        Binding("MyOp", "TopTiling", "h.h", 20),
        Binding("MyOp_7", "Sub", "h.h", 21),
        Binding("SubOp", "Sub", "h.h", 5),
    ]
    assert struct_for("MyOp", None, binds, classes, KernelRegistrations())[0] == "TopTiling"
    assert struct_for("MyOp", 7, binds, classes, KernelRegistrations())[0] == "Sub"
    assert struct_for("MyOp", 3, binds, classes, KernelRegistrations())[0] == "TopTiling"
    regs = kernel_registrations(
        "// REGISTER_TILING_DEFAULT(Nope)\nREGISTER_TILING_DEFAULT(PlainData);\n"
        'REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR == 2", KeyTwo);'
    )
    assert regs.default == "PlainData" and regs.by_key == {2: "KeyTwo"}
    assert struct_for("MyOp", 2, binds, classes, regs)[0] == "KeyTwo"
    assert struct_for("MyOp", None, binds, classes, regs)[0] == "PlainData"
    none, why = struct_for("Other", None, binds, classes, KernelRegistrations())
    assert none is None and "no tiling class is registered for Other" in why


@needs_gxx
def test_generated_structs_compile_at_global_scope_with_the_host_layout(tmp_path: Path) -> None:
    text = generate_header([("DTYPE_X", "half"), ("DT_FLOAT", "0")], _classes(), "test")
    assert text.index("struct Sub {") < text.index("struct TopTiling {")
    header = tmp_path / "gen.h"
    header.write_text(text)
    src = tmp_path / "k.cpp"
    src.write_text(
        "#include <cstddef>\n"
        'static_assert(sizeof(TopTiling) == 24, "");\n'
        'static_assert(offsetof(TopTiling, f) == 20, "");\n'
        "using namespace optiling;\n"
        "TopTiling t; Sub s; DTYPE_X h;\n"
        'static_assert(DT_FLOAT == 0, "");\n'
    )
    r = build.syntax_check(src, prelude=f'#include "{header}"', read_paths=[tmp_path])
    assert r.ok, r.stderr
    bad = TilingClass("Wrong", "h.h", 1, 99, [Field("scalar", "uint32_t", "a", 4, 1, 0)])
    header.write_text(generate_header([], [bad], "test"))
    plain = tmp_path / "k2.cpp"
    plain.write_text("int x;\n")
    r = build.syntax_check(plain, prelude=f'#include "{header}"', read_paths=[tmp_path])
    assert not r.ok and "must have the host layout (99 B)" in r.stderr


def test_harness_passes_host_bytes_with_field_overrides() -> None:
    spec = KernelSpec(
        kernel="k",
        block_dim=2,
        inputs=[TensorSpec("x", (16,), "float32")],
        outputs=[TensorSpec("y", (16,), "float32")],
        reference="y = x",
        base_dir=Path("."),
        params=["x", "__absent_bias", "y", "workspace", "tiling"],
        tiling=TilingSpec(struct="TopTiling", raw=bytes([1, 2, 3]), fields={"f": 2.5}),
    )
    text = harness.generate(spec, Path("/k.cpp"))
    assert "emu_tiling_raw[3] = {1, 2, 3}" in text
    assert "emu_tiling_value.f = " in text and "sizeof(TopTiling)" in text
    assert "k(emu_x, nullptr, emu_y, emu_workspace, emu_tiling)" in text


# ----------------------------------------------------------------------------------------------------------------
# test case format


def test_tensor_lists_expand_to_members_and_a_descriptor_in_gm(tmp_path: Path) -> None:
    case = case_from_dict(
        {
            "project": str(SCALE_ADD),
            "inputs": [
                {
                    "name": "x",
                    "dtype": "float16",
                    "init": {"zeros": None},
                    "list": [{"shape": [4]}, {"shape": [2, 3]}],
                }
            ],
            "outputs": [{"name": "y", "list": [{"shape": [4]}, {"shape": [2, 3], "dtype": "float32"}]}],
            "reference": "y = x",
        },
        tmp_path,
        origin="c.yaml",
    )
    assert [(t.name, t.group, t.shape, t.dtype) for t in case.inputs] == [
        ("x_0", "x", (4,), "float16"),
        ("x_1", "x", (2, 3), "float16"),
    ]
    assert [(t.name, t.dtype) for t in case.outputs] == [("y_0", None), ("y_1", "float32")]
    spec = KernelSpec(
        kernel="k",
        block_dim=1,
        inputs=[t.spec for t in case.inputs if t.spec is not None],
        outputs=[TensorSpec("y_0", (4,), "float16"), TensorSpec("y_1", (2, 3), "float32")],
        reference="y = x",
        base_dir=tmp_path,
        params=["x", "y"],
        tensor_lists={"x": ["x_0", "x_1"], "y": ["y_0", "y_1"]},
    )
    text = harness.generate(spec, Path("/k.cpp"))
    # word 0: byte offset of the address table (8 + 2 + 3 words); per tensor (index << 32 | rank) and its dims
    assert "emu_x_list[] = {48ull, (0ull << 32) | 1ull, 4ull, (1ull << 32) | 2ull, 2ull, 3ull," in text
    assert "(uint64_t)(uintptr_t)emu_x_0, (uint64_t)(uintptr_t)emu_x_1}" in text
    assert 'emu_y_1 = emu_h.Output("y_1", 24);' in text and "k(emu_x, emu_y)" in text
    assert text.count('emu_h.Output("y_0"') == 1  # members of a listed parameter are not allocated twice


def test_test_case_validation_messages(tmp_path: Path) -> None:
    base = {
        "project": str(SCALE_ADD),
        "inputs": [{"name": "x", "shape": [8], "dtype": "float16"}],
        "outputs": [{"name": "y"}],
        "reference": "y = x",
    }
    case = case_from_dict(base, tmp_path, origin="c.yaml")
    assert case.outputs[0].shape is None and case.outputs[0].dtype is None
    with pytest.raises(SpecError, match=r"c.yaml: project: not found"):
        case_from_dict({**base, "project": "nowhere"}, tmp_path, origin="c.yaml")
    with pytest.raises(SpecError, match=r"outputs\[0\].name: 'x' is already used in inputs\[0\].*'x_ref'"):
        case_from_dict({**base, "outputs": [{"name": "x"}]}, tmp_path, origin="c.yaml")
    with pytest.raises(SpecError, match="tiling_bytes: expected hex bytes"):
        case_from_dict({**base, "tiling_bytes": "xyz"}, tmp_path, origin="c.yaml")
    with pytest.raises(SpecError, match="reference: missing"):
        case_from_dict({k: v for k, v in base.items() if k != "reference"}, tmp_path, origin="c.yaml")
    warn = case_from_dict({**base, "atrs": {}}, tmp_path, origin="c.yaml")
    assert any("did you mean 'attrs'" in w for w in warn.warnings)


# ----------------------------------------------------------------------------------------------------------------
# the host program (slow: compiles op_host with g++)


@pytest.fixture(scope="module")
def scale_add() -> Described:
    d = describe_project(find_project(SCALE_ADD))
    assert isinstance(d, Described), getattr(d, "diagnostics", d)
    return d


@needs_gxx
@pytest.mark.slow
def test_host_describes_the_opdef(scale_add: Described) -> None:
    op = scale_add.op(None)
    assert op.type == "ScaleAddCustom" and op.file.endswith("op_host/scale_add_custom.cpp")
    assert [(p.name, p.param_type, p.dtypes) for p in op.inputs] == [
        ("x", "required", ["DT_FLOAT16", "DT_FLOAT"]),
        ("bias", "optional", ["DT_FLOAT16", "DT_FLOAT"]),
    ]
    assert op.outputs[0].follow == "x"
    assert [(a.name, a.type, a.required, a.default) for a in op.attrs] == [
        ("alpha", "float", False, 1.0),
        ("blocks", "int", False, 0),
    ]
    assert op.has_tiling and op.has_infer_shape and "ascend910b" in op.configs
    assert scale_add.dtype_numbers["DT_BF16"] == 27 and scale_add.format_numbers["FORMAT_FRACTAL_NZ"] == 29
    with pytest.raises(OpProjectError, match="op Nope is not registered"):
        scale_add.op("Nope")


@needs_gxx
@pytest.mark.slow
def test_host_describes_tiling_classes_and_bindings(scale_add: Described) -> None:
    cls = {c.name: c for c in scale_add.classes}
    top = cls["ScaleAddTilingData"]
    assert [(f.kind, f.type, f.name, f.offset) for f in top.fields] == [
        ("scalar", "uint64_t", "totalLength", 0),
        ("scalar", "float", "alpha", 8),
        ("scalar", "uint32_t", "blockLength", 12),
        ("scalar", "uint16_t", "hasBias", 16),
        ("struct", "ScaleAddTileInfo", "tile", 20),
    ]
    assert top.size == 32 and not top.api
    assert [(f.name, f.count) for f in cls["ScaleAddTileInfo"].fields] == [("tileLength", 1), ("loops", 2)]
    binds = {(b.op, b.cls) for b in scale_add.bindings}
    assert {
        ("ScaleAddCustom", "ScaleAddTilingData"),
        ("ScaleAddCustom_2", "ScaleAddNoBiasTilingData"),
        ("ScaleAddTileInfoOp", "ScaleAddTileInfo"),
    } <= binds


@needs_gxx
@pytest.mark.slow
def test_host_tiling_decides_block_dim_key_bytes_and_workspace() -> None:
    prep = prepare(load_test_case(CASES / "scale_add_fp32_nobias.yaml"))
    assert isinstance(prep, Prepared), prep
    spec = prep.spec
    assert spec.block_dim == 4 and spec.tiling is not None and spec.tiling.key == 2
    assert (
        spec.tiling.struct == "ScaleAddNoBiasTilingData"
    )  # REGISTER_TILING_DATA_CLASS(ScaleAddCustom_2, ...)
    raw = spec.tiling.raw or b""
    assert len(raw) == 20 and int.from_bytes(raw[0:4], "little") == 3000  # blockLength via SetDataPtr setters
    assert spec.workspace_bytes == 4096  # the host asked GetLibApiWorkSpaceSize() + 4096
    assert spec.params == ["x", "__absent_bias", "y", "workspace", "tiling"]
    assert spec.reference_vars == {"alpha": -1.5, "blocks": 4}
    macros = dict(prep.kernel.macros)
    assert macros["DTYPE_X"] == "float" and macros["ORIG_DTYPE_Y"] == "DT_FLOAT"
    header = prep.kernel.header.read_text()
    assert "struct ScaleAddTilingData {" in header and "ScaleAddTileInfo tile;" in header
    assert "#define ORIG_DTYPE_X DT_FLOAT" in header


@needs_gxx
@pytest.mark.slow
@pytest.mark.parametrize(
    "case", ["scale_add_fp16_bias", "scale_add_fp32_nobias", "square_negate", "list_scale"]
)
def test_our_op_projects_run_from_their_test_cases(case: str) -> None:
    r = run_case(load_test_case(CASES / f"{case}.yaml"))
    assert r.correct, [d.message for d in r.diagnostics]
    assert r.stage_reached == "done"


@needs_gxx
@pytest.mark.slow
def test_tiling_failure_names_the_tiling_registration() -> None:
    case = load_test_case(CASES / "scale_add_fp32_nobias.yaml")
    case.attrs["alpha"] = 0.0
    r = run_case(case)
    assert not r.correct and r.stage_reached == "compile"
    d = r.diagnostics[0]
    assert d.code == "tiling-failed" and d.category == "tiling-runtime"
    assert d.file and d.file.endswith("op_host/scale_add_custom.cpp")
    src = Path(d.file).read_text().splitlines()[d.span.start.line]
    assert "SetTiling(optiling::TilingFunc)" in src
    assert "returned 4294967295 (GRAPH_FAILED)" in d.message and "alpha must not be 0" in d.message


@needs_gxx
@pytest.mark.slow
def test_bad_test_cases_name_the_opdef() -> None:
    base = load_test_case(CASES / "scale_add_fp32_nobias.yaml")
    case = load_test_case(CASES / "scale_add_fp32_nobias.yaml")
    case.inputs[0].dtype = "int32"
    assert case.inputs[0].spec is not None
    case.inputs[0].spec.dtype = "int32"
    with pytest.raises(
        OpProjectError,
        match=r"scale_add_custom.cpp:\d+: no dtype combination of ScaleAddCustom matches x=int32",
    ):
        prepare(case)
    case = load_test_case(CASES / "scale_add_fp32_nobias.yaml")
    case.inputs[0].name = "z"
    with pytest.raises(OpProjectError, match=r"inputs: 'z' is not an input of ScaleAddCustom .*has: x, bias"):
        prepare(case)
    case = load_test_case(CASES / "scale_add_fp32_nobias.yaml")
    case.attrs["alpha"] = "fast"
    with pytest.raises(OpProjectError, match=r"attrs.alpha: 'fast' is not a float"):
        prepare(case)
    assert base.op == "ScaleAddCustom"


def _write_project(root: Path, host_body: str) -> Path:
    (root / ".git").mkdir(parents=True)
    proj = root / "Broken"
    (proj / "op_host").mkdir(parents=True)
    (proj / "op_kernel").mkdir()
    (proj / "op_host" / "broken_custom.cpp").write_text(textwrap.dedent(host_body))
    (proj / "op_kernel" / "broken_custom.cpp").write_text(
        '#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void broken_custom(GM_ADDR x, GM_ADDR y, GM_ADDR w, GM_ADDR t) {}\n'
    )
    return proj


HOST_TEMPLATE = """\
    #include "register/op_def_registry.h"
    namespace optiling {
    static ge::graphStatus TilingFunc(gert::TilingContext* context)
    {
        BODY
        return ge::GRAPH_SUCCESS;
    }
    }
    namespace ops {
    class BrokenCustom : public OpDef {
    public:
        explicit BrokenCustom(const char* name) : OpDef(name)
        {
            this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
            this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
            this->AICore().SetTiling(optiling::TilingFunc);
        }
    };
    OP_ADD(BrokenCustom);
    }
"""


def _broken_case(proj: Path) -> dict[str, object]:
    return {
        "project": str(proj),
        "inputs": [{"name": "x", "shape": [8], "dtype": "float32"}],
        "outputs": [{"name": "y", "shape": [8]}],
        "reference": "y = x",
    }


@needs_gxx
@pytest.mark.slow
def test_op_host_compile_errors_point_at_the_project(tmp_path: Path) -> None:
    proj = _write_project(tmp_path, HOST_TEMPLATE.replace("BODY", "context->NoSuchMethod();"))
    r = run_case(case_from_dict(_broken_case(proj), tmp_path, origin="c.yaml"))
    assert not r.compiled and r.diagnostics
    d = r.diagnostics[0]
    assert d.code == "host-compile" and d.file and d.file.endswith("op_host/broken_custom.cpp")
    assert d.span.start.line == 4 and "NoSuchMethod" in d.message


@needs_gxx
@pytest.mark.slow
def test_a_crashing_tiling_func_is_reported_not_raised(tmp_path: Path) -> None:
    proj = _write_project(tmp_path, HOST_TEMPLATE.replace("BODY", "volatile int* p = nullptr; *p = 1;"))
    r = run_case(case_from_dict(_broken_case(proj), tmp_path, origin="c.yaml"))
    assert not r.correct
    d = r.diagnostics[0]
    assert d.code == "tiling-failed" and "crashed with SIGSEGV" in d.message
    assert d.file and d.file.endswith("broken_custom.cpp")


@needs_gxx
@pytest.mark.slow
def test_host_driver_reports_attrs_and_value_depend_inputs_to_the_tiling_func(tmp_path: Path) -> None:
    body = """
        const int64_t* k = context->GetAttrs()->GetInt(0);
        const auto* dims = context->GetAttrs()->GetListInt(1);
        const int32_t* data = context->GetInputTensor(1)->GetData<int32_t>();
        context->SetBlockDim(static_cast<uint32_t>(*k + dims->GetSize() + (data ? data[2] : 100)));
        context->SetTilingKey(dims->GetData()[1]);
    """
    host_src = HOST_TEMPLATE.replace("BODY", body).replace(
        'this->Output("y")',
        'this->Input("idx").ParamType(REQUIRED).ValueDepend(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});\n'
        '            this->Attr("k").AttrType(REQUIRED).Int();\n'
        '            this->Attr("dims").AttrType(OPTIONAL).ListInt({1, 2});\n'
        '            this->Output("y")',
    )
    proj = _write_project(tmp_path, host_src)
    case = _broken_case(proj)
    case["inputs"] = [
        *case["inputs"],
        {"name": "idx", "shape": [4], "dtype": "int32", "init": {"values": [5, 6, 7, 8]}},
    ]  # type: ignore[list-item]
    case["attrs"] = {"k": 3, "dims": [10, 20, 30]}
    prep = prepare(case_from_dict(case, tmp_path, origin="c.yaml"))
    assert isinstance(prep, Prepared), prep
    assert prep.spec.block_dim == 3 + 3 + 7
    assert prep.spec.tiling is not None and prep.spec.tiling.key == 20
    del case["attrs"]
    with pytest.raises(OpProjectError, match="required attribute 'k' has no value"):
        prepare(case_from_dict(case, tmp_path, origin="c.yaml"))


@needs_gxx
@pytest.mark.slow
def test_host_shim_platform_follows_the_soc_profile(tmp_path: Path) -> None:
    body = """
        auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
        uint64_t ub = 0, l0c = 0;
        plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
        plat.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c);
        context->SetBlockDim(plat.GetCoreNumAiv());
        context->SetTilingKey(ub * 1000000 + l0c);
        context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
        if (plat.GetSocVersion() != platform_ascendc::SocVersion::ASCEND910B) return ge::GRAPH_FAILED;
    """
    host_src = HOST_TEMPLATE.replace("BODY", body).replace(
        '#include "register', '#include "tiling/platform/platform_ascendc.h"\n    #include "register'
    )
    proj = _write_project(tmp_path, host_src)
    prep = prepare(case_from_dict(_broken_case(proj), tmp_path, origin="c.yaml"))
    assert isinstance(prep, Prepared), prep
    spec = prep.spec
    assert spec.block_dim == 48  # the emulator's Ascend910B (soc.py): 48 AIV
    assert (
        spec.tiling is not None and spec.tiling.key == 196352 * 1000000 + 131072
    )  # profile: UB - 256 B runtime reserve
    assert spec.workspace_bytes == 0  # exactly the system workspace


# ----------------------------------------------------------------------------------------------------------------
# the run command


@needs_gxx
@pytest.mark.slow
def test_run_command_takes_a_test_case_or_a_project_with_case(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["run", str(CASES / "scale_add_fp16_bias.yaml"), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["correct"] and out["stage_reached"] == "done"
    assert (
        cli_main(["run", str(SCALE_ADD / "op_kernel"), "--case", str(CASES / "scale_add_fp16_bias.yaml")])
        == 0
    )
    assert "CORRECT" in capsys.readouterr().out


def test_run_command_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["run", str(SCALE_ADD)]) == 2
    err = capsys.readouterr().err
    assert "an op project runs from a test case" in err and "--case" in err
    bad = tmp_path / "case.yaml"
    bad.write_text("project: nowhere\ninputs: []\noutputs: [{name: y}]\nreference: 'y = 1'\n")
    assert cli_main(["run", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "project: not found: nowhere" in err
    pub = tmp_path / "pub.yaml"
    pub.write_text("repository: nobody/nothing\nproject: a/b\noutputs: [{name: y}]\nreference: 'y = 1'\n")
    assert cli_main(["run", str(pub)]) == 2
    assert "repository nobody/nothing is not extracted" in capsys.readouterr().err


def test_host_include_dir_is_beside_the_kernel_headers() -> None:
    shims = host.host_include_dir()
    assert (shims / "register" / "op_def_registry.h").is_file()
    assert not (
        build.include_dir() / "register" / "op_def_registry.h"
    ).exists()  # kernels never see host headers
    harness_h = (build.include_dir() / "ascendc_emu" / "harness.h").read_text()
    assert (
        "kSysWorkspace = 16u << 20" in harness_h
    )  # opbuild.SYS_WORKSPACE_BYTES reports the same to the host


@needs_gxx
@pytest.mark.slow
def test_a_nested_tiling_struct_first_keeps_the_plain_layout(tmp_path: Path) -> None:
    """Host tiling classes have no common base: an empty base shared with a first nested member would pad."""
    head = """
    #include "register/tilingdata_base.h"
    namespace optiling {
    BEGIN_TILING_DATA_DEF(Inner)
    TILING_DATA_FIELD_DEF(uint32_t, a);
    END_TILING_DATA_DEF;
    BEGIN_TILING_DATA_DEF(Outer)
    TILING_DATA_FIELD_DEF_STRUCT(Inner, in);
    TILING_DATA_FIELD_DEF(uint32_t, b);
    END_TILING_DATA_DEF;
    REGISTER_TILING_DATA_CLASS(BrokenCustom, Outer)
    }
    """
    proj = _write_project(tmp_path, textwrap.dedent(head) + HOST_TEMPLATE.replace("BODY", ""))
    d = describe_project(find_project(proj))
    assert isinstance(d, Described)
    outer = {c.name: c for c in d.classes}["Outer"]
    assert outer.size == 8 and [(f.name, f.offset) for f in outer.fields] == [("in", 0), ("b", 4)]


EXAMPLE = TESTS.parent / "examples" / "framework_sub"


@needs_gxx
@pytest.mark.slow
def test_shipped_framework_example_runs_as_an_op_project(capsys: pytest.CaptureFixture[str]) -> None:
    r = run_case(load_test_case(EXAMPLE / "case.yaml"))
    assert r.correct, [d.message for d in r.diagnostics]
    # the same op with its buggy twin kernel (--source) fails as the spec's twin does
    buggy = EXAMPLE / "op_kernel" / "sub_scale_custom_buggy.cpp"
    assert cli_main(["run", str(EXAMPLE / "case.yaml"), "--source", str(buggy), "--format", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["category"] == "gm-out-of-bounds"


@needs_gxx
@pytest.mark.slow
def test_host_matmul_tiling_meets_the_documented_constraints(tmp_path: Path) -> None:
    """MultiCoreMatmulTiling on the CPU: the TCubeTiling fields the kernel-side Matmul reads, within L0/L1 sizes."""
    head = """
    #include "register/tilingdata_base.h"
    #include "tiling/tiling_api.h"
    namespace optiling {
    BEGIN_TILING_DATA_DEF(MmTiling)
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
    END_TILING_DATA_DEF;
    REGISTER_TILING_DATA_CLASS(BrokenCustom, MmTiling)
    }
    """
    body = """
        auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
        matmul_tiling::MultiCoreMatmulTiling mm(plat);
        mm.SetDim(plat.GetCoreNumAiv());
        mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
        mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
        mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
        mm.SetShape(1024, 640, 256);
        mm.SetOrgShape(1024, 640, 256);
        mm.SetFixSplit(-1, 160, -1);
        mm.SetBias(true);
        MmTiling t;
        if (mm.GetTiling(t.cube) == -1) return ge::GRAPH_FAILED;
        t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
        context->GetRawTilingData()->SetDataSize(t.GetDataSize());
        context->SetBlockDim(plat.GetCoreNumAic());
    """
    src = textwrap.dedent(head) + HOST_TEMPLATE.replace("BODY", body).replace(
        '#include "register/op_def_registry.h"',
        '#include "register/op_def_registry.h"\n    #include "tiling/tiling_api.h"',
    )
    proj = _write_project(tmp_path, src)
    prep = prepare(case_from_dict(_broken_case(proj), tmp_path, origin="c.yaml"))
    assert isinstance(prep, Prepared), prep
    raw = prep.spec.tiling.raw if prep.spec.tiling else b""
    assert raw is not None and len(raw) >= 4 * 20
    names = [
        "usedCoreNum",
        "M",
        "N",
        "Ka",
        "Kb",
        "singleCoreM",
        "singleCoreN",
        "singleCoreK",
        "baseM",
        "baseN",
        "baseK",
        "depthA1",
        "depthB1",
        "stepM",
        "stepN",
        "isBias",
    ]
    f = {n: int.from_bytes(raw[4 * i : 4 * i + 4], "little", signed=True) for i, n in enumerate(names)}
    assert (f["M"], f["N"], f["Ka"], f["Kb"], f["isBias"]) == (1024, 640, 256, 256, 1)
    assert f["baseN"] == 160 and f["singleCoreN"] % 160 == 0  # the fixed baseN, whole base blocks per core
    assert 1024 % f["singleCoreM"] == 0 and 640 % f["singleCoreN"] == 0  # no tail blocks
    assert f["usedCoreNum"] == (1024 // f["singleCoreM"]) * (640 // f["singleCoreN"]) <= 48
    assert f["baseM"] % 16 == 0 and f["baseM"] * f["baseN"] * 4 <= 131072  # L0C (float accumulators)
    assert (
        f["baseM"] * f["baseK"] * 2 * 2 <= 65536 and f["baseN"] * f["baseK"] * 2 * 2 <= 65536
    )  # L0A/L0B, doubled


@needs_gxx
@pytest.mark.slow
def test_a_kernel_named_like_a_c_library_function_still_builds(tmp_path: Path) -> None:
    """`extern "C" void abs(...)` clashes with the host C library on the CPU (not on the NPU): renamed there."""
    (tmp_path / ".git").mkdir()
    proj = tmp_path / "Abs"
    (proj / "op_host").mkdir(parents=True)
    (proj / "op_kernel").mkdir()
    host_src = HOST_TEMPLATE.replace("BODY", "context->SetBlockDim(1);").replace("BrokenCustom", "Abs")
    (proj / "op_host" / "abs.cpp").write_text(textwrap.dedent(host_src))
    (proj / "op_kernel" / "abs.cpp").write_text(
        '#include <cstdlib>\n#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void abs(GM_ADDR x, GM_ADDR y, GM_ADDR w, GM_ADDR t) {\n'
        "    AscendC::GlobalTensor<float> xg, yg;\n"
        "    xg.SetGlobalBuffer((__gm__ float*)x, 8);\n"
        "    yg.SetGlobalBuffer((__gm__ float*)y, 8);\n"
        "    for (int i = 0; i < 8; ++i) { float v = xg.GetValue(i); yg.SetValue(i, v < 0 ? -v : v); }\n"
        "}\n"
    )
    case = _broken_case(proj)
    case["reference"] = "y = np.abs(x)"
    r = run_case(case_from_dict(case, tmp_path, origin="c.yaml"))
    assert r.correct, [d.message for d in r.diagnostics]
    assert r.kernel == "abs"


@needs_gxx
@pytest.mark.slow
def test_fidelity_bench_counts_kinds_rates_and_causes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    sys.path.insert(0, str(TESTS.parent / "bench"))
    import fidelity

    repo = tmp_path / "trees" / "me+repo"
    shutil.copytree(PROJECTS / "square", repo / "ops" / "square")
    shutil.copytree(PROJECTS / "common", repo / "common")
    (repo / "kernels").mkdir()
    (repo / "kernels" / "broken.cpp").write_text(
        '#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void broken(GM_ADDR x) {\n    AscendC::NoSuchApi(x);\n}\n'
    )
    (repo / "kernels" / "sample.asc").write_text('__global__ __aicore__ void k(GM_ADDR x) {\n}\nint main() {}\n')
    monkeypatch.setattr(fidelity, "direct_checker", lambda: None)
    assert fidelity.main(["--trees", str(tmp_path / "trees"), "--no-run", "--no-cache", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"me\+repo\s+op\s+1\s+1\s+100\.0%", out), out
    assert re.search(r"me\+repo\s+kernel\s+1\s+0\s+0\.0%", out), out
    assert re.search(r"me\+repo\s+direct\s+1\s+0\s+not built", out), out
    assert "'NoSuchApi' is not a member of 'AscendC'" in out
    assert fidelity.normalise("/a/b/k.cpp:12:5: error: 'X' is not a member of 'AscendC'") == (
        "'X' is not a member of 'AscendC'"
    )


def _fidelity_module() -> Any:
    import sys

    sys.path.insert(0, str(TESTS.parent / "bench"))
    import fidelity

    return fidelity


def test_fidelity_classifies_macro_registered_ops_and_launch_wrappers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fidelity = _fidelity_module()
    trees = tmp_path / "trees"
    repo = trees / "me+lib"
    monkeypatch.setenv("ASCENDC_PUBLIC_TREES", str(trees))
    kernel = '#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR x) {\n}\n'
    wrapper = 'void k_do(uint32_t n, void* s, uint8_t* x) { k<<<n, nullptr, s>>>(x); }\n'
    files = {
        # an op library registering its ops through its own macro, in a header of the repository
        "common/inc/my_opdef.h": "#define MY_OPDEF(NAME) namespace ops { OP_ADD(NAME); }\n",
        "ops/foo/op_host/foo.cpp": '#include "my_opdef.h"\nMY_OPDEF(Foo)\n',
        "ops/foo/op_kernel/foo.cpp": kernel,
        # an op_host that registers nothing: its kernels are plain kernel sources
        "ops/bar/op_host/bar.cpp": "int tiling_only;\n",
        "ops/bar/op_kernel/bar.cpp": kernel,
        # a kernel library with a launch wrapper (a pybind extension calls it): no main anywhere
        "ext/kernel.cpp": kernel + wrapper,
        "ext/pybind.cpp": "void bind();\n",
        # a direct-launch program: the launch's folder has a main()
        "app/kernel.cpp": kernel + wrapper,
        "app/main.cpp": "int main() { return 0; }\n",
        # a program whose one source holds the kernel and `int32_t main(` (the devkit samples' spelling)
        "solo/main.cpp": kernel + "int32_t main(int32_t argc, char* argv[]) { return 0; }\n",
    }
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    got = {rel: fidelity.classify(repo / rel, text) for rel, text in files.items() if "__global__" in text}
    assert got == {
        "ops/foo/op_kernel/foo.cpp": "op",
        "ops/bar/op_kernel/bar.cpp": "kernel",
        "ext/kernel.cpp": "kernel",
        "app/kernel.cpp": "direct",
        "solo/main.cpp": "direct",
    }


@needs_gxx
def test_syntax_check_lowers_a_kernel_sources_own_launches(tmp_path: Path) -> None:
    src = tmp_path / "wrapped.cpp"
    body = textwrap.dedent(
        """
        #include "kernel_operator.h"
        extern "C" __global__ __aicore__ void wrapped(GM_ADDR x, GM_ADDR y) {
            AscendC::GlobalTensor<float> g;
            g.SetGlobalBuffer((__gm__ float*)x, 8);
        }
        extern "C" void wrapped_do(uint32_t n, void* stream, uint8_t* x, uint8_t* y) {
            wrapped<<<n, nullptr, stream>>>(ARGS);
        }
        """
    )
    src.write_text(body.replace("ARGS", "x, y"))
    ok = build.syntax_check(src, timeout=120)
    assert ok.ok, ok.stderr
    src.write_text(body.replace("ARGS", "x"))  # a launch with too few arguments is still a compile error
    bad = build.syntax_check(src, timeout=120)
    assert not bad.ok
    assert "wrapped.cpp" in bad.stderr


@needs_gxx
def test_syntax_check_takes_bishengs_aicore_declaration_attribute(tmp_path: Path) -> None:
    src = tmp_path / "attr.cpp"
    src.write_text(
        textwrap.dedent(
            """
            #include "kernel_operator.h"
            template <class T>
            __forceinline__ [aicore] constexpr T RoundUp(const T &v, const T a) { return (v + a - 1) / a * a; }
            static const char* kText = "[aicore] stays in a string";
            extern "C" __global__ [aicore] void attr(GM_ADDR x) {
                int aicore = 1;
                int a[2] = {0, 0};
                a[aicore] = RoundUp<int>(3, 4);
                UNDECLARED_NAME;
            }
            """
        )
    )
    r = build.syntax_check(src, timeout=120)
    assert not r.ok
    # the only error is the one written on purpose, and it names the original file and line
    assert "[" not in r.stderr.split("error:", 1)[1].splitlines()[0]
    assert f"{src}:10:" in r.stderr and "UNDECLARED_NAME" in r.stderr


def test_strip_aicore_attributes_keeps_strings_subscripts_and_columns() -> None:
    from ascendc_lsp.toolchain.program.scan import strip_aicore_attributes

    text = 'inline [aicore] void f(); a[aicore] = 1; p("__global__ [aicore]"); #define X [ aicore ]\n'
    got = strip_aicore_attributes(text)
    assert got == 'inline          void f(); a[aicore] = 1; p("__global__ [aicore]"); #define X           \n'
    both = "#define CATLASS_HOST_DEVICE __forceinline__ [host, aicore]\n"
    assert strip_aicore_attributes(both) == "#define CATLASS_HOST_DEVICE __forceinline__ " + " " * len("[host, aicore]") + "\n"
    assert len(got) == len(text)


@needs_gxx
@pytest.mark.slow
def test_op_definition_and_tiling_sharing_a_header_function_link_as_in_separate_libraries(tmp_path: Path) -> None:
    # cann-ops' gelu_quant: `<op>_def.cpp` (opsproto) and the tiling source (optiling) both include a header that
    # defines a non-inline function; the real build links them into different libraries
    proj = _write_project(tmp_path, HOST_TEMPLATE.replace("BODY", "context->SetBlockDim(HalfOf(4));"))
    host_dir = proj / "op_host"
    (host_dir / "broken_helper.h").write_text("#pragma once\nint HalfOf(int v) { return v / 2; }\n")
    tiling = (host_dir / "broken_custom.cpp").read_text()
    (host_dir / "broken_custom.cpp").write_text('#include "broken_helper.h"\n' + tiling.split("namespace ops")[0])
    (host_dir / "broken_custom_def.cpp").write_text(
        '#include "broken_helper.h"\nnamespace optiling { ge::graphStatus TilingFunc(gert::TilingContext*); }\n'
        + "namespace ops" + tiling.split("namespace ops")[1]
    )
    (host_dir / "broken_custom.cpp").write_text(
        (host_dir / "broken_custom.cpp").read_text().replace("static ge::graphStatus", "ge::graphStatus")
    )
    d = describe_project(find_project(proj / "op_kernel" / "broken_custom.cpp"), timeout=300)
    assert isinstance(d, Described), [x.message for x in d.diagnostics]
    assert [o.type for o in d.ops] == ["BrokenCustom"]
