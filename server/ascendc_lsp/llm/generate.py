"""Generate a kernel from a spec, or rewrite/optimise an existing one, with the checked loop; `ascendc-lsp generate`.

    ascendc-lsp generate SPEC.yaml [--out FILE] [--max-iterations N] [--no-knowledge] [--refine N]

Progress goes to stderr, one line per step. Exit codes: 0 a correct kernel was found and written; 1 none was
found (the best attempt is kept under .ascendc/attempts/); 2 bad usage, an invalid spec, no LLM endpoint
configured (with how to configure it), or no toolchain.

The functions here (`generate_kernel`, `rewrite_kernel`, `find_spec_for`) are what the language server's
commands call too.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ascendc_lsp.hardware.limits import DEFAULT_SOC
from ascendc_lsp.llm import prompts
from ascendc_lsp.llm.client import ChatClient, LlmConfig, LlmError, LlmNotConfigured, resolve_config
from ascendc_lsp.llm.loop import (
    CheckedLoop,
    Evaluator,
    KnowledgeAdvisor,
    Learner,
    LoopConfig,
    LoopResult,
    LoopSetupError,
    Progress,
    ToolchainEvaluator,
    Verdict,
)
from ascendc_lsp.llm.trajectory import Trajectory

if TYPE_CHECKING:
    from ascendc_lsp.settings import Settings
    from ascendc_lsp.toolchain.spec import KernelSpec

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
_WORKSPACE_MARKERS = ("ascendc-lsp.toml", ".ascendc", ".git")
_KERNEL_DEF = re.compile(r'extern\s+"C"\s+__global__\s+__aicore__\s+void\s+(\w+)\s*\(|__global__\s+__aicore__\s+void\s+(\w+)\s*\(')


def workspace_for(path: Path) -> Path:
    """The nearest folder holding ascendc-lsp.toml, .ascendc or .git; else the file's own folder."""
    start = path.resolve()
    start = start if start.is_dir() else start.parent
    for folder in (start, *start.parents):
        if any((folder / m).exists() for m in _WORKSPACE_MARKERS):
            return folder
    return start


@dataclass
class Services:
    """What the loop needs besides the spec; tests inject their own pieces."""

    client: ChatClient
    evaluator: Evaluator | None = None
    advisor: KnowledgeAdvisor | None = None
    learner: Learner | None = None


@dataclass
class GenerateOutcome:
    result: LoopResult
    kernel_path: Path | None = None  # written only when a correct kernel was found
    spec_path: Path | None = None
    best_attempt: Path | None = None

    def to_json(self) -> dict[str, Any]:
        best = self.result.best
        return {
            "status": self.result.status,
            "correct": self.result.correct,
            "message": self.result.message,
            "kernel": str(self.kernel_path) if self.kernel_path else None,
            "spec": str(self.spec_path) if self.spec_path else None,
            "bestAttempt": str(self.best_attempt) if self.best_attempt else None,
            "trajectory": str(self.result.trajectory) if self.result.trajectory else None,
            "attempts": len(self.result.attempts),
            "iterations": self.result.iterations,
            "speedup": self.result.speedup,
            "estimateMicroseconds": best.verdict.microseconds if best else None,
            "candidates": self.result.candidates,
            "notes": self.result.notes,
        }


def _soc(spec: KernelSpec, settings: Settings | None) -> str:
    return spec.soc or (settings.soc if settings is not None else "") or DEFAULT_SOC


def _make_evaluator(spec: KernelSpec, settings: Settings | None, workdir: Path,
                    extra_includes: list[Path]) -> ToolchainEvaluator:
    backend = settings.toolchain.backend if settings is not None else "emulator"
    disabled = frozenset(settings.diagnostics.disabledRules) if settings is not None else frozenset()
    return ToolchainEvaluator(
        workdir, soc=_soc(spec, settings), backend=backend, extra_include_dirs=extra_includes, disabled_rules=disabled
    )


