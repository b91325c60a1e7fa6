"""What is being completed at a position: a member of some receiver, a name after `X::`, a template argument,
the start of a statement, or an expression; and whether the cursor sits in a function, a class body or at top level.

Works on the document's bytes backwards from the cursor (the tree is often broken while typing) and asks the tree
only whether the cursor is in a comment or string and which scope encloses it.
"""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter

from ascendc_lsp.syntax.document import SourceDocument
from ascendc_lsp.syntax.positions import Position

KINDS = ("member", "scope", "template", "statement", "expression", "none")
WHERE = ("function", "class", "namespace")

_NO_COMPLETION_NODES = frozenset(
    {"comment", "string_literal", "raw_string_literal", "char_literal", "system_lib_string", "string_content"}
)
_IDENT = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_SPACE = frozenset(b" \t\r\n")
_LABELS = (b"public", b"private", b"protected", b"default")
_CLOSERS = {ord(")"): ord("("), ord("]"): ord("["), ord(">"): ord("<")}


@dataclass(frozen=True, slots=True)
class CompletionContext:
    """`kind` is one of KINDS, `where` one of WHERE; byte offsets are into `document.data`."""

    kind: str
    where: str
    prefix: str
    offset: int
    prefix_start: int
    receiver: str | None = None  # member: the receiver expression, e.g. `inQueueX`, `this->pipe`, `xGm[i]`
    arrow: bool = False  # member access through `->`
    scope: str | None = None  # scope: the qualifier before `::` (`AscendC`, `TPosition`, `HardEvent`)
    template: str | None = None  # template: the name before the unclosed `<`
    template_index: int = 0  # template: which argument (0-based)
    at_statement_start: bool = False  # the completed expression begins a statement (a trailing `;` fits)

    @property
    def in_function(self) -> bool:
        return self.where == "function"


def _is_ident(byte: int) -> bool:
    return byte in _IDENT


def _skip_space_back(data: bytes, index: int) -> int:
    while index > 0 and data[index - 1] in _SPACE:
        index -= 1
    return index


def _ident_start(data: bytes, index: int) -> int:
    while index > 0 and data[index - 1] in _IDENT:
        index -= 1
    return index


def _matching_open(data: bytes, index: int, limit: int) -> int | None:
    """Index of the bracket that opens the one ending just before `index` (data[index-1] is the closer)."""
    closer = data[index - 1]
    opener = _CLOSERS[closer]
    depth = 0
    i = index - 1
    while i >= limit:
        byte = data[i]
        if byte == closer:
            depth += 1
        elif byte == opener:
            depth -= 1
            if depth == 0:
                return i
        elif byte in b";{}":
            return None
        i -= 1
    return None


def receiver_start(data: bytes, end: int, limit: int = 0) -> int:
    """Start of the postfix expression that ends at `end`: `a.b[i]`, `this->q.AllocTensor<half>()`, `Get()`."""
    i = _skip_space_back(data, end)
    start = i
    while i > limit:
        byte = data[i - 1]
        if byte in _IDENT:
            j = _ident_start(data, i)
            if data[j:i].isdigit():
                return start
            start = i = j
        elif byte in b")]":
            opened = _matching_open(data, i, limit)
            if opened is None:
                return start
            start = i = opened
            continue  # a call or an index: the callee/array precedes it
        elif byte == ord(">") and i >= 2 and data[i - 2] != ord("-"):
            opened = _matching_open(data, i, limit)
            if opened is None or opened == 0 or data[opened - 1] not in _IDENT:
                return start
            start = i = opened
            continue  # template arguments: the template's name precedes them
        else:
            return start
        # After a name: is it the right-hand side of `.`, `->` or `::`?
        k = _skip_space_back(data, i)
        if k >= 1 and data[k - 1] == ord("."):
            i = _skip_space_back(data, k - 1)
        elif k >= 2 and data[k - 2 : k] in (b"->", b"::"):
            i = _skip_space_back(data, k - 2)
        else:
            return start
    return start


def _skip_trivia_back(data: bytes, tree: tree_sitter.Tree | None, index: int) -> int:
    """Skip whitespace and comments backwards (comments found through the tree, which keeps them even when broken)."""
    i = _skip_space_back(data, index)
    steps = 0
    while tree is not None and i > 0 and steps < 64:
        node = tree.root_node.descendant_for_byte_range(i - 1, i)
        if node is None or node.type != "comment" or node.start_byte >= i:
            break
        i = _skip_space_back(data, node.start_byte)
        steps += 1
    return i


def _statement_start_before(data: bytes, index: int, tree: tree_sitter.Tree | None = None) -> bool:
    """True when the text before `index` ends a statement or opens a block (so a new statement begins)."""
    i = _skip_trivia_back(data, tree, index)
    if i == 0:
        return True
    line_start = data.rfind(b"\n", 0, i) + 1
    if data[line_start:i].lstrip().startswith(b"#"):
        return True  # after a preprocessor line
    byte = data[i - 1]
    if byte in b";{}":
        return True
    if byte == ord(":") and (i < 2 or data[i - 2] != ord(":")):
        label_end = _skip_space_back(data, i - 1)
        label = data[_ident_start(data, label_end) : label_end]
        return label in _LABELS or _is_case_label(data, label_end)
    if byte == ord(")"):
        opened = _matching_open(data, i, max(0, i - 4000))
        if opened is not None:
            k = _skip_space_back(data, opened)
            keyword = data[_ident_start(data, k) : k]
            return keyword in (b"if", b"for", b"while", b"switch")
    if _is_ident(byte):
        k = _ident_start(data, i)
        return data[k:i] in (b"else", b"do")
    return False


