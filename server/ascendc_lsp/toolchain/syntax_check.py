"""Compile one editor buffer for its diagnostics: g++ `-fsyntax-only` against the emulator headers (default) or
the CANN toolchain's compile (`toolchain.backend = cann`), cancellable by a newer save (the process is killed).

The language server runs this on save (lsp/features/knowledge.py); knowledge/log_findings.py turns the log into
findings explained by the knowledge base.
"""

from __future__ import annotations

import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from ascendc_lsp.errors import (
    Cancelled,  # raised when a newer save supersedes a compile; callers import it here
)
from ascendc_lsp.hardware.limits import DEFAULT_SOC

COMPILE_TIMEOUT = 60.0


@dataclass
class CompileOutput:
    log: str
    compiled_path: str
    seconds: float
    error: str = ""


# ---------------------------------------------------------------------------------------------- compile


def compile_emulator(
    text: str, path: str, cancel: threading.Event, timeout: float = COMPILE_TIMEOUT
) -> CompileOutput:
    """g++ -fsyntax-only of the buffer (a copy named like the file, its folder on the include path), in the
    sandbox like every compile of untrusted code (`#include "/etc/shadow"` must not quote the file back)."""
    from ascendc_lsp.toolchain import sandbox
    from ascendc_lsp.toolchain.emulator.build import (
        BASE_FLAGS,
        COMPILE_MEMORY,
        DIAG_FLAGS,
        compile_env,
        find_cxx,
        gxx_command,
        include_dir,
    )

    t0 = time.monotonic()
    cxx = find_cxx()
    if cxx is None:
        return CompileOutput(
            "", "", 0.0, "g++ was not found on PATH (the emulator backend needs a C++17 compiler)"
        )
    name = Path(path).name if path else "kernel.cpp"
    folder = str(Path(path).parent) if path else ""
    with tempfile.TemporaryDirectory(prefix="ascendc-lsp-save-") as tmp:
        copy = Path(tmp) / name
        copy.write_text(text, encoding="utf-8")
        includes: list[str | Path] = [include_dir(), *([folder] if folder and Path(folder).is_dir() else [])]
        cmd = gxx_command(cxx, [copy], flags=[*BASE_FLAGS, *DIAG_FLAGS], include_dirs=includes, mode="syntax",
                          language="c++")  # fmt: skip
        res = sandbox.run_sandboxed(
            cmd,
            Path(tmp),
            sandbox.Limits(timeout=timeout, memory_bytes=COMPILE_MEMORY),
            read_paths=[include_dir(), *([Path(folder)] if folder and Path(folder).is_dir() else [])],
            env=compile_env(),
            cancel=cancel,
        )
        if res.cancelled:
            raise Cancelled()
        if res.error:
            return CompileOutput("", str(copy), time.monotonic() - t0, res.error)
        out = res.stderr + res.stdout
        if res.timed_out:
            out += f"error: the compile did not finish within {timeout:g} s\n"
        return CompileOutput(out, str(copy), time.monotonic() - t0)


def compile_cann(
    text: str, path: str, cancel: threading.Event, cann_home: str = "", soc: str = DEFAULT_SOC
) -> CompileOutput:
    from ascendc_lsp.toolchain import cann

    t0 = time.monotonic()
    try:
        inst = cann.discover(Path(cann_home)) if cann_home else cann.discover()
    except Exception as exc:
        return CompileOutput("", "", 0.0, f"the cann backend cannot run here: {exc}")
    with tempfile.TemporaryDirectory(prefix="ascendc-lsp-save-") as tmp:
        copy = Path(tmp) / (Path(path).name if path else "kernel.cpp")
        copy.write_text(text, encoding="utf-8")
        extra = [Path(path).parent] if path else []
        result = cann.compile_source(copy, inst=inst, soc=soc, include_dirs=extra, cancel=cancel)
        if cancel.is_set():
            raise Cancelled()
        if not result.ok and not result.log.strip() and result.diagnostics:
            # the sandbox refused or ended the compiler (no bubblewrap, a timeout): say so, there is no log
            return CompileOutput("", str(copy), time.monotonic() - t0, result.diagnostics[0].message)
        return CompileOutput(result.log, str(copy), time.monotonic() - t0)


def compile_buffer(
    text: str, path: str, cancel: threading.Event, backend: str, cann_home: str = "", soc: str = DEFAULT_SOC
) -> CompileOutput:
    """The buffer compiled by the configured backend ("cann" or the emulator's g++)."""
    if backend == "cann":
        return compile_cann(text, path, cancel, cann_home, soc)
    return compile_emulator(text, path, cancel)
