"""report.jsonl (PROTOCOL.md) -> diagnostics at the kernel's lines."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ascendc_lsp.diagnostics import Diagnostic, span_at
from ascendc_lsp.syntax.positions import utf16_len
from ascendc_lsp.toolchain.base import EMULATOR_SOURCE

MAX_REPORTS = 200  # a kernel that reports every element would otherwise flood the editor


def read_jsonl(path: Path, limit: int = 100_000) -> list[dict[str, Any]]:
    """Objects from a JSON-lines file; a truncated last line (crash mid-write) is skipped, never fatal."""
    out: list[dict[str, Any]] = []
    try:
        with path.open("r", encoding="utf-8", errors="replace") as fh:
            for raw in fh:
                raw = raw.strip()
                if not raw:
                    continue
                try:
                    obj = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(obj, dict):
                    out.append(obj)
                if len(out) >= limit:
                    break
    except OSError:
        pass
    return out


def to_diagnostics(
    reports: list[dict[str, Any]],
    kernel_source: Path,
    line_text: Callable[[str, int], str],
    fallback_line: int = 0,
) -> list[Diagnostic]:
    """One diagnostic per distinct (check, file, line, message); repeats across blocks are folded."""
    src_real = os.path.realpath(kernel_source)
    seen: dict[tuple[str, str, int, str], Diagnostic] = {}
    out: list[Diagnostic] = []
    for r in reports:
        sev = str(r.get("severity", "error")).lower()
        severity = "error" if sev == "error" else "warning" if sev == "warning" else "information"
        file = r.get("file")
        line = r.get("line")
        path = os.path.realpath(file) if isinstance(file, str) and file else src_real
        line0 = int(line) - 1 if isinstance(line, int) and line > 0 else fallback_line
        if not (isinstance(file, str) and file and os.path.isfile(path)):
            path, line0 = src_real, fallback_line if not isinstance(line, int) or line <= 0 else line0
        message = str(r.get("message") or r.get("check") or "emulator report")
        code = str(r.get("code") or "")
        check = str(r.get("check") or "")
        key = (check, path, line0, message)
        block = r.get("block")
        if key in seen:
            blocks = seen[key].data.setdefault("blocks", [])
            if isinstance(block, int) and block not in blocks and len(blocks) < 64:
                blocks.append(block)
            continue
        text = line_text(path, line0)
        indent = len(text) - len(text.lstrip())
        data: dict[str, Any] = {k: r[k] for k in ("check", "pipe", "api", "errorStr") if r.get(k)}
        if isinstance(block, int):
            data["blocks"] = [block]
        full = message
        err_str = r.get("errorStr")
        if code or err_str:
            full += "\nOn NPU this typically surfaces as:" + (f" {code}" if code else "")
            if err_str:
                full += f" errorStr: {err_str}"
        d = Diagnostic(
            message=full,
            severity=severity,  # type: ignore[arg-type]
            code=code or check or "emulator",
            category=str(r["category"]) if r.get("category") else None,
            span=span_at(line0, utf16_len(text[:indent]), end_line=line0, end_character=utf16_len(text.rstrip())),
            file=path,
            data=data,
            source=EMULATOR_SOURCE,
        )
        seen[key] = d
        out.append(d)
        if len(out) >= MAX_REPORTS:
            break
    return out
