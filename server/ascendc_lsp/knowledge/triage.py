"""Triage: a log together with the kernel it came from.

An NPU log often names only a family ("there is an aivec error exception ... error code = 0x800000"); the kernel
shows which member of the family it is. `triage()` collects what the kernel itself shows:

* the static findings of checks/ on the file (a UB budget over the SoC's UB, a copy past the last block...);
* when a kernel spec sits next to the source (a `*.yaml` whose `source:` names the file), a run on the emulator,
  whose diagnostics name the category, the call and the line that reproduce the failure;

and keeps the evidence that can explain the log: its category is among the log's likely families, or is a
known cause of them (`explains:` in knowledge/lexicon.yaml: an aivec exception is what a UB overflow or an
out-of-bounds copy looks like on the NPU). The best such evidence becomes the diagnosis ("UB overflow: UB use
393,216 B exceeds Ascend910B's 196,608 B: inQueueX 2 x 65,536 B ... at line 20"), and the entries of its
category move to the front of the answer.
"""

from __future__ import annotations

import contextlib
import logging
import re
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from ascendc_lsp.hardware.limits import DEFAULT_SOC

log = logging.getLogger(__name__)

RUN_TIMEOUT = 60.0
MAX_SPEC_BYTES = 256 * 1024
_SEVERITY_RANK = {"error": 2, "warning": 1}
_ACRONYMS = {"ub": "UB", "gm": "GM", "api": "API", "aicore": "AI Core", "libm": "libm"}


def category_label(category: str | None) -> str:
    """`ub-overflow` -> `UB overflow`, `gm-out-of-bounds` -> `GM out of bounds`."""
    if not category:
        return "finding"
    words = [_ACRONYMS.get(w, w) for w in category.split("-")]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


@dataclass
class Evidence:
    """One thing the kernel shows: a static finding or an emulator diagnostic."""

    kind: str  # static | emulator
    category: str | None
    message: str
    code: str = ""
    severity: str = "error"
    line: int | None = None  # 1-based
    file: str = ""
    knowledge: list[str] = field(default_factory=list)
    score: float = 0.0

    def headline(self) -> str:
        where = f" at line {self.line}" if self.line else ""
        first = self.message.strip().splitlines()[0] if self.message.strip() else ""
        return f"{category_label(self.category)}: {first}{where}"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "category": self.category, "message": self.message, "code": self.code,
            "severity": self.severity, "line": self.line, "file": self.file, "knowledge": list(self.knowledge),
            "headline": self.headline(),
        }  # fmt: skip


@dataclass
class TriageReport:
    source: str
    evidence: list[Evidence] = field(default_factory=list)
    diagnosis: Evidence | None = None
    spec: str | None = None
    run: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "diagnosis": None if self.diagnosis is None else self.diagnosis.to_json(),
            "evidence": [e.to_json() for e in self.evidence],
            "spec": self.spec,
            "run": self.run,
            "notes": list(self.notes),
        }


# ----------------------------------------------------------------------------------------------- causes


@cache
def explains_table() -> dict[str, frozenset[str]]:
    """{log family: categories of kernel evidence that can produce it} from knowledge/lexicon.yaml `explains:`."""
    from ascendc_lsp.knowledge.compiled import cached, files_key
    from ascendc_lsp.knowledge.embedding import lexicon_path

    path = lexicon_path()

    def read() -> dict[str, list[str]]:
        import yaml

        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except (OSError, yaml.YAMLError):
            return {}
        table = data.get("explains", {}) if isinstance(data, dict) else {}
        return (
            {str(k): [str(c) for c in v or []] for k, v in table.items()} if isinstance(table, dict) else {}
        )

    raw = cached("explains", files_key([path], ["explains"]), read)
    return {k: frozenset([k, *v]) for k, v in raw.items()}


def can_explain(evidence_category: str | None, families: dict[str, float]) -> float:
    """How well a kernel fact of `evidence_category` explains a log with these family shares (0 = not at all)."""
    if not evidence_category:
        return 0.0
    table = explains_table()
    best = 0.0
    for family, share in families.items():
        if family == evidence_category:
            best = max(best, 0.5 + share)
        elif evidence_category in table.get(family, frozenset()):
            best = max(best, 0.3 + share)
    return best


# ------------------------------------------------------------------------------------------- evidence


def static_evidence(source_text: str, source_path: str, soc: str) -> list[Evidence]:
    from ascendc_lsp.checks.engine import CheckOptions, check_document
    from ascendc_lsp.syntax.document import SourceDocument

    doc = SourceDocument(source_text, path=source_path)
    out: list[Evidence] = []
    for f in check_document(doc, CheckOptions(soc_name=soc)):
        if f.severity not in _SEVERITY_RANK or f.code == "syntax":
            continue
        out.append(Evidence("static", f.category, f.message, f.code, f.severity, f.span.start.line + 1,
                            Path(source_path).name, list(f.knowledge)))  # fmt: skip
    return out


_SOURCE_KEY_RE = re.compile(r"^source:\s*['\"]?([^'\"#\n]+?)['\"]?\s*(?:#.*)?$", re.M)


