"""Helpers shared by the rule modules: API families, tensor and dtype lookups, one tree scan per document."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache

import tree_sitter

from ascendc_lsp.checks.base import CheckContext
from ascendc_lsp.syntax.document import cpp_language, tree_depth
from ascendc_lsp.syntax.model import MAX_TREE_DEPTH, ApiCall, DocumentModel

# -- API families -------------------------------------------------------------------------------------

BINARY_OPS = frozenset({
    "Add", "Sub", "Mul", "Div", "Max", "Min", "And", "Or", "AddRelu", "SubRelu", "MulAddDst", "FusedMulAdd",
    "AddReluCast", "SubReluCast", "AddDeqRelu", "Prelu",
})
UNARY_OPS = frozenset({
    "Exp", "Ln", "Abs", "Reciprocal", "Sqrt", "Rsqrt", "Relu", "Not", "Neg",
})
SCALAR_OPS = frozenset({"Adds", "Muls", "Maxs", "Mins", "ShiftLeft", "ShiftRight", "LeakyRelu", "Axpy", "Subs", "Divs"})
REDUCE_OPS = frozenset({
    "WholeReduceSum", "WholeReduceMax", "WholeReduceMin", "BlockReduceSum", "BlockReduceMax", "BlockReduceMin",
    "PairReduceSum", "RepeatReduceSum", "ReduceSum", "ReduceMax", "ReduceMin",
})
# Calls that compute on the vector unit (their first argument is the destination tensor).
VECTOR_OPS = BINARY_OPS | UNARY_OPS | SCALAR_OPS | REDUCE_OPS | frozenset({
    "Cast", "Duplicate", "Select", "Compare", "CompareScalar", "Copy", "Brcb", "GatherMask", "Gather",
    "CastDeq", "Softmax", "SoftMax", "Sigmoid", "Tanh", "Gelu", "Silu", "Power", "Transpose", "Sin", "Cos",
})
DATA_MOVES = frozenset({"DataCopy", "DataCopyPad"})
SYNC_CALLS = frozenset({
    "SetFlag", "WaitFlag", "PipeBarrier", "pipe_barrier", "set_flag", "wait_flag", "SyncAll", "EnQue", "DeQue",
    "CrossCoreSetFlag", "CrossCoreWaitFlag", "DataSyncBarrier",
})
UNSIGNED_TYPES = frozenset({"uint8_t", "uint16_t", "uint32_t", "uint64_t", "unsigned", "size_t", "unsigned int",
                            "unsigned long", "unsigned char", "unsigned short"})
FLOAT_TYPES = frozenset({"float", "double", "half", "bfloat16_t", "float16_t", "float32_t"})

_IDENT_ARG = re.compile(r"^\s*(?:this\s*->\s*)?([A-Za-z_]\w*)\s*(?:\[(.*)\])?\s*$", re.DOTALL)


def strip_this(text: str | None) -> str:
    if text is None:
        return ""
    text = text.strip()
    if not text.startswith("this"):
        return text
    return re.sub(r"^this\s*->\s*", "", text)


def tensor_arg(text: str) -> tuple[str, str | None] | None:
    """`xLocal` -> ("xLocal", None); `xLocal[off]` -> ("xLocal", "off"); anything else -> None."""
    match = _IDENT_ARG.match(text)
    if match is None:
        return None
    return match.group(1), match.group(2)


@dataclass(frozen=True, slots=True)
class TensorRef:
    name: str
    kind: str  # LocalTensor | GlobalTensor
    dtype: str | None


_TENSOR_TYPE = re.compile(r"^(?:AscendC::)?(LocalTensor|GlobalTensor)\s*<\s*(.+?)\s*>$", re.DOTALL)
# Spellings of the same element type.
DTYPE_SYNONYMS = {
    "float16_t": "half", "float32_t": "float", "int": "int32_t", "unsigned": "uint32_t", "unsigned int": "uint32_t",
    "short": "int16_t", "unsigned short": "uint16_t", "signed char": "int8_t", "unsigned char": "uint8_t",
    "long": "int64_t", "bfloat16": "bfloat16_t",
}


def normal_dtype(dtype: str | None) -> str | None:
    return DTYPE_SYNONYMS.get(dtype, dtype) if dtype is not None else None


def tensor_of(context: CheckContext, text: str, at_byte: int) -> TensorRef | None:
    """The tensor an argument names (`x`, `x[off]`, `this->x`), from its innermost visible declaration."""
    parsed = tensor_arg(text)
    if parsed is None:
        return None
    name = parsed[0]
    decl = visible_decl(context, name, at_byte)
    if decl is not None:
        match = _TENSOR_TYPE.match(decl.type_text)
        if match:
            return TensorRef(name, match.group(1), match.group(2))
        if decl.type_text != "auto":
            return None
    var = context.model.tensor(name, at_byte)
    return TensorRef(name, var.kind, var.dtype) if var is not None else None


def resolved_dtype(model: DocumentModel, dtype: str | None, at_byte: int) -> str | None:
    if dtype is None:
        return None
    return normal_dtype(model.resolve_type(dtype.replace("const", "").strip(), at_byte))


def tensor_dtype(context: CheckContext, text: str, at_byte: int) -> str | None:
    var = tensor_of(context, text, at_byte)
    return resolved_dtype(context.model, var.dtype, at_byte) if var is not None else None


def is_global(context: CheckContext, text: str, at_byte: int) -> bool | None:
    var = tensor_of(context, text, at_byte)
    if var is None:
        return None
    return var.kind == "GlobalTensor"


def call_dtype(context: CheckContext, call: ApiCall, arg_index: int = 0) -> str | None:
    """The element type of a call: its first template argument, else its tensor argument's dtype."""
    if call.template_args:
        resolved = resolved_dtype(context.model, call.template_args[0], call.start_byte)
        if resolved is not None and resolved in KNOWN_DTYPES:
            return resolved
    if len(call.args) > arg_index:
        return tensor_dtype(context, call.args[arg_index].text, call.start_byte)
    return None


