"""Build a direct-launch program on the emulator: lower its launches, compile each source, link the runtime.

Every source that launches kernels (`<<<...>>>` in code) is lowered (lower.py) into a private copy that keeps the
original's folder layout relative to the sample root and starts with `#line 1 "<original>"`; its quote includes
still find the sample's headers (the original folder is an `-iquote` directory). Kernel sources get the
`aclrtlaunch_<kernel>` definitions appended and `aclrtlaunch_<kernel>.h` headers are generated for the host side,
as `ascendc_library()` does. Sources with kernel code are compiled with the emulator's precompiled header forced
first; host-only sources without it. Objects link against the emulator runtime object (which carries the ACL
runtime and the launcher). The g++ command line, the precompiled header, the runtime object and the binary cache
are those of toolchain/emulator/build.py.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ascendc_lsp.diagnostics import Diagnostic, span_at
from ascendc_lsp.errors import UnknownSocError
from ascendc_lsp.hardware.soc import cmake_architecture, soc_limits
from ascendc_lsp.toolchain import sandbox
from ascendc_lsp.toolchain.base import EMULATOR_SOURCE, CompileResult
from ascendc_lsp.toolchain.emulator import build as emu_build
from ascendc_lsp.toolchain.emulator import gccdiag
from ascendc_lsp.toolchain.program.discover import ProgramLayout
from ascendc_lsp.toolchain.program.lower import (
    LoweringError,
    aclrtlaunch_definitions,
    aclrtlaunch_header,
    code_mask,
    kernel_registrations,
    kernel_signatures,
    lower_text,
)
from ascendc_lsp.toolchain.program.scan import inactive_branches_blanked

BUILD_VERSION = "program-v1"
# The sample's own compile options that would break linking with the emulator runtime or are bisheng-only.
_DROPPED_DEFINES = re.compile(r"^_GLIBCXX_")
# Run mode macro, plus line tables (-g1): a crash in host code is reported at its source line (addr2line).
MODE_FLAGS = {"npu": ("-DASCENDC_EMU_NPU_BRANCH", "-g1"), "cpu": ("-DASCENDC_CPU_DEBUG", "-g1")}


@dataclass
class ProgramBuild(CompileResult):
    """A compile result plus what the lowering of a direct-launch program found."""

    launches: int = 0  # <<<>>> launches lowered
    kernels: list[str] = field(default_factory=list)  # kernels with a generated aclrtlaunch_<kernel>.h


@dataclass
class _Unit:
    original: Path
    text: str  # what is compiled (lowered or original)
    lowered: bool
    kernel: bool  # has kernel code: compile with the emulator's precompiled header
    # headers beside the source compiled from a corrected copy (_weak_definitions_fixed), by original path
    overlays: dict[Path, str] = field(default_factory=dict)


def _has_code(text: str, needle: str) -> bool:
    if needle not in text:
        return False
    mask = code_mask(text)
    start = text.find(needle)
    while start >= 0:
        if mask[start]:
            return True
        start = text.find(needle, start + 1)
    return False


def _is_kernel_source(text: str) -> bool:
    return bool(
        re.search(r'#\s*include\s*[<"](?:kernel_operator\.h|tikicpulib\.h|lib/matmul_intf\.h)[">]', text)
        or _has_code(text, "__global__")
        or _has_code(text, "__aicore__")
    )


def _diag(
    message: str, file: Path | None, code: str = "toolchain", category: str = "toolchain-env", line: int = 0
) -> Diagnostic:
    return Diagnostic(
        message=message, code=code, category=category, span=span_at(line), file=str(file) if file else None, source=EMULATOR_SOURCE
    )




def _split_cores(soc: str) -> bool:
    """Separate AIC and AIV cores (mix kernels launch 1 AIC + 2 AIV per block), per the SoC profile's layout; the
    others couple cube and vector in one AI Core (a block is one core)."""
    try:
        return soc_limits(soc).layout == "split"
    except UnknownSocError:
        return False


_QUOTE_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def _included_text(src: Path, text: str) -> str:
    """The text of the headers a source includes with quotes from its own folder (one level)."""
    parts: list[str] = []
    for name in _QUOTE_INCLUDE.findall(text):
        h = src.parent / name
        if h.is_file() and h.suffix in (".h", ".hpp", ".inc"):
            parts.append(h.read_text(encoding="utf-8", errors="replace"))
    return "\n".join(parts)


# Frameworks a sample's host side may be written against (an extension module, not a program): by the prefix of
# the header it includes. The emulator provides none of them, and a stand-in would not be the sample.
_FRAMEWORK_HEADERS = {
    "torch/": "PyTorch",
    "ATen/": "PyTorch",
    "torch_npu/": "torch_npu",
    "pybind11/": "pybind11",
    "graph/": "the CANN graph engine (GE)",
}
_ANY_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]', re.M)


def _external_framework(layout: ProgramLayout) -> tuple[Path, int, str, str] | None:
    """The first source of `layout` (or header beside one) that includes a framework header: (file, 0-based line,
    header, framework)."""
    provided = [emu_build.include_dir(), emu_build.include_dir().parent / "host_include"]
    files = list(layout.sources)
    for src in layout.sources:  # and the headers beside them they include (a proto header including GE's)
        try:
            text = src.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        files.extend(h for name in _QUOTE_INCLUDE.findall(text) if (h := src.parent / name).is_file() and h not in files)
    for src in files:
        try:
            text = src.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for m in _ANY_INCLUDE.finditer(text):
            header = m.group(1)
            if any((d / header).is_file() for d in (src.parent, *layout.include_dirs, *provided)):
                continue  # the sample's own header of that name, or one the emulator's host shims provide
            for prefix, name in _FRAMEWORK_HEADERS.items():
                if header.startswith(prefix):
                    return src, text.count("\n", 0, m.start()), header, name
    return None


def _mode_macros(layout: ProgramLayout) -> tuple[dict[str, str | None], set[str]]:
    """The macros a build of `layout` certainly defines (with their values) and those it leaves undefined."""
    defined = dict(layout.defines)
    if layout.run_mode == "cpu":
        return {**defined, "ASCENDC_CPU_DEBUG": None}, set()
    return {**defined, "ASCENDC_EMU_NPU_BRANCH": None}, {"ASCENDC_CPU_DEBUG", "__CCE_KT_TEST__"} - set(defined)


def _included_sources_text(src: Path, text: str) -> str:
    """The text of the source files (`.cpp`, `.cc`, `.c`) a source includes with quotes from its own folder (one
    level): an `_entry.cpp` that is `#include "kernel.cpp"` defines that file's kernels in its own unit."""
    parts: list[str] = []
    for name in _QUOTE_INCLUDE.findall(text):
        h = src.parent / name
        if h.suffix in (".cpp", ".cc", ".c", ".asc") and h.is_file():
            parts.append("\n" + h.read_text(encoding="utf-8", errors="replace"))
    return "".join(parts)


