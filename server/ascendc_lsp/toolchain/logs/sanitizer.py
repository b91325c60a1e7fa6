"""Line parser: msSanitizer `======` blocks."""

from __future__ import annotations

import re

from ascendc_lsp.toolchain.logs.events import LogEvent, LogNote
from ascendc_lsp.toolchain.logs.patterns import (
    _LOC_ANY_RE,
    _SAN_ADDR_RE,
    _SAN_BLOCK_RE,
    _SAN_HEAD_RE,
    _SAN_LINE_RE,
    _SAN_PIPE_RE,
    _SAN_SIZE_RE,
    _SAN_SPACE_RE,
    _int,
    _sev,
)
from ascendc_lsp.toolchain.logs.state import ParseState


# -- msSanitizer --------------------------------------------------------------------------------
def sanitizer_line(st: ParseState, i: int, body: str) -> None:
    if not body:
        return
    m = _SAN_HEAD_RE.match(body)
    if m and not body.startswith(("ERROR SUMMARY", "WARNING SUMMARY")):
        ev = LogEvent(
            kind="sanitizer",
            severity=_sev(m.group("sev")),
            message=m.group("msg").strip(),
            stage="runtime",
            tool="mssanitizer",
        )
        _sanitizer_fields(st, ev, body)
        st.cur_san = st.emit(ev, i)
        return
    if body.startswith(("ERROR SUMMARY", "WARNING SUMMARY")):
        ev2 = st.cur_san or (st.events[-1] if st.events and st.events[-1].kind == "sanitizer" else None)
        if ev2 is not None:
            ev2.extra["summary"] = body
        return
    if st.cur_san is None:
        return
    ev = st.cur_san
    st.extend(ev, i)
    if (
        len(ev.message) < 300
        and not body.startswith("#")
        and not _LOC_ANY_RE.search(body)
        and ev.message.endswith(":")
    ):
        ev.message = ev.message + " " + body
    _sanitizer_fields(st, ev, body)


def _sanitizer_fields(st: ParseState, ev: LogEvent, body: str) -> None:
    m = _SAN_SPACE_RE.search(body)
    if m and "space" not in ev.extra:
        ev.extra["space"] = m.group("space")
    m = _SAN_ADDR_RE.search(body)
    if m and "address" not in ev.extra:
        ev.extra["address"] = m.group("addr")
    m = _SAN_SIZE_RE.search(body)
    if m and "size" not in ev.extra:
        ev.extra["size"] = int(m.group("size"))
    m = _SAN_BLOCK_RE.search(body)
    if m and ev.block is None:
        b = m.group("b1") or m.group("b2") or m.group("b3")
        ev.block = _int(b)
        core = m.group("c1") or m.group("c2")
        if core:
            ev.extra["core_type"] = core.lower()
    pm = _SAN_PIPE_RE.search(body)
    loc = _LOC_ANY_RE.search(body)
    if pm:
        if ev.pipe is None:
            ev.pipe = pm.group("pipe")
        note = LogNote(body)
        if loc:
            note.file, note.line, note.column = (
                loc.group("file"),
                _int(loc.group("line")),
                _int(loc.group("col")),
            )
        ev.notes.append(note)
        ev.extra.setdefault("pipes", []).append(f"{pm.group('pipe')} {pm.group('rw')}")
    if loc and ev.file is None:
        ev.file, ev.line, ev.column = loc.group("file"), _int(loc.group("line")), _int(loc.group("col"))
    elif loc and not pm and ev.file is not None and body.lstrip().startswith("#"):
        ev.notes.append(LogNote(body, loc.group("file"), _int(loc.group("line")), _int(loc.group("col"))))
    if "hazard" in body.lower():
        hm = re.search(r"\b(RAW|WAR|WAW)\b", body)
        if hm:
            ev.extra["hazard"] = hm.group(1)


def sanitizer_block_line(st: ParseState, i: int, s: str, raw: str) -> bool:
    """msSanitizer blocks: every line starts with `======`; any other line closes the block."""
    m = _SAN_LINE_RE.match(s)
    if m:
        sanitizer_line(st, i, m.group("body").strip())
        return True
    st.cur_san = None
    return False
