"""The CANN backend: drives an installed Ascend CANN toolkit behind the same `Toolchain` interface as the emulator.

What it does (docs/cann-backend.md has the details and what could not be tested without CANN):

* **Discovery** (`discover`): an explicit home (setting `toolchain.cannHome`), else `ASCEND_HOME_PATH`, else
  `ASCEND_TOOLKIT_HOME`, else the first of `$HOME/Ascend/ascend-toolkit/latest`,
  `/usr/local/Ascend/ascend-toolkit/latest` that holds a `set_env.sh` (the same order as the samples' run.sh).
* **Version** (`detect_version`): `version.cfg`, `*/ascend_toolkit_install.info`, `*/version.info`, then the
  resolved directory name (`8.0.RC1`, `cann-8.5.1`).
* **Pieces**: the device compiler (`bisheng`, else `ccec`), the CPU twin library (`tools/tikicpulib/lib`),
  the AscendC headers (the directory holding `kernel_operator.h`), the kernel CMake helpers (`ascendc.cmake`).
* **compile_source**: a device-compile of one kernel file with bisheng (the on-save check), its log parsed by
  `logs.parse_log` and mapped back to the user's file.
* **CannToolchain.run**: generates a CPU twin-debug harness (`-DASCENDC_CPU_DEBUG`, `AscendC::GmAlloc`,
  `AscendC::SetKernelMode`, `ICPU_RUN_KF`) or an NPU harness (`aclrtMalloc`, `ACLRT_LAUNCH_KERNEL`) plus a
  CMakeLists.txt, builds it with cmake, runs it, parses the logs, and verifies the outputs against the spec's
  reference with the same comparison as the emulator.

Every missing piece gives a sentence that names it, e.g.
"ASCEND_HOME_PATH=/x has no bisheng or ccec (looked in bin/, compiler/ccec_compiler/bin/, ...); is CANN installed?".
Nothing heavy is imported at module level; numpy comes in only when a run verifies outputs.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ascendc_lsp.toolchain import sandbox
from ascendc_lsp.toolchain.base import (
    CompileResult,
    Diagnostic,
    RunOptions,
    RunResult,
    Severity,
    Toolchain,
    ToolchainUnavailable,
)
from ascendc_lsp.toolchain.logs import LogEvent, map_locations, parse_log

if TYPE_CHECKING:
    from ascendc_lsp.toolchain.spec import KernelSpec

SOURCE_NAME = "ascendc-cann"

DEFAULT_ROOTS: tuple[str, ...] = ("~/Ascend/ascend-toolkit/latest", "/usr/local/Ascend/ascend-toolkit/latest")

# Where the device compiler lives, relative to the toolkit home, newest layouts last.
COMPILER_DIRS: tuple[str, ...] = (
    "compiler/ccec_compiler/bin",
    "tools/ccec_compiler/bin",
    "bin",
    "ccec_compiler/bin",
)
COMPILER_NAMES: tuple[str, ...] = ("bisheng", "ccec")

# Where kernel_operator.h lives (relative globs, first match wins per pattern).
HEADER_GLOBS: tuple[str, ...] = (
    "compiler/tikcpp/tikcfw",
    "tools/tikcpp/tikcfw",
    "*-linux/tikcpp/tikcfw",
    "*-linux/asc/include",
    "*-linux/asc/include/*",
    "asc/include",
    "include/ascendc",
)
KERNEL_CMAKE_GLOBS: tuple[str, ...] = (
    "tools/tikcpp/ascendc_kernel_cmake",
    "compiler/tikcpp/ascendc_kernel_cmake",
    "ascendc_devkit/tikcpp/samples/cmake",
    "*-linux/tikcpp/ascendc_kernel_cmake",
)
TIKICPULIB_DIRS: tuple[str, ...] = ("tools/tikicpulib/lib", "*-linux/tikicpulib/lib")

# --cce-aicore-arch per SoC family for a vector-only kernel (best knowledge; see docs/cann-backend.md).
AICORE_ARCH: dict[str, str] = {
    "Ascend910B": "dav-c220-vec",
    "Ascend910_93": "dav-c220-vec",
    "Ascend910A": "dav-c100",
    "Ascend310P": "dav-m200",
    "Ascend310B": "dav-m300",
    "Ascend950": "dav-c310-vec",
}
# SOC_VERSION strings the CANN CMake flow expects (a concrete part of each family).
SOC_VERSION: dict[str, str] = {
    "Ascend910B": "Ascend910B1",
    "Ascend910_93": "Ascend910_9391",
    "Ascend910A": "Ascend910A",
    "Ascend310P": "Ascend310P3",
    "Ascend310B": "Ascend310B1",
    "Ascend950": "Ascend950PR_9599",
}


class CannNotFound(ToolchainUnavailable):
    """No usable CANN installation; the message says which piece is missing and where we looked."""


# --------------------------------------------------------------------------------------------------------
# Version
# --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CannVersion:
    text: str  # as written: "8.0.RC1", "8.5.1", "7.0.0.5.242"
    source: str  # the file (or "path") it came from

    @property
    def parts(self) -> tuple[int, ...]:
        """Leading numeric components: "8.0.RC1" -> (8, 0); "8.5.1" -> (8, 5, 1)."""
        out: list[int] = []
        for p in self.text.split("."):
            if not p.isdigit():
                break
            out.append(int(p))
        return tuple(out)

    @property
    def major(self) -> int | None:
        return self.parts[0] if self.parts else None

    def at_least(self, *wanted: int) -> bool:
        return self.parts >= tuple(wanted)


_VERSION_KEY_RE = re.compile(
    r"^\s*(?:version|Version|VERSION|toolkit_version|ascend_version|package_version)\s*[=:]\s*\[?\s*"
    r"(?P<v>\d+(?:\.[0-9A-Za-z]+)+)",
    re.M,
)
_RUNNING_VERSION_RE = re.compile(r"^\s*\w*_running_version\s*=\s*\[\s*(?P<v>\d+(?:\.[0-9A-Za-z]+)+)", re.M)
_PATH_VERSION_RE = re.compile(r"(?:^|[-_/])(?:cann-)?(?P<v>\d+\.\d+(?:\.[0-9A-Za-z]+)*)$")


def parse_version_text(text: str) -> str | None:
    """The version in a version.cfg / version.info / *_install.info text, or None."""
    for rx in (_VERSION_KEY_RE, _RUNNING_VERSION_RE):
        m = rx.search(text)
        if m:
            return m.group("v")
    return None


def detect_version(home: Path) -> CannVersion | None:
    """Best-effort version of the toolkit at `home`; never raises."""
    candidates: list[Path] = [home / "version.cfg"]
    for pattern in ("*/ascend_toolkit_install.info", "*_install.info", "version.info", "*/version.info",
                    "share/info/*/version.info"):  # fmt: skip
        try:
            candidates.extend(sorted(home.glob(pattern)))
        except OSError:
            continue

    # prefer files that describe the toolkit or compiler as a whole
    def rank(p: Path) -> int:
        s = str(p)
        for i, key in enumerate(("toolkit", "version.cfg", "compiler", "runtime")):
            if key in s:
                return i
        return 9

    for p in sorted(candidates, key=rank):
        try:
            if not p.is_file() or p.stat().st_size > 1_000_000:
                continue
            v = parse_version_text(p.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
        if v:
            return CannVersion(v, str(p))
    try:
        resolved = home.resolve()
    except OSError:
        resolved = home
    for part in (resolved.name, resolved.parent.name, home.name):
        m = _PATH_VERSION_RE.search(part)
        if m:
            return CannVersion(m.group("v"), "path")
    return None


# --------------------------------------------------------------------------------------------------------
# Discovery
# --------------------------------------------------------------------------------------------------------


@dataclass
class CannInstall:
    home: Path
    how: str  # "setting", "ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "default:<path>"
    set_env: Path | None = None
    version: CannVersion | None = None
    compiler: Path | None = None
    tikicpulib: Path | None = None
    header_dirs: list[Path] = field(default_factory=list)
    kernel_cmake_dir: Path | None = None
    problems: list[str] = field(default_factory=list)

    def describe(self) -> str:
        v = self.version.text if self.version else "unknown version"
        return f"CANN {v} at {self.home} (found via {self.how})"

    def require_compiler(self) -> Path:
        if self.compiler is None:
            looked = ", ".join(d + "/" for d in COMPILER_DIRS)
            raise CannNotFound(
                f"{self._where()} has no bisheng or ccec (looked in {looked}); is CANN installed?"
            )
        return self.compiler

    def require_tikicpulib(self) -> Path:
        if self.tikicpulib is None:
            raise CannNotFound(
                f"{self._where()} has no tools/tikicpulib/lib (the CPU twin-debug library); "
                "install the CANN toolkit package (not only the runtime/kernels package) or use --backend emulator"
            )
        return self.tikicpulib

    def require_kernel_cmake(self) -> Path:
        if self.kernel_cmake_dir is None:
            raise CannNotFound(
                f"{self._where()} has no ascendc_kernel_cmake directory (looked in "
                f"{', '.join(KERNEL_CMAKE_GLOBS)}); the NPU build needs the CANN toolkit's kernel CMake helpers"
            )
        return self.kernel_cmake_dir

    def _where(self) -> str:
        if self.how in ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"):
            return f"{self.how}={self.home}"
        return f"the CANN toolkit at {self.home} ({self.how})"


def _first_existing(home: Path, patterns: Sequence[str], marker: str | None = None) -> list[Path]:
    found: list[Path] = []
    for pat in patterns:
        try:
            matches = sorted(home.glob(pat)) if any(c in pat for c in "*?[") else [home / pat]
        except OSError:
            continue
        for m in matches:
            target = m / marker if marker else m
            if target.exists() and m not in found:
                found.append(m)
    return found


def inspect_home(home: Path, how: str) -> CannInstall:
    """Look at a toolkit directory: version, compiler, CPU twin library, headers. Never raises."""
    inst = CannInstall(home=home, how=how)
    se = home / "set_env.sh"
    if not se.is_file():
        se = home.parent / "set_env.sh" if (home.parent / "set_env.sh").is_file() else se
    inst.set_env = se if se.is_file() else None
    inst.version = detect_version(home)
    for d in COMPILER_DIRS:
        for name in COMPILER_NAMES:
            p = home / d / name
            if p.is_file() and os.access(p, os.X_OK):
                inst.compiler = p
                break
        if inst.compiler:
            break
    libs = _first_existing(home, TIKICPULIB_DIRS)
    inst.tikicpulib = libs[0] if libs else None
    inst.header_dirs = _first_existing(home, HEADER_GLOBS, "kernel_operator.h")
    cm = _first_existing(home, KERNEL_CMAKE_GLOBS, "ascendc.cmake")
    inst.kernel_cmake_dir = cm[0] if cm else None
    if inst.compiler is None:
        inst.problems.append("no bisheng/ccec compiler")
    if not inst.header_dirs:
        inst.problems.append("no kernel_operator.h")
    if inst.tikicpulib is None:
        inst.problems.append("no tools/tikicpulib/lib (CPU twin)")
    return inst


def discover(
    cann_home: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    roots: Sequence[str] = DEFAULT_ROOTS,
) -> CannInstall:
    """Find the toolkit. Raises CannNotFound with a sentence naming what was tried."""
    env = os.environ if env is None else env
    tried: list[str] = []
    if cann_home:
        home = Path(os.path.expanduser(os.fspath(cann_home)))
        if not home.is_dir():
            raise CannNotFound(f"toolchain.cannHome={home} is not a directory; is CANN installed there?")
        return inspect_home(home, "setting")
    for var in ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"):
        val = env.get(var)
        if val:
            home = Path(val)
            if not home.is_dir():
                raise CannNotFound(
                    f"{var}={val} is not a directory; is CANN installed? (source its set_env.sh)"
                )
            return inspect_home(home, var)
        tried.append(f"${var} (unset)")
    home_dir = env.get("HOME") or os.path.expanduser("~")
    for root in roots:
        p = Path(root.replace("~", home_dir, 1) if root.startswith("~") else root)
        if (p / "set_env.sh").is_file() or (p.parent / "set_env.sh").is_file():
            return inspect_home(p, f"default:{p}")
        tried.append(str(p))
    raise CannNotFound(
        "no CANN toolkit found: tried " + ", ".join(tried) + ". Install CANN and source set_env.sh, "
        "set ascendc.toolchain.cannHome, or use the emulator backend."
    )


# --------------------------------------------------------------------------------------------------------
# Running CANN's tools and the programs they build: always in the sandbox
# --------------------------------------------------------------------------------------------------------

# bisheng (LLVM) on an AscendC kernel plus cmake/make around it; the CPU twin forks one process per block
CANN_MEMORY_BYTES = 8 << 30
# what an NPU program needs besides the toolkit: the driver's libraries and the device nodes (docs/cann-backend.md)
NPU_DRIVER_DIRS: tuple[str, ...] = ("/usr/local/Ascend/driver",)
NPU_DEVICE_GLOBS: tuple[str, ...] = ("/dev/davinci*", "/dev/devmm_svm", "/dev/hisi_hdc")
# the only variables of the caller's environment a CANN tool sees (no API keys, tokens or proxies)
_ENV_KEEP: tuple[str, ...] = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ")
# what a sourced set_env.sh reports that belongs to the sandbox it ran in, not to the toolkit
_ENV_SANDBOX_OWN: frozenset[str] = frozenset({"HOME", "PWD", "OLDPWD", "SHLVL", "_", "TMPDIR"})


def toolkit_read_paths(inst: CannInstall) -> list[Path]:
    """What of the toolkit a sandboxed tool may read: its home (as named, links and all) and its set_env.sh."""
    paths = [inst.home]
    if inst.set_env is not None:
        paths.append(inst.set_env.parent)
    return paths


def run_tool(
    inst: CannInstall,
    argv: Sequence[str],
    workdir: Path,
    *,
    timeout: float,
    env: Mapping[str, str],
    read_paths: Sequence[Path] = (),
    memory_bytes: int = CANN_MEMORY_BYTES,
    npu: bool = False,
    cancel: threading.Event | None = None,
) -> sandbox.SandboxResult:
    """Run a CANN tool, or a program it built, through toolchain/sandbox.py: time and memory limits, no network,
    `workdir` the only writable place, the toolkit and `read_paths` read-only. `npu` adds the driver and the
    device nodes a real NPU run needs. Never raises for the child's failures (see SandboxResult.error)."""
    reads = [*toolkit_read_paths(inst), *read_paths]
    devices: list[Path] = []
    if npu:
        reads += [Path(d) for d in NPU_DRIVER_DIRS if os.path.isdir(d)]
        devices = [Path(d) for pattern in NPU_DEVICE_GLOBS for d in sorted(glob.glob(pattern))]
    return sandbox.run_sandboxed(
        list(argv),
        workdir,
        sandbox.Limits(timeout=timeout, memory_bytes=memory_bytes),
        read_paths=reads,
        env=env,
        cancel=cancel,
        device_paths=devices,
    )


