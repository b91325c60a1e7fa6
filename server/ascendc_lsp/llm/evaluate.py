"""Judging an attempt: `Verdict` (the stage reached, the diagnostics, the numbers) and `ToolchainEvaluator`,
which runs the static checks and the toolchain (the emulator or CANN) on a generated kernel. Every verdict comes
from the tools, never from the model.
"""

from __future__ import annotations

import logging
import math
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ascendc_lsp.hardware.limits import DEFAULT_SOC
from ascendc_lsp.llm.client import Cancelled

if TYPE_CHECKING:
    from ascendc_lsp.toolchain.spec import KernelSpec

log = logging.getLogger(__name__)


STAGE_RANK: dict[str, int] = {"reply": 0, "static": 1, "compile": 2, "run": 3, "verify": 4, "done": 5}


class LoopSetupError(Exception):
    """Nothing the model writes can be judged: the toolchain is unavailable or the spec is broken."""


class LoopSpecError(LoopSetupError):
    """The spec (not the model) is broken: the loop cannot judge any kernel."""


@dataclass
class Verdict:
    stage: str  # reply | static | compile | run | verify | done
    correct: bool
    summary: str
    diagnostics: list[dict[str, Any]] = field(default_factory=list)
    category: str | None = None
    estimate: dict[str, Any] | None = None
    seconds: float = 0.0
    source_path: str | None = None

    @property
    def microseconds(self) -> float | None:
        if self.estimate is None:
            return None
        value = self.estimate.get("microseconds")
        return float(value) if isinstance(value, int | float) else None

    @property
    def cycles(self) -> int | None:
        if self.estimate is None:
            return None
        value = self.estimate.get("cycles")
        return int(value) if isinstance(value, int | float) else None

    def errors(self) -> list[dict[str, Any]]:
        return [d for d in self.diagnostics if d.get("severity") == "error"]

    def categories(self) -> set[str]:
        cats = {str(d["category"]) for d in self.errors() if d.get("category")}
        if self.category:
            cats.add(self.category)
        return cats

    def log_text(self) -> str:
        """The failure as a compiler/runtime log would print it (the retrieval query)."""
        lines = []
        for d in self.diagnostics:
            if d.get("severity") not in ("error", "warning"):
                continue
            start = d.get("range", {}).get("start", {})
            where = f"{Path(str(d.get('file') or 'kernel.cpp')).name}:{start.get('line', 0) + 1}:{start.get('character', 0) + 1}"
            code = f" [{d['code']}]" if d.get("code") else ""
            lines.append(f"{where}: {d.get('severity')}: {d.get('message', '')}{code}")
        return "\n".join(lines) or self.summary

    def to_json(self) -> dict[str, Any]:
        return {
            "stage": self.stage,
            "correct": self.correct,
            "summary": self.summary,
            "category": self.category,
            "diagnostics": self.diagnostics,
            "estimate": self.estimate,
            "seconds": round(self.seconds, 3),
        }


class Evaluator(Protocol):
    """Judges one candidate source against the spec."""

    def evaluate(self, code: str, spec: KernelSpec, attempt: int, cancel: threading.Event | None) -> Verdict: ...


def _finite_json(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {k: _finite_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite_json(v) for v in value]
    return value


MAX_FEEDBACK_CHARS = 1000  # of one diagnostic's message passed back to the model (kernel stderr included)


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x9b]")


def scrub_diagnostic(diag: dict[str, Any]) -> dict[str, Any]:
    """A diagnostic as the model and the trajectory may see it: the message (which may quote what the kernel
    printed) capped and without control characters (terminal escapes, NULs)."""
    message = diag.get("message")
    if isinstance(message, str):
        clean = _CONTROL.sub("", message)
        if len(clean) > MAX_FEEDBACK_CHARS:
            clean = clean[:MAX_FEEDBACK_CHARS] + f" [... {len(clean) - MAX_FEEDBACK_CHARS} characters cut]"
        diag = {**diag, "message": clean}
    return diag


