"""The dialect layer: every rewrite keeps length and line breaks, makes its construct parse, and hides
no real syntax error. Snippets are written for these tests (not taken from any kernel)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import tree_sitter

from ascendc_lsp.syntax.dialect import DialectError, load_dialect, rewrite
from ascendc_lsp.syntax.document import SourceDocument, TextChange, cpp_language

_PARSER = tree_sitter.Parser(cpp_language())


def _lines(data: bytes) -> list[int]:
    return [i for i, b in enumerate(data) if b in (10, 13)]


def check(src: str) -> bytes:
    """Rewrite `src`, assert the invariants, return the rewritten bytes."""
    data = src.encode("utf-8")
    out = rewrite(data)
    assert len(out) == len(data)
    assert _lines(out) == _lines(data)
    assert rewrite(out) == rewrite(out)  # deterministic
    return out


def clean(src: str) -> bool:
    return not _PARSER.parse(check(src)).root_node.has_error


def raw_clean(src: str) -> bool:
    return not _PARSER.parse(src.encode()).root_node.has_error


# -- each rewrite kind: the construct parses after the rewrite (and not before) ----------------------

CONSTRUCTS = {
    "qualifiers": 'extern "C" __global__ __aicore__ void k(__gm__ uint8_t *x) { }\n',
    "function-like qualifier": "__global__ __mix__(1, 2) void k(GM_ADDR x) { }\n",
    "launch bounds": "__global__ __launch_bounds__(MAX(a, b)) void k(int n) { }\n",
    "restrict reference": "inline void f(const Tiling &__restrict t) { }\n",
    "bracket attribute": "[aicore] inline void f() { }\nstruct S { [aicore] ~S() { } };\n",
    "condition macro": "void k() {\n  if ASCEND_IS_AIV {\n    g();\n  }\n}\n",
    "condition macro with args": "void k() {\n  if TILING_KEY_IS(3) {\n    g();\n  }\n}\n",
    "launch": "void run(void *s) {\n  add_kernel<<<8, nullptr, s>>>(x, y);\n}\n",
    "member template without arguments": "void f() {\n  queue.template FreeTensor(t);\n  this->q.template EnQue(t);\n}\n",
    "pointer to member calls": "void f() {\n  (obj->*handler)(n);\n  (obj.*handler)(n);\n}\n",
    "brace default argument": "void f(int a, const Params &p = {});\nvoid g(const P &p = { }, int b = 0);\n",
    "gnu named variadic macro": "#define LOG(fmt, args...) printf(fmt, ##args)\nint x;\n",
    "endif with trailing name": "#ifndef MY_H\n#define MY_H\nint x;\n#endif MY_H\n",
    "type keyword as macro argument": "void f() {\n  RUN_OP(KernelAdd, float);\n  RUN_OP(KernelSub, int, 2);\n}\n",
    "statement macro defined in file": "#define SYNC Barrier(state);\nvoid f() {\n  x = 1;\n  SYNC\n}\n",
    "template head macro defined in file": (
        "#define TPL_HEAD template <typename T>\nTPL_HEAD\nclass K {\n};\n"
    ),
    "declaration head macro from another header": "KERNEL_TEMPLATE_DECL\nclass K {\n};\n",
    "statement macro from the data file": (
        "namespace optiling {\nBEGIN_TILING_DATA_DEF(AddTiling)\n"
        "TILING_DATA_FIELD_DEF(uint32_t, total);\nEND_TILING_DATA_DEF;\n"
        "REGISTER_TILING_DATA_CLASS(Add, AddTiling)\n}\n"
    ),
    "operator template arguments": (
        "struct M {\n  template <int C> void operator()(int p);\n  template <> void operator()<1>(int p) { }\n};\n"
    ),
    "else-if chain split by #if": (
        "void k() {\n  if (TILING_KEY_IS(1)) {\n    a();\n  }\n#if defined(V220)\n"
        "  else if (TILING_KEY_IS(2)) {\n    b();\n  }\n#endif\n}\n"
    ),
    "brace split by #if": ("void k() {\n  if (x) {\n    a();\n#if A\n  } else {\n    b();\n#endif\n  }\n}\n"),
    "two signatures sharing one body": (
        "#if NEW_API\nvoid f(int a, int b)\n#else\nvoid f(int a)\n#endif\n{\n  g();\n}\n"
    ),
    "extern C guarded by __cplusplus": (
        '#ifdef __cplusplus\nextern "C" {\n#endif\nvoid f();\n#ifdef __cplusplus\n}\n#endif\n'
    ),
    "#if inside an argument list": "void f() {\n  g(a,\n#if X\n    b,\n#endif\n    c);\n}\n",
    "declaration head macro before a blank line": "KERNEL_TEMPLATE_DECL\n\nclass K : public Base<KERNEL_ARGS> {\n};\n",
    "fixed-width integer type as macro argument": "void f() {\n  RUN_OP(KernelAdd, uint8_t, int32_t, 1);\n}\n",
    "type keyword as argument of a macro in an expression": (
        "void f(int n) {\n  uint32_t m = ALIGN_UP_ELEMENTS(n, float);\n}\n"
    ),
    "using-declaration list": "void f() {\n  using AscendC::Add, AscendC::Sub;\n  Add(x);\n}\n",
    "string literal next to a macro": (
        'void f() {\n  const char *o[] = {"--npu-arch=" NPU_ARCH, "-I" INC_DIR "/x"};\n  g(PREFIX "name");\n}\n'
    ),
    "explicit call operator with template arguments": (
        "void f() {\n  mm.template operator()<AIC>(params);\n  v.operator[](0) = 1;\n}\n"
    ),
    "unnamed pointer template parameter with default": (
        "template <class T, typename std::enable_if<(A<T>::value)>::type* = nullptr>\nint f(T a) { return 0; }\n"
    ),
    "empty macro glued to an expression": (
        'void f(int n) {\n  this->n =\n      n ASSERT(n != 0 && "n (tiles) is zero");\n'
        "  uint32_t k = p.k\n  ASSERT(k > 0);\n}\n"
    ),
    "decltype as a base class": (
        "template <class T>\nstruct is_tuple : decltype(detail::has_tuple_size((T*)0)) {};\n"
        "struct both : public Base, decltype(f(1, (2))) {\n  int x;\n};\n"
    ),
    "block comment inside a multi-line define": (
        "#define F(X) \\\n  do { \\\n    /* note */ \\\n    g(X); \\\n  } while (0)\nint y;\n"
    ),
}


@pytest.mark.parametrize("name", sorted(CONSTRUCTS))
def test_construct_parses_clean(name: str) -> None:
    src = CONSTRUCTS[name]
    assert not raw_clean(src), f"{name}: raw tree-sitter-cpp already parses it; the test proves nothing"
    assert clean(src), f"{name}: still has errors after the dialect layer"


# Declaration macros from another header: they only parse after the document's repair pass (a second
# parse with lone macro invocations inside ERROR nodes blanked), not with the rewrite alone.
REPAIRED = {
    "macro declaring members": (
        "class Ctx {\n  DEFINE_FIELD(TQue, qA2, TPosition::A2, 2);\n  EXTERN_IMPL_POOL(Pool, TPosition::VECCALC, 16);\n"
        "  OP_UNARY(+);\n  int x;\n};\n"
    ),
    "macros declaring at namespace scope without ;": (
        "namespace conv {\nDECLARE_MEMBER(Param, order, int8_t, -1)\nDECLARE_MEMBER(Param, ping, int8_t, -1)\n"
        "template <typename T>\nstruct D {\n  using Type = T;\n};\n}\n"
    ),
}


@pytest.mark.parametrize("name", sorted(REPAIRED))
def test_declaration_macros_parse_after_repair(name: str) -> None:
    src = REPAIRED[name]
    assert not clean(src), f"{name}: the rewrite alone parses it; the repair test proves nothing"
    document = SourceDocument(src)
    assert not document.syntax_errors(), document.syntax_errors()
    assert len(document.parsed) == len(src.encode())
    # The repair blanks the invocation only: the rest of the class is still in the tree.
    assert "int x" not in src or b"int x;" in document.parsed


def test_repair_leaves_function_bodies_alone() -> None:
    # Inside a function, a macro line without `;` is a real error (REAL_ERRORS covers the message).
    document = SourceDocument("void f() {\n  PIPE_SYNC(x, 1)\n  a = 1;\n}\n")
    assert document.syntax_errors()
    assert b"PIPE_SYNC" in document.parsed


def test_repair_follows_edits() -> None:
    src = REPAIRED["macro declaring members"]
    document = SourceDocument(src)
    edited = document.apply([TextChange(None, src.replace("int x;", "int y;"))])
    assert not edited.syntax_errors()
    assert b"DEFINE_FIELD" not in edited.parsed


def test_qualifier_rewrite_blanks_only_the_qualifier() -> None:
    out = check("__aicore__ inline void f(__gm__ half *x);")
    assert out == b"           inline void f(       half *x);"


def test_condition_macro_keeps_length() -> None:
    out = check("if ASCEND_IS_AIV {")
    assert out == b"if (SCEND_IS_AI) {"
    assert check("if TILING_KEY_IS(1) {") == b"if (LING_KEY_IS(1)) {"


def test_launch_becomes_comment() -> None:
    assert check("k<<<n, nullptr, s>>>(x);") == b"k/*<n, nullptr, s>*/(x);"


def test_launch_in_comment_or_string_untouched() -> None:
    src = (
        '/**\n * host wrapper: k<<<blockDim, nullptr, stream>>>(x)\n */\nconst char *s = "<<<a>>>";\nint x;\n'
    )
    assert check(src) == src.encode()
    assert clean(src)


def test_launch_in_macro_body_is_blanked_not_commented() -> None:
    src = "#define RUN(k) \\\n  k<<<1, nullptr, s>>>(x); \\\n  done()\nint y;\n"
    out = check(src)
    assert b"/*" not in out
    assert clean(src)


def test_qualifiers_on_directive_lines_stay() -> None:
    src = "#ifndef __forceinline__\n#define __forceinline__ inline\n#endif\n#define DEV __forceinline__ __aicore__\nint x;\n"
    assert check(src) == src.encode()
    assert clean(src)


def test_array_subscript_is_not_an_attribute() -> None:
    src = "int f(int *a, int vector) { return a[vector] + b[host]; }\n"
    assert check(src) == src.encode()


def test_if_0_branch_is_never_kept() -> None:
    src = "void k() {\n  if (x) {\n#if 0\n  } else if (y) {\n#else\n  } else {\n#endif\n    a();\n  }\n}\n"
    out = check(src).decode()
    assert "else if (y)" not in out and "} else {" in out
    assert clean(src)


def test_well_formed_conditionals_are_left_alone() -> None:
    src = "#ifndef G_H\n#define G_H\n#if A\nvoid f();\n#else\nvoid g();\n#endif\nvoid h() {\n#ifdef B\n  a();\n#endif\n}\n#endif\n"
    assert check(src) == src.encode()
    assert clean(src)


def test_statement_macro_mid_block_gives_the_right_tree() -> None:
    # Raw, tree-sitter-cpp reads `SYNC if (x) {...}` as a nested function definition, without error.
    src = "#define SYNC Barrier(state);\nvoid f() {\n  SYNC\n  if (x) {\n    y();\n  }\n}\n"
    tree = _PARSER.parse(check(src))
    body = tree.root_node.children[-1].child_by_field_name("body")
    assert body is not None
    assert [c.type for c in body.named_children] == ["if_statement"]


def test_statement_macro_with_semicolon_untouched() -> None:
    src = "#define SYNC Barrier(state);\nvoid f() {\n  SYNC;\n}\n"
    assert check(src) == src.encode()


def test_new_rewrites_touch_only_their_construct() -> None:
    assert check('extern "C" void f();') == b'extern "C" void f();'
    assert check('g(FMT "x", y);') == b'g(    "x", y);'
    assert check("int v = SIZE(n, (int)m);") == b"int v = SIZE(n, (int)m);"  # a cast, not a type argument
    assert check("RUN(int);") == b"RUN(_nt);"
    assert check("void ADD(int);") == b"void ADD(_nt);"  # a declaration stays a declaration
    assert check("using A::f;") == b"using A::f;"
    assert check("x.operator()(1);") == b"x           (1);"
    assert check('// ASSERT(x) in a comment\nASSERT(a);') == b'// ASSERT(x) in a comment\n         ;'
    assert check('s = "ASSERT(";') == b's = "ASSERT(";'
    assert check("auto v = c ? a : decltype(x)(y);") == b"auto v = c ? a : decltype(x)(y);"  # not a base clause
    assert check("struct S : decltype(g()) {};") == b"struct S : _____________ {};"


def test_rewrite_is_identity_on_plain_cpp() -> None:
    src = "#include <cstdint>\nint add(int a, int b) { return a + b; }\n"
    assert check(src) == src.encode()


# -- real errors are still reported ------------------------------------------------------------------

REAL_ERRORS = {
    "missing semicolon": "__aicore__ void f() {\n  int a = 1\n  int b = 2;\n}\n",
    "missing closing brace": "__aicore__ void f() {\n  if (x) {\n    g();\n}\n",
    "extra closing brace": "__aicore__ void f() {\n  g();\n}\n}\n",
    "missing semicolon after a call": "__aicore__ void f() {\n  Compute(x)\n  CopyOut(y);\n}\n",
    "missing semicolon after an unknown macro": "void f() {\n  PIPE_SYNC(x)\n  a = 1;\n}\n",
    "missing brace inside a kept #if branch": (
        "void k() {\n#if A\n  if (x) {\n    a();\n#endif\n  b();\n}\n"
    ),
    "missing semicolon in a launch": "void run() {\n  k<<<8, nullptr, s>>>(x)\n  y();\n}\n",
    "missing semicolon after a statement macro of another file": "void f() {\n  x = 1\n  SYNC_ALL\n}\n",
    "string literal next to a lower-case word": 'void f() {\n  g("a" b c);\n}\n',
    "extern C kept": 'extern "C" int\n',
}


@pytest.mark.parametrize("name", sorted(REAL_ERRORS))
def test_real_errors_still_reported(name: str) -> None:
    src = REAL_ERRORS[name]
    assert not clean(src), f"{name}: the dialect layer hid a real syntax error"
    assert SourceDocument(src).syntax_errors(), name


# -- text properties ---------------------------------------------------------------------------------


def test_chinese_comments_keep_offsets() -> None:
    src = (
        "// 核函数：向量加法\n__global__ __aicore__ void add(__gm__ half *x) {\n"
        "  /* 计算 <<<不是启动>>> */\n  if ASCEND_IS_AIV { Add(x); }  // 仅向量核\n}\n"
    )
    out = check(src)
    assert clean(src)
    # Every non-ASCII byte is untouched, so the UTF-8 text and its columns are unchanged.
    assert [b for b in out if b >= 0x80] == [b for b in src.encode() if b >= 0x80]
    doc = SourceDocument(src)
    assert not doc.syntax_errors()


def test_crlf_line_endings() -> None:
    src = (
        "#define SYNC Barrier(s);\r\n__aicore__ void f() {\r\n  SYNC\r\n"
        "#if A\r\n  if (x) {\r\n#else\r\n  if (y) {\r\n#endif\r\n    g();\r\n  }\r\n}\r\n"
    )
    out = check(src)
    assert out.count(b"\r\n") == src.count("\r\n")
    assert clean(src)


def test_bom_and_empty() -> None:
    assert rewrite(b"") == b""
    assert check("\ufeff__aicore__ void f();\n").startswith("\ufeff".encode())


# -- the data file --------------------------------------------------------------------------------


def test_data_file_validation(tmp_path: Path) -> None:
    bad = tmp_path / "d.yaml"
    bad.write_text("qualifiers: [1, 2]\n", encoding="utf-8")
    with pytest.raises(DialectError, match="qualifiers"):
        load_dialect(bad)
    bad.write_text("cpp_gaps: {no_such_flag: true}\n", encoding="utf-8")
    with pytest.raises(DialectError, match="no_such_flag"):
        load_dialect(bad)


def test_gap_flags_switch_rewrites_off(tmp_path: Path) -> None:
    path = tmp_path / "d.yaml"
    path.write_text(
        "qualifiers: [__aicore__]\ncpp_gaps: {split_preprocessor_conditionals: false}\n", encoding="utf-8"
    )
    rewriter = load_dialect(path).compile()
    src = CONSTRUCTS["brace split by #if"].encode()
    assert rewriter.rewrite(src) == src


def test_shipped_names_are_listed_once() -> None:
    d = load_dialect()
    for names in (d.qualifiers, d.function_like_qualifiers, d.statement_macros):
        assert len(names) == len(set(names))


# -- speed ---------------------------------------------------------------------------------------------


def _thousand_lines() -> bytes:
    block = (
        "// 数据搬运\n#define SYNC_ALL Barrier(state);\n"
        "template <typename T>\nclass KernelAdd{n} {{\npublic:\n"
        "    __aicore__ inline void Init(__gm__ uint8_t *x, __gm__ uint8_t *y) {{\n"
        "        xGm.SetGlobalBuffer((__gm__ T *)x + 64 * GetBlockIdx(), 64);\n"
        "        pipe.InitBuffer(inQueueX, 2, 64 * sizeof(T));\n    }}\n"
        "    __aicore__ inline void Process() {{\n"
        "        for (int32_t i = 0; i < 16; i++) {{\n            CopyIn(i);\n            Compute(i);\n"
        "            CopyOut(i);\n        }}\n"
        "        if ASCEND_IS_AIV {{\n            SYNC_ALL\n        }}\n"
        "#if defined(__DAV_C220__)\n        else if (TILING_KEY_IS(2)) {{\n            Tail();\n        }}\n#endif\n"
        "        LocalTensor<T> t = inQueueX.template DeQue<T>();\n        inQueueX.template FreeTensor(t);\n"
        "    }}\n}};\n"
    )
    text = "".join(block.format(n=i) for i in range(40))
    return text.encode()


def test_rewrite_is_fast_on_a_thousand_lines() -> None:
    data = _thousand_lines()
    lines = data.count(b"\n")
    assert lines >= 1000
    rewrite(data)  # warm the caches (compiled patterns)
    best = min(_timed(data) for _ in range(7))
    assert best < 0.010, f"rewrite took {best * 1000:.2f} ms on {lines} lines"


def _timed(data: bytes) -> float:
    start = time.perf_counter()
    rewrite(data)
    return time.perf_counter() - start