def _is_case_label(data: bytes, end: int) -> bool:
    line_start = data.rfind(b"\n", 0, end) + 1
    return data[line_start:end].lstrip().startswith(b"case ")


def _unclosed_angle(data: bytes, index: int, limit: int) -> tuple[int, int] | None:
    """(position of an unclosed `<` before `index` in this statement, number of top-level commas after it)."""
    depth_round = depth_angle = commas = 0
    i = index - 1
    while i >= limit:
        byte = data[i]
        if byte in b";{}":
            return None
        if byte == ord(")") or byte == ord("]"):
            depth_round += 1
        elif byte == ord("(") or byte == ord("["):
            if depth_round == 0:
                return None
            depth_round -= 1
        elif byte == ord(">") and not (i > 0 and data[i - 1] == ord("-")):
            depth_angle += 1
        elif byte == ord("<"):
            if i > 0 and data[i - 1] == ord("<"):
                return None  # a shift or a `<<<` launch
            if depth_angle == 0 and depth_round == 0:
                return i, commas
            depth_angle = max(0, depth_angle - 1)
        elif byte == ord(",") and depth_round == 0 and depth_angle == 0:
            commas += 1
        i -= 1
    return None


def _in_literal_or_comment(tree: tree_sitter.Tree, offset: int) -> bool:
    node = tree.root_node.descendant_for_byte_range(max(offset - 1, 0), offset)
    steps = 0
    while node is not None and steps < 4:
        if node.type in _NO_COMPLETION_NODES:
            if node.start_byte < offset < node.end_byte:
                return True
            if node.type == "comment" and node.end_byte == offset and node.start_byte < offset:
                text = node.text or b""
                return text.startswith(b"//") or not text.endswith(b"*/")
        node = node.parent
        steps += 1
    return False


def enclosing_scope(tree: tree_sitter.Tree, offset: int) -> str:
    """`function` (in a function body), `class` (in a class body, outside methods) or `namespace`."""
    node: tree_sitter.Node | None = tree.root_node.named_descendant_for_byte_range(offset, offset)
    while node is not None:
        kind = node.type
        if kind == "compound_statement" and node.start_byte < offset:
            return "function"
        elif kind == "field_declaration_list" and node.start_byte < offset:
            return "class"
        elif kind in ("declaration_list", "translation_unit") and node.start_byte <= offset:
            return "namespace"
        node = node.parent
    return "namespace"


def completion_context(document: SourceDocument, position: Position) -> CompletionContext:
    """What is being completed at `position` (never raises for a position outside the text: it clamps)."""
    data = document.data
    offset = document.offset_at(position)
    prefix_start = _ident_start(data, offset)
    prefix = data[prefix_start:offset].decode("utf-8", errors="replace")
    line_start = data.rfind(b"\n", 0, offset) + 1
    if data[line_start:offset].lstrip().startswith(b"#") or _in_literal_or_comment(document.tree, offset):
        return CompletionContext("none", "namespace", prefix, offset, prefix_start)
    if prefix[:1].isdigit():
        return CompletionContext("none", "namespace", prefix, offset, prefix_start)
    where = enclosing_scope(document.tree, prefix_start)
    limit = max(0, offset - 4000)
    before = _skip_space_back(data, prefix_start)

    # `recv.` / `recv->`
    if before >= 2 and data[before - 1] == ord(".") and data[before - 2 : before - 1].isdigit():
        return CompletionContext("none", where, prefix, offset, prefix_start)  # `1.` is a number
    is_dot = before >= 1 and data[before - 1] == ord(".")
    is_arrow = before >= 2 and data[before - 2 : before] == b"->"
    if is_dot or is_arrow:
        end = before - (2 if is_arrow else 1)
        start = receiver_start(data, end, limit)
        receiver = data[start:end].decode("utf-8", errors="replace").strip()
        if not receiver:
            return CompletionContext("none", where, prefix, offset, prefix_start)
        return CompletionContext(
            "member", where, prefix, offset, prefix_start, receiver=receiver, arrow=is_arrow,
            at_statement_start=_statement_start_before(data, start, document.tree),
        )

    # `Scope::`
    if before >= 2 and data[before - 2 : before] == b"::":
        k = _skip_space_back(data, before - 2)
        scope = data[_ident_start(data, k) : k].decode("utf-8", errors="replace")
        qualified_start = receiver_start(data, before - 2, limit)
        return CompletionContext(
            "scope", where, prefix, offset, prefix_start, scope=scope or None,
            at_statement_start=_statement_start_before(data, qualified_start, document.tree),
        )

    # `Name<...,` template argument
    angle = _unclosed_angle(data, prefix_start, limit)
    if angle is not None:
        lt, commas = angle
        k = _skip_space_back(data, lt)
        name = data[_ident_start(data, k) : k].decode("utf-8", errors="replace")
        if name and not name[0].isdigit():
            return CompletionContext(
                "template", where, prefix, offset, prefix_start, template=name, template_index=commas
            )

    statement = _statement_start_before(data, prefix_start, document.tree)
    return CompletionContext(
        "statement" if statement else "expression", where, prefix, offset, prefix_start, at_statement_start=statement
    )