def sandbox_failure(res: sandbox.SandboxResult, what: str, timeout: float) -> str | None:
    """One line when the sandbox, not the tool, ended the run (refused, not started, killed); else None."""
    if res.error:
        return f"cannot run {what}: {res.error}"
    if res.timed_out:
        return f"{what} did not finish within {timeout:g} s"
    if res.limit_message:
        return f"{what} was {res.limit_message}"
    return None


def toolkit_environment(
    inst: CannInstall, base: Mapping[str, str] | None = None, timeout: float = 20.0
) -> dict[str, str]:
    """The environment CANN tools run with: a minimal one from `base` (PATH, locale, ASCEND_*; none of the user's
    secrets) plus what the toolkit's `set_env.sh` sets, sourced by bash in the sandbox; computed paths otherwise."""
    given = os.environ if base is None else base
    env = {k: given[k] for k in _ENV_KEEP if k in given}
    env.update({k: v for k, v in given.items() if k.startswith("ASCEND_")})
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    if inst.set_env is not None and shutil.which("bash", path=env["PATH"]):
        with tempfile.TemporaryDirectory(prefix="ascendc-lsp-cann-env-") as tmp:
            res = run_tool(
                inst,
                ["bash", "-c", 'source "$1" >/dev/null 2>&1; env -0', "bash", str(inst.set_env)],
                Path(tmp),
                timeout=timeout,
                env=env,
                memory_bytes=1 << 30,
            )
        if sandbox_failure(res, "set_env.sh", timeout) is None and res.returncode == 0 and res.stdout:
            sourced: dict[str, str] = {}
            for item in res.stdout.split("\0"):
                key, eq, value = item.partition("=")
                if eq and key and key not in _ENV_SANDBOX_OWN:
                    sourced[key] = value
            if sourced:
                env = sourced
    env.setdefault("ASCEND_HOME_PATH", str(inst.home))
    env.setdefault("ASCEND_TOOLKIT_HOME", str(inst.home))
    paths = [str(p) for p in (inst.compiler.parent if inst.compiler else None, inst.home / "bin") if p]
    env["PATH"] = os.pathsep.join([*paths, env.get("PATH", "")])
    libs = [str(inst.home / "lib64")]
    if inst.tikicpulib is not None:
        libs.append(str(inst.tikicpulib))
    env["LD_LIBRARY_PATH"] = os.pathsep.join([*libs, env.get("LD_LIBRARY_PATH", "")]).rstrip(os.pathsep)
    return env


