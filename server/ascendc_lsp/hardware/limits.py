"""The flat hardware numbers that rules, budgets and prompts need, read from the selected SoC profile.

`limits_for_soc(profile, name)` is the one adapter between profiles and its users (rules reach it through
`checks.limits.limits_for(context)`). It reads the SoC profile
(`ascendc_lsp.hardware.soc.SocProfile`, whose YAML lives in `knowledge/hardware/`) when one loaded and falls
back, field by field, to the documented defaults below when the profile is missing or leaves a number
unknown. The fallbacks and the devkit pages that document them (under asc-devkit docs/zh/api/SIMD-API/, paths shortened):

* memory sizes: the devkit's per-architecture constants (asc-devkit `impl/basic_api/utils/kernel_utils_constants.h`,
  the numbers only), as the profiles' `memory` sources cite them;
* UB reserve: 0 when the profile does not say (a rule never assumes a reserve it cannot cite);
* alignment 32 B (`通用说明和约束.md`), max repeat 255 and 256 B per repeat, so mask width = 256 / sizeof(T)
  (`基础API/Memory矢量计算/SIMD计算说明/高维切分.md`);
* 64 buffers per TPipe (`TPipe/InitBuffer.md`), 8 live tensors per position, 4 on Ascend910A (`TQue/AllocTensor.md`),
  event ids 0-7, 0-3 on 910A (`同步控制/核内同步/SetFlag-WaitFlag(ISASI).md`);
* DataCopyPad on 910B/910_93/310B only (`GMToUB非对齐数据搬运(DataCopyPad).md`), GET_TILING_DATA everywhere but
  910A (`Kernel-Tiling/GET_TILING_DATA.md`);
* core counts: 24 AIC + 48 AIV for the 2201 families (the Ascend910B2 variant, `pto-ini-b2` in
  knowledge/hardware/Ascend910B.yaml, and the Ascend910_9392 die), the profile's `aic` for coupled SoCs (one
  vector unit per AI Core: `aiv` = `aic`, knowledge/hardware/README.md "layout");
* arch, layout, clock: the profile's `arch`, `layout` and `cost_model.clock_mhz` (1800 MHz msKPP default);
* scalar unit: float <-> unsigned integer casts and `double` are compile errors in aicore code up to architecture
  2201 (the compiler's "cast between floating and unsigned integer variable is not allowed in aicore function"
  and "double precision operation is not allowed in aicore function"); the 3510 scalar unit handles U16/S16/U32/S32/U64/S64/FP64
  (asc-devkit docs/zh/guide/编程指南/高级编程/硬件实现/架构规格/NPU架构版本3510.md, "Scalar单元"), and
  the official Ascend950 samples cast uint32_t to float in kernel code
  (asc-devkit examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/arange/arange.asc).

`hardware.soc.soc_limits(name)` is the same adapter by name (variants and aliases resolved by the profile loader): every
user of a SoC name (checks, the emulator's `soc.txt` and cost model, settings, prompts, the editor) reads its
numbers there, and an unknown name is one error everywhere (`UnknownSocError`, listing the known SoCs).
`DEFAULT_SOC` is the SoC used when nothing names one.

`hardware.soc.soc_for_arch(text)` maps what a project's build names (`dav-3510`, `3510`, `dav-c220-vec`, `dav-m200`) to a
profile, through the profiles' `arch`, `npu_arch` and `core_targets`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

DEFAULT_SOC = "Ascend910B"

@dataclass(frozen=True)
class Limits:
    soc_name: str
    ub_bytes: int
    ub_reserved_bytes: int
    ub_align: int = 32
    l1_bytes: int = 524288
    l1_reserved_bytes: int = 0
    l0a_bytes: int = 65536
    l0b_bytes: int = 65536
    l0c_bytes: int = 131072
    bt_bytes: int = 1024
    max_repeat: int = 255
    bytes_per_repeat: int = 256
    max_buffers: int = 64
    max_live_tensors_per_position: int = 8
    event_ids: int = 8
    datacopypad: bool = True
    get_tiling_data: bool = True
    bf16: bool = True
    ai_cores: int | None = None
    vector_cores: int | None = None
    scalar_float_unsigned_cast: bool = False
    scalar_double: bool = False
    arch: int = 2201
    layout: str = "split"
    clock_ghz: float = 1.8
    from_profile: bool = False
    # False when the core counts are another family's, borrowed so the emulator has a number to run with: a rule
    # must not state them as this SoC's (Ascend950's profile documents no core count).
    cores_documented: bool = True

    @property
    def ub_usable_bytes(self) -> int:
        return self.ub_bytes - self.ub_reserved_bytes

    def mask_width(self, dtype_size: int) -> int:
        """Widest continuous mask for an element size: 128 for 16-bit, 64 for 32-bit, 32 for 64-bit types."""
        return min(128, self.bytes_per_repeat // max(dtype_size, 1))

    @property
    def max_cores(self) -> int | None:
        counts = [c for c in (self.ai_cores, self.vector_cores) if c]
        return max(counts) if counts else None

    def capacity(self, memory: str) -> int | None:
        return {
            "UB": self.ub_usable_bytes,
            "L1": self.l1_bytes,  # the 128 B KFC reserve applies only with Matmul KFC; official kernels use all 512 KB
            "L0A": self.l0a_bytes,
            "L0B": self.l0b_bytes,
            "L0C": self.l0c_bytes,
            "BT": self.bt_bytes,
        }.get(memory)


# Documented defaults per SoC family (the sources of the module docstring), used field by field where
# the profile is missing or leaves a number unknown. Core counts: see the module docstring; 310P's 8 AI Cores come
# from the Ascend310P3.ini quote in knowledge/hardware/Ascend310P.yaml (cores.aic note).
_FALLBACKS: dict[str, dict[str, Any]] = {
    "Ascend910B": dict(ub_bytes=196608, l1_bytes=524288, l1_reserved_bytes=128, l0c_bytes=131072,
                       ai_cores=24, vector_cores=48),
    "Ascend910_93": dict(ub_bytes=196608, l1_bytes=524288, l1_reserved_bytes=128, l0c_bytes=131072,
                         ai_cores=24, vector_cores=48),
    "Ascend310P": dict(ub_bytes=262144, l1_bytes=1048576, l0c_bytes=262144, datacopypad=False, bf16=False,
                       ai_cores=8, vector_cores=8, arch=2002, layout="coupled"),
    "Ascend310B": dict(ub_bytes=253952, l1_bytes=1048576, l0c_bytes=131072, ai_cores=1, vector_cores=1,
                       arch=3002, layout="coupled"),
    "Ascend910A": dict(ub_bytes=262144, l1_bytes=1048576, l0c_bytes=262144, datacopypad=False, bf16=False,
                       get_tiling_data=False, max_live_tensors_per_position=4, event_ids=4, ai_cores=32,
                       vector_cores=32, arch=1001, layout="coupled"),
}
_FALLBACKS["Ascend910"] = _FALLBACKS["Ascend910A"]
_FALLBACKS["Ascend950"] = dict(_FALLBACKS["Ascend910B"], scalar_float_unsigned_cast=True, scalar_double=True,
                               arch=3510, cores_documented=False)

# Limits field -> (section, key) paths tried in the profile, in order.
_PROFILE_PATHS: dict[str, tuple[tuple[str, str], ...]] = {
    "ub_bytes": (("memory", "ub_bytes"),),
    "ub_reserved_bytes": (("memory", "ub_reserved_bytes"),),
    "l1_bytes": (("memory", "l1_bytes"),),
    "l1_reserved_bytes": (("memory", "l1_reserved_bytes"),),
    "l0a_bytes": (("memory", "l0a_bytes"),),
    "l0b_bytes": (("memory", "l0b_bytes"),),
    "l0c_bytes": (("memory", "l0c_bytes"),),
    "bt_bytes": (("memory", "bt_bytes"),),
    "ub_align": (("alignment", "ub_bytes"),),
    "max_repeat": (("vector", "max_repeat"),),
    "bytes_per_repeat": (("vector", "bytes_per_repeat"),),
    "max_buffers": (("queues", "max_buffers_per_pipe"),),
    "max_live_tensors_per_position": (("queues", "max_live_tensors_per_position"),),
    "event_ids": (("queues", "event_ids"),),
    "datacopypad": (("features", "datacopypad"),),
    "get_tiling_data": (("features", "get_tiling_data"),),
    "bf16": (("features", "bf16"),),
    "scalar_float_unsigned_cast": (("features", "scalar_float_unsigned_cast"),),
    "scalar_double": (("features", "scalar_double"),),
    "ai_cores": (("cores", "aic"), ("cores", "ai_cores")),
    "vector_cores": (("cores", "aiv"), ("cores", "vector_cores")),
}


def _unwrap(value: Any) -> Any:
    """`{value: x, source: ...}` mappings and objects with a `.value` give x."""
    if isinstance(value, dict) and "value" in value:
        return value["value"]
    if hasattr(value, "value") and not isinstance(value, (int, float, bool, str)):
        return value.value
    return value


def _member(obj: Any, key: str) -> Any:
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj.get(key)
    return getattr(obj, key, None)


def profile_value(soc: Any, section: str, key: str) -> Any:
    """One number of a profile, whatever shape the profile object has (attributes, mappings, `{value:}`)."""
    if soc is None:
        return None
    getter = getattr(soc, "value", None)
    if callable(getter):
        try:
            found = getter(f"{section}.{key}")
        except (KeyError, LookupError, TypeError, ValueError, AttributeError):
            found = None
        if found is not None:
            return _unwrap(found)
    return _unwrap(_member(_unwrap(_member(soc, section)), key))


def _family(name: str) -> str:
    for family in ("Ascend910_93", "Ascend910B", "Ascend310P", "Ascend310B", "Ascend910A", "Ascend950"):
        if name.startswith(family):
            return family
    return "Ascend910A" if name == "Ascend910" else "Ascend910B"


def _build(soc: Any, soc_name: str) -> Limits:
    name = str(_member(soc, "display_name") or _member(soc, "name") or soc_name)
    values: dict[str, Any] = {"ub_reserved_bytes": 0, **_FALLBACKS[_family(name)]}
    from_profile = False
    for field_name, paths in _PROFILE_PATHS.items():
        for section, key in paths:
            found = profile_value(soc, section, key)
            if isinstance(found, (bool, int)):
                values[field_name] = found
                from_profile = True
                if field_name in ("ai_cores", "vector_cores"):
                    values["cores_documented"] = True
                break
    arch = _unwrap(_member(soc, "arch"))
    if isinstance(arch, int) and not isinstance(arch, bool):
        values["arch"] = arch
    layout = _unwrap(_member(soc, "layout"))
    if isinstance(layout, str) and layout:
        values["layout"] = layout
    clock_mhz = profile_value(soc, "cost_model", "clock_mhz")
    if isinstance(clock_mhz, (int, float)) and not isinstance(clock_mhz, bool) and clock_mhz > 0:
        values["clock_ghz"] = float(clock_mhz) / 1000.0
    if values.get("layout") == "coupled" and profile_value(soc, "cores", "aiv") is None:
        values["vector_cores"] = values.get("ai_cores")  # one vector unit per AI Core (knowledge/hardware/README.md)
    return Limits(soc_name=name, from_profile=from_profile, **values)


_CACHE: dict[tuple[int, str], Limits] = {}


def limits_for_soc(soc: Any, soc_name: str) -> Limits:
    """Limits for a loaded SoC profile (or None: the documented defaults of `soc_name`'s family)."""
    key = (id(soc), soc_name)
    cached = _CACHE.get(key)
    if cached is None:
        cached = _build(soc, soc_name)
        if len(_CACHE) > 64:
            _CACHE.clear()
        _CACHE[key] = cached
    return cached
