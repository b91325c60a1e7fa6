"""Line parser: linkers, make/ninja, `bisheng: error:`, TBE build lines, location-less fatal errors."""

from __future__ import annotations

import re

from ascendc_lsp.toolchain.logs.compiler import _diag_details
from ascendc_lsp.toolchain.logs.events import LogEvent
from ascendc_lsp.toolchain.logs.patterns import (
    _CANNOT_FIND_RE,
    _LINK_TOOLS,
    _LOC_ANY_RE,
    _MAKE_RE,
    _NINJA_RE,
    _TBE_SHORT_RE,
    _TIMEOUT_RE,
    _TOOL_DIAG_RE,
    _UNDEF_SYMBOL_RE,
    _acl_codes,
    _clean_trailers,
    _ecodes,
    _int,
    _sev,
)
from ascendc_lsp.toolchain.logs.state import ParseState


def build_line(st: ParseState, i: int, s: str, raw: str) -> bool:
    m = _MAKE_RE.match(s)
    if m:
        ev = LogEvent(
            kind="build", severity="error", message=m.group("msg"), stage="compile", tool=m.group("tool")
        )
        ev.extra["exit_code"] = _int(m.group("rc"))
        st.emit(ev, i)
        return True
    m = _NINJA_RE.match(s)
    if m:
        msg = m.group("msg") or ("FAILED: " + (m.group("target") or ""))
        st.emit(LogEvent(kind="build", severity="error", message=msg, stage="compile", tool="ninja"), i)
        return True
    m = _TBE_SHORT_RE.match(s)
    if m:
        msg, origin = _clean_trailers(m.group("msg"))
        ev = LogEvent(
            kind="build",
            severity=_sev(m.group("sev")),
            message=msg,
            stage="compile",
            tool=m.group("mod").lower(),
        )
        if origin:
            ev.extra["origin"] = origin
        for c in _ecodes(s) + _acl_codes(s):
            ev.add_code(c)
        _inner_location(st, ev, msg)
        st.emit(ev, i)
        return True
    m = _TOOL_DIAG_RE.match(s)
    if m:
        tool = (m.group("tool") or "").strip()
        if tool and not re.match(r"^[\w.+/-]+$", tool):
            return False
        msg = m.group("msg").strip()
        link = (
            tool in _LINK_TOOLS
            or "linker command failed" in msg
            or "undefined symbol" in msg
            or "ld returned" in msg
        )
        ev = LogEvent(
            kind="build" if (tool or link) else "compiler-diagnostic",
            severity=_sev(m.group("sev")),
            message=msg,
            stage="link" if link else "compile",
            tool=tool or "clang",
        )
        if m.group("sev") == "fatal error":
            ev.extra["fatal"] = True
        mu = _UNDEF_SYMBOL_RE.search(msg)
        if mu:
            ev.api = mu.group("sym").strip()
            ev.extra["symbol"] = ev.api
        mc = _CANNOT_FIND_RE.search(msg)
        if mc:
            ev.extra["library"] = mc.group("lib")
        if ev.kind == "compiler-diagnostic":
            _diag_details(st, ev)
        ev.notes = st.pending_notes
        st.pending_notes = []
        for c in _acl_codes(msg):
            ev.add_code(c)
        st.cur_diag = st.emit(ev, i)
        return True
    m = _CANNOT_FIND_RE.search(s)
    if m:
        ev = LogEvent(
            kind="build",
            severity="error",
            message=f"cannot find {m.group('lib')}",
            stage="link",
            tool="ld",
        )
        ev.extra["library"] = m.group("lib")
        st.cur_diag = st.emit(ev, i)
        return True
    m = _UNDEF_SYMBOL_RE.search(s)
    if m and ("ld" in s or "undefined symbol:" in s):
        ev = LogEvent(
            kind="build", severity="error", message=s, stage="link", tool="ld", api=m.group("sym").strip()
        )
        ev.extra["symbol"] = ev.api
        st.cur_diag = st.emit(ev, i)
        return True
    m = _TIMEOUT_RE.search(s)
    if m:
        ev = LogEvent(kind="runtime-error", severity="error", message=s, stage="perf", tool="harness")
        secs = m.group("secs") or m.group("secs2")
        ev.extra["timeout_seconds"] = float(secs) if secs else None
        st.emit(ev, i)
        return True
    return False


def _inner_location(st: ParseState, ev: LogEvent, msg: str) -> None:
    loc = _LOC_ANY_RE.search(msg)
    if loc and ev.file is None:
        ev.file, ev.line, ev.column = loc.group("file"), _int(loc.group("line")), _int(loc.group("col"))
