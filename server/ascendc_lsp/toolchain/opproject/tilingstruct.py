"""The kernel-side view of an op's tiling data, generated as the real op build does: from the tiling classes the
host registered (BEGIN_TILING_DATA_DEF in namespace optiling -> a plain struct of the same name at global scope,
fields in declaration order), and the choice of the struct GET_TILING_DATA fills (REGISTER_TILING_DATA_CLASS(Op,
Cls) by default, `Op_<key>` for one tiling key; REGISTER_TILING_DEFAULT / REGISTER_TILING_FOR_TILINGKEY in the
kernel for standard-C++ tiling structs). Sources: docs/zh/api/Utils-API/Tiling数据结构注册/*.md and
docs/zh/guide/编程指南/高级编程/Aclnn算子工程化开发/Host侧Tiling实现/使用标准CPP语法定义Tiling结构体.md.

The header also carries the kernel build's macros (DT_*/FORMAT_* numbers, DTYPE_<X>/ORIG_DTYPE_<X>/FORMAT_<X>).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GENERATED_MARK = "ascendc-lsp op build"
_REG_DEFAULT = re.compile(r"\bREGISTER_TILING_DEFAULT\s*\(\s*([A-Za-z_][\w:]*)\s*\)")
_REG_FOR_KEY = re.compile(r"\bREGISTER_TILING_FOR_TILINGKEY\s*\(\s*\"([^\"]*)\"\s*,\s*([A-Za-z_][\w:]*)\s*\)")
_KEY_EQ = re.compile(r"^\s*TILING_KEY_VAR\s*==\s*(\d+)\s*$")
_OP_KEY = re.compile(r"^(.*)_(\d+)$")


@dataclass
class Field:
    kind: str  # scalar | array | struct
    type: str
    name: str
    elem_size: int
    count: int
    offset: int


@dataclass
class TilingClass:
    name: str
    file: str
    line: int
    size: int
    fields: list[Field] = field(default_factory=list)
    api: bool = False  # one of the emulator's own API structs (TCubeTiling...): the kernel headers define it


@dataclass
class Binding:
    op: str
    cls: str
    file: str
    line: int


def classes_from_description(desc: dict[str, Any], host_include: Path) -> list[TilingClass]:
    out: list[TilingClass] = []
    shim = str(host_include.resolve())
    for c in desc.get("classes", []):
        fields = [
            Field(
                str(f["kind"]),
                str(f["type"]),
                str(f["name"]),
                int(f["elem_size"]),
                int(f["count"]),
                int(f["offset"]),
            )
            for f in c.get("fields", [])
        ]
        fields.sort(key=lambda f: f.offset)
        file = str(c.get("file", ""))
        out.append(
            TilingClass(
                str(c["name"]),
                file,
                int(c.get("line", 0)),
                int(c["size"]),
                fields,
                api=str(Path(file).resolve()).startswith(shim) if file else False,
            )
        )
    return out


def bindings_from_description(desc: dict[str, Any]) -> list[Binding]:
    return [
        Binding(str(b["op"]), str(b["class"]), str(b.get("file", "")), int(b.get("line", 0)))
        for b in desc.get("bindings", [])
    ]


@dataclass
class KernelRegistrations:
    """REGISTER_TILING_DEFAULT / REGISTER_TILING_FOR_TILINGKEY found in the kernel source."""

    default: str | None = None
    by_key: dict[int, str] = field(default_factory=dict)


def kernel_registrations(text: str) -> KernelRegistrations:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    regs = KernelRegistrations()
    m = _REG_DEFAULT.search(text)
    if m:
        regs.default = m.group(1)
    for m in _REG_FOR_KEY.finditer(text):
        k = _KEY_EQ.match(m.group(1))
        if k:
            regs.by_key[int(k.group(1))] = m.group(2)
    return regs


def struct_for(
    op_type: str,
    key: int | None,
    bindings: list[Binding],
    classes: list[TilingClass],
    kernel: KernelRegistrations,
) -> tuple[str | None, str]:
    """(struct GET_TILING_DATA fills, why) for the op and tiling key."""
    if key is not None and key in kernel.by_key:
        return kernel.by_key[key], f"REGISTER_TILING_FOR_TILINGKEY for key {key} in the kernel"
    if kernel.default is not None:
        return kernel.default, "REGISTER_TILING_DEFAULT in the kernel"
    if key is not None:
        for b in bindings:
            if b.op == f"{op_type}_{key}":
                return b.cls, f"REGISTER_TILING_DATA_CLASS({b.op}, {b.cls}) at {b.file}:{b.line}"
    for b in bindings:
        if b.op == op_type:
            return b.cls, f"REGISTER_TILING_DATA_CLASS({b.op}, {b.cls}) at {b.file}:{b.line}"
    own = [c for c in classes if not c.api]
    bound = {b.cls for b in bindings}
    unbound = [c for c in own if c.name not in bound]
    if len(own) == 1:
        return (
            own[0].name,
            f"the only tiling class ({own[0].file}:{own[0].line}); no REGISTER_TILING_DATA_CLASS for {op_type}",
        )
    if len(unbound) == 1 and not any(b.op.startswith(op_type) for b in bindings):
        return unbound[0].name, f"the only unregistered tiling class ({unbound[0].file}:{unbound[0].line})"
    return None, f"no tiling class is registered for {op_type} (REGISTER_TILING_DATA_CLASS({op_type}, ...))"


def _base_name(type_name: str) -> str:
    return type_name.split("::")[-1].strip()


def _scalar_type(type_name: str) -> str:
    t = type_name.strip()
    return t[len("optiling::") :] if t.startswith("optiling::") else t


def struct_declarations(classes: list[TilingClass]) -> list[str]:
    """C++ of every project tiling class as a plain global struct (dependencies first), plus layout checks."""
    by_name: dict[str, TilingClass] = {}
    for c in classes:
        by_name.setdefault(c.name, c)
    lines: list[str] = []
    done: set[str] = set()

    def emit(c: TilingClass, stack: tuple[str, ...]) -> None:
        if c.name in done or c.name in stack:
            return
        for f in c.fields:
            if f.kind == "struct":
                dep = by_name.get(_base_name(f.type))
                if dep is not None and not dep.api:
                    emit(dep, (*stack, c.name))
        done.add(c.name)
        lines.append(f"// optiling::{c.name} ({c.file}:{c.line})")
        lines.append(f"struct {c.name} {{")
        for f in c.fields:
            if f.kind == "struct":
                lines.append(f"    {_base_name(f.type)} {f.name};")
            elif f.kind == "array":
                lines.append(f"    {_scalar_type(f.type)} {f.name}[{f.count}];")
            else:
                lines.append(f"    {_scalar_type(f.type)} {f.name};")
        lines.append("};")
        lines.append(
            f'static_assert(sizeof({c.name}) == {c.size}, "ascendc-lsp: the kernel-side {c.name} must have the '
            f'host layout ({c.size} B)");'
        )

    for c in classes:
        if not c.api:
            emit(c, ())
    for c in classes:
        if c.api:
            lines.append(
                f'static_assert(sizeof({c.name}) == {c.size}, "ascendc-lsp: kernel_tiling.h {c.name} must have the '
                f'host layout ({c.size} B)");'
            )
    own = [c.name for c in classes if not c.api and c.name in done]
    if own:
        lines.append("namespace optiling {")
        lines += [f"using ::{n};" for n in own]
        lines.append("}  // namespace optiling")
    return lines


def generate_header(macros: list[tuple[str, str]], classes: list[TilingClass], origin: str) -> str:
    """The header the kernel translation unit includes before the kernel source."""
    out = [
        f"// {GENERATED_MARK}: generated for {origin}; do not edit",
        "#pragma once",
        "#define ASCENDC_EMU_GENERATED_TILING 1",
        '#include "kernel_tiling/kernel_tiling.h"',
        "#include <cstdint>",
    ]
    for name, value in macros:
        out.append(f"#undef {name}")
        out.append(f"#define {name} {value}")
    out += struct_declarations(classes)
    return "\n".join(out) + "\n"