# --------------------------------------------------------------------------------------------------------
# Logs -> diagnostics
# --------------------------------------------------------------------------------------------------------


def _utf16_column(path: str | None, line1: int | None, col1: int | None) -> int:
    """clang's 1-based byte column -> 0-based UTF-16 column, using the file when it is readable."""
    if col1 is None or col1 <= 0:
        return 0
    if not path or line1 is None:
        return col1 - 1
    try:
        with open(path, "rb") as f:
            for i, raw in enumerate(f, start=1):
                if i == line1:
                    prefix = raw[: col1 - 1].decode("utf-8", errors="replace")
                    return len(prefix.encode("utf-16-le")) // 2
                if i > line1:
                    break
    except OSError:
        pass
    return col1 - 1


_LSP_SEVERITY: dict[str, Severity] = {
    "error": "error",
    "warning": "warning",
    "note": "information",
    "info": "information",
}


def event_to_diagnostic(ev: LogEvent, source: str | None = None) -> Diagnostic:
    """A `base.Diagnostic` for one log event (0-based LSP range). The category stays None unless the log
    states it (emulator reports); knowledge retrieval assigns it later from the message and codes."""
    on_user_file = (
        source is not None and ev.file is not None and os.path.abspath(ev.file) == os.path.abspath(source)
    )
    line0 = (ev.line - 1) if (ev.line is not None and ev.line > 0) else 0
    col0 = _utf16_column(ev.file, ev.line, ev.column)
    data: dict[str, Any] = {"kind": ev.kind, "codes": list(ev.codes), "stage": ev.stage}
    for key, val in (("errorStr", ev.error_str), ("retCode", ev.ret_code), ("core_id", ev.core_id),
                     ("block", ev.block), ("pipe", ev.pipe), ("api", ev.api), ("tool", ev.tool),
                     ("check", ev.check)):  # fmt: skip
        if val is not None:
            data[key] = val
    if ev.notes:
        data["notes"] = [n.to_json() for n in ev.notes[:10]]
    if ev.extra:
        data["extra"] = {k: v for k, v in ev.extra.items() if k != "mismatches"}
    if not on_user_file and ev.file and ev.line:
        data["location"] = f"{ev.file}:{ev.line}"
    message = ev.message
    if ev.error_str and ev.error_str not in message:
        message = f"{message} (errorStr: {ev.error_str})"
    if ev.codes and not any(c in message for c in ev.codes):
        message = f"{message} [{', '.join(ev.codes[:3])}]"
    return Diagnostic(
        message=message,
        severity=_LSP_SEVERITY.get(ev.severity, "error"),
        code=ev.code or ev.check or "",
        category=ev.category,
        line=line0 if (on_user_file or source is None or ev.file is None) else 0,
        character=col0 if on_user_file else 0,
        file=ev.file if on_user_file else source,
        source=SOURCE_NAME,
        data=data,
    )


