"""The op build step on the CPU: test case -> host program (OpDef + TilingFunc) -> kernel build -> KernelSpec.

    from ascendc_lsp.toolchain.opproject.opbuild import run_case
    result = run_case(load_test_case("case.yaml"))

What the real msOpGen build does and we repeat: read the OpDef (by running op_host on the CPU), pick the dtype
variant, define DTYPE_/ORIG_DTYPE_/FORMAT_ macros, generate the kernel-side tiling struct(s) at global scope,
compile op_kernel/<op>.cpp with the project's include folders, run the op's own TilingFunc for block_dim, tiling
key, tiling bytes and workspace size, then launch the kernel with inputs, outputs, workspace, tiling in that order.
Problems with the test case or the project raise OpProjectError; what the project's code does wrong (op_host does
not compile, TilingFunc fails or crashes) comes back as a RunResult with diagnostics on the project's lines.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ascendc_lsp.diagnostics import Diagnostic, span_at
from ascendc_lsp.hardware.limits import DEFAULT_SOC
from ascendc_lsp.hardware.soc import short_soc_version
from ascendc_lsp.paths import atomic_write
from ascendc_lsp.toolchain.base import EMULATOR_SOURCE, RunOptions, RunResult
from ascendc_lsp.toolchain.emulator import build
from ascendc_lsp.toolchain.emulator.soc import load_soc
from ascendc_lsp.toolchain.opproject import host
from ascendc_lsp.toolchain.opproject.discovery import (
    KernelEntry,
    OpProject,
    OpProjectError,
    find_project,
    includes_of,
    public_trees_dir,
    resolve_include_dirs,
)
from ascendc_lsp.toolchain.opproject.opdef import (
    GE_DTYPES,
    OpDef,
    Variant,
    build_macros,
    opdefs_from_description,
    pick_variant,
)
from ascendc_lsp.toolchain.opproject.testcase import CaseTensor, TestCase, output_spec
from ascendc_lsp.toolchain.opproject.tilingstruct import (
    Binding,
    TilingClass,
    bindings_from_description,
    classes_from_description,
    generate_header,
    kernel_registrations,
    struct_for,
)
from ascendc_lsp.toolchain.spec import KernelSpec, SpecError, TensorSpec, TilingSpec

# harness.h Harness::kSysWorkspace: the system workspace the emulator places before the user's bytes; the host
# reports the same number from PlatformAscendC::GetLibApiWorkSpaceSize (16 MB, as on Atlas A2).
SYS_WORKSPACE_BYTES = 16 << 20
TILING_CAPACITY = 64 * 1024
# C library functions an op's kernel entry may be named after (Sqrt -> sqrt): C linkage allows one of each.
C_LIBRARY_NAMES = frozenset(
    [
        "abs",
        "labs",
        "llabs",
        "fabs",
        "div",
        "sqrt",
        "cbrt",
        "exp",
        "exp2",
        "expm1",
        "log",
        "log2",
        "log10",
        "log1p",
        "logb",
        "sin",
        "cos",
        "tan",
        "asin",
        "acos",
        "atan",
        "atan2",
        "sinh",
        "cosh",
        "tanh",
        "asinh",
        "acosh",
        "atanh",
        "erf",
        "erfc",
        "tgamma",
        "lgamma",
        "ceil",
        "floor",
        "trunc",
        "round",
        "lround",
        "rint",
        "nearbyint",
        "fmod",
        "remainder",
        "pow",
        "hypot",
        "fmin",
        "fmax",
        "fdim",
        "fma",
        "copysign",
        "nan",
        "modf",
        "frexp",
        "ldexp",
        "ilogb",
        "scalbn",
        "signbit",
        "isnan",
        "isinf",
        "isfinite",
        "select",
    ]
)


@dataclass
class Described:
    """What the op_host program registers."""

    project: OpProject
    binary: Path
    ops: list[OpDef]
    classes: list[TilingClass]
    bindings: list[Binding]
    dtype_numbers: dict[str, int]
    format_numbers: dict[str, int]

    def op(self, name: str | None) -> OpDef:
        if name is None:
            if len(self.ops) == 1:
                return self.ops[0]
            if not self.ops:
                raise OpProjectError(f"{self.project.op_host}: no op registered (no OP_ADD in op_host/*.cpp)")
            names = ", ".join(o.type for o in self.ops)
            raise OpProjectError(
                f"{self.project.op_host}: several ops are registered ({names}): say which with op:"
            )
        for o in self.ops:
            if o.type == name:
                return o
        names = ", ".join(o.type for o in self.ops) or "none"
        raise OpProjectError(
            f"{self.project.op_host}: op {name} is not registered (OP_ADD registers: {names})"
        )


@dataclass
class KernelBuild:
    """How the kernel translation unit is compiled for one op and dtype variant."""

    entry: KernelEntry
    header: Path
    include_dirs: list[Path]
    struct: str | None
    struct_reason: str
    macros: list[tuple[str, str]] = field(default_factory=list)
    kernel_name: str = ""  # the entry as the harness calls it (renamed when it collides with the C library)


def resolve_case_project(case: TestCase) -> Path:
    if case.project is None:
        raise OpProjectError(f"{case.origin}: project: missing (the op project folder or a file in it)")
    if case.repository is None:
        return case.project
    tree = public_trees_dir() / case.repository.replace("/", "+")
    if not tree.is_dir():
        raise OpProjectError(
            f"{case.origin}: repository {case.repository} is not extracted under {public_trees_dir()} "
            "(bench/corpus.py extracts public repositories)"
        )
    p = (tree / case.project).resolve()
    if not p.exists():
        raise OpProjectError(f"{case.origin}: project {case.project} not found in {case.repository} ({p})")
    return p


def describe_project(
    project: OpProject, timeout: float = 120.0, use_cache: bool = True
) -> Described | host.HostBuild:
    """Build the op_host program and read what it registers; the failed HostBuild when it does not compile."""
    hb = host.build_host(project, timeout=timeout, use_cache=use_cache)
    if hb.binary is None:
        return hb
    binary = hb.binary
    desc = host.describe(binary)
    # ops whose tiling lives elsewhere in the repository (registered by a macro OP_ADD text search cannot see)
    untiled = [str(o["type"]) for o in desc.get("ops", []) if not o.get("has_tiling")]
    extra = host.shared_tiling_sources(project, untiled)
    if extra:
        hb = host.build_host(project, timeout=timeout, use_cache=use_cache, extra=extra)
        if hb.binary is None:
            return hb
        binary = hb.binary
        desc = host.describe(binary)
    return Described(
        project=project,
        binary=binary,
        ops=opdefs_from_description(desc),
        classes=classes_from_description(desc, host.host_include_dir()),
        bindings=bindings_from_description(desc),
        dtype_numbers={str(k): int(v) for k, v in desc.get("dtypes", {}).items()},
        format_numbers={str(k): int(v) for k, v in desc.get("formats", {}).items()},
    )


def kernel_build(d: Described, op: OpDef, variant: Variant, key: int | None) -> KernelBuild:
    """The generated header (macros + tiling structs) and the include folders of op_kernel/<op>.cpp."""
    entry = d.project.kernel_for(op.type)
    text = entry.file.read_text(encoding="utf-8", errors="replace")
    struct, why = struct_for(op.type, key, d.bindings, d.classes, kernel_registrations(text))
    macros = build_macros(op, variant, d.dtype_numbers, d.format_numbers)
    kernel_name = entry.name
    if entry.name in C_LIBRARY_NAMES:
        # an `extern "C"` kernel named like a C library function (sqrt, abs, trunc) cannot coexist with the host
        # C library the emulator links; on the NPU there is none. The entry is renamed for the CPU build.
        kernel_name = f"ascendc_emu_op_{entry.name}"
        macros = [*macros, (entry.name, kernel_name)]
    header_text = generate_header(macros, d.classes, f"op {op.type} ({op.where})")
    digest = hashlib.sha256(header_text.encode()).hexdigest()[:32]
    folder = build.cache_root() / "opbuild" / digest
    header = folder / f"{entry.file.stem}_emu_op_build.h"
    if not header.is_file():
        atomic_write(header, header_text, durable=False)
    proj = d.project
    base = [proj.op_kernel, proj.op_host]
    cxx = build.find_cxx() or "g++"
    found = resolve_include_dirs(
        [entry.file],
        proj.repo_root,
        provided=[build.include_dir(), *base],
        system=build.compiler_include_dirs(cxx),
    )
    return KernelBuild(entry, header, [*base, *found], struct, why, macros, kernel_name)


def platform_lines(soc_name: str | None) -> list[str]:
    """The node's platform, from the SoC profile (toolchain/emulator/soc.py and knowledge/hardware/*.yaml)."""
    soc = load_soc(soc_name)
    v = soc.values
    ub = int(v["ub_bytes"])
    arch = "2201"
    layout = "split"
    try:
        from ascendc_lsp.hardware.soc import find_soc

        prof = find_soc(soc.name)
        if prof is not None:
            if prof.memory.ub_runtime_reserved_bytes:
                ub -= int(prof.memory.ub_runtime_reserved_bytes)  # GetCoreMemSize(UB) (the profile's source)
            arch = str(prof.arch or arch)
            layout = prof.layout or layout
    except Exception:  # a broken profile must not break runs; `kb validate` reports it
        pass
    aiv, aic = int(v["aiv_cores"]), int(v["aic_cores"])
    short = short_soc_version(soc.name)
    return [
        f"platform soc_version {soc.name}",
        f"platform short_soc {short}",
        f"platform npu_arch {arch}",
        f"platform core_num_aiv {aiv}",
        f"platform core_num_aic {aic}",
        f"platform core_num {aiv if layout == 'split' else aic}",
        f"platform ub {ub}",
        f"platform l1 {int(v['l1_bytes'])}",
        f"platform l0a {int(v['l0a_bytes'])}",
        f"platform l0b {int(v['l0b_bytes'])}",
        f"platform l0c {int(v['l0c_bytes'])}",
        f"platform bt {int(v['bt_bytes'])}",
        f"platform sys_workspace {SYS_WORKSPACE_BYTES}",
        f"res SoCInfo ai_core_cnt {aic}",
        f"res SoCInfo vector_core_cnt {aiv}",
        f"res SoCInfo cube_core_cnt {aic}",
        f"res version SoC_version {soc.name}",
        f"res version Short_SoC_version {short.capitalize().replace('ascend', 'Ascend')}",
        f"res AICoreSpec ub_size {ub}",
        f"res AICoreSpec l1_size {int(v['l1_bytes'])}",
        f"res AICoreSpec l0_a_size {int(v['l0a_bytes'])}",
        f"res AICoreSpec l0_b_size {int(v['l0b_bytes'])}",
        f"res AICoreSpec l0_c_size {int(v['l0c_bytes'])}",
    ]


