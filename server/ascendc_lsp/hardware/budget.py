"""On-chip memory budgets per kernel class: what each queue and buffer takes, against the SoC.

One computation shared by the budget rules (ASC001/ASC002/ASC003), hover, code lens and the status bar,
so they always agree. Within a function, if/else branches and `#if` alternatives are alternatives (the
heaviest counts); the same buffer initialised twice counts once; functions that initialise the same
buffers are alternative init paths (one per tiling mode), otherwise their buffers add up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ascendc_lsp.hardware.limits import DEFAULT_SOC
from ascendc_lsp.syntax.model import DocumentModel, InitBuffer

UB_POSITIONS = frozenset({"VECIN", "VECOUT", "VECCALC"})
L1_POSITIONS = frozenset({"A1", "B1", "C1", "TSCM"})
POSITION_MEMORY = {
    **dict.fromkeys(UB_POSITIONS, "UB"),
    **dict.fromkeys(L1_POSITIONS, "L1"),
    "A2": "L0A",
    "B2": "L0B",
    "CO1": "L0C",
    "C2": "BT",
    "C2PIPE2GM": "FB",
}
DEFAULT_ALIGN = 32
# Start-address alignment per physical buffer (docs/zh/api/SIMD-API/通用说明和约束.md, table 2): sizes round up to it.
MEMORY_ALIGN = {"UB": 32, "L1": 32, "L0A": 512, "L0B": 512, "L0C": 64, "BT": 64, "FB": 64}

Weight = Callable[[InitBuffer], int | None]
Chain = tuple[tuple[int, int], ...]


def memory_of(model: DocumentModel, init: InitBuffer) -> tuple[str | None, str | None]:
    """(TPosition, physical memory) of the buffer an InitBuffer call sets up."""
    decl = model.buffer(init.target)
    position = decl.position if decl is not None else None
    return position, POSITION_MEMORY.get(position or "")


def _branch_chain(model: DocumentModel, init: InitBuffer) -> Chain:
    """The (if statement, branch) pairs around an InitBuffer inside its function, outermost first."""
    node = model.document.tree.root_node.descendant_for_byte_range(init.call.start_byte, init.call.end_byte)
    chain: list[tuple[int, int]] = []
    function = init.call.function
    while node is not None and node.parent is not None:
        parent = node.parent
        if function is not None and parent.start_byte < function.body_start:
            break
        if parent.type == "if_statement":
            alternative = parent.child_by_field_name("alternative")
            inside_else = alternative is not None and alternative.start_byte <= node.start_byte < alternative.end_byte
            chain.append((parent.start_byte, 1 if inside_else else 0))
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


def _worst(items: list[tuple[Chain, InitBuffer]], depth: int, weight: Weight) -> list[InitBuffer]:
    """The InitBuffers of the heaviest path through if/else branches (branches are alternatives)."""
    chosen = [init for chain, init in items if len(chain) == depth]
    by_if: dict[int, dict[int, list[tuple[Chain, InitBuffer]]]] = {}
    for chain, init in items:
        if len(chain) > depth:
            if_id, branch = chain[depth]
            by_if.setdefault(if_id, {}).setdefault(branch, []).append((chain, init))
    for branches in by_if.values():
        options = [_dedupe(_worst(group, depth + 1, weight), weight) for group in branches.values()]
        chosen.extend(max(options, key=lambda inits: sum(weight(i) or 0 for i in inits)))
    return chosen


def worst_case_inits(model: DocumentModel, inits: list[InitBuffer], weight: Weight) -> list[InitBuffer]:
    """The InitBuffers that are live together on the heaviest path through one class's init code."""
    per_function: dict[int, list[InitBuffer]] = {}
    for init in inits:
        key = init.call.function.start_byte if init.call.function is not None else -1
        per_function.setdefault(key, []).append(init)
    paths = [
        _dedupe(_worst([(_branch_chain(model, i), i) for i in group], 0, weight), weight)
        for group in per_function.values()
    ]
    targets = [{i.target for i in path} for path in paths]
    overlapping = any(targets[a] & targets[b] for a in range(len(paths)) for b in range(a + 1, len(paths)))
    if overlapping:
        return max(paths, key=lambda path: sum(weight(i) or 0 for i in path))
    return [i for path in paths for i in path]