KNOWN_DTYPES = frozenset({
    "half", "float", "bfloat16_t", "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t",
    "int64_t", "uint64_t", "double", "int4b_t", "bool",
})


def receiver_name(call: ApiCall) -> str | None:
    if call.receiver is None:
        return None
    name = strip_this(call.receiver)
    return name if re.fullmatch(r"[A-Za-z_]\w*", name) else None


def event_of(call: ApiCall) -> str | None:
    """`SetFlag<HardEvent::MTE2_V>(...)` -> "MTE2_V"; `set_flag(PIPE_MTE2, PIPE_V, id)` -> "MTE2_V"."""
    if call.template_args:
        return call.template_args[0].split("::")[-1].strip()
    if call.name in ("set_flag", "wait_flag") and len(call.args) >= 2:
        a = call.args[0].text.split("::")[-1].replace("PIPE_", "").strip()
        b = call.args[1].text.split("::")[-1].replace("PIPE_", "").strip()
        return f"{a}_{b}"
    return None


def event_id_arg(call: ApiCall) -> str | None:
    if call.name in ("set_flag", "wait_flag"):
        return call.args[2].text.strip() if len(call.args) >= 3 else None
    return call.args[0].text.strip() if call.args else None


_EVENT_ID = re.compile(r"^(?:AscendC::)?EVENT_ID(\d+)$")


def event_id_value(call: ApiCall) -> int | None:
    text = event_id_arg(call)
    if text is None:
        return None
    text = re.sub(r"^\(\s*event_t\s*\)\s*|^static_cast\s*<\s*event_t\s*>\s*", "", text).strip("() ")
    match = _EVENT_ID.match(text)
    if match:
        return int(match.group(1))
    index = 2 if call.name in ("set_flag", "wait_flag") else 0
    if len(call.args) > index:
        return call.args[index].folded.as_int()
    return None


# -- one query-based scan per document ------------------------------------------------------------------

_SCAN_QUERY = """
(new_expression) @new
(delete_expression) @delete
(qualified_identifier) @qualified
(primitive_type) @primitive
(number_literal) @number
(binary_expression) @binary
(cast_expression) @cast
(subscript_expression) @subscript
"virtual" @virtual
(if_statement) @if
(return_statement) @return
(assignment_expression) @assign
(init_declarator) @init
(namespace_definition) @namespace
(type_identifier) @type
(preproc_if) @preproc
(preproc_ifdef) @preproc
(compound_statement) @block
(lambda_expression) @lambda
(declaration) @decl
(field_declaration) @field
(parameter_declaration) @param
(optional_parameter_declaration) @param
(update_expression) @update
(call_expression) @call
(field_declaration_list) @scope
(declaration_list) @scope
(for_statement) @scope
(function_definition) @scope
(for_range_loop) @scope
"""


