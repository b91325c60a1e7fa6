"""`ascendc-lsp run file.asc | main.cpp | SAMPLE_DIR`: build a direct-launch program, run it as its sample does,
and judge it by the sample's own verification plus the emulator's hardware checks.

    from ascendc_lsp.toolchain.program.run import ProgramOptions, run_program
    result = run_program(Path("examples/.../add_tpipe_tque"), ProgramOptions())
    print(result.to_json())

The run happens in a temporary copy of the sample folder (the program and its scripts write input/ and
output/ there): the recipe's steps in order (mkdir, `python scripts/gen_data.py`, the program, `python
scripts/verify_result.py ...`), scripts sandboxed and only when they need no more than NumPy, the program
sandboxed with the emulator's settings in its environment (program.h). The verdict:
- NOT CORRECT when the build fails, the program crashes, hangs or exits non-zero, a verify script fails, or the
  emulator reported an error (even if the sample printed "test pass": the NPU would have faulted or raced);
- CORRECT when the sample's own verification (its verify script, else its pass/fail output and exit code)
  passes and the emulator reported no error;
- otherwise (nothing checks the results) the run is reported as not verified, which is not CORRECT.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ascendc_lsp.diagnostics import Diagnostic, display_path
from ascendc_lsp.toolchain import sandbox
from ascendc_lsp.toolchain.base import EMULATOR_SOURCE, Estimate, RunResult, write_trace_and_diagnostics
from ascendc_lsp.toolchain.emulator import cost, report
from ascendc_lsp.toolchain.emulator.soc import load_soc
from ascendc_lsp.toolchain.program import scripts
from ascendc_lsp.toolchain.program.build import build_program
from ascendc_lsp.toolchain.program.discover import ProgramLayout, Step, discover, is_verify_script

COPY_LIMIT_BYTES = 256 << 20
COPY_LIMIT_FILES = 5000
_SKIP_DIRS = {".git", "build", "out", "__pycache__", ".ascendc_emu"}
EMU_DIR = ".ascendc_emu"  # inside the run copy: soc.txt, report.jsonl, launches.jsonl, estimate.jsonl, traces
# A timeline's trace lines per block are budgeted as for a launch on every vector core of a 910B (40): a launch
# is sized on the cores, and the trace of a big launch stays far below the sandbox's file-size limit.
TIMELINE_BLOCKS = 40
PASS_TEXT = re.compile(r"test pass|\bpassed\b|\[pass\]|\bpass!|result is correct|verify success", re.I)
FAIL_TEXT = re.compile(r"test fail|\bfailed\b|\[fail\]|result error|verify fail|compare fail|\[ERROR\]", re.I)


@dataclass
class ProgramOptions:
    soc: str | None = None
    run_mode: str = "npu"  # npu: the NPU branch (<<<>>>, acl); cpu: the CPU-debug branch (ICPU_RUN_KF)
    timeout: float = 120.0  # seconds for each compile and each run step
    compile_timeout: float | None = None  # seconds for each compile when it should differ from `timeout`
    block_order: str = "sequential"
    strict: bool = False
    trace_out: Path | None = None
    defines: dict[str, str] = field(default_factory=dict)  # CMake -D values (e.g. SCENARIO_NUM)
    use_cache: bool = True
    keep_dir: Path | None = None


@dataclass
class StepResult:
    step: str  # the command as the sample writes it
    kind: str
    returncode: int | None = None
    seconds: float = 0.0
    output: str = ""  # tail of stdout + stderr
    skipped: str | None = None  # why it did not run
    passed: bool | None = None  # verify steps: the script's verdict

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "kind": self.kind,
            "returncode": self.returncode,
            "seconds": round(self.seconds, 3),
            "output": self.output[-4000:],
            "skipped": self.skipped,
            "passed": self.passed,
        }


@dataclass
class LaunchResult:
    launch: int
    kernel: str
    file: str
    line: int
    blocks: int  # numBlocks of the launch
    fault: str  # NPU code the stream sync returned, "" when none
    errors: int
    task_ratio: int = 1  # AIV cores per block (2 for a mix AIC:AIV 1:2 kernel)
    estimate: Estimate | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "launch": self.launch,
            "kernel": self.kernel,
            "file": self.file,
            "line": self.line,
            "blocks": self.blocks,
            "task_ratio": self.task_ratio,
            "fault": self.fault,
            "errors": self.errors,
            "estimate": None if self.estimate is None else self.estimate.to_json(),
        }


@dataclass
class ProgramRunResult(RunResult):
    """RunResult of a program: `estimate` sums the launches (they run one after another on the device);
    `launches` has each one's estimate. `verified` says whether anything of the sample checked the results."""

    program: str = ""
    root: str = ""
    recipe: str = ""
    run_mode: str = "npu"
    steps: list[StepResult] = field(default_factory=list)
    launches: list[LaunchResult] = field(default_factory=list)
    verified: bool = False
    verification: str = ""  # what decided: "scripts/verify_result.py", "program output", ""
    notes: list[str] = field(default_factory=list)
    launches_lowered: int = 0

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        out.update(
            {
                "program": self.program,
                "root": self.root,
                "recipe": self.recipe,
                "run_mode": self.run_mode,
                "verified": self.verified,
                "verification": self.verification,
                "steps": [s.to_json() for s in self.steps],
                "launches": [ln.to_json() for ln in self.launches],
                "notes": list(self.notes),
            }
        )
        return out


