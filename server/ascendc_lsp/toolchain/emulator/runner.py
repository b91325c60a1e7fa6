"""The emulator backend: compile the kernel with a generated harness, run it sandboxed, verify, estimate.

    from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain
    result = EmulatorToolchain().run(load_spec("spec.yaml"))
    print(result.to_json())

Spec problems (missing source, unreadable init file, a reference that raises) raise `SpecError` with a message
naming the file and field; everything the kernel does wrong comes back as diagnostics in the RunResult.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ascendc_lsp.diagnostics import Diagnostic, span_at
from ascendc_lsp.hardware.limits import DEFAULT_SOC
from ascendc_lsp.toolchain import sandbox
from ascendc_lsp.toolchain.base import EMULATOR_SOURCE, CompileResult, RunOptions, RunResult, Toolchain
from ascendc_lsp.toolchain.emulator import build, cost, report
from ascendc_lsp.toolchain.emulator.soc import load_soc
from ascendc_lsp.toolchain.spec import KernelSpec, SpecError

# Byte patterns the harness pre-fills outputs with (PROTOCOL.md: "pre-filled with a poison pattern"); an output
# element still equal to one of them was never written. Kept in sync with ascendc_emu/harness.h.
POISON_PATTERNS: list[bytes] = [bytes([0xFF])]  # harness.h Output(): memset 0xFF (NaN for floats, -1 for ints)

EXIT_OK, EXIT_REPORTED, EXIT_DEADLOCK = 0, 1, 3

_SIGNAL_HINTS = {
    "SIGSEGV": "an invalid memory access outside what the emulator checks (a wild pointer, a GM address "
    "computed from a bad offset, or a stack overflow)",
    "SIGBUS": "a misaligned or unmapped memory access",
    "SIGFPE": "an integer division by zero or overflow in scalar code (a tiling field of 0?)",
    "SIGABRT": "an abort (a failed assertion in the kernel or the emulator)",
    "SIGILL": "an illegal instruction",
    "SIGKILL": "killed: out of memory or over the CPU time limit",
    "SIGXCPU": "over the CPU time limit",
    "SIGXFSZ": "an output or trace file grew past the size limit",
}


class _Lines:
    """Cached file lines for mapping reports to ranges."""

    def __init__(self) -> None:
        self._cache: dict[str, list[str]] = {}

    def __call__(self, path: str, line0: int) -> str:
        lines = self._cache.get(path)
        if lines is None:
            try:
                lines = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                lines = []
            self._cache[path] = lines
        return lines[line0] if 0 <= line0 < len(lines) else ""


def _spec_error(spec: KernelSpec, exc: Exception) -> SpecError:
    msg = str(exc)
    return SpecError(msg if msg.startswith(spec.origin) else f"{spec.origin}: {msg}")


class _Background:
    """The spec's reference, computed in a thread while the kernel compiles and runs."""

    def __init__(self, fn: Callable[[], dict[str, Any]]) -> None:
        self._value: dict[str, Any] | None = None
        self._error: Exception | None = None
        self._thread = threading.Thread(target=self._run, args=(fn,), name="ascendc-reference", daemon=True)
        self._thread.start()

    def _run(self, fn: Callable[[], dict[str, Any]]) -> None:
        try:
            self._value = fn()
        except Exception as exc:  # re-raised in the caller's thread
            self._error = exc

    def wait(self, seconds: float) -> None:
        self._thread.join(seconds)

    def raise_if_failed(self, spec: KernelSpec) -> None:
        from ascendc_lsp.toolchain.emulator.data import DataError

        if self._thread.is_alive() or self._error is None:
            return
        if isinstance(self._error, DataError):
            raise _spec_error(spec, self._error) from None
        raise self._error

    def result(self, spec: KernelSpec) -> dict[str, Any]:
        self._thread.join()
        self.raise_if_failed(spec)
        return self._value or {}


def kernel_entry_line(source_text: str, kernel: str) -> int:
    """0-based line of the kernel's definition (for diagnostics without a better place), else 0."""
    pat = re.compile(rf"\b{re.escape(kernel)}\s*\(")
    lines = source_text.splitlines()
    hits = [i for i, text in enumerate(lines) if pat.search(text)]
    for test in (
        lambda i: re.search(r"__global__|extern\s+\"C\"", lines[i]),
        lambda i: re.search(r"__global__|__aicore__|extern\s+\"C\"", " ".join(lines[max(0, i - 1) : i + 1])),
        lambda i: re.search(r"\bvoid\b", lines[i]),
    ):
        for i in hits:
            if test(i):
                return i
    return hits[0] if hits else 0