_WEAK_CONST_DEF = re.compile(
    r"^(?P<attr>[ \t]*__attribute__\s*\(\(\s*(?:__)?weak(?:__)?\s*\)\))(?P<rest>[^;{}\n]*\bconst\b[^;{}\n=]*?"
    r"\b(?P<name>[A-Za-z_]\w*)\s*(?:\[[^\]\n]*\]\s*)*=)",
    re.M,
)
MAX_EXTERN_SCAN_FILES = 4000


def _extern_declared(root: Path, include_dirs: list[Path]) -> str:
    """The `extern` declarations in the sample's headers and those of its include folders, one per line (for
    _weak_definitions_fixed)."""
    lines: list[str] = []
    files = list(itertools.islice(root.rglob("*"), MAX_EXTERN_SCAN_FILES))  # bounded: a sample, not a disk
    for d in include_dirs:
        if d.is_dir() and not d.resolve().is_relative_to(root.resolve()):
            files += itertools.islice(d.iterdir(), MAX_EXTERN_SCAN_FILES)
    for h in files:
        if h.suffix in (".h", ".hpp", ".hh", ".inc") and h.is_file():
            try:
                text = h.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            lines += [ln for ln in text.splitlines() if re.search(r"\bextern\b", ln)]
    return "\n".join(lines)