# ------------------------------------------------------------------------------------------------ running
def _copy_sample(root: Path, dest: Path) -> None:
    total = 0
    count = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in _SKIP_DIRS and not d.startswith(".")]
        rel = Path(dirpath).relative_to(root)
        (dest / rel).mkdir(parents=True, exist_ok=True)
        for f in filenames:
            src = Path(dirpath) / f
            if src.is_symlink() or not src.is_file():
                continue
            size = src.stat().st_size
            total += size
            count += 1
            if total > COPY_LIMIT_BYTES or count > COPY_LIMIT_FILES:
                raise OSError(
                    f"{root}: the sample folder is too large to copy for the run ({count} files, {total >> 20} MB; "
                    f"limits {COPY_LIMIT_FILES} files, {COPY_LIMIT_BYTES >> 20} MB)"
                )
            shutil.copy2(src, dest / rel / f)


def _inside(base: Path, rel: str) -> Path | None:
    p = (base / rel).resolve()
    return p if p == base.resolve() or p.is_relative_to(base.resolve()) else None


def _program_env(emu: Path, soc_file: Path, opts: ProgramOptions) -> dict[str, str]:
    env = {
        "PATH": "/usr/bin:/bin",
        "LC_ALL": "C",
        "ASCENDC_EMU_SOC_FILE": str(soc_file),
        "ASCENDC_EMU_REPORT": str(emu / "report.jsonl"),
        "ASCENDC_EMU_LAUNCHES": str(emu / "launches.jsonl"),
        "ASCENDC_EMU_ESTIMATE": str(emu / "estimate.jsonl"),
        "ASCENDC_EMU_BLOCK_ORDER": opts.block_order,
    }
    if opts.trace_out is not None:  # a timeline: the first events of every block, with their schedule
        env["ASCENDC_EMU_TRACE_DIR"] = str(emu)
        env["ASCENDC_EMU_TRACE_LIMIT"] = str(cost.timeline_limit(TIMELINE_BLOCKS))
    if opts.strict:
        env["ASCENDC_EMU_STRICT"] = "1"
    return env


