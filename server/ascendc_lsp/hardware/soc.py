"""SoC profiles: typed, validated, cached view of `knowledge/hardware/*.yaml`.

Every number in a profile file is written as `{value: ..., source: <key>, note: ..., kind: ...}` where `source` is a
key of the file's `sources:` map (the citation text). Unknown numbers are `{value: null, note: "..."}`. The scheme is
documented in `knowledge/hardware/README.md`.

`load_soc_profiles()` reads every profile, checks every field and raises one `HardwareDataError` that lists all
problems (file + dotted field path + message). `get_soc(name)` accepts any case, an `Ascend` prefix or not, and
variant names (`Ascend910B3` gives the Ascend910B profile with that variant's overrides, such as core counts).
The numbers' sources are kept apart from the values: `profile.source_of("memory.ub_bytes")`.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import Any

from ascendc_lsp.errors import (  # raised by get_soc; callers import it from here too
    DataProblem,
    UnknownSocError,
)
from ascendc_lsp.hardware.limits import DEFAULT_SOC, Limits, limits_for_soc
from ascendc_lsp.hardware.yaml_cache import Parsed, read_folder
from ascendc_lsp.resources import knowledge_dir

SCHEMA_VERSION = 1
VALUE_KINDS: tuple[str, ...] = ("documented", "measured", "derived", "assumption")
LAYOUTS: tuple[str, ...] = ("split", "coupled")


# --------------------------------------------------------------------------------------------- errors


HardwareProblem = DataProblem  # `field` such as `memory.ub_bytes` or `variants.X.cores.aic`


class HardwareDataError(ValueError):
    """Raised when hardware data files (SoC profiles or the API catalogue) do not validate."""

    def __init__(self, problems: list[HardwareProblem]) -> None:
        self.problems = problems
        head = f"{len(problems)} problem(s) in hardware data"
        super().__init__(head + ":\n" + "\n".join(f"  {p}" for p in problems))


def listed_items(parsed: Parsed, key: str, schema: int, problems: list[HardwareProblem]) -> list[Any] | None:
    """The list of a catalogue file shaped `{schema: N, <key>: [...]}` (the API catalogue, the snippets), each
    problem of that frame added to `problems`; None when the file has no usable list."""
    file = str(parsed.path)
    data = parsed.data
    if parsed.error is not None:
        problems.append(HardwareProblem(file, "(file)", parsed.error))
        return None
    if not isinstance(data, dict) or not isinstance(data.get(key), list):
        problems.append(HardwareProblem(file, key, f"expected a mapping with `schema: {schema}` and a list `{key}:`"))
        return None
    if data.get("schema") != schema:
        problems.append(HardwareProblem(file, "schema", f"expected schema: {schema}"))
    for extra in sorted(set(data) - {"schema", key}):
        problems.append(HardwareProblem(file, extra, "unknown top-level field"))
    items: list[Any] = data[key]
    return items


# --------------------------------------------------------------------------------------------- model


@dataclass(frozen=True)
class SourceRef:
    """Where a number comes from: `key` into the file's `sources:`, its citation text, a note and how it was got."""

    key: str | None
    citation: str | None
    note: str | None = None
    kind: str = "documented"

    @property
    def known(self) -> bool:
        return self.key is not None


@dataclass(frozen=True)
class MemorySizes:
    ub_bytes: int | None
    ub_reserved_bytes: int | None
    ub_runtime_reserved_bytes: int | None
    l1_bytes: int | None
    l1_reserved_bytes: int | None
    l0a_bytes: int | None
    l0b_bytes: int | None
    l0c_bytes: int | None
    bt_bytes: int | None
    fixpipe_bytes: int | None
    l2_bytes: int | None
    hbm_bytes: int | None
    icache_bytes: int | None
    dcache_bytes: int | None
    ub_bank_bytes: int | None
    ub_bank_groups: int | None

    @property
    def ub_usable_bytes(self) -> int | None:
        """UB left for user buffers when the toolchain keeps its reserve."""
        if self.ub_bytes is None:
            return None
        return self.ub_bytes - (self.ub_reserved_bytes or 0)