def _weak_definitions_fixed(text: str, externs: str) -> str | None:
    """`__attribute__((weak)) const T name[] = {...};` at namespace scope whose name an `extern` declaration made
    external (a header shared by several kernel files, e.g. `extern "C" { extern __gm__ const T name[]; }`):
    g++ rejects it ("weak declaration must be public", it checks before merging the earlier declaration) where
    clang, bisheng's base, accepts it. The copy says `extern` on the definition itself, which is the linkage the
    earlier declaration gave; same lines. None when nothing needs it."""
    changed = False

    def fix(m: re.Match[str]) -> str:
        nonlocal changed
        if re.search(r"\bextern\b", m.group("rest")):
            return m.group(0)
        if not re.search(rf"\bextern\b[^;]*\b{re.escape(m.group('name'))}\b", externs):
            return m.group(0)  # no earlier external declaration: the real compiler rejects it too
        changed = True
        return f"{m.group('attr')} extern{m.group('rest')}"

    out = _WEAK_CONST_DEF.sub(fix, text)
    return out if changed else None


def prepare_units(layout: ProgramLayout) -> tuple[list[_Unit], dict[str, str], list[str], int]:
    """The sources to compile (lowered where they launch), the generated aclrtlaunch headers by file name, the
    kernels they declare and the number of launches lowered; raises LoweringError."""
    headers: dict[str, str] = {}
    kernels: list[str] = []
    appended: dict[Path, str] = {}
    texts = {src: src.read_text(encoding="utf-8", errors="replace") for src in layout.sources}
    split = _split_cores(layout.soc)
    ratios: dict[str, int] = {}
    for src, text in texts.items():
        # kernels a branch of the other run mode defines get no launch definition (the real build preprocesses)
        defining = inactive_branches_blanked(text + _included_sources_text(src, text), *_mode_macros(layout))
        if "__global__" in defining:
            for s in kernel_signatures(defining, _included_text(src, text)):
                if not split:
                    s.task_ratio = 1
                ratios[s.name] = s.task_ratio
                if src in layout.kernel_sources and not s.template:
                    headers[f"aclrtlaunch_{s.name}.h"] = aclrtlaunch_header(s)
                    kernels.append(s.name)
                    appended[src] = (
                        appended.get(src, "")
                        + aclrtlaunch_definitions([s], str(src))
                        + kernel_registrations([s], str(src))
                    )
    units: list[_Unit] = []
    launches = 0
    externs: str | None = None
    for src in layout.sources:
        text = texts[src]
        kernel = _is_kernel_source(text)
        overlays: dict[Path, str] = {}
        for name in _QUOTE_INCLUDE.findall(text) if "weak" in _included_text(src, text) else []:
            h = src.parent / name
            if not h.is_file():
                continue
            if externs is None:
                externs = _extern_declared(layout.root, layout.include_dirs)
            fixed = _weak_definitions_fixed(h.read_text(encoding="utf-8", errors="replace"), externs)
            if fixed is not None:
                overlays[h] = f"#line 1 {json.dumps(str(h))}\n" + fixed
        for name in _QUOTE_INCLUDE.findall(text):
            # a source file included whole (`#include "kernel.cpp"`) with its own launch wrapper: lowered too
            inc = src.parent / name
            if inc.suffix in (".cpp", ".cc", ".c", ".asc") and inc.is_file() and inc not in overlays:
                inc_text = inc.read_text(encoding="utf-8", errors="replace")
                if _has_code(inc_text, "<<<"):
                    try:
                        inc_lowered = lower_text(inc_text, str(inc), ratios, library=True)
                    except LoweringError as exc:
                        raise LoweringError(f"{inc}: {exc}") from None
                    launches += len(inc_lowered.launches)
                    overlays[inc] = f"#line 1 {json.dumps(str(inc))}\n" + inc_lowered.text
        if _has_code(text, "<<<") or src in appended:
            try:
                # a kernel library's own launch wrappers, not the program's main(): lenient as the real build (lower.py)
                library = src in layout.kernel_sources and not re.search(r"\bmain\s*\(", text)
                lowered = lower_text(text, str(src), ratios, library=library)
            except LoweringError as exc:
                raise LoweringError(f"{src}: {exc}") from None
            launches += len(lowered.launches)
            body = lowered.text
            if src in appended:
                body = body.rstrip("\n") + "\n" + appended[src]
            units.append(_Unit(src, body, True, kernel, overlays))
        elif overlays:  # compiled from a copy so that its quoted includes find the corrected headers first
            units.append(_Unit(src, f"#line 1 {json.dumps(str(src))}\n" + text, True, kernel, overlays))
        else:
            units.append(_Unit(src, text, False, kernel))
    return units, headers, kernels, launches


