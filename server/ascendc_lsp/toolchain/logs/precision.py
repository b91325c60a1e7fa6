"""Line parser: precision checks (verify scripts, benchmarks, torch.testing)."""

from __future__ import annotations

from ascendc_lsp.toolchain.logs.events import LogEvent
from ascendc_lsp.toolchain.logs.patterns import (
    _DATA_INDEX_RE,
    _DIFF_COUNT_RE,
    _ERROR_RATIO_RE,
    _LOCATION_TUPLE_RE,
    _MAX_DIFF_RE,
    _NOT_CLOSE_RE,
    _OUTPUT_MISMATCH_RE,
    _PRECISION_GATE_RE,
    _RESULT_ERROR_IDX_RE,
    _RESULT_ERROR_RE,
    _TEST_PASS_RE,
    _TORCH_GREATEST_RE,
    _TORCH_MISMATCH_RE,
)
from ascendc_lsp.toolchain.logs.state import ParseState


# -- precision ----------------------------------------------------------------------------------
def precision_line(st: ParseState, i: int, s: str, raw: str) -> bool:
    if not _PRECISION_GATE_RE.search(s):
        return False
    m = _DATA_INDEX_RE.search(s)
    if m:
        ev: LogEvent | None = None
        if st.cur_prec is not None and i - st.prec_last_line <= 2 and "mismatches" in st.cur_prec.extra:
            ev = st.cur_prec
        if ev is None:
            ev = LogEvent(
                kind="precision",
                severity="error",
                message="output mismatch",
                stage="precision",
                tool="verify",
            )
            ev.extra["mismatches"] = []
            st.cur_prec = st.emit(ev, i)
        else:
            st.extend(ev, i)
        entry = {"index": int(m.group("idx")), "expected": m.group("exp"), "actual": m.group("act")}
        if m.group("rdiff"):
            entry["rdiff"] = m.group("rdiff")
        lst = ev.extra["mismatches"]
        ev.extra["mismatch_lines"] = ev.extra.get("mismatch_lines", 0) + 1
        if len(lst) < 20:
            lst.append(entry)
        first = lst[0]
        ev.message = f"output mismatch: {ev.extra['mismatch_lines']} element(s) listed, first at index {first['index']} (expected {first['expected']}, actual {first['actual']})"
        st.prec_last_line = i
        return True
    m = _ERROR_RATIO_RE.search(s)
    if m:
        ratio, tol = float(m.group("ratio")), float(m.group("tol"))
        ev = _prec_attach(st, i)
        if ev is None:
            ev = st.emit(
                LogEvent(
                    kind="precision",
                    severity="error" if ratio > tol else "info",
                    message=s,
                    stage="precision",
                    tool="verify",
                ),
                i,
            )
            st.cur_prec = ev
        ev.extra["error_ratio"], ev.extra["error_tolerance"] = ratio, tol
        if ratio > tol:
            ev.severity = "error"
        st.prec_last_line = i
        return True
    m = _RESULT_ERROR_RE.match(s)
    if m:
        ev = _prec_attach(st, i)
        mi = _RESULT_ERROR_IDX_RE.search(m.group("rest"))
        if ev is None:
            ev = st.emit(
                LogEvent(kind="precision", severity="error", message=s, stage="precision", tool="verify"),
                i,
            )
            st.cur_prec = ev
        ev.severity = "error"
        ev.extra["verdict"] = "fail"
        if mi:
            ev.extra.setdefault("mismatches", []).append(
                {"index": int(mi.group("idx")), "expected": mi.group("exp"), "actual": mi.group("act")}
            )
        st.prec_last_line = i
        return True
    if _TEST_PASS_RE.match(s):
        ev = LogEvent(kind="precision", severity="info", message=s, stage="precision", tool="verify")
        ev.extra["verdict"] = "pass"
        st.emit(ev, i)
        return True
    m = _OUTPUT_MISMATCH_RE.search(s)
    if m and (s.startswith("[") or "max diff" in s.lower() or "mismatch" in s[:40].lower()):
        ev = LogEvent(kind="precision", severity="error", message=s, stage="precision", tool="verify")
        md = _MAX_DIFF_RE.search(s)
        if md:
            ev.extra["max_diff"] = md.group("v")
        ml = _LOCATION_TUPLE_RE.search(s)
        if ml:
            ev.extra["index"] = ml.group("loc")
        ev.extra["verdict"] = "fail"
        st.cur_prec = st.emit(ev, i)
        st.prec_last_line = i
        return True
    m = _DIFF_COUNT_RE.match(s)
    if m:
        ev = _prec_attach(st, i)
        if ev is None:
            ev = st.emit(
                LogEvent(kind="precision", severity="error", message=s, stage="precision", tool="verify"),
                i,
            )
            st.cur_prec = ev
        ev.extra["mismatch_count"] = int(m.group("n"))
        st.prec_last_line = i
        return True
    if _NOT_CLOSE_RE.search(s):
        ev = LogEvent(kind="precision", severity="error", message=s, stage="precision", tool="torch.testing")
        st.cur_prec = st.emit(ev, i)
        st.prec_last_line = i
        return True
    m = _TORCH_MISMATCH_RE.search(s)
    if m:
        ev = _prec_attach(st, i, window=4) or st.emit(
            LogEvent(kind="precision", severity="error", message=s, stage="precision", tool="torch.testing"),
            i,
        )
        st.cur_prec = ev
        ev.extra["mismatch_count"], ev.extra["elements"] = int(m.group("n")), int(m.group("total"))
        st.prec_last_line = i
        return True
    m = _TORCH_GREATEST_RE.search(s)
    if m:
        ev = _prec_attach(st, i, window=4)
        if ev is None:
            return False
        ev.extra[f"max_{m.group('which')}_diff"] = m.group("v")
        ev.extra.setdefault("index", m.group("idx"))
        st.prec_last_line = i
        return True
    return False


def _prec_attach(st: ParseState, i: int, window: int = 3) -> LogEvent | None:
    if st.cur_prec is not None and i - st.prec_last_line <= window:
        st.extend(st.cur_prec, i)
        return st.cur_prec
    return None