@cache
def _scan_query() -> tree_sitter.Query:
    return tree_sitter.Query(cpp_language(), _SCAN_QUERY)


# Documents larger than this whose tree nests past MAX_TREE_DEPTH are scanned by the Python walk below (the same
# captures): a tree's depth is at most its size in bytes, and tree-sitter's query takes 61 s on an 80,000-term sum
# (depth 80,000; 60,000: 0.2 s). Cancelling the query through its progress callback crashes tree-sitter 0.26 on
# such a tree, so size and depth decide. Within the depth limit the C query is ~10x faster than the walk.
SCAN_WALK_BYTES = 32 * 1024
# The scan query's patterns are single nodes: capture name by node type (the walk's equivalent of the query).
_SCAN_TYPES = {
    line.split(")")[0].strip("(").strip('"'): line.rsplit("@", 1)[1]
    for line in _SCAN_QUERY.strip().splitlines()
}


def _walk_scan(root: tree_sitter.Node) -> dict[str, list[tree_sitter.Node]]:
    """Every node the scan query captures, by an iterative walk (linear in the tree, whatever its depth)."""
    out: dict[str, list[tree_sitter.Node]] = {}
    cursor = root.walk()
    while True:
        node = cursor.node
        if node is not None:
            name = _SCAN_TYPES.get(node.type)
            if name is not None and (node.is_named or node.type == "virtual"):
                out.setdefault(name, []).append(node)
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return out


@dataclass
class Scan:
    nodes: dict[str, list[tree_sitter.Node]] = field(default_factory=dict)

    def get(self, name: str) -> list[tree_sitter.Node]:
        return self.nodes.get(name, [])


def scan(context: CheckContext) -> Scan:
    cached = context.__dict__.get("_rule_scan")
    if isinstance(cached, Scan):
        return cached
    root = context.document.tree.root_node
    if context.model.too_wide or (len(context.document.data) > SCAN_WALK_BYTES and _deep(context)):
        captures = _walk_scan(root)  # the C query goes quadratic past ~64k levels, and on wide ERROR nodes
    else:
        captures = tree_sitter.QueryCursor(_scan_query()).captures(root)
    result = Scan({name: sorted(nodes, key=lambda n: n.start_byte) for name, nodes in captures.items()})
    context.__dict__["_rule_scan"] = result
    return result


def _deep(context: CheckContext) -> bool:
    """The tree nests past MAX_TREE_DEPTH (the model measured it; tree_depth skips shallow subtrees)."""
    depth = context.model.depth
    if depth is None:
        depth = tree_depth(context.document.tree.root_node, MAX_TREE_DEPTH)
    return depth > MAX_TREE_DEPTH


@dataclass(frozen=True, slots=True)
class ScalarDecl:
    name: str
    type_text: str
    start_byte: int
    scope_start: int
    scope_end: int
    class_scope: bool = False


_SCOPES = frozenset({"compound_statement", "field_declaration_list", "declaration_list", "translation_unit",
                     "for_statement", "function_definition", "for_range_loop"})


def _declared_names(declarator: tree_sitter.Node | None, get: Callable[[tree_sitter.Node], str]) -> str | None:
    node = declarator
    while node is not None and node.type not in ("identifier", "field_identifier"):
        if node.type in ("function_declarator", "array_declarator", "pointer_declarator"):
            return None  # functions, arrays and pointers are not scalars
        if node.type == "reference_declarator":
            node = next((c for c in node.named_children), None)
            continue
        node = node.child_by_field_name("declarator")
    return get(node) if node is not None else None


