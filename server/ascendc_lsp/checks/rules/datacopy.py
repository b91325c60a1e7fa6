"""Data movement: DataCopy lengths, DataCopyPad availability, 32-byte aligned LocalTensor offsets."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from ascendc_lsp.checks.arith import Affine, Fact, arith, mul, related_origins
from ascendc_lsp.checks.base import CheckContext, rule
from ascendc_lsp.checks.fixes import fix, replace
from ascendc_lsp.checks.limits import limits_for
from ascendc_lsp.checks.rules._common import (
    DATA_MOVES,
    REDUCE_OPS,
    VECTOR_OPS,
    call_dtype,
    fmt,
    fold_node,
    in_constexpr_branch,
    in_preprocessor_branch,
    is_global,
    node_for,
    subscript_index,
    tensor_arg,
    tensor_of,
)
from ascendc_lsp.diagnostics import Diagnostic, Fix, Related
from ascendc_lsp.syntax.constfold import SCALAR_SIZES
from ascendc_lsp.syntax.model import ApiCall

_NUMBER = re.compile(r"^\s*(\d+)[uUlL]*\s*$")


def _qualifier(call: ApiCall) -> str:
    """`AscendC::` when the call was written qualified, else the empty string."""
    return call.qualified[: -len(call.name)] if call.qualified.endswith(call.name) else ""


def _datacopypad_fix(context: CheckContext, call: ApiCall, dtype: str) -> Fix | None:
    dst, src, count = call.args[0], call.args[1], call.args[2]
    src_gm = is_global(context, src.text, call.start_byte)
    dst_gm = is_global(context, dst.text, call.start_byte)
    if src_gm is None or dst_gm is None or src_gm == dst_gm:
        return None
    ns = _qualifier(call)
    params = f"{ns}DataCopyExtParams{{1, static_cast<uint32_t>(({count.text}) * sizeof({dtype})), 0, 0, 0}}"
    if src_gm:
        text = f"{ns}DataCopyPad({dst.text}, {src.text}, {params}, {ns}DataCopyPadExtParams<{dtype}>{{false, 0, 0, 0}})"
    else:
        text = f"{ns}DataCopyPad({dst.text}, {src.text}, {params})"
    return fix("Use DataCopyPad with DataCopyExtParams (copies the exact byte count)",
               replace(context.document, call.start_byte, call.end_byte, text))


def _round_constant_fix(context: CheckContext, call: ApiCall, elem_size: int) -> Fix | None:
    name = call.args[2].text.strip()
    if not re.fullmatch(r"[A-Za-z_]\w*", name) or 32 % elem_size:
        return None
    const = context.model.constant(name, call.start_byte)
    if const is None or not const.is_constant:
        return None
    value = const.value.as_int()
    if value is None or not _NUMBER.match(const.value.text):
        return None
    per_block = 32 // elem_size
    rounded = (value + per_block - 1) // per_block * per_block
    start = context.document.lines.offset(const.span.start)
    end = context.document.lines.offset(const.span.end)
    node = node_for(context, start, end)
    while node is not None and node.type not in ("init_declarator", "preproc_def", "field_declaration"):
        node = node.parent
    if node is None:
        return None
    value_node = node.child_by_field_name("value") or node.child_by_field_name("default_value")
    if value_node is None:
        return None
    literal = context.document.node_text(value_node)
    match = re.search(r"\d+", literal)
    if match is None or int(match.group(0)) != value:
        return None
    lit_start = value_node.start_byte + len(literal[: match.start()].encode())
    lit_end = value_node.start_byte + len(literal[: match.end()].encode())
    return fix(f"Round {name} up to {rounded} (a multiple of 32 B)",
               replace(context.document, lit_start, lit_end, str(rounded)))


@rule("ASC005")
def datacopy_unaligned_length(context: CheckContext) -> Iterator[Diagnostic]:
    limits = limits_for(context)
    symbolic: list[_SymbolicCopy] = []
    for call in context.model.calls_named("DataCopy"):
        if len(call.args) != 3:
            continue
        count = call.args[2].folded.as_int()
        if count is None:
            branch = _constexpr_branches(context, call)
            dtype = call_dtype(context, call, 0) or call_dtype(context, call, 1)
            size = SCALAR_SIZES.get(dtype or "")
            if dtype is None or size is None:
                # A template element type: judged for every size it can have (1, 2, 4 or 8 B).
                dtype, size = "any element type", _WIDEST
            found = _symbolic_count(context, call, dtype, size, limits.ub_align, symbolic, branch)
            if found is not None:
                yield found
            continue
        if count <= 0:
            continue
        dtype = call_dtype(context, call, 0) or call_dtype(context, call, 1)
        size = SCALAR_SIZES.get(dtype or "")
        if dtype is None or size is None:
            if (count * _WIDEST) % limits.ub_align and not in_constexpr_branch(context, call.start_byte, call.end_byte):
                yield context.finding(
                    "ASC005", call.span,
                    f"DataCopy moves {fmt(count)} elements: not a multiple of {limits.ub_align} B for any element type "
                    f"(1 to {_WIDEST} B each); the hardware copies whole 32-byte blocks only"
                    + ("; use DataCopyPad" if limits.datacopypad else ""),
                )
            continue
        nbytes = count * size
        if nbytes % limits.ub_align == 0:
            continue
        copied = nbytes // limits.ub_align * limits.ub_align
        message = (
            f"DataCopy moves {fmt(count)} x {size} B ({dtype}) = {fmt(nbytes)} B, not a multiple of "
            f"{limits.ub_align} B: the hardware copies only {fmt(copied)} B"
        )
        fixes: list[Fix] = []
        if limits.datacopypad:
            message += "; use DataCopyPad"
            pad = _datacopypad_fix(context, call, dtype)
            if pad is not None:
                fixes.append(pad)
        rounded = _round_constant_fix(context, call, size)
        if rounded is not None:
            fixes.append(rounded)
        yield context.finding("ASC005", call.span, message, fixes=fixes)
    yield from _inconsistent_counts(context, symbolic, limits.ub_align)


# The widest element a DataCopy moves. A count whose byte count at 8 B per element is not a multiple of 32 B
# (n % 4 != 0) is not one at 1, 2 or 4 B either: misaligned whatever a template element type turns out to be.
_WIDEST = 8


@dataclass(frozen=True)
class _SymbolicCopy:
    call: ApiCall
    dtype: str
    size: int
    form: Affine  # the element count as an affine form over stable atoms
    branch: tuple[tuple[int, str, int], ...] = ()  # the `if constexpr` branches around it (see _constexpr_branches)


def _constexpr_branches(context: CheckContext, call: ApiCall) -> tuple[tuple[int, str, int], ...]:
    """The `if constexpr` branches around a call, outermost first: (function start, condition text, 0 then /
    1 else). Two branches of the same condition in one function are taken together in every instantiation."""
    node = node_for(context, call.start_byte, call.end_byte)
    function = call.function.start_byte if call.function is not None else -1
    chain: list[tuple[int, str, int]] = []
    while node is not None and node.parent is not None:
        parent = node.parent
        if parent.type == "if_statement" and any(c.type == "constexpr" for c in parent.children):
            alternative = parent.child_by_field_name("alternative")
            inside_else = alternative is not None and alternative.start_byte <= node.start_byte < alternative.end_byte
            condition = parent.child_by_field_name("condition")
            text = re.sub(r"\s+", "", context.document.node_text(condition)) if condition is not None else ""
            chain.append((function, text or str(parent.start_byte), 1 if inside_else else 0))
        node = parent
    return tuple(reversed(chain))


def _symbolic_count(context: CheckContext, call: ApiCall, dtype: str, size: int, align: int,
                    seen: list[_SymbolicCopy], branch: tuple[tuple[int, str, int], ...] = ()) -> Diagnostic | None:
    """A runtime count: flagged when its facts say the byte count is never a multiple of `align`, or when
    another DataCopy in the same scope copies a byte count that differs from it by a non-multiple of `align`
    (the two cannot both be aligned, whatever the variables hold)."""
    count_arg = call.args[2]
    node = node_for(context, count_arg.start_byte, count_arg.end_byte)
    if node is None or (node.start_byte, node.end_byte) != (count_arg.start_byte, count_arg.end_byte):
        return None
    analysis = arith(context)
    value = analysis.value(node)
    nbytes = mul(value.fact, Fact.const(size))
    shown = count_arg.text.strip()
    if nbytes.multiple_of(align) is False and not branch:  # a branch's facts may hold for other instantiations only
        reasons = "; ".join(dict.fromkeys(value.because)) or f"{shown} is {value.fact.describe()}"
        values = f" (with {context.known.describe(sorted(value.used))})" if value.used and context.known else ""
        message = (
            f"DataCopy moves ({shown}) x {size} B ({dtype}), never a multiple of {align} B: {reasons}{values}; "
            f"the hardware copies whole 32-byte blocks only"
        )
        if limits_for(context).datacopypad:
            message += "; use DataCopyPad"
        return context.finding("ASC005", call.span, message, related=related_origins(value))
    if value.form is not None and value.form.symbolic:
        seen.append(_SymbolicCopy(call, dtype, size, value.form, branch))
    return None


def _inconsistent_counts(context: CheckContext, copies: list[_SymbolicCopy], align: int) -> Iterator[Diagnostic]:
    """Copies of n + a and n + b elements (the same atoms, compiled together) that cannot both be aligned: in
    each group the copies off the most common constant are checked against the others (ties: constant 0)."""
    groups: dict[tuple[tuple[str, int], ...], list[_SymbolicCopy]] = {}
    for copy in copies:
        groups.setdefault(copy.form.terms, []).append(copy)
    for group in groups.values():
        constants = Counter(c.form.const for c in group)
        if len(constants) < 2:
            continue
        majority = max(constants, key=lambda k: (constants[k], k == 0, -abs(k)))
        for copy in group:
            if copy.form.const == majority:
                continue
            # Compiled together: one copy's `if constexpr` branches enclose the other's, so the atoms hold the
            # same values in both.
            partner = next((c for c in group if c.form.const == majority and _compiled_together(c, copy)
                            and not _can_both_align(c, copy, align)), None)
            if partner is None:
                continue
            gap = copy.form.const - partner.form.const
            line = partner.call.span.start.line + 1
            message = (
                f"DataCopy moves ({copy.call.args[2].text.strip()}) x {copy.size} B ({copy.dtype}), {abs(gap)} "
                f"element(s) {'more' if gap > 0 else 'fewer'} than the DataCopy of {partner.call.args[2].text.strip()} "
                f"x {partner.size} B ({partner.dtype}) on line {line}: the two byte counts cannot both be multiples of "
                f"{align} B, so one of them is truncated by the hardware"
            )
            yield context.finding("ASC005", copy.call.span, message,
                                  related=[Related(partner.call.span, "the other DataCopy")])


def _can_both_align(a: _SymbolicCopy, b: _SymbolicCopy, align: int) -> bool:
    """Whether n + a.const elements of a.size B and n + b.const of b.size B can both be multiples of `align`
    bytes for some n. Equal sizes: iff the gap's bytes are. Otherwise n must be -a.const modulo
    align / gcd(align, a.size) and -b.const modulo the same for b: solvable iff the gap is a multiple of the
    two moduli's gcd (an element type judged for every size, "any element type", is taken at its widest)."""
    gap = a.form.const - b.form.const
    if a.size == b.size and a.dtype != "any element type":
        return (gap * a.size) % align == 0
    moduli = [align // math.gcd(align, c.size) for c in (a, b)]
    return gap % math.gcd(*moduli) == 0


def _compiled_together(a: _SymbolicCopy, b: _SymbolicCopy) -> bool:
    shorter = min(len(a.branch), len(b.branch))
    return a.branch[:shorter] == b.branch[:shorter]


@rule("ASC006")
def datacopypad_unsupported(context: CheckContext) -> Iterator[Diagnostic]:
    limits = limits_for(context)
    if limits.datacopypad:
        return
    for call in context.model.calls_named("DataCopyPad"):
        node = node_for(context, call.start_byte, call.end_byte)
        if node is not None and in_preprocessor_branch(node):
            continue  # guarded by an architecture check
        message = (
            f"DataCopyPad is not available on {limits.soc_name}: copy 32-byte multiples with DataCopy and "
            "handle the tail separately"
        )
        yield context.finding("ASC006", call.name_span, message)


_OFFSET_CHECKED = (DATA_MOVES | VECTOR_OPS) - REDUCE_OPS - {"Gather", "GatherMask", "Brcb", "Select", "Compare"}


@rule("ASC007")
def local_offset_unaligned(context: CheckContext) -> Iterator[Diagnostic]:
    limits = limits_for(context)
    model = context.model
    for call in model.calls:
        if call.name not in _OFFSET_CHECKED or call.receiver is not None:
            continue
        for arg in call.args:
            parsed = tensor_arg(arg.text)
            if parsed is None or parsed[1] is None:
                continue
            var = tensor_of(context, arg.text, call.start_byte)
            if var is None or var.kind != "LocalTensor":
                continue
            size = model.dtype_size(var.dtype, call.start_byte)
            offset = _fold_index(context, arg.start_byte, arg.end_byte)
            if size is None or offset is None:
                continue
            if (offset * size) % limits.ub_align == 0:
                continue
            message = (
                f"{parsed[0]}[{parsed[1].strip()}] starts {fmt(offset)} x {size} B = {fmt(offset * size)} B into the "
                f"tensor, not a multiple of {limits.ub_align} B: {call.name} needs 32-byte aligned UB addresses"
            )
            yield context.finding("ASC007", arg.span, message)


def _fold_index(context: CheckContext, start: int, end: int) -> int | None:
    return fold_node(context, subscript_index(context, start, end))
