"""Document model and constant folding on realistic kernels."""

from __future__ import annotations

from collections.abc import Callable

from ascendc_lsp.syntax.document import SourceDocument, TextChange
from ascendc_lsp.syntax.model import build_model
from ascendc_lsp.syntax.positions import Position, Span

Read = Callable[[str], str]


def model_of(text: str):  # type: ignore[no-untyped-def]
    return build_model(SourceDocument(text))


def test_elementwise_double_buffer(kernel_text: Read) -> None:
    model = model_of(kernel_text("add_double_buffer.cpp"))
    kernels = model.kernels
    assert [k.name for k in kernels] == ["add_custom"]
    assert kernels[0].is_extern_c and {"global", "aicore"} <= kernels[0].qualifiers
    assert [p.name for p in kernels[0].params] == ["x", "y", "z"]
    assert {b.name: (b.kind, b.position) for b in model.buffers} == {
        "pipe": ("TPipe", None),
        "inQueueX": ("TQue", "VECIN"),
        "inQueueY": ("TQue", "VECIN"),
        "outQueueZ": ("TQue", "VECOUT"),
    }
    depth = model.buffer("inQueueX").depth  # type: ignore[union-attr]
    assert depth is not None and depth.value == 2
    sizes = {i.target: (i.buffer_count, i.length.value, i.total_bytes()) for i in model.init_buffers}
    # TILE_LENGTH = 8*2048 / 8 / 8 / 2 = 128 halves = 256 B, two buffers each.
    assert sizes == {"inQueueX": (2, 256, 512), "inQueueY": (2, 256, 512), "outQueueZ": (2, 256, 512)}
    tensors = {t.name: t.dtype for t in model.tensors if t.kind == "LocalTensor"}
    assert tensors["xLocal"] == "half"
    copies = model.calls_named("DataCopy")
    assert len(copies) == 3 and all(c.in_loop is False for c in copies)  # loops are in Process, not CopyIn
    assert copies[0].args[2].folded.value == 128
    assert {c.name for c in model.block_idx_calls} == {"GetBlockIdx"}
    # The <<<...>>> launch parses as a call with the launch arguments kept in a comment.
    assert any(c.name == "add_custom" for c in model.calls)
    assert not SourceDocument(kernel_text("add_double_buffer.cpp")).tree.root_node.has_error


def test_tiling_struct_and_template_binding(kernel_text: Read) -> None:
    model = model_of(kernel_text("tiling_multicore.cpp"))
    assert [(t.name, t.style) for t in model.tiling_structs] == [("ScaleTilingData", "pod")]
    assert model.tiling_structs[0].fields[0] == ("uint32_t", "totalLength")
    assert model.template_bindings["KernelScale"] == {"T": "float"}
    sizes = {i.target: i.length.value for i in model.init_buffers}
    assert sizes == {"inQueue": 4096 * 4, "outQueue": 4096 * 4}  # sizeof(T) with T bound to float
    kernel = model.kernels[0]
    assert kernel.params[2].type_text == "ScaleTilingData"
    # A runtime value is unknown, never guessed.
    pad_calls = model.calls_named("DataCopyPad")
    assert pad_calls and pad_calls[0].args[1].folded.value is None


def test_cube_positions(kernel_text: Read) -> None:
    model = model_of(kernel_text("matmul_cube.cpp"))
    positions = {b.name: b.position for b in model.buffers if b.kind == "TQue"}
    assert positions == {"inQueueA1": "A1", "inQueueB1": "B1", "inQueueA2": "A2", "inQueueB2": "B2", "outQueueCO1": "CO1"}
    co1 = model.init_buffers_for("outQueueCO1")[0]
    assert co1.length.value == 32 * 32 * 4


def test_folding_rules() -> None:
    src = """
#define TILE (64 * 2)
#define SHIFTED (1 << 4)
constexpr uint32_t A = TILE / 3;          // integer division truncates
const int32_t B = -7 % 3;                 // C remainder keeps the dividend's sign
constexpr uint32_t C = static_cast<uint32_t>(sizeof(bfloat16_t) * 8);
constexpr int32_t D = A > 40 ? 1 : 2;
using DT = half;
uint32_t notConst = 5;
void f(uint32_t runtime) {
    constexpr int32_t LOCAL = SHIFTED + 1;
    Use(A, B, C, D, sizeof(DT), notConst, runtime, LOCAL, TILE);
}
"""
    model = model_of(src)
    call = model.calls_named("Use")[0]
    assert [a.folded.value for a in call.args] == [42, -1, 16, 1, 2, None, None, 17, 128]


def test_shadowing_by_a_runtime_variable_is_unknown() -> None:
    src = """
constexpr int32_t LEN = 256;
void f(int32_t n) {
    int32_t LEN = n;
    Use(LEN);
}
void g() { Use(LEN); }
"""
    model = model_of(src)
    first, second = model.calls_named("Use")
    assert first.args[0].folded.value is None
    assert second.args[0].folded.value == 256