def _key(
    layout: ProgramLayout, cxx: str, flags: list[str], units: list[_Unit], headers: dict[str, str]
) -> str:
    h = hashlib.sha256()
    parts = [
        BUILD_VERSION,
        emu_build.compiler_id(cxx),
        json.dumps(flags),
        json.dumps([str(d) for d in layout.include_dirs]),
        emu_build.headers_digest(emu_build.include_dir()),
        emu_build.RUNTIME_SOURCE,
        json.dumps(sorted(headers.items())),
    ]
    for u in units:
        parts += [str(u.original), u.text, str(u.kernel), json.dumps(sorted((str(k), v) for k, v in u.overlays.items()))]
    for part in parts:
        h.update(part.encode("utf-8", "replace"))
        h.update(b"\0")
    return h.hexdigest()[:40]


def _relative(root: Path, p: Path) -> Path:
    try:
        return p.resolve().relative_to(root.resolve())
    except ValueError:
        return Path("_outside") / p.name


def build_program(layout: ProgramLayout, timeout: float = 120.0, use_cache: bool = True) -> ProgramBuild:
    """Compile and link the program (or take it from the cache)."""
    t0 = time.monotonic()
    cxx = emu_build.find_cxx()
    if cxx is None:
        return ProgramBuild(
            ok=False,
            diagnostics=[
                _diag(
                    "g++ was not found on PATH: the emulator needs a C++17 compiler (install g++, or point "
                    "ASCENDC_LSP_CXX at one)",
                    layout.sources[0] if layout.sources else None,
                )
            ],
        )
    framework = _external_framework(layout)
    if framework is not None:
        fw_file, fw_line, fw_header, fw_name = framework
        return ProgramBuild(
            ok=False,
            diagnostics=[
                _diag(
                    f"needs {fw_name} ({fw_header}): an external framework the emulator does not provide (the host side "
                    "is written against it, so the sample is not built with a stand-in)",
                    fw_file,
                    code="external-framework",
                    line=fw_line,
                )
            ],
            seconds=time.monotonic() - t0,
        )
    try:
        units, headers, kernels, launches = prepare_units(layout)
    except LoweringError as exc:
        return ProgramBuild(ok=False, diagnostics=[_lowering_diag(str(exc))], seconds=time.monotonic() - t0)
    mode_flags = list(MODE_FLAGS.get(layout.run_mode, MODE_FLAGS["npu"]))
    arch = cmake_architecture(layout.soc) or ""
    if arch.startswith(
        "dav-"
    ):  # device code tests __NPU_ARCH__ (SIMD-BuiltIn关键字.md): the SoC's, as bisheng
        mode_flags.append(f"-D__NPU_ARCH__={arch[4:]}")
    defines = [
        f"-D{k}" if v is None else f"-D{k}={v}"
        for k, v in layout.defines.items()
        if not _DROPPED_DEFINES.match(k)
    ]
    flags = [*emu_build.BASE_FLAGS, *mode_flags, *defines]
    key = _key(layout, cxx, flags, units, headers)
    if use_cache:
        hit = emu_build.cached_binary(key, "program")
        if hit is not None:
            return ProgramBuild(
                ok=True,
                binary=hit,
                cached=True,
                seconds=time.monotonic() - t0,
                launches=launches,
                kernels=kernels,
            )
    pch = emu_build.ensure_pch(cxx, timeout, mode_flags) if use_cache else None
    runtime = emu_build.ensure_runtime(cxx, timeout) if use_cache else None
    if runtime is None:  # header-only: every runtime body compiled into the program
        flags = [f for f in flags if f != emu_build.SPLIT_FLAG]
    workdir = Path(tempfile.mkdtemp(prefix="ascendc-emu-program-"))
    try:
        gen = workdir / "gen"
        gen.mkdir()
        for name, text in headers.items():
            (gen / name).write_text(text, encoding="utf-8")
        if pch is None:
            (gen / emu_build.PCH_HEADER).write_text(emu_build.PCH_WRAPPER, encoding="utf-8")
        host_include = emu_build.include_dir().parent / "host_include"  # host shims (platform, host tiling)
        extra_includes = [host_include] if host_include.is_dir() else []
        objs: list[str] = []
        rename: dict[str, str] = {}
        log = ""
        read = [emu_build.include_dir(), *extra_includes, layout.root, *layout.include_dirs]
        read += emu_build.readable_roots([layout.root])
        if pch is not None:
            read.append(pch)
        if runtime is not None:
            read.append(runtime.parent)
        depfiles: list[Path] = []
        for i, u in enumerate(units):
            if u.lowered:
                copy = workdir / "src" / _relative(layout.root, u.original)
                copy.parent.mkdir(parents=True, exist_ok=True)
                copy.write_text(u.text, encoding="utf-8")
                rename[str(copy.resolve())] = str(u.original)
                source = copy
                for header, text in u.overlays.items():
                    fixed = workdir / "src" / _relative(layout.root, header)
                    fixed.parent.mkdir(parents=True, exist_ok=True)
                    fixed.write_text(text, encoding="utf-8")
                    rename[str(fixed.resolve())] = str(header)
            else:
                source = u.original
            obj = f"obj{i}.o"
            depfile = f"obj{i}.d"
            unit_flags = [*flags, *emu_build.DIAG_FLAGS]
            if u.lowered:  # the lowered copy still finds the headers beside its original
                unit_flags.append(f"-iquote{u.original.parent}")
            if u.kernel:  # the emulator headers first, so the precompiled header applies
                unit_flags += ["-include", emu_build.PCH_HEADER]
            cmd = emu_build.gxx_command(
                cxx,
                [source],
                flags=unit_flags,
                include_dirs=[
                    *([pch] if pch is not None and u.kernel else []),
                    gen,
                    *layout.include_dirs,
                    *extra_includes,
                    emu_build.include_dir(),
                ],
                output=obj,
                mode="object",
                depfile=depfile,
                language="c++",
            )
            res = sandbox.run_sandboxed(
                cmd,
                workdir,
                sandbox.Limits(timeout=timeout, memory_bytes=emu_build.COMPILE_MEMORY),
                read_paths=read,
                env=emu_build.compile_env(),
            )
            log += res.stderr + res.stdout
            if res.timed_out or res.error or res.returncode != 0 or not (workdir / obj).is_file():
                return ProgramBuild(
                    ok=False,
                    diagnostics=_compile_diagnostics(layout, u.original, res),
                    seconds=time.monotonic() - t0,
                    log=log,
                    launches=launches,
                    kernels=kernels,
                )
            objs.append(obj)
            depfiles.append(workdir / depfile)
        link_inputs: list[str | Path] = [*objs, *([runtime] if runtime is not None else [])]
        cmd = emu_build.gxx_command(cxx, [*link_inputs, "-ldl"], flags=["-pthread"], output="program")
        res = sandbox.run_sandboxed(
            cmd,
            workdir,
            sandbox.Limits(timeout=timeout, memory_bytes=emu_build.COMPILE_MEMORY),
            read_paths=read,
            env=emu_build.compile_env(),
        )
        log += res.stderr + res.stdout
        if res.returncode != 0 or not (workdir / "program").is_file():
            return ProgramBuild(
                ok=False,
                diagnostics=[_link_diagnostic(layout, res)],
                seconds=time.monotonic() - t0,
                log=log,
                launches=launches,
                kernels=kernels,
            )
        final: Path | None
        if use_cache:  # one depfile for the cache manifest: every unit's, lowered copies named by their originals
            _merge_depfiles(depfiles, workdir / "deps.d", rename, [u.original for u in units])
            final = emu_build.store_binary(
                workdir,
                emu_build.cache_root() / "bin" / key,
                name="program",
                skip=[emu_build.include_dir(), gen],
                label=str(layout.root),
            )
        else:
            keep = Path(tempfile.mkdtemp(prefix="ascendc-emu-bin-"))
            shutil.move(str(workdir / "program"), keep / "program")
            final = keep / "program"
        if final is None:
            return ProgramBuild(
                ok=False,
                diagnostics=[_diag("could not store the linked program", layout.root)],
                seconds=time.monotonic() - t0,
                log=log,
            )
        return ProgramBuild(
            ok=True, binary=final, seconds=time.monotonic() - t0, log=log, launches=launches, kernels=kernels
        )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _merge_depfiles(depfiles: list[Path], out: Path, rename: dict[str, str], sources: list[Path]) -> None:
    deps: list[str] = [str(s) for s in sources]
    for f in depfiles:
        try:
            text = f.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for d in emu_build.parse_depfile(text):
            p = str((f.parent / d).resolve())
            deps.append(rename.get(p, p))
    unique = list(dict.fromkeys(deps))
    out.write_text("program: " + " ".join(d.replace(" ", "\\ ") for d in unique) + "\n", encoding="utf-8")


