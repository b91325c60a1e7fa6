"""Compile an op project's op_host/*.cpp on the CPU against the clean-room host shims (emulator/host_include/)
together with our driver, and run it sandboxed: `describe` (the registered OpDefs, tiling classes, bindings) and
`run_tiling` (the op's own TilingFunc on a node built from the test case).

The binary is cached like kernels (emulator/build.py: content key + a manifest of the headers it read).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ascendc_lsp.diagnostics import Diagnostic
from ascendc_lsp.toolchain import sandbox
from ascendc_lsp.toolchain.base import EMULATOR_SOURCE
from ascendc_lsp.toolchain.emulator import build, gccdiag
from ascendc_lsp.toolchain.opproject.discovery import (
    OpProject,
    OpProjectError,
    companion_sources,
    includes_of,
    repository_headers,
    resolve_include_dirs,
    tiling_registrations,
)

HOST_FLAGS = (build.CXX_STANDARD, "-O0", "-g0", "-w", "-pthread")
HOST_BINARY = "host"
HOST_MEMORY = 2 << 30
DRIVER = "ascendc_emu_host/driver.cpp"


def host_include_dir() -> Path:
    """The host shims (beside the package's kernel headers): only ever on the host compile's include path."""
    from ascendc_lsp.resources import emulator_include_dir

    return emulator_include_dir().parent / "host_include"


@dataclass
class HostBuild:
    binary: Path | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    seconds: float = 0.0
    cached: bool = False
    log: str = ""
    include_dirs: list[Path] = field(default_factory=list)


@dataclass
class HostRun:
    ok: bool
    data: dict[str, Any]
    stderr: str = ""
    signal: str | None = None
    timed_out: bool = False
    error: str = ""


def ensure_driver(cxx: str, timeout: float) -> Path | None:
    """driver.cpp compiled once per compiler, flags and shim version (the op_host sources link against it)."""
    shims = host_include_dir()
    folder = build.cache_root() / "host-driver" / build.cache_key(
        build.compiler_id(cxx),
        json.dumps(HOST_FLAGS),
        build.headers_digest(shims),
        build.headers_digest(shims.parent / "include" / "kernel_tiling"),
    )
    cmd = build.gxx_command(
        cxx, [shims / DRIVER], flags=HOST_FLAGS, include_dirs=[shims], output="driver.o", mode="object"
    )
    limits = sandbox.Limits(timeout=max(timeout, 120.0), memory_bytes=HOST_MEMORY)
    built = build.build_once(folder, "driver.o", cmd, limits, [shims, shims.parent / "include"])
    return built / "driver.o" if built is not None else None


HOST_PCH = "ascendc_emu_host_pch.h"
# What op_host code includes most (bench/fidelity.py counts): precompiled once, forced first into every op_host
# translation unit (the CANN host headers bring the same standard headers with them).
_HOST_PCH_TEXT = """// ascendc-lsp host precompiled header
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"
"""


def ensure_host_pch(cxx: str, timeout: float) -> Path | None:
    """Folder holding the precompiled host header for HOST_FLAGS and this shim version; None when it cannot be."""
    shims = host_include_dir()
    folder = build.cache_root() / "host-pch" / build.cache_key(
        build.compiler_id(cxx), json.dumps(HOST_FLAGS), build.headers_digest(shims), str(shims), _HOST_PCH_TEXT
    )
    cmd = build.gxx_command(
        cxx, [HOST_PCH], flags=HOST_FLAGS, include_dirs=[shims], output=f"{HOST_PCH}.gch", mode="header"
    )
    limits = sandbox.Limits(timeout=max(timeout, 120.0), memory_bytes=HOST_MEMORY)
    return build.build_once(folder, f"{HOST_PCH}.gch", cmd, limits, [shims, shims.parent / "include"],
                            {HOST_PCH: _HOST_PCH_TEXT})


_API_LAYER = ("opdev/", "aclnn/", "aclnn_kernels/", "aclnnop/")


def _sources(project: OpProject, extra: Sequence[Path] = ()) -> list[Path]:
    """op_host sources that define the op and its tiling; the aclnn API layer (aclnn_*.cpp, opdev/aclnn
    includes) is host-runtime code the op build does not run, so it is left out."""
    srcs = [
        s
        for s in project.host_sources()
        if not s.name.startswith("aclnn_")
        and not any(name.startswith(_API_LAYER) for _k, name in includes_of(s))
    ]
    if not srcs:
        raise OpProjectError(
            f"{project.op_host}: no op_host source (*.cpp) to read the OpDef and TilingFunc from"
        )
    shared = _shared_tiling_sources(project, srcs)
    return srcs + shared + [p for p in extra if p not in srcs and p not in shared]


_OP_ADD = re.compile(r"\bOP_ADD\s*\(\s*(\w+)")


def _shared_tiling_sources(project: OpProject, srcs: list[Path]) -> list[Path]:
    """Sources elsewhere in the repository that register the tiling of an op whose op_host has none (what the op
    library's CMake links in, e.g. cann-ops' common foreach tiling), for the ops OP_ADD names literally; ops
    registered through a macro are found after a first describe (`shared_tiling_sources`)."""
    text = "\n".join(s.read_text(encoding="utf-8", errors="replace") for s in srcs)
    if "SetTiling" in text:
        return []
    todo = [
        op
        for op in _OP_ADD.findall(text)
        if not re.search(rf"\bIMPL_OP(?:_OPTILING)?\s*\(\s*{re.escape(op)}\s*\)", text)
    ]
    return [p for p in shared_tiling_sources(project, todo) if p not in srcs]


def shared_tiling_sources(project: OpProject, op_types: Sequence[str]) -> list[Path]:
    """The repository's sources registering the tiling of these op types (IMPL_OP_OPTILING / IMPL_OP)."""
    extra: list[Path] = []
    for op in op_types:
        for p in tiling_registrations(project.repo_root).get(op, ()):
            if p not in extra and p.suffix in (".cpp", ".cc"):
                extra.append(p)
    return extra


def host_include_dirs(project: OpProject, cxx: str, extra: Sequence[Path] = ()) -> list[Path]:
    """-I folders of the host compile: the shims, the project's op_host and root, then what the include rule finds,
    then the aliases of the op's tiling header (`tiling_header_aliases`)."""
    shims = host_include_dir()
    base = [shims, project.op_host, project.root]
    srcs = _sources(project, extra)
    found = resolve_include_dirs(srcs, project.repo_root, provided=base, system=build.compiler_include_dirs(cxx))
    alias = tiling_header_aliases(project, srcs, [*base, *found])
    return [*base, *found, *([alias] if alias is not None else [])]


def tiling_header_aliases(project: OpProject, srcs: Sequence[Path], include_dirs: Sequence[Path]) -> Path | None:
    """A folder of one-line headers for an op_host that includes its tiling header under another snake_case
    spelling of the op name than the file has: msOpGen names the files by splitting before every capital
    (BAMCustom -> b_a_m_custom_tiling.h) while code generators write `bam_custom_tiling.h` and store the project
    under msOpGen's names (EvoKernel's projects, whose results say they compiled). An include `X_tiling.h` found
    nowhere resolves to the op_host's single `Y_tiling.h` whose name equals it once underscores are dropped."""
    have = sorted(project.op_host.glob("*_tiling.h"))
    aliases: dict[str, Path] = {}
    for s in srcs:
        for kind, name in includes_of(s):
            if kind != '"' or "/" in name or not name.endswith("_tiling.h") or name in aliases:
                continue
            if any((d / name).is_file() for d in [s.parent, *include_dirs]):
                continue
            same = [p for p in have if p.name.replace("_", "") == name.replace("_", "")]
            if len(same) == 1:
                aliases[name] = same[0]
    if not aliases:
        return None
    text = {n: f'#include "{p}"  // ascendc-lsp: {n} is {p.name} (msOpGen spelling)\n' for n, p in aliases.items()}
    digest = hashlib.sha256(json.dumps(sorted(text.items())).encode()).hexdigest()[:24]
    folder = build.cache_root() / "host-alias" / digest
    if not folder.is_dir():
        folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=folder.parent))
        for n, t in text.items():
            (tmp / n).write_text(t, encoding="utf-8")
        try:
            tmp.rename(folder)
        except OSError:  # another process made it first: same content
            shutil.rmtree(tmp, ignore_errors=True)
    return folder