def run_program(path: Path, options: ProgramOptions | None = None) -> ProgramRunResult:
    """Discover, build, run and judge; raises DiscoveryError for a path that is not a runnable program."""
    opts = options or ProgramOptions()
    layout = discover(path, run_mode=opts.run_mode, soc=opts.soc, defines=opts.defines)
    soc = load_soc(layout.soc)
    res = ProgramRunResult(
        kernel=layout.name,
        soc=soc.name,
        source=str(path),
        program=layout.name,
        root=str(layout.root),
        recipe=layout.recipe,
        run_mode=layout.run_mode,
        notes=list(layout.notes),
    )
    ctimeout = opts.compile_timeout if opts.compile_timeout is not None else opts.timeout
    b = build_program(layout, timeout=ctimeout, use_cache=opts.use_cache)
    res.compile_seconds, res.compile_cached, res.launches_lowered = b.seconds, b.cached, b.launches
    res.diagnostics.extend(b.diagnostics)
    if not b.ok or b.binary is None:
        res.stage_reached = "compile"
        return res
    res.compiled = True
    res.stage_reached = "run"
    rundir = Path(tempfile.mkdtemp(prefix="ascendc-emu-sample-"))
    try:
        _copy_sample(layout.root, rundir)
        emu = rundir / EMU_DIR
        emu.mkdir()
        params = cost.params_for(soc.cost_model, soc.clock_ghz)
        (emu / "soc.txt").write_text(soc.soc_txt() + cost.native_params(params), encoding="utf-8")
        _run_steps(layout, b.binary, rundir, emu, opts, res)
        _collect(layout, rundir, emu, soc, opts, res, b.binary)
        if opts.keep_dir is not None:
            shutil.copytree(rundir, opts.keep_dir, dirs_exist_ok=True)
    finally:
        shutil.rmtree(rundir, ignore_errors=True)
    _verdict(res)
    return res


def _run_steps(
    layout: ProgramLayout, binary: Path, rundir: Path, emu: Path, opts: ProgramOptions, res: ProgramRunResult
) -> None:
    before: dict[str, float] = {}
    program_failed = False
    for step in layout.steps:
        cwd = _inside(rundir, step.cwd)
        if cwd is None:
            res.steps.append(
                StepResult(step.describe(), step.kind, skipped=f"its folder {step.cwd} is outside the sample")
            )
            continue
        cwd.mkdir(parents=True, exist_ok=True)
        if step.kind == "mkdir":
            for d in step.argv:
                target = _inside(cwd, d)
                if target is not None:
                    target.mkdir(parents=True, exist_ok=True)
            continue
        if step.kind == "python":
            res.steps.append(_python_step(step, cwd, rundir, opts, before, program_failed))
            continue
        # the program
        out_dir = cwd / "output"
        before = {p.name: p.stat().st_mtime for p in out_dir.iterdir()} if out_dir.is_dir() else {}
        exe = cwd / layout.name
        shutil.copy2(binary, exe)
        sr = sandbox.run_sandboxed(
            [str(exe), *step.argv],
            cwd,
            sandbox.Limits(timeout=opts.timeout, memory_bytes=max(sandbox.DEFAULT_MEMORY_BYTES, 8 << 30)),
            write_paths=[rundir],
            env=_program_env(emu, emu / "soc.txt", opts),
        )
        output = sr.stdout[-20000:] + (("\n" + sr.stderr[-20000:]) if sr.stderr else "")
        if step.tee:
            target = _inside(cwd, step.tee)
            if target is not None:
                target.write_text(sr.stdout, encoding="utf-8")
        res.stdout, res.stderr = sr.stdout[-20000:], sr.stderr[-20000:]
        res.run_seconds += sr.seconds
        res.exit_code = sr.returncode
        res.isolation = sr.isolation
        res.steps.append(
            StepResult(
                f"./{layout.name} {' '.join(step.argv)}".strip(), "program", sr.returncode, sr.seconds, output
            )
        )
        program_failed = not (sr.returncode == 0 and not sr.timed_out)
        _program_exit_diagnostic(layout, sr, res, opts)


def _python_step(
    step: Step, cwd: Path, rundir: Path, opts: ProgramOptions, before: dict[str, float], program_failed: bool
) -> StepResult:
    script = _inside(rundir, str(Path(step.cwd) / step.argv[0]))
    desc = step.describe()
    if script is None or not script.is_file():
        return StepResult(desc, "python", skipped=f"{step.argv[0]} not found")
    need = scripts.required_modules(script)
    verify = is_verify_script(script.name)
    kind = "verify" if verify else "python"
    if need:
        return StepResult(
            desc, kind, skipped=f"needs {', '.join(need)} (only scripts that need no more than NumPy run)"
        )
    argv = list(step.argv)
    if verify and len(argv) == 1:  # the default recipe: find OUTPUT GOLDEN once the program ran
        found = scripts.verify_arguments(script, cwd / "output", before)
        if found is None:
            return StepResult(
                desc,
                kind,
                skipped="could not tell which files in output/ to compare (no README or run.sh names them)",
            )
        argv += found
        desc = "python3 " + " ".join(argv)
    if verify and program_failed:
        return StepResult(desc, kind, skipped="the program did not run to the end")
    run = scripts.run_script(argv, cwd, rundir, opts.timeout)
    sr = StepResult(desc, kind, run.returncode, run.seconds, run.output)
    if run.error:
        sr.skipped = run.error
    elif run.timed_out:
        sr.output += f"\n(stopped after {opts.timeout:g} s)"
    if verify:
        sr.passed = run.returncode == 0 and not run.timed_out and not FAIL_TEXT.search(run.output)
    return sr