def _attr_line(case: TestCase, op: OpDef, a: Any) -> str:
    if a.name in case.attrs:
        val = case.attrs[a.name]
    elif a.default is not None:
        val = a.default
    elif a.required:
        raise OpProjectError(
            f"{case.origin}: attrs: the op's required attribute '{a.name}' has no value "
            f"(the OpDef at {op.where} gives no default)"
        )
    else:
        val = {"int": 0, "float": 0.0, "bool": False, "str": ""}.get(a.type, [])
    kind = a.type
    try:
        if kind == "int":
            return f"attr int {int(val)}"
        if kind == "float":
            f = float(val)
            return f"attr float {'nan' if math.isnan(f) else repr(f)}"
        if kind == "bool":
            return f"attr bool {1 if val else 0}"
        if kind == "str":
            return f"attr str {val!s}"
        vals = val if isinstance(val, list) else [val]
        if kind == "list_int":
            return f"attr list_int {len(vals)} " + " ".join(str(int(x)) for x in vals)
        if kind == "list_float":
            return f"attr list_float {len(vals)} " + " ".join(repr(float(x)) for x in vals)
        if kind == "list_bool":
            return f"attr list_bool {len(vals)} " + " ".join("1" if x else "0" for x in vals)
    except (TypeError, ValueError):
        raise OpProjectError(
            f"{case.origin}: attrs.{a.name}: {val!r} is not a {kind} (the OpDef at {op.where})"
        ) from None
    raise OpProjectError(
        f"{case.origin}: attrs.{a.name}: attribute type {kind} is not supported by the emulator"
    )