def scalar_decls(context: CheckContext) -> dict[str, list[ScalarDecl]]:
    """Every declared variable, parameter and field by name, with its type text and scope."""
    cached = context.__dict__.get("_scalar_decls")
    if isinstance(cached, dict):
        return cached
    found: dict[str, list[ScalarDecl]] = {}
    document = context.document
    nodes = scan(context)
    decls = sorted(nodes.get("decl") + nodes.get("field") + nodes.get("param"), key=lambda n: n.start_byte)
    for node, scope in zip(decls, _innermost_scopes(context, decls), strict=True):
        type_node = node.child_by_field_name("type")
        if type_node is None:
            continue
        type_text = document.node_text(type_node).replace("const", "").strip()
        for declarator in node.children_by_field_name("declarator"):
            name = _declared_names(declarator, document.node_text)
            if name:
                found.setdefault(name, []).append(ScalarDecl(name, type_text, node.start_byte, *scope))
    context.__dict__["_scalar_decls"] = found
    return found


def _innermost_scopes(context: CheckContext, decls: list[tree_sitter.Node]) -> list[tuple[int, int, bool]]:
    """The innermost scope (start, end, is a class body) holding each node (sorted by start), by one sweep over the scope nodes of the scan instead of a
    parent walk per node (tree-sitter finds a parent by descending from the root: the walk was a sixth of a
    check on a 1,000-line file). Nodes of a tree nest, so the open scopes form a stack."""
    nodes = scan(context)
    root = context.document.tree.root_node
    scopes = sorted(
        [(n.start_byte, n.end_byte, n.type == "field_declaration_list") for n in nodes.get("scope") + nodes.get("block")]
        + [(root.start_byte, root.end_byte, False)],
        key=lambda s: (s[0], -s[1]),
    )
    out: list[tuple[int, int, bool]] = []
    stack: list[tuple[int, int, bool]] = []
    j = 0
    for node in decls:
        start, end = node.start_byte, node.end_byte
        while j < len(scopes) and scopes[j][0] <= start:
            while stack and stack[-1][1] <= scopes[j][0]:
                stack.pop()
            stack.append(scopes[j])
            j += 1
        while stack and stack[-1][1] <= start:
            stack.pop()
        enclosing = next(
            (s for s in reversed(stack) if s[1] >= end and (s[0], s[1]) != (start, end)), (0, 1 << 62, False)
        )
        out.append(enclosing)
    return out


def visible_decl(context: CheckContext, name: str, at_byte: int, members_only: bool = False) -> ScalarDecl | None:
    """The innermost declaration of `name` whose scope holds `at_byte` (block-scoped ones must precede it)."""
    decls = scalar_decls(context).get(name, [])
    if members_only and len(decls) > 1:
        # `this->name` inside a class body is that class's member (classes of one name in many namespaces stay
        # distinct); elsewhere (an out-of-class member definition) the innermost member of that name anywhere.
        by_scope = _decls_by_scope(context).get(name, {})
        for scope in _enclosing_scopes(context, at_byte)[1:]:
            members = [d for d in by_scope.get(scope, ()) if d.class_scope]
            if members:
                return members[-1]
        return _innermost_members(context).get(name)
    if not members_only and len(decls) > 8:
        # A name declared in many scopes (a local repeated in every function): only declarations in the
        # scopes enclosing `at_byte` can be visible, so look those up instead of scanning them all.
        by_scope = _decls_by_scope(context).get(name, {})
        decls = []
        for scope in _enclosing_scopes(context, at_byte):
            in_scope = by_scope.get(scope, ())
            if len(in_scope) > 8:
                # Many declarations of one scope (a file of repeated copies): within a scope the loop below
                # keeps the last one that may be seen from at_byte, so only those two candidates matter.
                member = next((d for d in reversed(in_scope) if d.class_scope), None)
                i = bisect_right(in_scope, at_byte, key=lambda d: d.start_byte)
                before = next((in_scope[k] for k in range(i - 1, -1, -1) if not in_scope[k].class_scope), None)
                in_scope = [d for d in (member, before) if d is not None]
            decls.extend(in_scope)
    best: ScalarDecl | None = None
    for decl in decls:
        if members_only and not decl.class_scope:
            continue
        if not (decl.scope_start <= at_byte < decl.scope_end) and not members_only:
            continue
        if decl.start_byte > at_byte and not decl.class_scope:
            continue
        if best is None or decl.scope_end - decl.scope_start < best.scope_end - best.scope_start or (
            decl.scope_start == best.scope_start and decl.start_byte > best.start_byte
        ):
            best = decl
    return best


