"""On-chip memory budgets: UB, L1, L0, buffer counts, InitBuffer placement."""

from __future__ import annotations

from collections.abc import Iterator

from ascendc_lsp.checks.base import CheckContext, Finding, rule
from ascendc_lsp.checks.limits import limits_for
from ascendc_lsp.checks.rules._common import fmt
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


# Logical positions and the physical buffer each lives in (hardware-constraints.md sections 1 and 2).
CUBE_MEMORY = {"A1": "L1", "B1": "L1", "C1": "L1", "TSCM": "L1", "A2": "L0A", "B2": "L0B", "CO1": "L0C", "C2": "BT"}
_MEMORY_NAMES = {"L1": "L1", "L0A": "L0A", "L0B": "L0B", "L0C": "L0C", "BT": "BiasTable"}


def _class_key(init: InitBuffer) -> str | None:
    function = init.call.function
    return function.class_name if function is not None else None


@rule("ASC002")
def l1_l0_budget(context: CheckContext) -> Iterator[Finding]:
    limits = limits_for(context)
    groups: dict[tuple[str | None, str], list[InitBuffer]] = {}
    for init in context.model.init_buffers:
        position = _position_of(context, init)
        memory = CUBE_MEMORY.get(position or "")
        if memory is None or init.call.loop_depth > 0:
            continue
        groups.setdefault((_class_key(init), memory), []).append(init)
    for (_cls, memory), inits in groups.items():
        capacity = limits.capacity(memory)
        if capacity is None:
            continue
        align = 512 if memory in ("L0A", "L0B") else 64 if memory in ("L0C", "BT") else limits.ub_align
        known = [(i, i.total_bytes(align)) for i in inits]
        sized = [(i, b) for i, b in known if b is not None]
        total = sum(b for _, b in sized)
        if not sized or total <= capacity:
            continue
        parts = ", ".join(
            f"{i.target} {i.buffer_count} x {fmt(i.bytes_each(align) or 0)} B" if i.num is not None
            else f"{i.target} {fmt(b)} B"
            for i, b in sized
        )
        name = _MEMORY_NAMES[memory]
        message = f"{name} use {fmt(total)} B exceeds {limits.soc_name}'s {fmt(capacity)} B {name}: {parts}"
        worst = max(sized, key=lambda pair: pair[1])[0]
        yield context.finding("ASC002", worst.call.span, message)


@rule("ASC003")
def buffer_count(context: CheckContext) -> Iterator[Finding]:
    limits = limits_for(context)
    per_class: dict[str | None, list[InitBuffer]] = {}
    for init in context.model.init_buffers:
        if init.call.loop_depth > 0:
            continue
        per_class.setdefault(_class_key(init), []).append(init)
    for inits in per_class.values():
        counts = [(i, i.buffer_count) for i in inits]
        if any(c is None for _, c in counts):
            continue
        total = sum(c or 0 for _, c in counts)
        if total <= limits.max_buffers:
            continue
        parts = ", ".join(f"{i.target} {c}" for i, c in counts)
        message = (
            f"{fmt(total)} buffers in one TPipe exceed the limit of {limits.max_buffers} on {limits.soc_name}: {parts}"
        )
        worst = max(counts, key=lambda pair: pair[1] or 0)[0]
        yield context.finding("ASC003", worst.call.span, message)


@rule("ASC004")
def initbuffer_in_loop(context: CheckContext) -> Iterator[Finding]:
    for init in context.model.init_buffers:
        if init.call.loop_depth == 0:
            continue
        # `InitBuffer(queues[i], ...)` initialises a different buffer each iteration: legitimate.
        if "[" in init.target or "(" in init.target:
            continue
        function = init.call.function
        if any(c.name == "Reset" and c.function is function for c in context.model.calls):
            continue  # pipe.Reset() gives the memory back between iterations
        size = init.total_bytes()
        amount = f" ({fmt(size)} B each time)" if size is not None else ""
        message = (
            f"InitBuffer of {init.target} inside a loop carves new memory on every iteration{amount} and never "
            "gives it back; initialise buffers once in Init()"
        )
        yield context.finding("ASC004", init.call.span, message)
