"""Constant folding of C++ integer expressions over a tree-sitter tree.

Folds literals, `constexpr`/`const` integers, `#define`s, `sizeof(<scalar type>)`, casts, arithmetic and
bound template parameters. Anything else (a tiling field, a function call, a variable that is not
constant) folds to `None`: unknown, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import tree_sitter

# Sizes of the scalar types AscendC kernels use; `half`/`bfloat16_t` are the NPU's 16-bit floats.
SCALAR_SIZES: dict[str, int] = {
    "half": 2, "float16_t": 2, "bfloat16_t": 2, "bfloat16": 2, "float": 4, "float32_t": 4, "double": 8,
    "int8_t": 1, "uint8_t": 1, "int16_t": 2, "uint16_t": 2, "int32_t": 4, "uint32_t": 4,
    "int64_t": 8, "uint64_t": 8, "char": 1, "bool": 1, "short": 2, "int": 4, "long": 8,
    "unsigned": 4, "size_t": 8, "int4b_t": 1, "hifloat8_t": 1, "fp8_e4m3fn_t": 1, "fp8_e5m2_t": 1,
}

_INT_LITERAL = re.compile(r"^(0[xX][0-9a-fA-F']+|0[bB][01']+|0[0-7']*|[1-9][0-9']*)([uUlLzZ]*)$")

Number = int | float


@dataclass(frozen=True, slots=True)
class Folded:
    """An expression and its value when it is a compile-time constant (`value is None` = unknown)."""

    text: str
    value: Number | None

    @property
    def known(self) -> bool:
        return self.value is not None

    def as_int(self) -> int | None:
        if isinstance(self.value, bool):
            return int(self.value)
        if isinstance(self.value, int):
            return self.value
        if isinstance(self.value, float) and self.value.is_integer():
            return int(self.value)
        return None


def parse_number_literal(text: str) -> Number | None:
    text = text.strip()
    if text[:1] in ("-", "+"):  # tree-sitter folds a sign into the literal: `-7`
        inner = parse_number_literal(text[1:])
        return None if inner is None else (-inner if text[0] == "-" else inner)
    match = _INT_LITERAL.match(text)
    if match:
        digits = match.group(1).replace("'", "")
        if digits.startswith(("0x", "0X")):
            return int(digits, 16)
        if digits.startswith(("0b", "0B")):
            return int(digits[2:], 2)
        if len(digits) > 1 and digits.startswith("0"):
            return int(digits, 8)
        return int(digits)
    try:
        return float(text.rstrip("fFlL").replace("'", ""))
    except ValueError:
        return None


# Resolves an identifier (at a byte offset) to a folded value, or None when unknown.
Resolver = Callable[[str, int], Number | None]
# Returns the byte size of a type name, or None.
TypeSizer = Callable[[str, int], int | None]


def _c_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


class Folder:
    """Evaluates expression nodes; `resolve` and `sizeof` give it the document's bindings."""

    def __init__(self, source: bytes, resolve: Resolver, sizeof: TypeSizer) -> None:
        self._source = source
        self._resolve = resolve
        self._sizeof = sizeof

    def text(self, node: tree_sitter.Node) -> str:
        return self._source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def fold(self, node: tree_sitter.Node | None) -> Folded:
        if node is None:
            return Folded("", None)
        try:
            value = self._eval(node, 0)
        except (ZeroDivisionError, OverflowError, ValueError, RecursionError):
            value = None
        return Folded(self.text(node), value)

    def _eval(self, node: tree_sitter.Node, depth: int) -> Number | None:
        if depth > 64:
            return None
        kind = node.type
        if kind == "number_literal":
            return parse_number_literal(self.text(node))
        if kind in ("true", "false"):
            return 1 if kind == "true" else 0
        if kind == "char_literal":
            body = self.text(node)[1:-1]
            return ord(body) if len(body) == 1 else None
        if kind in ("identifier", "field_identifier", "type_identifier"):
            return self._resolve(self.text(node), node.start_byte)
        if kind == "type_descriptor":
            inner_type = node.child_by_field_name("type")
            return self._eval(inner_type, depth + 1) if inner_type is not None else None
        if kind == "qualified_identifier":
            name = node.child_by_field_name("name")
            return self._eval(name, depth + 1) if name is not None else None
        if kind == "parenthesized_expression":
            inner = node.named_children
            return self._eval(inner[0], depth + 1) if len(inner) == 1 else None
        if kind == "sizeof_expression":
            return self._eval_sizeof(node)
        if kind == "cast_expression":
            value = self._eval(node.child_by_field_name("value") or node, depth + 1)
            type_node = node.child_by_field_name("type")
            return _apply_cast(value, self.text(type_node) if type_node is not None else "")
        if kind == "call_expression":
            return self._eval_call(node, depth)
        if kind == "unary_expression":
            operand = node.child_by_field_name("argument")
            op = node.child_by_field_name("operator")
            value = self._eval(operand, depth + 1) if operand is not None else None
            if value is None or op is None:
                return None
            return _unary(op.type, value)
        if kind == "binary_expression":
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            op = node.child_by_field_name("operator")
            if left is None or right is None or op is None:
                return None
            a = self._eval(left, depth + 1)
            if a is None:
                return None
            b = self._eval(right, depth + 1)
            if b is None:
                return None
            return _binary(op.type, a, b)
        if kind == "conditional_expression":
            cond = node.child_by_field_name("condition")
            c = self._eval(cond, depth + 1) if cond is not None else None
            if c is None:
                return None
            branch = node.child_by_field_name("consequence" if c else "alternative")
            return self._eval(branch, depth + 1) if branch is not None else None
        if kind in ("initializer_list", "argument_list") and node.named_child_count == 1:
            return self._eval(node.named_children[0], depth + 1)
        return None

    def _eval_sizeof(self, node: tree_sitter.Node) -> Number | None:
        type_node = node.child_by_field_name("type")
        if type_node is not None:
            return self._sizeof(self.text(type_node).strip(), node.start_byte)
        value = node.child_by_field_name("value")
        if value is not None and value.type == "parenthesized_expression" and value.named_child_count == 1:
            inner = value.named_children[0]
            if inner.type in ("identifier", "type_identifier", "primitive_type", "qualified_identifier"):
                return self._sizeof(self.text(inner).strip(), node.start_byte)
        return None

    def _eval_call(self, node: tree_sitter.Node, depth: int) -> Number | None:
        # static_cast<T>(x) and functional casts such as uint32_t(x).
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is None or arguments is None or arguments.named_child_count != 1:
            return None
        text = self.text(function)
        inner = self._eval(arguments.named_children[0], depth + 1)
        cast = re.match(r"^(?:static_cast|reinterpret_cast)\s*<\s*(.+?)\s*>$", text)
        if cast:
            return _apply_cast(inner, cast.group(1))
        if text in SCALAR_SIZES:
            return _apply_cast(inner, text)
        return None