def strict_modes(spec: KernelSpec, opts: RunOptions) -> set[str]:
    """The stricter modes of this run: the options' flags plus the spec's `strict:` list (spec.STRICT_MODES)."""
    from ascendc_lsp.toolchain.spec import STRICT_MODES

    if opts.strict:
        return set(STRICT_MODES)
    modes = set(spec.strict)
    for name, on in (
        ("sync", opts.strict_sync),
        ("ub", opts.strict_ub),
        ("gm", opts.strict_gm),
        ("assert", opts.strict_assert),
    ):
        if on:
            modes.add(name)
    return modes


def mode_argv(spec: KernelSpec, opts: RunOptions) -> list[str]:
    """The kernel binary's mode flags (PROTOCOL.md "Modes") for this run."""
    modes = strict_modes(spec, opts)
    argv = [f"--strict-{m}" for m in ("sync", "ub", "gm", "truncation") if m in modes]
    reserve = opts.ub_reserve if opts.ub_reserve != "auto" else (spec.ub_reserve or "auto")
    if reserve != "auto":
        argv += ["--ub-reserve", reserve]
    return argv


def resolve_source(spec: KernelSpec, override: Path | None) -> Path:
    if override is not None:
        src = Path(override).expanduser().resolve()
        where = "--source"
    elif spec.source is not None:
        src = spec.source
        where = f"{spec.origin}: source"
    else:
        raise SpecError(f"{spec.origin}: source: missing (give `source:` in the spec or --source FILE)")
    if not src.is_file():
        raise SpecError(f"{where}: kernel source not found: {src}")
    from ascendc_lsp import safeio

    size = src.stat().st_size
    if size > safeio.MAX_SOURCE_BYTES:
        raise SpecError(f"{where}: kernel source too large ({size:,} bytes; the limit is {safeio.MAX_SOURCE_BYTES:,})")
    return src


