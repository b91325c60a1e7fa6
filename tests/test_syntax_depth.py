"""The syntax-tree depth guard (syntax/document.py `tree_depth`) skips subtrees too small to pass the limit:
it must still find every tree that is too deep, and never report a shallow one as deep."""

from __future__ import annotations

import tree_sitter

from ascendc_lsp.syntax.document import SourceDocument, tree_depth
from tests.conftest import KERNELS


def _full_depth(root: tree_sitter.Node) -> int:
    """Every node visited: the reference the pruned walk is measured against."""
    cursor = root.walk()
    depth = deepest = 0
    while True:
        if cursor.goto_first_child():
            depth += 1
            deepest = max(deepest, depth)
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return deepest
            depth -= 1


def _sources() -> list[str]:
    sum_of = "int f() { int b = " + " + ".join(["a"] * 300) + "; return b; }\n"
    nested = "void g() {\n" + "if (a) {\n" * 120 + "a++;\n" + "}\n" * 120 + "}\n"
    kernels = [path.read_text(encoding="utf-8") for path in sorted(KERNELS.glob("*.cpp"))]
    assert kernels
    return [sum_of, nested, *kernels]


def test_the_pruned_walk_decides_as_the_full_walk_at_every_limit() -> None:
    for source in _sources():
        root = SourceDocument(source).tree.root_node
        full = _full_depth(root)
        for stop_at in (0, 1, 5, full // 2, full - 1, full, full + 1, 5000):
            if stop_at < 0:
                continue
            found = tree_depth(root, stop_at)
            assert (found > stop_at) == (full > stop_at), (stop_at, full, found)
            if full > stop_at:
                assert found == stop_at + 1  # counting stops just past the limit
            else:
                assert found <= stop_at
