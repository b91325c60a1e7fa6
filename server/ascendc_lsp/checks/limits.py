"""The hardware numbers rules need, read from the selected SoC profile."""

from __future__ import annotations

from dataclasses import dataclass

from ascendc_lsp.checks.base import CheckContext


@dataclass(frozen=True)
class Limits:
    soc_name: str
    ub_bytes: int
    ub_reserved_bytes: int
    ub_align: int = 32

    @property
    def ub_usable_bytes(self) -> int:
        return self.ub_bytes - self.ub_reserved_bytes


def limits_for(context: CheckContext) -> Limits:
    soc = context.soc
    if soc is None:
        # Ascend910B: UB 192 KB (hardware-constraints.md section 1); used only when no profile loads.
        return Limits(soc_name=context.soc_name, ub_bytes=196608, ub_reserved_bytes=0)
    return Limits(
        soc_name=soc.name,
        ub_bytes=soc.memory.ub_bytes,
        ub_reserved_bytes=soc.memory.ub_reserved_bytes or 0,
    )
