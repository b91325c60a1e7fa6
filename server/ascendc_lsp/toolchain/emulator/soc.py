"""SoC facts the emulator needs: the `soc.txt` the kernel reads (PROTOCOL.md) and the cost-model constants.

The numbers come from the one SoC adapter, `ascendc_lsp.hardware.limits` (the profile YAML in
`knowledge/hardware/` over the documented defaults), so a run, a check and the editor see the same UB size,
reserve and core counts. This module only lays them out as `soc.txt` keys and adds the profile's cost model.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import Any

from ascendc_lsp.errors import UnknownSocError
from ascendc_lsp.hardware.limits import DEFAULT_SOC, Limits, limits_for_soc

SOC_TXT_KEYS = (
    "ub_bytes",
    "ub_reserved_bytes",
    "l1_bytes",
    "l0a_bytes",
    "l0b_bytes",
    "l0c_bytes",
    "bt_bytes",
    "max_buffers",
    "max_live_per_position",
    "event_ids",
    "has_datacopypad",
    "aiv_cores",
    "aic_cores",
    "arch",
)


@dataclass
class SocInfo:
    name: str
    values: dict[str, float]
    cost_model: dict[str, Any] = field(default_factory=dict)
    profile_path: Path | None = None
    unknown: UnknownSocError | None = None  # set for a name no profile carries: the default SoC's figures are used

    @property
    def known(self) -> bool:
        return self.unknown is None

    def get(self, key: str) -> float:
        return self.values[key]

    @property
    def clock_ghz(self) -> float:
        return float(self.values.get("clock_ghz", 1.8))

    def soc_txt(self) -> str:
        lines = [f"name {self.name}"]
        for k in SOC_TXT_KEYS:
            v = self.values[k]
            lines.append(f"{k} {int(v)}")
        return "\n".join(lines) + "\n"


def _soc_txt_values(limits: Limits) -> dict[str, float]:
    """The `soc.txt` keys (PROTOCOL.md) from the adapter's limits. The UB reserve is passed as the profile has it:
    the runtime takes it off only when an API of the reserved-UB table runs (runtime.h uses_reserved_ub), or
    always under --ub-reserve always / --strict-ub (docs/zh/guide/编程指南/编程模型/AI-Core-SIMD编程/
    基于Tensor的CPP编程/静态Tensor编程.md)."""
    return {
        "ub_bytes": limits.ub_bytes,
        "ub_reserved_bytes": limits.ub_reserved_bytes,
        "l1_bytes": limits.l1_bytes,
        "l0a_bytes": limits.l0a_bytes,
        "l0b_bytes": limits.l0b_bytes,
        "l0c_bytes": limits.l0c_bytes,
        "bt_bytes": limits.bt_bytes,
        "max_buffers": limits.max_buffers,
        "max_live_per_position": limits.max_live_tensors_per_position,
        "event_ids": limits.event_ids,
        "has_datacopypad": int(limits.datacopypad),
        "aiv_cores": limits.vector_cores or limits.ai_cores or 1,
        "aic_cores": limits.ai_cores or limits.vector_cores or 1,
        "clock_ghz": limits.clock_ghz,
        "arch": limits.arch,
    }


@cache
def load_soc(name: str | None = None) -> SocInfo:
    """The SoC by name (case-insensitive, variants and aliases as the profiles name them).

    An unknown name gets the `DEFAULT_SOC` figures and `unknown` set (the runner warns with its message)."""
    from ascendc_lsp.hardware.soc import soc_profile  # the profile loader, imported on the first run only

    soc = (name or DEFAULT_SOC).strip()
    unknown: UnknownSocError | None = None
    try:
        prof = soc_profile(soc)
    except UnknownSocError as exc:
        unknown, prof = exc, soc_profile(DEFAULT_SOC)
    limits = limits_for_soc(prof, soc if unknown is None else DEFAULT_SOC)
    cost: dict[str, Any] = {}
    path: Path | None = None
    if prof is not None:
        cost = {fl.name: getattr(prof.cost_model, fl.name) for fl in fields(prof.cost_model)}
        cost = {k: v for k, v in cost.items() if v is not None}
        path = Path(prof.file) if prof.file else None
    return SocInfo(name=soc, values={k: float(v) for k, v in _soc_txt_values(limits).items()}, cost_model=cost,
                   profile_path=path, unknown=unknown)