class EmulatorToolchain(Toolchain):
    name = "emulator"

    def available(self) -> tuple[bool, str]:
        if build.find_cxx() is None:
            return False, "g++ not found on PATH (the emulator compiles kernels with a C++17 g++)"
        if not (build.include_dir() / "kernel_operator.h").is_file():
            return False, f"the emulator headers are missing ({build.include_dir()})"
        return True, ""

    def compile(self, spec: KernelSpec, options: RunOptions | None = None) -> CompileResult:
        opts = options or RunOptions()
        src = resolve_source(spec, opts.source)
        text = src.read_text(encoding="utf-8", errors="replace")
        return build.build(
            spec,
            src,
            timeout=opts.compile_timeout if opts.compile_timeout is not None else opts.timeout,
            use_cache=opts.use_cache,
            fallback_line=kernel_entry_line(text, spec.kernel),
            strict_assert="assert" in strict_modes(spec, opts),
        )

    def run(self, spec: KernelSpec, options: RunOptions | None = None) -> RunResult:
        opts = options or RunOptions()
        src = resolve_source(spec, opts.source)
        soc = load_soc(opts.soc or spec.soc)
        res = RunResult(kernel=spec.kernel, soc=soc.name, source=str(src), backend=self.name)
        for w in spec.warnings:
            res.diagnostics.append(Diagnostic(message=w, severity="warning", code="spec", file=spec.origin, source=EMULATOR_SOURCE))
        if soc.unknown is not None:
            res.diagnostics.append(
                Diagnostic(
                    message=f"{soc.unknown}; using the {DEFAULT_SOC} figures",
                    severity="warning",
                    code="spec",
                    file=spec.origin,
                    source=EMULATOR_SOURCE,
                )
            )
        text = src.read_text(encoding="utf-8", errors="replace")
        entry_line = kernel_entry_line(text, spec.kernel)
        lines = _Lines()

        # the spec's data: from the data cache (large specs run before), or generated here with the reference
        # running in a thread while the kernel compiles and runs (NumPy releases the GIL); a broken spec still
        # fails before the compile when its reference fails at once
        from ascendc_lsp.toolchain.emulator import data, datacache

        data_key = datacache.spec_key(spec) if opts.use_cache else None
        cached = datacache.lookup(data_key, spec)
        inputs: dict[str, Any] = {}
        if cached is not None:
            reference_job = _Background(cached.reference)
        else:
            try:
                inputs = data.generate_inputs(spec)
            except data.DataError as exc:
                raise _spec_error(spec, exc) from None

            def reference_and_store() -> dict[str, Any]:
                ref = data.evaluate_reference(spec, inputs, timeout=opts.timeout)
                datacache.store(data_key, spec, inputs, ref)
                return ref

            reference_job = _Background(reference_and_store)
        reference_job.wait(0.05)
        reference_job.raise_if_failed(spec)

        # compile
        ctimeout = opts.compile_timeout if opts.compile_timeout is not None else opts.timeout
        cr = build.build(
            spec,
            src,
            timeout=ctimeout,
            use_cache=opts.use_cache,
            fallback_line=entry_line,
            strict_assert="assert" in strict_modes(spec, opts),
        )
        res.compile_seconds, res.compile_cached = cr.seconds, cr.cached
        res.diagnostics.extend(cr.diagnostics)
        if not cr.ok or cr.binary is None:
            reference_job.result(spec)  # a broken reference is reported as such, as before
            res.stage_reached = "compile"
            return res
        reference_job.raise_if_failed(spec)
        res.compiled = True
        res.stage_reached = "run"

        rundir = Path(tempfile.mkdtemp(prefix="ascendc-emu-run-"))
        try:
            if cached is not None:
                cached.copy_inputs(rundir)
            else:
                for t in spec.inputs:
                    inputs[t.name].tofile(rundir / f"{t.name}.bin")
            params = cost.params_for(soc.cost_model, soc.clock_ghz)
            (rundir / "soc.txt").write_text(soc.soc_txt() + cost.native_params(params), encoding="utf-8")
            trace_path = rundir / "trace.jsonl" if opts.trace_out is not None else None
            argv = [
                str(cr.binary),
                "--dir",
                str(rundir),
                "--soc-file",
                str(rundir / "soc.txt"),
                "--report",
                str(rundir / "report.jsonl"),
                "--estimate",
                str(rundir / "estimate.jsonl"),
                "--block-order",
                opts.block_order,
            ]
            if trace_path is not None:  # a timeline was asked for: the trace lines carry the schedule
                argv += ["--trace", str(trace_path), "--trace-limit", str(cost.timeline_limit(spec.block_dim))]
            if spec.tiling is not None and spec.tiling.key is not None:
                argv += ["--tiling-key", str(spec.tiling.key)]
            argv += mode_argv(spec, opts)
            gm_bytes = sum(t.nbytes for t in (*spec.inputs, *spec.outputs)) + spec.workspace_bytes
            limits = sandbox.Limits(
                timeout=opts.timeout,
                memory_bytes=max(sandbox.DEFAULT_MEMORY_BYTES, 4 * gm_bytes + (1 << 30)),
                file_bytes=max(sandbox.DEFAULT_FILE_BYTES, 2 * gm_bytes),
            )
            sr = sandbox.run_sandboxed(argv, rundir, limits, read_paths=[cr.binary.parent], cancel=opts.cancel)
            res.run_seconds = sr.seconds
            res.exit_code = sr.returncode
            res.isolation = sr.isolation
            res.stdout, res.stderr = sr.stdout[-20000:], sr.stderr[-20000:]
            if sr.cancelled:  # the caller stopped it: no verdict on the outputs, no estimate of a partial run
                text = lines(str(src), entry_line)
                res.diagnostics.append(
                    Diagnostic(
                        message=f"the run was cancelled after {sr.seconds:.1f} s (the kernel was stopped)",
                        severity="information",
                        code="cancelled",
                        span=span_at(entry_line, len(text) - len(text.lstrip()), end_line=entry_line, end_character=len(text.rstrip())),
                        file=str(src),
                        source=EMULATOR_SOURCE,
                    )
                )
                return res
            reports = report.read_jsonl(rundir / "report.jsonl")
            rdiags = report.to_diagnostics(reports, src, lines, entry_line)
            res.diagnostics.extend(rdiags)
            self._exit_diagnostics(res, sr, rdiags, src, entry_line, lines, opts.timeout)
            has_errors = any(d.severity == "error" for d in rdiags)
            res.ran = sr.returncode == EXIT_OK and not sr.timed_out and not has_errors

            reference = reference_job.result(spec)
            # verify (also after reported errors, for information, when the outputs were written)
            if sr.returncode in (EXIT_OK, EXIT_REPORTED) and not sr.timed_out:
                ok = self._verify(spec, res, rundir, reference, src, entry_line, lines)
                if res.ran:
                    res.stage_reached = "verify"
                    res.correct = ok
                    if ok:
                        res.stage_reached = "done"

            # estimate: the emulator list-scheduled every event as it ran (PROTOCOL.md, estimate.jsonl)
            if sr.returncode in (EXIT_OK, EXIT_REPORTED) and not sr.timed_out:
                sched = cost.estimate_from_native(
                    rundir / "estimate.jsonl",
                    spec.block_dim,
                    soc.cost_model,
                    int(soc.values["aiv_cores"]),
                    int(soc.values["aic_cores"]),
                    soc.clock_ghz,
                    trace_path=trace_path,
                )
                res.estimate = sched.estimate
                if opts.trace_out is not None:
                    try:
                        cost.write_perfetto(sched, opts.trace_out)
                        res.trace_file = str(opts.trace_out.resolve())
                    except OSError as exc:
                        res.diagnostics.append(
                            Diagnostic(
                                message=f"could not write the trace to {opts.trace_out}: {exc.strerror or exc}",
                                severity="warning",
                                code="trace",
                                file=str(opts.trace_out),
                                source=EMULATOR_SOURCE,
                            )
                        )
            if opts.keep_dir is not None:
                shutil.copytree(rundir, opts.keep_dir, dirs_exist_ok=True)
        finally:
            shutil.rmtree(rundir, ignore_errors=True)
        return res

    # ------------------------------------------------------------------------------------------------------------
    def _exit_diagnostics(
        self,
        res: RunResult,
        sr: sandbox.SandboxResult,
        rdiags: list[Diagnostic],
        src: Path,
        entry_line: int,
        lines: _Lines,
        timeout: float,
    ) -> None:
        def at_entry(message: str, code: str, category: str | None) -> Diagnostic:
            text = lines(str(src), entry_line)
            return Diagnostic(
                message=message,
                code=code,
                category=category,
                span=span_at(entry_line, len(text) - len(text.lstrip()), end_line=entry_line, end_character=len(text.rstrip())),
                file=str(src),
                source=EMULATOR_SOURCE,
            )

        tail = " | ".join((sr.stderr or "").strip().splitlines()[-3:])
        if sr.error:
            res.diagnostics.append(
                at_entry(f"could not start the kernel: {sr.error}", "emulator", "toolchain-env")
            )
        elif sr.timed_out:
            res.diagnostics.append(
                at_entry(
                    f"the kernel did not finish within {timeout:g} s and was stopped (timeout). A loop that never ends, "
                    "a wait the emulator could not prove stuck, or simply too much work for the emulator; "
                    "on NPU a hang surfaces as 507014 aicore timeout",
                    "timeout",
                    "sync-deadlock",
                )
            )
        elif sr.returncode == EXIT_DEADLOCK:
            if not any(d.category == "sync-deadlock" for d in rdiags):
                res.diagnostics.append(
                    at_entry(
                        "the kernel deadlocked (a DeQue on an empty queue, a WaitFlag never set, or a SyncAll not "
                        "reached by every block); on NPU: 507014 aicore timeout",
                        "507014",
                        "sync-deadlock",
                    )
                )
        elif sr.signal is not None and not any(d.data.get("check") == "crash" for d in rdiags):
            name = sr.signal_name or f"signal {sr.signal}"
            hint = _SIGNAL_HINTS.get(name, "a crash")
            res.diagnostics.append(
                at_entry(
                    f"the kernel crashed with {name}: {hint}"
                    + (f". stderr: {tail}" if tail else "")
                    + ". On NPU this typically surfaces as 507015 aicore exception",
                    "crash",
                    "aicore-exception-triage",
                )
            )
        elif sr.returncode == EXIT_REPORTED and not any(d.severity == "error" for d in rdiags):
            res.diagnostics.append(
                at_entry(
                    "the emulator exited with status 1 (errors) but wrote no report"
                    + (f": {tail}" if tail else ""),
                    "emulator",
                    "aicore-exception-triage",
                )
            )
        elif sr.returncode not in (EXIT_OK, EXIT_REPORTED, EXIT_DEADLOCK, None):
            res.diagnostics.append(
                at_entry(
                    f"the kernel exited with status {sr.returncode}" + (f": {tail}" if tail else ""),
                    "crash",
                    "aicore-exception-triage",
                )
            )

    def _verify(
        self,
        spec: KernelSpec,
        res: RunResult,
        rundir: Path,
        reference: Mapping[str, Any],
        src: Path,
        entry_line: int,
        lines: _Lines,
    ) -> bool:
        from ascendc_lsp.toolchain.emulator import data

        ok_all = True
        max_abs = 0.0
        max_rel = 0.0
        total_bad = 0
        text = lines(str(src), entry_line)
        indent = len(text) - len(text.lstrip())
        for t in spec.outputs:
            if not t.compare:
                continue
            out = data.read_output(rundir / f"{t.name}.out.bin", t)
            if out is None:
                ok_all = False
                res.diagnostics.append(
                    Diagnostic(
                        message=f"output '{t.name}' was not written back by the harness ({t.name}.out.bin missing or "
                        f"not {t.nbytes} B)",
                        code="emulator",
                        category="aicore-exception-triage",
                        span=span_at(entry_line, indent, end_line=entry_line, end_character=len(text.rstrip())),
                        file=str(src),
                        source=EMULATOR_SOURCE,
                    )
                )
                continue
            tol = spec.tolerance_for(t)
            ref = reference[t.name]
            check = data.compare(t.name, out, ref, t, tol, POISON_PATTERNS)
            res.outputs.append(check)
            max_abs = max(max_abs, check.max_abs_error)
            max_rel = max(max_rel, check.max_rel_error)
            total_bad += check.mismatches
            allowed = int(tol.error_ratio * check.elements)
            if check.mismatches > allowed:
                ok_all = False
                if res.first_mismatch is None:
                    res.first_mismatch = check.first_mismatch
                res.diagnostics.append(self._mismatch_diag(t.name, check, src, entry_line, indent, text))
        res.max_abs_error = max_abs
        res.max_rel_error = max_rel
        res.mismatches = total_bad
        return ok_all

    @staticmethod
    def _mismatch_diag(name: str, check: object, src: Path, line: int, indent: int, text: str) -> Diagnostic:
        from ascendc_lsp.toolchain.base import OutputCheck

        assert isinstance(check, OutputCheck)
        fm = check.first_mismatch or {}
        ranges = fm.get("ranges") or []
        span = ", ".join(f"[{a}, {b})" for a, b in ranges[:4]) + (" ..." if len(ranges) > 4 else "")
        if check.unwritten and check.unwritten == check.mismatches:
            msg = (
                f"elements {span} of output '{name}' were never written by any block ({check.unwritten:,} of "
                f"{check.elements:,} elements still hold the harness's fill pattern): check the block offsets, "
                "the tile count and the tail tile"
            )
            category = "multicore-partition"
        else:
            msg = (
                f"output '{name}': {check.mismatches:,} of {check.elements:,} elements differ from the reference "
                f"(max abs error {check.max_abs_error:.6g}, max rel error {check.max_rel_error:.6g}; "
                f"rtol {check.rtol:g}, atol {check.atol:g}). First at index {fm.get('index')} "
                f"{fm.get('position')}: expected {fm.get('expected')}, actual {fm.get('actual')}"
            )
            if span:
                msg += f"; failing ranges {span}"
            if check.unwritten:
                msg += f"; {check.unwritten:,} of them were never written"
            category = "precision-mismatch"
        return Diagnostic(
            message=msg,
            code="mismatch",
            category=category,
            span=span_at(line, indent, end_line=line, end_character=len(text.rstrip())),
            file=str(src),
            data={"output": name, "first_mismatch": fm},
            source=EMULATOR_SOURCE,
        )


def run_spec_file(path: str | os.PathLike[str], **kwargs: object) -> RunResult:
    """Load a spec file and run it on the emulator (kwargs: RunOptions fields)."""
    from ascendc_lsp.toolchain.spec import load_spec

    spec = load_spec(Path(path))
    return EmulatorToolchain().run(spec, RunOptions(**kwargs))  # type: ignore[arg-type]


__all__ = ["EmulatorToolchain", "kernel_entry_line", "resolve_source", "run_spec_file"]
