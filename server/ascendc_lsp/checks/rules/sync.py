"""Pipe synchronisation: SetFlag/WaitFlag pairing and ids, scalar reads of vector results, TBuf pipelines."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from ascendc_lsp.checks.base import CheckContext, rule
from ascendc_lsp.checks.fixes import fix, insert_line_after
from ascendc_lsp.checks.limits import limits_for
from ascendc_lsp.checks.rules._common import (
    DATA_MOVES,
    SYNC_CALLS,
    VECTOR_OPS,
    calls_by_function,
    event_id_arg,
    event_id_value,
    event_of,
    receiver_name,
    strip_this,
    tensor_arg,
    tensor_of,
    visible_decl,
)
from ascendc_lsp.diagnostics import Diagnostic, Fix, Related
from ascendc_lsp.syntax.model import ApiCall, Function
from ascendc_lsp.syntax.positions import Span

_EVENT_NAME = re.compile(r"^[A-Z0-9]+_[A-Z0-9_]+$")
_FLAG_CALLS = ("SetFlag", "WaitFlag", "set_flag", "wait_flag")


def _id_key(call: ApiCall) -> str | None:
    """A literal event id (`EVENT_ID0`, `0`) as a comparable key; None for ids computed at run time."""
    value = event_id_value(call)
    return str(value) if value is not None else None


def _flag_calls(context: CheckContext) -> list[tuple[ApiCall, str]]:
    found = []
    for call in context.model.calls_named(*_FLAG_CALLS):
        if call.receiver is not None:
            continue
        event = event_of(call)
        if event is None or not _EVENT_NAME.match(event):
            continue
        found.append((call, event))
    return found


def _id_text(call: ApiCall) -> str:
    """The event id argument as written, normalised (`(event_t)id`, `this->id`, spaces dropped)."""
    text = event_id_arg(call) or ""
    text = re.sub(r"^\(\s*event_t\s*\)|^static_cast\s*<\s*event_t\s*>", "", text.strip())
    return re.sub(r"\s+|this->|AscendC::", "", text).strip("()")


def _local_id(context: CheckContext, call: ApiCall) -> bool:
    """The id is a variable declared in the calling function (not a parameter, member or constant): the
    other half of the pair can only be in that function, unless the id is handed to other code."""
    function = call.function
    name = _id_text(call)
    if function is None or not re.fullmatch(r"[A-Za-z_]\w*", name):
        return False
    if any(p.name == name for p in function.params):
        return False
    decl = visible_decl(context, name, call.start_byte)
    if decl is None or not function.body_start <= decl.start_byte <= function.body_end:
        return False
    # Passed to another call (`Helper(eventId)`): the pair may be completed there.
    return not any(
        c.function is function and c.name not in _FLAG_CALLS + _ID_BOOKKEEPING_CALLS and any(_IDENT_ARG_RE.fullmatch(a.text.strip()) and
                                                                     strip_this(a.text) == name for a in c.args)
        for c in calls_by_function(context).get(function.start_byte, [])
    )


def _initialiser_text(context: CheckContext, name: str, decl_start: int) -> str:
    """The text of every value given to the variable declared at `decl_start` in its declaration."""
    node = context.document.tree.root_node.descendant_for_byte_range(decl_start, decl_start)
    while node is not None and node.type != "declaration":
        node = node.parent
    if node is None:
        return ""
    texts = []
    for declarator in node.children_by_field_name("declarator"):
        target = declarator.child_by_field_name("declarator")
        value = declarator.child_by_field_name("value")
        if declarator.type == "init_declarator" and target is not None and value is not None and (
            context.document.node_text(target) == name
        ):
            texts.append(context.document.node_text(value))
    return " ".join(texts)


_IDENT_ARG_RE = re.compile(r"(?:this\s*->\s*)?[A-Za-z_]\w*")
# TPipe's event id bookkeeping: it names an event (and takes or gives back an id) but never sets or waits on it
# (docs/zh/api/SIMD-API/基础API/资源管理/Pipe和Que框架/TPipe/AllocEventID.md, ReleaseEventID.md, FetchEventID.md).
_ID_BOOKKEEPING_CALLS = ("AllocEventID", "ReleaseEventID", "FetchEventID")
_ID_BOOKKEEPING = re.compile(
    rb"\b(?:" + "|".join(_ID_BOOKKEEPING_CALLS).encode() + rb")\s*(?:<[^<>;]*>|\(\s*(?:AscendC::)?HardEvent::\w+\s*\))"
)


def _allocated_id(context: CheckContext, call: ApiCall) -> bool:
    """A local id from AllocEventID: this variable's own id, paired only through this variable. FetchEventID
    hands out the next free id without taking it, so another variable may hold the same one, and a computed
    id (`i == 0 ? EVENT_ID0 : EVENT_ID1`) may equal another variable's
    (docs/zh/api/SIMD-API/基础API/资源管理/Pipe和Que框架/TPipe/FetchEventID.md)."""
    if not _local_id(context, call):
        return False
    name = _id_text(call)
    decl = visible_decl(context, name, call.start_byte)
    return decl is not None and "AllocEventID" in _initialiser_text(context, name, decl.start_byte)


_LOOPS = frozenset({"for_statement", "for_range_loop", "while_statement", "do_statement"})


def _unwaited_span(context: CheckContext, call: ApiCall) -> tuple[Span, str]:
    """For a lone SetFlag on a local id: the stretch of code where its WaitFlag could still go, and how the id's
    life ends. It runs from the SetFlag (or from the top of the innermost loop around it that the id outlives:
    the wait may belong to the next iteration) to the id's ReleaseEventID, else to the end of its block, where
    the flag is left set for good (docs/zh/api/SIMD-API/基础API/资源管理/Pipe和Que框架/TPipe/ReleaseEventID.md).
    A missing wait then shows where it is missing, as a tensor never freed spans to where it is lost."""
    name = _id_text(call)
    decl = visible_decl(context, name, call.start_byte)
    if call.function is None or decl is None or decl.scope_end <= call.end_byte:
        return call.span, ""
    lines = context.document.lines
    end = decl.scope_end
    how = f"{name} goes out of scope at line {lines.line_of(end) + 1} with the flag still set"
    for other in calls_by_function(context).get(call.function.start_byte, []):
        if (other.name == "ReleaseEventID" and call.end_byte <= other.start_byte < end
                and any(strip_this(a.text.strip()) == name for a in other.args)):
            end = other.end_byte
            how = f"{name} is given back (ReleaseEventID) at line {other.span.start.line + 1} with the flag still set"
            break
    start = call.start_byte
    node = context.document.tree.root_node.descendant_for_byte_range(call.start_byte, call.end_byte)
    while node is not None and node.start_byte > decl.start_byte:
        if node.type in _LOOPS:
            start = node.start_byte
            break
        node = node.parent
    return lines.span(start, end), "; " + how


@rule("ASC014")
def setflag_without_waitflag(context: CheckContext) -> Iterator[Diagnostic]:
    calls = _flag_calls(context)
    sets = [(c, e) for c, e in calls if c.name in ("SetFlag", "set_flag")]
    waits = [(c, e) for c, e in calls if c.name in ("WaitFlag", "wait_flag")]

    def matches(call: ApiCall, event: str, others: list[tuple[ApiCall, str]]) -> bool:
        key = _id_key(call)
        text = _id_text(call)
        # Only an allocated id is known to differ from other variables' ids (see _allocated_id).
        local = key is None and _allocated_id(context, call)
        for other, other_event in others:
            if other_event != event:
                continue
            other_key = _id_key(other)
            if key is not None and other_key is not None:
                if key == other_key:
                    return True
                continue
            if key is not None or other_key is not None:
                # A literal against a computed id: the computed one may hold that value.
                if not local:
                    return True
                continue
            if _id_text(other) == text and (not local or other.function is call.function):
                return True
            if not local and not _allocated_id(context, other):
                return True  # two computed ids that are not allocated ones: they may be the same event id
        return False

    def decided(call: ApiCall) -> bool:
        # Literal ids, and ids held in a variable of the calling function: their pairing is visible here.
        return _id_key(call) is not None or _local_id(context, call)

    # An event this file names in one flag call only, with no generic flag helper (`SetFlag<EVENT>` of a
    # template parameter) around: whatever its id, nothing here can pair it.
    generic = any(event_of(c) is None or not _EVENT_NAME.match(event_of(c) or "")
                  for c in context.model.calls_named(*_FLAG_CALLS) if c.receiver is None)
    # Taking or giving back an id (`AllocEventID<HardEvent::MTE2_V>()`) names the event without setting or
    # waiting on it, so it does not count as a possible other half.
    data = _ID_BOOKKEEPING.sub(b"", context.document.data)
    mentions = Counter(re.findall(rb"\b([A-Z][A-Z0-9]*_[A-Z0-9_]+)\b", data))

    def alone(event: str) -> bool:
        return not generic and mentions[event.encode()] == 1

    for call, event in sets:
        if not (decided(call) or alone(event)) or matches(call, event, waits):
            continue
        id_text = event_id_arg(call) or ""
        wait_text = context.document.data[call.start_byte:call.end_byte].decode("utf-8", "replace")
        wait_text = wait_text.replace("SetFlag", "WaitFlag", 1).replace("set_flag", "wait_flag", 1)
        fixes: list[Fix] = [fix("Add the matching WaitFlag after this SetFlag",
                                insert_line_after(context.document, call.end_byte, wait_text + ";"))]
        span, how = _unwaited_span(context, call) if _local_id(context, call) else (call.span, "")
        yield context.finding(
            "ASC014", span,
            f"SetFlag<{event}>({id_text}) has no WaitFlag<{event}> with the same event id{how}: the flag stays set "
            "and the next kernel or iteration hangs (aicore timeout)",
            fixes=fixes,
            # Paired by the event alone (the id is computed): the other half might live in another file.
            severity=None if decided(call) else "warning",
        )
    for call, event in waits:
        if not (decided(call) or alone(event)) or matches(call, event, sets):
            continue
        id_text = event_id_arg(call) or ""
        yield context.finding(
            "ASC014", call.span,
            f"WaitFlag<{event}>({id_text}) waits for an event that no SetFlag<{event}> with the same id ever sets: "
            "the pipe waits forever (aicore timeout)",
            severity=None if decided(call) else "warning",
        )


@rule("ASC035")
def event_id_range(context: CheckContext) -> Iterator[Diagnostic]:
    limits = limits_for(context)
    uses_tpipe = any(b.kind in ("TPipe", "TQue", "TQueBind") for b in context.model.buffers)
    for call, event in _flag_calls(context):
        value = event_id_value(call)
        if value is None:
            continue
        if value < 0 or value >= limits.event_ids:
            yield context.finding(
                "ASC035", call.span,
                f"Event id {value} is outside {limits.soc_name}'s range 0-{limits.event_ids - 1} ({call.name}<{event}>)",
            )
        elif uses_tpipe and limits.event_ids == 8 and value in (6, 7):
            use = "reserved" if value == 6 else "used by TPipe's automatic synchronisation"
            yield context.finding(
                "ASC035", call.span,
                f"Event id {value} is {use}: pick ids 0-5 by hand, or get one with "
                f"GetTPipePtr()->FetchEventID(HardEvent::{event})",
                severity="warning",
            )


@rule("ASC033")
def pipe_barrier_pipe_s(context: CheckContext) -> Iterator[Diagnostic]:
    for call in context.model.calls_named("PipeBarrier", "pipe_barrier"):
        pipe = call.template_args[0] if call.template_args else (call.args[0].text if call.args else "")
        if pipe.split("::")[-1].strip() == "PIPE_S":
            yield context.finding(
                "ASC033", call.span,
                "PipeBarrier<PIPE_S> is not supported: the scalar pipe keeps its own order in hardware; remove it",
            )


# -- ASC015 / ASC016 ---------------------------------------------------------------------------------------------


def _function_calls(context: CheckContext) -> dict[int, list[ApiCall]]:
    return calls_by_function(context)


def _is_sync(call: ApiCall, user_functions: set[str]) -> bool:
    return call.name in SYNC_CALLS or call.name in user_functions or "Sync" in call.name


def _synced_between(calls: list[ApiCall], start: int, end: int, user_functions: set[str]) -> bool:
    return any(start < c.start_byte < end and _is_sync(c, user_functions) for c in calls)


def _dst_name(call: ApiCall) -> str | None:
    parsed = tensor_arg(call.args[0].text) if call.args else None
    return parsed[0] if parsed is not None else None


def _src_names(call: ApiCall) -> set[str]:
    names = set()
    for arg in call.args[1:]:
        parsed = tensor_arg(arg.text)
        if parsed is not None:
            names.add(parsed[0])
    return names


@rule("ASC015")
def scalar_read_without_sync(context: CheckContext) -> Iterator[Diagnostic]:
    user_functions = {f.name for f in context.model.functions}
    for calls in _function_calls(context).values():
        for read in calls:
            if read.name != "GetValue":
                continue
            tensor = receiver_name(read)
            if tensor is None:
                continue
            var = tensor_of(context, tensor, read.start_byte)
            if var is None or var.kind != "LocalTensor":
                continue
            writers = [
                c for c in calls
                if c.name in VECTOR_OPS and c.receiver is None and c.end_byte <= read.start_byte
                and _dst_name(c) == tensor
            ]
            if not writers:
                continue
            last = writers[-1]
            if _synced_between(calls, last.end_byte, read.start_byte, user_functions):
                continue
            yield context.finding(
                "ASC015", read.span,
                f"{tensor}.GetValue reads the result of {last.name} on the scalar unit without a V_S sync: add "
                "SetFlag<HardEvent::V_S>/WaitFlag<HardEvent::V_S> in between, or the read may see stale data",
                related=[Related(last.span, f"{last.name} writes {tensor} on the vector pipe")],
            )


def _tbuf_tensors(context: CheckContext, function: Function, calls: list[ApiCall]) -> set[str]:
    names: set[str] = set()
    for call in calls:
        if call.name not in ("Get", "GetWithOffset"):
            continue
        decl = context.model.buffer(receiver_name(call) or "")
        if decl is None or decl.kind != "TBuf":
            continue
        text = context.document.data[max(function.body_start, call.start_byte - 200):call.start_byte]
        match = re.search(rb"([A-Za-z_]\w*)\s*=\s*(?:this\s*->\s*)?[\w.>\-]*$", text)
        if match:
            names.add(strip_this(match.group(1).decode()))
    return names


@rule("ASC016")
def tbuf_missing_sync(context: CheckContext) -> Iterator[Diagnostic]:
    user_functions = {f.name for f in context.model.functions}
    for calls in _function_calls(context).values():
        function = calls[0].function
        if function is None:
            continue
        tbuf = _tbuf_tensors(context, function, calls)
        if not tbuf:
            continue
        for index, move in enumerate(calls):
            if move.name not in DATA_MOVES or len(move.args) < 2:
                continue
            dst, src = _dst_name(move), tensor_arg(move.args[1].text)
            src_name = src[0] if src is not None else None
            src_var = tensor_of(context, src_name, move.start_byte) if src_name else None
            dst_var = tensor_of(context, dst, move.start_byte) if dst else None
            if dst in tbuf and src_var is not None and src_var.kind == "GlobalTensor":
                # GM -> TBuf tensor, then a vector op reads it: needs MTE2_V.
                for later in calls[index + 1:]:
                    if _is_sync(later, user_functions):
                        break
                    if later.name in VECTOR_OPS and later.receiver is None and dst in _src_names(later):
                        yield context.finding(
                            "ASC016", later.span,
                            f"{later.name} reads {dst} (a TBuf tensor) right after DataCopy filled it from GM, with "
                            "no MTE2_V sync: the vector pipe may read before the copy lands",
                            related=[Related(move.span, "DataCopy on MTE2")],
                        )
                        break
            if src_name in tbuf and dst_var is not None and dst_var.kind == "GlobalTensor":
                # A vector op writes the TBuf tensor, then DataCopy sends it to GM: needs V_MTE3.
                for earlier in reversed(calls[:index]):
                    if _is_sync(earlier, user_functions):
                        break
                    if earlier.name in VECTOR_OPS and earlier.receiver is None and _dst_name(earlier) == src_name:
                        yield context.finding(
                            "ASC016", move.span,
                            f"DataCopy sends {src_name} (a TBuf tensor) to GM right after {earlier.name} wrote it, "
                            "with no V_MTE3 sync: MTE3 may copy before the vector pipe finishes",
                            related=[Related(earlier.span, f"{earlier.name} on the vector pipe")],
                        )
                        break