class ToolchainEvaluator:
    """Static checks (check_document), then the toolchain's compile/run/verify/estimate (`run` command)."""

    def __init__(
        self,
        workdir: Path,
        *,
        soc: str | None = None,
        backend: str = "emulator",
        timeout: float = 60.0,
        static_checks: bool = True,
        extra_include_dirs: Sequence[Path] = (),
        disabled_rules: frozenset[str] = frozenset(),
    ) -> None:
        self.workdir = workdir
        self.soc = soc
        self.backend = backend
        self.timeout = timeout
        self.static_checks = static_checks
        self.extra_include_dirs = [Path(p) for p in extra_include_dirs]
        self.disabled_rules = disabled_rules
        self._toolchain: Any = None

    def toolchain(self) -> Any:
        if self._toolchain is None:
            from ascendc_lsp.toolchain.base import ToolchainUnavailable
            from ascendc_lsp.toolchain.command import get_toolchain

            try:
                self._toolchain = get_toolchain(self.backend)
            except ToolchainUnavailable as exc:
                raise LoopSetupError(str(exc)) from None
        return self._toolchain

    def static(self, code: str, path: Path, soc: str) -> list[dict[str, Any]]:
        from ascendc_lsp.checks.engine import CheckOptions, check_document
        from ascendc_lsp.syntax.document import SourceDocument

        document = SourceDocument(code, path=str(path))
        findings = check_document(document, CheckOptions(soc_name=soc, disabled_rules=self.disabled_rules))
        out = []
        for f in findings:
            d = f.to_json()
            d.pop("fixes", None)
            d["file"] = str(path)
            d["source"] = "ascendc-lsp"
            out.append(d)
        return out

    def evaluate(self, code: str, spec: KernelSpec, attempt: int, cancel: threading.Event | None) -> Verdict:
        from ascendc_lsp.toolchain.base import RunOptions
        from ascendc_lsp.toolchain.spec import SpecError

        started = time.monotonic()
        folder = self.workdir / f"attempt-{attempt}"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{spec.kernel}.cpp"
        path.write_text(code, encoding="utf-8")
        soc = self.soc or spec.soc or DEFAULT_SOC
        static: list[dict[str, Any]] = []
        if self.static_checks:
            try:
                static = self.static(code, path, soc)
            except Exception:  # a checker bug must not stop the loop; the compiler still judges
                log.exception("static checks failed on attempt %d", attempt)
        # Parse errors are the compiler's call (tree-sitter recovers differently); rule errors gate the compile.
        blocking = [d for d in static if d.get("severity") == "error" and d.get("code") != "syntax"]
        if blocking:
            first = blocking[0]
            return Verdict(
                stage="static",
                correct=False,
                summary=f"{len(blocking)} static check error(s); first: {first.get('message', '')}",
                diagnostics=static,
                category=first.get("category"),
                seconds=time.monotonic() - started,
                source_path=str(path),
            )
        if cancel is not None and cancel.is_set():
            raise Cancelled()
        run_spec = spec
        if self.extra_include_dirs:
            run_spec = replace(spec, include_dirs=[*spec.include_dirs, *self.extra_include_dirs])
        try:
            result = self.toolchain().run(run_spec, RunOptions(source=path, soc=soc, timeout=self.timeout))
        except SpecError as exc:
            raise LoopSpecError(str(exc)) from None
        diags = [
            scrub_diagnostic(_finite_json(d.to_json()))
            for d in result.diagnostics
            if d.severity in ("error", "warning")
        ]
        diags += [d for d in static if d.get("severity") == "warning"]
        if result.correct:
            stage, summary = "done", "correct"
        elif not result.compiled:
            stage, summary = "compile", "did not compile"
        elif not result.ran:
            stage, summary = "run", "the run reported errors"
        else:
            stage = "verify"
            summary = f"wrong results: {result.mismatches} mismatching element(s), max abs error {result.max_abs_error}"
        errors = [d for d in diags if d.get("severity") == "error"]
        if errors and not result.correct:
            summary += f"; first error: {str(errors[0].get('message', '')).splitlines()[0]}"
        estimate = _finite_json(result.estimate.to_json()) if result.estimate is not None else None
        return Verdict(
            stage=stage,
            correct=result.correct,
            summary=summary,
            diagnostics=diags,
            category=result.category,
            estimate=estimate,
            seconds=time.monotonic() - started,
            source_path=str(path),
        )
