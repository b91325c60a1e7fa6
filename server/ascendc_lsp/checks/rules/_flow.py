"""Structured path analysis over a function body, enough for queue lifecycles.

`covers(start, is_consumer, stop_node)` answers: from the statement holding byte `start`, does every path
through the rest of the function reach a statement with a consumer (EnQue/FreeTensor of the tensor)? Loops
whose body consumes count as consuming (a loop that never runs is not what a kernel means); `return`
statements before the consumer are paths that leak.
"""

from __future__ import annotations

from collections.abc import Callable

import tree_sitter

COVERED, RETURNED, FELL = "covered", "returned", "fell"
_LOOPS = frozenset({"for_statement", "while_statement", "do_statement", "for_range_loop"})

Consumer = Callable[[int, int], bool]  # (start_byte, end_byte) of a statement -> does it consume inside?


class PathResult:
    def __init__(self, outcome: str, exit_node: tree_sitter.Node | None = None) -> None:
        self.outcome = outcome
        self.exit_node = exit_node


def _effect(node: tree_sitter.Node, consumes: Consumer, returns_value: Callable[[tree_sitter.Node], bool]) -> PathResult:
    kind = node.type
    if kind == "compound_statement" or kind in _PREPROC:
        return _walk(list(node.named_children), consumes, returns_value)
    if kind == "return_statement":
        if consumes(node.start_byte, node.end_byte) or returns_value(node):
            return PathResult(COVERED)
        return PathResult(RETURNED, node)
    has_consumer = consumes(node.start_byte, node.end_byte)
    if kind == "if_statement":
        consequence = node.child_by_field_name("consequence")
        alternative = node.child_by_field_name("alternative")
        then = _effect(consequence, consumes, returns_value) if consequence is not None else PathResult(FELL)
        if alternative is not None:
            body = next((c for c in alternative.named_children if c.type != "comment"), None)
            other = _effect(body, consumes, returns_value) if body is not None else PathResult(FELL)
        else:
            other = PathResult(FELL)
        if then.outcome == COVERED and other.outcome == COVERED:
            return PathResult(COVERED)
        if any(c.type == "constexpr" for c in node.children):
            # `if constexpr`: one branch is compiled in; a consuming branch is taken to be the live one.
            if COVERED in (then.outcome, other.outcome):
                return PathResult(COVERED)
            return PathResult(FELL)
        for branch in (then, other):
            if branch.outcome == RETURNED:
                return branch
        return PathResult(FELL)
    if kind in _LOOPS or kind == "switch_statement":
        if has_consumer:
            return PathResult(COVERED)
        return PathResult(FELL)
    if has_consumer:
        return PathResult(COVERED)
    if kind in ("expression_statement", "declaration", "comment"):
        return PathResult(FELL)
    return PathResult(FELL)


def _walk(statements: list[tree_sitter.Node], consumes: Consumer,
          returns_value: Callable[[tree_sitter.Node], bool]) -> PathResult:
    for statement in statements:
        result = _effect(statement, consumes, returns_value)
        if result.outcome != FELL:
            return result
    return PathResult(FELL)


_PREPROC = frozenset({"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"})
_BLOCKS = frozenset({"compound_statement"}) | _PREPROC


def covers(node: tree_sitter.Node, body: tree_sitter.Node, consumes: Consumer,
           returns_value: Callable[[tree_sitter.Node], bool]) -> PathResult:
    """Paths from just after `node` (an expression inside `body`) to the end of `body`."""
    current = node
    while current.parent is not None and current.parent.type not in _BLOCKS:
        current = current.parent
    while True:
        block = current.parent
        if block is None:
            return PathResult(FELL)
        following = [s for s in block.named_children if s.start_byte >= current.end_byte]
        result = _walk(following, consumes, returns_value)
        if result.outcome != FELL or block.id == body.id:
            return result
        if block.type in _PREPROC:
            current = block  # `#if` regions are transparent: continue after them
            continue
        # Leave the block: its enclosing statement continues in the outer block, unless it is a loop
        # (the allocation happens once per iteration and must be consumed within it).
        outer = block.parent
        while outer is not None and outer.parent is not None and outer.parent.type not in _BLOCKS:
            if outer.type in _LOOPS:
                return PathResult(FELL)
            outer = outer.parent
        if outer is None or outer.type in _LOOPS or outer.parent is None:
            return PathResult(FELL)
        current = outer