_MIX_MARKS = re.compile(r"\bREGIST_MATMUL_OBJ\b|\bMatmul(?:Impl)?\s*<|KERNEL_TYPE_MIX_AIC_1_[12]\b")
_AIV_ONLY = re.compile(r"KERNEL_TASK_TYPE(?:_DEFAULT)?\s*\([^)]*KERNEL_TYPE_AIV_ONLY")


def mix_ratio(kernel: KernelEntry, include_dirs: list[Path], soc_name: str) -> int:
    """AIV blocks per logical AI core for a kernel that drives the cube through the Matmul API (a mix kernel):
    on a split SoC numBlocks logical cores start numBlocks AIC and ratio x numBlocks AIV
    (docs/zh/api/SIMD-API/基础API/工具接口/系统资源与变量/GetBlockNum.md); 1 for a vector-only kernel."""
    texts = [kernel.file.read_text(encoding="utf-8", errors="replace")]
    for kind, name in includes_of(kernel.file):
        for d in [kernel.file.parent, *include_dirs]:
            q = d / name
            if kind == '"' and q.is_file():
                texts.append(q.read_text(encoding="utf-8", errors="replace"))
                break
    text = "\n".join(texts)
    if _AIV_ONLY.search(text) or not _MIX_MARKS.search(text):
        return 1
    if "KERNEL_TYPE_MIX_AIC_1_1" in text:
        return 1
    try:
        from ascendc_lsp.hardware.soc import find_soc

        prof = find_soc(soc_name)
        if prof is None or prof.layout != "split":
            return 1
        return int(prof.cores.aiv_per_aic or 1)
    except Exception:  # a broken profile must not break runs; `kb validate` reports it
        return 1