def _program_exit_diagnostic(
    layout: ProgramLayout, sr: sandbox.SandboxResult, res: ProgramRunResult, opts: ProgramOptions
) -> None:
    main = str(layout.sources[0]) if layout.sources else None
    tail = " | ".join((sr.stderr or sr.stdout or "").strip().splitlines()[-3:])
    if sr.error:
        res.diagnostics.append(
            Diagnostic(
                message=f"could not start the program: {sr.error}",
                code="emulator",
                category="toolchain-env",
                file=main,
                source=EMULATOR_SOURCE,
            )
        )
    elif sr.timed_out:
        res.diagnostics.append(
            Diagnostic(
                message=f"the program did not finish within {opts.timeout:g} s and was stopped: a kernel that never ends, a "
                "host loop waiting for something, or too much work for the emulator; on NPU a hung kernel surfaces "
                "as 507014 aicore timeout",
                code="timeout",
                category="sync-deadlock",
                file=main,
                source=EMULATOR_SOURCE,
            )
        )
    elif sr.signal is not None:
        res.diagnostics.append(
            Diagnostic(
                message=f"the program crashed with {sr.signal_name}" + (f": {tail}" if tail else ""),
                code="crash",
                category="aicore-exception-triage",
                file=main,
                data={"signal": sr.signal_name},
                source=EMULATOR_SOURCE,
            )
        )
    elif sr.returncode not in (0, None):
        res.diagnostics.append(
            Diagnostic(
                message=f"the program exited with status {sr.returncode}" + (f": {tail}" if tail else ""),
                severity="error",
                code="exit-status",
                category=None,
                file=main,
                source=EMULATOR_SOURCE,
            )
        )


def locate_frames(reports: list[dict[str, Any]], binary: Path, program: str, root: Path) -> None:
    """Reports of host crashes carry the faulting frames as `module+offset`: the first frame in the program
    that addr2line maps to a file of the sample becomes the report's file and line (the allocation the message
    names stays in the message)."""
    addr2line = shutil.which("addr2line")
    for rep in reports:
        frames = str(rep.get("frames") or "")
        offsets = [f.split("+", 1)[1] for f in frames.split(";") if f.startswith(program + "+")]
        if not offsets or addr2line is None:
            continue
        try:
            out = subprocess.run(
                [addr2line, "-e", str(binary), "-i", *offsets[:16]],
                capture_output=True,
                text=True,
                timeout=30,
                check=False,
            ).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        for loc in out.splitlines():
            file, _, line = loc.rpartition(":")
            line = line.split(" ")[0]
            user = file and Path(file).is_absolute() and Path(file).resolve().is_relative_to(root.resolve())
            if user and line.isdigit() and int(line) > 0:
                rep["file"], rep["line"] = file, int(line)
                break