@dataclass(frozen=True)
class CoreCounts:
    aic: int | None
    aiv: int | None
    aiv_per_aic: int | None


@dataclass(frozen=True)
class Alignment:
    gm_bytes: int | None
    ub_bytes: int | None
    l1_bytes: int | None
    l0a_bytes: int | None
    l0b_bytes: int | None
    l0c_bytes: int | None
    bt_bytes: int | None
    fixpipe_bytes: int | None
    mmad_dst_bytes: int | None
    datacopy_len_bytes: int | None
    gm_best_bytes: int | None
    gm_best_transfer_bytes: int | None


@dataclass(frozen=True)
class VectorLimits:
    block_bytes: int | None
    blocks_per_repeat: int | None
    bytes_per_repeat: int | None
    max_repeat: int | None
    mask_bits: int | None
    mask_width: Mapping[str, int] | None
    default_repeat_stride: int | None
    max_block_stride: int | None

    def elements_per_repeat(self, dtype_bytes: int) -> int | None:
        if self.bytes_per_repeat is None or dtype_bytes <= 0:
            return None
        return self.bytes_per_repeat // dtype_bytes


@dataclass(frozen=True)
class QueueLimits:
    max_buffers_per_pipe: int | None
    max_live_tensors_per_position: int | None
    event_ids: int | None
    cross_core_flag_ids: int | None
    cross_core_max_pending: int | None


@dataclass(frozen=True)
class Features:
    datacopypad: bool | None
    get_tiling_data: bool | None
    bf16: bool | None
    setflag_isasi: bool | None
    split_aic_aiv: bool | None
    mmad_bias: bool | None
    cross_core_sync: bool | None


@dataclass(frozen=True)
class DtypeSupport:
    """Data types per API family; `cast_pairs` as `src->dst`, `mmad` as `a*b->c`."""

    vector_binary: tuple[str, ...] | None
    vector_unary_transcendental: tuple[str, ...] | None
    reduce: tuple[str, ...] | None
    cast_pairs: tuple[str, ...] | None
    datacopy: tuple[str, ...] | None
    set_atomic_add: tuple[str, ...] | None
    mmad: tuple[str, ...] | None

    def can_cast(self, src: str, dst: str) -> bool | None:
        if self.cast_pairs is None:
            return None
        return f"{src}->{dst}" in self.cast_pairs


@dataclass(frozen=True)
class CostModel:
    clock_mhz: float | None
    hbm_gbps: float | None
    l2_gbps: float | None
    dma_bytes_per_cycle: Mapping[str, float] | None
    measured_gm_ub_gbps: float | None
    measured_ub_gm_gbps: float | None
    measured_gm_l1_gbps: float | None
    measured_l0c_gm_gbps: float | None
    mte_t0_cycles: float | None
    gm_unaligned_factor: float | None
    same_address_penalty: float | None
    vector_min_cycles: float | None
    reduce_min_cycles: float | None
    vector_cycles_per_repeat: Mapping[str, float] | None
    cube_mac_per_cycle: Mapping[str, float] | None
    measured_cube_mac_per_cycle: float | None
    mmad_min_cycles: float | None
    launch_overhead_us: float | None
    scalar_issue_cycles: float | None
    scalar_local_access_cycles: float | None
    scalar_gm_hit_cycles: float | None
    scalar_dcache_miss_cycles: float | None

    def cycles_per_repeat(self, op: str, dtype: str | None = None) -> float | None:
        """`Op.dtype`, else `Op`, else `default` of the vector table."""
        table = self.vector_cycles_per_repeat
        if table is None:
            return None
        if dtype is not None and f"{op}.{dtype}" in table:
            return table[f"{op}.{dtype}"]
        if op in table:
            return table[op]
        return table.get("default")


