"""A parsed AscendC document: text, dialect-rewritten bytes, tree-sitter tree, line index.

Documents are immutable values. An edit produces a new document whose tree is re-parsed incrementally
from the old one (`tree.edit` + `parser.parse(new, old_tree)`), which takes well under a millisecond
for a keystroke in a 1,000-line kernel.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

import tree_sitter
import tree_sitter_cpp

from ascendc_lsp.syntax.dialect import blank, blank_macro_lines, default_rewriter, rewrite
from ascendc_lsp.syntax.positions import LineIndex, Position, Span


@cache
def cpp_language() -> tree_sitter.Language:
    return tree_sitter.Language(tree_sitter_cpp.language())


_local = threading.local()


def _parser() -> tree_sitter.Parser:
    # tree-sitter parsers are not thread-safe; the server parses on its event loop and in worker threads.
    parser: tree_sitter.Parser | None = getattr(_local, "parser", None)
    if parser is None:
        parser = tree_sitter.Parser(cpp_language())
        _local.parser = parser
    return parser


@dataclass(frozen=True)
class TextChange:
    """An LSP content change: `span` None means the whole text is replaced."""

    span: Span | None
    text: str


def decode_source(raw: bytes) -> str:
    """Text of a file as the tool sees it: UTF-8 (BOM dropped), invalid bytes replaced."""
    return raw.decode("utf-8-sig", errors="replace")


def common_prefix(a: bytes, b: bytes) -> int:
    """Bytes `a` and `b` share at their starts."""
    lo, hi = 0, min(len(a), len(b))
    if a[:hi] == b[:hi]:
        return hi
    # Slice comparisons run in C; a binary search needs only O(log n) of them.
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def common_suffix(a: bytes, b: bytes, limit: int) -> int:
    """Bytes `a` and `b` share at their ends, not reaching into their first `limit` bytes (a shared prefix)."""
    lo, hi = 0, min(len(a), len(b)) - limit
    if hi <= 0:
        return 0
    if a[len(a) - hi :] == b[len(b) - hi :]:
        return hi
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[len(a) - mid :] == b[len(b) - mid :]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _point(lines: LineIndex, offset: int) -> tuple[int, int]:
    line = lines.line_of(offset)
    return (line, offset - lines.line_start(line))


class SourceDocument:
    """One version of a kernel source and its syntax tree."""

    __slots__ = ("data", "lines", "parsed", "path", "text", "tree", "version")

    def __init__(
        self,
        text: str,
        *,
        path: str = "",
        version: int = 0,
        previous: SourceDocument | None = None,
    ) -> None:
        self.text = text
        self.path = path
        self.version = version
        self.data = text.encode("utf-8", errors="surrogatepass")
        self.lines = LineIndex(self.data)
        self.parsed = rewrite(self.data)
        self.tree = self._parse(previous)
        rounds = 3 if default_rewriter().repairs_macro_lines else 0
        while rounds and self.tree.root_node.has_error and self._repair():
            rounds -= 1

    def _parse(self, previous: SourceDocument | None) -> tree_sitter.Tree:
        parser = _parser()
        if previous is None:
            return parser.parse(self.parsed)
        old, new = previous.parsed, self.parsed
        start = common_prefix(old, new)
        if start == len(old) == len(new):
            return previous.tree
        suffix = common_suffix(old, new, start)
        old_end, new_end = len(old) - suffix, len(new) - suffix
        tree = previous.tree.copy()
        tree.edit(
            start_byte=start,
            old_end_byte=old_end,
            new_end_byte=new_end,
            start_point=_point(previous.lines, start),
            old_end_point=_point(previous.lines, old_end),
            new_end_point=_point(self.lines, new_end),
        )
        return parser.parse(new, tree)

    def _repair(self) -> bool:
        """Blank lone macro invocations inside ERROR nodes and parse again (dialect `macro_lines_in_errors`);
        False when there was nothing to blank."""
        ranges = []
        for node in iter_error_nodes(self.tree.root_node):
            ranges.append((node.start_byte, node.end_byte))
            if len(ranges) >= 200:
                break
        # Only at namespace or class scope: in a function body a macro line without `;` is a real error.
        root = self.tree.root_node
        spans = [
            (start, end) for start, end in blank_macro_lines(self.parsed, ranges)
            if not _in_block(root.descendant_for_byte_range(start, start))
        ]
        if not spans:
            return False
        out = bytearray(self.parsed)
        for start, end in spans:
            out[start:end] = blank(self.parsed[start:end])
        repaired = bytes(out)
        first, last = spans[0][0], max(end for _, end in spans)
        tree = self.tree.copy()
        point = _point(self.lines, first), _point(self.lines, last)
        tree.edit(start_byte=first, old_end_byte=last, new_end_byte=last,
                  start_point=point[0], old_end_point=point[1], new_end_point=point[1])
        self.parsed = repaired
        self.tree = _parser().parse(repaired, tree)
        return True

    def blanked(self, spans: Sequence[tuple[int, int]], previous: SourceDocument | None = None) -> SourceDocument:
        """This document with the byte ranges `spans` turned into spaces, line breaks kept (every byte offset and
        line stays), in its text and in its already rewritten bytes; parsed incrementally from `previous` (an
        earlier blanked copy). checks/incremental.py checks only the units an edit reaches this way."""
        data, parsed = bytearray(self.data), bytearray(self.parsed)
        for start, end in spans:
            data[start:end] = blank(self.data[start:end])
            parsed[start:end] = blank(self.parsed[start:end])
        document = object.__new__(SourceDocument)
        document.data = bytes(data)
        document.text = document.data.decode("utf-8", errors="surrogatepass")
        document.path = self.path
        document.version = self.version
        document.lines = LineIndex(document.data)
        document.parsed = bytes(parsed)
        document.tree = document._parse(previous)
        return document

    # -- editing -------------------------------------------------------------------------------

    def apply(self, changes: Sequence[TextChange], version: int | None = None) -> SourceDocument:
        """A new document with the LSP changes applied in order, re-parsed incrementally."""
        text = self.text
        data = self.data
        lines = self.lines
        for change in changes:
            if change.span is None:
                text = change.text
            else:
                start = lines.offset(change.span.start)
                end = max(start, lines.offset(change.span.end))
                replacement = change.text.encode("utf-8", errors="surrogatepass")
                data = data[:start] + replacement + data[end:]
                text = data.decode("utf-8", errors="surrogatepass")
            data = text.encode("utf-8", errors="surrogatepass")
            lines = LineIndex(data)
        return SourceDocument(
            text, path=self.path, version=self.version + 1 if version is None else version, previous=self
        )

    # -- queries over the tree ------------------------------------------------------------------

    def node_text(self, node: tree_sitter.Node) -> str:
        """The user's original text of a node (not the dialect-rewritten one)."""
        return self.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def span(self, node: tree_sitter.Node) -> Span:
        start, end = node.start_point, node.end_point
        lines = self.lines
        return Span(lines.point_to_position(start[0], start[1]), lines.point_to_position(end[0], end[1]))

    def offset_at(self, position: Position) -> int:
        return self.lines.offset(position)

    def node_at(self, position: Position, named: bool = True) -> tree_sitter.Node | None:
        offset = self.offset_at(position)
        root = self.tree.root_node
        if named:
            return root.named_descendant_for_byte_range(offset, offset)
        return root.descendant_for_byte_range(offset, offset)

    def syntax_errors(self, limit: int = 50) -> list[tuple[Span, str]]:
        """ERROR and MISSING nodes, outermost first, each with a short message."""
        found: list[tuple[Span, str]] = []
        if not self.tree.root_node.has_error:
            return found
        for node in iter_error_nodes(self.tree.root_node):
            if node.is_missing:
                found.append((self.span(node), f"syntax error: missing '{node.type}'"))
            else:
                snippet = self.node_text(node).strip().splitlines()
                near = snippet[0][:40] if snippet else ""
                found.append((self.span(node), f"syntax error near '{near}'" if near else "syntax error"))
            if len(found) >= limit:
                break
        return found