def _lowering_diag(message: str) -> Diagnostic:
    m = re.match(r"(?P<file>.+?): line (?P<line>\d+): (?P<msg>.*)", message)
    if m:
        return Diagnostic(
            message=m.group("msg"),
            code="launch-syntax",
            category="kernel-entry",
            span=span_at(int(m.group("line")) - 1),
            file=m.group("file"),
            source=EMULATOR_SOURCE,
        )
    return Diagnostic(message=message, code="launch-syntax", category="kernel-entry", source=EMULATOR_SOURCE)


def _compile_diagnostics(layout: ProgramLayout, source: Path, res: sandbox.SandboxResult) -> list[Diagnostic]:
    if res.timed_out:
        return [
            _diag(
                f"compiling {source.name} did not finish within {res.seconds:.0f} s",
                source,
                "compile-timeout",
            )
        ]
    if res.error:
        return [_diag(res.error, source)]
    if res.signal is not None:
        return [
            _diag(
                f"the compiler was killed by {res.signal_name} (out of memory or CPU time?)",
                source,
                "compile-crash",
            )
        ]
    inc = str(emu_build.include_dir().resolve())
    roots = [str(layout.root.resolve()), *(str(d) for d in layout.include_dirs)]

    def is_user(f: str) -> bool:
        p = os.path.realpath(f) if os.path.isabs(f) else f
        if p.startswith(inc) or not os.path.isabs(p):
            return False
        return any(p.startswith(r) for r in roots)

    diags = gccdiag.to_diagnostics(res.stderr, is_user, (str(source), 0), gccdiag.file_line, lambda _m: None)
    return diags or [gccdiag.compile_failed(res.stderr, res.stdout, res.returncode, str(source))]


