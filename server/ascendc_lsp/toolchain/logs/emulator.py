"""Line parser: our emulator's `report.jsonl` lines (emulator/PROTOCOL.md)."""

from __future__ import annotations

import json

from ascendc_lsp.toolchain.logs.events import LogEvent
from ascendc_lsp.toolchain.logs.patterns import _int
from ascendc_lsp.toolchain.logs.state import ParseState


# -- emulator -----------------------------------------------------------------------------------
def emulator_line(st: ParseState, i: int, s: str, raw: str) -> bool:
    if not (s.startswith("{") and s.endswith("}")):
        return False
    try:
        obj = json.loads(s)
    except (ValueError, RecursionError):
        return False
    if not isinstance(obj, dict) or "severity" not in obj or not ({"check", "category", "code"} & obj.keys()):
        return False
    sev = str(obj.get("severity") or "error").lower()
    if sev not in ("error", "warning", "note", "info"):
        sev = "error" if sev.startswith("err") else "warning"
    ev = LogEvent(
        kind="emulator",
        severity=sev,
        message=str(obj.get("message") or obj.get("check") or ""),
        file=str(obj["file"]) if obj.get("file") else None,
        line=_int(str(obj.get("line"))) if obj.get("line") not in (None, "") else None,
        column=_int(str(obj.get("column"))) if obj.get("column") not in (None, "") else None,
        error_str=str(obj["errorStr"]) if obj.get("errorStr") else None,
        block=obj["block"] if isinstance(obj.get("block"), int) else None,
        pipe=str(obj["pipe"]) if obj.get("pipe") else None,
        api=str(obj["api"]) if obj.get("api") else None,
        category=str(obj["category"]) if obj.get("category") else None,
        check=str(obj["check"]) if obj.get("check") else None,
        stage="runtime",
        tool="emulator",
    )
    if obj.get("code"):
        ev.add_code(str(obj["code"]))
    known = {
        "severity",
        "message",
        "file",
        "line",
        "column",
        "errorStr",
        "block",
        "pipe",
        "api",
        "category",
        "check",
        "code",
    }
    ev.extra = {k: v for k, v in obj.items() if k not in known}
    st.emit(ev, i)
    return True
