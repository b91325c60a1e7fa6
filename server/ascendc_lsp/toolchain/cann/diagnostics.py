"""CANN compiler and runtime logs -> `base.Diagnostic`s on the user's file (locations mapped back, UTF-16 columns)."""

from __future__ import annotations

import os
from typing import Any

from ascendc_lsp import safeio
from ascendc_lsp.diagnostics import Diagnostic, Severity, span_at
from ascendc_lsp.syntax.positions import utf16_column
from ascendc_lsp.toolchain.logs import LogEvent, map_locations, parse_log

SOURCE_NAME = "ascendc-cann"


def _utf16_column(path: str | None, line1: int | None, col1: int | None) -> int:
    """clang's 1-based byte column -> 0-based UTF-16 column, through the line of the file when it can be read
    (safeio.read_line: a regular file, read only up to that line), else the byte column as it is."""
    if col1 is None or col1 <= 0:
        return 0
    text = safeio.read_line(path, line1 - 1) if path and line1 is not None and line1 > 0 else None
    return col1 - 1 if text is None else utf16_column(text, col1 - 1)


_LSP_SEVERITY: dict[str, Severity] = {
    "error": "error",
    "warning": "warning",
    "note": "information",
    "info": "information",
}


def event_to_diagnostic(ev: LogEvent, source: str | None = None) -> Diagnostic:
    """A `base.Diagnostic` for one log event (0-based LSP range). The category stays None unless the log
    states it (emulator reports); knowledge retrieval assigns it later from the message and codes."""
    on_user_file = (
        source is not None and ev.file is not None and os.path.abspath(ev.file) == os.path.abspath(source)
    )
    line0 = (ev.line - 1) if (ev.line is not None and ev.line > 0) else 0
    col0 = _utf16_column(ev.file, ev.line, ev.column)
    data: dict[str, Any] = {"kind": ev.kind, "codes": list(ev.codes), "stage": ev.stage}
    for key, val in (("errorStr", ev.error_str), ("retCode", ev.ret_code), ("core_id", ev.core_id),
                     ("block", ev.block), ("pipe", ev.pipe), ("api", ev.api), ("tool", ev.tool),
                     ("check", ev.check)):  # fmt: skip
        if val is not None:
            data[key] = val
    if ev.notes:
        data["notes"] = [n.to_json() for n in ev.notes[:10]]
    if ev.extra:
        data["extra"] = {k: v for k, v in ev.extra.items() if k != "mismatches"}
    if not on_user_file and ev.file and ev.line:
        data["location"] = f"{ev.file}:{ev.line}"
    message = ev.message
    if ev.error_str and ev.error_str not in message:
        message = f"{message} (errorStr: {ev.error_str})"
    if ev.codes and not any(c in message for c in ev.codes):
        message = f"{message} [{', '.join(ev.codes[:3])}]"
    return Diagnostic(
        message=message,
        severity=_LSP_SEVERITY.get(ev.severity, "error"),
        code=ev.code or ev.check or "",
        category=ev.category,
        span=span_at(line0 if (on_user_file or source is None or ev.file is None) else 0, col0 if on_user_file else 0),
        file=ev.file if on_user_file else source,
        source=SOURCE_NAME,
        data=data,
    )


def log_to_diagnostics(
    log: str | bytes, source: str | os.PathLike[str] | None, *, include_notes: bool = False
) -> list[Diagnostic]:
    """Parse a CANN log and turn its events into diagnostics on `source` (locations mapped back)."""
    events = parse_log(log)
    if source is not None:
        events = map_locations(events, os.fspath(source))
    src = os.fspath(source) if source is not None else None
    return [
        event_to_diagnostic(ev, src) for ev in events if include_notes or ev.severity in ("error", "warning")
    ]