@dataclass(frozen=True)
class SocProfile:
    name: str
    aliases: tuple[str, ...]
    product: str
    description: str
    arch: int | None
    npu_arch: str | None
    core_targets: Mapping[str, str] | None
    layout: str | None
    soc_version: str | None
    memory: MemorySizes
    cores: CoreCounts
    alignment: Alignment
    vector: VectorLimits
    queues: QueueLimits
    features: Features
    dtypes: DtypeSupport
    cost_model: CostModel
    file: str
    variant: str | None = None
    variants: tuple[str, ...] = ()
    sources: Mapping[str, SourceRef] = field(default_factory=dict, repr=False, compare=False)
    citations: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)

    @property
    def display_name(self) -> str:
        """The variant name when one was selected, else the profile name."""
        return self.variant or self.name

    def source_of(self, path: str) -> SourceRef | None:
        """The source of the number at dotted `path` (e.g. `memory.ub_bytes`); None for an unknown path."""
        return self.sources.get(path)

    def value_of(self, path: str) -> Any:
        """The value at dotted `path`; raises KeyError for an unknown path."""
        obj: Any = self
        for part in path.split("."):
            if not hasattr(obj, part):
                raise KeyError(path)
            obj = getattr(obj, part)
        return obj

    def numbers(self) -> dict[str, Any]:
        """Every sourced field path with its value (for `explain`, hovers and reports)."""
        return {path: self.value_of(path) for path in self.sources}


# Sections: YAML key -> dataclass.
_SECTIONS: dict[str, type] = {
    "memory": MemorySizes,
    "cores": CoreCounts,
    "alignment": Alignment,
    "vector": VectorLimits,
    "queues": QueueLimits,
    "features": Features,
    "dtypes": DtypeSupport,
    "cost_model": CostModel,
}
# Top-level sourced scalars.
_TOP_SOURCED: dict[str, Any] = {
    "arch": int | None,
    "npu_arch": str | None,
    "core_targets": Mapping[str, str] | None,
    "layout": str | None,
    "soc_version": str | None,
}
_TOP_PLAIN = {"schema", "name", "aliases", "product", "description", "sources", "variants"}
_LEAF_KEYS = {"value", "source", "note", "kind"}


# --------------------------------------------------------------------------------------------- validation


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _type_name(hint: Any) -> str:
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if len(args) == 1 and typing.get_origin(hint) in (typing.Union, types.UnionType):
        return _type_name(args[0])
    origin = typing.get_origin(hint)
    if origin is tuple:
        return f"list of {_type_name(typing.get_args(hint)[0])}"
    if origin in (Mapping, dict) or origin is getattr(typing, "Mapping", None):
        k, v = typing.get_args(hint)
        return f"mapping of {_type_name(k)} to {_type_name(v)}"
    return getattr(hint, "__name__", str(hint))


Converter = typing.Callable[[Any], tuple[Any, str | None]]
_CONVERTERS: dict[Any, Converter] = {}


def _convert(value: Any, hint: Any) -> tuple[Any, str | None]:
    """Check `value` against `hint`; returns (converted value, error message or None)."""
    conv = _CONVERTERS.get(hint)
    if conv is None:
        conv = _CONVERTERS[hint] = _compile(hint)
    return conv(value)


def _compile(hint: Any) -> Converter:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(hint)
        nullable = type(None) in args
        inner = _compile(next(a for a in args if a is not type(None)))

        def union(value: Any) -> tuple[Any, str | None]:
            if value is None and nullable:
                return None, None
            return inner(value)

        return union
    if hint is bool:
        return lambda v: (v, None) if isinstance(v, bool) else (None, f"expected a boolean, got {v!r}")
    if hint is int:
        return lambda v: (v, None) if isinstance(v, int) and not isinstance(v, bool) else (
            None, f"expected an integer, got {v!r}")
    if hint is float:
        return lambda v: (float(v), None) if isinstance(v, int | float) and not isinstance(v, bool) else (
            None, f"expected a number, got {v!r}")
    if hint is str:
        return lambda v: (v, None) if isinstance(v, str) else (None, f"expected a string, got {v!r}")
    if origin is tuple:
        item = _compile(typing.get_args(hint)[0])

        def seq(value: Any) -> tuple[Any, str | None]:
            if not isinstance(value, list):
                return None, f"expected a list, got {type(value).__name__}"
            out = []
            for i, v in enumerate(value):
                conv, err = item(v)
                if err:
                    return None, f"item {i}: {err}"
                out.append(conv)
            return tuple(out), None

        return seq
    if origin is not None and issubclass(origin, Mapping):
        key_c, val_c = (_compile(a) for a in typing.get_args(hint))

        def mapping(value: Any) -> tuple[Any, str | None]:
            if not isinstance(value, dict):
                return None, f"expected a mapping, got {type(value).__name__}"
            result: dict[Any, Any] = {}
            for k, v in value.items():
                ck, err = key_c(k)
                if err:
                    return None, f"key {k!r}: {err}"
                cv, err = val_c(v)
                if err:
                    return None, f"{k}: {err}"
                result[ck] = cv
            return types.MappingProxyType(result), None

        return mapping
    raise TypeError(f"unsupported type {hint!r}")  # pragma: no cover - programming error