@dataclass
class Prepared:
    spec: KernelSpec
    kernel: KernelBuild
    variant: Variant
    host: dict[str, Any]
    notes: list[Diagnostic] = field(default_factory=list)


def _match_params(
    case: TestCase, op: OpDef
) -> tuple[dict[str, list[CaseTensor]], dict[str, list[CaseTensor]]]:
    """The test case's tensors per OpDef parameter (a dynamic parameter's are the members of its `list:`)."""
    in_names = [p.name for p in op.inputs]
    out_names = [p.name for p in op.outputs]
    ins: dict[str, list[CaseTensor]] = {}
    for t in case.inputs:
        key = t.group or t.name
        if key not in in_names:
            raise OpProjectError(
                f"{case.origin}: inputs: '{key}' is not an input of {op.type} (the OpDef at {op.where} has: "
                f"{', '.join(in_names) or 'none'})"
            )
        ins.setdefault(key, []).append(t)
    outs: dict[str, list[CaseTensor]] = {}
    for t in case.outputs:
        n = t.group or t.name
        key = n[:-4] if n.endswith("_ref") and n[:-4] in out_names and n[:-4] in in_names else n
        if key not in out_names:
            raise OpProjectError(
                f"{case.origin}: outputs: '{n}' is not an output of {op.type} (the OpDef at {op.where} has: "
                f"{', '.join(out_names) or 'none'})"
            )
        outs.setdefault(key, []).append(t)
    for params, given, where in ((op.inputs, ins, "inputs"), (op.outputs, outs, "outputs")):
        for p in params:
            ts = given.get(p.name)
            if ts is None:
                if where == "outputs" or p.param_type == "required":
                    raise OpProjectError(
                        f"{case.origin}: {where}: the {'required input' if where == 'inputs' else 'output'} "
                        f"'{p.name}' of {op.type} is missing"
                        + (" (give compare: false to skip checking it)" if where == "outputs" else "")
                    )
                continue
            if p.param_type == "dynamic" and ts[0].group is None:
                raise OpProjectError(
                    f"{case.origin}: {where}: '{p.name}' of {op.type} is a dynamic (tensor list) parameter: give "
                    f"its tensors as `list: [...]`"
                )
            if p.param_type != "dynamic" and ts[0].group is not None:
                raise OpProjectError(
                    f"{case.origin}: {where}: '{p.name}' of {op.type} is one tensor, not a list (the OpDef at "
                    f"{op.where})"
                )
    return ins, outs