def build_host(
    project: OpProject,
    timeout: float = 120.0,
    use_cache: bool = True,
    extra: Sequence[Path] = (),
    extra_retry: bool = False,
    separate_libraries: bool = False,
) -> HostBuild:
    """Compile op_host/*.cpp + the driver (cached). Compile errors come back as diagnostics on the project's lines.

    separate_libraries: the real build links an op's definition (`*_def.cpp`: opsproto, op_host_aclnn) and its
    tiling (optiling) into different shared libraries, so a non-inline function both include from one header is
    defined once per library there; linked into our one host binary it is a duplicate, which the linker then takes
    once (the copies come from the same header text)."""
    t0 = time.monotonic()
    cxx = build.find_cxx()
    if cxx is None:
        return HostBuild(
            None,
            [Diagnostic(message="g++ was not found on PATH", code="toolchain", category="toolchain-env", source=EMULATOR_SOURCE)],
        )
    shims = host_include_dir()
    kernel_inc = shims.parent / "include"  # host_include/kernel_tiling/kernel_tiling.h includes its structs
    srcs = _sources(project, extra)
    incs = host_include_dirs(project, cxx, extra)
    h = hashlib.sha256()
    for part in (
        "host-v1",
        build.compiler_id(cxx),
        json.dumps(HOST_FLAGS),
        json.dumps([str(d) for d in incs]),
        "separate-libraries" if separate_libraries else "",
        build.headers_digest(shims),
        build.headers_digest(kernel_inc / "kernel_tiling"),
    ):
        h.update(part.encode())
        h.update(b"\0")
    for s in srcs:
        h.update(str(s).encode())
        h.update(s.read_bytes())
    entry = build.cache_root() / "host" / h.hexdigest()[:40]
    if use_cache:
        hit = build.lookup_binary(entry, HOST_BINARY)
        if hit is not None:
            return HostBuild(hit, seconds=time.monotonic() - t0, cached=True, include_dirs=incs)
    driver = ensure_driver(cxx, timeout)
    workdir = Path(tempfile.mkdtemp(prefix="ascendc-host-build-"))
    try:
        pch = ensure_host_pch(cxx, timeout) if use_cache else None
        cmd = build.gxx_command(
            cxx,
            [*srcs, driver if driver is not None else shims / DRIVER],
            flags=[
                *HOST_FLAGS,
                *build.DIAG_FLAGS,
                *(["-include", HOST_PCH] if pch is not None else []),
                *(["-Wl,--allow-multiple-definition"] if separate_libraries else []),
            ],
            include_dirs=[*([pch] if pch is not None else []), *incs],
            output=HOST_BINARY,
            depfile="deps.d",
        )
        # -MMD with several sources writes one .d per source; merge them for the manifest
        cmd = [c for c in cmd if c not in ("-MF", "deps.d")]
        read = [
            *([pch] if pch is not None else []),
            shims,
            kernel_inc,
            project.root,
            project.repo_root,
            *incs,
            *([driver.parent] if driver else []),
        ]
        res = sandbox.run_sandboxed(
            cmd, workdir, sandbox.Limits(timeout=timeout, memory_bytes=HOST_MEMORY), read_paths=read, env=build.compile_env()
        )
        log = res.stderr + res.stdout
        if res.timed_out or res.error or res.returncode != 0 or not (workdir / HOST_BINARY).is_file():
            if "undefined reference" in log and not extra_retry:
                # a library's functions declared in its headers and defined beside them: link those sources too
                headers = repository_headers(srcs, project.repo_root, incs, build.compiler_include_dirs(cxx))
                more = [p for p in companion_sources(headers, project.repo_root, srcs) if p not in srcs]
                if more:
                    return build_host(
                        project, timeout, use_cache, [*extra, *more], extra_retry=True,
                        separate_libraries=separate_libraries,
                    )
            if "multiple definition of" in log and not separate_libraries and len(srcs) > 1:
                return build_host(project, timeout, use_cache, extra, extra_retry, separate_libraries=True)
            return HostBuild(
                None, _compile_diagnostics(project, res), time.monotonic() - t0, log=log, include_dirs=incs
            )
        (workdir / "deps.d").write_text(
            "".join(d.read_text() for d in workdir.glob("*.d") if d.name != "deps.d")
        )
        if not use_cache:
            keep = Path(tempfile.mkdtemp(prefix="ascendc-host-bin-"))
            shutil.move(str(workdir / HOST_BINARY), keep / HOST_BINARY)
            return HostBuild(keep / HOST_BINARY, seconds=time.monotonic() - t0, log=log, include_dirs=incs)
        final = build.store_binary(
            workdir, entry, HOST_BINARY, skip=[shims, kernel_inc], label=str(project.root)
        )
        return HostBuild(final, seconds=time.monotonic() - t0, log=log, include_dirs=incs)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _compile_diagnostics(project: OpProject, res: sandbox.SandboxResult) -> list[Diagnostic]:
    fallback = (str(_sources(project)[0]), 0)
    if res.timed_out:
        return [
            Diagnostic(
                message="the op_host compile did not finish in time (compile timeout)",
                code="host-compile",
                category="toolchain-env",
                file=fallback[0],
                source=EMULATOR_SOURCE,
            )
        ]
    if res.error:
        return [
            Diagnostic(message=res.error, code="host-compile", category="toolchain-env", file=fallback[0], source=EMULATOR_SOURCE)
        ]
    repo = str(project.repo_root)

    def is_user(f: str) -> bool:
        return f.startswith(repo)

    diags = gccdiag.to_diagnostics(res.stderr, is_user, fallback, gccdiag.file_line, lambda _m: None)
    for d in diags:
        d.code = "host-compile"
        d.message = f"op_host does not compile on the CPU host shims: {d.message}"
    if not diags:
        tail = " | ".join((res.stderr or res.stdout).strip().splitlines()[-3:])
        diags = [
            Diagnostic(
                message=f"op_host does not compile: {tail or 'exit ' + str(res.returncode)}",
                code="host-compile",
                category="api-signature",
                file=fallback[0],
                source=EMULATOR_SOURCE,
            )
        ]
    return diags