class _Builder:
    """Collects problems while turning one raw profile mapping into a SocProfile."""

    def __init__(self, file: str, citations: Mapping[str, str], problems: list[HardwareProblem],
                 prefix: str = "") -> None:
        self.file = file
        self.citations = citations
        self.problems = problems
        self.prefix = prefix
        self.sources: dict[str, SourceRef] = {}

    def problem(self, path: str, message: str) -> None:
        self.problems.append(HardwareProblem(self.file, self.prefix + path, message))

    def leaf(self, raw: Any, path: str, hint: Any) -> Any:
        if not isinstance(raw, dict) or "value" not in raw:
            self.problem(path, "expected {value: ..., source: ...} (see knowledge/hardware/README.md)")
            return None
        extra = set(raw) - _LEAF_KEYS
        if extra:
            self.problem(path, f"unknown key(s) {sorted(extra)}; allowed: {sorted(_LEAF_KEYS)}")
        value, err = _convert(raw["value"], hint)
        if err:
            self.problem(f"{path}.value", f"{err} (wanted {_type_name(hint)})")
            value = None
        note = raw.get("note")
        if note is not None and not isinstance(note, str):
            self.problem(f"{path}.note", "expected a string")
            note = None
        kind = raw.get("kind", "documented")
        if kind not in VALUE_KINDS:
            self.problem(f"{path}.kind", f"unknown kind {kind!r}; one of {', '.join(VALUE_KINDS)}")
            kind = "documented"
        key = raw.get("source")
        if raw["value"] is None:
            if not note:
                self.problem(path, "an unknown (null) value needs a note saying why")
        elif key is None:
            self.problem(f"{path}.source", "a value needs a source key")
        if key is not None:
            if not isinstance(key, str):
                self.problem(f"{path}.source", "expected a source key (string)")
                key = None
            elif key not in self.citations:
                self.problem(f"{path}.source", f"unknown source key {key!r}; define it under `sources:`")
        self.sources[path] = SourceRef(key, self.citations.get(key) if key else None, note, kind)
        return value

    def section(self, raw: Any, name: str, cls: type) -> Any:
        hints = _hints(cls)
        names = [f.name for f in fields(cls)]
        if not isinstance(raw, dict):
            self.problem(name, "missing section" if raw is None else "expected a mapping")
            raw = {}
        for extra in sorted(set(raw) - set(names)):
            self.problem(f"{name}.{extra}", f"unknown field; known: {', '.join(names)}")
        values: dict[str, Any] = {}
        for fname in names:
            path = f"{name}.{fname}"
            if fname not in raw:
                self.problem(path, "missing field (write {value: null, note: ...} when unknown)")
                values[fname] = None
                continue
            values[fname] = self.leaf(raw[fname], path, hints[fname])
        return cls(**values)


def _str_list(raw: Any, path: str, file: str, problems: list[HardwareProblem]) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        problems.append(HardwareProblem(file, path, "expected a list of strings"))
        return ()
    return tuple(raw)


