"""On-chip memory budgets: UB, L1, L0, buffer counts, InitBuffer placement."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ascendc_lsp.checks.arith import Arith, Value, arith, probe_arith
from ascendc_lsp.checks.base import CheckContext, rule
from ascendc_lsp.checks.fixes import fix, replace
from ascendc_lsp.checks.limits import Limits, limits_for
from ascendc_lsp.checks.rules._common import fmt, node_for
from ascendc_lsp.diagnostics import Diagnostic, Fix
from ascendc_lsp.hardware.budget import BufferUse, class_budgets, worst_case_inits
from ascendc_lsp.syntax.constfold import Folder
from ascendc_lsp.syntax.model import InitBuffer


def _parts(uses: list[BufferUse]) -> str:
    return ", ".join(
        f"{u.name} {u.count} x {fmt(u.bytes_each or 0)} B" if u.init.num is not None else f"{u.name} {fmt(u.total or 0)} B"
        for u in sorted(uses, key=lambda u: -(u.total or 0))
    )


def _sized_arguments(context: CheckContext, use: BufferUse, analysis: Arith) -> list[Value | None]:
    """The count and length arguments of a buffer's InitBuffer as the analysis reads them (count None: 1)."""
    args = use.init.call.args
    count_arg, length_arg = (args[1], args[2]) if use.init.num is not None else (None, args[1])
    values: list[Value | None] = []
    for arg in (count_arg, length_arg):
        if arg is None:
            values.append(Value.const(1))
            continue
        node = node_for(context, arg.start_byte, arg.end_byte)
        values.append(analysis.value(node) if node is not None else None)
    return values


def _values_that_decide(context: CheckContext, uses: list[BufferUse]) -> list[str]:
    """The tiling values (fields, block_dim) that would size every buffer of unknown size, when values for
    them would; [] when some buffer stays unknown whatever a spec gives (then no spec decides the total)."""
    analysis = probe_arith(context)
    needed: set[str] = set()
    for use in uses:
        if use.total is not None:
            continue
        for value in _sized_arguments(context, use, analysis):
            if value is None or value.fact.value is None:
                return []
            needed |= value.used
    known: set[str] = set()
    if context.known is not None:
        known = set(context.known.fields) | ({"block_dim"} if context.known.block_dim is not None else set())
    return sorted(needed - known)


