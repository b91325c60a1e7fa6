"""On-chip memory budgets: UB, L1, L0, buffer counts, InitBuffer placement."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from ascendc_lsp.checks.base import CheckContext, Finding, Fix, rule
from ascendc_lsp.checks.fixes import fix, replace
from ascendc_lsp.checks.limits import limits_for
from ascendc_lsp.checks.rules._common import fmt, node_for
from ascendc_lsp.syntax.constfold import Folder
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
            fixes = shrink_fixes(context, path, limits.ub_usable_bytes, align) if not unknown else []
            yield context.finding("ASC001", worst.call.span, message, fixes=fixes)
        else:
            message = (
                f"UB use {fmt(total)} B leaves less than the {fmt(limits.ub_reserved_bytes)} B that {limits.soc_name} "
                f"keeps for Select and similar APIs ({fmt(limits.ub_usable_bytes)} B usable of {fmt(limits.ub_bytes)} B): "
                f"{_parts(known, align)}{extra}"
            )
            yield context.finding("ASC001", worst.call.span, message, severity="warning")


# -- ASC001 quick fixes: smaller constants, each verified by re-folding the sizes with the new value ----------


def _literal_constant(context: CheckContext, name: str, at_byte: int) -> tuple[int, int, int] | None:
    """(value, literal start, literal end) when `name` is a constant initialised by a plain integer literal."""
    const = context.model.constant(name, at_byte)
    if const is None or not const.is_constant:
        return None
    value = const.value.as_int()
    if value is None or not re.fullmatch(r"\s*\d+[uUlL]*\s*", const.value.text):
        return None
    start = context.document.lines.offset(const.span.start)
    end = context.document.lines.offset(const.span.end)
    node = node_for(context, start, end)
    while node is not None and node.type not in ("init_declarator", "field_declaration", "preproc_def"):
        node = node.parent
    value_node = None
    if node is not None:
        value_node = node.child_by_field_name("value") or node.child_by_field_name("default_value")
    if value_node is None:
        return None
    text = context.document.node_text(value_node)
    match = re.search(r"\d+", text)
    if match is None or int(match.group(0)) != value:
        return None
    prefix = len(text[: match.start()].encode())
    return value, value_node.start_byte + prefix, value_node.start_byte + prefix + len(match.group(0).encode())


def _refold(context: CheckContext, start: int, end: int, override: dict[str, int]) -> int | None:
    """Fold the expression at [start, end) with some constants replaced, following other constants'
    initialisers so that a change propagates (TILE = BLOCK / BUFFER_NUM)."""
    document = context.document
    model = context.model

    def resolve(name: str, at: int) -> int | float | None:
        if name in override:
            return override[name]
        const = model.constant(name, at)
        if const is None or not const.is_constant:
            return None
        c_start = document.lines.offset(const.span.start)
        decl = node_for(context, c_start, document.lines.offset(const.span.end))
        while decl is not None and decl.type not in ("init_declarator", "field_declaration", "preproc_def"):
            decl = decl.parent
        value_node = None
        if decl is not None and decl.type != "preproc_def":
            value_node = decl.child_by_field_name("value") or decl.child_by_field_name("default_value")
        if value_node is None or value_node.start_byte <= at <= value_node.end_byte:
            return const.value.value
        return folder.fold(value_node).value

    folder = Folder(document.data, resolve, lambda t, at: model.dtype_size(t.replace("const", "").strip(), at))
    node = node_for(context, start, end)
    value = folder.fold(node).value if node is not None else None
    return int(value) if isinstance(value, int | float) else None


def _total_with(context: CheckContext, inits: list[InitBuffer], override: dict[str, int], align: int) -> int | None:
    total = 0
    for init in inits:
        args = init.call.args
        length_arg = args[2] if init.num is not None else args[1]
        length = _refold(context, length_arg.start_byte, length_arg.end_byte, override)
        count = _refold(context, args[1].start_byte, args[1].end_byte, override) if init.num is not None else 1
        if length is None or count is None or length <= 0 or count <= 0:
            return None
        total += count * ((length + align - 1) // align * align)
    return total


def _names_behind(context: CheckContext, text: str, at_byte: int, depth: int = 3) -> list[str]:
    """Identifiers of an expression and, through constants defined by expressions, the ones behind them."""
    names: list[str] = []
    for name in re.findall(r"\b[A-Za-z_]\w*\b", text):
        if name in names:
            continue
        names.append(name)
        const = context.model.constant(name, at_byte)
        if depth > 0 and const is not None and const.is_constant and not re.fullmatch(r"\s*\d+\w*\s*", const.value.text):
            names += [n for n in _names_behind(context, const.value.text, at_byte, depth - 1) if n not in names]
    return names


def shrink_fixes(context: CheckContext, inits: list[InitBuffer], capacity: int, align: int) -> list[Fix]:
    """Fixes that make the UB budget fit: single buffering, or the largest smaller tile constant."""
    fixes: list[Fix] = []
    seen: set[str] = set()
    for init in inits:
        args = init.call.args
        candidates = []
        if init.num is not None:
            candidates.append((args[1].text.strip(), "count"))
        length_arg = args[2] if init.num is not None else args[1]
        candidates += [(name, "length") for name in _names_behind(context, length_arg.text, init.call.start_byte)]
        for name, role in candidates:
            if name in seen or name in ("sizeof", "half", "float", "int32_t", "uint32_t", "int16_t", "bfloat16_t"):
                continue
            seen.add(name)
            literal = _literal_constant(context, name, init.call.start_byte)
            if literal is None:
                continue
            value, lit_start, lit_end = literal
            options = [1] if role == "count" else [value // (2**k) for k in range(1, 7)]
            for new_value in options:
                if new_value <= 0 or new_value >= value:
                    continue
                total = _total_with(context, inits, {name: new_value}, align)
                if total is None or total > capacity:
                    continue
                what = "use single buffering" if role == "count" else "shrink the tile"
                fixes.append(fix(
                    f"Set {name} = {new_value} to {what} (UB {fmt(total)} B of {fmt(capacity)} B)",
                    replace(context.document, lit_start, lit_end, str(new_value)),
                ))
                break
    return fixes


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