def _failure(
    case: TestCase, soc: str, message: str, code: str, file: str, line: int, category: str, stderr: str = ""
) -> RunResult:
    res = RunResult(stage_reached="compile", soc=soc, backend="emulator", source=file)
    res.diagnostics.append(
        Diagnostic(message=message, code=code, category=category, file=file, span=span_at(max(0, line - 1)), source=EMULATOR_SOURCE)
    )
    res.stderr = stderr
    return res


def prepare(case: TestCase, options: RunOptions | None = None) -> Prepared | RunResult:
    """Everything up to the KernelSpec: host build, OpDef, variant, host tiling, kernel build."""
    opts = options or RunOptions()
    soc_name = opts.soc or case.soc or DEFAULT_SOC
    project = find_project(resolve_case_project(case))
    d = describe_project(project, timeout=max(opts.timeout, 120.0), use_cache=opts.use_cache)
    if isinstance(d, host.HostBuild):
        res = RunResult(
            stage_reached="compile", soc=soc_name, backend="emulator", source=str(project.op_host)
        )
        res.diagnostics.extend(d.diagnostics)
        res.stderr = d.log[-20000:]
        return res
    op = d.op(case.op).for_soc(soc_name)
    ins, outs = _match_params(case, op)
    wanted = {n: ts[0].dtype for n, ts in ins.items() if ts[0].dtype}
    wanted.update({n: ts[0].dtype for n, ts in outs.items() if ts[0].dtype})
    try:
        variant = pick_variant(op, wanted)
    except ValueError as exc:
        raise OpProjectError(f"{op.where}: {exc}") from None

    # inputs (and their bytes, for ValueDepend inputs the host reads)
    in_specs: list[TensorSpec] = [t.spec for t in case.inputs if t.spec is not None]
    seeded = KernelSpec(
        kernel="inputs",
        block_dim=1,
        inputs=in_specs,
        outputs=[],
        reference=None,
        base_dir=case.base_dir,
        path=case.path,
        seed=case.seed,
    )
    data_files: dict[str, bytes] = {}
    lines = [f"op {op.type}", *platform_lines(soc_name), f"capacity {TILING_CAPACITY}"]
    index = 0
    arrays: dict[str, Any] = {}
    if any(p.value_depend for p in op.inputs):
        from ascendc_lsp.toolchain.emulator import data

        try:
            arrays = data.generate_inputs(seeded)
        except data.DataError as exc:
            raise SpecError(f"{case.origin}: {exc}") from None
    for p in op.inputs:
        if p.name not in ins:
            lines.append(f"absent {p.name}")
            continue
        dt = d.dtype_numbers.get(variant.dtype(p.name), 28)
        fmt = d.format_numbers.get(variant.format(p.name), 2)
        for t in ins[p.name]:  # one line per tensor: a dynamic input's instances
            dims_in = t.shape or (1,)
            lines.append(f"input {p.name} {dt} {fmt} {len(dims_in)} {' '.join(map(str, dims_in))}")
            if p.value_depend and t.name in arrays:
                fname = f"in_{index}.bin"
                data_files[fname] = arrays[t.name].tobytes()
                lines.append(f"data {index} @DIR@/{fname}")
            index += 1
    for p in op.outputs:
        dt = d.dtype_numbers.get(variant.dtype(p.name), 28)
        fmt = d.format_numbers.get(variant.format(p.name), 2)
        for t in outs[p.name]:
            dims = f"{len(t.shape)} {' '.join(map(str, t.shape))}" if t.shape is not None else "-1"
            lines.append(f"output {p.name} {dt} {fmt} {dims}")
    for a in op.attrs:
        lines.append(_attr_line(case, op, a))

    tiling_file = op.tiling_file or op.file
    hr = host.run_tiling(d.binary, "\n".join(lines) + "\n", data_files, timeout=max(30.0, opts.timeout))
    hd = hr.data
    stderr_tail = " | ".join(hr.stderr.strip().splitlines()[-4:])
    if not hr.ok or hd.get("error"):
        stage = hd.get("stage", "Tiling")
        if hr.signal or hr.timed_out:
            why = f"crashed with {hr.signal}" if hr.signal else "did not finish in time"
        else:
            why = hd.get("error") or hr.error or "failed"
        return _failure(
            case,
            soc_name,
            f"the op's {stage} function {why} on the host (run on the CPU for this test case)"
            + (f"; stderr: {stderr_tail}" if stderr_tail else ""),
            "tiling-failed",
            tiling_file,
            op.tiling_line,
            "tiling-runtime",
            hr.stderr,
        )
    if not hd.get("found"):
        raise OpProjectError(f"{project.op_host}: op {op.type} is not registered with OP_ADD")
    if int(hd.get("ret", 0)) != 0:
        return _failure(
            case,
            soc_name,
            f"the op's {hd.get('stage', 'Tiling')} function returned {hd.get('ret')} (GRAPH_FAILED) for this test "
            f"case's shapes, dtypes and attributes" + (f"; its log: {stderr_tail}" if stderr_tail else ""),
            "tiling-failed",
            tiling_file,
            op.tiling_line,
            "tiling-runtime",
            hr.stderr,
        )
    notes: list[Diagnostic] = []

    def note(msg: str) -> None:
        notes.append(
            Diagnostic(
                message=msg,
                severity="warning",
                code="op-build",
                file=tiling_file,
                span=span_at(max(0, op.tiling_line - 1)),
                source=EMULATOR_SOURCE,
            )
        )

    if not hd.get("has_tiling"):
        note(
            f"{op.type} registers no TilingFunc (SetTiling / IMPL_OP_OPTILING): the kernel gets empty tiling data"
        )

    # outputs, with what the op decided
    out_shapes = hd.get("out_shapes", [])
    out_specs: list[TensorSpec] = []
    out_list = [(p, t) for p in op.outputs for t in outs[p.name]]  # one per output tensor (instance)
    for i, (p, t) in enumerate(out_list):
        shape = t.shape
        if shape is None:
            got = out_shapes[i] if i < len(out_shapes) and hd.get("inferred") else None
            if not got:
                raise OpProjectError(
                    f"{case.origin}: outputs: '{t.name}' has no shape and {op.type} registers no InferShape "
                    f"({op.where}): give its shape"
                )
            shape = tuple(int(x) for x in got)
        spec_dtype = GE_DTYPES.get(variant.dtype(p.name), (None, ""))[0]
        dtype = t.dtype or spec_dtype
        if dtype is None:
            raise OpProjectError(
                f"{case.origin}: outputs: '{t.name}' is {variant.dtype(p.name)} in the chosen variant, which the "
                "emulator harness cannot compare"
            )
        ospec = output_spec(t, shape, dtype)
        ospec.name = t.name
        out_specs.append(ospec)

    # block dim, tiling key, bytes, workspace: the host's, unless the test case overrides them
    block_dim = case.block_dim or int(hd.get("block_dim") or 0)
    if block_dim <= 0:
        note("the TilingFunc did not call SetBlockDim: launching 1 block")
        block_dim = 1
    key = case.tiling_key if case.tiling_key is not None else int(hd.get("tiling_key", 0))
    raw = case.tiling_bytes if case.tiling_bytes is not None else bytes.fromhex(str(hd.get("tiling", "")))
    if (
        case.tiling_bytes is None
        and hd.get("has_tiling")
        and not hd.get("data_size_set")
        and not hd.get("typed_size")
    ):
        note("the TilingFunc did not call GetRawTilingData()->SetDataSize(): passing the bytes it wrote")
    if case.workspace_bytes is not None:
        ws_user = case.workspace_bytes
    else:
        total = sum(int(x) for x in hd.get("workspaces", []))
        ws_user = total - SYS_WORKSPACE_BYTES if total >= SYS_WORKSPACE_BYTES else total

    kb = kernel_build(d, op, variant, key)
    ratio = mix_ratio(kb.entry, kb.include_dirs, soc_name) if case.block_dim is None else 1
    if ratio > 1:
        notes.append(
            Diagnostic(
                message=f"{kb.entry.name} drives the cube through the Matmul API (a mix kernel): block_dim "
                f"{block_dim} logical AI cores run as {block_dim * ratio} vector-core blocks, the view the emulator "
                "executes",
                severity="information",
                code="op-build",
                file=str(kb.entry.file),
                span=span_at(kb.entry.line - 1),
                source=EMULATOR_SOURCE,
            )
        )
        block_dim *= ratio
    lists = {p.name: [t.name for t in ts] for p in op.inputs if (ts := ins.get(p.name)) and ts[0].group}
    lists.update({p.name: [t.name for t in outs[p.name]] for p in op.outputs if outs[p.name][0].group})
    params = [p.name if p.name in ins else f"__absent_{p.name}" for p in op.inputs]
    params += [p.name if p.name in lists else outs[p.name][0].name for p in op.outputs]
    params += ["workspace", "tiling"]
    spec = KernelSpec(
        kernel=kb.kernel_name,
        block_dim=block_dim,
        task_ratio=ratio,
        inputs=in_specs,
        outputs=out_specs,
        reference=case.reference,
        base_dir=case.base_dir,
        path=case.path,
        source=kb.entry.file,
        soc=soc_name,
        include_dirs=kb.include_dirs,
        workspace_bytes=ws_user,
        tiling=TilingSpec(
            struct=kb.struct or "",
            pass_mode="pointer",
            fields=dict(case.tiling_fields),
            header=kb.header,
            key=key,
            raw=raw,
        ),
        params=params,
        tolerance=case.tolerance,
        seed=case.seed,
        description=case.description,
        warnings=list(case.warnings),
        reference_vars={a.name: case.attrs.get(a.name, a.default) for a in op.attrs},
        tensor_lists=lists,
    )
    if case.tiling_fields and not kb.struct:
        raise OpProjectError(
            f"{case.origin}: tiling_fields: {kb.struct_reason}, so there are no fields to set"
        )
    return Prepared(spec, kb, variant, hd, notes)


def run_case(case: TestCase, options: RunOptions | None = None) -> RunResult:
    """Build and run the op of a test case on the emulator; OpProjectError / SpecError for bad input."""
    from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain

    opts = options or RunOptions()
    prep = prepare(case, opts)
    if isinstance(prep, RunResult):
        return prep
    res = EmulatorToolchain().run(prep.spec, opts)
    res.diagnostics[:0] = prep.notes
    res.kernel = prep.kernel.entry.name
    return res