def log_to_diagnostics(
    log: str | bytes, source: str | os.PathLike[str] | None, *, include_notes: bool = False
) -> list[Diagnostic]:
    """Parse a CANN log and turn its events into diagnostics on `source` (locations mapped back)."""
    events = parse_log(log)
    if source is not None:
        events = map_locations(events, os.fspath(source))
    src = os.fspath(source) if source is not None else None
    return [
        event_to_diagnostic(ev, src) for ev in events if include_notes or ev.severity in ("error", "warning")
    ]


# --------------------------------------------------------------------------------------------------------
# Device compile of one file (the on-save check)
# --------------------------------------------------------------------------------------------------------


def compile_command(
    inst: CannInstall, source: Path, soc: str = "Ascend910B", include_dirs: Sequence[Path] = (),
    defines: Mapping[str, str | None] | None = None, output: Path | None = None,
) -> list[str]:  # fmt: skip
    """bisheng/ccec command line that compiles one kernel file for the AI Core (object only)."""
    cc = inst.require_compiler()
    arch = AICORE_ARCH.get(soc, AICORE_ARCH["Ascend910B"])
    cmd = [str(cc), "-c", "-x", "cce", f"--cce-aicore-arch={arch}", "-O2", "-std=c++17"]
    cmd += ["-mllvm", "-cce-aicore-stack-size=0x8000", "-mllvm", "-cce-aicore-function-stack-size=0x8000"]
    for d in [
        *inst.header_dirs,
        *[h.parent / "impl" for h in inst.header_dirs if (h.parent / "impl").is_dir()],
    ]:
        cmd.append(f"-I{d}")
    for sub in ("impl", "interface"):
        for h in inst.header_dirs:
            if (h / sub).is_dir():
                cmd.append(f"-I{h / sub}")
    cmd.append(f"-I{inst.home / 'include'}")
    for d in include_dirs:
        cmd.append(f"-I{d}")
    for k, v in (defines or {}).items():
        cmd.append(f"-D{k}" if v is None else f"-D{k}={v}")
    cmd += [str(source), "-o", str(output) if output else os.devnull]
    return cmd


def compile_source(
    source: str | os.PathLike[str], *, inst: CannInstall | None = None, soc: str = "Ascend910B",
    include_dirs: Sequence[Path] = (), defines: Mapping[str, str | None] | None = None,
    timeout: float = 120.0, copy_to_temp: bool = False, cancel: threading.Event | None = None,
) -> CompileResult:  # fmt: skip
    """Compile one kernel file with bisheng, in the sandbox, and return diagnostics on that file.

    `copy_to_temp` compiles a copy in a temporary directory (the LSP compiles the unsaved buffer that way);
    the log then names the copy and `map_locations` maps it back by basename. The compiler reads the toolkit,
    the kernel's folder and `include_dirs`, and writes only in a temporary directory."""
    src = Path(source)
    inst = inst or discover()
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="ascendc-cann-") as tmp:
        compiled = src
        if copy_to_temp:
            compiled = Path(tmp) / src.name
            shutil.copyfile(src, compiled)
        cmd = compile_command(
            inst, compiled, soc, [src.parent, *include_dirs], defines, Path(tmp) / "kernel.o"
        )
        res = run_tool(
            inst, cmd, Path(tmp), timeout=timeout, env=toolkit_environment(inst),
            read_paths=[src.parent, *include_dirs], cancel=cancel,
        )  # fmt: skip
    log = res.stdout + res.stderr
    failure = None if res.cancelled else sandbox_failure(res, Path(cmd[0]).name, timeout)
    if failure is not None:
        category = "toolchain-env" if res.error else None
        d = Diagnostic(failure, file=str(src), source=SOURCE_NAME, category=category)
        return CompileResult(ok=False, diagnostics=[d], seconds=time.monotonic() - t0, log=log)
    diags = log_to_diagnostics(log, src)
    ok = res.returncode == 0 and not res.cancelled and not any(d.severity == "error" for d in diags)
    if res.returncode != 0 and not any(d.severity == "error" for d in diags):
        tail = log.strip().splitlines()[-1:] or [f"exit code {res.returncode}"]
        diags.append(Diagnostic(f"bisheng failed: {tail[0][:300]}", file=str(src), source=SOURCE_NAME))
    return CompileResult(ok=ok, diagnostics=diags, seconds=time.monotonic() - t0, log=log)


