"""Arithmetic facts about sizes and offsets: what rules may rely on when a count is not a constant.

An expression evaluates to a `Value`:

* an affine form over *atoms* (`3 * tileLength + 16`), where an atom is a leaf the analysis does not reduce
  further: a member, local or parameter, a tiling field, `GetBlockIdx()`, a product of two unknowns. Two
  forms with the same atoms differ by a constant, whatever the atoms hold, which is what lets a rule compare
  `DataCopy(x, y, tileLength)` with `DataCopy(x, y, tileLength + 1)` without knowing `tileLength`;
* a `Fact`: an interval and a congruence (`value = rem (mod mod)`), propagated through `+ - * / %`, `<<`,
  casts, conditionals, `constexpr` chains and `#define`s, assignments to members and locals (the join of
  every value assigned, wherever it is assigned), parameters (the join of the arguments at every call of the
  function in the file), tiling fields and `GetBlockNum()` when concrete values are attached to the file
  (checks/project.py KnownValues).

Unknown stays unknown: an atom with an assignment the analysis cannot read (`+=`, `++`, a pointer write, an
out-parameter) has no fact, so no rule can turn a guess into a finding. Atoms are keyed by their scope (the
class for members, the function for locals and parameters), so equal names in two functions never meet.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import tree_sitter

from ascendc_lsp.checks.base import CheckContext
from ascendc_lsp.checks.values import merged_origins
from ascendc_lsp.diagnostics import Related
from ascendc_lsp.syntax.constfold import parse_number_literal
from ascendc_lsp.syntax.model import Function

_MAX_DEPTH = 24
_MAX_TERMS = 6

# -- the domain -------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fact:
    """An integer known to lie in [lo, hi] (None: unbounded) with value = rem (mod mod).

    mod 0 means the value is exactly `rem`; mod 1 says nothing about divisibility."""

    lo: int | None = None
    hi: int | None = None
    mod: int = 1
    rem: int = 0

    @staticmethod
    def const(value: int) -> Fact:
        return Fact(value, value, 0, value)

    @staticmethod
    def top() -> Fact:
        return Fact()

    @property
    def value(self) -> int | None:
        return self.rem if self.mod == 0 else None

    @property
    def is_top(self) -> bool:
        return self.mod == 1 and self.lo is None and self.hi is None

    def multiple_of(self, k: int) -> bool | None:
        """True: always a multiple of k; False: never; None: unknown."""
        if k <= 0:
            return None
        if self.mod == 0:
            return self.rem % k == 0
        if self.mod % k == 0:
            return self.rem % k == 0
        if self.lo is not None and self.lo == self.hi:
            return self.lo % k == 0
        return None

    def describe(self) -> str:
        if self.mod == 0:
            return f"= {self.rem}"
        parts = []
        if self.mod > 1:
            parts.append(f"a multiple of {self.mod}" if self.rem == 0 else f"{self.rem} more than a multiple of {self.mod}")
        if self.lo is not None or self.hi is not None:
            parts.append(f"in [{'-inf' if self.lo is None else self.lo}, {'inf' if self.hi is None else self.hi}]")
        return ", ".join(parts) or "unknown"


def _norm(mod: int, rem: int) -> tuple[int, int]:
    mod = abs(mod)
    return (mod, rem % mod) if mod else (0, rem)


def _exact(lo: int | None, hi: int | None, mod: int, rem: int) -> Fact:
    mod, rem = _norm(mod, rem)
    if mod == 0:
        return Fact.const(rem)
    if lo is not None and hi is not None and lo == hi:
        return Fact.const(lo)
    return Fact(lo, hi, mod, rem)


def join(a: Fact, b: Fact) -> Fact:
    """What is true of a value that is either a or b."""
    mod = math.gcd(math.gcd(a.mod, b.mod), abs(a.rem - b.rem))
    lo = None if a.lo is None or b.lo is None else min(a.lo, b.lo)
    hi = None if a.hi is None or b.hi is None else max(a.hi, b.hi)
    if mod == 0:
        return Fact.const(a.rem)
    return Fact(lo, hi, mod, a.rem % mod)


def _add_bound(x: int | None, y: int | None) -> int | None:
    return None if x is None or y is None else x + y


def add(a: Fact, b: Fact) -> Fact:
    return _exact(_add_bound(a.lo, b.lo), _add_bound(a.hi, b.hi), math.gcd(a.mod, b.mod), a.rem + b.rem)


def neg(a: Fact) -> Fact:
    return _exact(None if a.hi is None else -a.hi, None if a.lo is None else -a.lo, a.mod, -a.rem)


def mul(a: Fact, b: Fact) -> Fact:
    mod = math.gcd(math.gcd(a.mod * b.mod, a.mod * b.rem), b.mod * a.rem)
    lo = hi = None
    if None not in (a.lo, a.hi, b.lo, b.hi):
        products = [x * y for x in (a.lo, a.hi) for y in (b.lo, b.hi)]  # type: ignore[operator]
        lo, hi = min(products), max(products)
    elif a.lo is not None and b.lo is not None and a.lo >= 0 and b.lo >= 0:
        lo = a.lo * b.lo
    return _exact(lo, hi, mod, a.rem * b.rem)


def div(a: Fact, b: Fact) -> Fact:
    """C++ integer division (towards zero) for non-negative operands."""
    d = b.value
    if d is None or d <= 0:
        if a.lo is not None and a.lo >= 0 and b.lo is not None and b.lo > 0:
            return Fact(0, a.hi, 1, 0)
        return Fact.top()
    if a.value is not None:
        return Fact.const(int(a.value / d) if a.value < 0 else a.value // d)
    lo = a.lo // d if a.lo is not None and a.lo >= 0 else None
    hi = a.hi // d if a.hi is not None and a.hi >= 0 else None
    # x = mod*k + rem with d | mod and d | rem: x / d = (mod/d)*k + rem/d, exactly.
    if a.mod % d == 0 and a.rem % d == 0 and a.lo is not None and a.lo >= 0:
        return _exact(lo, hi, a.mod // d, a.rem // d)
    return Fact(lo, hi, 1, 0)


def rem(a: Fact, b: Fact) -> Fact:
    d = b.value
    if d is None or d <= 0:
        return Fact.top()
    if a.value is not None:
        return Fact.const(a.value % d if a.value >= 0 else -((-a.value) % d))
    if a.lo is not None and a.lo >= 0:
        if a.mod % d == 0:
            return Fact.const(a.rem % d)
        g = math.gcd(a.mod, d)
        return _exact(0, d - 1, g, a.rem)
    return Fact.top()


# -- affine forms -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Affine:
    """sum(coef * atom) + const; atoms are scope-qualified keys (`class:Add.tileLength`)."""

    terms: tuple[tuple[str, int], ...] = ()
    const: int = 0

    @staticmethod
    def atom(key: str) -> Affine:
        return Affine(((key, 1),), 0)

    def plus(self, other: Affine, sign: int = 1) -> Affine:
        coefs = dict(self.terms)
        for key, coef in other.terms:
            coefs[key] = coefs.get(key, 0) + sign * coef
        return Affine(tuple(sorted((k, c) for k, c in coefs.items() if c)), self.const + sign * other.const)

    def scaled(self, k: int) -> Affine:
        if k == 0:
            return Affine()
        return Affine(tuple((key, c * k) for key, c in self.terms), self.const * k)

    def divided(self, k: int) -> Affine | None:
        if k == 0 or self.const % k or any(c % k for _, c in self.terms):
            return None
        return Affine(tuple((key, c // k) for key, c in self.terms), self.const // k)

    @property
    def symbolic(self) -> bool:
        return bool(self.terms)

    def coefficient(self, key: str) -> int:
        return dict(self.terms).get(key, 0)

    def without(self, key: str) -> Affine:
        return Affine(tuple((k, c) for k, c in self.terms if k != key), self.const)


def related_origins(*values: Value) -> list[Related]:
    """Related locations at the definitions the values were folded from (nearest first, bounded)."""
    return list(merged_origins(*(v.origins for v in values)))


@dataclass(frozen=True, slots=True)
class Value:
    form: Affine | None  # None: no affine reading (too many terms, a non-linear part)
    fact: Fact
    used: frozenset[str] = frozenset()  # concrete values taken from the attached spec or test case
    because: tuple[str, ...] = ()  # where the fact's divisibility came from, for messages
    # Where the value was folded from: `Related(<BLOCKLEN_CEIL's declaration>, "BLOCKLEN_CEIL = 16 here")`, nearest
    # first, so a rule can show the definition with its finding (like clangd's "declared here").
    origins: tuple[Related, ...] = ()

    @staticmethod
    def const(value: int) -> Value:
        return Value(Affine((), value), Fact.const(value))


# -- the analysis -----------------------------------------------------------------------------------------------

BLOCK_IDX = "GetBlockIdx()"
_BLOCK_NUM = re.compile(r"^(?:AscendC::)?GetBlockNum$")
_BLOCK_IDX = re.compile(r"^(?:AscendC::)?GetBlockIdx$")
_ALIGN_CALLS = re.compile(r"^(?:\w+::)*(?:AlignUp|ALIGN_UP|AlignUpTo|CeilAlign|RoundUp|ROUND_UP|Align|AlignTo)$")
_SCALAR_TYPES = re.compile(
    r"^(?:const\s+)?(?:(?:unsigned|signed)\s+)?(?:u?int(?:8|16|32|64)_t|int|long|long long|short|size_t|unsigned|auto)$"
)


@dataclass
class _Assignments:
    """Every write to a name, by scope key: value nodes, and whether some write is unreadable."""

    values: dict[str, list[tree_sitter.Node]] = field(default_factory=dict)
    opaque: set[str] = field(default_factory=set)
    sites: dict[str, list[int]] = field(default_factory=dict)  # start bytes of the writes


class Arith:
    """Facts of expressions of one document; one per CheckContext (see `arith`)."""

    def __init__(self, context: CheckContext) -> None:
        self.context = context
        self.document = context.document
        self.model = context.model
        self.known = context.known
        self._assignments: _Assignments | None = None
        self._atom_facts: dict[str, Value] = {}
        self._in_progress: set[str] = set()
        self._param_calls: dict[str, list[tree_sitter.Node]] | None = None

    # -- scopes --------------------------------------------------------------------------------------------

    def scope_key(self, name: str, at_byte: int) -> str:
        """`class:Add.tileLength`, `fn:1234.len`, or `global.NAME` for a name read at `at_byte`."""
        from ascendc_lsp.checks.rules._common import visible_decl  # the rules package imports this module

        decl = visible_decl(self.context, name, at_byte)
        function = self.model.function_at(at_byte)
        if decl is not None and not decl.class_scope:
            if decl.scope_start == 0:
                return f"global.{name}"
            owner = self.model.function_at(decl.start_byte)
            if owner is not None:
                return f"fn:{owner.start_byte}.{name}"
            return f"block:{decl.scope_start}.{name}"
        cls = _bare(function.class_name) if function is not None else None
        if decl is not None and decl.class_scope:
            cls = self._class_at(decl.start_byte) or cls
        if cls is not None:
            return f"class:{cls}.{name}"
        return f"global.{name}"

    def _class_at(self, offset: int) -> str | None:
        best = self.model.class_at(offset)
        return best.name if best is not None else None

    # -- writes --------------------------------------------------------------------------------------------

    def assignments(self) -> _Assignments:
        if self._assignments is not None:
            return self._assignments
        from ascendc_lsp.checks.rules._common import scan

        found = _Assignments()
        text = self.document.node_text
        nodes = scan(self.context)

        def target_key(node: tree_sitter.Node) -> str | None:
            if node.type == "identifier":
                return self.scope_key(text(node), node.start_byte)
            if node.type == "field_expression":
                argument = node.child_by_field_name("argument")
                name = node.child_by_field_name("field")
                if argument is not None and name is not None and text(argument) == "this":
                    function = self.model.function_at(node.start_byte)
                    if function is not None and function.class_name:
                        return f"class:{_bare(function.class_name)}.{text(name)}"
            return None

        for node in nodes.get("assign"):
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            op = node.child_by_field_name("operator")
            key = target_key(left) if left is not None else None
            if key is None:
                continue
            found.sites.setdefault(key, []).append(node.start_byte)
            if op is not None and op.type == "=" and right is not None:
                found.values.setdefault(key, []).append(right)
            else:
                found.opaque.add(key)
        for node in nodes.get("update"):
            argument = node.child_by_field_name("argument")
            key = target_key(argument) if argument is not None else None
            if key is not None:
                found.opaque.add(key)
                found.sites.setdefault(key, []).append(node.start_byte)
        for node in nodes.get("init"):
            declarator = node.child_by_field_name("declarator")
            value = node.child_by_field_name("value")
            if declarator is None or declarator.type != "identifier" or value is None:
                continue
            key = self.scope_key(text(declarator), declarator.end_byte)
            found.sites.setdefault(key, []).append(node.start_byte)
            if value.type == "initializer_list" and value.named_child_count == 1:
                value = value.named_children[0]
            elif value.type in ("initializer_list", "argument_list"):
                found.opaque.add(key)
                continue
            found.values.setdefault(key, []).append(value)
        # A member's default initialiser (`uint32_t n = 64;`).
        for node in nodes.get("field"):
            declarator = node.child_by_field_name("declarator")
            value = node.child_by_field_name("default_value")
            if declarator is None or value is None or declarator.type != "field_identifier":
                continue
            cls = self._class_at(node.start_byte)
            if cls is not None:
                key = f"class:{cls}.{text(declarator)}"
                found.values.setdefault(key, []).append(value)
                found.sites.setdefault(key, []).append(node.start_byte)
        # Out-parameters and address-taking make a variable unreadable (`Compute(len)` by reference, `&len`).
        for node in nodes.get("call"):
            arguments = node.child_by_field_name("arguments")
            for argument in arguments.named_children if arguments is not None else ():
                if argument.type == "pointer_expression" and text(argument).startswith("&"):
                    inner = argument.child_by_field_name("argument")
                    key = target_key(inner) if inner is not None else None
                    if key is not None:
                        found.opaque.add(key)
        self._assignments = found
        return found

    def stable(self, key: str) -> bool:
        """The atom holds one value wherever it is read in its scope: written once (or only while the object
        is set up: in Init, a constructor or the declaration), and never in a way the analysis cannot read."""
        writes = self.assignments()
        if key in writes.opaque:
            return False
        sites = writes.sites.get(key, [])
        if len(sites) <= 1:
            return True
        if not key.startswith("class:"):
            return False
        for site in sites:
            function = self.model.function_at(site)
            if function is not None and not (function.name.startswith("Init") or function.name == _bare(function.class_name)):
                return False
        return True

    # -- evaluation ----------------------------------------------------------------------------------------

    def value(self, node: tree_sitter.Node | None, depth: int = 0) -> Value:
        if node is None or depth > _MAX_DEPTH:
            return Value(None, Fact.top())
        try:
            return self._eval(node, depth)
        except (RecursionError, OverflowError, ZeroDivisionError, ValueError):
            return Value(None, Fact.top())

    def _opaque(self, node: tree_sitter.Node, fact: Fact | None = None) -> Value:
        """A leaf the analysis does not reduce: its own text is the atom (scoped by the enclosing function)."""
        text = re.sub(r"\s+|this->", "", self.document.node_text(node))
        function = self.model.function_at(node.start_byte)
        key = f"expr:{function.start_byte if function is not None else 0}.{text}"
        # The same text holds the same value only while the names in it are not written again.
        for name in set(re.findall(r"(?<![\w.>])[A-Za-z_]\w*", text)):
            if not self.stable(self.scope_key(name, node.start_byte)):
                return Value(None, fact or Fact.top())
        return Value(Affine.atom(key), fact or Fact.top())

    def _eval(self, node: tree_sitter.Node, depth: int) -> Value:
        kind = node.type
        text = self.document.node_text
        if kind == "number_literal":
            number = parse_number_literal(text(node))
            return Value.const(number) if isinstance(number, int) else Value(None, Fact.top())
        if kind in ("identifier", "field_identifier"):
            return self.name_value(text(node), node.start_byte, depth)
        if kind == "qualified_identifier":
            name = node.child_by_field_name("name")
            return self._eval(name, depth + 1) if name is not None else Value(None, Fact.top())
        if kind == "parenthesized_expression" and node.named_child_count == 1:
            return self._eval(node.named_children[0], depth + 1)
        if kind == "field_expression":
            return self._field(node, depth)
        if kind == "cast_expression":
            inner = node.child_by_field_name("value")
            type_node = node.child_by_field_name("type")
            if inner is not None and type_node is not None and _SCALAR_TYPES.match(text(type_node).strip()):
                return self._eval(inner, depth + 1)
            return Value(None, Fact.top())
        if kind == "call_expression":
            return self._call(node, depth)
        if kind == "sizeof_expression":
            folded = self._fold(node)
            return Value.const(folded) if folded is not None else Value(None, Fact(1, None))
        if kind == "unary_expression":
            operand = node.child_by_field_name("argument")
            op = node.child_by_field_name("operator")
            operand_value = self.value(operand, depth + 1)
            if op is not None and op.type == "-":
                return Value(operand_value.form.scaled(-1) if operand_value.form else None, neg(operand_value.fact),
                             operand_value.used, operand_value.because, operand_value.origins)
            if op is not None and op.type == "+":
                return operand_value
            return Value(None, Fact.top(), operand_value.used)
        if kind == "binary_expression":
            return self._binary(node, depth)
        if kind == "conditional_expression":
            a = self.value(node.child_by_field_name("consequence"), depth + 1)
            b = self.value(node.child_by_field_name("alternative"), depth + 1)
            cond = self._fold(node.child_by_field_name("condition"))
            if cond is not None:
                return a if cond else b
            return Value(None, join(a.fact, b.fact), a.used | b.used, a.because + b.because,
                         merged_origins(a.origins, b.origins))
        folded = self._fold(node)
        return Value.const(folded) if folded is not None else Value(None, Fact.top())

    def _fold(self, node: tree_sitter.Node | None) -> int | None:
        if node is None:
            return None
        from ascendc_lsp.checks.rules._common import fold_node

        return fold_node(self.context, node)

    def _binary(self, node: tree_sitter.Node, depth: int) -> Value:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        op_node = node.child_by_field_name("operator")
        if left is None or right is None or op_node is None:
            return Value(None, Fact.top())
        op = op_node.type
        a = self.value(left, depth + 1)
        b = self.value(right, depth + 1)
        used = a.used | b.used
        because = a.because + b.because
        origins = merged_origins(a.origins, b.origins)
        form: Affine | None = None
        if op in ("+", "-"):
            sign = 1 if op == "+" else -1
            if a.form is not None and b.form is not None:
                form = a.form.plus(b.form, sign)
            fact = add(a.fact, b.fact if sign > 0 else neg(b.fact))
        elif op == "*":
            fact = mul(a.fact, b.fact)
            if a.form is not None and b.fact.value is not None:
                form = a.form.scaled(b.fact.value)
            elif b.form is not None and a.fact.value is not None:
                form = b.form.scaled(a.fact.value)
            elif a.form is not None and b.form is not None:
                form = self._opaque(node).form
        elif op == "<<" and b.fact.value is not None and 0 <= b.fact.value < 63:
            fact = mul(a.fact, Fact.const(1 << b.fact.value))
            form = a.form.scaled(1 << b.fact.value) if a.form is not None else None
        elif op == "/":
            fact = div(a.fact, b.fact)
            if b.fact.value is not None and a.form is not None:
                form = a.form.divided(b.fact.value)
            if form is None and fact.value is None:
                form = self._opaque(node, fact).form
        elif op == "%":
            fact = rem(a.fact, b.fact)
            if fact.value is None:
                form = self._opaque(node, fact).form
        elif op == ">>" and b.fact.value is not None and 0 <= b.fact.value < 63:
            fact = div(a.fact, Fact.const(1 << b.fact.value))
            if fact.value is None:
                form = self._opaque(node, fact).form
        else:
            return Value(None, Fact.top(), used)
        if fact.value is not None:
            form = Affine((), fact.value)
        if form is not None and len(form.terms) > _MAX_TERMS:
            form = None
        return Value(form, fact, used, because, origins)

    def _call(self, node: tree_sitter.Node, depth: int) -> Value:
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is None:
            return Value(None, Fact.top())
        name = re.sub(r"\s+", "", self.document.node_text(function))
        args = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
        if _BLOCK_IDX.match(name):
            return Value(Affine.atom(BLOCK_IDX), Fact(0, None))
        if _BLOCK_NUM.match(name):
            if self.known is not None and self.known.block_dim is not None:
                return Value(Affine((), self.known.block_dim), Fact.const(self.known.block_dim),
                             frozenset({"block_dim"}), origins=self.known.origins_of("block_dim"))
            return Value(Affine.atom("GetBlockNum()"), Fact(1, None))
        cast = re.match(r"^(?:static_cast|reinterpret_cast)<(.+)>$", name)
        if (cast and _SCALAR_TYPES.match(cast.group(1))) or _SCALAR_TYPES.match(name):
            return self.value(args[0], depth + 1) if len(args) == 1 else Value(None, Fact.top())
        if _ALIGN_CALLS.match(name.split("<")[0]) and len(args) == 2:
            # AlignUp(x, a): the smallest multiple of a not below x.
            unit = self.value(args[1], depth + 1)
            if unit.fact.value is not None and unit.fact.value > 0:
                x = self.value(args[0], depth + 1)
                return Value(self._opaque(node).form, Fact(x.fact.lo, None, unit.fact.value, 0), x.used | unit.used,
                             (f"{self.document.node_text(node)} rounds up to a multiple of {unit.fact.value}",),
                             merged_origins(x.origins, unit.origins))
        folded = self._fold(node)
        if folded is not None:
            return Value.const(folded)
        return self._opaque(node)

    def _field(self, node: tree_sitter.Node, depth: int) -> Value:
        argument = node.child_by_field_name("argument")
        name_node = node.child_by_field_name("field")
        if argument is None or name_node is None:
            return Value(None, Fact.top())
        name = self.document.node_text(name_node)
        if self.document.node_text(argument) == "this":
            function = self.model.function_at(node.start_byte)
            if function is not None and function.class_name:
                return self.atom_value(f"class:{_bare(function.class_name)}.{name}", name, depth)
            return self._opaque(node)
        # `tiling.blockLength`, `tilingData->tileNum`: a tiling field, concrete when values are attached.
        if self.known is not None:
            known = self.known.field_value(name)
            if isinstance(known, int) or (isinstance(known, float) and known.is_integer()):
                return Value(Affine((), int(known)), Fact.const(int(known)), frozenset({name}),
                             origins=self.known.origins_of(name))
        return self._opaque(node)

    def name_value(self, name: str, at_byte: int, depth: int) -> Value:
        const = self.model.constant(name, at_byte)
        if const is not None and const.is_constant:
            value = const.value.as_int()
            if value is not None:
                return Value(Affine((), value), Fact.const(value), origins=(Related(const.span, f"{name} = {value} here"),))
        if self.known is not None and name == "blockDim" and self.known.block_dim is not None:
            return Value(Affine((), self.known.block_dim), Fact.const(self.known.block_dim), frozenset({"block_dim"}),
                         origins=self.known.origins_of("block_dim"))
        return self.atom_value(self.scope_key(name, at_byte), name, depth)

    def atom_value(self, key: str, name: str, depth: int) -> Value:
        """The fact of a variable: the join of everything written to it (and, for a parameter, of every
        argument passed to it); the atom itself as the form when it holds one value in its scope."""
        cached = self._atom_facts.get(key)
        form = Affine.atom(key) if self.stable(key) else None
        if cached is not None:
            return Value(form if cached.form is None else cached.form, cached.fact, cached.used, cached.because,
                         cached.origins)
        if key in self._in_progress or depth > _MAX_DEPTH:
            return Value(form, Fact.top())
        self._in_progress.add(key)
        try:
            computed = self._atom_fact(key, name, depth)
        finally:
            self._in_progress.discard(key)
        self._atom_facts[key] = computed
        if computed.form is not None:
            return computed
        return Value(form, computed.fact, computed.used, computed.because, computed.origins)

    def _atom_fact(self, key: str, name: str, depth: int) -> Value:
        writes = self.assignments()
        sources = list(writes.values.get(key, []))
        params = self._parameter_arguments(key, name) if key.startswith("fn:") else None
        if key in writes.opaque or (not sources and params is None):
            return Value(None, Fact.top())
        values = [self.value(n, depth + 1) for n in sources]
        if params is not None:
            if not params:
                return Value(None, Fact.top())
            values += params
        fact = values[0].fact
        for other in values[1:]:
            fact = join(fact, other.fact)
        used: frozenset[str] = frozenset().union(*(v.used for v in values))
        because = tuple(b for v in values for b in v.because)
        if fact.mod > 1 and not because:
            because = (f"{name} is {fact.describe()}",)
        origins = merged_origins(*(v.origins for v in values))
        # A constant written once is that constant (its form too); otherwise the atom stands for it.
        if fact.value is not None and self.stable(key):
            if len(sources) == 1 and sources[0].parent is not None:
                # The write itself is the nearest definition (`uint32_t tailLen = 32 / sizeof(half);`).
                here = Related(self.document.span(sources[0].parent), f"{name} = {fact.value} here")
                origins = merged_origins((here,), origins)
            return Value(Affine((), fact.value), fact, used, because, origins)
        return Value(None, fact, used, because, origins)

    def _parameter_arguments(self, key: str, name: str) -> list[Value] | None:
        """For a parameter: the values passed to it at every call of its function in the file (None: not a
        parameter; an empty list: a call the analysis cannot match, so nothing is known)."""
        owner = self._function_of_key(key)
        if owner is None:
            return None
        index = next((i for i, p in enumerate(owner.params) if p.name == name), None)
        if index is None:
            return None
        if "&" in owner.params[index].type_text:
            return []
        calls = self.calls_to(owner)
        if not calls:
            return []
        values = []
        for call in calls:
            arguments = call.child_by_field_name("arguments")
            args = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
            if index >= len(args):
                return []
            values.append(self.value(args[index], 1))
        return values

    def _function_of_key(self, key: str) -> Function | None:
        match = re.match(r"^fn:(\d+)\.", key)
        if match is None:
            return None
        start = int(match.group(1))
        return self.model.function_starting_at(start)

    def calls_to(self, function: Function) -> list[tree_sitter.Node]:
        """The calls of `function` in the file ([] when an overload makes them ambiguous), recursion excluded."""
        if self._param_calls is None:
            from ascendc_lsp.checks.rules._common import scan

            by_name: dict[str, list[tree_sitter.Node]] = {}
            text = self.document.node_text
            for node in scan(self.context).get("call"):
                callee = node.child_by_field_name("function")
                if callee is None:
                    continue
                called = text(callee)
                short = re.split(r"\.|->|::", called)[-1].split("<")[0].strip()
                by_name.setdefault(short, []).append(node)
            self._param_calls = by_name
        calls = self._param_calls.get(function.name, [])
        overloads = self.model.functions_named(function.name)
        if len(overloads) > 1:
            return []  # which overload a call picks is not decided here
        # A recursive call inside the function passes its own parameter on: it adds nothing.
        return [c for c in calls if not (function.start_byte <= c.start_byte < function.end_byte)]


def arith(context: CheckContext) -> Arith:
    """The document's arithmetic analysis, made once per check run."""
    cached = context.__dict__.get("_arith")
    if isinstance(cached, Arith):
        return cached
    analysis = Arith(context)
    writes = context.__dict__.get("_arith_writes")  # read by an analysis made before the values were known
    if isinstance(writes, _Assignments):
        analysis._assignments = writes  # writes do not depend on the values
    context.__dict__["_arith"] = analysis
    return analysis