def _apply_variant(base: SocProfile, override: Mapping[str, Any], file: str, citations: Mapping[str, str],
                   problems: list[HardwareProblem], vpath: str, vname: str) -> SocProfile:
    """The base profile with a variant's partial overrides applied (only the overridden leaves are re-validated)."""
    builder = _Builder(file, citations, problems, prefix=f"{vpath}.")
    changes: dict[str, Any] = {}
    for key, val in override.items():
        if key in _TOP_SOURCED:
            changes[key] = builder.leaf(val, key, _TOP_SOURCED[key])
        elif key in _SECTIONS:
            cls = _SECTIONS[key]
            if not isinstance(val, dict):
                builder.problem(key, "expected a mapping of field -> {value, source}")
                continue
            hints = _hints(cls)
            sub: dict[str, Any] = {}
            for fname, leaf in val.items():
                if fname not in hints:
                    builder.problem(f"{key}.{fname}", "unknown field")
                    continue
                sub[fname] = builder.leaf(leaf, f"{key}.{fname}", hints[fname])
            changes[key] = dataclasses.replace(getattr(base, key), **sub)
        else:
            builder.problem(key, "a variant may override sections and sourced fields only")
    sources = dict(base.sources)
    sources.update(builder.sources)
    return dataclasses.replace(base, variant=vname, sources=types.MappingProxyType(sources), **changes)


def _build(raw: Mapping[str, Any], file: str, citations: Mapping[str, str], problems: list[HardwareProblem],
           variants: tuple[str, ...] = ()) -> SocProfile:
    builder = _Builder(file, citations, problems)
    top: dict[str, Any] = {}
    for key, hint in _TOP_SOURCED.items():
        if key not in raw:
            builder.problem(key, "missing field")
            top[key] = None
        else:
            top[key] = builder.leaf(raw[key], key, hint)
    if top.get("layout") is not None and top["layout"] not in LAYOUTS:
        builder.problem("layout.value", f"one of {', '.join(LAYOUTS)}")
    sections = {name: builder.section(raw.get(name), name, cls) for name, cls in _SECTIONS.items()}
    name = raw.get("name")
    product = raw.get("product", "")
    description = raw.get("description", "")
    for key, val in (("product", product), ("description", description)):
        if not isinstance(val, str):
            builder.problem(key, "expected a string")
    return SocProfile(
        name=str(name),
        aliases=_str_list(raw.get("aliases"), "aliases", file, problems),
        product=str(product),
        description=str(description),
        file=file,
        variants=variants,
        sources=types.MappingProxyType(builder.sources),
        citations=types.MappingProxyType(dict(citations)),
        **top,
        **sections,
    )


def _load_file(parsed: Parsed, problems: list[HardwareProblem]) -> tuple[SocProfile, dict[str, SocProfile]] | None:
    path = parsed.path
    file = str(path)
    data = parsed.data
    if parsed.error is not None:
        problems.append(HardwareProblem(file, "(file)", parsed.error))
        return None
    if data is None:
        problems.append(HardwareProblem(file, "(file)", "empty file"))
        return None
    if not isinstance(data, dict):
        problems.append(HardwareProblem(file, "(file)", "expected a mapping at the top level"))
        return None
    for key in sorted(set(data) - _TOP_PLAIN - set(_TOP_SOURCED) - set(_SECTIONS)):
        problems.append(HardwareProblem(file, key, "unknown top-level field"))
    if data.get("schema") != SCHEMA_VERSION:
        problems.append(HardwareProblem(file, "schema", f"expected schema: {SCHEMA_VERSION}"))
    name = data.get("name")
    if not isinstance(name, str) or not name:
        problems.append(HardwareProblem(file, "name", "missing or not a string"))
        return None
    if name != path.stem:
        problems.append(HardwareProblem(file, "name", f"must equal the file name {path.stem!r}"))
    citations_raw = data.get("sources")
    citations: dict[str, str] = {}
    if not isinstance(citations_raw, dict):
        problems.append(HardwareProblem(file, "sources", "missing or not a mapping of key -> citation"))
    else:
        for key, text in citations_raw.items():
            if not isinstance(text, str) or not text.strip():
                problems.append(HardwareProblem(file, f"sources.{key}", "expected a non-empty citation string"))
            else:
                citations[str(key)] = text.strip()
    variants_raw = data.get("variants") or {}
    if not isinstance(variants_raw, dict):
        problems.append(HardwareProblem(file, "variants", "expected a mapping of variant name -> overrides"))
        variants_raw = {}
    base = _build(data, file, citations, problems, variants=tuple(variants_raw))
    built: dict[str, SocProfile] = {}
    for vname, override in variants_raw.items():
        vpath = f"variants.{vname}"
        if not isinstance(override, dict):
            problems.append(HardwareProblem(file, vpath, "expected a mapping of overrides"))
            continue
        built[str(vname)] = _apply_variant(base, override, file, citations, problems, vpath, str(vname))
    return base, built


