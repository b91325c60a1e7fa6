"""Generate `harness.cpp` for a kernel spec, as PROTOCOL.md describes."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ascendc_lsp.toolchain.spec import KernelSpec

HARNESS_MARK = "ascendc-lsp emulator harness"


def c_string(s: str) -> str:
    return json.dumps(s)  # a valid C string literal for the characters we allow in paths and names


def c_literal(v: Any) -> str:
    """A C++ literal for a spec value (a tiling field), the one writer for every harness (emulator and CANN).

    NaN and +-inf become GCC/Clang builtins (`repr` gives `nan`/`inf`, which C++ does not know); -0.0 keeps its
    sign and denormals their exact value (`repr` round-trips a double); the assignment's static_cast then rounds
    to the field's type (float, half, bfloat16). Integers past 32 bits carry LL/ULL; INT64_MIN is written as an
    expression because `-9223372036854775808LL` is the negation of a literal that does not fit."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        if -(2**31) <= v < 2**31:
            return str(v)
        if v == -(2**63):
            return "(-9223372036854775807LL - 1)"
        return f"{v}LL" if v < 0 else f"{v}ULL"
    f = float(v)
    if math.isnan(f):
        return '__builtin_nan("")'
    if math.isinf(f):
        return "__builtin_inf()" if f > 0 else "(-__builtin_inf())"
    return repr(f)


def field_assignments(prefix: str, fields: Mapping[str, Any]) -> list[str]:
    """`prefix.field = value;` lines for a (nested) struct value; arrays element by element."""
    out: list[str] = []
    for name, v in fields.items():
        target = f"{prefix}.{name}"
        out.extend(_assign(target, v))
    return out


def _assign(target: str, v: Any) -> list[str]:
    if isinstance(v, Mapping):
        return field_assignments(target, v)
    if isinstance(v, list):
        out: list[str] = []
        for i, item in enumerate(v):
            out.extend(_assign(f"{target}[{i}]", item))
        return out
    return [f"    {target} = static_cast<std::remove_reference_t<decltype({target})>>({c_literal(v)});"]