def _innermost_members(context: CheckContext) -> dict[str, ScalarDecl]:
    """Per name, the member declared in the smallest class body (the last of that body on a tie)."""
    cached = context.__dict__.get("_innermost_members")
    if isinstance(cached, dict):
        return cached
    best: dict[str, ScalarDecl] = {}
    for name, decls in scalar_decls(context).items():
        for decl in decls:
            if not decl.class_scope:
                continue
            old = best.get(name)
            if old is None or decl.scope_end - decl.scope_start < old.scope_end - old.scope_start or (
                decl.scope_start == old.scope_start and decl.start_byte > old.start_byte
            ):
                best[name] = decl
    context.__dict__["_innermost_members"] = best
    return best


def _decls_by_scope(context: CheckContext) -> dict[str, dict[tuple[int, int], list[ScalarDecl]]]:
    cached = context.__dict__.get("_decls_by_scope")
    if isinstance(cached, dict):
        return cached
    index: dict[str, dict[tuple[int, int], list[ScalarDecl]]] = {}
    for name, decls in scalar_decls(context).items():
        for decl in decls:
            index.setdefault(name, {}).setdefault((decl.scope_start, decl.scope_end), []).append(decl)
    for scopes in index.values():
        for in_scope in scopes.values():
            in_scope.sort(key=lambda d: d.start_byte)  # visible_decl bisects them
    context.__dict__["_decls_by_scope"] = index
    return index


def _enclosing_scopes(context: CheckContext, at_byte: int) -> list[tuple[int, int]]:
    """The scopes holding `at_byte`, innermost first, after the whole-file sentinel (0, 1 << 62).

    By bisect into the scan's scope intervals and a climb through their parents (_ScopeIndex) instead of
    tree-sitter's descendant_for_byte_range and a node.parent walk (each parent found by descending from the
    root again: the walk was quadratic in the depth and the largest single cost of ASC005 on a 5 MB file)."""
    index = _scope_index(context)
    scopes = [(0, 1 << 62)]
    i = bisect_right(index.starts, at_byte) - 1
    while i >= 0 and index.ends[i] <= at_byte:  # tree-sitter's containment: start <= at_byte < end
        i = index.parents[i]
    while i > 0:
        scopes.append((index.starts[i], index.ends[i]))
        i = index.parents[i]
    scopes.append(index.root)
    return scopes


@dataclass
class _ScopeIndex:
    """The scan's scope intervals sorted by (start, -end), each with the index of its innermost enclosing one."""

    root: tuple[int, int]  # the translation unit's own range (entry 0 stands for it, holding every position)
    starts: list[int]
    ends: list[int]
    parents: list[int]  # -1: entry 0's


def _scope_index(context: CheckContext) -> _ScopeIndex:
    cached = context.__dict__.get("_scope_index")
    if isinstance(cached, _ScopeIndex):
        return cached
    nodes = scan(context)
    root = context.document.tree.root_node
    intervals = sorted(
        {(n.start_byte, n.end_byte) for n in nodes.get("scope") + nodes.get("block")} - {(root.start_byte, root.end_byte)},
        key=lambda s: (s[0], -s[1]),
    )
    # the root holds every position (tree-sitter answers the root even outside its trimmed range)
    starts, ends, parents = [-1], [1 << 62], [-1]
    stack = [0]
    for start, end in intervals:
        while len(stack) > 1 and ends[stack[-1]] <= start:
            stack.pop()
        parents.append(stack[-1])
        stack.append(len(starts))
        starts.append(start)
        ends.append(end)
    index = _ScopeIndex((root.start_byte, root.end_byte), starts, ends, parents)
    context.__dict__["_scope_index"] = index
    return index


def type_of_name(context: CheckContext, name: str, at_byte: int, members_only: bool = False) -> str | None:
    """The resolved declared type of `name` at `at_byte` (innermost visible declaration)."""
    best = visible_decl(context, name, at_byte, members_only)
    if best is None:
        return None
    return normal_dtype(context.model.resolve_type(best.type_text, at_byte))


MAX_EXPRESSION_DEPTH = 200  # operands deeper than this are of unknown type (an 80,000-term sum must not recurse)