# --------------------------------------------------------------------------------------------- loading


@dataclass(frozen=True)
class _Catalogue:
    profiles: Mapping[str, SocProfile]
    variants: Mapping[str, SocProfile]
    index: Mapping[str, tuple[str, str | None]]  # normalised name -> (profile, variant)


def _norm(name: str) -> str:
    key = re.sub(r"[\s\-]", "", name.strip().lower())
    return key[len("ascend"):] if key.startswith("ascend") else key


def _load_all(folder: Path) -> _Catalogue:
    problems: list[HardwareProblem] = []
    profiles: dict[str, SocProfile] = {}
    variants: dict[str, SocProfile] = {}
    index: dict[str, tuple[str, str | None]] = {}
    files = read_folder(folder)
    if not files:
        problems.append(HardwareProblem(str(folder), "(folder)", "no SoC profiles (*.yaml) found"))
    for parsed in files:
        path = parsed.path
        loaded = _load_file(parsed, problems)
        if loaded is None:
            continue
        base, built = loaded
        profiles[base.name] = base
        names: list[tuple[str, str | None]] = [(base.name, None)]
        names += [(alias, alias if alias in built else None) for alias in base.aliases]
        names += [(v, v) for v in built if v not in base.aliases]
        for vname, prof in built.items():
            variants[vname] = prof
        for label, variant in names:
            key = _norm(label)
            if key in index and index[key] != (base.name, variant):
                problems.append(HardwareProblem(str(path), "aliases", f"name {label!r} is also used by {index[key][0]}"))
                continue
            index[key] = (base.name, variant)
    if problems:
        raise HardwareDataError(problems)
    return _Catalogue(types.MappingProxyType(profiles), types.MappingProxyType(variants), types.MappingProxyType(index))


@cache
def _catalogue(folder: Path) -> _Catalogue:
    return _load_all(folder)


def _folder(directory: Path | str | None) -> Path:
    return Path(directory) if directory is not None else knowledge_dir() / "hardware"


def load_soc_profiles(directory: Path | str | None = None) -> dict[str, SocProfile]:
    """Every base profile by name (cached per folder). Raises HardwareDataError listing every problem."""
    return dict(_catalogue(_folder(directory).resolve()).profiles)


def soc_names(directory: Path | str | None = None, with_variants: bool = True) -> list[str]:
    """Profile names, then variant names."""
    cat = _catalogue(_folder(directory).resolve())
    names = list(cat.profiles)
    if with_variants:
        names += [v for v in cat.variants if v not in names]
    return names


def find_soc(name: str | None = None, directory: Path | str | None = None) -> SocProfile | None:
    """Like `get_soc`, but None for an unknown name."""
    try:
        return get_soc(name, directory)
    except UnknownSocError:
        return None


def get_soc(name: str | None = None, directory: Path | str | None = None) -> SocProfile:
    """The profile for `name` (default Ascend910B): any case, with or without `Ascend`, variants resolved."""
    cat = _catalogue(_folder(directory).resolve())
    hit = cat.index.get(_norm(name or DEFAULT_SOC))
    if hit is None:
        raise UnknownSocError(name or DEFAULT_SOC, soc_names(directory))
    profile, variant = hit
    if variant is not None and variant in cat.variants:
        return cat.variants[variant]
    return cat.profiles[profile]


def clear_cache() -> None:
    """Forget loaded profiles (after the files change)."""
    _catalogue.cache_clear()


# --------------------------------------------------------------------------------------------- by name