def _link_diagnostic(layout: ProgramLayout, res: sandbox.SandboxResult) -> Diagnostic:
    text = res.stderr or res.stdout
    undefined = sorted(set(re.findall(r"undefined reference to `([^']+)'", text)))
    if undefined:
        names = ", ".join(undefined[:6]) + (" ..." if len(undefined) > 6 else "")
        msg = (
            f"linking '{layout.name}' failed: undefined {names}. A function declared but defined in no source of the "
            "program (a kernel launch helper hidden behind #ifndef ASCENDC_CPU_DEBUG, a host library the emulator "
            "does not provide, or a source missing from CMakeLists.txt)"
        )
    else:
        tail = text.strip().splitlines()[-3:]
        msg = f"linking '{layout.name}' failed: " + (" | ".join(tail) or f"exit {res.returncode}")
    return Diagnostic(
        message=msg,
        code="link-error",
        category="op-project-config",
        file=str(layout.sources[0]) if layout.sources else None,
        source=EMULATOR_SOURCE,
    )


def compile_program(
    path: Path,
    *,
    run_mode: str = "npu",
    soc: str | None = None,
    timeout: float = 120.0,
    use_cache: bool = True,
) -> ProgramBuild:
    """Build the direct-launch program a file belongs to (an .asc, a host main.cpp, a kernel source of a
    kernel-launch sample, or the sample folder): the entry bench/fidelity.py calls for the direct-launch kind.
    Raises DiscoveryError when the path is not part of a program."""
    from ascendc_lsp.toolchain.program.discover import discover

    return build_program(discover(path, run_mode=run_mode, soc=soc), timeout=timeout, use_cache=use_cache)


__all__ = ["ProgramBuild", "build_program", "compile_program", "prepare_units"]
