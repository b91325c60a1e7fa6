"""SoC facts the emulator needs: the `soc.txt` the kernel reads (PROTOCOL.md) and the cost-model constants.

The SoC profile YAML (`knowledge/hardware/<soc>.yaml`) is the source of truth when it exists; its numbers are
looked up under a few plausible key spellings. Missing numbers fall back to the table below, whose values come
from `shared/reference/hardware-constraints.md` (ADK `kernel_utils_constants.h`, the 2201 architecture pages,
the platform ini files quoted there) and the emulator memo section 4.1.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import Any

DEFAULT_SOC = "Ascend910B"

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

_A2 = {
    "ub_bytes": 196608,  # 192 KB (2201 arch spec; Ascend910B2.ini ub_size=196608)
    # 8 KB of UB used internally by the APIs of the reserved-UB table (Select modes 1/2, LayerNorm, ...) on 2201:
    # docs/zh/guide/编程指南/编程模型/AI-Core-SIMD编程/基于Tensor的CPP编程/静态Tensor编程.md. Taken off UB only when
    # such an API runs (runtime.h uses_reserved_ub), or always under --ub-reserve always / --strict-ub.
    "ub_reserved_bytes": 8192,
    "l1_bytes": 524288,
    "l0a_bytes": 65536,
    "l0b_bytes": 65536,
    "l0c_bytes": 131072,
    "bt_bytes": 1024,
    "max_buffers": 64,
    "max_live_per_position": 8,
    "event_ids": 8,
    "has_datacopypad": 1,
    "aiv_cores": 48,  # 910B2 / 910_93 per die: 24 AIC + 48 AIV (910B3/B4: 20 + 40)
    "aic_cores": 24,
    "clock_ghz": 1.8,  # msKPP arch_info default 1800 MHz
    "arch": 2201,
}
_DEFAULTS: dict[str, dict[str, float]] = {
    "ascend910b": _A2,
    "ascend910b1": {**_A2, "aiv_cores": 48, "aic_cores": 24},
    "ascend910b2": _A2,
    "ascend910b3": {**_A2, "aiv_cores": 40, "aic_cores": 20},
    "ascend910b4": {**_A2, "aiv_cores": 40, "aic_cores": 20},
    "ascend910_93": _A2,
    "ascend910c": _A2,
    "ascend910a": {  # arch 1001: coupled cube+vector, 4 event ids, no DataCopyPad
        **_A2,
        "ub_bytes": 262144,
        "l1_bytes": 1048576,
        "l0c_bytes": 262144,
        "max_live_per_position": 4,
        "event_ids": 4,
        "has_datacopypad": 0,
        "aiv_cores": 32,
        "aic_cores": 32,
        "arch": 1001,
    },
    "ascend310p": {  # arch 2002: coupled, no DataCopyPad; core count from the 310P3 ini (8 AI cores)
        **_A2,
        "ub_bytes": 262144,
        "l1_bytes": 1048576,
        "l0c_bytes": 262144,
        "has_datacopypad": 0,
        "aiv_cores": 8,
        "aic_cores": 8,
        "arch": 2002,
    },
    "ascend310b": {**_A2, "ub_bytes": 253952, "l1_bytes": 1048576, "aiv_cores": 1, "aic_cores": 1, "arch": 3002},
}
_ALIASES = {"ascend910": "ascend910a", "ascend910pro": "ascend910a", "ascend910premiuma": "ascend910a"}


@dataclass
class SocInfo:
    name: str
    values: dict[str, float]
    cost_model: dict[str, Any] = field(default_factory=dict)
    profile_path: Path | None = None
    known: bool = True  # False: an unknown name, defaults of Ascend910B used

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


def _from_profile(soc: str) -> tuple[dict[str, float], dict[str, Any], Path | None] | None:
    """Numbers from the typed SoC profile loader (`ascendc_lsp.hardware.soc`), or None when it has no such SoC."""
    try:
        from ascendc_lsp.hardware.soc import find_soc

        prof = find_soc(soc)
    except Exception:  # a broken or missing profile must not break runs; `kb validate` reports it
        return None
    if prof is None:
        return None
    m, q, c, f = prof.memory, prof.queues, prof.cores, prof.features
    found: dict[str, Any] = {
        "ub_bytes": m.ub_bytes,
        "ub_reserved_bytes": m.ub_reserved_bytes,
        "l1_bytes": m.l1_bytes,
        "l0a_bytes": m.l0a_bytes,
        "l0b_bytes": m.l0b_bytes,
        "l0c_bytes": m.l0c_bytes,
        "bt_bytes": m.bt_bytes,
        "max_buffers": q.max_buffers_per_pipe,
        "max_live_per_position": q.max_live_tensors_per_position,
        "event_ids": q.event_ids,
        "has_datacopypad": None if f.datacopypad is None else int(bool(f.datacopypad)),
        "aiv_cores": c.aiv,
        "aic_cores": c.aic,
        "arch": prof.arch,
        "clock_ghz": None if prof.cost_model.clock_mhz is None else prof.cost_model.clock_mhz / 1000.0,
    }
    if prof.layout == "coupled" and c.aiv is None and c.aic is not None:
        found["aiv_cores"] = c.aic
    values = {k: float(v) for k, v in found.items() if v is not None}
    cost = {fl.name: getattr(prof.cost_model, fl.name) for fl in fields(prof.cost_model)}
    cost = {k: v for k, v in cost.items() if v is not None}
    return values, cost, Path(prof.file) if prof.file else None


@cache
def load_soc(name: str | None = None) -> SocInfo:
    """The SoC by name (case-insensitive): the profile's numbers over the built-in defaults.

    Unknown names get the Ascend910B defaults and `known=False` (the runner warns).
    """
    soc = (name or DEFAULT_SOC).strip()
    key = _ALIASES.get(soc.lower(), soc.lower())
    defaults = _DEFAULTS.get(key)
    known = defaults is not None
    values: dict[str, float] = dict(defaults or _A2)
    cost: dict[str, Any] = {}
    path: Path | None = None
    prof = _from_profile(soc)
    if prof is not None:
        known = True
        values.update(prof[0])
        cost, path = prof[1], prof[2]
    return SocInfo(name=soc, values=values, cost_model=cost, profile_path=path, known=known)
