"""Lower `<<<...>>>` kernel launches onto the emulator's launcher, keeping every line where it was.

    kernel<T><<<blocks, l2ctrl, stream>>>(a, b)
becomes
    ::ascendc_emu::kernel_launch("kernel<T>", __FILE__, __LINE__, [&](auto&&... ascendc_emu_a) {
        kernel<T>(ascendc_emu_a...); })(blocks, l2ctrl, stream)(a, b)
on the same lines (the inserted text has no newline; the callee, the configuration and the arguments keep their
own text), and the lowered file starts with `#line 1 "<original path>"` after one include line, so compiler
messages, `__FILE__` and `__builtin_FILE()` in emulator reports name the user's file and line
(ascendc_emu/launch.h). Comments, string and character literals (raw strings, digit separators) are skipped.

`kernel_signatures` finds the `__global__` kernels of a source, for the `aclrtlaunch_<kernel>.h` headers the
real `ascendc_library()` build generates (`ACLRT_LAUNCH_KERNEL(kernel)(blockDim, stream, args...)`), and
`aclrtlaunch_header` / `aclrtlaunch_definitions` write them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ascendc_lsp.syntax.brackets import split_top_level

from .scan import OPENING_BRACKETS, LoweringError, code_mask, matching
from .simt import SIMT_INCLUDE, share_ubuf_arrays, uses_simt

LAUNCHER_INCLUDE = '#include "ascendc_emu/launch.h"'
ARG_PACK = "ascendc_emu_a"


@dataclass
class Launch:
    """One rewritten launch: where it was and what it called (1-based line of the callee)."""

    callee: str
    line: int
    config: str
    start: int  # offsets in the original text: callee start .. end of the argument list
    end: int


@dataclass
class Lowered:
    text: str
    launches: list[Launch] = field(default_factory=list)


def _callee_start(text: str, mask: bytearray, end: int) -> int:
    """Start of the callee expression that ends just before `end` (name, ns::name, name<T...>, (*fp))."""
    i = end - 1
    while i >= 0 and (text[i].isspace() or not mask[i]):
        i -= 1
    if i < 0:
        raise LoweringError("no kernel name before <<<")
    if text[i] == ")":  # (*fn) or (kernel)
        depth = 0
        while i >= 0:
            if mask[i]:
                if text[i] == ")":
                    depth += 1
                elif text[i] == "(":
                    depth -= 1
                    if depth == 0:
                        return i
            i -= 1
        raise LoweringError("unbalanced parentheses before <<<")
    start = i + 1
    while True:
        if text[i] == ">":  # template arguments
            depth = 0
            while i >= 0:
                if mask[i]:
                    if text[i] in ">)]":
                        depth += 1
                    elif text[i] in "<([":
                        depth -= 1
                        if depth == 0:
                            break
                i -= 1
            if i < 0:
                raise LoweringError("unbalanced template brackets before <<<")
            i -= 1
            while i >= 0 and text[i].isspace():
                i -= 1
        j = i
        while i >= 0 and (text[i].isalnum() or text[i] == "_"):
            i -= 1
        if i == j:
            raise LoweringError("no kernel name before <<<")
        start = i + 1
        k = i
        while k >= 0 and text[k].isspace():
            k -= 1
        if k >= 1 and text[k] == ":" and text[k - 1] == ":":  # qualified name
            start = k - 1
            k -= 2
            while k >= 0 and text[k].isspace():
                k -= 1
            if k >= 0 and (text[k].isalnum() or text[k] == "_" or text[k] == ">"):
                i = k
                continue
            return start
        word_before = text[max(0, k - 7) : k + 1]
        if word_before.endswith("template") and k - 8 >= 1 and text[k - 8 : k - 6] == "::":
            i = k - 9  # ns::template name<...>
            start = k - 7
            continue
        return start


def _config_end(text: str, mask: bytearray, i: int) -> int:
    """Index of the `>>>` closing a configuration that starts at i (nested brackets skipped)."""
    j = i
    n = len(text)
    while j < n:
        if mask[j]:
            ch = text[j]
            if ch in OPENING_BRACKETS:
                j = matching(text, mask, j)
                continue
            if text.startswith(">>>", j) and mask[j + 1] and mask[j + 2]:
                return j
            if ch in ";}":
                break
        j += 1
    raise LoweringError("no closing >>> for the launch configuration")


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _c_string(s: str) -> str:
    return json.dumps(" ".join(s.split()), ensure_ascii=True)


def find_launches(text: str) -> list[Launch]:
    """Every `<<<...>>>(...)` launch in code (not in comments or literals), in order."""
    mask = code_mask(text)
    out: list[Launch] = []
    pos = 0
    while True:
        k = text.find("<<<", pos)
        if k < 0:
            return out
        if not (mask[k] and mask[k + 1] and mask[k + 2]):
            pos = k + 3
            continue
        line = _line_of(text, k)
        try:
            start = _callee_start(text, mask, k)
            cfg_end = _config_end(text, mask, k + 3)
            a = cfg_end + 3
            while a < len(text) and (text[a].isspace() or not mask[a]):
                a += 1
            if a >= len(text) or text[a] != "(":
                raise LoweringError("no argument list after >>>")
            args_end = matching(text, mask, a)
        except LoweringError as exc:
            raise LoweringError(f"line {line}: cannot lower this kernel launch: {exc}") from None
        callee = text[start:k].strip()
        out.append(Launch(callee, _line_of(text, start), text[k + 3 : cfg_end], start, args_end))
        pos = args_end


def _base_name(callee: str) -> str:
    """`ns::kernel<T, 4>` -> `kernel`."""
    depth = 0
    out = ""
    for ch in callee:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif depth == 0:
            out += ch
    return out.split("::")[-1].strip().strip("()*& ")


def lower_text(
    text: str, original_path: str, task_ratios: dict[str, int] | None = None, *, library: bool = False
) -> Lowered:
    """The source with every launch rewritten; line numbers unchanged (see the module docstring). `task_ratios`
    names the mix kernels (AIV cores per block, KernelSignature.task_ratio) the launches may call.

    `library`: the source is a kernel library's (an `ascendc_library` source, an op kernel): its host-side launch
    wrappers (`<op>_do`) are taken as the real build takes them, even when an argument does not convert to the
    kernel's parameter (public kernels that pass on the simulator hand a `TilingData*` to a kernel taking
    `TilingData`); such a launch compiles and, if the program ever makes it, stops with a `launch-arguments`
    error (ascendc_emu/launch.h) instead of running the kernel with a wrong argument. A launch whose argument
    count differs from the parameters of a kernel defined in the same text stays a compile error."""

    simt_include = f"{SIMT_INCLUDE}\n" if uses_simt(text) else ""
    text = share_ubuf_arrays(text)
    launches = find_launches(text)
    arity = {s.name: len(s.params) for s in kernel_signatures(text)} if library and launches else {}
    parts: list[str] = []
    last = 0
    for ln in launches:
        k = text.index("<<<", ln.start)
        mask_end = text.index(">>>", k + 3 + len(ln.config))
        callee_text = text[ln.start : k]
        parts.append(text[last : ln.start])
        # the SFINAE-friendly return type lets the launcher see a mismatch instead of failing the build; the
        # callee is repeated there on one line (a comment inside it would swallow code: then no leniency)
        callee_line = " ".join(ln.callee.split())
        want = arity.get(_base_name(ln.callee))
        args_open = text.index("(", mask_end + 3)
        sfinae = (
            f" -> decltype((void)({callee_line}({ARG_PACK}...)))"
            if library
            and "//" not in callee_line
            and "/*" not in callee_line
            and (want is None or want == _count_args(text[args_open + 1 : ln.end - 1]))
            else ""
        )
        parts.append(
            f"::ascendc_emu::kernel_launch({_c_string(ln.callee)}, __FILE__, __LINE__, "
            f"[&](auto&&... {ARG_PACK}){sfinae} {{ "
        )
        parts.append(callee_text)
        ratio = (task_ratios or {}).get(_base_name(ln.callee), 1)
        parts.append(
            f"({ARG_PACK}...); }}" + (f", ASCENDC_EMU_WORKSPACE_FROM_END, {ratio})(" if ratio != 1 else ")(")
        )
        parts.append(ln.config)
        parts.append(")")
        parts.append(text[mask_end + 3 : ln.end])
        last = ln.end
    parts.append(text[last:])
    body = "".join(parts)
    header = f"{LAUNCHER_INCLUDE}\n{simt_include}#line 1 {json.dumps(original_path)}\n"
    return Lowered(header + body, launches)


# ---------------------------------------------------------------------------------------------------- kernels
@dataclass
class KernelParam:
    type: str  # as written (qualifiers kept)
    name: str

    @property
    def is_pointer(self) -> bool:
        return "*" in self.type or re.search(r"\bGM_ADDR\b", self.type) is not None


@dataclass
class KernelSignature:
    name: str
    params: list[KernelParam]
    line: int  # 1-based line of the name
    extern_c: bool
    template: bool
    task_ratio: int = (
        1  # AIV cores per block on a split (AIC/AIV) architecture: 2 for a mix AIC:AIV 1:2 kernel
    )


_GLOBAL = re.compile(r"\b__global__\b")
_QUALIFIERS = re.compile(
    r"\b(?:__global__|__aicore__|__vector__|__cube__|__mix__(?:\([^)]*\))?|inline|static)\b"
)


def _blank_non_code(text: str) -> str:
    mask = code_mask(text)
    return "".join(ch if mask[i] or ch == "\n" else " " for i, ch in enumerate(text))


_TASK_TYPE = re.compile(r"KERNEL_TASK_TYPE(?:_DEFAULT)?\s*\([^)]*?KERNEL_TYPE_(\w+)\s*\)")
_MATMUL_API = re.compile(r"\bREGIST_MATMUL_OBJ\b|\bMatmul\s*<|\bMatmulImpl\s*<")


def _task_ratio(qualifiers: str, body: str, unit: str) -> int:
    """AIV cores per block: `__mix__(1, 2)` or KERNEL_TYPE_MIX_AIC_1_2 -> 2 (GetTaskRatio.md); `__vector__`,
    `__cube__`, other kernel types -> 1; an `__aicore__` kernel whose unit uses the Matmul high-level API
    (without ASCENDC_CUBE_ONLY) is compiled as mix AIC:AIV 1:2 -> 2."""
    m = re.search(r"__mix__\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)", qualifiers)
    if m:
        aic, aiv = int(m.group(1)), int(m.group(2))
        return max(1, aiv // aic) if aic else 1
    if re.search(r"\b__vector__\b|\b__cube__\b", qualifiers):
        return 1
    k = _TASK_TYPE.search(body)
    if k:
        return 2 if k.group(1) == "MIX_AIC_1_2" else 1
    if _MATMUL_API.search(unit) and "ASCENDC_CUBE_ONLY" not in unit:
        return 2
    return 1


def kernel_signatures(text: str, context: str = "") -> list[KernelSignature]:
    """The `__global__` kernel definitions of a source (declarations without a body are skipped). `context`:
    text of the headers the source includes, for the mix-kernel test (task_ratio)."""
    code = _blank_non_code(text)
    mask = code_mask(code)
    out: list[KernelSignature] = []
    for m in _GLOBAL.finditer(code):
        paren = code.find("(", m.end())
        semi = code.find(";", m.end())
        if paren < 0 or (semi >= 0 and semi < paren):
            continue
        head = code[m.start() : paren]
        # __mix__(1, 2) is a qualifier with its own parentheses: skip past it
        while re.search(r"__mix__\s*$", head):
            paren = code.find("(", code.find(")", paren) + 1)
            head = code[m.start() : paren]
        name_m = re.search(r"([A-Za-z_]\w*)\s*$", head)
        if not name_m:
            continue
        try:
            close = matching(code, mask, paren)
        except LoweringError:
            continue
        if not code[close:].lstrip().startswith("{"):
            continue
        before = text[max(0, m.start() - 300) : m.start()]
        # qualifiers between `template <...>` and the kernel: extern "C", __aicore__, __mix__(1, 2) (with arguments)
        lead = re.search(r'(?:(?:extern\s+"C"|__\w+__(?:\s*\([^()]*\))?)\s*)*$', before)
        prefix = before[: lead.start()] if lead else before
        template = bool(re.search(r"template\s*<[^;{}]*>\s*$", prefix))
        extern_c = bool(lead and "extern" in lead.group(0))
        params = _split_params(code[paren + 1 : close - 1])
        brace = code.index("{", close)
        try:
            body = code[brace : matching(code, mask, brace)]
        except LoweringError:
            body = code[brace:]
        decl_start = max(code.rfind(";", 0, m.start()), code.rfind("}", 0, m.start())) + 1
        qualifiers = code[decl_start:paren]
        out.append(
            KernelSignature(
                name=name_m.group(1),
                params=params,
                line=_line_of(text, m.start() + name_m.start(1)),
                extern_c=extern_c,
                template=template,
                task_ratio=_task_ratio(qualifiers, body, code + "\n" + context),
            )
        )
    return out


def _count_args(text: str) -> int:
    """The number of top-level comma-separated arguments of a call's argument text."""
    return len(split_top_level(text))


