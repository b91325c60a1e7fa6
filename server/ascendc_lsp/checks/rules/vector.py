"""Vector instruction parameters: repeat times, mask widths, mask mode, dtypes per API and SoC."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ascendc_lsp.checks.base import CheckContext, rule
from ascendc_lsp.checks.limits import limits_for, profile_dtypes
from ascendc_lsp.checks.rules._common import (
    BINARY_OPS,
    SCALAR_OPS,
    UNARY_OPS,
    call_dtype,
    fmt,
    in_constexpr_branch,
    tensor_arg,
    tensor_dtype,
)
from ascendc_lsp.diagnostics import Diagnostic
from ascendc_lsp.syntax.constfold import SCALAR_SIZES
from ascendc_lsp.syntax.model import ApiCall

# name -> (argument count of the mask/repeat form, index of mask, index of repeatTimes).
_MASK_REPEAT_FORMS: dict[str, tuple[frozenset[int], int, int]] = {
    **{op: (frozenset({6}), 3, 4) for op in BINARY_OPS - {"MulAddDst", "FusedMulAdd"}},
    **{op: (frozenset({5}), 2, 3) for op in UNARY_OPS},
    **{op: (frozenset({6}), 3, 4) for op in SCALAR_OPS - {"Axpy"}},
    "Duplicate": (frozenset({6}), 2, 3),
    "WholeReduceSum": (frozenset({7, 8}), 2, 3),
    "WholeReduceMax": (frozenset({7, 8}), 2, 3),
    "WholeReduceMin": (frozenset({7, 8}), 2, 3),
    "BlockReduceSum": (frozenset({7}), 3, 2),
    "BlockReduceMax": (frozenset({7}), 3, 2),
    "BlockReduceMin": (frozenset({7}), 3, 2),
    "PairReduceSum": (frozenset({7}), 3, 2),
    "Cast": (frozenset({6}), 3, 4),
}


def _mask_repeat(call: ApiCall) -> tuple[int, int] | None:
    form = _MASK_REPEAT_FORMS.get(call.name)
    if form is None or call.receiver is not None or len(call.args) not in form[0]:
        return None
    return form[1], form[2]


@rule("ASC017")
def repeat_times_limit(context: CheckContext) -> Iterator[Diagnostic]:
    limits = limits_for(context)
    for call in context.model.calls:
        form = _mask_repeat(call)
        if form is None:
            continue
        repeat = call.args[form[1]].folded.as_int()
        if repeat is None or repeat <= limits.max_repeat:
            continue
        yield context.finding(
            "ASC017", call.args[form[1]].span,
            f"{call.name} repeatTimes {fmt(repeat)} exceeds the hardware limit of {limits.max_repeat} (it is an "
            "8-bit field): split the work into several calls or use the count form",
        )


@rule("ASC018")
def mask_width(context: CheckContext) -> Iterator[Diagnostic]:
    limits = limits_for(context)
    for call in context.model.calls:
        form = _mask_repeat(call)
        if form is None or call.name == "Cast":
            continue
        mask = call.args[form[0]].folded.as_int()
        if mask is None:
            continue
        dtype = call_dtype(context, call, 0)
        size = SCALAR_SIZES.get(dtype or "")
        if dtype is None or size is None:
            continue
        width = limits.mask_width(size)
        if mask <= width:
            continue
        yield context.finding(
            "ASC018", call.args[form[0]].span,
            f"{call.name} mask {fmt(mask)} is wider than the {width} {dtype} elements one repeat holds "
            f"({limits.bytes_per_repeat} B / {size} B): the hardware clamps it, so the intent is lost",
        )


@rule("ASC038")
def mask_count_mode_not_reset(context: CheckContext) -> Iterator[Diagnostic]:
    model = context.model
    norms = model.calls_named("SetMaskNorm")
    for call in model.calls_named("SetMaskCount"):
        function = call.function
        if function is None:
            continue
        later = [n for n in norms if n.function is function and n.start_byte > call.start_byte]
        elsewhere = [n for n in norms if n.function is not None and n.function is not function
                     and n.function.class_name is not None and n.function.class_name == function.class_name]
        if later or elsewhere:
            continue
        yield context.finding(
            "ASC038", call.span,
            f"SetMaskCount switches the vector mask to counter mode but {function.name}() never calls SetMaskNorm "
            "before returning: later mask/repeat calls read the mask as an element count",
        )


# -- ASC019: dtype support per API and SoC ------------------------------------------------------------------

_ARITH = frozenset({"int16_t", "half", "int32_t", "float"})
_FLOATS = frozenset({"half", "float"})
# Fallback when the API catalogue is not available (docs/zh/api/SIMD-API/基础API/.../基础算术/Add.md, Exp.md,
# 归约计算/ReduceSum.md).
_FALLBACK_DTYPES: dict[str, frozenset[str]] = {
    **dict.fromkeys(("Add", "Sub", "Mul", "Max", "Min"), _ARITH),
    **dict.fromkeys(("Exp", "Ln", "Sqrt", "Rsqrt", "Reciprocal"), _FLOATS),
    **dict.fromkeys(("ReduceSum", "WholeReduceSum", "BlockReduceSum"), _FLOATS),
}


def _catalogue_dtypes(context: CheckContext, api: str) -> frozenset[str] | None:
    memo = context.__dict__.setdefault("_catalogue_dtypes", {})
    if api not in memo:
        memo[api] = _lookup_catalogue(context, api)
    found: frozenset[str] | None = memo[api]
    return found


def _lookup_catalogue(context: CheckContext, api: str) -> frozenset[str] | None:
    catalogue: Any = context.catalogue
    lookup = getattr(catalogue, "dtypes_supported", None)
    if not callable(lookup):
        return None
    try:
        found: Iterable[str] | None = lookup(api, context.soc_name)
    except (KeyError, LookupError, ValueError, TypeError):
        return None
    if not found:
        return None
    return frozenset(str(d) for d in found)


def _supported(context: CheckContext, api: str) -> frozenset[str] | None:
    from_catalogue = _catalogue_dtypes(context, api)
    if from_catalogue is not None:
        return from_catalogue
    if api == "SetAtomicAdd":  # per SoC, documented in the profile (SetAtomicAdd.md's table per product)
        return profile_dtypes(context, "set_atomic_add")
    return _FALLBACK_DTYPES.get(api)


@rule("ASC019")
def api_dtype_support(context: CheckContext) -> Iterator[Diagnostic]:
    limits = limits_for(context)
    model = context.model
    for call in model.calls:
        if call.receiver is not None or call.qualified not in (call.name, f"AscendC::{call.name}"):
            continue
        if call.name == "DataCopy" and not limits.bf16:
            dtype = call_dtype(context, call, 0)
            if dtype == "bfloat16_t":
                yield context.finding(
                    "ASC019", call.span, f"DataCopy of bfloat16_t is not supported on {limits.soc_name} (no bf16)"
                )
            continue
        if call.name == "SetAtomicAdd":
            dtype = model.resolve_type(call.template_args[0], call.start_byte) if call.template_args else None
        elif call.name in _FALLBACK_DTYPES or (context.catalogue is not None and call.name in _CATALOGUE_CHECKED):
            dtype = call_dtype(context, call, 0)
        else:
            continue
        if dtype is None or dtype not in SCALAR_SIZES:
            continue
        if in_constexpr_branch(context, call.start_byte, call.end_byte):
            continue
        supported = _supported(context, call.name)
        if supported is None or dtype in supported:
            continue
        listed = ", ".join(sorted(supported))
        yield context.finding(
            "ASC019", call.span,
            f"{call.name} does not support {dtype} on {limits.soc_name} (supported: {listed}); Cast to a supported type first",
        )


# APIs whose destination element type is the type the catalogue lists. Bitwise ops are left out: their count
# form works on the bytes (official kernels call And on uint8_t masks), whatever the docs' type table says.
_CATALOGUE_CHECKED = (BINARY_OPS | UNARY_OPS | SCALAR_OPS | frozenset(
    {"Duplicate", "ReduceSum", "ReduceMax", "ReduceMin", "WholeReduceSum", "WholeReduceMax", "WholeReduceMin",
     "BlockReduceSum", "BlockReduceMax", "BlockReduceMin"}
)) - {"And", "Or", "Not", "ShiftLeft", "ShiftRight"}


# -- ASC040: operand dtypes --------------------------------------------------------------------------------------

_SAME_TYPE_OPS = (BINARY_OPS - {"AddReluCast", "SubReluCast", "AddDeqRelu", "MulAddDst", "FusedMulAdd"}) | UNARY_OPS | (
    SCALAR_OPS - {"Axpy"}
)


@rule("ASC040")
def vector_dtype_mismatch(context: CheckContext) -> Iterator[Diagnostic]:
    model = context.model
    for call in model.calls:
        if call.name not in _SAME_TYPE_OPS or call.receiver is not None:
            continue
        operands = 3 if call.name in BINARY_OPS else 2
        if len(call.args) < operands:
            continue
        names: list[str] = []
        dtypes: list[str] = []
        for arg in call.args[:operands]:
            parsed = tensor_arg(arg.text)
            dtype = tensor_dtype(context, arg.text, call.start_byte) if parsed is not None else None
            if parsed is None or dtype is None or dtype not in SCALAR_SIZES:
                break
            names.append(parsed[0])
            dtypes.append(dtype)
        else:
            if len(set(dtypes)) > 1 and not in_constexpr_branch(context, call.start_byte, call.end_byte):
                pairs = ", ".join(f"{n} is {d}" for n, d in zip(names, dtypes, strict=True))
                yield context.finding(
                    "ASC040", call.span,
                    f"{call.name} needs operands of one element type, but {pairs}: Cast first",
                )