def _apply_cast(value: Number | None, type_text: str) -> Number | None:
    if value is None:
        return None
    base = type_text.replace("const", "").strip()
    if base in ("float", "double", "half", "bfloat16_t"):
        return float(value)
    if base in SCALAR_SIZES or base.endswith("_t"):
        if isinstance(value, float):
            return int(value)
        size = SCALAR_SIZES.get(base)
        if size is not None and base.startswith("u"):
            return value & ((1 << (8 * size)) - 1)
        return value
    return value


def _unary(op: str, value: Number) -> Number | None:
    if op == "-":
        return -value
    if op == "+":
        return value
    if op == "!":
        return 0 if value else 1
    if op == "~" and isinstance(value, int):
        return ~value
    return None


def _binary(op: str, a: Number, b: Number) -> Number | None:
    both_int = isinstance(a, int) and isinstance(b, int)
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        if both_int:
            return _c_div(int(a), int(b))
        return a / b
    if op == "%" and both_int:
        return int(a) - _c_div(int(a), int(b)) * int(b)
    if both_int:
        x, y = int(a), int(b)
        if op == "<<" and 0 <= y < 128:
            return x << y
        if op == ">>" and 0 <= y < 128:
            return x >> y
        if op == "&":
            return x & y
        if op == "|":
            return x | y
        if op == "^":
            return x ^ y
    comparisons: dict[str, Callable[[Number, Number], bool]] = {
        "<": lambda p, q: p < q, ">": lambda p, q: p > q, "<=": lambda p, q: p <= q,
        ">=": lambda p, q: p >= q, "==": lambda p, q: p == q, "!=": lambda p, q: p != q,
        "&&": lambda p, q: bool(p) and bool(q), "||": lambda p, q: bool(p) or bool(q),
    }
    if op in comparisons:
        return 1 if comparisons[op](a, b) else 0
    return None