def soc_profile(name: str | None) -> Any:
    """The loaded profile of a SoC name (None: `DEFAULT_SOC`); raises `UnknownSocError` listing the known SoCs.

    Profiles that do not load (a broken file: `kb validate` reports it) give None, so runs and checks go on with
    the documented defaults."""
    try:
        return get_soc(name or DEFAULT_SOC)
    except HardwareDataError:
        return None


def soc_limits(name: str | None) -> Limits:
    """The limits of a SoC by name (None: `DEFAULT_SOC`): its profile over the documented defaults.

    Raises `UnknownSocError` (one message, listing the known SoCs) for a name no profile or alias carries."""
    wanted = (name or DEFAULT_SOC).strip()
    return limits_for_soc(soc_profile(wanted), wanted)


_ARCH_NUMBER = re.compile(r"(?:dav-)?(\d{4})\b")


def soc_for_arch(text: str) -> str | None:
    """The profile named by a build's architecture (`dav-3510`, `3510`, `dav-c220-vec`, `dav-m200`), or None.

    Several profiles may share an architecture (2201: Ascend910B and Ascend910_93): the default SoC wins,
    else the first name in order."""
    try:
        profiles = load_soc_profiles()
    except Exception:  # profiles unreadable: no mapping rather than a crash in a rule
        return None
    wanted = text.strip().lower()
    number = _ARCH_NUMBER.fullmatch(wanted)
    matches: list[str] = []
    for name, profile in sorted(profiles.items()):
        targets = [str(t).lower() for t in (profile.core_targets or {}).values()]
        same_arch = number is not None and profile.arch == int(number.group(1))
        if same_arch or (profile.npu_arch or "").lower() == wanted or wanted in targets:
            matches.append(name)
    if not matches:
        return None
    return DEFAULT_SOC if DEFAULT_SOC in matches else matches[0]


# --------------------------------------------------------------------------------------------- build names


def _known_profile(name: str | None) -> SocProfile | None:
    try:
        profile = soc_profile(name)
    except UnknownSocError:
        return None
    return profile if isinstance(profile, SocProfile) else None


def cmake_architecture(name: str | None) -> str | None:
    """A SoC's CMAKE_ASC_ARCHITECTURES (also its `--npu-arch`): `dav-<arch-version>`, per
    docs/zh/guide/编程指南/编译与运行/算子编译/AI-Core算子编译基本用法.md (CMAKE_ASC_ARCHITECTURES). None when the
    SoC is unknown or its architecture number is."""
    profile = _known_profile(name)
    return f"dav-{profile.arch}" if profile is not None and profile.arch else None


def soc_version(name: str | None) -> str:
    """The SOC_VERSION a CMake flow takes for a SoC: a variant names a concrete part itself, a family gives its
    profile's `soc_version` (Ascend910B -> Ascend910B1); an unknown name is passed through as written."""
    profile = _known_profile(name)
    if profile is None:
        return (name or DEFAULT_SOC).strip()
    return profile.variant or profile.soc_version or profile.name


# Families in the spelling an op's `AddConfig("ascend910b")` and the platform's short SoC version use, longest
# first where one is a prefix of another.
_SHORT_SOC_FAMILIES = (
    "ascend910_93", "ascend910_95", "ascend910b", "ascend910", "ascend310p", "ascend310b", "ascend950",
)  # fmt: skip


def short_soc_version(name: str) -> str:
    """A SoC's short version, as an op's `AddConfig` names it: Ascend910B2 -> ascend910b, Ascend910_9392 ->
    ascend910_93; another name lower-cased as it is."""
    lowered = name.strip().lower()
    return next((family for family in _SHORT_SOC_FAMILIES if lowered.startswith(family)), lowered)


def vector_core_target(name: str | None) -> str | None:
    """The compiler target (`--cce-aicore-arch`) of a SoC's vector code: the AIV target of a split SoC, the one
    AI Core target of a coupled one; None when unknown."""
    profile = _known_profile(name)
    targets = (profile.core_targets or {}) if profile is not None else {}
    return targets.get("aiv") or targets.get("aicore")
