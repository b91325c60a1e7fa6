"""On-chip memory budgets: UB, L1, L0, buffer counts, InitBuffer placement."""

from __future__ import annotations

from collections.abc import Iterator

from ascendc_lsp.checks.base import CheckContext, Finding, rule
from ascendc_lsp.checks.limits import limits_for
from ascendc_lsp.syntax.model import InitBuffer

UB_POSITIONS = frozenset({"VECIN", "VECOUT", "VECCALC"})


def _position_of(context: CheckContext, init: InitBuffer) -> str | None:
    decl = context.model.buffer(init.target)
    return decl.position if decl is not None else None


@rule("ASC001")
def ub_budget(context: CheckContext) -> Iterator[Finding]:
    limits = limits_for(context)
    per_class: dict[str | None, list[InitBuffer]] = {}
    for init in context.model.init_buffers:
        if init.call.loop_depth > 0 or _position_of(context, init) not in UB_POSITIONS:
            continue
        function = init.call.function
        per_class.setdefault(function.class_name if function else None, []).append(init)
    for inits in per_class.values():
        sized = [(i, i.total_bytes(limits.ub_align)) for i in inits]
        known = [(i, b) for i, b in sized if b is not None]
        total = sum(b for _, b in known)
        if total <= limits.ub_usable_bytes or not known:
            continue
        parts = ", ".join(
            f"{i.target} {i.buffer_count} x {i.bytes_each(limits.ub_align):,} B" if i.num is not None
            else f"{i.target} {b:,} B"
            for i, b in known
        )
        reserve = f" ({limits.ub_reserved_bytes:,} B reserved)" if limits.ub_reserved_bytes else ""
        unknown = len(sized) - len(known)
        extra = f"; {unknown} more buffer(s) of unknown size" if unknown else ""
        message = (
            f"UB use {total:,} B exceeds {limits.soc_name}'s {limits.ub_usable_bytes:,} B usable UB{reserve}: "
            f"{parts}{extra}"
        )
        worst = max(known, key=lambda pair: pair[1])[0]
        yield context.finding("ASC001", worst.call.span, message)
