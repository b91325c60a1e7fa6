"""Issue 16 (`check` on a 5 MB file in seconds): the rule helpers that were quadratic in a large file answer the
same as the tree walks they replaced, and input shapes tree-sitter's queries handle in quadratic time are not
queried. Behaviour only; the seconds are in bench/check_large.py (--stages prints the scaling table)."""

from __future__ import annotations

from pathlib import Path

from ascendc_lsp.checks import engine
from ascendc_lsp.checks.base import CheckContext
from ascendc_lsp.checks.rules import _common
from ascendc_lsp.syntax.document import SourceDocument, widest_error
from ascendc_lsp.syntax.model import MAX_ERROR_WIDTH, build_model

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _context(text: str) -> CheckContext:
    document = SourceDocument(text)
    return CheckContext(document=document, model=build_model(document))


def _scopes_by_tree_walk(context: CheckContext, at_byte: int) -> list[tuple[int, int]]:
    """What _enclosing_scopes answered before its index: tree-sitter's innermost node, then its parents."""
    node = context.document.tree.root_node.descendant_for_byte_range(at_byte, at_byte)
    scopes = [(0, 1 << 62)]
    while node is not None:
        if node.type in _common._SCOPES:
            scopes.append((node.start_byte, node.end_byte))
        node = node.parent
    return scopes


def test_enclosing_scopes_match_the_tree_walk_at_every_byte_of_the_examples() -> None:
    sources = sorted(EXAMPLES.glob("*/*.cpp"))
    assert sources
    for path in sources:
        context = _context(path.read_text(encoding="utf-8"))
        for at_byte in range(0, len(context.document.data) + 1):
            assert _common._enclosing_scopes(context, at_byte) == _scopes_by_tree_walk(context, at_byte), (path, at_byte)


def test_enclosing_scopes_hold_before_the_first_and_after_the_last_token() -> None:
    context = _context("\n\n  int a;\nvoid f() { int b; }\n  \n")
    end = len(context.document.data)
    for at_byte in (0, 1, end - 1, end):
        assert _common._enclosing_scopes(context, at_byte) == _scopes_by_tree_walk(context, at_byte)


def test_this_member_resolves_in_its_own_class_when_namesakes_live_in_other_namespaces() -> None:
    """Two classes named K in two namespaces, each with a member x of its own type: `this->x` in each class is
    that class's x (before: the member of the smaller class body, whichever class asked)."""
    text = (
        "namespace a {\nclass K {\n  half x;\n  void f() { auto y = this->x; int pad0; int pad1; int pad2; }\n};\n}\n"
        "namespace b {\nclass K {\n  float x;\n  void f() { auto y = this->x; }\n};\n}\n"
    )
    context = _context(text)
    first = text.index("this->x")
    second = text.index("this->x", first + 1)
    assert _common.type_of_name(context, "x", first, members_only=True) == "half"
    assert _common.type_of_name(context, "x", second, members_only=True) == "float"
    # outside any class body (an out-of-class member definition) the innermost member anywhere, as before
    outside = _context(text + "void b::K::g() { auto z = this->x; }\n")
    assert _common.type_of_name(outside, "x", len(text) + 20, members_only=True) == "float"


def test_a_wide_unparsable_run_is_not_queried_and_check_says_so() -> None:
    document = SourceDocument("template<" * (MAX_ERROR_WIDTH // 2 + 10))
    assert widest_error(document.tree.root_node, MAX_ERROR_WIDTH) > MAX_ERROR_WIDTH
    model = build_model(document)
    assert model.too_wide and not model.functions
    findings = engine.check_document(document, engine.CheckOptions(use_project=False))
    assert [f.code for f in findings if f.code != "syntax"] == [engine.TOO_WIDE_CODE]
    assert "only the syntax was checked" in findings[-1].message


def test_kernels_with_small_syntax_errors_are_still_modelled() -> None:
    text = (EXAMPLES / "add_double_buffer" / "add_double_buffer.cpp").read_text(encoding="utf-8")
    broken = text.replace(";", "", 3) + "\ntemplate< template< int\n"
    document = SourceDocument(broken)
    assert document.tree.root_node.has_error
    assert 0 < widest_error(document.tree.root_node, MAX_ERROR_WIDTH) <= MAX_ERROR_WIDTH
    model = build_model(document)
    assert not model.too_wide and model.functions
    assert widest_error(SourceDocument(text).tree.root_node, MAX_ERROR_WIDTH) == 0