def _split_params(text: str) -> list[KernelParam]:
    items = split_top_level(text)
    out: list[KernelParam] = []
    for raw in items:
        p = " ".join(raw.split())
        if not p or p == "void":
            continue
        p = p.split("=")[0].strip()  # default arguments
        m = re.match(r"(.*?)([A-Za-z_]\w*)\s*(\[[^\]]*\])?$", p)
        if not m or not m.group(1).strip():
            out.append(KernelParam(type=p, name=f"arg{len(out)}"))
            continue
        out.append(KernelParam(type=m.group(1).strip() + (m.group(3) or ""), name=m.group(2)))
    return out


_SCALAR = re.compile(
    r"^(?:const\s+)?(?:unsigned\s+|signed\s+)?(?:u?int(?:8|16|32|64)_t|int|unsigned|long(?:\s+long)?|short|char|"
    r"bool|float|double|half|bfloat16_t|size_t|uint|int64|uint64)(?:\s+int)?$"
)


def _is_struct(p: KernelParam) -> bool:
    """A parameter passed by value that is not a scalar: a tiling struct."""
    return not p.is_pointer and not _SCALAR.match(re.sub(r"\b__gm__\b\s*", "", p.type).strip())


def _host_type(p: KernelParam) -> str:
    """The parameter as the generated header declares it: GM pointers as void*, structs by host pointer (the
    samples pass `&tiling`-style host pointers: ACLRT_LAUNCH_KERNEL(add_custom)(..., tilingHostPtr))."""
    if p.is_pointer:
        return "void*"
    t = re.sub(r"\b__gm__\b\s*", "", p.type).strip()
    return f"{t}*" if _is_struct(p) else t


