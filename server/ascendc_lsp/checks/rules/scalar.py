"""Scalar code the AI Core compiler rejects: double, half arithmetic, float/unsigned casts, libm, heap, STL,
virtual functions, recursion."""

from __future__ import annotations

import re
from collections.abc import Iterator

import tree_sitter

from ascendc_lsp.checks.base import CheckContext, rule
from ascendc_lsp.checks.limits import limits_for
from ascendc_lsp.checks.rules._common import (
    FLOAT_TYPES,
    UNSIGNED_TYPES,
    ancestors,
    expression_type,
    scan,
)
from ascendc_lsp.diagnostics import Diagnostic
from ascendc_lsp.syntax.model import Function

_ARITH_OPS = frozenset({"+", "-", "*", "/"})


def _aicore(context: CheckContext, node: tree_sitter.Node) -> Function | None:
    function = context.model.function_at(node.start_byte)
    if function is None or not function.is_aicore:
        return None
    return function


def _operator(node: tree_sitter.Node) -> str:
    op = node.child_by_field_name("operator")
    return op.type if op is not None else ""


def _in_template_args(node: tree_sitter.Node) -> bool:
    for depth, parent in enumerate(ancestors(node)):
        if parent.type in ("template_argument_list", "sizeof_expression", "template_parameter_list"):
            return True
        if depth > 3:
            break
    return False


def _is_constant_operand(context: CheckContext, node: tree_sitter.Node) -> bool:
    if node.type in ("number_literal", "sizeof_expression", "true", "false"):
        return True
    if node.type in ("identifier", "qualified_identifier"):
        const = context.model.constant(context.document.node_text(node).split("::")[-1], node.start_byte)
        return const is not None and const.is_constant
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        return _is_constant_operand(context, node.named_children[0])
    if node.type in ("binary_expression",):
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        return left is not None and right is not None and _is_constant_operand(context, left) and _is_constant_operand(
            context, right
        )
    return False


@rule("ASC021")
def double_in_aicore(context: CheckContext) -> Iterator[Diagnostic]:
    if limits_for(context).scalar_double:
        return  # the 3510 scalar unit computes in FP64 (hardware/limits.py)
    nodes = scan(context)
    for node in nodes.get("primitive"):
        if context.document.node_text(node) != "double" or _in_template_args(node):
            continue
        function = _aicore(context, node)
        if function is None:
            continue
        yield context.finding(
            "ASC021", context.document.span(node),
            f"double in __aicore__ function {function.name}(): the AI Core scalar unit has no double precision "
            "(\"double precision operation is not allowed in aicore function\"); use float",
        )
    for node in nodes.get("number"):
        literal = context.document.node_text(node).lower()
        if literal.startswith("0x") or not ("." in literal or "e" in literal) or literal.endswith(("f", "l")):
            continue
        parent = node.parent
        if parent is None or parent.type != "binary_expression" or _operator(parent) not in _ARITH_OPS:
            continue
        other = parent.child_by_field_name("right" if parent.child_by_field_name("left") == node else "left")
        if other is None or _is_constant_operand(context, other):
            continue
        function = _aicore(context, node)
        if function is None:
            continue
        yield context.finding(
            "ASC021", context.document.span(node),
            f"The literal {context.document.node_text(node)} is a double, so this arithmetic runs in double precision, "
            f"which __aicore__ code cannot do: write {context.document.node_text(node)}f",
        )


def _is_half(type_text: str | None) -> bool:
    return type_text in ("half", "float16_t")


@rule("ASC022")
def half_scalar_arithmetic(context: CheckContext) -> Iterator[Diagnostic]:
    nodes = scan(context)
    for node in nodes.get("binary"):
        if _operator(node) not in _ARITH_OPS:
            continue
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None:
            continue
        lt, rt = expression_type(context, left), expression_type(context, right)
        half_operands = _is_half(lt) + _is_half(rt)
        if half_operands == 0:
            continue
        other = rt if _is_half(lt) else lt
        if half_operands == 1 and other not in ("int", "unsigned"):
            continue  # half with float promotes to float; unknown types stay silent
        function = _aicore(context, node)
        if function is None:
            continue
        yield context.finding(
            "ASC022", context.document.span(node),
            "Arithmetic on half scalars in __aicore__ code (\"half precision operation is not allowed in aicore "
            "function\"): convert to float first, or do it with a vector instruction",
        )
    for node in nodes.get("assign"):
        op = _operator(node)
        if op not in ("+=", "-=", "*=", "/="):
            continue
        left = node.child_by_field_name("left")
        if left is None or not _is_half(expression_type(context, left)):
            continue
        if _aicore(context, node) is None:
            continue
        yield context.finding(
            "ASC022", context.document.span(node),
            f"'{op}' on a half scalar in __aicore__ code is half-precision scalar arithmetic, which the AI Core "
            "scalar unit cannot do: accumulate in float",
        )


