"""Line parser: the CANN CPU twin-debug (tikicpulib) lines and assertions."""

from __future__ import annotations

import re

from ascendc_lsp.toolchain.logs.build import _inner_location
from ascendc_lsp.toolchain.logs.events import LogEvent
from ascendc_lsp.toolchain.logs.patterns import (
    _ASSERT_RE,
    _ASSERT_SHORT_RE,
    _CHECK_VALUE_RE,
    _PATH,
    _SIGNAL_RE,
    _TWIN_RE,
    _int,
    _sev,
)
from ascendc_lsp.toolchain.logs.state import ParseState


# -- CPU twin -----------------------------------------------------------------------------------
def twin_line(st: ParseState, i: int, s: str, raw: str) -> bool:
    if not (s.startswith("[") or "Assertion" in s or "SIG" in s or "fault" in s or "Abort" in s):
        return False
    m = _TWIN_RE.match(s)
    if m:
        tags = re.findall(r"\[([^\]]*)\]", m.group("tags"))[:8]
        ev = LogEvent(
            kind="cpu-twin",
            severity=_sev(m.group("sev")),
            message=m.group("msg").strip(),
            stage="runtime",
            tool="cpu-twin",
        )
        recognised = False
        for t in tags:
            t = t.strip()
            bm = re.fullmatch(r"Block_(\d+)", t)
            cm = re.fullmatch(r"(AIV|AIC|AICORE|AIV_CORE|MIX)_(\d+)", t)
            pm = re.fullmatch(r"pid\s*(\d+)", t)
            lm = re.fullmatch(rf"({_PATH}):(\d+)", t)
            if bm:
                ev.block = int(bm.group(1))
                recognised = True
            elif cm:
                ev.extra["core"] = t
                ev.core_id = int(cm.group(2))
                recognised = True
            elif pm:
                ev.extra["pid"] = int(pm.group(1))
                recognised = True
            elif lm and "." in lm.group(1):
                ev.file, ev.line = lm.group(1), int(lm.group(2))
                recognised = True
            elif re.fullmatch(r"[A-Za-z_]\w*(?:::\w+)*", t) and recognised:
                ev.extra["func"] = t
        if not recognised:
            return False  # e.g. "[ERROR][Bisheng]"-like or plain bracket lines: not the twin
        if m.group("sev") == "SUCCESS":
            ev.extra["success"] = True
        cv = _CHECK_VALUE_RE.search(ev.message)
        if cv:
            ev.api = cv.group("api")
            ev.extra["checked"] = cv.group("what")
        st.emit(ev, i)
        return True
    m = _ASSERT_RE.match(s)
    if m:
        ev = LogEvent(
            kind="cpu-twin",
            severity="error",
            message=f"Assertion `{m.group('expr')}' failed. {m.group('rest')}".strip(),
            file=m.group("file"),
            line=_int(m.group("line")),
            stage="runtime",
            tool="cpu-twin",
        )
        ev.extra["func"] = m.group("func").strip()
        if m.group("prog"):
            ev.extra["program"] = m.group("prog")
        st.emit(ev, i)
        return True
    m = _ASSERT_SHORT_RE.search(s)
    if m:
        ev = LogEvent(kind="cpu-twin", severity="error", message=s, stage="runtime", tool="cpu-twin")
        _inner_location(st, ev, s)
        st.emit(ev, i)
        return True
    if _SIGNAL_RE.search(s) and len(s) < 200:
        ev = LogEvent(kind="cpu-twin", severity="error", message=s, stage="runtime", tool="cpu-twin")
        ev.extra["signal"] = _SIGNAL_RE.search(s).group(1)  # type: ignore[union-attr]
        st.emit(ev, i)
        return True
    return False