def generate_kernel(
    spec: KernelSpec,
    services: Services,
    *,
    out: Path,
    config: LoopConfig,
    settings: Settings | None = None,
    workspace: Path | None = None,
    progress: Callable[[Progress], None] | None = None,
    cancel: threading.Event | None = None,
    write_spec: Path | None = None,
    spec_text: str | None = None,
) -> GenerateOutcome:
    """Run the loop from the spec alone; write the best correct kernel to `out` (and the spec to `write_spec`)."""
    soc = _soc(spec, settings)
    ws = workspace or workspace_for(spec.path or out)
    trajectory = Trajectory(ws, spec.kernel, "generate", services.client.config.secrets())
    with tempfile.TemporaryDirectory(prefix="ascendc-llm-") as tmp:
        includes = [spec.base_dir, out.parent.resolve()]
        evaluator = services.evaluator or _make_evaluator(spec, settings, Path(tmp), includes)
        loop = CheckedLoop(
            spec,
            services.client,
            evaluator,
            prompts.draft_messages(spec, soc),
            config=config,
            trajectory=trajectory,
            advisor=services.advisor,
            learner=services.learner,
            progress=progress,
            cancel=cancel,
            mode="generate",
            soc=soc,
            workspace=ws,
        )
        result = loop.run()
    outcome = GenerateOutcome(result=result, best_attempt=result.best.saved if result.best else None)
    if result.correct and result.best is not None and result.best.code:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(result.best.code, encoding="utf-8")
        outcome.kernel_path = out
        if write_spec is not None and spec_text is not None:
            write_spec.parent.mkdir(parents=True, exist_ok=True)
            write_spec.write_text(spec_text, encoding="utf-8")
            outcome.spec_path = write_spec
        else:
            outcome.spec_path = spec.path
    else:
        outcome.spec_path = spec.path
    return outcome


# ------------------------------------------------------------------------------------------- rewrite


@dataclass
class RewriteOutcome:
    result: LoopResult | None
    accepted: bool
    new_text: str | None
    message: str
    baseline: Verdict | None = None
    best_attempt: Path | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "accepted": self.accepted,
            "message": self.message,
            "status": self.result.status if self.result else "error",
            "bestAttempt": str(self.best_attempt) if self.best_attempt else None,
            "trajectory": str(self.result.trajectory) if self.result and self.result.trajectory else None,
            "baseline": self.baseline.to_json() if self.baseline else None,
            **self.details,
        }