def _unsigned(type_text: str | None) -> bool:
    return type_text is not None and type_text in UNSIGNED_TYPES


def _floating(type_text: str | None) -> bool:
    return type_text is not None and type_text in FLOAT_TYPES


@rule("ASC023")
def float_unsigned_cast(context: CheckContext) -> Iterator[Diagnostic]:
    if limits_for(context).scalar_float_unsigned_cast:
        return  # the SoC's scalar unit converts between them (hardware/limits.py)
    nodes = scan(context)
    text = context.document.node_text
    candidates: list[tuple[tree_sitter.Node, str | None, tree_sitter.Node | None]] = []
    for node in nodes.get("cast"):
        type_node = node.child_by_field_name("type")
        value = node.child_by_field_name("value")
        target = context.model.resolve_type(text(type_node), node.start_byte) if type_node is not None else None
        candidates.append((node, target, value))
    for node in nodes.get("call"):
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is None or arguments is None or arguments.named_child_count != 1:
            continue
        match = re.match(r"^static_cast\s*<\s*(.+?)\s*>$", text(function))
        if match:
            target = context.model.resolve_type(match.group(1), node.start_byte)
            candidates.append((node, target, arguments.named_children[0]))
    for node, target, value in candidates:
        if value is None or target is None:
            continue
        source = expression_type(context, value)
        if source is None or value.type == "number_literal":
            continue
        if (_unsigned(target) and _floating(source)) or (_floating(target) and _unsigned(source)):
            if _aicore(context, node) is None:
                continue
            via = "int32_t" if _unsigned(source) else "int32_t (or int64_t)"
            yield context.finding(
                "ASC023", context.document.span(node),
                f"Cast from {source} to {target} in __aicore__ code: the AI Core cannot convert between floating "
                f"types and unsigned integers directly; go through {via}",
            )


# The f-suffixed libm functions are undeclared in kernel code ("use of undeclared identifier 'sqrtf'; did you
# mean 'sqrt'?"); the unsuffixed scalar `sqrt` is a compiler builtin that official kernels use, so it is not here.
_LIBM = frozenset({
    "expf", "exp2f", "expm1f", "logf", "log2f", "log10f", "log1pf", "sqrtf", "cbrtf", "powf", "fabsf", "sinf",
    "cosf", "tanf", "tanhf", "atanf", "atan2f", "asinf", "acosf", "sinhf", "coshf", "floorf", "ceilf", "roundf",
    "truncf", "fmaxf", "fminf", "fmodf", "erff", "erfcf", "lgammaf", "tgammaf", "rsqrtf", "hypotf",
})
_SCALAR_BUILTINS = {"sqrtf": "sqrt"}


@rule("ASC024")
def libm_call(context: CheckContext) -> Iterator[Diagnostic]:
    defined = {f.name for f in context.model.functions}
    for call in context.model.calls:
        if call.name not in _LIBM or call.receiver is not None or call.name in defined:
            continue
        if "::" in call.qualified:
            continue
        if call.function is None or not call.function.is_aicore:
            continue
        builtin = _SCALAR_BUILTINS.get(call.name)
        advice = f"use the scalar builtin {builtin}()" if builtin else "use the vector API (Exp, Ln, Sqrt, ...) on a LocalTensor"
        yield context.finding(
            "ASC024", call.name_span,
            f"{call.qualified}() is a host math-library function, undeclared in kernel code: {advice}",
        )


_HEAP_CALLS = frozenset({"malloc", "calloc", "realloc", "free", "aligned_alloc", "posix_memalign"})


