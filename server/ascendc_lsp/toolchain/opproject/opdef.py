"""The op prototype (OpDef) as the host driver describes it; its dtype/format variants; the kernel build's
DTYPE_<X> / ORIG_DTYPE_<X> / FORMAT_<X> macros for one variant.

Variants follow docs/zh/api/Utils-API/原型注册与管理/OpParamDef/{DataType,DataTypeList,Format,FormatList,Follow}.md:
the i-th entries of every DataType/Format list form one combination; a DataTypeList/FormatList entry combines with
every combination; Follow copies another parameter's dtype/format. Macro meaning:
docs/zh/guide/编程指南/高级编程/Aclnn算子工程化开发/Kernel侧算子实现.md (an output named like an input gets `_REF`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from ascendc_lsp.hardware.soc import short_soc_version

# ge dtype name -> (spec dtype, or None when a test case cannot hold it; the kernel-side C++ type)
GE_DTYPES: dict[str, tuple[str | None, str]] = {
    "DT_FLOAT": ("float32", "float"),
    "DT_FLOAT16": ("float16", "half"),
    "DT_BF16": ("bfloat16", "bfloat16_t"),
    "DT_INT8": ("int8", "int8_t"),
    "DT_UINT8": ("uint8", "uint8_t"),
    "DT_INT16": ("int16", "int16_t"),
    "DT_UINT16": ("uint16", "uint16_t"),
    "DT_INT32": ("int32", "int32_t"),
    "DT_UINT32": ("uint32", "uint32_t"),
    "DT_INT64": ("int64", "int64_t"),
    "DT_UINT64": (None, "uint64_t"),
    "DT_BOOL": ("bool", "bool"),
    "DT_DOUBLE": (None, "double"),
    "DT_COMPLEX64": (None, "int64_t"),
    "DT_COMPLEX32": (None, "int32_t"),
    "DT_INT4": (None, "int4b_t"),
    "DT_HIFLOAT8": (None, "hifloat8_t"),
    "DT_FLOAT8_E5M2": (None, "fp8_e5m2_t"),
    "DT_FLOAT8_E4M3FN": (None, "fp8_e4m3fn_t"),
    "DT_FLOAT8_E8M0": (None, "fp8_e8m0_t"),
}
SPEC_TO_GE = {spec: ge for ge, (spec, _c) in GE_DTYPES.items() if spec is not None}
MAX_VARIANTS = 4096


@dataclass
class Param:
    name: str
    param_type: str  # required | optional | dynamic
    dtypes: list[str]
    dtype_list: bool
    formats: list[str]
    format_list: bool
    follow: str = ""
    follow_type: str = "all"
    value_depend: bool = False


@dataclass
class Attr:
    name: str
    type: str  # int | float | bool | str | list_int | list_float | list_bool | list_list_int
    required: bool
    default: Any = None


@dataclass
class OpDef:
    type: str
    file: str
    line: int
    inputs: list[Param]
    outputs: list[Param]
    attrs: list[Attr]
    configs: dict[str, tuple[list[Param], list[Param]]] = field(default_factory=dict)
    has_tiling: bool = False
    tiling_file: str = ""
    tiling_line: int = 0
    has_infer_shape: bool = False

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def for_soc(self, soc: str) -> OpDef:
        """The prototype as registered for a SoC: an AddConfig(soc, OpAICoreConfig) with its own params wins."""
        key = short_soc_version(soc)
        cfg = self.configs.get(key)
        if cfg is None or (not cfg[0] and not cfg[1]):
            return self
        ins = _merge(self.inputs, cfg[0])
        outs = _merge(self.outputs, cfg[1])
        return OpDef(
            self.type,
            self.file,
            self.line,
            ins,
            outs,
            self.attrs,
            self.configs,
            self.has_tiling,
            self.tiling_file,
            self.tiling_line,
            self.has_infer_shape,
        )


def _merge(base: list[Param], over: list[Param]) -> list[Param]:
    if not over:
        return base
    by = {p.name: p for p in over}
    out = [by.pop(p.name, p) for p in base]
    return out + list(by.values())


def _param(d: dict[str, Any]) -> Param:
    return Param(
        name=str(d["name"]),
        param_type=str(d.get("param_type", "required")),
        dtypes=[str(x) for x in d.get("dtypes", [])],
        dtype_list=bool(d.get("dtype_list")),
        formats=[str(x) for x in d.get("formats", [])],
        format_list=bool(d.get("format_list")),
        follow=str(d.get("follow", "")),
        follow_type=str(d.get("follow_type", "all")),
        value_depend=bool(d.get("value_depend")),
    )


def opdefs_from_description(desc: dict[str, Any]) -> list[OpDef]:
    out: list[OpDef] = []
    for o in desc.get("ops", []):
        configs: dict[str, tuple[list[Param], list[Param]]] = {}
        for c in o.get("configs", []):
            configs[short_soc_version(str(c["soc"]))] = (
                [_param(p) for p in c.get("inputs", [])],
                [_param(p) for p in c.get("outputs", [])],
            )
        out.append(
            OpDef(
                type=str(o["type"]),
                file=str(o.get("file", "")),
                line=int(o.get("line", 0)),
                inputs=[_param(p) for p in o.get("inputs", [])],
                outputs=[_param(p) for p in o.get("outputs", [])],
                attrs=[
                    Attr(str(a["name"]), str(a["type"]), bool(a["required"]), a.get("default"))
                    for a in o.get("attrs", [])
                ],
                configs=configs,
                has_tiling=bool(o.get("has_tiling")),
                tiling_file=str(o.get("tiling_file", "")),
                tiling_line=int(o.get("tiling_line", 0)),
                has_infer_shape=bool(o.get("has_infer_shape")),
            )
        )
    return out


@dataclass(frozen=True)
class Variant:
    """One dtype/format combination: per parameter name (inputs then outputs), (ge dtype, ge format)."""

    dtypes: tuple[tuple[str, str], ...]
    formats: tuple[tuple[str, str], ...]

    def dtype(self, name: str) -> str:
        return dict(self.dtypes)[name]

    def format(self, name: str) -> str:
        return dict(self.formats).get(name, "FORMAT_ND")

    def describe(self, params: list[str] | None = None) -> str:
        d = dict(self.dtypes)
        names = params or list(d)
        return ", ".join(f"{n}={_spec_name(d[n])}" for n in names if n in d)


def _spec_name(ge: str) -> str:
    spec = GE_DTYPES.get(ge, (None, ""))[0]
    return spec or ge


def variants(op: OpDef) -> list[Variant]:
    """Every dtype/format combination the prototype registers, in registration order."""
    params = [*op.inputs, *op.outputs]
    cols = 1
    for p in params:
        if p.dtypes and not p.dtype_list:
            cols = max(cols, len(p.dtypes))
        if p.formats and not p.format_list:
            cols = max(cols, len(p.formats))
    out: list[Variant] = []
    seen: set[Variant] = set()
    for c in range(cols):
        dt_opts: list[list[str]] = []
        fmt_opts: list[list[str]] = []
        for p in params:
            dt_opts.append(_column(p.dtypes, p.dtype_list, c, "DT_UNDEFINED"))
            fmt_opts.append(_column(p.formats, p.format_list, c, "FORMAT_ND"))
        for dts in itertools.product(*dt_opts):
            for fmts in itertools.product(*fmt_opts):
                dmap = {p.name: d for p, d in zip(params, dts, strict=True)}
                fmap = {p.name: f for p, f in zip(params, fmts, strict=True)}
                for p in params:  # Follow: copy from the named (earlier) parameter
                    if p.follow and p.follow in dmap:
                        if p.follow_type in ("all", "dtype"):
                            dmap[p.name] = dmap[p.follow]
                        if p.follow_type in ("all", "format"):
                            fmap[p.name] = fmap[p.follow]
                v = Variant(tuple(dmap.items()), tuple(fmap.items()))
                if v not in seen:
                    seen.add(v)
                    out.append(v)
                if len(out) >= MAX_VARIANTS:
                    return out
    return out


def _column(values: list[str], is_list: bool, c: int, default: str) -> list[str]:
    if not values:
        return [default]
    if is_list:
        return list(dict.fromkeys(values))
    if len(values) == 1:
        return [values[0]]
    return [values[c]] if c < len(values) else [values[-1]]


def pick_variant(op: OpDef, wanted: dict[str, str]) -> Variant:
    """The first variant whose dtypes equal the test case's (spec dtype names by parameter); ValueError else."""
    vs = variants(op)
    for v in vs:
        d = dict(v.dtypes)
        if all(n in d and _spec_name(d[n]) == want for n, want in wanted.items()):
            return v
    have = "; ".join(v.describe() for v in vs[:8]) + (" ..." if len(vs) > 8 else "")
    want = ", ".join(f"{n}={t}" for n, t in wanted.items())
    raise ValueError(f"no dtype combination of {op.type} matches {want}: the OpDef registers {have}")


