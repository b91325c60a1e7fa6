"""`ascendc-lsp run SPEC.yaml | CASE.yaml | OP_PROJECT --case CASE.yaml | PROGRAM`: compile, run, verify and
estimate a kernel (kernel spec, docs/kernel-spec.md), an op project's op (op test case, docs/op-test-case.md)
or a direct-launch program (an .asc file, a host main.cpp or a sample folder, docs/direct-launch.md).

Exit codes: 0 the kernel is correct; 1 it is not (compile error, runtime error, mismatch); 2 bad usage or an
unreadable / invalid spec, test case or program (one line on stderr naming the file and field).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from ascendc_lsp.diagnostics import display_path
from ascendc_lsp.toolchain.base import (
    RunOptions,
    RunResult,
    Toolchain,
    ToolchainUnavailable,
    write_trace_and_diagnostics,
)
from ascendc_lsp.toolchain.opproject.testcase import TestCase
from ascendc_lsp.toolchain.spec import KernelSpec, SpecError, load_spec, parse_yaml, spec_from_dict

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def _err(msg: str) -> int:
    print(f"ascendc-lsp run: {msg}", file=sys.stderr)
    return EXIT_USAGE


def _settings(spec_path: Path) -> tuple[str | None, str | None]:
    """(backend, soc) from ascendc-lsp.toml next to the spec, when there is one."""
    try:
        from ascendc_lsp.settings import find_config_file, settings_for_path

        if find_config_file(spec_path.resolve().parent) is None:
            return None, None
        s, _problems = settings_for_path(spec_path.resolve())
        return s.toolchain.backend, s.soc
    except Exception:  # settings are a convenience here; a broken file is reported by the server
        return None, None


def get_toolchain(backend: str) -> Toolchain:
    """The backend by name; raises ToolchainUnavailable with a user-facing reason."""
    if backend == "emulator":
        from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain

        tc: Toolchain = EmulatorToolchain()
    elif backend == "cann":
        try:
            mod = importlib.import_module("ascendc_lsp.toolchain.cann")
        except ImportError as exc:
            raise ToolchainUnavailable(
                f"the cann backend is not available in this build ({exc}); use --backend emulator"
            ) from None
        factory = getattr(mod, "CannToolchain", None) or getattr(mod, "toolchain", None)
        if factory is None:
            raise ToolchainUnavailable("the cann backend module has no CannToolchain; use --backend emulator")
        tc = factory()
    else:
        raise ToolchainUnavailable(f"unknown backend '{backend}' (emulator or cann)")
    ok, why = tc.available()
    if not ok:
        hint = (
            " (set ASCEND_HOME_PATH to an installed CANN toolkit, or use --backend emulator)"
            if backend == "cann"
            else ""
        )
        raise ToolchainUnavailable(f"the {backend} backend cannot run here: {why}{hint}")
    return tc


def run_kind(path: Path, case: str | None = None) -> str:
    """What `run PATH` runs: "spec" (a kernel spec or op test case: a .yaml, or an op project with --case; see
    load_target) or "program" (a direct-launch program: an .asc file, a host main.cpp or a sample folder). An op
    project folder without --case is "spec" too, so load_target names the missing test case."""
    if case is not None or path.suffix.lower() in (".yaml", ".yml"):
        return "spec"
    if path.is_dir() and (path / "op_host").is_dir() and (path / "op_kernel").is_dir():
        return "spec"
    return "program"


def load_target(path: str, case: str | None = None) -> KernelSpec | TestCase:
    """What `run PATH` runs: a kernel spec, or an op test case (a YAML naming `project:`/`op:`, or PATH being the
    op project with --case). Raises SpecError / OpProjectError with a one-line message."""
    from ascendc_lsp.toolchain.opproject.testcase import case_from_dict, is_test_case, load_test_case

    p = Path(path)
    if case is not None:
        return load_test_case(case, project=p)
    if p.is_dir() or (p.exists() and p.suffix not in (".yaml", ".yml")):
        raise SpecError(f"{path}: an op project runs from a test case: ascendc-lsp run {path} --case CASE.yaml")
    from ascendc_lsp import safeio

    try:
        text = safeio.read_text(p, safeio.MAX_SPEC_BYTES, "spec file")
    except safeio.InputError as exc:
        raise SpecError(str(exc)) from None
    except OSError:
        return load_spec(p)  # its message names the problem
    except UnicodeDecodeError:
        return load_spec(p)
    data = parse_yaml(text, str(p))
    if is_test_case(data):
        return case_from_dict(data, base_dir=p.resolve().parent, path=p.resolve(), origin=str(p))
    return spec_from_dict(data, base_dir=p.resolve().parent, path=p.resolve(), origin=str(p), text=text)


def command(args: argparse.Namespace) -> int:
    from ascendc_lsp.toolchain.opproject.discovery import OpProjectError

    spec_arg = getattr(args, "spec", None)
    if not spec_arg:
        return _err("missing SPEC.yaml or PROGRAM")
    if run_kind(Path(spec_arg), getattr(args, "case", None)) == "program":
        return program_command(args)
    spec_path = Path(spec_arg)
    try:
        target = load_target(spec_arg, getattr(args, "case", None))
    except (SpecError, OpProjectError) as exc:
        return _err(str(exc))
    if not isinstance(target, KernelSpec):
        return _run_case(target, args)
    spec = target
    cfg_backend, cfg_soc = _settings(spec_path)
    backend = getattr(args, "backend", None) or cfg_backend or "emulator"
    soc = getattr(args, "soc", None) or spec.soc or cfg_soc
    timeout = float(getattr(args, "timeout", 60.0) or 60.0)
    if timeout <= 0:
        return _err(f"--timeout must be > 0, got {timeout:g}")
    source = getattr(args, "source", None)
    if source is not None and not Path(source).is_file():
        return _err(f"--source: file not found: {source}")
    trace = getattr(args, "trace", None)
    if trace is not None:
        tp = Path(trace)
        if tp.parent and not tp.parent.resolve().is_dir():
            return _err(f"--trace: directory not found: {tp.parent}")
    opts = RunOptions(
        source=Path(source) if source else None,
        soc=soc,
        timeout=timeout,
        block_order=getattr(args, "block_order", "sequential") or "sequential",
        trace_out=Path(trace) if trace else None,
        strict=bool(getattr(args, "strict", False)),
        strict_sync=bool(getattr(args, "strict_sync", False)),
        strict_ub=bool(getattr(args, "strict_ub", False)),
        strict_gm=bool(getattr(args, "strict_gm", False)),
        strict_assert=bool(getattr(args, "strict_assert", False)),
        ub_reserve=getattr(args, "ub_reserve", None) or "auto",
    )
    try:
        tc = get_toolchain(backend)
    except ToolchainUnavailable as exc:
        return _err(str(exc))
    try:
        result = tc.run(spec, opts)
    except SpecError as exc:
        return _err(str(exc))
    fmt = getattr(args, "format", "text") or "text"
    if fmt == "json":
        json.dump(result.to_json(), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print_text(result, spec, sys.stdout)
        if trace is not None and result.trace_file is None:
            print(f"trace: not written to {trace} (the kernel did not run to its end)")
    return EXIT_OK if result.correct else EXIT_FAIL


def _run_case(case: TestCase, args: argparse.Namespace) -> int:
    """An op project's op from its test case: host build + TilingFunc on the CPU, then the kernel on the emulator."""
    from ascendc_lsp.toolchain.opproject.discovery import OpProjectError
    from ascendc_lsp.toolchain.opproject.opbuild import prepare

    backend = getattr(args, "backend", None) or "emulator"
    if backend != "emulator":
        return _err(f"{case.origin}: op test cases run on the emulator backend only (got --backend {backend})")
    timeout = float(getattr(args, "timeout", 60.0) or 60.0)
    if timeout <= 0:
        return _err(f"--timeout must be > 0, got {timeout:g}")
    trace = getattr(args, "trace", None)
    if trace is not None and not Path(trace).parent.resolve().is_dir():
        return _err(f"--trace: directory not found: {Path(trace).parent}")
    source = getattr(args, "source", None)
    if source is not None and not Path(source).is_file():
        return _err(f"--source: file not found: {source}")
    opts = RunOptions(
        source=Path(source) if source else None,  # another kernel file for the op (a rewrite, a buggy twin)
        soc=getattr(args, "soc", None) or case.soc,
        timeout=timeout,
        block_order=getattr(args, "block_order", "sequential") or "sequential",
        trace_out=Path(trace) if trace else None,
    )
    try:
        tc = get_toolchain("emulator")
        prep = prepare(case, opts)
        if isinstance(prep, RunResult):
            result, spec = prep, None
        else:
            result, spec = tc.run(prep.spec, opts), prep.spec
            result.diagnostics[:0] = prep.notes
            result.kernel = prep.kernel.entry.name
    except ToolchainUnavailable as exc:
        return _err(str(exc))
    except (SpecError, OpProjectError) as exc:
        return _err(str(exc))
    fmt = getattr(args, "format", "text") or "text"
    if fmt == "json":
        json.dump(result.to_json(), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    elif spec is not None:
        print_text(result, spec, sys.stdout)
    else:
        sys.stdout.write(f"{case.op or case.origin}: did not build: NOT CORRECT\ndiagnostics:\n")
        for d in result.diagnostics:
            sys.stdout.write(f"  {display_path(d.file)}:{d.span.start.line + 1}: {d.severity} [{d.code}] {d.message}\n")
    return EXIT_OK if result.correct else EXIT_FAIL


def program_command(args: argparse.Namespace) -> int:
    """`run file.asc | main.cpp | SAMPLE_DIR`: a direct-launch program, judged by its own verification."""
    from ascendc_lsp.toolchain.program.cmake import CMakeError
    from ascendc_lsp.toolchain.program.discover import DiscoveryError
    from ascendc_lsp.toolchain.program.run import ProgramOptions, print_text, run_program

    path = Path(args.spec)
    if not path.exists():
        return _err(f"{path}: no such file or directory")
    if getattr(args, "source", None):
        return _err("--source applies to a kernel spec; a program's sources come from its CMakeLists.txt or folder")
    if (getattr(args, "backend", None) or "emulator") != "emulator":
        return _err("direct-launch programs run on the emulator backend only (--backend emulator)")
    timeout = float(getattr(args, "timeout", 60.0) or 60.0)
    if timeout <= 0:
        return _err(f"--timeout must be > 0, got {timeout:g}")
    defines: dict[str, str] = {}
    for d in getattr(args, "define", None) or []:
        name, eq, value = d.partition("=")
        if not eq or not name.isidentifier():
            return _err(f"--define expects NAME=VALUE (a CMake cache value such as SCENARIO_NUM=2), got {d!r}")
        defines[name] = value
    trace = getattr(args, "trace", None)
    if trace is not None and not Path(trace).resolve().parent.is_dir():
        return _err(f"--trace: directory not found: {Path(trace).parent}")
    cfg_soc = None
    try:
        from ascendc_lsp.settings import find_config_file, settings_for_path

        if find_config_file(path.resolve() if path.is_dir() else path.resolve().parent) is not None:
            cfg_soc = settings_for_path(path.resolve())[0].soc
    except Exception:  # settings are a convenience here; a broken file is reported by the server
        cfg_soc = None
    opts = ProgramOptions(
        soc=getattr(args, "soc", None) or cfg_soc,
        run_mode=getattr(args, "run_mode", None) or "npu",
        timeout=timeout,
        block_order=getattr(args, "block_order", "sequential") or "sequential",
        trace_out=Path(trace) if trace else None,
        defines=defines,
    )
    try:
        result = run_program(path, opts)
    except (DiscoveryError, CMakeError) as exc:
        return _err(str(exc))
    except OSError as exc:
        return _err(str(exc))
    if (getattr(args, "format", "text") or "text") == "json":
        json.dump(result.to_json(), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print_text(result, sys.stdout)
    return EXIT_OK if result.correct else EXIT_FAIL


def _run_errors(r: RunResult) -> list[Any]:
    """The errors the build or the run reported (a failed comparison is said per output instead)."""
    return [d for d in r.diagnostics if d.severity == "error" and d.code != "mismatch"]


def _why_not_correct(r: RunResult, failing: list[str]) -> str:
    """One clause saying which check failed: the build, the run (outputs then not trusted) or the comparison."""
    errors = _run_errors(r)
    if not r.compiled:
        return "the kernel did not compile"
    if errors:
        return f"the run reported {len(errors)} error(s) (below), so its outputs are not trusted"
    if failing:
        return "output " + ", ".join(failing) + " differ" + ("s" if len(failing) == 1 else "") + " from the reference"
    if not r.outputs:
        return "no output was compared"
    return "see the diagnostics below"


# what each pipe of the estimate's busy line does (the AI Core's instruction queues)
_PIPE_WORDS = {
    "s": "= scalar unit",
    "v": "= vector unit",
    "m": "= cube unit (Mmad)",
    "mte1": "= L1 -> L0A/L0B copies",
    "mte2": "= GM -> UB/L1 copies",
    "mte3": "= UB -> GM copies",
    "fix": "= Fixpipe, L0C -> GM/L1",
}


def _value(x: Any) -> str:
    return f"{x:.6g}" if isinstance(x, float) else str(x)


def _output_line(o: Any, allowed: int, trusted: bool) -> str:
    """One output's comparison: whether it matches, by how much it does not, and where it first differs."""
    numbers = (
        f"{o.mismatches:,}/{o.elements:,} mismatches" + (f" ({allowed:,} allowed)" if allowed else "")
        + f", max abs error {o.max_abs_error:.4g}, max rel error {o.max_rel_error:.4g} (rtol {o.rtol:g}, atol {o.atol:g})"
    )  # fmt: skip
    if o.mismatches <= allowed:
        status = "matches the reference" if trusted else "matches the reference but is not trusted (the run reported errors)"
        return f"  output {o.name}: {status}, {numbers}"
    line = f"  output {o.name}: MISMATCH, {numbers}"
    fm = o.first_mismatch or {}
    if fm:
        position = fm.get("position") or []
        where = f"index {fm.get('index')}" + (f" {position}" if len(position) > 1 else "")
        line += f"; first at {where}: expected {_value(fm.get('expected'))}, actual {_value(fm.get('actual'))}"
    if o.unwritten:
        line += f"; {o.unwritten:,} element(s) never written"
    return line


def print_text(r: RunResult, spec: KernelSpec, out: TextIO) -> None:
    compiled = "compiled" + (" (cached)" if r.compile_cached else "") + f" in {r.compile_seconds:.2f} s"
    if not r.compiled:
        compiled = "did not compile"
    ran = f"ran in {r.run_seconds:.2f} s" if r.compiled and (r.ran or r.run_seconds > 0) else ""
    allowed = {
        o.name: int(spec.tolerance_for(spec.tensor(o.name) or spec.outputs[0]).error_ratio * o.elements)
        for o in r.outputs
    }
    failing = [o.name for o in r.outputs if o.mismatches > allowed[o.name]]
    verdict = "CORRECT" if r.correct else f"NOT CORRECT: {_why_not_correct(r, failing)}"
    parts = [p for p in (compiled, ran) if p]
    out.write(
        f"{r.kernel} on {r.soc} ({r.backend}, block_dim {spec.block_dim}): {', '.join(parts)}: {verdict}\n"
    )
    trusted = not _run_errors(r)
    for o in r.outputs:
        out.write(_output_line(o, allowed[o.name], trusted) + "\n")
    if r.compiled and not r.outputs and spec.outputs:
        out.write("  outputs: not compared (the run did not finish)\n")
    e = r.estimate
    if e is not None:
        calibrated = e.provenance.startswith(("measured:", "model:calibrated"))
        out.write(
            f"estimate{'' if calibrated else ' (cost model, uncalibrated: not measured on an NPU)'}: "
            f"{e.microseconds:.2f} us = {e.cycles:,} cycles at {e.clock_ghz:g} GHz including a launch of "
            f"{e.launch_microseconds:.1f} us; the model's bounds {e.lower_microseconds:.2f}-"
            f"{e.upper_microseconds:.2f} us; bottleneck {e.bottleneck} [{e.provenance}]\n"
        )
        busy = [(k, v) for k, v in e.pipes.items() if v]
        if busy:
            out.write("  busy cycles per pipe on the critical core: " + "  ".join(f"{k} {v:,}" for k, v in busy) + "\n")
            legend = ", ".join(f"{k} {_PIPE_WORDS[k]}" for k, _ in busy if k in _PIPE_WORDS)
            out.write(f"  ({legend})\n")
        for n in e.notes:
            out.write(f"  note: {n}\n")
    write_trace_and_diagnostics(out, r.trace_file, r.diagnostics)
