"""The checked loop shared by "generate kernel from spec" and "rewrite with LLM".

    draft -> static checks -> compile -> run -> verify against the spec's reference -> estimate
      ^                                                                                   |
      +---- failing lines + knowledge entries retrieved for the diagnostics <-------------+

Up to `max_iterations` attempts reach for a correct kernel; then `refine` optional rounds ask for a faster one and
keep it only when it is still correct and the cost model says it is faster. Every attempt goes to the trajectory
file; the knowledge entries shown for a failure have their value updated by what the next attempt did, and a
failure followed by a passing attempt becomes a candidate knowledge entry.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import logging
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ascendc_lsp.hardware.limits import DEFAULT_SOC
from ascendc_lsp.llm import prompts
from ascendc_lsp.llm.advise import KnowledgeAdvisor, advice_from_entry
from ascendc_lsp.llm.client import Cancelled, ChatClient, Completion, LlmError, redact, redact_obj
from ascendc_lsp.llm.evaluate import (
    MAX_FEEDBACK_CHARS,
    STAGE_RANK,
    Evaluator,
    LoopSetupError,
    LoopSpecError,
    ToolchainEvaluator,
    Verdict,
    scrub_diagnostic,
)
from ascendc_lsp.llm.extract import extract_code
from ascendc_lsp.llm.learn import Learner
from ascendc_lsp.llm.prompts import Advice, Failure
from ascendc_lsp.llm.trajectory import Trajectory

if TYPE_CHECKING:
    from ascendc_lsp.toolchain.spec import KernelSpec

log = logging.getLogger(__name__)

_RUNTIME_STAGE = {"reply": "compile", "static": "compile", "compile": "compile", "run": "runtime",
                  "verify": "precision", "done": "perf"}


@dataclass
class LoopConfig:
    max_iterations: int = 5
    refine: int = 0
    use_knowledge: bool = True
    learn: bool = True
    top_k: int = 3
    rationale: bool = True  # ask the model for a candidate entry's rationale


@dataclass
class Attempt:
    index: int
    phase: str  # draft | repair | refine
    code: str | None
    verdict: Verdict
    reply: str = ""
    extraction: str = ""
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    llm_seconds: float = 0.0
    advice: list[Advice] = field(default_factory=list)  # shown in the prompt that produced this attempt
    saved: Path | None = None

    @property
    def correct(self) -> bool:
        return self.verdict.correct

    def brief(self) -> str:
        tag = "CORRECT" if self.correct else f"failed at {self.verdict.stage}"
        cat = f" [{self.verdict.category}]" if self.verdict.category and not self.correct else ""
        est = f", {self.verdict.microseconds:.2f} us" if self.correct and self.verdict.microseconds else ""
        return f"attempt {self.index} ({self.phase}): {tag}{cat}{est}"


@dataclass
class Progress:
    iteration: int
    total: int
    phase: str  # asking | checking | result | refine | learn
    message: str

    @property
    def percentage(self) -> int:
        return max(0, min(100, int(100 * (self.iteration - 1) / max(1, self.total))))


@dataclass
class LoopResult:
    status: str  # correct | failed | cancelled | error
    message: str
    attempts: list[Attempt] = field(default_factory=list)
    first_correct: Attempt | None = None
    best: Attempt | None = None
    trajectory: Path | None = None
    candidates: list[str] = field(default_factory=list)
    outcomes: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def correct(self) -> bool:
        return self.best is not None and self.best.correct

    @property
    def iterations(self) -> int:
        """Attempts until the first correct kernel (all attempts when none was correct)."""
        if self.first_correct is not None:
            return self.first_correct.index
        return len([a for a in self.attempts if a.phase != "refine"])

    @property
    def speedup(self) -> float | None:
        """First correct kernel's estimate / best kernel's estimate (1.0 without a faster refinement)."""
        if self.first_correct is None or self.best is None:
            return None
        a, b = self.first_correct.verdict.microseconds, self.best.verdict.microseconds
        if not a or not b:
            return None
        return a / b

    def best_failure(self) -> Attempt | None:
        tried = [a for a in self.attempts if a.code]
        if not tried:
            return None
        return max(tried, key=lambda a: (STAGE_RANK.get(a.verdict.stage, 0), a.index))

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "message": self.message,
            "correct": self.correct,
            "iterations": self.iterations,
            "speedup": self.speedup,
            "trajectory": str(self.trajectory) if self.trajectory else None,
            "candidates": self.candidates,
            "attempts": [{"index": a.index, "phase": a.phase, **a.verdict.to_json(), "saved": str(a.saved or "")}
                         for a in self.attempts],
        }


ProgressCallback = Callable[[Progress], None]


def failing_lines(verdict: Verdict, code: str, context: int = 0) -> list[tuple[int, str]]:
    """(1-based line, text) of the source lines the error diagnostics point at."""
    lines = code.splitlines()
    picked: list[int] = []
    path = verdict.source_path
    ranked = verdict.errors() + [d for d in verdict.diagnostics if d.get("severity") == "warning"]
    for d in ranked:
        f = d.get("file")
        if f and path and Path(str(f)).name != Path(path).name:
            continue
        line = d.get("range", {}).get("start", {}).get("line")
        if not isinstance(line, int):
            continue
        for n in range(line - context, line + context + 1):
            if 0 <= n < len(lines) and n not in picked:
                picked.append(n)
    return [(n + 1, lines[n]) for n in picked[:12]]


def failure_of(attempt: Attempt) -> Failure:
    v = attempt.verdict
    shown = v.errors() + [d for d in v.diagnostics if d.get("severity") == "warning"]
    return Failure(stage=v.stage, summary=v.summary, diagnostics=shown,
                   lines=failing_lines(v, attempt.code or ""))


def _fixed(before: Verdict, after: Verdict, category: str) -> bool:
    """Did the attempt after the advice get past the failure the entry was retrieved for?"""
    if after.correct:
        return True
    rb, ra = STAGE_RANK.get(before.stage, 0), STAGE_RANK.get(after.stage, 0)
    if ra > rb:
        return True
    return ra == rb and bool(category) and category in before.categories() and category not in after.categories()


def _assistant_echo(attempt: Attempt) -> dict[str, str]:
    if attempt.code:
        return {"role": "assistant", "content": f"```cpp\n{attempt.code.rstrip()}\n```"}
    text = attempt.reply.strip() or "(empty reply)"
    return {"role": "assistant", "content": text[:2000]}


class CheckedLoop:
    """One run of the loop for one spec. Build it, call `run()`, read the LoopResult."""

    def __init__(
        self,
        spec: KernelSpec,
        client: ChatClient,
        evaluator: Evaluator,
        initial_messages: Sequence[dict[str, str]],
        *,
        config: LoopConfig | None = None,
        trajectory: Trajectory | None = None,
        advisor: KnowledgeAdvisor | None = None,
        learner: Learner | None = None,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
        mode: str = "generate",
        soc: str = DEFAULT_SOC,
        workspace: Path | None = None,
    ) -> None:
        self.spec = spec
        self.client = client
        self.evaluator = evaluator
        self.initial = [dict(m) for m in initial_messages]
        self.config = config or LoopConfig()
        self.trajectory = trajectory
        self.advisor = advisor if advisor is not None else (
            KnowledgeAdvisor(self.config.top_k) if self.config.use_knowledge else None
        )
        if not self.config.use_knowledge:
            self.advisor = None
        self.learner = learner if learner is not None else Learner(self.config.learn)
        self.progress = progress
        self.cancel = cancel
        self.mode = mode
        self.soc = soc
        self.workspace = workspace
        self.result = LoopResult(status="failed", message="")

    # -- helpers --------------------------------------------------------------------------------

    def _emit(self, iteration: int, total: int, phase: str, message: str) -> None:
        if self.progress is not None:
            try:
                self.progress(Progress(iteration, total, phase, message))
            except Exception:
                log.exception("progress callback failed")

    def _record(self, event: str, **fields: Any) -> None:
        if self.trajectory is not None:
            try:
                self.trajectory.write(event, **fields)
            except OSError as exc:
                log.warning("cannot write the trajectory: %s", exc)

    def _check_cancel(self) -> None:
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled()

    def _ask(self, messages: list[dict[str, str]]) -> Completion:
        return self.client.complete(messages, cancel=self.cancel)

    def _attempt(self, index: int, total: int, phase: str, messages: list[dict[str, str]],
                 advice: list[Advice]) -> Attempt:
        self._check_cancel()
        self._emit(index, total, "asking", f"attempt {index}/{total} ({phase}): asking {self.client.config.model}")
        completion = self._ask(messages)
        secrets = self.client.config.secrets()
        # A reply echoing the API key must not carry it into any artifact: the attempt's source, the evaluated
        # file, the kernel written to the workspace, the trajectory, the next request.
        reply = redact(completion.text, secrets)
        extraction = extract_code(reply, self.spec.kernel)
        if not extraction.ok:
            reason = extraction.reason
            if completion.truncated:
                reason += " (the reply was cut short)"
            verdict = Verdict(stage="reply", correct=False, summary=reason)
            code = None
        else:
            code = extraction.code
            self._check_cancel()
            self._emit(index, total, "checking", f"attempt {index}/{total}: checking, compiling and running")
            assert code is not None
            verdict = self.evaluator.evaluate(code, self.spec, index, self.cancel)
        attempt = Attempt(
            index=index,
            phase=phase,
            code=code,
            verdict=verdict,
            reply=reply,
            extraction=extraction.reason + ("; " + "; ".join(extraction.notes) if extraction.notes else ""),
            prompt_tokens=completion.prompt_tokens,
            completion_tokens=completion.completion_tokens,
            llm_seconds=completion.seconds,
            advice=advice,
        )
        if self.trajectory is not None and code:
            try:
                attempt.saved = self.trajectory.save_code(f"attempt-{index}.cpp", code)
            except OSError as exc:
                log.warning("cannot save attempt %d: %s", index, exc)
        self._record(
            "attempt",
            index=index,
            phase=phase,
            prompt=messages,
            reply=reply,
            reasoning=completion.reasoning[:20000],
            extraction=attempt.extraction,
            code_file=str(attempt.saved) if attempt.saved else None,
            verdict=verdict.to_json(),
            advice=[a.to_json() for a in advice],
            llm_seconds=round(completion.seconds, 3),
            eval_seconds=round(verdict.seconds, 3),
            prompt_tokens=completion.prompt_tokens,
            completion_tokens=completion.completion_tokens,
            finish_reason=completion.finish_reason,
            truncated=completion.truncated,
            retries=completion.retries,
        )
        self._emit(index, total, "result", attempt.brief())
        return attempt

    def _learn_from(self, previous: Attempt, current: Attempt) -> None:
        """Update the values of the entries shown after `previous` failed, by what `current` did."""
        if current.code is None or not current.advice:
            return
        for a in current.advice:
            success = _fixed(previous.verdict, current.verdict, a.category)
            value = self.learner.outcome(a.entry_id, success)
            outcome = {"entry": a.entry_id, "success": success, "value": value, "attempt": current.index}
            self.result.outcomes.append(outcome)
            self._record("outcome", **outcome)

    def _synthesise(self, failed: Attempt, passed: Attempt) -> None:
        """A failure followed by a passing attempt becomes a candidate knowledge entry."""
        if not failed.code or not passed.code:
            return
        diff = "".join(
            difflib.unified_diff(
                failed.code.splitlines(keepends=True),
                passed.code.splitlines(keepends=True),
                fromfile=f"{self.spec.kernel}.failing.cpp",
                tofile=f"{self.spec.kernel}.fixed.cpp",
                n=2,
            )
        )
        failure = failure_of(failed)
        rationale, title = "", ""
        if self.config.rationale:
            messages = prompts.rationale_messages(failure, diff)
            try:
                reply = self.client.complete(messages, cancel=self.cancel, stream=False, max_tokens=400)
                text = re.sub(r"<think>.*?</think>", "", reply.text, flags=re.DOTALL).strip()
                match = re.search(r"^\s*TITLE:\s*(.+)$", text, re.MULTILINE)
                if match:
                    title = match.group(1).strip()[:120]
                    text = (text[: match.start()] + text[match.end():]).strip()
                rationale = text[:1200]
                self._record("rationale", prompt=messages, reply=reply.text,
                             prompt_tokens=reply.prompt_tokens, completion_tokens=reply.completion_tokens)
            except Cancelled:
                raise
            except LlmError as exc:
                self._record("rationale", error=str(exc))
        category = failed.verdict.category or next(iter(sorted(failed.verdict.categories())), None) or "unknown"
        errors = failed.verdict.errors() or failed.verdict.diagnostics
        messages_seen = [str(d.get("message", "")).splitlines()[0] for d in errors[:4] if d.get("message")]
        rules = sorted({str(d["code"]) for d in errors if re.fullmatch(r"ASC\d+", str(d.get("code", "")))})
        stage = _RUNTIME_STAGE.get(failed.verdict.stage, "compile")
        summary = title or (f"Change that made {self.spec.kernel} pass after it failed at the "
                            f"{failed.verdict.stage} stage")
        # The knowledge store's record shape (knowledge/learning.py): log, before/after/diff, rationale, ...
        record: dict[str, Any] = {
            "log": failed.verdict.log_text()[:4000] or failed.verdict.summary,
            "before": failed.code,
            "after": passed.code,
            "diff": diff,
            "rationale": rationale,
            "title": title or f"{category}: fixed by the generate loop on {self.spec.kernel}",
            "category": category,
            "stage": stage,
            "socs": [self.soc],
            "fix": summary,
            "language": "kernel",
            "source": "llm-loop",
            "origin": {
                "mode": self.mode,
                "kernel": self.spec.kernel,
                "spec": str(self.spec.path) if self.spec.path else None,
                "model": self.client.config.model,
                "attempts": [failed.index, passed.index],
                "trajectory": str(self.trajectory.path) if self.trajectory else None,
                "entries_shown": [a.entry_id for a in passed.advice],
                "messages": messages_seen,
                "rules": rules,
            },
        }
        record = redact_obj(record, self.client.config.secrets())
        entry_id = self.learner.candidate(record)
        saved = self._save_candidate(record, entry_id)
        if entry_id:
            self.result.candidates.append(entry_id)
        elif saved is not None:
            self.result.candidates.append(str(saved))
        self._record("candidate", id=entry_id, file=str(saved) if saved else None, title=record["title"],
                     category=category, attempts=[failed.index, passed.index])

    def _save_candidate(self, record: dict[str, Any], entry_id: str | None) -> Path | None:
        if self.trajectory is None:
            return None
        folder = self.trajectory.root / "candidates"
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
        path = folder / f"{self.spec.kernel}-{stamp}.json"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps({"id": entry_id, **record}, indent=2, ensure_ascii=False), encoding="utf-8")
        except OSError as exc:
            log.warning("cannot save the candidate entry: %s", exc)
            return None
        return path

    # -- the run --------------------------------------------------------------------------------

    def run(self) -> LoopResult:
        res = self.result
        res.trajectory = self.trajectory.path if self.trajectory else None
        cfg = self.config
        total = max(1, cfg.max_iterations)
        self._record(
            "start",
            mode=self.mode,
            kernel=self.spec.kernel,
            spec=str(self.spec.path) if self.spec.path else None,
            soc=self.soc,
            model=self.client.config.model,
            base_url=self.client.config.base_url,
            max_iterations=cfg.max_iterations,
            refine=cfg.refine,
            knowledge=cfg.use_knowledge,
        )
        started = time.monotonic()
        try:
            self._repair_phase(total)
            if res.first_correct is not None and cfg.refine > 0:
                self._refine_phase(cfg.refine)
        except Cancelled:
            res.status = "cancelled"
            res.message = f"cancelled after {len(res.attempts)} attempt(s)"
        except LlmError as exc:
            res.status = "error" if res.first_correct is None else "correct"
            res.message = str(exc)
        except LoopSpecError as exc:
            res.status = "error"
            res.message = f"the spec cannot be run: {exc}"
        except LoopSetupError as exc:
            res.status = "error"
            res.message = str(exc)
        else:
            if res.first_correct is not None:
                res.status = "correct"
        if self.advisor is not None:
            res.notes.extend(self.advisor.notes)
        res.notes.extend(self.learner.notes)
        if res.first_correct is not None:
            if res.status == "cancelled":
                res.status = "correct"
                res.message = "cancelled during refinement; keeping the best correct kernel"
            best = res.best or res.first_correct
            res.best = best
            if not res.message or res.status == "correct":
                est = f", estimate {best.verdict.microseconds:.2f} us" if best.verdict.microseconds else ""
                sp = res.speedup
                faster = f", {sp:.2f}x faster than the first correct draft" if sp and sp > 1.0001 else ""
                prefix = f"{res.message}; " if res.message and res.status == "correct" else ""
                res.message = (f"{prefix}correct kernel after {res.first_correct.index} attempt(s)"
                               f" (best: attempt {best.index}{est}{faster})")
            if self.trajectory is not None and best.code:
                with contextlib.suppress(OSError):
                    self.trajectory.save_code("best.cpp", best.code)
        else:
            res.best = res.best_failure()
            if res.status == "failed":
                why = res.best.verdict.summary if res.best else "no attempt produced code"
                res.message = f"no correct kernel in {len(res.attempts)} attempt(s); best attempt: {why}"
        self._record(
            "end",
            status=res.status,
            message=res.message,
            attempts=len(res.attempts),
            first_correct=res.first_correct.index if res.first_correct else None,
            best=res.best.index if res.best else None,
            speedup=res.speedup,
            seconds=round(time.monotonic() - started, 3),
            candidates=res.candidates,
            notes=res.notes,
        )
        return res

    def _repair_phase(self, total: int) -> None:
        res = self.result
        messages = list(self.initial)
        advice: list[Advice] = []
        previous: Attempt | None = None
        last_failed_with_code: Attempt | None = None
        for i in range(1, total + 1):
            phase = "draft" if i == 1 else "repair"
            attempt = self._attempt(i, total, phase, messages, advice)
            res.attempts.append(attempt)
            if previous is not None:
                self._learn_from(previous, attempt)
            if attempt.correct:
                res.first_correct = attempt
                res.best = attempt
                if last_failed_with_code is not None and self.config.learn:
                    self._emit(i, total, "learn", "synthesising a candidate knowledge entry from the fix")
                    self._synthesise(last_failed_with_code, attempt)
                return
            if attempt.code:
                last_failed_with_code = attempt
            if i == total:
                return
            if attempt.code is None:
                advice = []
                messages = [*self.initial, _assistant_echo(attempt), prompts.no_code_message(self.spec, attempt.verdict.summary)]
            else:
                advice = self.advisor.advise(attempt.verdict, attempt.code) if self.advisor is not None else []
                messages = [
                    *self.initial,
                    _assistant_echo(attempt),
                    prompts.feedback_message(self.spec, failure_of(attempt), advice),
                ]
            previous = attempt

    def _refine_phase(self, rounds: int) -> None:
        res = self.result
        best = res.best or res.first_correct
        assert best is not None
        offset = len(res.attempts)
        for r in range(1, rounds + 1):
            if best.verdict.estimate is None:
                return
            messages = [*self.initial, _assistant_echo(best), prompts.refine_message(self.spec, best.verdict.estimate, r)]
            attempt = self._attempt(offset + r, offset + rounds, "refine", messages, [])
            res.attempts.append(attempt)
            new, old = attempt.verdict.microseconds, best.verdict.microseconds
            kept = attempt.correct and new is not None and old is not None and new < old
            self._record("refine", index=attempt.index, kept=kept, microseconds=new, best_microseconds=old)
            if kept:
                best = attempt
                res.best = attempt
                self._emit(attempt.index, offset + rounds, "refine", f"kept attempt {attempt.index}: {new:.2f} us")


__all__ = [
    "MAX_FEEDBACK_CHARS",
    "STAGE_RANK",
    "Attempt",
    "CheckedLoop",
    "Evaluator",
    "KnowledgeAdvisor",
    "Learner",
    "LoopConfig",
    "LoopResult",
    "LoopSetupError",
    "LoopSpecError",
    "Progress",
    "ProgressCallback",
    "ToolchainEvaluator",
    "Verdict",
    "advice_from_entry",
    "failing_lines",
    "failure_of",
    "scrub_diagnostic",
]