def rewrite_kernel(
    spec: KernelSpec,
    source_path: Path,
    source_text: str,
    services: Services,
    *,
    goal: str,  # "correct" (Rewrite with LLM) or "faster" (Optimise with LLM)
    config: LoopConfig,
    focus: str | None = None,
    settings: Settings | None = None,
    workspace: Path | None = None,
    progress: Callable[[Progress], None] | None = None,
    cancel: threading.Event | None = None,
) -> RewriteOutcome:
    """Rewrite `source_text` with the loop; `accepted` only when the result passes (and, for "faster", is
    correct and faster by the cost model than the original, or the original was not correct)."""
    soc = _soc(spec, settings)
    ws = workspace or workspace_for(source_path)
    mode = "rewrite" if goal == "correct" else "optimise"
    trajectory = Trajectory(ws, spec.kernel, mode, services.client.config.secrets())
    with tempfile.TemporaryDirectory(prefix="ascendc-llm-") as tmp:
        includes = [source_path.parent.resolve(), spec.base_dir]
        evaluator = services.evaluator or _make_evaluator(spec, settings, Path(tmp), includes)
        if progress is not None:
            progress(Progress(1, max(1, config.max_iterations), "checking", "checking the current kernel"))
        baseline = evaluator.evaluate(source_text, spec, 0, cancel)
        trajectory.write("baseline", verdict=baseline.to_json(), source=str(source_path))
        shown = baseline.errors() + [d for d in baseline.diagnostics if d.get("severity") == "warning"]
        messages = prompts.rewrite_messages(
            spec,
            soc,
            source_text,
            goal=goal,
            focus=focus,
            diagnostics=shown,
            estimate=baseline.estimate if goal == "faster" and baseline.correct else None,
        )
        loop_config = config
        if goal == "faster" and baseline.correct and config.refine == 0:
            from dataclasses import replace

            loop_config = replace(config, refine=1)
        loop = CheckedLoop(
            spec,
            services.client,
            evaluator,
            messages,
            config=loop_config,
            trajectory=trajectory,
            advisor=services.advisor,
            learner=services.learner,
            progress=progress,
            cancel=cancel,
            mode=mode,
            soc=soc,
            workspace=ws,
        )
        result = loop.run()
    best = result.best
    saved = best.saved if best else None
    if not result.correct or best is None or not best.code:
        why = result.message
        where = f" The best attempt is saved at {saved}." if saved else ""
        return RewriteOutcome(result, False, None, f"Kept the original: {why}.{where}", baseline, saved)
    if goal == "faster" and baseline.correct:
        old, new = baseline.microseconds, best.verdict.microseconds
        if old is None or new is None or new >= old:
            shown_old = f"{old:.2f} us" if old is not None else "unknown"
            shown_new = f"{new:.2f} us" if new is not None else "unknown"
            return RewriteOutcome(
                result, False, None,
                f"Kept the original: the rewrite is correct but not faster by the cost model ({shown_new} vs "
                f"{shown_old}). It is saved at {saved}.",
                baseline, saved, {"original_us": old, "rewrite_us": new},
            )
        return RewriteOutcome(
            result, True, best.code,
            f"Optimised: {old:.2f} us -> {new:.2f} us by the cost model ({old / new:.2f}x), verified correct.",
            baseline, saved, {"original_us": old, "rewrite_us": new},
        )
    before = "was not correct" if not baseline.correct else "was already correct"
    return RewriteOutcome(
        result, True, best.code,
        f"Rewritten and verified correct after {result.iterations} attempt(s) (the original {before}).",
        baseline, saved,
    )


# ------------------------------------------------------------------------------------------- specs beside files


def kernel_names(text: str) -> list[str]:
    return [m.group(1) or m.group(2) for m in _KERNEL_DEF.finditer(text)]


def find_spec_for(source: Path, kernels: list[str]) -> tuple[Path, KernelSpec] | None:
    """A spec beside `source` (spec.yaml, *.spec.yaml, spec*.yaml; also in the parent folder for op_kernel/
    layouts) naming one of `kernels`; one whose `source:` is this file wins."""
    from ascendc_lsp.toolchain.spec import SpecError, load_spec

    source = source.resolve()
    candidates: list[Path] = []
    for folder in (source.parent, source.parent.parent):
        for pattern in ("spec.yaml", "*.spec.yaml", "spec*.yaml", f"{source.stem}*.yaml"):
            for p in sorted(folder.glob(pattern)):
                if p not in candidates:
                    candidates.append(p)
    matches: list[tuple[int, Path, KernelSpec]] = []
    for p in candidates:
        try:
            spec = load_spec(p)
        except SpecError:
            continue
        if kernels and spec.kernel not in kernels:
            continue
        rank = 0
        if spec.source is not None and spec.source.resolve() == source:
            rank -= 10
        if "buggy" in p.name:
            rank += 5
        if p.parent != source.parent:
            rank += 1
        matches.append((rank, p, spec))
    if not matches:
        return None
    matches.sort(key=lambda m: (m[0], str(m[1])))
    return matches[0][1], matches[0][2]


# ------------------------------------------------------------------------------------------- CLI


def _err(msg: str) -> int:
    print(f"ascendc-lsp generate: {msg}", file=sys.stderr)
    return EXIT_USAGE


def _printer(stream: TextIO) -> Callable[[Progress], None]:
    def show(p: Progress) -> None:
        if p.phase in ("result", "learn", "refine") or p.phase == "asking":
            print(f"[{p.iteration}/{p.total}] {p.message}", file=stream, flush=True)

    return show


