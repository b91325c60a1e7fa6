"""`CannToolchain`: compile (CMake) and run (CPU twin or NPU) a kernel spec with CANN, verified like the emulator."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ascendc_lsp.diagnostics import Diagnostic
from ascendc_lsp.hardware.limits import DEFAULT_SOC
from ascendc_lsp.toolchain.base import (
    CompileResult,
    RunOptions,
    RunResult,
    Toolchain,
)
from ascendc_lsp.toolchain.cann.cmake import SOC_VERSION, cmakelists
from ascendc_lsp.toolchain.cann.diagnostics import SOURCE_NAME, event_to_diagnostic
from ascendc_lsp.toolchain.cann.discovery import CannInstall, CannNotFound, discover
from ascendc_lsp.toolchain.cann.harness import cpu_harness, npu_harness
from ascendc_lsp.toolchain.cann.sandboxed import (
    CANN_MEMORY_BYTES,
    run_tool,
    sandbox_failure,
    toolkit_environment,
)
from ascendc_lsp.toolchain.logs import map_locations, parse_log

if TYPE_CHECKING:
    from ascendc_lsp.toolchain.spec import KernelSpec


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
                ok=False, diagnostics=[Diagnostic(message=str(exc), file=spec.origin, source=SOURCE_NAME)]
            )
        t0 = time.monotonic()
        try:
            inst = self.install()
            work = self._workdir(spec, options)
            soc = options.soc or spec.soc or DEFAULT_SOC
            main = cpu_harness(spec, source, self.kernel_mode) if self.mode == "cpu" else npu_harness(spec)
            (work.root / "main.cpp").write_text(main, encoding="utf-8")
            (work.root / "CMakeLists.txt").write_text(
                cmakelists(spec, source, inst, self.mode, soc, spec.include_dirs), encoding="utf-8"
            )
            cmake = self._cmake()
            if cmake is None:
                raise CannNotFound("cmake not found on PATH (the CANN build flow is CMake based)")
        except CannNotFound as exc:
            d = Diagnostic(message=str(exc), file=str(source), source=SOURCE_NAME, category="toolchain-env")
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
                d = Diagnostic(message=failure, file=str(source), source=SOURCE_NAME,
                               category="toolchain-env" if proc.error else None)  # fmt: skip
                return CompileResult(
                    ok=False, diagnostics=[d], seconds=time.monotonic() - t0, log="\n".join(logs)
                )
            if proc.returncode != 0:
                log = "\n".join(logs)
                diags = self._diagnostics(log, source, work)
                if not any(d.severity == "error" for d in diags):
                    diags.append(Diagnostic(message=f"{Path(argv[0]).name} failed with exit code {proc.returncode}",
                                            file=str(source), source=SOURCE_NAME))  # fmt: skip
                return CompileResult(ok=False, diagnostics=diags, seconds=time.monotonic() - t0, log=log)
        log = "\n".join(logs)
        binary = (
            work.binary if work.binary.exists() else next(iter(work.build.rglob("cann_kernel")), work.binary)
        )
        ok = binary.exists()
        diags = [d for d in self._diagnostics(log, source, work) if d.severity == "warning"]
        if not ok:
            diags.append(Diagnostic(message="the build finished but produced no cann_kernel executable", file=str(source),
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
                             diagnostics=[Diagnostic(message=str(exc), file=spec.origin, source=SOURCE_NAME)])  # fmt: skip
        result = RunResult(backend=f"cann-{self.mode}", kernel=spec.kernel, source=str(source),
                           soc=options.soc or spec.soc or DEFAULT_SOC, stage_reached="compile")  # fmt: skip
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
                Diagnostic(message=f"cannot prepare inputs: {exc}", file=spec.origin, source=SOURCE_NAME)
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
                message=f"the kernel did not finish within {options.timeout:g} s (on an NPU this surfaces as 507014 "
                "aicore timeout: a deadlock or a very slow kernel)", file=str(source), source=SOURCE_NAME,
                code="507014", category="sync-deadlock"))  # fmt: skip
            return result
        failure = sandbox_failure(proc, "the kernel", options.timeout)
        if failure is not None:
            result.stdout, result.stderr = proc.stdout, proc.stderr
            result.diagnostics.append(Diagnostic(message=failure, file=str(source), source=SOURCE_NAME,
                                                 category="toolchain-env" if proc.error else None))  # fmt: skip
            return result
        result.exit_code = proc.returncode
        result.stdout = proc.stdout
        result.stderr = proc.stderr
        diags = self._diagnostics(result.stdout + "\n" + result.stderr, source, work)
        result.diagnostics.extend(d for d in diags if d.data.get("kind") != "precision")
        if proc.returncode != 0 or any(d.severity == "error" for d in diags):
            if not any(d.severity == "error" for d in diags):
                result.diagnostics.append(Diagnostic(message=f"the kernel exited with code {proc.returncode}",
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
                result.diagnostics.append(Diagnostic(message=f"output '{t.name}' was not written", file=str(result.source),
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
                    message=f"output '{t.name}': {check.mismatches} of {check.elements} elements differ from the reference "
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
