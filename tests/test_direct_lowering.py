"""The `<<<...>>>` lowering pass and the aclrtlaunch_<kernel> generation (toolchain/program/lower.py): pure text,
no compiler."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascendc_lsp.toolchain.program.lower import (
    LAUNCHER_INCLUDE,
    LoweringError,
    aclrtlaunch_definitions,
    aclrtlaunch_header,
    code_mask,
    find_launches,
    kernel_signatures,
    lower_text,
)


def body(lowered: str) -> str:
    """The lowered source without the two header lines (include + #line)."""
    head, line, rest = lowered.split("\n", 2)
    assert head == LAUNCHER_INCLUDE
    assert line.startswith("#line 1 ")
    return rest


def test_simple_launch_is_rewritten_on_the_same_line() -> None:
    src = "void f() {\n    add_custom<<<8, nullptr, stream>>>(x, y, z);\n}\n"
    out = body(lower_text(src, "/s/add.cpp").text)
    assert out.count("\n") == src.count("\n")
    line = out.splitlines()[1]
    assert line.startswith('    ::ascendc_emu::kernel_launch("add_custom", __FILE__, __LINE__, ')
    assert "{ add_custom(ascendc_emu_a...); })(8, nullptr, stream)(x, y, z);" in line
    assert "<<<" not in out and ">>>" not in out


def test_line_directive_names_the_original_file() -> None:
    lowered = lower_text("k<<<1,0,s>>>();\n", "/home/u/my dir/k.asc").text
    assert lowered.splitlines()[1] == '#line 1 "/home/u/my dir/k.asc"'


def test_template_callee_with_nested_brackets_and_parentheses() -> None:
    src = "f() { k<std::max<int>(1, 2), Foo<Bar<3>>><<<blocks(n), 0, s>>>(g(a, (b)), c); }"
    launches = find_launches(src)
    assert [ln.callee for ln in launches] == ["k<std::max<int>(1, 2), Foo<Bar<3>>>"]
    assert launches[0].config == "blocks(n), 0, s"
    out = body(lower_text(src, "/x.cpp").text)
    assert (
        "{ k<std::max<int>(1, 2), Foo<Bar<3>>>(ascendc_emu_a...); })(blocks(n), 0, s)(g(a, (b)), c); }" in out
    )


def test_qualified_and_spaced_callee() -> None:
    src = "void f() { ns::inner::kern <<< n , 0 , s >>> ( a ); ::top<<<1, 0, s>>>(); }"
    assert [ln.callee for ln in find_launches(src)] == ["ns::inner::kern", "::top"]


def test_launches_in_comments_and_strings_are_left_alone() -> None:
    src = (
        "// k<<<1, 0, s>>>(a);\n"
        "/* k<<<1, 0, s>>>(a); */\n"
        'const char* t = "k<<<1, 0, s>>>(a)";\n'
        'const char* r = R"x(k<<<1, 0, s>>>(a))x";\n'
        "char c = '<';\n"
        "int big = 1'000'000; k<<<2, 0, s>>>(/* <<< */ a, \"(\");\n"
    )
    launches = find_launches(src)
    assert len(launches) == 1
    assert launches[0].line == 6
    out = body(lower_text(src, "/x.cpp").text)
    assert out.splitlines()[:5] == src.splitlines()[:5]


def test_multiline_launch_keeps_every_line() -> None:
    src = "void f()\n{\n    k<T>\n        <<<blocks,\n           nullptr,\n           stream>>>(a,\n                     b);\n    after();\n}\n"
    lowered = lower_text(src, "/x.cpp")
    out = body(lowered.text)
    assert out.count("\n") == src.count("\n")
    assert out.splitlines()[7] == "    after();"
    assert lowered.launches[0].line == 3  # the callee's line: __LINE__ there is the user's line


def test_shift_operators_are_not_launches() -> None:
    src = "int a = x << 3; int b = y >> 2; bool c = v<w; int d = (z <<< 1);"
    with pytest.raises(LoweringError, match="line 1"):
        find_launches(src)  # `(z <<< 1)` is malformed: an error with the line, never a traceback
    assert find_launches("int a = x << 3 >> 1;") == []


def test_unbalanced_launch_is_a_clear_error() -> None:
    with pytest.raises(LoweringError, match=r"line 2: cannot lower this kernel launch: no closing >>>"):
        find_launches("void f() {\n  k<<<1, 0, s(a);\n}\n")
    with pytest.raises(LoweringError, match="no argument list"):
        find_launches("void f() { k<<<1, 0, s>>>; }")


def test_code_mask_marks_literals() -> None:
    text = 'a "b<<<" c // d\ne'
    mask = code_mask(text)
    assert [text[i] for i in range(len(text)) if mask[i]] == list("a  c \ne")


def test_kernel_signatures() -> None:
    src = (
        'extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, AddTiling tiling) {}\n'
        "template <uint32_t N>\n__vector__ __global__ void tk(__gm__ float* x, uint32_t n) {}\n"
        'extern "C" __global__ __aicore__ void declared_only(GM_ADDR x);\n'
        "// __global__ void commented(int a) {}\n"
        "template <typename T, int8_t mode>\n__mix__(1, 2) __global__ __aicore__ void mk(__gm__ uint8_t* m) {}\n"
    )
    sigs = kernel_signatures(src)
    assert [(s.name, s.template, s.extern_c, s.line) for s in sigs] == [
        ("add_custom", False, True, 1),
        ("tk", True, False, 3),
        ("mk", True, False, 7),  # a template even with __mix__(1, 2) between: no aclrtlaunch_mk, no registration
    ]
    assert [(p.type, p.name, p.is_pointer) for p in sigs[0].params] == [
        ("GM_ADDR", "x", True),
        ("GM_ADDR", "y", True),
        ("AddTiling", "tiling", False),
    ]


def test_aclrtlaunch_header_and_definition() -> None:
    sigs = kernel_signatures(
        'extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, __gm__ half* y, uint32_t n, AddTiling t) {}\n'
    )
    header = aclrtlaunch_header(sigs[0])
    assert "#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func" in header
    # GM pointers as void*, scalars as written, structs by host pointer (as the samples pass them)
    assert (
        'extern "C" uint32_t aclrtlaunch_add_custom(uint32_t blockDim, void* stream, void* x, void* y, uint32_t n, '
        "AddTiling* t, ::ascendc_emu::Loc ascendc_emu_loc = ::ascendc_emu::Loc());"
    ) in header
    defs = aclrtlaunch_definitions(sigs, "/s/add_custom.cpp")
    assert defs.startswith('#line 1 "/s/add_custom.cpp"\n')
    assert "((GM_ADDR)x, (__gm__ half*)y, n, *t); return 0; }" in defs
    assert (
        aclrtlaunch_definitions(kernel_signatures("template <int N> __global__ void k(int a) {}"), "/k.cpp")
        == ""
    )


def test_mix_kernels_launch_two_aiv_cores_per_block() -> None:
    src = (
        "__global__ __mix__(1, 2) void m12(GM_ADDR x) {}\n"
        "__global__ __mix__(1, 1) void m11(GM_ADDR x) {}\n"
        "__global__ __vector__ void v(GM_ADDR x) {}\n"
        'extern "C" __global__ __aicore__ void typed(GM_ADDR x) { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2); }\n'
        'extern "C" __global__ __aicore__ void aiv_only(GM_ADDR x) { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY); }\n'
    )
    assert {s.name: s.task_ratio for s in kernel_signatures(src)} == {
        "m12": 2,
        "m11": 1,
        "v": 1,
        "typed": 2,
        "aiv_only": 1,
    }
    # an __aicore__ kernel driving the Matmul high-level API is compiled as mix 1:2, unless it is cube-only
    matmul = 'extern "C" __global__ __aicore__ void mm(GM_ADDR a) { REGIST_MATMUL_OBJ(&pipe, ws, mm, &t); }\n'
    assert kernel_signatures(matmul)[0].task_ratio == 2
    assert kernel_signatures("#define ASCENDC_CUBE_ONLY\n" + matmul)[0].task_ratio == 1
    assert (
        kernel_signatures(
            matmul.replace("REGIST_MATMUL_OBJ(&pipe, ws, mm, &t);", "run(a);"), "Matmul<A, B, C> mm;"
        )[0].task_ratio
        == 2
    )  # the API used in an included header
    lowered = body(lower_text("void f() { ns::m12<4><<<n, nullptr, s>>>(x); }", "/x.asc", {"m12": 2}).text)
    assert (
        "{ ns::m12<4>(ascendc_emu_a...); }, ASCENDC_EMU_WORKSPACE_FROM_END, 2)(n, nullptr, s)(x);" in lowered
    )


def test_library_launches_get_a_sfinae_return_type_and_programs_do_not() -> None:
    src = "void k_do(uint8_t* t) {\n    ns::k<T>\n    <<<8, nullptr, s>>>(x, reinterpret_cast<Tiling*>(t));\n}\n"
    strict = body(lower_text(src, "/s/k.cpp").text)
    lenient = body(lower_text(src, "/s/k.cpp", library=True).text)
    assert "decltype" not in strict
    assert lenient.count("\n") == src.count("\n")  # the callee repeated on one line: lines unchanged
    assert "[&](auto&&... ascendc_emu_a) -> decltype((void)(ns::k<T>(ascendc_emu_a...))) { ns::k<T>" in lenient
    commented = "k /* the kernel */ <<<1, nullptr, s>>>(x);\n"
    assert "decltype" not in lower_text(commented, "/s/k.cpp", library=True).text
    # a kernel defined here with two parameters launched with one argument: still a compile error
    defined = "__global__ __aicore__ void k2(GM_ADDR x, Tiling t) {}\nvoid f() { k2<<<1, nullptr, s>>>(x); }\n"
    assert "decltype" not in lower_text(defined, "/s/k.cpp", library=True).text
    matched = defined.replace("(x);", "(x, reinterpret_cast<Tiling*>(p));")
    assert "decltype" in lower_text(matched, "/s/k.cpp", library=True).text


def test_weak_const_definitions_declared_extern_elsewhere_get_extern_in_the_copy() -> None:
    from ascendc_lsp.toolchain.program.build import _weak_definitions_fixed

    header = (
        '#include "tables.h"\n'
        "__attribute__((weak)) __gm__ const int32_t gTable[4] = {1, 2, 3, 4};\n"
        "__attribute__((weak)) const int32_t gLocal[2] = {5, 6};\n"
        "__attribute__((weak)) extern const int32_t gDone[1] = {7};\n"
    )
    externs = 'extern __gm__ const int32_t gTable[4];\nextern "C" const int32_t gDone[1];'
    fixed = _weak_definitions_fixed(header, externs)
    assert fixed is not None and fixed.count("\n") == header.count("\n")
    assert fixed.splitlines()[1] == "__attribute__((weak)) extern __gm__ const int32_t gTable[4] = {1, 2, 3, 4};"
    assert fixed.splitlines()[2] == header.splitlines()[2]  # never declared extern: left as the compiler sees it
    assert fixed.splitlines()[3] == header.splitlines()[3]
    assert _weak_definitions_fixed(header, "") is None


def test_extern_declarations_are_found_in_include_folders_outside_the_sample(tmp_path: Path) -> None:
    from ascendc_lsp.toolchain.program.build import _extern_declared

    sample, shared = tmp_path / "sample", tmp_path / "shared" / "multiply"
    sample.mkdir()
    shared.mkdir(parents=True)
    (sample / "local.h").write_text("extern int gLocal;\nint notExtern;\n")
    (shared / "tables.h").write_text('extern "C" {\nextern const int gTable[4];\n}\n')
    found = _extern_declared(sample, [sample, shared])
    assert "extern int gLocal;" in found and "extern const int gTable[4];" in found
    assert "notExtern" not in found
    assert "gTable" not in _extern_declared(sample, [sample])