@rule("ASC025")
def dynamic_allocation(context: CheckContext) -> Iterator[Diagnostic]:
    nodes = scan(context)
    for node in nodes.get("new") + nodes.get("delete"):
        if node.type == "new_expression" and node.child_by_field_name("placement") is not None:
            continue
        function = _aicore(context, node)
        if function is None:
            continue
        word = "new" if node.type == "new_expression" else "delete"
        yield context.finding(
            "ASC025", context.document.span(node),
            f"'{word}' in __aicore__ function {function.name}(): kernels have no heap; use a TQue/TBuf buffer from "
            "TPipe.InitBuffer",
        )
    defined = {f.name for f in context.model.functions}
    for call in context.model.calls:
        if call.name not in _HEAP_CALLS or call.receiver is not None or call.name in defined:
            continue
        if call.qualified not in (call.name, f"std::{call.name}"):
            continue
        if call.function is None or not call.function.is_aicore:
            continue
        yield context.finding(
            "ASC025", call.name_span,
            f"{call.name}() in __aicore__ code: kernels have no heap; use a TQue/TBuf buffer from TPipe.InitBuffer",
        )


_STD_DENIED = frozenset({
    "vector", "map", "unordered_map", "set", "unordered_set", "multimap", "string", "list", "deque", "queue",
    "stack", "priority_queue", "unique_ptr", "shared_ptr", "make_unique", "make_shared", "function", "cout",
    "cerr", "endl", "printf", "sort", "stable_sort", "accumulate", "min", "max", "swap", "fill", "copy", "abs",
    "clamp", "min_element", "max_element", "to_string", "thread", "mutex", "ostream", "stringstream", "iota",
    "transform", "find", "reverse", "exp", "log", "sqrt", "pow", "fabs", "floor", "ceil", "round", "tanh",
})


@rule("ASC026")
def std_library(context: CheckContext) -> Iterator[Diagnostic]:
    seen: set[int] = set()
    for node in scan(context).get("qualified"):
        scope = node.child_by_field_name("scope")
        if scope is None or context.document.node_text(scope) != "std":
            continue
        name_node = node.child_by_field_name("name")
        if name_node is None:
            continue
        name = context.document.node_text(name_node).split("<")[0].strip()
        if name not in _STD_DENIED:
            continue
        function = _aicore(context, node)
        if function is None or node.start_byte in seen:
            continue
        seen.add(node.start_byte)
        yield context.finding(
            "ASC026", context.document.span(node),
            f"std::{name} in __aicore__ function {function.name}(): the host C++ library is not available in "
            "kernel code; use the AscendC API or write the scalar code out",
        )


@rule("ASC027")
def virtual_function(context: CheckContext) -> Iterator[Diagnostic]:
    model = context.model
    data = context.document.data
    # A class with only a pure virtual __aicore__ declaration has no defined methods yet, so look at its text too.
    kernel_classes = [
        c for c in model.classes
        if any(m.is_aicore for m in c.methods) or b"__aicore__" in data[c.start_byte:c.end_byte]
    ]
    if not kernel_classes:
        return
    for node in scan(context).get("virtual"):
        owner = next((c for c in kernel_classes if c.start_byte <= node.start_byte < c.end_byte), None)
        if owner is None:
            continue
        yield context.finding(
            "ASC027", context.document.span(node),
            f"virtual function in kernel class {owner.name}: the AI Core has no virtual dispatch; use templates or "
            "plain member functions",
        )


@rule("ASC028")
def recursion(context: CheckContext) -> Iterator[Diagnostic]:
    definitions: dict[tuple[str | None, str], int] = {}
    for defined in context.model.functions:
        key = (defined.class_name, defined.name)
        definitions[key] = definitions.get(key, 0) + 1
    for call in context.model.calls:
        function = call.function
        if function is None or not function.is_aicore or call.name != function.name or call.template_args:
            continue
        if definitions.get((function.class_name, function.name), 0) > 1:
            continue  # overloads: the call may well pick another one
        if call.receiver is not None and call.receiver.strip() != "this":
            continue
        written = context.document.data[call.start_byte:context.document.lines.offset(call.name_span.end)]
        if b"::" in written:
            continue  # Base::Init(...) and other qualified calls name another function
        required = sum(1 for p in function.params if "=" not in context.document.data[
            context.document.lines.offset(p.span.start):context.document.lines.offset(p.span.end)].decode(
                "utf-8", "replace"))
        if not (required <= len(call.args) <= len(function.params)):
            continue
        yield context.finding(
            "ASC028", call.span,
            f"{function.name}() calls itself: __aicore__ code has a small fixed stack and the compiler rejects "
            "recursion; rewrite it as a loop",
        )