def _names(names: list[str], most: int = 4) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def _sized(context: CheckContext, use: BufferUse, align: int) -> tuple[int, frozenset[str]] | None:
    """The bytes a buffer takes: the model's fold, else the arithmetic analysis's (class constants declared
    after their use, members written once, the attached values), with the values it used."""
    if use.total is not None:
        return use.total, frozenset()
    values = _sized_arguments(context, use, arith(context))
    if any(v is None or v.fact.value is None or v.fact.value <= 0 for v in values):
        return None
    count, length = (v.fact.value for v in values if v is not None and v.fact.value is not None)
    used: frozenset[str] = frozenset().union(*(v.used for v in values if v is not None))
    return count * ((length + align - 1) // align * align), used


def _largest_memory(limits: Limits) -> tuple[str, int]:
    return max((("UB", limits.ub_bytes), ("L1", limits.l1_bytes), ("L0A", limits.l0a_bytes),
                ("L0B", limits.l0b_bytes), ("L0C", limits.l0c_bytes)), key=lambda m: m[1])


@rule("ASC001")
def ub_budget(context: CheckContext) -> Iterator[Diagnostic]:
    limits = limits_for(context)
    largest_name, largest = _largest_memory(limits)
    for budget in class_budgets(context.model):
        # A buffer whose position the file does not say (declared in a base class or another object): one
        # larger than every on-chip memory of the SoC is wrong wherever it lives.
        for use in budget.uses:
            size = _sized(context, use, limits.ub_align) if use.memory is None else None
            if size is not None and size[0] > largest:
                values = f"With {context.known.describe(sorted(size[1]))}: " if size[1] and context.known else ""
                yield context.finding(
                    "ASC001", use.init.call.span,
                    f"{values}{use.name} takes {fmt(size[0])} B, more than any on-chip memory of {limits.soc_name} "
                    f"holds (the largest, {largest_name}, has {fmt(largest)} B)",
                )
        uses = budget.in_memory("UB")
        if not uses:
            continue
        sized = [(u, _sized(context, u, limits.ub_align)) for u in uses]
        resolved = [(u, size[0]) for u, size in sized if size is not None]
        unresolved = len(uses) - len(resolved)
        used = sorted(frozenset().union(*(size[1] for _, size in sized if size is not None)))
        total = sum(t for _, t in resolved)
        if total <= limits.ub_usable_bytes:
            if unresolved:
                first_unknown = next(u for u, size in sized if size is None).init
                # Information only where values would decide the total: values for the tiling fields the
                # other buffers depend on would size every one of them.
                needed = _values_that_decide(context, uses)
                if needed:
                    where = (f"{context.known.origin} does not give them" if context.known is not None else
                             "attach a kernel spec or an op test case to fold them in")
                    yield context.finding(
                        "ASC001", first_unknown.call.span,
                        f"The UB total of these buffers needs the tiling values to decide ({unresolved} of "
                        f"runtime size, from {_names(needed)}): {where}",
                        severity="information",
                    )
            continue
        extra = f"; {unresolved} more buffer(s) of unknown size" if unresolved else ""
        worst = max(resolved, key=lambda r: r[1])[0].init
        values = f"With {context.known.describe(used)}: " if used and context.known is not None else ""
        # where the values were set (a direct launch's host lines), shown with the finding
        related = context.known.related(*used) if used and context.known is not None else []
        if total > limits.ub_bytes:
            # one story with the quick fix, the status bar and the lens: the UB, and what a kernel may use of it
            # when Select and similar APIs take their reserve (静态Tensor编程.md, "使用预留UB空间的API范围")
            usable = (
                f" ({fmt(limits.ub_usable_bytes)} B usable: {fmt(limits.ub_reserved_bytes)} B are reserved for Select "
                "and similar APIs)" if limits.ub_reserved_bytes else ""
            )
            message = (
                f"{values}UB use {fmt(total)} B exceeds {limits.soc_name}'s {fmt(limits.ub_bytes)} B{usable}: "
                f"{_sized_parts(resolved)}{extra}"
            )
            path = [u.init for u in uses]
            fixes = (shrink_fixes(context, path, limits.ub_usable_bytes, limits.ub_align)
                     if not budget.unknown("UB") else [])
            yield context.finding("ASC001", worst.call.span, message, fixes=fixes, related=related)
        else:
            message = (
                f"{values}UB use {fmt(total)} B leaves less than the {fmt(limits.ub_reserved_bytes)} B that "
                f"{limits.soc_name} keeps for Select and similar APIs ({fmt(limits.ub_usable_bytes)} B usable of "
                f"{fmt(limits.ub_bytes)} B): {_sized_parts(resolved)}{extra}"
            )
            yield context.finding("ASC001", worst.call.span, message, severity="warning", related=related)


def _sized_parts(resolved: list[tuple[BufferUse, int]]) -> str:
    return ", ".join(
        f"{u.name} {u.count} x {fmt(t // u.count)} B" if u.init.num is not None and u.count else f"{u.name} {fmt(t)} B"
        for u, t in sorted(resolved, key=lambda r: -r[1])
    )


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
                    f"Set {name} = {new_value} to {what} (UB {fmt(total)} B of {fmt(capacity)} B usable)",
                    replace(context.document, lit_start, lit_end, str(new_value)),
                ))
                break
    return fixes


_MEMORY_NAMES = {"L1": "L1", "L0A": "L0A", "L0B": "L0B", "L0C": "L0C", "BT": "BiasTable"}


@rule("ASC002")
def l1_l0_budget(context: CheckContext) -> Iterator[Diagnostic]:
    limits = limits_for(context)
    for budget in class_budgets(context.model):
        for memory, name in _MEMORY_NAMES.items():
            capacity = limits.capacity(memory)
            sized = [u for u in budget.in_memory(memory) if u.total is not None]
            total = budget.total(memory)
            if capacity is None or not sized or total <= capacity:
                continue
            message = f"{name} use {fmt(total)} B exceeds {limits.soc_name}'s {fmt(capacity)} B {name}: {_parts(sized)}"
            worst = max(sized, key=lambda u: u.total or 0).init
            yield context.finding("ASC002", worst.call.span, message)


@rule("ASC003")
def buffer_count(context: CheckContext) -> Iterator[Diagnostic]:
    limits = limits_for(context)
    model = context.model
    per_class: dict[str | None, list[InitBuffer]] = {}
    for init in model.init_buffers:
        if init.call.loop_depth > 0:
            continue
        per_class.setdefault(init.call.function.class_name if init.call.function else None, []).append(init)
    for inits in per_class.values():
        path = worst_case_inits(model, inits, lambda i: i.buffer_count)
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
def initbuffer_in_loop(context: CheckContext) -> Iterator[Diagnostic]:
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
