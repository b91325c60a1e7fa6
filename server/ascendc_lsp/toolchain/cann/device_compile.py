"""The on-save check with CANN: a device compile of one kernel file with bisheng, in the sandbox."""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from ascendc_lsp.diagnostics import Diagnostic
from ascendc_lsp.hardware.limits import DEFAULT_SOC
from ascendc_lsp.toolchain.base import (
    CompileResult,
)
from ascendc_lsp.toolchain.cann.diagnostics import SOURCE_NAME, log_to_diagnostics
from ascendc_lsp.toolchain.cann.discovery import CannInstall, discover
from ascendc_lsp.toolchain.cann.sandboxed import run_tool, sandbox_failure, toolkit_environment

# --cce-aicore-arch per SoC family for a vector-only kernel (best knowledge; see docs/cann-backend.md).
AICORE_ARCH: dict[str, str] = {
    "Ascend910B": "dav-c220-vec",
    "Ascend910_93": "dav-c220-vec",
    "Ascend910A": "dav-c100",
    "Ascend310P": "dav-m200",
    "Ascend310B": "dav-m300",
    "Ascend950": "dav-c310-vec",
}


def compile_command(
    inst: CannInstall, source: Path, soc: str = DEFAULT_SOC, include_dirs: Sequence[Path] = (),
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
    source: str | os.PathLike[str], *, inst: CannInstall | None = None, soc: str = DEFAULT_SOC,
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
        d = Diagnostic(message=failure, file=str(src), source=SOURCE_NAME, category=category)
        return CompileResult(ok=False, diagnostics=[d], seconds=time.monotonic() - t0, log=log)
    diags = log_to_diagnostics(log, src)
    ok = res.returncode == 0 and not res.cancelled and not any(d.severity == "error" for d in diags)
    if res.returncode != 0 and not any(d.severity == "error" for d in diags):
        tail = log.strip().splitlines()[-1:] or [f"exit code {res.returncode}"]
        diags.append(Diagnostic(message=f"bisheng failed: {tail[0][:300]}", file=str(src), source=SOURCE_NAME))
    return CompileResult(ok=ok, diagnostics=diags, seconds=time.monotonic() - t0, log=log)