@dataclass(frozen=True)
class BufferUse:
    name: str
    position: str | None
    memory: str | None
    count: int | None
    bytes_each: int | None
    init: InitBuffer

    @property
    def total(self) -> int | None:
        return None if self.count is None or self.bytes_each is None else self.count * self.bytes_each


@dataclass
class ClassBudget:
    """The InitBuffer calls of one kernel class (or of free functions when `owner` is None)."""

    owner: str | None
    uses: list[BufferUse] = field(default_factory=list)

    def in_memory(self, memory: str) -> list[BufferUse]:
        return [u for u in self.uses if u.memory == memory]

    def total(self, memory: str) -> int:
        return sum(u.total or 0 for u in self.in_memory(memory))

    def unknown(self, memory: str) -> int:
        return sum(1 for u in self.in_memory(memory) if u.total is None)


def class_budgets(model: DocumentModel) -> list[ClassBudget]:
    """Budgets per class and physical memory, on each one's heaviest path. InitBuffer calls inside loops
    are left out (carving buffers in a loop is its own rule). Computed once per model (callers only read it)."""
    budgets: list[ClassBudget] = model.derived("class_budgets", _class_budgets)
    return budgets


def _class_budgets(model: DocumentModel) -> list[ClassBudget]:
    groups: dict[tuple[str | None, str | None], list[InitBuffer]] = {}
    for init in model.init_buffers:
        if init.call.loop_depth > 0:
            continue
        owner = init.call.function.class_name if init.call.function is not None else None
        groups.setdefault((owner, memory_of(model, init)[1]), []).append(init)
    budgets: dict[str | None, ClassBudget] = {}
    for (owner, memory), inits in groups.items():
        align = MEMORY_ALIGN.get(memory or "", DEFAULT_ALIGN)
        budget = budgets.setdefault(owner, ClassBudget(owner))
        def weight(init: InitBuffer, align: int = align) -> int | None:
            return init.total_bytes(align)

        for init in worst_case_inits(model, inits, weight):
            position, _ = memory_of(model, init)
            budget.uses.append(
                BufferUse(init.target, position, memory, init.buffer_count, init.bytes_each(align), init)
            )
    for budget in budgets.values():
        budget.uses.sort(key=lambda u: u.init.call.start_byte)
    return list(budgets.values())


def ub_capacity(soc: object | None, soc_name: str = DEFAULT_SOC) -> tuple[int, int]:
    """(UB bytes, bytes the SoC/toolchain reserves), as the rules see them (hardware.limits)."""
    from ascendc_lsp.hardware.limits import limits_for_soc

    limits = limits_for_soc(soc, soc_name)
    return limits.ub_bytes, limits.ub_reserved_bytes


def budget_table_markdown(budget: ClassBudget, soc_name: str, ub_bytes: int, reserved: int) -> str:
    rows = ["| buffer | position | count x bytes | total |", "|---|---|---:|---:|"]
    for use in budget.uses:
        count = "?" if use.count is None else str(use.count)
        each = "?" if use.bytes_each is None else f"{use.bytes_each:,}"
        total = "?" if use.total is None else f"{use.total:,}"
        rows.append(f"| `{use.name}` | {use.position or '?'} | {count} x {each} | {total} |")
    used = budget.total("UB")
    usable = ub_bytes - reserved
    share = f"{100 * used / usable:.1f}%" if usable else "?"
    unknown = budget.unknown("UB")
    note = f" (+{unknown} of unknown size)" if unknown else ""
    rows.append("")
    rows.append(f"**UB {used:,} B of {usable:,} B usable on {soc_name} ({share}){note}**")
    return "\n".join(rows)