def test_namespace_constants_are_seen_after_their_namespace() -> None:
    # Public samples keep their sizes in `namespace { constexpr ... }` (LnickOne's add_custom_v2.cpp) or a named
    # namespace used as `N::NAME`; the namespace body does not end their scope.
    src = """
namespace {
constexpr int32_t TOTAL_LENGTH = 4096;
}
namespace cfg { constexpr int32_t TILE = 64; namespace inner { constexpr int32_t TILE = 8; void h() { Use(TILE); } } }
class K { __aicore__ inline void Init() { Use(TOTAL_LENGTH * sizeof(float)); Use(cfg::TILE); } };
"""
    model = model_of(src)
    inner, total, tile = model.calls_named("Use")
    assert inner.args[0].folded.value == 8
    assert total.args[0].folded.value == 4096 * 4
    # cfg::TILE and cfg::inner::TILE differ and the qualifier is not kept: unknown, not a guess
    assert tile.args[0].folded.value is None


def test_namesakes_in_two_namespaces_each_see_their_own() -> None:
    src = """
namespace a { constexpr int32_t N = 16; void f() { Use(N); } }
namespace b { constexpr int32_t N = 32; void g() { Use(N); } }
namespace c { constexpr int32_t M = 5; }
namespace d { constexpr int32_t M = 5; }
void h() { Use(M); }
"""
    model = model_of(src)
    in_a, in_b, agreed = model.calls_named("Use")
    assert (in_a.args[0].folded.value, in_b.args[0].folded.value, agreed.args[0].folded.value) == (16, 32, 5)


def test_initbuffer_in_loop_is_marked() -> None:
    src = """
class K { __aicore__ inline void Process() {
    for (int i = 0; i < 4; ++i) { pipe.InitBuffer(q, 1, 1024); }
} TPipe pipe; TQue<TPosition::VECIN, 1> q; };
"""
    model = model_of(src)
    assert model.init_buffers[0].call.loop_depth == 1


def test_incremental_edit_matches_full_parse(kernel_text: Read) -> None:
    text = kernel_text("add_double_buffer.cpp")
    doc = SourceDocument(text)
    line = next(i for i, row in enumerate(text.splitlines()) if "TILE_NUM = 8" in row)
    col = text.splitlines()[line].index("8;")
    edited = doc.apply([TextChange(Span(Position(line, col), Position(line, col + 1)), "16")])
    assert "TILE_NUM = 16" in edited.text
    fresh = SourceDocument(edited.text)
    assert str(edited.tree.root_node) == str(fresh.tree.root_node)
    sizes = {i.target: i.length.value for i in build_model(edited).init_buffers}
    assert sizes["inQueueX"] == 128  # 2048 / 16 / 2 halves * 2 B


def test_edit_inside_chinese_comment_line() -> None:
    text = "// 中文注释 x\nconstexpr int32_t N = 8;\n"
    doc = SourceDocument(text)
    edited = doc.apply([TextChange(Span(Position(0, 8), Position(0, 9)), "yy")])
    assert edited.text.splitlines()[0] == "// 中文注释 yy"
    assert not edited.tree.root_node.has_error


def test_class_at_finds_the_innermost_class_among_nested_and_sibling_ones() -> None:
    text = (
        "class Outer {\n"
        "  static constexpr int A = 1;\n"
        "  struct Inner { static constexpr int B = 2; int x; };\n"
        "  int after_inner;\n"
        "  struct Second { int y; };\n"
        "};\n"
        "int between;\n"
        "class Last { static constexpr int C = 3; };\n"
    )
    model = model_of(text)
    by_name = {c.name: c for c in model.classes}
    assert set(by_name) == {"Outer", "Inner", "Second", "Last"}

    def at(fragment: str) -> str | None:
        found = model.class_at(text.index(fragment))
        return found.name if found is not None else None

    assert at("int x") == "Inner" and at("int y") == "Second"
    assert at("after_inner") == "Outer", "after a nested class ends, its outer class holds the offset"
    assert at("between") is None and at("static constexpr int C") == "Last"
    assert model._enclosing_class_of(by_name["Second"]) is by_name["Outer"]
    assert model._enclosing_class_of(by_name["Outer"]) is None
    # class constants are filed under every class whose body holds them (the nested one and its outer class)
    constants = model._class_constants()
    assert "B" in constants["Inner"] and "B" in constants["Outer"] and "A" in constants["Outer"]
    assert "C" in constants["Last"] and "C" not in constants.get("Outer", {})


def test_queue_type_mangled_by_an_edit_builds() -> None:
    # Found by the LSP fuzz: the split template text and the argument nodes disagree in count on broken code.
    model = model_of("class K {\n    AscendCtemplate <typename T>::TQue<AscendC::TPosition::VECIN, 2> q;\n};\n")
    assert [(b.name, b.depth) for b in model.buffers] == [("q", None)]
