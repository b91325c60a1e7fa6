"""Run CANN's tools, and the programs they build, in toolchain/sandbox.py with the toolkit's environment."""

from __future__ import annotations

import glob
import os
import shutil
import tempfile
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

from ascendc_lsp.toolchain import sandbox
from ascendc_lsp.toolchain.cann.discovery import CannInstall

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