def generate(spec: KernelSpec, source: Path, strict_assert: bool = False) -> str:
    """The harness source. Variable names carry an `emu_` prefix so they cannot clash with kernel globals.

    strict_assert: ASSERT / ASCENDC_ASSERT trap as in the CPU-debug build (the NPU build compiles them out); set
    after the precompiled header, resolved where the kernel expands the macro.
    """
    lines = [f"// {HARNESS_MARK}: generated for kernel '{spec.kernel}'; do not edit"]
    lines.append(
        '#include "ascendc_emu_pch.h"  // kernel_operator.h, first, so the precompiled header applies'
    )
    if strict_assert:
        lines += ["#undef ASCENDC_EMU_ASSERT_TRAP", "#define ASCENDC_EMU_ASSERT_TRAP 1"]
    if spec.tiling is not None and spec.tiling.struct:
        # the build defines ASCENDC_EMU_TILING_TYPE as this macro (see build.TILING_MACRO), keeping the PCH valid
        lines.append(f"#define ASCENDC_EMU_TILING_STRUCT {spec.tiling.struct}")
    lines.append('#include "ascendc_emu/harness.h"')
    lines.append("#include <cstring>")
    lines.append("#include <type_traits>")
    lines.append("#include <vector>")
    if spec.tiling is not None and spec.tiling.header is not None:
        lines.append(f"#include {c_string(str(spec.tiling.header))}")
    lines.append(f"#include {c_string(str(source))}")
    lines.append("")
    lines.append("int main(int argc, char** argv) {")
    lines.append("    ascendc_emu::Harness emu_h(argc, argv);")
    args: list[str] = []
    for name in spec.param_order():
        t = spec.tensor(name)
        if name == "workspace":
            lines.append(f"    GM_ADDR emu_workspace = emu_h.Workspace({spec.workspace_bytes});")
            args.append("emu_workspace")
        elif name == "tiling" and spec.tiling is not None and spec.tiling.raw is not None:
            rt = spec.tiling
            lines.extend(_raw_tiling(rt.struct, rt.raw or b"", rt.fields))
            args.append("emu_tiling_value" if rt.pass_mode == "value" and rt.struct else "emu_tiling")
        elif name == "tiling":
            tl = spec.tiling
            assert tl is not None
            lines.append(f"    {tl.struct} emu_tiling_value{{}};")
            lines.extend(field_assignments("emu_tiling_value", tl.fields))
            if tl.pass_mode == "value":
                args.append("emu_tiling_value")
            else:
                lines.append(
                    '    GM_ADDR emu_tiling = emu_h.Bytes("tiling", &emu_tiling_value, sizeof(emu_tiling_value));'
                )
                args.append("emu_tiling")
        elif name in spec.tensor_lists:
            lines.extend(_tensor_list(spec, name))
            args.append(f"emu_{name}")
        elif t is not None and any(t is i for i in spec.inputs):
            lines.append(f"    GM_ADDR emu_{name} = emu_h.Input({c_string(name)});")
            args.append(f"emu_{name}")
        elif t is not None:
            lines.append(f"    GM_ADDR emu_{name} = emu_h.Output({c_string(name)}, {t.nbytes});")
            args.append(f"emu_{name}")
        else:  # an optional op input the test case leaves out: the kernel gets a null address
            args.append("nullptr")
    # outputs the params list leaves out still need their buffers (the kernel cannot write them, but Finish
    # writes every Output and the runner expects the files)
    listed = set(spec.param_order()) | {m for ms in spec.tensor_lists.values() for m in ms}
    for t in spec.outputs:
        if t.name not in listed:
            lines.append(f"    (void)emu_h.Output({c_string(t.name)}, {t.nbytes});")
    if spec.task_ratio != 1:  # a mix kernel: GetBlockNum / GetTaskRatio see the logical AI cores
        lines.append(f"    ::ascendc_emu::rt().task_ratio = {int(spec.task_ratio)};")
    lines.append(f"    emu_h.Launch({spec.block_dim}, [&] {{ {spec.kernel}({', '.join(args)}); }});")
    lines.append("    return emu_h.Finish();")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _tensor_list(spec: KernelSpec, name: str) -> list[str]:
    """A tensor list parameter (an op's dynamic input/output): each member its own GM buffer, the parameter a
    descriptor in GM: word 0 the byte offset of the address table; per tensor a word (index << 32 | rank) and
    its dims; then the members' addresses (the layout the kernel-side ListTensorDesc reads)."""
    out: list[str] = []
    words: list[str] = []
    members = spec.tensor_lists[name]
    for i, m in enumerate(members):
        t = spec.tensor(m)
        assert t is not None
        if any(t is x for x in spec.inputs):
            out.append(f"    GM_ADDR emu_{m} = emu_h.Input({c_string(m)});")
        else:
            out.append(f"    GM_ADDR emu_{m} = emu_h.Output({c_string(m)}, {t.nbytes});")
        words.append(f"({i}ull << 32) | {len(t.shape)}ull")
        words += [f"{d}ull" for d in t.shape]
    table = 8 * (1 + len(words))
    words = [f"{table}ull", *words] + [f"(uint64_t)(uintptr_t)emu_{m}" for m in members]
    out.append(f"    uint64_t emu_{name}_list[] = {{{', '.join(words)}}};")
    out.append(f"    GM_ADDR emu_{name} = emu_h.Bytes({c_string(name)}, emu_{name}_list, sizeof(emu_{name}_list));")
    return out


def _raw_tiling(struct: str, raw: bytes, fields: dict[str, Any]) -> list[str]:
    """The host's tiling bytes, padded to the struct GET_TILING_DATA reads; spec fields override on top."""
    data = ", ".join(str(b) for b in raw) or "0"
    out = [
        f"    static const unsigned char emu_tiling_raw[{max(1, len(raw))}] = {{{data}}};",
        f"    std::vector<unsigned char> emu_tiling_buf({max(1, len(raw))}u);",
    ]
    if struct:
        out.append(f"    if (emu_tiling_buf.size() < sizeof({struct})) emu_tiling_buf.resize(sizeof({struct}));")
    out.append(f"    std::memcpy(emu_tiling_buf.data(), emu_tiling_raw, {len(raw)}u);")
    if struct:
        out.append(f"    {struct} emu_tiling_value{{}};")
        out.append("    std::memcpy(&emu_tiling_value, emu_tiling_buf.data(), sizeof(emu_tiling_value));")
        out.extend(field_assignments("emu_tiling_value", fields))
        out.append("    std::memcpy(emu_tiling_buf.data(), &emu_tiling_value, sizeof(emu_tiling_value));")
    out.append('    GM_ADDR emu_tiling = emu_h.Bytes("tiling", emu_tiling_buf.data(), emu_tiling_buf.size());')
    return out


def harness_hint(spec: KernelSpec) -> str:
    """Explain the call the harness makes, for errors located in the harness."""
    return f"the harness calls {spec.kernel}({', '.join(spec.param_order())}) as the spec's params order says"