def unvalued_arith(context: CheckContext) -> Arith:
    """An analysis that ignores the values attached to the context, for the code that computes them
    (checks/launch.py); the writes it reads are shared with the document's `arith` made afterwards."""
    analysis = Arith(context)
    analysis.known = None
    context.__dict__["_arith_writes"] = analysis.assignments()
    return analysis


class _AnyField(Mapping[str, int]):
    """Every tiling field name maps to one stand-in value (see `probe_arith`)."""

    def __getitem__(self, name: str) -> int:
        return _PROBE_VALUE

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


_PROBE_VALUE = 4096


def probe_arith(context: CheckContext) -> Arith:
    """The analysis as if a spec gave every tiling field and block_dim a value: an expression that folds to a
    constant here (its `used` naming the values) is one concrete values would decide; one that does not
    stays unknown whatever a spec says (a template parameter, a value read from GM). Shares the document's
    scans with the real analysis; made once per check run."""
    cached = context.__dict__.get("_probe_arith")
    if isinstance(cached, Arith):
        return cached
    from ascendc_lsp.checks.project import KnownValues

    probe = KnownValues(origin="a spec", fields=_AnyField(), block_dim=_PROBE_VALUE)
    shadow = dataclasses.replace(context, known=probe)
    for key in ("_rule_scan", "_scalar_decls", "_decls_by_scope"):
        if key in context.__dict__:
            shadow.__dict__[key] = context.__dict__[key]
    analysis = Arith(shadow)
    analysis._assignments = arith(context).assignments()  # writes do not depend on the values
    context.__dict__["_probe_arith"] = analysis
    return analysis


def _bare(class_name: str | None) -> str | None:
    """`K<T>` (an out-of-line method's class as written) -> `K`, the class's own name."""
    return class_name.split("<")[0].strip() if class_name else class_name