def _collect(
    layout: ProgramLayout,
    rundir: Path,
    emu: Path,
    soc: Any,
    opts: ProgramOptions,
    res: ProgramRunResult,
    binary: Path,
) -> None:
    lines = report.SourceLines()
    reports = report.read_jsonl(emu / "report.jsonl")
    locate_frames(reports, binary, layout.name, layout.root)
    main = layout.sources[0] if layout.sources else layout.root
    diags = report.to_diagnostics(reports, main, lines, 0)
    for d in diags:
        launch = next(
            (r.get("launch") for r in reports if r.get("message") and str(r.get("message")) in d.message),
            None,
        )
        if isinstance(launch, int):
            d.data["launch"] = launch
    crash_reported = any(d.data.get("check") in ("crash", "host-crash", "host-device-access") for d in diags)
    if crash_reported:  # the report names the cause; drop the bare "crashed with SIGSEGV"
        res.diagnostics = [d for d in res.diagnostics if d.code != "crash"]
    res.diagnostics.extend(diags)
    schedules: list[cost.Schedule] = []
    records = report.read_jsonl(emu / "launches.jsonl")
    traces = {
        int(rec.get("launch", 0)) - 1: Path(str(rec["trace"])) for rec in records if rec.get("trace")
    }
    # the emulator scheduled every event as it ran (estimate.jsonl, PROTOCOL.md): no trace is needed
    native = cost.native_launch_schedules(emu / "estimate.jsonl", soc.cost_model, soc.clock_ghz, traces)
    for rec in records:
        ln = LaunchResult(
            launch=int(rec.get("launch", 0)),
            kernel=str(rec.get("kernel", "")),
            file=str(rec.get("file", "")),
            line=int(rec.get("line", 0)),
            blocks=int(rec.get("blocks", 0)),
            fault=str(rec.get("fault", "")),
            errors=int(rec.get("errors", 0)),
            task_ratio=int(rec.get("task_ratio", 1)),
        )
        sched = native.get(ln.launch - 1)
        if sched is not None and ln.blocks > 0:
            ln.estimate = sched.estimate
            schedules.append(sched)
        res.launches.append(ln)
    res.estimate = _total_estimate([ln.estimate for ln in res.launches if ln.estimate is not None])
    if opts.trace_out is not None and schedules:
        try:
            write_program_trace(schedules, opts.trace_out)
            res.trace_file = str(opts.trace_out.resolve())
        except OSError as exc:
            res.diagnostics.append(report.trace_write_failed(opts.trace_out, exc))
    if res.exit_code is not None and not res.launches and res.exit_code == 0:
        res.notes.append("the program launched no kernel")


def _total_estimate(parts: list[Estimate]) -> Estimate | None:
    if not parts:
        return None
    return Estimate.in_sequence(parts, [f"sum of {len(parts)} launches run one after another; see each launch's estimate"])


def write_program_trace(schedules: list[cost.Schedule], path: Path) -> None:
    """One Perfetto/Chrome trace for every launch: launch n's blocks are processes `launch n / block b`, placed
    one after another in time (the device runs them in stream order)."""
    events: list[dict[str, Any]] = []
    offset_us = 0.0
    with tempfile.TemporaryDirectory(prefix="ascendc-emu-trace-") as tmp:
        for n, sched in enumerate(schedules, start=1):
            part = Path(tmp) / f"{n}.json"
            cost.write_perfetto(sched, part)
            doc = json.loads(part.read_text(encoding="utf-8"))
            for ev in doc.get("traceEvents", []):
                ev = dict(ev)
                ev["pid"] = n * 100000 + int(ev.get("pid", 0))
                if ev.get("name") == "process_name":
                    ev["args"] = {"name": f"launch {n}: " + str(ev.get("args", {}).get("name", ""))}
                if "ts" in ev:
                    shifted, end = cost.shifted_slice(float(ev["ts"]), ev.get("dur"), offset_us)
                    ev["ts"] = shifted
                    if end is not None:
                        ev["dur"] = end
                events.append(ev)
            offset_us += sched.estimate.microseconds
    doc = {
        "traceEvents": events,
        "otherData": {"generator": "ascendc-lsp emulator cost model", "launches": len(schedules)},
    }
    path.write_text(json.dumps(doc), encoding="utf-8")


