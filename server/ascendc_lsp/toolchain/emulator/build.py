"""Compile a kernel + generated harness with g++: precompiled header, content-hash cache, sandboxed compiler.

Cache layout (`$XDG_CACHE_HOME/ascendc-lsp/emulator/`, default `~/.cache/...`):
- `pch/<key>/ascendc_emu_pch.h.gch`: the emulator headers precompiled for one compiler + flag set;
- `rt/<key>/ascendc_emu_runtime.o`: the non-template emulator runtime (reports, shadow memory, scheduler, harness
  plumbing) compiled once per compiler + flags + header version. Kernels are compiled with
  `-DASCENDC_EMU_SPLIT_RUNTIME`, under which the headers declare those functions without bodies, and linked
  against this object: no code is generated for the runtime per kernel (about 1 s of a cold compile at -O1);
- `bin/<key>/kernel` + `manifest.json`: a linked kernel. The key hashes the compiler identity, the flags,
  the harness text, the kernel source and tiling header texts and the emulator headers; the manifest lists every
  other user header the build read (from g++ -MMD) with its hash, checked on each hit (ccache's "manifest" idea).
Entries are written to a temporary name and renamed, so concurrent runs never see half a file.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ascendc_lsp.diagnostics import Diagnostic, span_at
from ascendc_lsp.paths import cache_dir
from ascendc_lsp.toolchain import sandbox
from ascendc_lsp.toolchain.base import EMULATOR_SOURCE, CompileResult
from ascendc_lsp.toolchain.emulator import gccdiag
from ascendc_lsp.toolchain.emulator.harness import generate, harness_hint
from ascendc_lsp.toolchain.spec import KernelSpec

# GET_TILING_DATA in the headers tests `#ifdef ASCENDC_EMU_TILING_TYPE` while kernel_operator.h is preprocessed,
# i.e. inside the precompiled header. Defining it on the command line as another macro name keeps the PCH valid
# for every spec: the harness `#define`s ASCENDC_EMU_TILING_STRUCT (the spec's struct) after the PCH, and the
# name is resolved lazily where the kernel expands GET_TILING_DATA.
TILING_MACRO = "ASCENDC_EMU_TILING_STRUCT"
SPLIT_FLAG = "-DASCENDC_EMU_SPLIT_RUNTIME"
CXX_STANDARD = "-std=c++17"  # of every compile of kernel and host code, and of the editor's clangd flags
# What a kernel's code sees of the emulator build beyond its include path: the build and clangd share them.
EMULATOR_MACROS = (f"-DASCENDC_EMU_TILING_TYPE={TILING_MACRO}", SPLIT_FLAG)
BASE_FLAGS = (
    CXX_STANDARD,
    "-O1",
    "-g0",
    "-w",
    "-pthread",
    # one IEEE rounding per operation, as the emulated vector units and cost.py's float arithmetic do (aarch64
    # hosts would otherwise fuse a*b+c)
    "-ffp-contract=off",
    *EMULATOR_MACROS,
)
# The runtime object (race detector, cost model, queues: the per-event work) is compiled once per header version,
# so it gets -O2; kernels keep -O1, where compile time is what an edit costs.
RUNTIME_FLAGS = tuple("-O2" if f == "-O1" else f for f in BASE_FLAGS)
DIAG_FLAGS = ("-fdiagnostics-plain-output", "-fdiagnostics-column-unit=byte", "-fmax-errors=20")
MAX_BIN_ENTRIES = 200
PCH_HEADER = "ascendc_emu_pch.h"  # a wrapper including kernel_operator.h; its .gch is the precompiled header
PCH_WRAPPER = '#include "kernel_operator.h"\n'
RUNTIME_OBJ = "ascendc_emu_runtime.o"
RUNTIME_SOURCE = (
    "// ascendc-lsp emulator runtime object: the bodies of the headers' EMU_RT_FN functions\n"
    "#define ASCENDC_EMU_RUNTIME_IMPL 1\n"
    '#include "ascendc_emu/harness.h"\n'
    '#include "lib/matmul_intf.h"\n'
    '#include "ascendc_emu/program.h"\n'  # direct-launch programs: ACL runtime, launches, host checks
)
COMPILE_MEMORY = 3 << 30


def include_dir() -> Path:
    """The emulator headers; `ASCENDC_LSP_EMULATOR_INCLUDE` points elsewhere (tests use a stand-in)."""
    override = os.environ.get("ASCENDC_LSP_EMULATOR_INCLUDE")
    if override:
        return Path(override).resolve()
    from ascendc_lsp.resources import emulator_include_dir

    return emulator_include_dir()


def cache_root() -> Path:
    return cache_dir("emulator")


def find_cxx() -> str | None:
    env = os.environ.get("ASCENDC_LSP_CXX")
    if env:
        return shutil.which(env) or (env if Path(env).is_file() else None)
    return shutil.which("g++")


@cache
def compiler_id(cxx: str) -> str:
    try:
        r = subprocess.run([cxx, "--version"], capture_output=True, text=True, timeout=20, check=False)
        version = r.stdout.splitlines()[0] if r.stdout else "?"
    except (OSError, subprocess.SubprocessError):
        version = "?"
    real = os.path.realpath(cxx)
    try:
        mtime = os.stat(real).st_mtime_ns
    except OSError:
        mtime = 0
    return f"{real}|{version}|{mtime}"


@cache
def compiler_include_dirs(cxx: str) -> tuple[Path, ...]:
    """The compiler's own C++ include folders (where <vector> and friends live)."""
    try:
        r = subprocess.run(
            [cxx, "-x", "c++", "-E", "-v", "-"], input="", capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return ()
    dirs: list[Path] = []
    inside = False
    for line in r.stderr.splitlines():
        if line.startswith("#include <...> search starts here"):
            inside = True
        elif line.startswith("End of search list"):
            break
        elif inside and line.startswith(" "):
            dirs.append(Path(line.strip()))
    return tuple(dirs)


def _digest_dir(root: Path) -> str:
    h = hashlib.sha256()
    if root.is_dir():
        for p in sorted(root.rglob("*")):
            if p.is_file() and not p.name.endswith(".gch"):
                h.update(str(p.relative_to(root)).encode())
                h.update(b"\0")
                h.update(p.read_bytes())
                h.update(b"\0")
    return h.hexdigest()


_HEADERS_DIGEST: dict[str, tuple[tuple[int, int], str]] = {}


def headers_digest(root: Path) -> str:
    """Hash of the emulator headers; recomputed only when a file's mtime or the file count changes."""
    stamp = (0, 0)
    if root.is_dir():
        files = [p for p in root.rglob("*") if p.is_file()]
        stamp = (len(files), max((p.stat().st_mtime_ns for p in files), default=0))
    hit = _HEADERS_DIGEST.get(str(root))
    if hit is not None and hit[0] == stamp:
        return hit[1]
    d = _digest_dir(root)
    _HEADERS_DIGEST[str(root)] = (stamp, d)
    return d


def _sha(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def readable_roots(paths: list[Path]) -> list[Path]:
    """Directories the compiler may read: those of the inputs and their nearest project root."""
    out: list[Path] = []
    home = Path.home().resolve()
    for p in paths:
        d = p if p.is_dir() else p.parent
        out.append(d)
        for anc in [d, *d.parents]:
            if (anc / ".git").exists() or (anc / "ascendc-lsp.toml").exists():
                if anc not in (Path("/"), home):
                    out.append(anc)
                break
        else:
            if d.parent not in (Path("/"), home):
                out.append(d.parent)
    return out


@dataclass
class BuildPlan:
    cxx: str
    source: Path
    harness: str
    flags: list[str]
    key: str
    included: Path | None = None  # the file the harness includes: the source or its dialect copy (_dialect_copy)


def plan(spec: KernelSpec, source: Path, cxx: str, strict_assert: bool = False) -> BuildPlan:
    inc = include_dir()
    flags = [*BASE_FLAGS]
    for d in spec.include_dirs:
        flags.append(f"-I{d}")
    for name, val in spec.defines.items():
        flags.append(f"-D{name}" if val is None else f"-D{name}={val}")
    included = _dialect_copy(source)  # a copy without bisheng's `[aicore]` attributes, or the source itself
    if included != source:
        flags.append(f"-I{source.parent}")  # the copy's quoted includes still find the source's neighbours
    harness = generate(spec, included, strict_assert=strict_assert)
    h = hashlib.sha256()
    parts = [
        "v1",
        compiler_id(cxx),
        json.dumps(flags),
        harness,
        str(source),
        source.read_text(encoding="utf-8", errors="replace"),
        headers_digest(inc),
    ]
    if spec.tiling is not None and spec.tiling.header is not None:
        parts.append(spec.tiling.header.read_text(encoding="utf-8", errors="replace"))
    for part in parts:
        h.update(part.encode("utf-8", "replace"))
        h.update(b"\0")
    return BuildPlan(cxx=cxx, source=source, harness=harness, flags=flags, key=h.hexdigest()[:40], included=included)


def _dialect_copy(source: Path) -> Path:
    """The kernel source as the run build compiles it: when it writes bisheng's `[aicore]` declaration attribute
    (program/scan.py), a copy with it blanked, kept by content in the cache (`#line` names the original, so
    messages and line numbers are the source's); otherwise the source itself."""
    from ascendc_lsp.toolchain.program.scan import strip_aicore_attributes

    try:
        text = source.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return source
    body = strip_aicore_attributes(text)
    if body == text:
        return source
    body = f"#line 1 {json.dumps(str(source))}\n{body}"
    folder = cache_root() / "dialect" / hashlib.sha256(f"{source}\0{body}".encode()).hexdigest()[:32]
    copy = folder / source.name
    if not copy.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{source.name}.{os.getpid()}"
        tmp.write_text(body, encoding="utf-8")
        os.replace(tmp, copy)
    return copy


def lookup_binary(entry: Path, name: str = "kernel") -> Path | None:
    binary = entry / name
    manifest = entry / "manifest.json"
    if not binary.is_file() or not manifest.is_file():
        return None
    try:
        deps = json.loads(manifest.read_text())["deps"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    for path, digest in deps.items():
        if _sha(Path(path)) != digest:
            return None
    with contextlib.suppress(OSError):
        os.utime(entry)
    return binary


def parse_depfile(text: str) -> list[str]:
    body = text.replace("\\\n", " ")
    _, _, rest = body.partition(":")
    deps: list[str] = []
    token = ""
    i = 0
    while i < len(rest):
        c = rest[i]
        if c == "\\" and i + 1 < len(rest) and rest[i + 1] == " ":
            token += " "
            i += 2
            continue
        if c.isspace():
            if token:
                deps.append(token)
            token = ""
            if c == "\n":
                break  # phony targets follow on later lines
        else:
            token += c
        i += 1
    if token:
        deps.append(token)
    return deps


def store_binary(
    workdir: Path, entry: Path, name: str = "kernel", skip: Sequence[Path] = (), label: str = ""
) -> Path | None:
    """Move `workdir/name` into the cache entry `entry` with a manifest of the headers the compile read
    (`workdir/deps.d`, minus files under `skip`); returns the cached binary (or a private copy when the cache
    cannot be written), None when there is no binary."""
    binary = workdir / name
    if not binary.is_file():
        return None
    deps: dict[str, str] = {}
    skip_roots = [Path(x).resolve() for x in skip]
    with contextlib.suppress(OSError):
        for d in parse_depfile((workdir / "deps.d").read_text()):
            p = (workdir / d).resolve()
            if any(p.is_relative_to(r) for r in skip_roots) or p.parent == workdir.resolve():
                continue
            digest = _sha(p)
            if digest is not None:
                deps[str(p)] = digest
    bin_dir = entry.parent
    tmp_entry: Path | None = None
    try:
        bin_dir.mkdir(parents=True, exist_ok=True)
        tmp_entry = Path(tempfile.mkdtemp(prefix=".new-", dir=bin_dir))
        shutil.move(str(binary), tmp_entry / name)
        (tmp_entry / "manifest.json").write_text(json.dumps({"deps": deps, "source": label}, indent=1))
        try:
            tmp_entry.rename(entry)
        except OSError:  # another run stored the same key first
            shutil.rmtree(tmp_entry, ignore_errors=True)
        _prune(bin_dir)
        final = entry / name
        if not final.is_file():
            raise OSError("cache entry vanished")
        return final
    except OSError:
        src = binary if binary.exists() else (tmp_entry / name if tmp_entry is not None else None)
        if src is None or not src.exists():
            return None
        keep = Path(tempfile.mkdtemp(prefix="ascendc-emu-bin-"))
        shutil.move(str(src), keep / name)
        return keep / name


def _prune(bin_dir: Path) -> None:
    try:
        entries = sorted((p for p in bin_dir.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime)
    except OSError:
        return
    for p in entries[: max(0, len(entries) - MAX_BIN_ENTRIES)]:
        shutil.rmtree(p, ignore_errors=True)


def ensure_pch(cxx: str, timeout: float, extra_flags: Sequence[str] = ()) -> Path | None:
    """Directory holding the precompiled wrapper header for BASE_FLAGS (+ extra_flags, e.g. a program's run-mode
    macro), built on first use; None if it cannot be.

    The directory holds `ascendc_emu_pch.h` (a one-line wrapper including kernel_operator.h) next to its `.gch`,
    so a later `#include "kernel_operator.h"` still resolves to the real header and its include guard.
    """
    inc = include_dir()
    if not (inc / "kernel_operator.h").is_file():
        return None
    flags = [*BASE_FLAGS, *extra_flags]
    folder = cache_root() / "pch" / cache_key(compiler_id(cxx), json.dumps(flags), headers_digest(inc), str(inc))
    gch = f"{PCH_HEADER}.gch"
    cmd = gxx_command(cxx, [PCH_HEADER], flags=flags, include_dirs=[inc], output=gch, mode="header")
    limits = sandbox.Limits(timeout=max(timeout, 60.0), memory_bytes=COMPILE_MEMORY)
    return build_once(folder, gch, cmd, limits, [inc], {PCH_HEADER: PCH_WRAPPER}, untrusted=False)


def ensure_runtime(cxx: str, timeout: float) -> Path | None:
    """The runtime object for RUNTIME_FLAGS and this header version, built on first use; None if it cannot be."""
    inc = include_dir()
    if not (inc / "ascendc_emu" / "harness.h").is_file():
        return None
    folder = cache_root() / "rt" / cache_key(
        compiler_id(cxx), json.dumps(RUNTIME_FLAGS), headers_digest(inc), str(inc), RUNTIME_SOURCE
    )
    cmd = gxx_command(cxx, ["runtime.cpp"], flags=RUNTIME_FLAGS, include_dirs=[inc], output=RUNTIME_OBJ, mode="object")
    limits = sandbox.Limits(timeout=max(timeout, 60.0), memory_bytes=COMPILE_MEMORY)
    built = build_once(folder, RUNTIME_OBJ, cmd, limits, [inc], {"runtime.cpp": RUNTIME_SOURCE}, untrusted=False)
    return built / RUNTIME_OBJ if built is not None else None


def cache_key(*parts: str) -> str:
    """The name of a content-keyed cache folder: a digest of what its artifact depends on (compiler id, flags,
    header digests, sources)."""
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:40]


def build_once(
    folder: Path,
    artifact: str,
    cmd: Sequence[str],
    limits: sandbox.Limits,
    read_paths: Sequence[Path],
    sources: Mapping[str, str] | None = None,
    untrusted: bool = True,
) -> Path | None:
    """`folder` (content-keyed, see `cache_key`) holding `artifact`, which `cmd` builds on first use: in a
    temporary sibling folder with `sources` written there first (they stay beside the artifact: a precompiled
    header's wrapper must), then renamed into place, so concurrent builders and readers never see half a
    folder. None when it cannot be built. The emulator's PCH and runtime object and the op_host driver and PCH."""
    if (folder / artifact).is_file():
        return folder
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=folder.parent))
    except OSError:
        return None
    try:
        for name, text in (sources or {}).items():
            (tmp / name).write_text(text, encoding="utf-8")
        res = sandbox.run_sandboxed(
            list(cmd), tmp, limits, read_paths=read_paths, env=compile_env(), untrusted=untrusted
        )
        if res.returncode != 0 or not (tmp / artifact).is_file():
            return None
        try:
            tmp.rename(folder)
        except OSError:
            if not (folder / artifact).is_file():
                return None
        return folder
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def cached_binary(key: str, name: str = "kernel") -> Path | None:
    """The linked binary stored under `key` when it and every dependency it was built from are unchanged."""
    return lookup_binary(cache_root() / "bin" / key, name)


def compile_env() -> dict[str, str]:
    """The environment of every compile: the user's PATH (the compiler's assembler and linker), the C locale (the
    diagnostics' wording that gccdiag and the log parsers read)."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "LANG": "C"}


def gxx_command(
    cxx: str,
    sources: Sequence[str | Path],
    *,
    flags: Sequence[str],
    include_dirs: Sequence[str | Path] = (),
    defines: Mapping[str, str | None] | None = None,
    output: str | None = None,
    mode: str = "link",
    depfile: str | None = None,
    language: str | None = None,
) -> list[str]:
    """The one g++ command line of the toolchain (kernels, the PCH, the runtime object, op_host programs,
    syntax checks). mode: link (an executable), object (-c), header (a PCH, -x c++-header), syntax
    (-fsyntax-only, no output)."""
    cmd = [cxx, *flags]
    for name, val in (defines or {}).items():
        cmd.append(f"-D{name}" if val is None else f"-D{name}={val}")
    cmd += [f"-I{d}" for d in include_dirs]
    if depfile is not None:
        cmd += ["-MMD", "-MF", depfile]
    if mode == "syntax":
        cmd.append("-fsyntax-only")
    elif mode == "object":
        cmd.append("-c")
    elif mode == "header":
        language = language or "c++-header"
    if language is not None:
        cmd += ["-x", language]
    cmd += [str(x) for x in sources]
    if output is not None and mode != "syntax":
        cmd += ["-o", output]
    return cmd


def build(
    spec: KernelSpec,
    source: Path,
    timeout: float = 60.0,
    use_cache: bool = True,
    fallback_line: int = 0,
    strict_assert: bool = False,
) -> CompileResult:
    """Compile (or fetch from the cache) the kernel binary for this spec and source.

    strict_assert: compile ASSERT / ASCENDC_ASSERT as CPU-debug traps (harness.generate).
    """
    t0 = time.monotonic()
    cxx = find_cxx()
    if cxx is None:
        return CompileResult(
            ok=False,
            diagnostics=[
                Diagnostic(
                    message="g++ was not found on PATH: the emulator backend needs a C++17 compiler "
                    "(install g++, or point ASCENDC_LSP_CXX at one)",
                    code="toolchain",
                    category="toolchain-env",
                    file=str(source),
                    source=EMULATOR_SOURCE,
                )
            ],
        )
    inc = include_dir()
    bp = plan(spec, source, cxx, strict_assert=strict_assert)
    bin_dir = cache_root() / "bin"
    entry = bin_dir / bp.key
    if use_cache:
        hit = lookup_binary(entry)
        if hit is not None:
            return CompileResult(ok=True, binary=hit, cached=True, seconds=time.monotonic() - t0)
    pch = ensure_pch(cxx, timeout) if use_cache else None
    runtime = ensure_runtime(cxx, timeout) if use_cache else None
    # without the runtime object the headers are used header-only (every runtime function compiled per kernel)
    flags = bp.flags if runtime is not None else [f for f in bp.flags if f != SPLIT_FLAG]
    workdir = Path(tempfile.mkdtemp(prefix="ascendc-emu-build-"))
    try:
        (workdir / "harness.cpp").write_text(bp.harness, encoding="utf-8")
        if pch is None:  # the harness includes the wrapper first; without a PCH it is a plain header
            (workdir / PCH_HEADER).write_text(PCH_WRAPPER, encoding="utf-8")
        cmd = gxx_command(
            cxx,
            ["harness.cpp", *([runtime] if runtime is not None else [])],
            flags=[*flags, *DIAG_FLAGS],
            include_dirs=[*([pch] if pch is not None else []), inc],
            output="kernel",
            depfile="deps.d",
        )
        read = [inc, source, (bp.included or source).parent, *spec.include_dirs, *readable_roots([source, spec.base_dir])]
        if pch is not None:
            read.append(pch)
        if runtime is not None:
            read.append(runtime.parent)
        if spec.tiling is not None and spec.tiling.header is not None:
            read.append(spec.tiling.header.parent)
        res = sandbox.run_sandboxed(
            cmd,
            workdir,
            sandbox.Limits(timeout=timeout, memory_bytes=COMPILE_MEMORY),
            read_paths=read,
            env=compile_env(),
        )
        log = res.stderr + res.stdout
        if res.timed_out or res.error or res.returncode != 0 or not (workdir / "kernel").is_file():
            diags = _failure_diagnostics(spec, source, res, fallback_line, inc)
            return CompileResult(ok=False, diagnostics=diags, seconds=time.monotonic() - t0, log=log)
        binary = workdir / "kernel"
        if not use_cache:
            keep = Path(tempfile.mkdtemp(prefix="ascendc-emu-bin-"))
            shutil.move(str(binary), keep / "kernel")
            return CompileResult(ok=True, binary=keep / "kernel", seconds=time.monotonic() - t0, log=log)
        final = store_binary(workdir, entry, skip=[inc], label=str(source))
        if final is None:
            return CompileResult(
                ok=False,
                diagnostics=[
                    Diagnostic(message="could not store the compiled kernel", code="toolchain", category="toolchain-env", source=EMULATOR_SOURCE)
                ],
                seconds=time.monotonic() - t0,
            )
        return CompileResult(ok=True, binary=final, seconds=time.monotonic() - t0, log=log)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _failure_diagnostics(
    spec: KernelSpec, source: Path, res: sandbox.SandboxResult, fallback_line: int, inc: Path
) -> list[Diagnostic]:
    src = str(source)
    if res.timed_out:
        return [
            Diagnostic(
                message=f"compilation did not finish within {res.seconds:.0f} s (compile timeout)",
                code="compile-timeout",
                category="toolchain-env",
                span=span_at(fallback_line),
                file=src,
                source=EMULATOR_SOURCE,
            )
        ]
    if res.error:
        return [Diagnostic(message=res.error, code="toolchain", category="toolchain-env", file=src, source=EMULATOR_SOURCE)]
    if res.signal is not None:
        return [
            Diagnostic(
                message=f"the compiler was killed by {res.signal_name} (out of memory or CPU time?)",
                code="compile-crash",
                category="toolchain-env",
                span=span_at(fallback_line),
                file=src,
                source=EMULATOR_SOURCE,
            )
        ]
    inc_s = str(inc.resolve())
    user_roots = [str(source.parent.resolve()), *(str(d) for d in spec.include_dirs), str(spec.base_dir)]
    if spec.tiling is not None and spec.tiling.header is not None:
        user_roots.append(str(spec.tiling.header.parent))

    def is_user(f: str) -> bool:
        p = os.path.realpath(f) if os.path.isabs(f) else f
        if p.startswith(inc_s) or os.path.basename(p) == "harness.cpp" or not os.path.isabs(p):
            return False
        return any(p.startswith(r) for r in user_roots)

    def hint(msg: gccdiag.GccMessage) -> str | None:
        if os.path.basename(msg.file) == "harness.cpp":
            return harness_hint(spec)
        return None

    diags = gccdiag.to_diagnostics(res.stderr, is_user, (src, fallback_line), gccdiag.file_line, hint)
    return diags or [gccdiag.compile_failed(res.stderr, res.stdout, res.returncode, src, fallback_line)]


@dataclass
class SyntaxResult:
    ok: bool
    stderr: str
    seconds: float
    timed_out: bool = False


def _lowered_if_launching(
    source: Path, workdir: Path, include_dirs: Sequence[Path]
) -> tuple[Path, list[Path]]:
    """A kernel source that launches a kernel itself (`kernel<<<blocks, l2ctrl, stream>>>(...)` in a host wrapper,
    as op kernels' `<op>_do` functions and pybind extensions have; bisheng compiles it) gets its launches lowered
    onto the emulator's launcher (toolchain/program/lower.py) in a copy, and a source that writes bisheng's
    `[aicore]` declaration attribute gets it blanked (program/scan.py); the copy's folder is the original's on the
    include path so its quoted includes still resolve. Line numbers are unchanged."""
    from ascendc_lsp.toolchain.program.lower import LoweringError, find_launches, lower_text
    from ascendc_lsp.toolchain.program.scan import strip_aicore_attributes

    try:
        text = source.read_text(encoding="utf-8", errors="replace")
        body = strip_aicore_attributes(text)
        if "<<<" in body and find_launches(body):  # lower_text starts its copy with `#line 1 "<source>"`
            body = lower_text(body, str(source), library=True).text
        elif body != text:  # the compiler's messages name the original file
            body = f"#line 1 {json.dumps(str(source))}\n{body}"
    except (OSError, LoweringError):  # unreadable or unbalanced: compiled as written, the compiler says why
        return source, list(include_dirs)
    if body == text:
        return source, list(include_dirs)
    lowered = workdir / f"lowered_{source.name}"
    lowered.write_text(body, encoding="utf-8")
    return lowered, [source.parent, *include_dirs]


def syntax_check(
    source: Path,
    *,
    include_dirs: Sequence[Path] = (),
    defines: Mapping[str, str | None] | None = None,
    prelude: str = "",
    read_paths: Sequence[Path] = (),
    timeout: float = 60.0,
) -> SyntaxResult:
    """Compile a kernel translation unit the way `run` does (the emulator headers through the same PCH and flags,
    `prelude` C++ text before the source), syntax only: what bench/fidelity.py measures."""
    t0 = time.monotonic()
    cxx = find_cxx()
    if cxx is None:
        return SyntaxResult(False, "g++ was not found on PATH", 0.0)
    inc = include_dir()
    pch = ensure_pch(cxx, timeout)
    workdir = Path(tempfile.mkdtemp(prefix="ascendc-emu-syntax-"))
    try:
        if pch is None:
            (workdir / PCH_HEADER).write_text(PCH_WRAPPER, encoding="utf-8")
        included, include_dirs = _lowered_if_launching(source, workdir, include_dirs)
        tu = (
            f'#include "{PCH_HEADER}"\n#include "ascendc_emu/harness.h"\n{prelude}\n'
            f"#include {json.dumps(str(included))}\n"
        )
        (workdir / "tu.cpp").write_text(tu, encoding="utf-8")
        cmd = gxx_command(
            cxx,
            ["tu.cpp"],
            flags=[*BASE_FLAGS, *DIAG_FLAGS],
            include_dirs=[*([pch] if pch is not None else []), inc, *include_dirs],
            defines=defines,
            mode="syntax",
        )
        read = [inc, source.parent, *include_dirs, *read_paths, *([pch] if pch is not None else [])]
        res = sandbox.run_sandboxed(
            cmd,
            workdir,
            sandbox.Limits(timeout=timeout, memory_bytes=COMPILE_MEMORY),
            read_paths=read,
            env=compile_env(),
        )
        ok = res.returncode == 0 and not res.timed_out and not res.error
        return SyntaxResult(ok, res.error or res.stderr, time.monotonic() - t0, res.timed_out)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