def config_from_args(args: argparse.Namespace, settings: Settings | None) -> LlmConfig:
    base_url = getattr(args, "base_url", None)
    model = getattr(args, "model", None)
    return resolve_config(settings.llm if settings is not None else None, base_url=base_url, model=model)


def command(args: argparse.Namespace) -> int:
    from ascendc_lsp.settings import settings_for_path
    from ascendc_lsp.toolchain.base import ToolchainUnavailable
    from ascendc_lsp.toolchain.spec import SpecError, load_spec

    spec_arg = getattr(args, "spec", None)
    if not spec_arg:
        return _err("missing SPEC.yaml")
    max_iterations = int(getattr(args, "max_iterations", 5) or 0)
    refine = int(getattr(args, "refine", 0) or 0)
    if max_iterations < 1:
        return _err(f"--max-iterations must be at least 1, got {max_iterations}")
    if refine < 0:
        return _err(f"--refine must be 0 or more, got {refine}")
    spec_path = Path(spec_arg)
    try:
        spec = load_spec(spec_path)
    except SpecError as exc:
        return _err(str(exc))
    settings, problems = settings_for_path(spec_path.resolve())
    for problem in problems:
        print(f"ascendc-lsp generate: warning: {problem}", file=sys.stderr)
    out_arg = getattr(args, "out", None)
    out = Path(out_arg) if out_arg else (spec.source or spec.base_dir / f"{spec.kernel}.cpp")
    if out.exists() and out.is_dir():
        return _err(f"--out: {out} is a directory")
    if not out.resolve().parent.is_dir():
        return _err(f"--out: directory not found: {out.parent}")
    try:
        llm = config_from_args(args, settings)
    except LlmNotConfigured as exc:
        return _err(str(exc))
    with tempfile.TemporaryDirectory(prefix="ascendc-llm-") as tmp:
        evaluator = _make_evaluator(spec, settings, Path(tmp), [spec.base_dir, out.resolve().parent])
        try:
            evaluator.toolchain()
        except (ToolchainUnavailable, LoopSetupError) as exc:
            return _err(str(exc))
        config = LoopConfig(max_iterations=max_iterations, refine=refine,
                            use_knowledge=not getattr(args, "no_knowledge", False))
        client = ChatClient(llm)
        cancel = threading.Event()
        print(
            f"ascendc-lsp generate: {spec.kernel} with {llm.describe()}, up to {max_iterations} attempt(s)"
            + (f" + {refine} refinement round(s)" if refine else "")
            + ("" if config.use_knowledge else ", without knowledge retrieval"),
            file=sys.stderr,
        )
        try:
            outcome = generate_kernel(
                spec,
                Services(client=client, evaluator=evaluator),
                out=out,
                config=config,
                settings=settings,
                progress=_printer(sys.stderr),
                cancel=cancel,
            )
        except KeyboardInterrupt:
            cancel.set()
            print("ascendc-lsp generate: interrupted", file=sys.stderr)
            return EXIT_FAIL
        except LlmError as exc:
            return _err(str(exc))
        finally:
            client.close()
    result = outcome.result
    for note in result.notes:
        print(f"ascendc-lsp generate: note: {note}", file=sys.stderr)
    if result.trajectory:
        print(f"ascendc-lsp generate: trajectory: {result.trajectory}", file=sys.stderr)
    if outcome.kernel_path is not None:
        print(f"ascendc-lsp generate: wrote {outcome.kernel_path}: {result.message}", file=sys.stderr)
        return EXIT_OK
    if result.status == "error" and not result.attempts:
        # the endpoint refused before any attempt: a configuration problem
        return _err(result.message)
    where = f"; best attempt saved at {outcome.best_attempt}" if outcome.best_attempt else ""
    print(f"ascendc-lsp generate: {result.message}{where}", file=sys.stderr)
    return EXIT_FAIL


__all__ = [
    "GenerateOutcome",
    "RewriteOutcome",
    "Services",
    "command",
    "find_spec_for",
    "generate_kernel",
    "kernel_names",
    "rewrite_kernel",
    "workspace_for",
]