def expression_type(context: CheckContext, node: tree_sitter.Node, depth: int = 0) -> str | None:
    """The type of simple expressions: identifiers, `this->x`, casts, parenthesised; else None.

    Memoised per document (rules ask for every operand of every binary expression: without it a long sum is
    quadratic) and depth-bounded (operands nested deeper than MAX_EXPRESSION_DEPTH are of unknown type)."""
    if depth > MAX_EXPRESSION_DEPTH:
        return None
    memo: dict[tuple[int, int, str], str | None] = context.__dict__.setdefault("_expression_types", {})
    key = (node.start_byte, node.end_byte, node.type)
    if key in memo:
        return memo[key]
    result = _expression_type(context, node, depth)
    memo[key] = result
    return result


def _expression_type(context: CheckContext, node: tree_sitter.Node, depth: int) -> str | None:
    kind = node.type
    text = context.document.node_text
    if kind == "identifier":
        return type_of_name(context, text(node), node.start_byte)
    if kind == "field_expression":
        argument = node.child_by_field_name("argument")
        field_node = node.child_by_field_name("field")
        if argument is not None and text(argument) == "this" and field_node is not None:
            return type_of_name(context, text(field_node), node.start_byte, members_only=True)
        return None
    if kind == "parenthesized_expression" and node.named_child_count == 1:
        return expression_type(context, node.named_children[0], depth + 1)
    if kind == "cast_expression":
        type_node = node.child_by_field_name("type")
        return context.model.resolve_type(text(type_node), node.start_byte) if type_node is not None else None
    if kind == "binary_expression":
        op = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if op is None or op.type not in ("+", "-", "*", "/") or left is None or right is None:
            return None
        sides = (expression_type(context, left, depth + 1), expression_type(context, right, depth + 1))
        for wide in ("double", "float", "bfloat16_t", "half"):
            if wide in sides:
                return wide
        return None
    if kind == "number_literal":
        literal = text(node).lower()
        if literal.startswith("0x"):
            return "int"
        if "." in literal or "e" in literal:
            return "float" if literal.endswith("f") else "double"
        return "unsigned" if "u" in literal else "int"
    return None


def calls_by_function(context: CheckContext) -> dict[int, list[ApiCall]]:
    """The document's calls grouped by the start byte of their enclosing function, in source order."""
    cached = context.__dict__.get("_calls_by_function")
    if isinstance(cached, dict):
        return cached
    grouped: dict[int, list[ApiCall]] = {}
    for call in context.model.calls:
        if call.function is not None:
            grouped.setdefault(call.function.start_byte, []).append(call)
    context.__dict__["_calls_by_function"] = grouped
    return grouped


def ancestors(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def in_constexpr_branch(context: CheckContext, start_byte: int, end_byte: int) -> bool:
    """Inside `if constexpr (...)`: compiled only for some instantiations, so type facts may not apply."""
    node = node_for(context, start_byte, end_byte)
    if node is None:
        return False
    return any(a.type == "if_statement" and any(c.type == "constexpr" for c in a.children) for a in ancestors(node))


def in_preprocessor_branch(node: tree_sitter.Node) -> bool:
    return any(a.type in ("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif") for a in ancestors(node))


def node_for(context: CheckContext, start_byte: int, end_byte: int) -> tree_sitter.Node | None:
    return context.document.tree.root_node.descendant_for_byte_range(start_byte, end_byte)


def subscript_index(context: CheckContext, start: int, end: int) -> tree_sitter.Node | None:
    """The one index expression of the subscript `x[i]` spanning `start`..`end` (an argument such as `xGm[off]`),
    None when the text there is no subscript or has several indices."""
    node = node_for(context, start, end)
    while node is not None and node.type != "subscript_expression":
        node = node.parent if node.start_byte >= start else None
    if node is None:
        return None
    indices = node.child_by_field_name("indices")
    if indices is None or indices.named_child_count != 1:
        return None
    return indices.named_children[0]


def fold_node(context: CheckContext, node: tree_sitter.Node | None) -> int | None:
    """Fold an expression node through the document's constants (unknown stays None)."""
    if node is None:
        return None
    from ascendc_lsp.syntax.constfold import Folder

    model = context.model

    def resolve(name: str, at: int) -> int | float | None:
        const = model.constant(name, at)
        return const.value.value if const is not None and const.is_constant else None

    return Folder(context.document.data, resolve, lambda t, at: model.dtype_size(t, at)).fold(node).as_int()


def fmt(value: int) -> str:
    return f"{value:,}"
