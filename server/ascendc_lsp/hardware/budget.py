"""On-chip memory budgets per kernel class: what each queue and buffer takes, against the SoC.

Shared by hover, code lens, the status bar notification and the UB rule, so they always agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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

    def total(self, memory: str) -> int:
        return sum(u.total or 0 for u in self.uses if u.memory == memory)

    def unknown(self, memory: str) -> int:
        return sum(1 for u in self.uses if u.memory == memory and u.total is None)


def class_budgets(model: DocumentModel, align: int = DEFAULT_ALIGN) -> list[ClassBudget]:
    """Budgets per class, counting InitBuffer calls outside loops (a call in a loop is its own rule)."""
    budgets: dict[str | None, ClassBudget] = {}
    for init in model.init_buffers:
        if init.call.loop_depth > 0:
            continue
        decl = model.buffer(init.target)
        position = decl.position if decl is not None else None
        function = init.call.function
        owner = function.class_name if function is not None else None
        budget = budgets.setdefault(owner, ClassBudget(owner))
        budget.uses.append(
            BufferUse(
                name=init.target,
                position=position,
                memory=POSITION_MEMORY.get(position or ""),
                count=init.buffer_count,
                bytes_each=init.bytes_each(align),
                init=init,
            )
        )
    return list(budgets.values())


def ub_capacity(soc: object | None) -> tuple[int, int]:
    """(UB bytes, bytes the SoC/toolchain reserves) from a SoC profile; 910B's 192 KB when none loads."""
    memory = getattr(soc, "memory", None)
    if memory is None:
        return 196608, 0
    return int(memory.ub_bytes), int(getattr(memory, "ub_reserved_bytes", 0) or 0)


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