def aclrtlaunch_header(sig: KernelSignature) -> str:
    """`aclrtlaunch_<kernel>.h`: the declaration `ACLRT_LAUNCH_KERNEL(kernel)` expands to."""
    params = "".join(f", {_host_type(p)} {p.name}" for p in sig.params)
    guard = f"ASCENDC_EMU_ACLRTLAUNCH_{sig.name.upper()}_H_"
    return (
        f"// generated by ascendc-lsp for the kernel '{sig.name}' (what ascendc_library() generates)\n"
        f"#ifndef {guard}\n#define {guard}\n"
        "#include <cstdint>\n"
        '#include "ascendc_emu/launch.h"\n'
        "#ifndef ACLRT_LAUNCH_KERNEL\n#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func\n#endif\n"
        f'extern "C" uint32_t aclrtlaunch_{sig.name}(uint32_t blockDim, void* stream{params}, '
        "::ascendc_emu::Loc ascendc_emu_loc = ::ascendc_emu::Loc());\n"
        f"#endif  // {guard}\n"
    )


def aclrtlaunch_definitions(sigs: list[KernelSignature], original_path: str) -> str:
    """Definitions of the `aclrtlaunch_<kernel>` functions, appended to the kernel's lowered source."""
    out: list[str] = []
    for sig in sigs:
        if sig.template:
            continue
        params = "".join(f", {_host_type(p)} {p.name}" for p in sig.params)
        args = ", ".join(
            f"({p.type}){p.name}" if p.is_pointer else f"*{p.name}" if _is_struct(p) else p.name
            for p in sig.params
        )
        out.append(f"#line {sig.line} {json.dumps(original_path)}")
        out.append(
            f'extern "C" uint32_t aclrtlaunch_{sig.name}(uint32_t blockDim, void* stream{params}, '
            "::ascendc_emu::Loc ascendc_emu_loc) { "
            f"::ascendc_emu::kernel_launch({json.dumps(sig.name)}, ascendc_emu_loc.file, ascendc_emu_loc.line, "
            f"[&](auto&&... {ARG_PACK}) {{ {sig.name}({ARG_PACK}...); }}"
            + (f", ASCENDC_EMU_WORKSPACE_FROM_END, {sig.task_ratio}" if sig.task_ratio != 1 else "")
            + f")(blockDim, nullptr, stream)({args}); "
            "return 0; }"
        )
    return "\n".join(out) + ("\n" if out else "")


