"""Findings from a compile log, each explained by the best knowledge entry: the entry's title in the message, its
fix summary and hardware rationale as related information, and its recipe as a quick fix when it applies.

Used by the language server's on-save check (lsp/features/knowledge.py) on the output of
toolchain/syntax_check.py.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

from ascendc_lsp.diagnostics import Diagnostic, Fix, Related, TextEdit
from ascendc_lsp.syntax.positions import Position, Span, position_of, utf16_column, utf16_len
from ascendc_lsp.toolchain.syntax_check import Cancelled, CompileOutput

MAX_TOOLCHAIN_FINDINGS = 30
CODE_WINDOW = 4  # lines of code on each side of an error given to retrieval

def recipe_fix(entry: Any, text: str, line0: int) -> Fix | None:
    """The entry's recipe as an edit of this document (None when it does not apply)."""
    recipe = entry.fix.recipe
    if recipe is None:
        return None
    try:
        pattern = re.compile(recipe.pattern, re.MULTILINE)
    except re.error:
        return None
    title = f"Apply fix: {entry.fix.summary.split('. ')[0][:90]} ({entry.id})"
    if recipe.kind == "replace-regex":
        lines = text.splitlines(keepends=True)
        start = sum(len(x) for x in lines[:line0])
        m = pattern.search(text, start, start + len(lines[line0])) if line0 < len(lines) else None
        m = m or pattern.search(text)
        if m is None:
            return None
        try:
            new = m.expand(recipe.replacement)
        except (re.error, IndexError):
            return None
        span = Span(position_of(text, m.start()), position_of(text, m.end()))
        return Fix(title, (TextEdit(span, new),))
    if recipe.replacement.strip() and recipe.replacement.strip() in text:
        return None  # already there
    m = pattern.search(text)
    if m is None:
        return None
    if recipe.kind == "insert-line-before":
        pos = position_of(text, text.rfind("\n", 0, m.start()) + 1)
        return Fix(title, (TextEdit(Span(pos, pos), recipe.replacement + "\n"),))
    end = text.find("\n", m.end())
    if end < 0:
        pos = position_of(text, len(text))
        return Fix(title, (TextEdit(Span(pos, pos), "\n" + recipe.replacement),))
    pos = position_of(text, end + 1)
    return Fix(title, (TextEdit(Span(pos, pos), recipe.replacement + "\n"),))


def explain_events(
    log_text: str,
    compiled_path: str,
    doc_path: str,
    text: str,
    retriever: Any,
    cancel: threading.Event | None = None,
) -> list[Diagnostic]:
    """Findings for the errors (and warnings) that the log places in this document."""
    from ascendc_lsp.toolchain.logs import parse_log

    lines = text.splitlines()
    names = {Path(compiled_path).name, Path(doc_path).name} - {""}
    findings: list[Diagnostic] = []
    seen: set[tuple[int, str]] = set()
    fallback_line = 0
    for ev in parse_log(log_text):
        if cancel is not None and cancel.is_set():
            raise Cancelled()
        if ev.severity not in ("error", "warning"):
            continue
        here = ev.file is not None and Path(ev.file).name in names and ev.line is not None
        if ev.file is not None and not here and ev.kind == "compiler-diagnostic":
            continue  # an error inside a header: its "required from" note usually names our line
        line0 = min(max(0, (ev.line or 1) - 1), max(0, len(lines) - 1)) if here else fallback_line
        key = (line0, ev.message)
        if key in seen:
            continue
        seen.add(key)
        line_text = lines[line0] if line0 < len(lines) else ""
        col = utf16_column(line_text, (ev.column or 1) - 1) if here else 0
        code = "\n".join(lines[max(0, line0 - CODE_WINDOW) : line0 + CODE_WINDOW + 1])
        query = "\n".join([ev.message, *(n.message for n in ev.notes[:4]), *(ev.codes or [])])
        matches = retriever.search(query, code, top=1) if retriever is not None else []
        span = Span(Position(line0, col), Position(line0, max(col, utf16_len(line_text))))
        message = ev.message
        knowledge: list[str] = []
        category = None
        related: list[Related] = []
        fixes: list[Fix] = []
        if matches:
            entry = matches[0].entry
            message = f"{ev.message} — {entry.title}"
            knowledge = [entry.id]
            category = entry.category
            related = [
                Related(span, f"Fix ({entry.id}): {entry.fix.summary}"),
                Related(span, f"Why: {' '.join(entry.rationale.text.split())}"),
            ]
            fix = recipe_fix(entry, text, line0)
            if fix is not None:
                fixes.append(fix)
        findings.append(
            Diagnostic(
                span=span, severity="error" if ev.severity == "error" else "warning", code="toolchain",
                message=message, category=category, knowledge=knowledge, fixes=fixes, related=related,
            )
        )  # fmt: skip
        if len(findings) >= MAX_TOOLCHAIN_FINDINGS:
            break
    return findings


def compile_findings(out: CompileOutput, text: str, path: str, retriever: Any, cancel: threading.Event) -> list[Diagnostic]:
    """The findings of one compile of `text` (an environment problem is one warning at the top of the file)."""
    if out.error:
        return [Diagnostic(severity="warning", code="toolchain", message=out.error, category="toolchain-env")]
    if cancel.is_set():
        raise Cancelled()
    return explain_events(out.log, out.compiled_path, path, text, retriever, cancel)
