"""Prompts for the checked generate/rewrite loop, carrying the hardware priors.

Each prompt states: the SoC's numbers (UB size, alignment, repeat limit, cores, DataCopyPad), the API catalogue
entries the spec needs, one or two example kernels close to the task, the exact kernel interface the harness
calls, and the required output format (one fenced C++ block). Feedback prompts add the verdict, the failing lines
and the retrieved knowledge (rationale + fix).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ascendc_lsp.hardware.limits import DEFAULT_SOC

if TYPE_CHECKING:
    from ascendc_lsp.toolchain.spec import KernelSpec

log = logging.getLogger(__name__)

MAX_EXAMPLE_CHARS = 4500
MAX_FIX_CHARS = 1800

OUTPUT_FORMAT = (
    "Answer with exactly one fenced code block (```cpp ... ```) holding the complete kernel source file: "
    '#include "kernel_operator.h", any tiling struct, the kernel class, and the entry point '
    '`extern "C" __global__ __aicore__ void {kernel}(...)`. No host code, no main(), no other code blocks. '
    "Keep any explanation to two sentences after the block."
)

SYSTEM_RULES = """You write AscendC kernels (C++ for the AI Core of Huawei Ascend NPUs). Rules that matter on the hardware:
- Device code has no C library: no expf/logf/sqrtf/powf/tanhf/fabsf, no std::, no new/malloc, no double, no printf, no virtual functions, no recursion. Use the vector APIs (Exp, Ln, Sqrt, Abs, Max, Min, Muls, Adds, ...) on LocalTensors.
- Data moves GM -> UB with DataCopy (MTE2), is computed on UB by the vector unit, and moves back with DataCopy (MTE3). DataCopy's length in bytes must be a multiple of {datacopy_len} B, otherwise it is silently rounded down; copy a ragged tail with DataCopyPad{pad_note}.
- UB is {ub_kb} KB ({ub_usable:,} B usable); all InitBuffer sizes together (each rounded up to 32 B, times the buffer count) must fit. UB addresses and sub-tensor offsets must be 32-byte aligned.
- Vector instructions process {repeat_bytes} B per repeat, at most {max_repeat} repeats per call with the mask/repeat form; the count form (Add(dst, a, b, count)) handles any count.
- Pipes run in parallel: use TQue AllocTensor/EnQue/DeQue/FreeTensor (which carry the synchronisation) between CopyIn, Compute and CopyOut; with TBuf or scalar GetValue/SetValue on vector results, add SetFlag/WaitFlag (or PipeBarrier) yourself.
- Split work across GetBlockNum() blocks with GetBlockIdx(), and handle the remainder when a length does not divide evenly (the last block or tile gets the tail).
- Vector dtypes on {soc}: binary ops {binary}; Exp/Ln/Sqrt {transcendental}; reductions {reduce}. Compute fp16 transcendentals and reductions in float32 (Cast) when precision matters; bf16 needs a Cast to float for arithmetic."""


@dataclass
class Advice:
    """One knowledge entry retrieved for a failure, as the prompt shows it."""

    entry_id: str
    title: str
    category: str
    summary: str
    rationale: str
    before: str = ""
    after: str = ""
    score: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"id": self.entry_id, "title": self.title, "category": self.category, "score": round(self.score, 4)}


@dataclass
class Failure:
    """What went wrong with an attempt, in prompt terms."""

    stage: str
    summary: str
    diagnostics: list[dict[str, Any]] = field(default_factory=list)
    lines: list[tuple[int, str]] = field(default_factory=list)  # (1-based line, text) of the failing lines


# ------------------------------------------------------------------------------------------- hardware priors


def soc_priors(soc_name: str) -> dict[str, Any]:
    """The numbers the prompt quotes, from the SoC profile (with documented fallbacks)."""
    from ascendc_lsp.hardware.limits import limits_for_soc

    # Without a profile, the documented defaults of the SoC's family (the same ones the rules use).
    defaults = limits_for_soc(None, soc_name)
    priors: dict[str, Any] = {
        "soc": soc_name,
        "ub_bytes": defaults.ub_bytes,
        "ub_usable": defaults.ub_usable_bytes,
        "ub_align": defaults.ub_align,
        "datacopy_len": defaults.ub_align,
        "repeat_bytes": defaults.bytes_per_repeat,
        "max_repeat": defaults.max_repeat,
        "aiv_cores": defaults.vector_cores,
        "datacopypad": defaults.datacopypad,
        "binary": "half, float, int16, int32",
        "transcendental": "half, float",
        "reduce": "half, float",
    }
    try:
        from ascendc_lsp.hardware.soc import get_soc

        p = get_soc(soc_name)
    except Exception as exc:
        log.info("no SoC profile for %s (%s): prompts use the %s figures", soc_name, exc, DEFAULT_SOC)
        return priors
    mem, align, vec = p.memory, p.alignment, p.vector
    priors.update(soc=p.display_name)
    if mem.ub_bytes:
        priors["ub_bytes"] = mem.ub_bytes
        priors["ub_usable"] = mem.ub_usable_bytes or mem.ub_bytes
    priors["ub_align"] = align.ub_bytes or 32
    priors["datacopy_len"] = align.datacopy_len_bytes or 32
    priors["repeat_bytes"] = vec.bytes_per_repeat or 256
    priors["max_repeat"] = vec.max_repeat or 255
    priors["aiv_cores"] = p.cores.aiv
    if p.features.datacopypad is not None:
        priors["datacopypad"] = bool(p.features.datacopypad)
    d = p.dtypes
    if d.vector_binary:
        priors["binary"] = ", ".join(d.vector_binary)
    if d.vector_unary_transcendental:
        priors["transcendental"] = ", ".join(d.vector_unary_transcendental)
    if d.reduce:
        priors["reduce"] = ", ".join(d.reduce)
    if priors["aiv_cores"] is None:  # the profile leaves it to the variants: the adapter's figure (as the emulator)
        priors["aiv_cores"] = limits_for_soc(p, soc_name).vector_cores
    return priors


def system_prompt(soc_name: str) -> str:
    p = soc_priors(soc_name)
    pad_note = "" if p["datacopypad"] else f" (not available on {p['soc']}: pad the tile to 32 B instead)"
    text = SYSTEM_RULES.format(
        datacopy_len=p["datacopy_len"],
        pad_note=pad_note,
        ub_kb=p["ub_bytes"] // 1024,
        ub_usable=p["ub_usable"],
        repeat_bytes=p["repeat_bytes"],
        max_repeat=p["max_repeat"],
        soc=p["soc"],
        binary=p["binary"],
        transcendental=p["transcendental"],
        reduce=p["reduce"],
    )
    if p["aiv_cores"]:
        text += f"\n- {p['soc']} has {p['aiv_cores']} vector cores (AIV); block_dim above that runs in waves."
    return text


# ------------------------------------------------------------------------------------------- API catalogue

# numpy / description words -> AscendC APIs the kernel will likely need
_API_HINTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"np\.exp\b|\bexp\b|softmax|sigmoid|gelu|silu|swish|elu\b", ("Exp",)),
    (r"np\.log\b|\blog\b|logsumexp", ("Ln",)),
    (r"np\.sqrt|rsqrt|norm\b|hypot|rms", ("Sqrt",)),
    (r"np\.abs|\babs\b", ("Abs",)),
    (r"np\.maximum|relu|clip|np\.clip", ("Maxs", "Max")),
    (r"np\.minimum|clip|np\.clip", ("Mins", "Min")),
    (r"np\.tanh|tanh|gelu", ("Tanh",)),
    (r"\.sum\(|np\.sum|mean|softmax|norm|reduce", ("ReduceSum", "WholeReduceSum")),
    (r"\.max\(|np\.max\b|amax|softmax", ("ReduceMax", "WholeReduceMax")),
    (r"astype|float16|bfloat16|cast", ("Cast",)),
    (r"np\.where|select|mask|compare|>=|<=|>|<", ("Compare", "Select")),
    (r"np\.matmul|@|matmul|np\.dot|gemm", ("Mmad", "Matmul")),
    (r"/|divide|mean|softmax", ("Div", "Muls")),
    (r"\*", ("Mul", "Muls")),
    (r"\+", ("Add", "Adds")),
    (r"-", ("Sub", "Adds")),
    (r"leaky", ("LeakyRelu",)),
    (r"\brelu\b", ("Relu",)),
    (r"broadcast|\[:, *None\]|keepdims", ("Brcb", "Duplicate")),
)
_ALWAYS = ("DataCopy", "DataCopyPad", "InitBuffer", "AllocTensor", "EnQue", "DeQue", "FreeTensor", "GetBlockIdx")


def relevant_apis(spec: KernelSpec, extra_text: str = "") -> list[str]:
    text = " ".join([spec.reference or "", spec.description or "", spec.kernel, extra_text]).lower()
    names: list[str] = []
    for pattern, apis in _API_HINTS:
        if re.search(pattern, text):
            names.extend(apis)
    if any(t.dtype != spec.outputs[0].dtype for t in spec.inputs) if spec.outputs else False:
        names.append("Cast")
    return list(dict.fromkeys([*_ALWAYS, *names]))


@cache
def _catalogue() -> Any:
    try:
        from ascendc_lsp.hardware.api_catalogue import load_api_catalogue

        return load_api_catalogue()
    except Exception as exc:
        log.info("API catalogue unavailable (%s): prompts list no API entries", exc)
        return None


def api_section(spec: KernelSpec, soc_name: str, limit: int = 14, extra_text: str = "") -> str:
    cat = _catalogue()
    if cat is None:
        return ""
    lines: list[str] = []
    for name in relevant_apis(spec, extra_text)[:limit]:
        entry = cat.by_name(name)
        if entry is None:
            continue
        sigs = [ov.signature for ov in entry.overloads[:2] if getattr(ov, "signature", "")]
        sig = sigs[0] if sigs else name
        sig = re.sub(r"\s*__aicore__\s+inline\s+", " ", sig)
        item = f"- {entry.qualified_name}: {entry.description.strip()}\n  {sig}"
        if len(sigs) > 1:
            item += "\n  " + re.sub(r"\s*__aicore__\s+inline\s+", " ", sigs[1])
        constraints = "; ".join(entry.constraints[:3])
        if constraints:
            item += f"\n  constraints: {constraints}"
        try:
            dtypes = cat.dtypes_supported(entry, soc_name)
        except Exception:
            dtypes = None
        if dtypes:
            item += f"\n  dtypes on {soc_name}: {', '.join(sorted(dtypes)[:12])}"
        elif dtypes is not None and not dtypes:
            item += f"\n  NOT available on {soc_name}"
        lines.append(item)
    if not lines:
        return ""
    return "AscendC APIs you will likely need (from the API catalogue):\n" + "\n".join(lines)


# ------------------------------------------------------------------------------------------- examples

_EXAMPLE_TOPICS: tuple[tuple[str, str], ...] = (
    (r"softmax|logsumexp", "softmax_rows"),
    (r"\.sum\(|np\.sum|mean|reduce|\.max\(|norm", "reduce_rows"),
    (r"astype|cast|hypot|float16.*float32", "cast_hypot"),
    (r"where|leaky|relu|tail|\b\d*[13579]\b", "leaky_relu_tail"),
)


def examples_dir() -> Path | None:
    try:
        from ascendc_lsp.resources import data_root

        folder = data_root() / "examples"
    except Exception:
        return None
    return folder if folder.is_dir() else None


def pick_examples(spec: KernelSpec, count: int = 2) -> list[tuple[str, str]]:
    """(name, source) of up to `count` example kernels close to the spec; the double-buffered add first."""
    folder = examples_dir()
    if folder is None:
        return []
    text = " ".join([spec.reference or "", spec.description or "", spec.kernel]).lower()
    ragged = any(t.size % 16 for t in (*spec.inputs, *spec.outputs))
    names: list[str] = []
    for pattern, name in _EXAMPLE_TOPICS:
        if re.search(pattern, text) or (name == "leaky_relu_tail" and ragged):
            names.append(name)
    names = [*names, "add_double_buffer"]
    out: list[tuple[str, str]] = []
    for name in dict.fromkeys(names):
        if name == spec.kernel:
            continue
        src = folder / name / f"{name}.cpp"
        try:
            code = src.read_text(encoding="utf-8")
        except OSError:
            continue
        if len(code) > MAX_EXAMPLE_CHARS:
            code = code[:MAX_EXAMPLE_CHARS] + "\n// ... (example truncated)\n"
        out.append((name, code))
        if len(out) >= count:
            break
    return out


# ------------------------------------------------------------------------------------------- the task


def _ctype(value: Any) -> str:
    if isinstance(value, bool):
        return "uint32_t"
    if isinstance(value, int):
        return "int64_t" if abs(value) >= 2**31 else "uint32_t" if value >= 0 else "int32_t"
    if isinstance(value, float):
        return "float"
    return "uint32_t"


def interface_section(spec: KernelSpec) -> str:
    lines = [f"Kernel entry name: {spec.kernel}", f"Launched with block_dim = {spec.block_dim} (GetBlockNum())."]
    params: list[str] = []
    for name in spec.param_order():
        t = spec.tensor(name)
        if t is not None:
            params.append(f"GM_ADDR {name}")
            role = "input" if t in spec.inputs else "output"
            lines.append(
                f"- {name}: {role}, shape {list(t.shape)}, dtype {t.dtype} (C++ {t.ctype}), {t.size} elements, "
                f"{t.nbytes} bytes"
            )
        elif name == "workspace":
            params.append("GM_ADDR workspace")
            lines.append(f"- workspace: {spec.workspace_bytes} bytes of GM scratch")
        elif name == "tiling" and spec.tiling is not None:
            tl = spec.tiling
            if tl.pass_mode == "value":
                params.append(f"{tl.struct} tiling")
            else:
                params.append("GM_ADDR tiling")
            fields = ", ".join(f"{_ctype(v)} {k}" for k, v in tl.fields.items())
            values = ", ".join(f"{k} = {v}" for k, v in tl.fields.items())
            if tl.header is None:
                lines.append(
                    f"- tiling: define `struct {tl.struct} {{ {fields}; }};` in the file (exactly these field names); "
                    f"the host fills it with {values}"
                )
            else:
                lines.append(f"- tiling: struct {tl.struct} from {tl.header.name} (fields {values})")
            if tl.pass_mode != "value":
                lines.append(
                    f"  passed as a GM pointer: read it with GET_TILING_DATA(tilingData, tiling) or copy the "
                    f"{tl.struct} out of GM"
                )
    lines.insert(
        0, f'Signature: extern "C" __global__ __aicore__ void {spec.kernel}({", ".join(params)})'
    )
    return "\n".join(lines)


def task_section(spec: KernelSpec) -> str:
    parts = [interface_section(spec)]
    if spec.description:
        parts.append(f"What it computes: {spec.description.strip()}")
    if spec.reference:
        parts.append("Reference (NumPy; the kernel's outputs must match it):\n```python\n" + spec.reference.strip()
                     + "\n```")
    tol = []
    for out in spec.outputs:
        t = spec.tolerance_for(out)
        tol.append(f"{out.name}: rtol {t.rtol:g}, atol {t.atol:g}")
    parts.append("Tolerance: " + "; ".join(tol))
    if spec.defines:
        parts.append("Preprocessor defines: " + ", ".join(f"{k}={v}" for k, v in spec.defines.items()))
    return "\n\n".join(parts)


def examples_section(spec: KernelSpec, count: int = 2) -> str:
    picked = pick_examples(spec, count)
    if not picked:
        return ""
    blocks = [f"Example kernel `{name}` (correct on the toolchain):\n```cpp\n{code.rstrip()}\n```" for name, code in picked]
    return "\n\n".join(blocks)


def draft_messages(spec: KernelSpec, soc_name: str, *, examples: int = 2) -> list[dict[str, str]]:
    user = [
        "Write an AscendC kernel for this specification.",
        task_section(spec),
        api_section(spec, soc_name),
        examples_section(spec, examples),
        OUTPUT_FORMAT.format(kernel=spec.kernel),
    ]
    return [
        {"role": "system", "content": system_prompt(soc_name)},
        {"role": "user", "content": "\n\n".join(p for p in user if p)},
    ]


def rewrite_messages(
    spec: KernelSpec,
    soc_name: str,
    source: str,
    *,
    goal: str = "correct",
    focus: str | None = None,
    diagnostics: Sequence[dict[str, Any]] = (),
    estimate: dict[str, Any] | None = None,
) -> list[dict[str, str]]:
    """Rewrite an existing kernel: make it correct (goal "correct") or faster and still correct ("faster")."""
    ask = (
        "Rewrite this AscendC kernel so that it is correct on the hardware and matches the reference."
        if goal == "correct"
        else "Optimise this AscendC kernel: keep it correct and make it faster by the cost model."
    )
    parts = [ask, task_section(spec), f"Current source:\n```cpp\n{source.rstrip()}\n```"]
    if focus:
        parts.append(f"Concentrate on `{focus}`; keep the rest unless it must change, and keep the entry signature.")
    if diagnostics:
        parts.append("Diagnostics on the current source:\n" + "\n".join(_diag_line(d) for d in diagnostics[:12]))
    if estimate:
        parts.append(estimate_text(estimate))
    parts.append(api_section(spec, soc_name, limit=10, extra_text=source))
    parts.append(OUTPUT_FORMAT.format(kernel=spec.kernel))
    return [
        {"role": "system", "content": system_prompt(soc_name)},
        {"role": "user", "content": "\n\n".join(p for p in parts if p)},
    ]


# ------------------------------------------------------------------------------------------- feedback


def _diag_line(d: dict[str, Any]) -> str:
    start = d.get("range", {}).get("start", {})
    line = start.get("line")
    where = f"line {line + 1}" if isinstance(line, int) else "?"
    tag = ", ".join(x for x in (d.get("code") or "", d.get("category") or "") if x)
    message = str(d.get("message", "")).strip().splitlines()
    first = message[0] if message else ""
    return f"- {where}: {d.get('severity', 'error')} [{tag}] {first}"


def estimate_text(estimate: dict[str, Any]) -> str:
    pipes = estimate.get("pipes") or {}
    busy = ", ".join(f"{k} {v:,}" for k, v in pipes.items() if v)
    notes = "; ".join(estimate.get("notes") or [])
    text = (
        f"Cost model estimate: {estimate.get('microseconds', 0):.2f} us ({estimate.get('cycles', 0):,} cycles), "
        f"bottleneck {estimate.get('bottleneck', '?')}"
    )
    if busy:
        text += f"; busy cycles per pipe on the critical core: {busy}"
    if notes:
        text += f". Notes: {notes}"
    return text


def _shorten(code: str, limit: int) -> str:
    return code if len(code) <= limit else code[:limit] + "\n// ..."


def advice_section(advice: Sequence[Advice]) -> str:
    if not advice:
        return ""
    parts = ["Knowledge about this failure (from reviewed entries; apply what fits):"]
    for i, a in enumerate(advice, 1):
        item = f"{i}. {a.title} [{a.category}]\n   Why: {a.rationale.strip()}\n   Fix: {a.summary.strip()}"
        if a.before and a.after:
            item += (
                f"\n   Before:\n```cpp\n{_shorten(a.before.strip(), MAX_FIX_CHARS)}\n```\n"
                f"   After:\n```cpp\n{_shorten(a.after.strip(), MAX_FIX_CHARS)}\n```"
            )
        parts.append(item)
    return "\n".join(parts)


def failure_section(failure: Failure) -> str:
    parts = [f"Your last kernel failed at the {failure.stage} stage: {failure.summary}"]
    if failure.diagnostics:
        parts.append("Diagnostics:\n" + "\n".join(_diag_line(d) for d in failure.diagnostics[:12]))
    if failure.lines:
        parts.append("Failing lines:\n" + "\n".join(f"{n:4d} | {text}" for n, text in failure.lines[:12]))
    return "\n\n".join(parts)


def feedback_message(spec: KernelSpec, failure: Failure, advice: Sequence[Advice]) -> dict[str, str]:
    parts = [
        failure_section(failure),
        advice_section(advice),
        "Fix the kernel. Return the complete corrected source file. " + OUTPUT_FORMAT.format(kernel=spec.kernel),
    ]
    return {"role": "user", "content": "\n\n".join(p for p in parts if p)}


def no_code_message(spec: KernelSpec, reason: str) -> dict[str, str]:
    return {
        "role": "user",
        "content": f"I could not use your answer: {reason}. " + OUTPUT_FORMAT.format(kernel=spec.kernel),
    }


def refine_message(spec: KernelSpec, estimate: dict[str, Any], round_no: int) -> dict[str, str]:
    text = (
        f"The kernel above is correct. {estimate_text(estimate)}.\n\nMake it faster (refinement round {round_no}) "
        "while keeping it correct: overlap copies and compute with double buffering (BUFFER_NUM = 2), use all "
        "blocks, make copies large and 32-byte aligned (512 B aligned GM addresses are fastest), avoid scalar "
        "loops over elements, and keep the tiles within UB. Only faster, still-correct kernels are kept. "
        + OUTPUT_FORMAT.format(kernel=spec.kernel)
    )
    return {"role": "user", "content": text}


def rationale_messages(failure: Failure, diff: str) -> list[dict[str, str]]:
    """Ask the model why its fix worked, in the knowledge base's rationale style (for a candidate entry)."""
    return [
        {
            "role": "system",
            "content": "You explain AscendC kernel bugs for a knowledge base of hardware rules. Be concrete and brief.",
        },
        {
            "role": "user",
            "content": (
                f"{failure_section(failure)}\n\nThis change fixed it:\n```diff\n{_shorten(diff, 6000)}\n```\n\n"
                "In at most three sentences: state the hardware or API rule that the failing version broke and why "
                "the change satisfies it, with the numbers involved (bytes, alignment, limits). Then, on a last "
                "line starting with `TITLE:`, give a title of at most ten words. No code."
            ),
        },
    ]


__all__ = [
    "OUTPUT_FORMAT",
    "Advice",
    "Failure",
    "advice_section",
    "api_section",
    "draft_messages",
    "estimate_text",
    "examples_section",
    "failure_section",
    "feedback_message",
    "interface_section",
    "no_code_message",
    "pick_examples",
    "rationale_messages",
    "refine_message",
    "relevant_apis",
    "rewrite_messages",
    "soc_priors",
    "system_prompt",
    "task_section",
]