def _in_block(node: tree_sitter.Node | None) -> bool:
    while node is not None:
        if node.type == "compound_statement":
            return True
        node = node.parent
    return False


def tree_depth(root: tree_sitter.Node, stop_at: int) -> int:
    """The depth of the syntax tree when it exceeds `stop_at` (counting stops there); otherwise some depth that
    is at most `stop_at`. Iterative; a subtree of n nodes is at most n - 1 levels deep below its root
    (`descendant_count`, O(1)), so subtrees that cannot pass `stop_at` are never entered: a usual kernel costs
    a few dozen steps, not a walk of every node."""
    cursor = root.walk()
    depth = deepest = 0
    while True:
        node = cursor.node
        if node is not None and depth + node.descendant_count - 1 > stop_at and cursor.goto_first_child():
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > stop_at:
                    return deepest
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return deepest
            depth -= 1


def widest_error(root: tree_sitter.Node, stop_at: int) -> int:
    """The most children of one ERROR node (counting stops past `stop_at`), entering only subtrees that hold an
    error: a tree without errors costs one step. tree-sitter's queries take time quadratic in the width of an ERROR
    node (a 180 KB run of `template<`: 4 s per query), which no real kernel has (the widest in 3,059 public kernel
    files: 14 children)."""
    widest = 0
    stack = [root] if root.has_error else []
    while stack:
        node = stack.pop()
        if node.type == "ERROR" and node.child_count > widest:
            widest = node.child_count
            if widest > stop_at:
                return widest
        stack.extend(child for child in node.children if child.has_error)
    return widest


def iter_error_nodes(root: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    """ERROR and MISSING nodes, not descending into an ERROR node once reported."""
    cursor = root.walk()
    visited_children = False
    while True:
        node = cursor.node
        assert node is not None
        if not visited_children:
            if node.is_error or node.is_missing:
                yield node
            elif node.has_error and cursor.goto_first_child():
                continue
        if cursor.goto_next_sibling():
            visited_children = False
        elif cursor.goto_parent():
            visited_children = True
        else:
            return