def kernel_registrations(sigs: list[KernelSignature], original_path: str) -> str:
    """Registrations of the kernels launchable by name (aclrtBinaryGetFunction + aclrtLaunchKernel*), appended to
    the kernel's lowered source: a thunk per kernel unpacks the appended argument bytes in parameter order."""
    out: list[str] = []
    for sig in sigs:
        if sig.template:
            continue
        unpack = " ".join(
            f"{p.type} {p.name}{{}}; if (!::ascendc_emu::take_arg(&{p.name}, sizeof({p.name}), ascendc_emu_args, "
            "ascendc_emu_size, ascendc_emu_off)) return false;"
            for p in sig.params
        )
        names = ", ".join(p.name for p in sig.params)
        out.append(f"#line {sig.line} {json.dumps(original_path)}")
        out.append(
            f"static const bool ascendc_emu_registered_{sig.name} = ::ascendc_emu::register_kernel("
            f"{json.dumps(sig.name)}, [](uint32_t ascendc_emu_blocks, void* ascendc_emu_stream, "
            "const uint8_t* ascendc_emu_args, size_t ascendc_emu_size, const ::ascendc_emu::Loc& ascendc_emu_loc) "
            f"-> bool {{ size_t ascendc_emu_off = 0; {unpack} if (ascendc_emu_off != ascendc_emu_size) return false; "
            f"::ascendc_emu::kernel_launch({json.dumps(sig.name)}, ascendc_emu_loc.file, ascendc_emu_loc.line, "
            f"[&](auto&&... {ARG_PACK}) {{ {sig.name}({ARG_PACK}...); }}, ASCENDC_EMU_WORKSPACE_FROM_END, "
            f"{sig.task_ratio})(ascendc_emu_blocks, nullptr, ascendc_emu_stream)({names}); return true; }});"
        )
    return "\n".join(out) + ("\n" if out else "")


__all__ = [
    "KernelParam",
    "KernelSignature",
    "Launch",
    "Lowered",
    "LoweringError",
    "aclrtlaunch_definitions",
    "aclrtlaunch_header",
    "code_mask",
    "find_launches",
    "kernel_registrations",
    "kernel_signatures",
    "lower_text",
]
