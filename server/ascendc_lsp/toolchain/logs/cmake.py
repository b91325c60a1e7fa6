"""Line parser: CMake errors and warnings with their indented bodies."""

from __future__ import annotations

from ascendc_lsp.toolchain.logs.events import LogEvent
from ascendc_lsp.toolchain.logs.patterns import _CMAKE_HEAD_RE, _int
from ascendc_lsp.toolchain.logs.state import ParseState


# -- cmake --------------------------------------------------------------------------------------
def cmake_line(st: ParseState, i: int, s: str, raw: str) -> bool:
    m = _CMAKE_HEAD_RE.match(s)
    if not m:
        return False
    sev = "error" if m.group("sev") == "Error" else "warning"
    ev = LogEvent(
        kind="cmake",
        severity=sev,
        message=m.group("msg").strip(),
        file=m.group("file"),
        line=_int(m.group("line")),
        stage="compile",
        tool="cmake",
    )
    if m.group("cmd"):
        ev.api = m.group("cmd")
    st.cur_cmake = st.emit(ev, i)
    return True


def cmake_body_line(st: ParseState, i: int, s: str, raw: str) -> bool:
    """CMake body lines are indented continuations of the head (`CMake Error at ...:`)."""
    if st.cur_cmake is None:
        return False
    if raw[:1] in (" ", "\t") and not raw.lstrip().startswith("--"):
        st.cur_cmake.message = (st.cur_cmake.message + " " + s).strip()
        st.extend(st.cur_cmake, i)
        return True
    if s.startswith("-- Configuring incomplete") or s.startswith("Call Stack"):
        st.extend(st.cur_cmake, i)
        return True
    st.cur_cmake = None
    return False