# --------------------------------------------------------------------------------------------------------
# Harness generation (CPU twin and NPU)
# --------------------------------------------------------------------------------------------------------


def _cstr(s: str) -> str:
    return json.dumps(s)


def _c_literal(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v) if -(2**31) <= v < 2**31 else (f"{v}LL" if v < 0 else f"{v}ULL")
    return repr(float(v))


def _tiling_lines(prefix: str, fields: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    for name, v in fields.items():
        target = f"{prefix}.{name}"
        if isinstance(v, Mapping):
            out.extend(_tiling_lines(target, v))
        elif isinstance(v, list):
            for i, item in enumerate(v):
                out.append(f"    {target}[{i}] = {_c_literal(item)};")
        else:
            out.append(f"    {target} = {_c_literal(v)};")
    return out


_COMMON_IO = """\
static bool ReadFile(const char* path, void* buf, size_t size) {
    FILE* f = std::fopen(path, "rb");
    if (!f) { std::fprintf(stderr, "[ERROR] cannot open %s\\n", path); return false; }
    size_t n = std::fread(buf, 1, size, f);
    std::fclose(f);
    if (n != size) { std::fprintf(stderr, "[ERROR] %s holds %zu bytes, expected %zu\\n", path, n, size); return false; }
    return true;
}
static bool WriteFile(const char* path, const void* buf, size_t size) {
    FILE* f = std::fopen(path, "wb");
    if (!f) { std::fprintf(stderr, "[ERROR] cannot write %s\\n", path); return false; }
    std::fwrite(buf, 1, size, f);
    std::fclose(f);
    return true;
}
"""


def cpu_harness(spec: KernelSpec, source: Path, kernel_mode: str = "AIV_MODE") -> str:
    """main.cpp for the CPU twin: GmAlloc every buffer, SetKernelMode, ICPU_RUN_KF, write outputs."""
    lines = [
        f"// ascendc-lsp CANN CPU twin harness for '{spec.kernel}'; generated, do not edit",
        "#include <cstdio>",
        "#include <cstring>",
        "#include <cstdint>",
        '#include "tikicpulib.h"',
    ]
    if spec.tiling is not None and spec.tiling.header is not None:
        lines.append(f"#include {_cstr(str(spec.tiling.header))}")
    lines.append(f"#include {_cstr(str(source))}")
    lines.append(_COMMON_IO)
    lines.append("int main() {")
    args: list[str] = []
    frees: list[str] = []
    writes: list[str] = []
    ok = "    bool ok = true;"
    lines.append(ok)
    for name in spec.param_order():
        t = spec.tensor(name)
        if name == "workspace":
            lines.append(
                f"    uint8_t* cann_ws = (uint8_t*)AscendC::GmAlloc({max(spec.workspace_bytes, 32)});"
            )
            args.append("cann_ws")
            frees.append("cann_ws")
        elif name == "tiling" and spec.tiling is not None:
            lines.append(f"    {spec.tiling.struct} cann_tiling_value{{}};")
            lines.extend(_tiling_lines("cann_tiling_value", spec.tiling.fields))
            if spec.tiling.pass_mode == "value":
                args.append("cann_tiling_value")
            else:
                lines.append(
                    f"    uint8_t* cann_tiling = (uint8_t*)AscendC::GmAlloc(sizeof({spec.tiling.struct}));"
                )
                lines.append("    std::memcpy(cann_tiling, &cann_tiling_value, sizeof(cann_tiling_value));")
                args.append("cann_tiling")
                frees.append("cann_tiling")
        elif t is not None:
            lines.append(f"    uint8_t* cann_{name} = (uint8_t*)AscendC::GmAlloc({t.nbytes});")
            if any(t is i for i in spec.inputs):
                lines.append(f"    ok = ReadFile({_cstr(name + '.bin')}, cann_{name}, {t.nbytes}) && ok;")
            else:
                lines.append(f"    std::memset(cann_{name}, 0xA5, {t.nbytes});")
                writes.append(f"    WriteFile({_cstr(name + '.out.bin')}, cann_{name}, {t.nbytes});")
            args.append(f"cann_{name}")
            frees.append(f"cann_{name}")
    lines.append("    if (!ok) return 2;")
    lines.append(f"    AscendC::SetKernelMode(KernelMode::{kernel_mode});")
    lines.append(f"    ICPU_RUN_KF({', '.join([spec.kernel, str(spec.block_dim), *args])});")
    lines.extend(writes)
    lines.extend(f"    AscendC::GmFree((void*){p});" for p in frees)
    lines.append("    return 0;")
    lines.append("}")
    return "\n".join(lines) + "\n"


def npu_harness(spec: KernelSpec) -> str:
    """main.cpp for a real NPU: ACL init, device buffers, ACLRT_LAUNCH_KERNEL, synchronize, copy back."""
    lines = [
        f"// ascendc-lsp CANN NPU harness for '{spec.kernel}'; generated, do not edit",
        "#include <cstdio>",
        "#include <cstring>",
        "#include <cstdint>",
        "#include <vector>",
        '#include "acl/acl.h"',
        f'#include "aclrtlaunch_{spec.kernel}.h"',
    ]
    if spec.tiling is not None and spec.tiling.header is not None:
        lines.append(f"#include {_cstr(str(spec.tiling.header))}")
    lines.append(_COMMON_IO)
    lines.append(
        "#define CHECK_ACL(expr) do { aclError r_ = (expr); if (r_ != ACL_SUCCESS) { "
        'std::fprintf(stderr, "[ERROR] %s failed: %d (%s:%d)\\n", #expr, (int)r_, __FILE__, __LINE__); '
        'const char* m_ = aclGetRecentErrMsg(); if (m_) std::fprintf(stderr, "[ERROR] RecentErrMsg: %s\\n", m_); '
        "return 1; } } while (0)"
    )
    lines.append("int main() {")
    lines.append("    CHECK_ACL(aclInit(nullptr));")
    lines.append("    CHECK_ACL(aclrtSetDevice(0));")
    lines.append("    aclrtStream stream = nullptr;")
    lines.append("    CHECK_ACL(aclrtCreateStream(&stream));")
    args: list[str] = []
    copies_back: list[str] = []
    for name in spec.param_order():
        t = spec.tensor(name)
        if name == "workspace":
            size = max(spec.workspace_bytes, 32)
            lines.append(
                f"    uint8_t* dev_ws = nullptr; CHECK_ACL(aclrtMalloc((void**)&dev_ws, {size}, ACL_MEM_MALLOC_HUGE_FIRST));"
            )
            args.append("dev_ws")
        elif name == "tiling" and spec.tiling is not None:
            lines.append(f"    {spec.tiling.struct} tiling_value{{}};")
            lines.extend(_tiling_lines("tiling_value", spec.tiling.fields))
            if spec.tiling.pass_mode == "value":
                args.append("tiling_value")
            else:
                lines.append("    uint8_t* dev_tiling = nullptr;")
                lines.append(
                    "    CHECK_ACL(aclrtMalloc((void**)&dev_tiling, sizeof(tiling_value), ACL_MEM_MALLOC_HUGE_FIRST));"
                )
                lines.append(
                    "    CHECK_ACL(aclrtMemcpy(dev_tiling, sizeof(tiling_value), &tiling_value, sizeof(tiling_value), ACL_MEMCPY_HOST_TO_DEVICE));"
                )
                args.append("dev_tiling")
        elif t is not None:
            lines.append(f"    std::vector<uint8_t> host_{name}({t.nbytes}, 0xA5);")
            lines.append(
                f"    uint8_t* dev_{name} = nullptr; CHECK_ACL(aclrtMalloc((void**)&dev_{name}, {t.nbytes}, ACL_MEM_MALLOC_HUGE_FIRST));"
            )
            if any(t is i for i in spec.inputs):
                lines.append(
                    f"    if (!ReadFile({_cstr(name + '.bin')}, host_{name}.data(), {t.nbytes})) return 2;"
                )
            lines.append(
                f"    CHECK_ACL(aclrtMemcpy(dev_{name}, {t.nbytes}, host_{name}.data(), {t.nbytes}, ACL_MEMCPY_HOST_TO_DEVICE));"
            )
            if not any(t is i for i in spec.inputs):
                copies_back.append(
                    f"    CHECK_ACL(aclrtMemcpy(host_{name}.data(), {t.nbytes}, dev_{name}, {t.nbytes}, ACL_MEMCPY_DEVICE_TO_HOST));"
                )
                copies_back.append(
                    f"    WriteFile({_cstr(name + '.out.bin')}, host_{name}.data(), {t.nbytes});"
                )
            args.append(f"dev_{name}")
    lines.append(
        f"    ACLRT_LAUNCH_KERNEL({spec.kernel})({', '.join([str(spec.block_dim), 'stream', *args])});"
    )
    lines.append("    CHECK_ACL(aclrtSynchronizeStream(stream));")
    lines.extend(copies_back)
    lines.append("    aclrtDestroyStream(stream);")
    lines.append("    aclrtResetDevice(0);")
    lines.append("    aclFinalize();")
    lines.append("    return 0;")
    lines.append("}")
    return "\n".join(lines) + "\n"


def cmakelists(
    spec: KernelSpec, source: Path, inst: CannInstall, mode: str, soc: str, include_dirs: Sequence[Path] = ()
) -> str:
    """A CMakeLists.txt for the CPU twin (tikicpulib) or the NPU (ascendc_library) build."""
    soc_version = SOC_VERSION.get(soc, soc)
    incs = " ".join(_cstr(str(d)) for d in [source.parent, *include_dirs])
    defs = " ".join(f"{k}" if v is None else f"{k}={v}" for k, v in spec.defines.items())
    head = [
        "cmake_minimum_required(VERSION 3.16)",
        "project(ascendc_lsp_cann LANGUAGES CXX)",
        "set(CMAKE_CXX_STANDARD 17)",
        f"set(ASCEND_CANN_PACKAGE_PATH {_cstr(str(inst.home))})",
        f"set(SOC_VERSION {_cstr(soc_version)})",
    ]
    if mode == "cpu":
        lib = inst.require_tikicpulib()
        body = [
            f"list(APPEND CMAKE_PREFIX_PATH {_cstr(str(lib / 'cmake'))} {_cstr(str(lib))})",
            "find_package(tikicpulib REQUIRED)",
            "add_executable(cann_kernel main.cpp)",
            "target_compile_definitions(cann_kernel PRIVATE ASCENDC_CPU_DEBUG"
            + (f" {defs}" if defs else "")
            + ")",
            f"target_include_directories(cann_kernel PRIVATE {incs})",
            "target_compile_options(cann_kernel PRIVATE -g -O0)",
            "target_link_libraries(cann_kernel PRIVATE tikicpulib::${SOC_VERSION})",
        ]
    else:
        cm = inst.require_kernel_cmake()
        body = [
            f"set(ASCENDC_CMAKE_DIR {_cstr(str(cm))})",
            "set(RUN_MODE npu)",
            "include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)",
            f"ascendc_library(cann_kernels STATIC {_cstr(str(source))})",
            f"ascendc_include_directories(cann_kernels PRIVATE {incs})",
        ]
        if defs:
            body.append(f"ascendc_compile_definitions(cann_kernels PRIVATE {defs})")
        body += [
            "add_executable(cann_kernel main.cpp)",
            f"target_include_directories(cann_kernel PRIVATE {incs} ${{ASCEND_CANN_PACKAGE_PATH}}/include)",
            "target_link_directories(cann_kernel PRIVATE ${ASCEND_CANN_PACKAGE_PATH}/lib64)",
            "target_link_libraries(cann_kernel PRIVATE cann_kernels ascendcl runtime)",
        ]
    return "\n".join(head + body) + "\n"


# --------------------------------------------------------------------------------------------------------
# The Toolchain
# --------------------------------------------------------------------------------------------------------


@dataclass
class _Workdir:
    root: Path
    build: Path
    binary: Path


class CannToolchain(Toolchain):
    """CANN backend. `mode`: "cpu" (CPU twin-debug, needs tikicpulib, no NPU) or "npu" (needs a device)."""

    name = "cann"

    def __init__(
        self,
        cann_home: str | os.PathLike[str] | None = None,
        mode: str = "cpu",
        env: Mapping[str, str] | None = None,
        kernel_mode: str = "AIV_MODE",
        cmake: str | None = None,
    ) -> None:
        if mode not in ("cpu", "npu"):
            raise ValueError(f"mode must be 'cpu' or 'npu', not {mode!r}")
        self.cann_home = cann_home
        self.mode = mode
        self.env = dict(os.environ if env is None else env)
        self.kernel_mode = kernel_mode
        self.cmake = cmake
        self._inst: CannInstall | None = None
        self._error: str | None = None

    # -- discovery --------------------------------------------------------------------------------
    def install(self) -> CannInstall:
        if self._inst is None:
            self._inst = discover(self.cann_home, self.env)
        return self._inst

    def available(self) -> tuple[bool, str]:
        try:
            inst = self.install()
            inst.require_compiler()
            if self.mode == "cpu":
                inst.require_tikicpulib()
            else:
                inst.require_kernel_cmake()
        except CannNotFound as exc:
            return False, str(exc)
        if self._cmake() is None:
            return False, "cmake not found on PATH (the CANN build flow is CMake based)"
        return True, inst.describe()

    def _cmake(self) -> str | None:
        return self.cmake or shutil.which("cmake", path=self.env.get("PATH"))

    # -- compile ----------------------------------------------------------------------------------
    def compile(self, spec: KernelSpec, options: RunOptions | None = None) -> CompileResult:
        options = options or RunOptions()
        try:
            source = self._source(spec, options)
        except ValueError as exc:
            return CompileResult(
                ok=False, diagnostics=[Diagnostic(str(exc), file=spec.origin, source=SOURCE_NAME)]
            )
        t0 = time.monotonic()
        try:
            inst = self.install()
            work = self._workdir(spec, options)
            soc = options.soc or spec.soc or "Ascend910B"
            main = cpu_harness(spec, source, self.kernel_mode) if self.mode == "cpu" else npu_harness(spec)
            (work.root / "main.cpp").write_text(main, encoding="utf-8")
            (work.root / "CMakeLists.txt").write_text(
                cmakelists(spec, source, inst, self.mode, soc, spec.include_dirs), encoding="utf-8"
            )
            cmake = self._cmake()
            if cmake is None:
                raise CannNotFound("cmake not found on PATH (the CANN build flow is CMake based)")
        except CannNotFound as exc:
            d = Diagnostic(str(exc), file=str(source), source=SOURCE_NAME, category="toolchain-env")
            return CompileResult(ok=False, diagnostics=[d], seconds=time.monotonic() - t0)
        env = toolkit_environment(inst, self.env)
        timeout = options.compile_timeout or options.timeout * 5
        reads = [source.parent, *spec.include_dirs, Path(cmake).resolve().parent]
        if spec.tiling is not None and spec.tiling.header is not None:
            reads.append(Path(spec.tiling.header).parent)
        logs: list[str] = []
        for argv in (
            [
                cmake,
                "-S",
                str(work.root),
                "-B",
                str(work.build),
                f"-DSOC_VERSION={SOC_VERSION.get(soc, soc)}",
            ],
            [cmake, "--build", str(work.build), "-j"],
        ):
            proc = run_tool(inst, argv, work.root, timeout=timeout, env=env, read_paths=reads)
            logs.append(proc.stdout + proc.stderr)
            failure = sandbox_failure(proc, Path(argv[0]).name, timeout)
            if failure is not None:
                d = Diagnostic(failure, file=str(source), source=SOURCE_NAME,
                               category="toolchain-env" if proc.error else None)  # fmt: skip
                return CompileResult(
                    ok=False, diagnostics=[d], seconds=time.monotonic() - t0, log="\n".join(logs)
                )
            if proc.returncode != 0:
                log = "\n".join(logs)
                diags = self._diagnostics(log, source, work)
                if not any(d.severity == "error" for d in diags):
                    diags.append(Diagnostic(f"{Path(argv[0]).name} failed with exit code {proc.returncode}",
                                            file=str(source), source=SOURCE_NAME))  # fmt: skip
                return CompileResult(ok=False, diagnostics=diags, seconds=time.monotonic() - t0, log=log)
        log = "\n".join(logs)
        binary = (
            work.binary if work.binary.exists() else next(iter(work.build.rglob("cann_kernel")), work.binary)
        )
        ok = binary.exists()
        diags = [d for d in self._diagnostics(log, source, work) if d.severity == "warning"]
        if not ok:
            diags.append(Diagnostic("the build finished but produced no cann_kernel executable", file=str(source),
                                    source=SOURCE_NAME))  # fmt: skip
        return CompileResult(ok=ok, binary=binary if ok else None, diagnostics=diags,
                             seconds=time.monotonic() - t0, log=log)  # fmt: skip

    # -- run --------------------------------------------------------------------------------------
    def run(self, spec: KernelSpec, options: RunOptions | None = None) -> RunResult:
        options = options or RunOptions()
        try:
            source = self._source(spec, options)
        except ValueError as exc:
            return RunResult(backend=f"cann-{self.mode}", kernel=spec.kernel,
                             diagnostics=[Diagnostic(str(exc), file=spec.origin, source=SOURCE_NAME)])  # fmt: skip
        result = RunResult(backend=f"cann-{self.mode}", kernel=spec.kernel, source=str(source),
                           soc=options.soc or spec.soc or "Ascend910B", stage_reached="compile")  # fmt: skip
        comp = self.compile(spec, options)
        result.compile_seconds = comp.seconds
        result.diagnostics.extend(comp.diagnostics)
        if not comp.ok or comp.binary is None:
            return result
        result.compiled = True
        result.stage_reached = "run"
        work = self._workdir(spec, options)
        try:
            from ascendc_lsp.toolchain.emulator import data as emu_data  # numpy, lazily

            inputs = emu_data.generate_inputs(spec)
            for t in spec.inputs:
                inputs[t.name].tofile(work.root / f"{t.name}.bin")
            refs = emu_data.evaluate_reference(spec, inputs)
        except Exception as exc:  # spec data problems are reported, not raised
            result.diagnostics.append(
                Diagnostic(f"cannot prepare inputs: {exc}", file=spec.origin, source=SOURCE_NAME)
            )
            return result
        inst = self.install()
        env = toolkit_environment(inst, self.env)
        gm_bytes = sum(t.nbytes for t in (*spec.inputs, *spec.outputs)) + spec.workspace_bytes
        proc = run_tool(
            inst, [str(comp.binary)], work.root, timeout=options.timeout, env=env,
            memory_bytes=max(CANN_MEMORY_BYTES, 4 * gm_bytes + (2 << 30)), npu=self.mode == "npu",
        )  # fmt: skip
        result.run_seconds = proc.seconds
        result.isolation = proc.isolation
        if proc.timed_out:
            out = proc.stdout + proc.stderr
            result.stdout = out
            result.diagnostics.extend(self._diagnostics(out, source, work))
            result.diagnostics.append(Diagnostic(
                f"the kernel did not finish within {options.timeout:g} s (on an NPU this surfaces as 507014 "
                "aicore timeout: a deadlock or a very slow kernel)", file=str(source), source=SOURCE_NAME,
                code="507014", category="sync-deadlock"))  # fmt: skip
            return result
        failure = sandbox_failure(proc, "the kernel", options.timeout)
        if failure is not None:
            result.stdout, result.stderr = proc.stdout, proc.stderr
            result.diagnostics.append(Diagnostic(failure, file=str(source), source=SOURCE_NAME,
                                                 category="toolchain-env" if proc.error else None))  # fmt: skip
            return result
        result.exit_code = proc.returncode
        result.stdout = proc.stdout
        result.stderr = proc.stderr
        diags = self._diagnostics(result.stdout + "\n" + result.stderr, source, work)
        result.diagnostics.extend(d for d in diags if d.data.get("kind") != "precision")
        if proc.returncode != 0 or any(d.severity == "error" for d in diags):
            if not any(d.severity == "error" for d in diags):
                result.diagnostics.append(Diagnostic(f"the kernel exited with code {proc.returncode}",
                                                     file=str(source), source=SOURCE_NAME))  # fmt: skip
            return result
        result.ran = True
        result.stage_reached = "verify"
        self._verify(spec, work, refs, result)
        return result

    # -- helpers ----------------------------------------------------------------------------------
    def _verify(self, spec: KernelSpec, work: _Workdir, refs: dict[str, Any], result: RunResult) -> None:
        from ascendc_lsp.toolchain.emulator import data as emu_data

        correct = True
        total = 0
        max_abs = 0.0
        max_rel = 0.0
        for t in spec.outputs:
            if not t.compare:
                continue
            out = emu_data.read_output(work.root / f"{t.name}.out.bin", t)
            if out is None:
                correct = False
                result.diagnostics.append(Diagnostic(f"output '{t.name}' was not written", file=str(result.source),
                                                     source=SOURCE_NAME))  # fmt: skip
                continue
            if t.name not in refs:
                continue
            check = emu_data.compare(t.name, out, refs[t.name], t, spec.tolerance_for(t), [b"\xa5"])
            result.outputs.append(check)
            total += check.mismatches
            max_abs = max(max_abs, check.max_abs_error)
            max_rel = max(max_rel, check.max_rel_error)
            if check.mismatches:
                correct = False
                if result.first_mismatch is None:
                    result.first_mismatch = check.first_mismatch
                result.diagnostics.append(Diagnostic(
                    f"output '{t.name}': {check.mismatches} of {check.elements} elements differ from the reference "
                    f"(max abs error {check.max_abs_error:g})", file=str(result.source), source=SOURCE_NAME,
                    category="precision-mismatch", data={"first_mismatch": check.first_mismatch}))  # fmt: skip
        result.mismatches = total
        result.max_abs_error = max_abs
        result.max_rel_error = max_rel
        result.correct = correct
        result.stage_reached = "done"

    def _source(self, spec: KernelSpec, options: RunOptions) -> Path:
        src = options.source or spec.source
        if src is None:
            raise ValueError(f"{spec.origin}: no kernel source (give `source:` in the spec or --source)")
        return Path(src).resolve()

    def _workdir(self, spec: KernelSpec, options: RunOptions) -> _Workdir:
        root = options.keep_dir
        if root is None:
            digest = hashlib.sha1(str(self._source(spec, options)).encode()).hexdigest()[:10]
            key = re.sub(r"[^\w.-]", "_", f"{spec.kernel}-{self.mode}-{digest}")
            root = (
                Path(tempfile.gettempdir())
                / f"ascendc-lsp-cann-{os.getuid() if hasattr(os, 'getuid') else 0}"
                / key
            )
        root.mkdir(parents=True, exist_ok=True)
        build = root / "build"
        build.mkdir(exist_ok=True)
        return _Workdir(root=root, build=build, binary=build / "cann_kernel")

    def _diagnostics(self, log: str, source: Path, work: _Workdir) -> list[Diagnostic]:
        events = parse_log(log)
        # the harness includes the user's file by absolute path, so most locations are already right;
        # a copy CMake made (same basename) is mapped back, and harness lines stay on main.cpp
        events = map_locations(events, str(source))
        out = []
        for ev in events:
            if ev.severity not in ("error", "warning"):
                continue
            d = event_to_diagnostic(ev, str(source))
            if ev.file and Path(ev.file).name == "main.cpp" and str(work.root) in ev.file:
                d.data["in_harness"] = True
                d.message = f"{d.message} (in the generated harness {ev.file}:{ev.line})"
            out.append(d)
        return out
