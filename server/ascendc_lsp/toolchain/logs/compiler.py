"""Line parser: compiler diagnostics (clang, bisheng, ccec, g++) with their notes and include context."""

from __future__ import annotations

import re
from dataclasses import replace

from ascendc_lsp.toolchain.logs.events import LogEvent, LogNote
from ascendc_lsp.toolchain.logs.patterns import (
    _DIAG_PAREN_RE,
    _DIAG_RE,
    _ERRORS_GENERATED_RE,
    _GCC_CONTEXT_RE,
    _GCC_REQUIRED_RE,
    _GNU_UNDEF_RE,
    _INCLUDED_RE,
    _LOC_ANY_RE,
    _REFERENCED_RE,
    _int,
    _sev,
)
from ascendc_lsp.toolchain.logs.state import ParseState


# -- compiler / linker --------------------------------------------------------------------------
def compiler_line(st: ParseState, i: int, s: str, raw: str) -> bool:
    m = _INCLUDED_RE.match(s)
    if m and (s.startswith("In file included") or (raw.startswith(" ") and st.pending_notes)):
        st.pending_notes.append(
            LogNote("In file included from", m.group("file"), _int(m.group("line")), _int(m.group("col")))
        )
        return True
    m = _GCC_CONTEXT_RE.match(s)
    if m:
        st.pending_notes.append(LogNote(m.group("msg").rstrip(":"), m.group("file")))
        return True
    m = _GCC_REQUIRED_RE.match(s)
    if m:
        note = LogNote(m.group("msg"), m.group("file"), _int(m.group("line")), _int(m.group("col")))
        # g++ prints an error's instantiation context before it (`X: In instantiation of ...:` then `required
        # from` lines): once such a chain has started, the lines belong to the next error, not the last one.
        if not st.pending_notes and st.cur_diag is not None and st.cur_diag.kind == "compiler-diagnostic":
            st.cur_diag.notes.append(note)
            st.extend(st.cur_diag, i)
        else:
            st.pending_notes.append(note)
        return True
    m = _GNU_UNDEF_RE.match(s)
    if m:
        ev = LogEvent(
            kind="build",
            severity="error",
            message=f"undefined reference to '{m.group('sym')}'",
            file=m.group("file") if m.group("line") else None,
            line=_int(m.group("line")),
            stage="link",
            tool="ld",
            api=m.group("sym"),
        )
        ev.extra["symbol"] = m.group("sym")
        if not m.group("line"):
            ev.extra["object"] = m.group("file")
        st.cur_diag = st.emit(ev, i)
        return True
    m = _DIAG_RE.match(s) or _DIAG_PAREN_RE.match(s)
    if m and not s.startswith("["):
        sev_word = m.group("sev")
        msg = m.group("msg").strip()
        file = m.group("file").strip()
        line = _int(m.group("line"))
        col = _int(m.group("col"))
        if sev_word in ("note", "remark") and st.cur_diag is not None:
            st.cur_diag.notes.append(LogNote(msg, file, line, col))
            st.extend(st.cur_diag, i)
            return True
        ev = LogEvent(
            kind="compiler-diagnostic",
            severity=_sev(sev_word),
            message=msg,
            file=file,
            line=line,
            column=col,
            stage="compile",
            tool="clang",
        )
        if sev_word == "fatal error":
            ev.extra["fatal"] = True
        if file.endswith((".cmake", "CMakeLists.txt")):
            ev.kind, ev.tool = "cmake", "cmake"
        ev.notes = [replace(n, context=True) for n in st.pending_notes]
        st.pending_notes = []
        _diag_details(st, ev)
        st.cur_diag = st.emit(ev, i)
        return True
    if _ERRORS_GENERATED_RE.match(s):
        if st.cur_diag is not None:
            st.extend(st.cur_diag, i)
        st.pending_notes = []
        return True
    m = _REFERENCED_RE.match(s)
    if m and st.cur_diag is not None and st.cur_diag.kind == "build":
        what = m.group("what").strip()
        loc = _LOC_ANY_RE.search(what)
        note = LogNote("referenced by " + what)
        if loc:
            note.file, note.line, note.column = (
                loc.group("file"),
                _int(loc.group("line")),
                _int(loc.group("col")),
            )
            if st.cur_diag.file is None:
                st.cur_diag.file, st.cur_diag.line = note.file, note.line
        st.cur_diag.notes.append(note)
        st.extend(st.cur_diag, i)
        return True
    return False


def _diag_details(st: ParseState, ev: LogEvent) -> None:
    msg = ev.message
    for rx in (
        r"no matching (?:member )?function for call to '(?P<api>[\w:~]+)'",
        r"use of undeclared identifier '(?P<api>[\w:]+)'",
        r"no member named '(?P<api>\w+)'",
        r"'(?P<api>[\w:]+)' (?:has not been declared|was not declared in this scope|is not a member of)",
        r"unknown type name '(?P<api>[\w:]+)'",
        r"call to '(?P<api>[\w:]+)'",
        r"member function '(?P<api>\w+)'",
        r"'(?P<api>[\w./]+\.h(?:pp)?)' file not found",
        r"^(?P<api>[\w./-]+\.h(?:pp)?): No such file or directory",
    ):
        m = re.search(rx, msg)
        if m:
            ev.api = m.group("api")
            break
    m = re.search(r"did you mean '([\w:]+)'", msg)
    if m:
        ev.extra["suggestion"] = m.group(1)
