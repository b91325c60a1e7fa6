"""The `Toolchain` interface shared by the emulator and the CANN backends, and its typed results.

`RunResult.to_json()` gives exactly the `run` shape of docs/architecture.md ("Shapes that cross layers")
(`stage_reached`, `compiled`, `ran`, `correct`, `diagnostics`, `max_abs_error`, `mismatches`, `estimate`)
plus extra fields tools may use (`max_rel_error`, `first_mismatch`, `outputs`, `category`, timings).

This module is imported by the language server, so it stays light: no numpy, no yaml.
"""

from __future__ import annotations

import abc
import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TextIO

from ascendc_lsp.diagnostics import Diagnostic

if TYPE_CHECKING:
    from ascendc_lsp.toolchain.spec import KernelSpec

# The `source` of the diagnostics of the emulator backend, the op-project and direct-launch flows built on it.
EMULATOR_SOURCE = "ascendc-emulator"

Stage = Literal["compile", "run", "verify", "done"]

STAGES: tuple[str, ...] = ("compile", "run", "verify", "done")


@dataclass
class Estimate:
    """The cost model's answer. Cycles are AI Core cycles; `microseconds` includes the launch overhead."""

    cycles: int
    microseconds: float
    bottleneck: str
    pipes: dict[str, int]
    lower_cycles: int = 0
    upper_cycles: int = 0
    lower_microseconds: float = 0.0
    upper_microseconds: float = 0.0
    launch_microseconds: float = 0.0
    clock_ghz: float = 1.8
    blocks: int = 0
    cores_used: int = 0
    cores_available: int = 0
    ratios: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    provenance: str = "model:default"
    events: int = 0  # traced events the model scheduled

    def to_json(self) -> dict[str, Any]:
        return {
            "cycles": self.cycles,
            "microseconds": round(self.microseconds, 3),
            "bottleneck": self.bottleneck,
            "pipes": dict(self.pipes),
            "lower_bound": {"cycles": self.lower_cycles, "microseconds": round(self.lower_microseconds, 3)},
            "upper_bound": {"cycles": self.upper_cycles, "microseconds": round(self.upper_microseconds, 3)},
            "launch_microseconds": round(self.launch_microseconds, 3),
            "clock_ghz": self.clock_ghz,
            "blocks": self.blocks,
            "cores_used": self.cores_used,
            "cores_available": self.cores_available,
            "ratios": {k: round(v, 4) for k, v in self.ratios.items()},
            "notes": list(self.notes),
            "provenance": self.provenance,
            "events": self.events,
        }

    @classmethod
    def in_sequence(cls, parts: list[Estimate], notes: list[str]) -> Estimate:
        """The estimate of launches that run one after another (a program's, or a spec's several launches): cycles,
        times, pipe cycles and events add up; blocks and cores used are the largest; the bottleneck, clock, cores
        available, ratios and provenance are the longest launch's. One part is returned as it is."""
        if len(parts) == 1:
            return parts[0]
        longest = max(parts, key=lambda e: e.cycles)
        pipes = dict.fromkeys((k for e in parts for k in e.pipes), 0)
        for e in parts:
            for k, v in e.pipes.items():
                pipes[k] += v
        return cls(
            cycles=sum(e.cycles for e in parts),
            microseconds=sum(e.microseconds for e in parts),
            bottleneck=longest.bottleneck,
            pipes=pipes,
            lower_cycles=sum(e.lower_cycles for e in parts),
            upper_cycles=sum(e.upper_cycles for e in parts),
            lower_microseconds=sum(e.lower_microseconds for e in parts),
            upper_microseconds=sum(e.upper_microseconds for e in parts),
            launch_microseconds=sum(e.launch_microseconds for e in parts),
            clock_ghz=longest.clock_ghz,
            blocks=max(e.blocks for e in parts),
            cores_used=max(e.cores_used for e in parts),
            cores_available=longest.cores_available,
            ratios=dict(longest.ratios),
            notes=notes,
            provenance=longest.provenance,
            events=sum(e.events for e in parts),
        )


@dataclass
class OutputCheck:
    """Verification of one output tensor against the reference."""

    name: str
    compared: bool = True
    elements: int = 0
    mismatches: int = 0
    max_abs_error: float = 0.0
    max_rel_error: float = 0.0
    first_mismatch: dict[str, Any] | None = (
        None  # {"index": flat, "position": [...], "expected": x, "actual": y}
    )
    rtol: float = 0.0
    atol: float = 0.0
    unwritten: int = 0  # elements still holding the harness's poison pattern

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "compared": self.compared,
            "elements": self.elements,
            "mismatches": self.mismatches,
            "max_abs_error": json_number(self.max_abs_error),
            "max_rel_error": json_number(self.max_rel_error),
            "first_mismatch": self.first_mismatch,
            "rtol": self.rtol,
            "atol": self.atol,
            "unwritten": self.unwritten,
        }


def write_trace_and_diagnostics(out: TextIO, trace_file: str | None, diagnostics: Sequence[Diagnostic]) -> None:
    """The end of a run's text report, for a spec's run and a direct-launch program's alike: where the trace went
    and the diagnostics."""
    if trace_file:
        out.write(f"trace: wrote {trace_file} (open it in https://ui.perfetto.dev or chrome://tracing)\n")
    if diagnostics:
        out.write("diagnostics:\n")
        for d in diagnostics:
            out.write(d.to_text())


