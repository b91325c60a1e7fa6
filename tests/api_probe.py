"""Compile-probes for API prototypes: turn a documented C++ prototype into a call and ask g++ whether the
emulator headers accept it.

Each probe is a function `void probe_N() { <declarations>; <call>; }` in one translation unit compiled with
`-fsyntax-only`; a probe fails when any diagnostic (an error, or the `required from here` of an error inside a
header) points into its lines. Used by the catalogue-emulator agreement test (tests/test_api_agreement.py).
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ascendc_lsp.hardware.api_catalogue import Param, TemplateParam, parse_signature

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = ROOT / "server" / "ascendc_lsp" / "toolchain" / "emulator" / "include"

# How a probe gets an object of a class whose members it calls (T of the class is `half`).
CLASS_OBJECTS: dict[str, str] = {
    "TPipe": "TPipe",
    "TQue": "TQue<TPosition::VECIN, 1>",
    "TQueBind": "TQueBind<TPosition::VECIN, TPosition::VECOUT, 1>",
    "TBuf": "TBuf<TPosition::VECCALC>",
    "LocalTensor": "LocalTensor<half>",
    "GlobalTensor": "GlobalTensor<half>",
    "TBufPool": "TBufPool<TPosition::VECCALC>",
    "GroupBarrier": "GroupBarrier<PipeMode::MTE3_MODE>",
    "LocalMemAllocator": "LocalMemAllocator<Hardware::UB>",
    "TQueSync": "TQueSync<PIPE_MTE2, PIPE_V>",
    "TensorDesc": "TensorDesc<half>",
    "Matmul": (
        "Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>, "
        "MatmulType<TPosition::GM, CubeFormat::ND, float>>"
    ),
}
_WORD = re.compile(r"[A-Za-z_]\w*")
_QUALIFIERS = re.compile(r"\b(const|volatile|__gm__|__ubuf__|__aicore__|inline|constexpr|typename)\b")


@dataclass
class Probe:
    """One generated call; `ok` is filled by `run_probes`."""

    key: str
    lines: list[str]
    ok: bool | None = None
    errors: list[str] = field(default_factory=list)


def _substitute(text: str, types: dict[str, str]) -> str:
    return _WORD.sub(lambda m: types.get(m.group(0), m.group(0)), text)


def _declaration(ptype: str, var: str) -> str:
    """A default-initialised lvalue `var` that binds to a parameter of type `ptype`."""
    t = ptype.strip()
    arr = re.search(r"(\(\s*&\s*\))?\s*\[([^\]]*)\]\s*$", t)
    if arr:
        base = _QUALIFIERS.sub("", t[: arr.start()]).strip()
        size = arr.group(2).strip() or "2"
        return f"{base} {var}[{size}] = {{}};"
    base = _QUALIFIERS.sub("", t).replace("&", "").strip()
    if base.endswith("*"):
        return f"{base} {var} = nullptr;"
    return f"{base} {var}{{}};"


# Values for non-type template parameters a probe has to spell out (by parameter kind).
NON_TYPE_VALUES: dict[str, str] = {"TPosition": "TPosition::VECCALC", "bool": "true"}
# Class template parameters that member signatures name (T of each class is `half`).
CLASS_TYPES: dict[str, dict[str, str]] = {
    "TPipe": {"T": "TQue<TPosition::VECIN, 1>"},
    "LocalTensor": {"PrimType": "half", "T": "half"},
    "GlobalTensor": {"PrimType": "half", "T": "half"},
    "Matmul": {"SrcAT": "half", "SrcBT": "half", "BiasT": "float", "DstT": "float", "T": "float"},
}
# Template parameters of single APIs the element-type maps cannot fill: another class's object (TPipe::InitBufPool
# takes a pool, InitBuffer's user-address form integer tuples), pairs of element types, non-type and pattern
# arguments. Keyed by `Class::member` or the function name.
API_TYPES: dict[str, dict[str, str]] = {
    "TPipe::InitBufPool": {"T": "TBufPool<TPosition::VECCALC>", "U": "TBufPool<TPosition::VECCALC>"},
    "TPipe::InitBuffer": {"U": "uint32_t", "V": "uint32_t"},
    "AscendAntiQuant": {"InputDataType": "int8_t", "OutputDataType": "half"},
    "AscendQuant": {"dstT": "hifloat8_t", "srcT": "half"},
    "SoftmaxFlashV3": {"T": "half", "U": "float"},
    "Broadcast": {"dim": "2", "axis": "1"},
    **{name: {"pattern": "Pattern::Reduce::AR"} for name in ("ReduceAll", "ReduceAny", "ReduceMean", "ReduceProd")},
    "GetMatmulApiTiling": {
        "A_TYPE": "MatmulType<TPosition::GM, CubeFormat::ND, half>",
        "B_TYPE": "MatmulType<TPosition::GM, CubeFormat::ND, half>",
        "C_TYPE": "MatmulType<TPosition::GM, CubeFormat::ND, float>",
        "BIAS_TYPE": "MatmulType<TPosition::GM, CubeFormat::ND, float>",
    },
}


def _bind(tparams: tuple[TemplateParam, ...], types: dict[str, str]) -> dict[str, str]:
    """A value for every template parameter: the caller's type map, else the parameter's default, else the
    first mapped element type (typename) or a value of its kind (non-type)."""
    out = dict(types)
    for tp in tparams:
        if not tp.name or tp.name in out:
            continue
        if tp.default is not None:
            out[tp.name] = _substitute(tp.default, out)
        elif tp.kind in ("typename", "class"):
            out[tp.name] = types.get("T", "half")
        else:
            kind = _substitute(tp.kind, out)
            out[tp.name] = NON_TYPE_VALUES.get(kind, f"static_cast<{kind}>(0)")
    return out


def _template_args(tparams: tuple[TemplateParam, ...], params: tuple[Param, ...], bound: dict[str, str]) -> str:
    """Explicit template arguments when some parameter cannot be deduced from the call, else ''."""
    ptext = " ".join(p.type for p in params)
    needed = -1
    for i, tp in enumerate(tparams):
        if tp.default is not None:
            continue
        if not re.search(r"\b" + re.escape(tp.name) + r"\b", ptext):
            needed = i
    if needed < 0:
        return ""
    return "<" + ", ".join(bound.get(tp.name, "half") for tp in tparams[: needed + 1]) + ">"


def make_probe(key: str, name: str, signature: str, types: dict[str, str], class_name: str | None = None) -> Probe:
    """A probe calling `name` as `signature` declares it, template type parameters replaced per `types`."""
    tparams, params = parse_signature(signature, name)
    api = f"{class_name}::{name.split('::')[-1]}" if class_name else name
    bound = _bind(tparams, {**types, **CLASS_TYPES.get(class_name or "", {}), **API_TYPES.get(api, {})})
    body: list[str] = []
    args: list[str] = []
    for i, p in enumerate(params):
        if p.default is not None or "..." in p.type or "..." in p.name:
            continue  # defaulted arguments are left to the callee; packs get no arguments
        var = f"a{i}"
        body.append(_declaration(_substitute(p.type, bound), var))
        args.append(var)
    base = name.split("::")[-1]
    targs = _template_args(tparams, params, bound)
    if class_name:
        body.insert(0, f"{CLASS_OBJECTS[class_name]} obj;")
        if base == "operator[]":
            call = f"(void)obj[{args[0]}];"
        elif base == "operator()":
            call = f"(void)obj({', '.join(args)});"
        else:
            call = f"(void)obj.{'template ' if targs else ''}{base}{targs}({', '.join(args)});"
    else:
        call = f"(void){base}{targs}({', '.join(args)});"
    return Probe(key, [*body, call])


def class_probe(key: str, class_name: str) -> Probe:
    return Probe(key, [f"(void)sizeof({CLASS_OBJECTS.get(class_name, class_name)});"])


def source(probes: list[Probe], includes: tuple[str, ...]) -> tuple[str, dict[int, Probe]]:
    """The probe translation unit and, per line number, the probe that owns it."""
    out = [f'#include "{h}"' for h in includes]
    out += ["namespace probe_ns {", "using namespace AscendC;"]
    owner: dict[int, Probe] = {}
    for n, pr in enumerate(probes):
        start = len(out) + 1
        out.append(f"void probe_{n}() {{")
        out += ["    " + line for line in pr.lines]
        out.append("}")
        for ln in range(start, len(out) + 1):
            owner[ln] = pr
    out.append("}  // namespace probe_ns")
    return "\n".join(out) + "\n", owner


def run_probes(probes: list[Probe], include_dir: Path = INCLUDE,
               includes: tuple[str, ...] = ("kernel_operator.h", "lib/matmul_intf.h", "simt_api/asc_simt.h",
                                            "c_api/asc_simd.h", "utils/debug/asc_dump.h"),
               defines: tuple[str, ...] = ()) -> list[Probe]:
    """Compiles every probe in one g++ -fsyntax-only run and fills `ok` / `errors`. `defines`: -D options (e.g.
    `__NPU_ARCH__=3510` for the APIs one architecture's headers declare)."""
    text, owner = source(probes, includes)
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "probes.cpp"
        src.write_text(text, encoding="utf-8")
        res = subprocess.run(
            ["g++", "-std=c++17", "-fsyntax-only", "-w", "-fmax-errors=0", "-fdiagnostics-plain-output",
             *(f"-D{d}" for d in defines), f"-I{include_dir}", str(src)],
            capture_output=True, text=True, timeout=600,
        )
    for pr in probes:
        pr.ok, pr.errors = True, []
    pat = re.compile(re.escape(str(src)) + r":(\d+):\d+:\s*(.*)")
    current: Probe | None = None  # GCC prints "required from here" (probe line) before the header's error
    for line in res.stderr.splitlines():
        m = pat.search(line)
        if m:
            current = owner.get(int(m.group(1)))
            if current is not None and ("error" in m.group(2) or "required from here" in m.group(2)):
                current.ok = False
                if "error" in m.group(2):
                    current.errors.append(m.group(2))
        elif ": error: " in line and current is not None:
            current.ok = False
            current.errors.append(line.split(": error: ", 1)[1])
    if res.returncode != 0 and all(pr.ok for pr in probes):
        raise RuntimeError("probe compile failed outside any probe: " + res.stderr[-2000:])
    return probes