def find_spec(source: Path) -> Path | None:
    """A kernel spec next to the source (or one folder up, for op_kernel/ layouts) whose `source:` is it."""
    folders = (
        [source.parent, source.parent.parent]
        if source.parent.name in ("op_kernel", "kernel")
        else [source.parent]
    )
    for folder in folders:
        candidates = sorted([*folder.glob("*.yaml"), *folder.glob("*.yml")])
        for cand in candidates:
            try:
                if cand.stat().st_size > MAX_SPEC_BYTES:
                    continue
                text = cand.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            if not re.search(r"^kernel:", text, re.M):
                continue
            m = _SOURCE_KEY_RE.search(text)
            if m and (folder / m.group(1).strip()).resolve() == source.resolve():
                return cand
    return None


def emulator_evidence(spec_path: Path, source: Path, timeout: float) -> tuple[list[Evidence], dict[str, Any]]:
    """Run the spec with this source on the emulator; its diagnostics as evidence, plus a run summary."""
    from ascendc_lsp.toolchain.base import RunOptions
    from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain
    from ascendc_lsp.toolchain.spec import load_spec

    spec = load_spec(spec_path)
    result = EmulatorToolchain().run(spec, RunOptions(source=source, timeout=timeout))
    out: list[Evidence] = []
    for d in result.diagnostics:
        if d.severity not in _SEVERITY_RANK:
            continue
        out.append(Evidence("emulator", d.category, d.message, d.code, d.severity, d.span.start.line + 1 if d.span.start.line or d.file else None,
                            Path(d.file).name if d.file else source.name, list(d.knowledge)))  # fmt: skip
    summary = {"spec": str(spec_path), "correct": result.correct, "category": getattr(result, "category", None),
               "stage": result.stage_reached, "mismatches": result.mismatches}  # fmt: skip
    return out, summary


# --------------------------------------------------------------------------------------------- triage


def triage(
    log_text: str,
    source_path: str,
    source_text: str,
    families: dict[str, float],
    *,
    soc: str = DEFAULT_SOC,
    run: bool = True,
    timeout: float = RUN_TIMEOUT,
) -> TriageReport:
    """What the kernel shows, and which of it explains the log (families: the log's category shares)."""
    report = TriageReport(source=source_path)
    try:
        report.evidence += static_evidence(source_text, source_path, soc)
    except Exception as exc:  # a checker bug must not hide the log's own answer
        log.warning("static checks failed on %s", source_path, exc_info=True)
        report.notes.append(f"static checks failed: {exc}")
    src = Path(source_path)
    spec = find_spec(src) if source_path and src.is_file() else None
    if spec is not None:
        report.spec = str(spec)
        if run:
            try:
                found, report.run = emulator_evidence(spec, src, timeout)
                report.evidence += found
                if report.run.get("correct"):
                    report.notes.append(
                        f"the emulator run of {spec.name} passes: it does not reproduce the failure"
                    )
            except Exception as exc:
                report.notes.append(f"emulator run of {spec.name} failed to start: {exc}")
    elif source_path:
        report.notes.append(
            "no kernel spec next to the source: static checks only (add a spec to reproduce on the emulator)"
        )
    for ev in report.evidence:
        ev.score = (
            can_explain(ev.category, families)
            + 0.2 * _SEVERITY_RANK.get(ev.severity, 0)
            + (0.3 if ev.kind == "emulator" else 0.0)
            + (0.05 if ev.line else 0.0)
        )
    report.evidence.sort(key=lambda e: -e.score)
    best = next((e for e in report.evidence if can_explain(e.category, families) > 0), None)
    if best is not None:
        report.diagnosis = best
    elif report.evidence:
        shown = ", ".join(sorted({category_label(e.category) for e in report.evidence if e.category}))
        report.notes.append(f"the kernel shows {shown or 'findings'}, none of which explains this log")
    return report


def apply_triage(answer: Any, report: TriageReport, retriever: Any) -> Any:
    """The answer with the diagnosis's entries first (the entry the finding names, else the best of its
    category) and its confidence raised; unchanged without a diagnosis."""
    from ascendc_lsp.knowledge.retrieval import Match

    diag = report.diagnosis
    if diag is None or not diag.category:
        return answer
    matches = list(answer.matches)
    named = [retriever.entries[i] for i in diag.knowledge if i in retriever.entries]
    top_score = (matches[0].score if matches else 0.0) + 0.1
    front: list[Match] = []
    for entry in named:
        found = next((m for m in matches if m.entry.id == entry.id), None)
        front.append(replace(found, score=top_score) if found else Match(entry, top_score, 0.0, 0.0))
    if not front:
        with contextlib.suppress(Exception):
            extra = retriever.answer(f"{diag.message}\n{diag.category}", top=10).matches
            same = [m for m in [*matches, *extra] if m.entry.category == diag.category]
            if same:
                front.append(replace(same[0], score=top_score))
    ids = {m.entry.id for m in front}
    rest = [m for m in matches if m.entry.id not in ids]
    return replace(answer, matches=(front + rest)[: max(len(matches), 1)], confidence="high")