def json_number(value: Any) -> float | str:
    """A float for JSON, which has no inf/nan: those are spelled as strings ("inf", "-inf", "nan")."""
    x = float(value)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


@dataclass
class CompileResult:
    ok: bool
    binary: Path | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    cached: bool = False
    seconds: float = 0.0
    log: str = ""


@dataclass
class RunResult:
    stage_reached: Stage = "compile"
    compiled: bool = False
    ran: bool = False
    correct: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)
    max_abs_error: float | None = None
    max_rel_error: float | None = None
    mismatches: int | None = None
    first_mismatch: dict[str, Any] | None = None
    outputs: list[OutputCheck] = field(default_factory=list)
    estimate: Estimate | None = None
    backend: str = "emulator"
    soc: str = ""
    kernel: str = ""
    source: str = ""
    compile_seconds: float = 0.0
    compile_cached: bool = False
    run_seconds: float = 0.0
    exit_code: int | None = None
    isolation: str = ""
    stdout: str = ""
    stderr: str = ""
    trace_file: str | None = None  # where --trace wrote the Perfetto/Chrome trace (absolute), once written

    @property
    def category(self) -> str | None:
        """What went wrong, in taxonomy terms.

        The first error the backend reported (compile error, runtime check) wins; a failed comparison is
        usually the symptom of something the emulator flagged as a warning (a truncated DataCopy, a race in
        non-strict mode), so such a warning's category comes before the mismatch's own.
        """
        errors = [d for d in self.diagnostics if d.severity == "error" and d.category]
        primary = [d for d in errors if d.code != "mismatch"]
        if primary:
            return primary[0].category
        if errors:
            hints = [d for d in self.diagnostics if d.severity == "warning" and d.category and d.code != "spec"]
            return (hints[0] if hints else errors[0]).category
        return None

    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    def to_json(self) -> dict[str, Any]:
        return {
            "stage_reached": self.stage_reached,
            "compiled": self.compiled,
            "ran": self.ran,
            "correct": self.correct,
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "max_abs_error": None if self.max_abs_error is None else json_number(self.max_abs_error),
            "mismatches": self.mismatches,
            "estimate": None if self.estimate is None else self.estimate.to_json(),
            # extras
            "category": self.category,
            "max_rel_error": None if self.max_rel_error is None else json_number(self.max_rel_error),
            "first_mismatch": self.first_mismatch,
            "outputs": [o.to_json() for o in self.outputs],
            "backend": self.backend,
            "soc": self.soc,
            "kernel": self.kernel,
            "source": self.source,
            "compile_seconds": round(self.compile_seconds, 3),
            "compile_cached": self.compile_cached,
            "run_seconds": round(self.run_seconds, 3),
            "exit_code": self.exit_code,
            "isolation": self.isolation,
            "trace_file": self.trace_file,
        }


@dataclass
class RunOptions:
    """Knobs of one `run` besides the spec itself."""

    source: Path | None = None  # overrides the spec's source
    soc: str | None = None  # overrides the spec's soc
    timeout: float = 60.0  # seconds, for compile and for run separately
    compile_timeout: float | None = None  # seconds for the compile when it should differ from `timeout`
    block_order: str = "sequential"  # sequential | reverse | interleaved
    trace_out: Path | None = None  # write a Chrome/Perfetto trace here
    keep_dir: Path | None = None  # copy the run directory here (debugging)
    use_cache: bool = True
    # Modes (PROTOCOL.md "Modes"). The defaults model the NPU build (bisheng auto-sync, runtime-padded GM,
    # ASSERT compiled out, InitBuffer unchecked, the UB reserve taken only by the APIs that use it); each flag
    # selects the stricter CPU-debug behaviour. A spec's `strict:` / `ub_reserve:` keys add to these.
    strict: bool = False  # every stricter mode below at once, plus DataCopy truncation as an error
    strict_sync: bool = False  # report the syncs bisheng's auto-sync inserts (S <-> V/MTE2/MTE3, V -> V)
    strict_ub: bool = False  # InitBuffer totals beyond UB minus the AscendC reserve are errors at InitBuffer
    strict_gm: bool = False  # GM accesses past the requested bytes are errors (no runtime padding)
    strict_assert: bool = False  # ASSERT / ASCENDC_ASSERT trap as in the CPU-debug build
    ub_reserve: str = "auto"  # auto | always | off (--cce-disable-asc-reserved-ubuf)
    # set by the caller (an editor whose user cancelled) to stop the kernel's run early: the result then says so
    cancel: threading.Event | None = None


class ToolchainUnavailable(Exception):
    """The backend cannot run on this machine (no compiler, no CANN toolkit...)."""


class Toolchain(abc.ABC):
    """A backend that compiles and runs kernels described by a kernel spec."""

    name: str = "abstract"

    @abc.abstractmethod
    def available(self) -> tuple[bool, str]:
        """(usable, reason when not)."""

    @abc.abstractmethod
    def compile(self, spec: KernelSpec, options: RunOptions | None = None) -> CompileResult:
        """Build the kernel (with its harness) for `spec`."""

    @abc.abstractmethod
    def run(self, spec: KernelSpec, options: RunOptions | None = None) -> RunResult:
        """Compile, run, verify against the spec's reference and estimate the time."""