def macro_name(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name).upper()


def build_macros(
    op: OpDef, variant: Variant, dtype_numbers: dict[str, int], format_numbers: dict[str, int]
) -> list[tuple[str, str]]:
    """(macro, value) pairs: the DT_* / FORMAT_* numbers, then DTYPE_/ORIG_DTYPE_/FORMAT_ per parameter."""
    out: list[tuple[str, str]] = [(k, str(v)) for k, v in dtype_numbers.items()]
    out += [(k, str(v)) for k, v in format_numbers.items()]
    in_names = {p.name for p in op.inputs}
    for is_output, p in [(False, p) for p in op.inputs] + [(True, p) for p in op.outputs]:
        upper = macro_name(p.name) + ("_REF" if is_output and p.name in in_names else "")
        ge = dict(variant.dtypes).get(p.name, "DT_UNDEFINED")
        ctype = GE_DTYPES.get(ge, (None, "uint8_t"))[1]
        out.append((f"DTYPE_{upper}", ctype))
        out.append((f"ORIG_DTYPE_{upper}", ge if ge in dtype_numbers else "DT_UNDEFINED"))
        fmt = variant.format(p.name)
        out.append((f"FORMAT_{upper}", fmt if fmt in format_numbers else "FORMAT_ND"))
    return out
