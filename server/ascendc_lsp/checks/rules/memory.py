"""On-chip memory budgets: UB, L1, L0, buffer counts, InitBuffer placement."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ascendc_lsp.checks.base import CheckContext, Finding, rule
from ascendc_lsp.checks.limits import limits_for
from ascendc_lsp.checks.rules._common import fmt, node_for
from ascendc_lsp.syntax.model import InitBuffer

UB_POSITIONS = frozenset({"VECIN", "VECOUT", "VECCALC"})


def _position_of(context: CheckContext, init: InitBuffer) -> str | None:
    decl = context.model.buffer(init.target)
    return decl.position if decl is not None else None


Weight = Callable[[InitBuffer], int | None]


def _branch_chain(context: CheckContext, init: InitBuffer) -> tuple[tuple[int, int], ...]:
    """The (if statement, branch) pairs around an InitBuffer inside its function, outermost first."""
    memo = context.__dict__.setdefault("_branch_chains", {})
    key = init.call.start_byte
    if key not in memo:
        memo[key] = _compute_chain(context, init)
    chain: tuple[tuple[int, int], ...] = memo[key]
    return chain


def _compute_chain(context: CheckContext, init: InitBuffer) -> tuple[tuple[int, int], ...]:
    node = node_for(context, init.call.start_byte, init.call.end_byte)
    chain: list[tuple[int, int]] = []
    function = init.call.function
    while node is not None and node.parent is not None:
        parent = node.parent
        if function is not None and parent.start_byte < function.body_start:
            break
        if parent.type == "if_statement":
            alternative = parent.child_by_field_name("alternative")
            branch = 1 if alternative is not None and alternative.start_byte <= node.start_byte < alternative.end_byte \
                else 0
            chain.append((parent.start_byte, branch))
        elif parent.type in ("case_statement", "preproc_else", "preproc_elif"):
            chain.append((parent.parent.start_byte if parent.parent is not None else 0, parent.start_byte))
        node = parent
    return tuple(reversed(chain))


def _dedupe(inits: list[InitBuffer], weight: Weight) -> list[InitBuffer]:
    """One InitBuffer per target: the largest, when the same buffer is initialised more than once."""
    best: dict[str, InitBuffer] = {}
    for init in inits:
        current = best.get(init.target)
        if current is None or (weight(init) or 0) > (weight(current) or 0):
            best[init.target] = init
    return list(best.values())


def _worst(items: list[tuple[tuple[tuple[int, int], ...], InitBuffer]], depth: int,
           weight: Weight) -> list[InitBuffer]:
    """The InitBuffers of the heaviest path through if/else branches (branches are alternatives)."""
    chosen = [init for chain, init in items if len(chain) == depth]
    by_if: dict[int, dict[int, list[tuple[tuple[tuple[int, int], ...], InitBuffer]]]] = {}
    for chain, init in items:
        if len(chain) > depth:
            if_id, branch = chain[depth]
            by_if.setdefault(if_id, {}).setdefault(branch, []).append((chain, init))
    for branches in by_if.values():
        options = [_dedupe(_worst(group, depth + 1, weight), weight) for group in branches.values()]
        chosen.extend(max(options, key=lambda inits: sum(weight(i) or 0 for i in inits)))
    return chosen


def worst_case_inits(context: CheckContext, inits: list[InitBuffer], weight: Weight) -> list[InitBuffer]:
    """The InitBuffers that are live together on the heaviest path through one class's init code.

    Within a function, if/else branches and `#if` alternatives are alternatives; the same buffer initialised
    twice counts once (its largest size). Functions that initialise the same buffers are alternative init
    paths (one per tiling mode), so the heaviest one counts; otherwise their buffers add up.
    """
    per_function: dict[int, list[InitBuffer]] = {}
    for init in inits:
        key = init.call.function.start_byte if init.call.function is not None else -1
        per_function.setdefault(key, []).append(init)
    paths = [
        _dedupe(_worst([(_branch_chain(context, i), i) for i in group], 0, weight), weight)
        for group in per_function.values()
    ]
    targets = [{i.target for i in path} for path in paths]
    overlapping = any(targets[a] & targets[b] for a in range(len(paths)) for b in range(a + 1, len(paths)))
    if overlapping:
        return max(paths, key=lambda path: sum(weight(i) or 0 for i in path))
    return [i for path in paths for i in path]


def _class_inits(context: CheckContext, keep: Callable[[InitBuffer], bool]) -> dict[str | None, list[InitBuffer]]:
    per_class: dict[str | None, list[InitBuffer]] = {}
    for init in context.model.init_buffers:
        if init.call.loop_depth > 0 or not keep(init):
            continue
        function = init.call.function
        per_class.setdefault(function.class_name if function else None, []).append(init)
    return per_class


def _parts(inits: list[tuple[InitBuffer, int]], align: int) -> str:
    return ", ".join(
        f"{i.target} {i.buffer_count} x {fmt(i.bytes_each(align) or 0)} B" if i.num is not None else f"{i.target} {fmt(b)} B"
        for i, b in sorted(inits, key=lambda pair: -pair[1])
    )


@rule("ASC001")
def ub_budget(context: CheckContext) -> Iterator[Finding]:
    limits = limits_for(context)
    align = limits.ub_align

    def weight(init: InitBuffer) -> int | None:
        return init.total_bytes(align)

    for inits in _class_inits(context, lambda i: _position_of(context, i) in UB_POSITIONS).values():
        path = worst_case_inits(context, inits, weight)
        known = [(i, b) for i in path if (b := weight(i)) is not None]
        total = sum(b for _, b in known)
        if not known or total <= limits.ub_usable_bytes:
            continue
        unknown = len(path) - len(known)
        extra = f"; {unknown} more buffer(s) of unknown size" if unknown else ""
        worst = max(known, key=lambda pair: pair[1])[0]
        if total > limits.ub_bytes:
            message = f"UB use {fmt(total)} B exceeds {limits.soc_name}'s {fmt(limits.ub_bytes)} B: {_parts(known, align)}{extra}"
            yield context.finding("ASC001", worst.call.span, message)
        else:
            message = (
                f"UB use {fmt(total)} B leaves less than the {fmt(limits.ub_reserved_bytes)} B that {limits.soc_name} "
                f"keeps for Select and similar APIs ({fmt(limits.ub_usable_bytes)} B usable of {fmt(limits.ub_bytes)} B): "
                f"{_parts(known, align)}{extra}"
            )
            yield context.finding("ASC001", worst.call.span, message, severity="warning")


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

        def weight(init: InitBuffer, align: int = align) -> int | None:
            return init.total_bytes(align)

        path = worst_case_inits(context, inits, weight)
        sized = [(i, b) for i in path if (b := weight(i)) is not None]
        total = sum(b for _, b in sized)
        if not sized or total <= capacity:
            continue
        parts = _parts(sized, align)
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
        path = worst_case_inits(context, inits, lambda i: i.buffer_count)
        counts = [(i, i.buffer_count) for i in path]
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