def _verdict(res: ProgramRunResult) -> None:
    errors = [d for d in res.diagnostics if d.severity == "error"]
    program = next((s for s in res.steps if s.kind == "program"), None)
    ran = (
        program is not None
        and program.returncode == 0
        and not any(d.code in ("timeout", "crash") for d in errors)
    )
    res.ran = ran and not errors
    verifies = [s for s in res.steps if s.kind == "verify"]
    run_verifies = [s for s in verifies if s.skipped is None]
    if run_verifies:
        res.verified = True
        res.verification = ", ".join(
            sorted({s.step.split()[1] if len(s.step.split()) > 1 else s.step for s in run_verifies})
        )
        passed = all(s.passed for s in run_verifies)
        for s in run_verifies:
            if not s.passed:
                res.diagnostics.append(
                    Diagnostic(
                        message=f"the sample's verification failed: {s.step} exited {s.returncode}: "
                        + _tail(s.output),
                        code="verify",
                        category="precision-mismatch",
                        file=res.root,
                        source=EMULATOR_SOURCE,
                    )
                )
    elif program is not None and program.returncode is not None:
        text = res.stdout  # the program's own words (stderr also carries the emulator's [ERROR] echo)
        if FAIL_TEXT.search(text) or program.returncode != 0:
            res.verified = True
            res.verification = "program output"
            passed = False
            if program.returncode == 0:
                res.diagnostics.append(
                    Diagnostic(
                        message="the program reported a failure: " + _tail(text, FAIL_TEXT),
                        code="verify",
                        category="precision-mismatch",
                        file=res.root,
                        source=EMULATOR_SOURCE,
                    )
                )
        elif PASS_TEXT.search(text):
            res.verified = True
            res.verification = "program output"
            passed = True
        else:
            passed = False
    else:
        passed = False
    skipped_gen = [s for s in res.steps if s.kind == "python" and s.skipped]
    for s in skipped_gen + [s for s in verifies if s.skipped]:
        res.notes.append(f"skipped `{s.step}`: {s.skipped}")
    if program is None or program.returncode is None:
        res.stage_reached = "run"
        return
    res.stage_reached = "verify" if res.ran else "run"
    res.correct = bool(res.ran and res.verified and passed)
    if res.correct:
        res.stage_reached = "done"


def _tail(text: str, pattern: re.Pattern[str] | None = None) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    if pattern is not None:
        hits = [ln for ln in lines if pattern.search(ln)]
        if hits:
            return hits[-1][:300]
    return " | ".join(lines[-3:])[:600]


def print_text(r: ProgramRunResult, out: TextIO) -> None:
    """The human summary: one verdict line, the steps, each launch's estimate, the diagnostics."""
    verdict = "CORRECT" if r.correct else ("NOT VERIFIED" if r.ran and not r.verified else "NOT CORRECT")
    built = "did not compile"
    if r.compiled:
        built = "compiled" + (" (cached)" if r.compile_cached else "") + f" in {r.compile_seconds:.2f} s"
    out.write(
        f"{r.program} ({r.recipe} recipe, run mode {r.run_mode}) on {r.soc} (emulator): {built}: {verdict}\n"
    )
    for s in r.steps:
        if s.skipped:
            out.write(f"  skipped: {s.step}: {s.skipped}\n")
            continue
        status = "exit " + ("timeout" if s.returncode is None else str(s.returncode))
        if s.passed is not None:
            status += ", pass" if s.passed else ", FAIL"
        out.write(f"  {s.step}: {status} ({s.seconds:.2f} s)\n")
    if r.verified:
        out.write(f"  verified by: {r.verification}\n")
    elif r.compiled:
        out.write("  no verification of its own (no verify script, no pass/fail output)\n")
    for ln in r.launches:
        where = f"{display_path(ln.file)}:{ln.line}"
        e = ln.estimate
        est = (
            f"{e.microseconds:.2f} us ({e.cycles:,} cycles, bottleneck {e.bottleneck}) [{e.provenance}]"
            if e is not None
            else "no estimate"
        )
        fault = f", stream sync returned {ln.fault}" if ln.fault else ""
        out.write(f"  launch {ln.launch}: {ln.kernel} at {where}, {ln.blocks} blocks: {est}{fault}\n")
    if len(r.launches) > 1 and r.estimate is not None:
        out.write(f"  total estimate: {r.estimate.microseconds:.2f} us over {len(r.launches)} launches\n")
    for n in r.notes:
        out.write(f"  note: {n}\n")
    write_trace_and_diagnostics(out, r.trace_file, r.diagnostics)


__all__ = ["LaunchResult", "ProgramOptions", "ProgramRunResult", "StepResult", "print_text", "run_program"]