def _run(binary: Path, args: Sequence[str], workdir: Path, read: Sequence[Path], timeout: float) -> HostRun:
    res = sandbox.run_sandboxed(
        [str(binary), *args],
        workdir,
        sandbox.Limits(timeout=timeout, memory_bytes=HOST_MEMORY),
        read_paths=[binary.parent, *read],
    )
    out = workdir / "out.json"
    data: dict[str, Any] = {}
    if out.is_file():
        try:
            data = json.loads(out.read_text(encoding="utf-8", errors="replace"))
        except ValueError as exc:
            return HostRun(False, {}, res.stderr, error=f"the host driver wrote invalid JSON ({exc})")
    ok = res.returncode == 0 and bool(data)
    return HostRun(ok, data, res.stderr[-4000:], res.signal_name, res.timed_out, res.error or "")


def describe(binary: Path, timeout: float = 60.0) -> dict[str, Any]:
    """The driver's description of the registered ops, tiling classes and bindings."""
    workdir = Path(tempfile.mkdtemp(prefix="ascendc-host-run-"))
    try:
        r = _run(binary, ["--describe", "out.json"], workdir, [], timeout)
        if not r.ok:
            why = (
                r.error or (f"killed by {r.signal}" if r.signal else "") or ("timeout" if r.timed_out else "")
            )
            tail = " | ".join(r.stderr.strip().splitlines()[-3:])
            raise OpProjectError(
                "the op_host program could not describe its ops (an OpDef constructor failed"
                + (f": {why}" if why else "")
                + (f"; stderr: {tail}" if tail else "")
                + ")"
            )
        return r.data
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def run_tiling(binary: Path, node: str, data_files: dict[str, bytes], timeout: float = 60.0) -> HostRun:
    """Run the op's TilingFunc on the node description `node` (driver.cpp read_node); data files by name."""
    workdir = Path(tempfile.mkdtemp(prefix="ascendc-host-run-"))
    try:
        for name, blob in data_files.items():
            (workdir / name).write_bytes(blob)
        node = node.replace("@DIR@", str(workdir))
        (workdir / "in.txt").write_text(node, encoding="utf-8")
        return _run(binary, ["--run", "in.txt", "out.json"], workdir, [], timeout)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
