"""Line parser: ACL / runtime / aclnn / torch_npu errors (one event per fault)."""

from __future__ import annotations

import re

from ascendc_lsp.toolchain.logs.build import _inner_location
from ascendc_lsp.toolchain.logs.events import LogEvent
from ascendc_lsp.toolchain.logs.patterns import (
    _ACL_API_RE,
    _BISHENG_RUNTIME_RE,
    _BLK_RE,
    _CORE_ID_RE,
    _ERRCODE_TUPLE_RE,
    _ERRORSTR_RE,
    _EXC_TYPE_RE,
    _HOST_LOC_RE,
    _HW_ERRCODE_RE,
    _KERNEL_NAME_RE,
    _PLOG_RE,
    _PY_LOC_RE,
    _RETCODE_RE,
    _RUNTIME_TRIGGER_RE,
    _TASK_EXC_RE,
    _acl_codes,
    _clean_runtime_message,
    _clean_trailers,
    _ecodes,
    _headline_priority,
    _sev,
)
from ascendc_lsp.toolchain.logs.state import ParseState


# -- runtime ------------------------------------------------------------------------------------
def runtime_line(st: ParseState, i: int, s: str, raw: str) -> bool:
    plog = _PLOG_RE.match(s)
    bisheng = _BISHENG_RUNTIME_RE.match(s) if not plog else None
    ecodes = _ecodes(s)
    trigger = bool(plog or bisheng or ecodes or _RUNTIME_TRIGGER_RE.search(s))
    if not trigger:
        # a continuation line of a runtime block ("TraceBack", "Possible Cause", indented details)
        if (
            st.cur_runtime is not None
            and i - st.runtime_last_line <= 1
            and (
                s.startswith(
                    ("TraceBack", "Possible Cause", "Solution", "Rectify", "Check ", "[Error]", "[ERROR]")
                )
                or "[FUNC:" in s
            )
        ):
            st.extend(st.cur_runtime, i)
            st.runtime_last_line = i
            return True
        return False

    msg = s
    tool = "acl"
    sev = "error"
    origin: str | None = None
    if plog:
        sev = _sev(plog.group("sev"))
        if sev not in ("error", "warning"):
            return False
        mod = plog.group("mod")
        msg = re.sub(r"^[A-Za-z_]\w*:(?=\S)", "", plog.group("msg"), count=1)
        origin = f"{plog.group('src')}:{plog.group('srcline')}"
        tool = mod.lower()
        if mod in ("TBE", "ASCENDC", "CCECPU", "OP_COMPILE", "ATC", "TEFUSION"):
            bev = LogEvent(
                kind="build", severity=sev, message=_clean_trailers(msg)[0], stage="compile", tool=tool
            )
            bev.extra["origin"] = origin
            for c in _ecodes(msg) + _acl_codes(msg):
                bev.add_code(c)
            _inner_location(st, bev, msg)
            st.emit(bev, i)
            return True
    elif bisheng:
        tool = "bisheng-runtime"
        msg = bisheng.group("msg")

    msg_clean, trailer_origin = _clean_trailers(msg)
    msg_clean = _clean_runtime_message(msg_clean)
    origin = origin or trailer_origin

    ev = st.cur_runtime
    new_fault = False
    if ev is not None and i - st.runtime_last_line > 3:
        ev = None
    if ev is not None:
        es = _ERRORSTR_RE.search(msg_clean)
        core = _CORE_ID_RE.search(msg_clean)
        # a second, different fault in the same block starts a new event (keeping the block's codes)
        if es and ev.error_str and es.group("s").strip().rstrip(".") != ev.error_str.rstrip("."):
            new_fault = True
        elif core and ev.core_id is not None and int(core.group("core")) != ev.core_id:
            ev.extra.setdefault("core_ids", [ev.core_id])
            if int(core.group("core")) not in ev.extra["core_ids"]:
                ev.extra["core_ids"].append(int(core.group("core")))
    if ev is None or new_fault:
        inherited = (
            [c for c in ev.codes if c.isdigit() or c.startswith(("E", "ERR"))]
            if (ev is not None and new_fault)
            else []
        )
        ev = LogEvent(kind="runtime-error", severity=sev, message=msg_clean, stage="runtime", tool=tool)
        for c in inherited:
            ev.add_code(c)
        ev.extra["first_line"] = msg_clean
        st.emit(ev, i)
        st.cur_runtime = ev
    else:
        st.extend(ev, i)
    st.runtime_last_line = i
    if origin:
        ev.extra.setdefault("origins", [])
        if len(ev.extra["origins"]) < 8:
            ev.extra["origins"].append(origin)
    _runtime_fields(st, ev, msg_clean, s)
    return True


def _runtime_fields(st: ParseState, ev: LogEvent, msg: str, full: str) -> None:
    for c in _acl_codes(full):
        ev.add_code(c)
    for c in _ecodes(full):
        ev.add_code(c)
    m = _RETCODE_RE.search(msg)
    if m:
        rc = m.group("rc")
        if ev.ret_code is None:
            ev.ret_code = rc
        ev.add_code(rc)
    m = _CORE_ID_RE.search(msg)
    if m and ev.core_id is None:
        ev.core_id = int(m.group("core"))
    m = _HW_ERRCODE_RE.search(msg)
    if m and "hw_error_code" not in ev.extra:
        ev.extra["hw_error_code"] = m.group("ec")
    m = _ERRCODE_TUPLE_RE.search(msg)
    if m and "errcode" not in ev.extra:
        ev.extra["errcode"] = m.group("ec")
    m = _ERRORSTR_RE.search(msg)
    if m and ev.error_str is None and m.group("s").strip():
        ev.error_str = m.group("s").strip()
    m = _EXC_TYPE_RE.search(msg)
    if m and "exception" not in ev.extra:
        ev.extra["exception"] = m.group("exc")
    m = _TASK_EXC_RE.search(msg)
    if m:
        ev.extra["task_exception"] = m.group("what")
    m = _KERNEL_NAME_RE.search(msg)
    if m and "kernel_name" not in ev.extra:
        ev.extra["kernel_name"] = m.group("k").rstrip(",")
    m = _BLK_RE.search(msg)
    if m and ev.block is None:
        ev.block = int(m.group("blk"))
    m = _ACL_API_RE.search(msg)
    if m and ev.api is None:
        ev.api = m.group("api")
    m = _HOST_LOC_RE.search(msg)
    if m and ev.file is None:
        ev.file, ev.line = m.group("file"), int(m.group("line"))
        ev.extra["location_kind"] = "host"
    m = _PY_LOC_RE.search(msg)
    if m and "host_location" not in ev.extra:
        ev.extra["host_location"] = f"{m.group('file')}:{m.group('line')}"
    es_m = _ERRORSTR_RE.search(msg)
    prio = _headline_priority(msg, bool(es_m and es_m.group("s").strip()))
    if prio > ev.extra.get("_prio", 0):
        ev.extra["_prio"] = prio
        ev.message = ev.error_str if prio >= 100 and ev.error_str else msg
